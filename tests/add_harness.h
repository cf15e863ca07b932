/*
 * add_harness.h - what the test_reference_add_*.c suites share: the kernel
 * harness on the built reference.so (opened by setup(), closed by
 * teardown(), for a TestSuite's .init and .fini), the ADD kernels' names
 * and a node builder. Defined in add_harness.c.
 */
#ifndef OPVER_TESTS_ADD_HARNESS_H
#define OPVER_TESTS_ADD_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define ADD_FLOAT32 "add_float32"
#define ADD_INT8 "add_int8"
#define ADD_INT16 "add_int16"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

/* An ADD node with the full current params struct (borrowed from h, like
 * its tensors). */
opver_node *add_node(const char *kernel, int32_t version,
		     opver_activation activation, bool pot_scale_int16,
		     opver_tensor *in1, opver_tensor *in2,
		     opver_tensor *out);

#endif
