/*
 * conv_harness.h - what the test_reference_conv_*.c suites share: the
 * kernel harness on the built reference.so (opened by setup(), closed by
 * teardown(), for a TestSuite's .init and .fini), the CONV_2D kernels'
 * names, node and tensor builders and checks of outputs and of prepare's
 * refusals. Defined in conv_harness.c.
 */
#ifndef OPVER_TESTS_CONV_HARNESS_H
#define OPVER_TESTS_CONV_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define CONV_FLOAT32 "conv_2d_float32"
#define CONV_INT8 "conv_2d_int8"
#define CONV_HYBRID "conv_2d_hybrid"
#define CONV_INT16X8 "conv_2d_int16x8"
#define CONV_UINT8 "conv_2d_uint8"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

/* Parameters with the same stride and dilation in both dimensions. */
opver_conv_params conv_params(opver_padding padding, int32_t stride,
			      int32_t dilation,
			      opver_activation activation);

/* A node of `kernel` (borrowed from h, like its tensors). */
opver_node *conv_node(const char *kernel, int32_t version,
		      const opver_conv_params *params,
		      int32_t num_inputs, opver_tensor *const *inputs,
		      opver_tensor *output);

/* Tensors of h; data and scales are borrowed. */
opver_tensor *float_tensor(const char *name, int32_t rank,
			   const int32_t *dims, const float *data);
/* Quantized per tensor. */
opver_tensor *quantized(const char *name, opver_type type,
			int32_t rank, const int32_t *dims,
			const void *data, float scale,
			int64_t zero_point);
/* An int8 filter quantized per channel along axis 0, symmetric. */
opver_tensor *per_channel_filter(int32_t rank, const int32_t *dims,
				 const int8_t *data,
				 const float *scales);

/* Expect the tensor to hold `want`, exactly or within `tolerance`. */
void expect_floats(const opver_tensor *tensor, const float *want,
		   size_t count);
void expect_floats_near(const opver_tensor *tensor, const float *want,
			size_t count, double tolerance);
void expect_int8s(const opver_tensor *tensor, const int8_t *want,
		  size_t count);
void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
		   size_t count);
void expect_int16s(const opver_tensor *tensor, const int16_t *want,
		   size_t count);

void expect_rejected(opver_node *node, opver_status status,
		     const char *text);

#endif
