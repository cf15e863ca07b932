/*
 * activation_harness.h - what the test_reference_activation_*.c suites
 * share: the kernel harness on the built reference.so (opened by setup(),
 * closed by teardown(), for a TestSuite's .init and .fini), a one-input
 * node builder, a runner on quantized tensors and an output check.
 * Defined in activation_harness.c.
 */
#ifndef OPVER_TESTS_ACTIVATION_HARNESS_H
#define OPVER_TESTS_ACTIVATION_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

/* A one-input activation node of kernel `name` from `input` to `output`
 * (borrowed from h, like its tensors). */
opver_node *unary_node(const char *name, const void *params,
		       size_t params_size, opver_tensor *input,
		       opver_tensor *output);

/* Runs kernel `name` on a 1-D quantized tensor of `count` elements and
 * returns the output (borrowed from h). */
opver_tensor *run_quantized(const char *name, const void *params,
			    size_t params_size, opver_type type,
			    const void *in, int32_t count,
			    float in_scale, int32_t in_zero,
			    float out_scale, int32_t out_zero);

void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
		   size_t count);

#endif
