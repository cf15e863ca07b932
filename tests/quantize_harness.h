/*
 * quantize_harness.h - what the test_reference_quantize_*.c suites share:
 * the kernel harness on the built reference.so (opened by setup(), closed
 * by teardown(), for a TestSuite's .init and .fini), a node builder and an
 * output check. Defined in quantize_harness.c.
 */
#ifndef OPVER_TESTS_QUANTIZE_HARNESS_H
#define OPVER_TESTS_QUANTIZE_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

/* A QUANTIZE or DEQUANTIZE node: no parameters (borrowed from h, like its
 * tensors). */
opver_node *unary_node(const char *kernel, int32_t version,
		       opver_tensor *in, opver_tensor *out);

void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
		   size_t count);

#endif
