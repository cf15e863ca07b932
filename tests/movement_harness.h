/*
 * movement_harness.h - what the test_reference_movement_*.c suites share:
 * the movement suite (its .init opens the kernel harness on the built
 * reference.so, its .fini closes it), tensor and node builders and a
 * runner. Defined in movement_harness.c.
 */
#ifndef OPVER_TESTS_MOVEMENT_HARNESS_H
#define OPVER_TESTS_MOVEMENT_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test. */
extern kernel_harness h;

/* A constant INT32 tensor of shape `dims`, as a converter stores indices;
 * this and the other tensors belong to h, their values are borrowed. */
opver_tensor *constant(const char *name, int32_t rank,
		       const int32_t *dims, const int32_t *values);
/* A constant one-element INT32 tensor. */
opver_tensor *scalar(const char *name, int32_t value);
opver_tensor *floats(const char *name, int32_t rank,
		     const int32_t *dims, const float *data);

/* A node of `kernel` (borrowed from h). */
opver_node *node(const char *kernel, int32_t version,
		 const void *params, size_t params_size,
		 int32_t num_inputs, opver_tensor *const *inputs,
		 int32_t num_outputs, opver_tensor *const *outputs);

/* Runs n, which must succeed. */
void run(opver_node *n);

/* kh_expect_rejected() with the messages of earlier checks forgotten, so
 * that one test can check several nodes. */
void rejected(opver_node *n, opver_status status, const char *text);

/* 1..6, the values most tests move. */
extern const float six[6];

#endif
