/*
 * binary_harness.h - what the test_reference_binary_*.c suites share: the
 * kernel harness on the built reference.so (opened by setup(), closed by
 * teardown(), for a TestSuite's .init and .fini), a two-input node builder
 * and an output check. Defined in binary_harness.c.
 */
#ifndef OPVER_TESTS_BINARY_HARNESS_H
#define OPVER_TESTS_BINARY_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

/* A node of kernel `kernel` with parameters `params` (NULL: none) over
 * inputs a, b and output out (borrowed from h, like its tensors). */
opver_node *binary_node(const char *kernel, int32_t version,
			const void *params, size_t params_size,
			opver_tensor *a, opver_tensor *b,
			opver_tensor *out);

/* The output holds exactly `count` bytes equal to `want`. */
void expect_uint8s(const opver_tensor *out, const uint8_t *want,
		   size_t count);

#endif
