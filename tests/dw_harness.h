/*
 * dw_harness.h - what the test_reference_depthwise_conv_*.c suites share:
 * the kernel harness on the built reference.so (opened by setup(), closed
 * by teardown(), for a TestSuite's .init and .fini), the DEPTHWISE_CONV_2D
 * kernels' names, node and tensor builders and checks of outputs and of
 * prepare's refusals. Defined in dw_harness.c.
 */
#ifndef OPVER_TESTS_DW_HARNESS_H
#define OPVER_TESTS_DW_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define DW_FLOAT32 "depthwise_conv_2d_float32"
#define DW_INT8 "depthwise_conv_2d_int8"
#define DW_UINT8 "depthwise_conv_2d_uint8"
#define DW_INT16X8 "depthwise_conv_2d_int16x8"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

opver_depthwise_conv_params dw_params(opver_padding padding);

/* A node of `kernel` (borrowed from h, like its tensors). */
opver_node *dw_node(const char *kernel, int32_t version,
		    const opver_depthwise_conv_params *params,
		    int32_t num_inputs, opver_tensor *const *inputs,
		    opver_tensor *output);

/* Tensors of h; data is borrowed. */
opver_tensor *float_tensor(const char *name, int32_t rank,
			   const int32_t *dims, const float *data);
opver_tensor *int8_tensor(const char *name, int32_t rank,
			  const int32_t *dims, const int8_t *data,
			  float scale, int64_t zero_point);

/* Expects the tensor to hold exactly `want`. */
void expect_floats(const opver_tensor *tensor, const float *want,
		   size_t count);
void expect_int8s(const opver_tensor *tensor, const int8_t *want,
		  size_t count);

void expect_rejected(opver_node *node, opver_status status,
		     const char *text);

#endif
