/*
 * fc_harness.h - what the test_reference_fc_*.c suites share: the kernel
 * harness on the built reference.so (opened by setup(), closed by
 * teardown(), for a TestSuite's .init and .fini), the FULLY_CONNECTED
 * kernels' names, a node builder and checks of outputs and of prepare's
 * refusals. Defined in fc_harness.c.
 */
#ifndef OPVER_TESTS_FC_HARNESS_H
#define OPVER_TESTS_FC_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define FC_FLOAT32 "fully_connected_float32"
#define FC_INT8 "fully_connected_int8"
#define FC_HYBRID "fully_connected_hybrid"
#define FC_UINT8 "fully_connected_uint8"
#define FC_INT16X8 "fully_connected_int16x8"
#define FC_UINT8_INT16 "fully_connected_uint8_int16"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

opver_fully_connected_params fc_params(opver_activation activation);

/* A node of `kernel` (borrowed from h, like its tensors). */
opver_node *fc_node(const char *kernel, int32_t version,
		    const opver_fully_connected_params *params,
		    int32_t num_inputs, opver_tensor *const *inputs,
		    opver_tensor *output);

/* An int8 tensor of h quantized per tensor; data is borrowed. */
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
