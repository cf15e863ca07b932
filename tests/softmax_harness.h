/*
 * softmax_harness.h - what the test_reference_softmax_*.c suites share:
 * the kernel harness on the built reference.so (opened by setup(), closed
 * by teardown(), for a TestSuite's .init and .fini), the SOFTMAX kernels'
 * names, node and tensor builders, output checks, the parameter structs of
 * the cases several kernels run, a double-precision softmax and a
 * deterministic generator. Defined in softmax_harness.c.
 */
#ifndef OPVER_TESTS_SOFTMAX_HARNESS_H
#define OPVER_TESTS_SOFTMAX_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define SOFTMAX_FLOAT32 "softmax_float32"
#define SOFTMAX_INT8 "softmax_int8"
#define SOFTMAX_INT16 "softmax_int16"
#define SOFTMAX_UINT8 "softmax_uint8"
#define SOFTMAX_INT8_INT16 "softmax_int8_int16"
#define SOFTMAX_UINT8_INT16 "softmax_uint8_int16"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* A row of n equal values and the quantized probability each gets. */
struct equal_case {
	int32_t n;
	int32_t want;
};

/* Random rows of `depth` at input `scale`, softmax with `beta`. */
struct quantized_case {
	float scale;
	float beta;
	int32_t depth;
};

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

/* A SOFTMAX node for `kernel` with beta (borrowed from h, like its
 * tensors). */
opver_node *softmax_node(const char *kernel, float beta,
			 opver_tensor *input, opver_tensor *output);

/* A tensor of h quantized per tensor; data is borrowed. */
opver_tensor *quantized(const char *name, opver_type type,
			int32_t rank, const int32_t *dims,
			const void *data, float scale,
			int64_t zero_point);

/* The int8 kernel's output: scale 1/256, zero point -128. */
opver_tensor *int8_output(int32_t rank, const int32_t *dims);

void expect_rejected(opver_node *node, opver_status status,
		     const char *text);
void expect_int8s(const opver_tensor *tensor, const int8_t *want,
		  size_t count);
void expect_int16s(const int16_t *got, const int16_t *want,
		   size_t count);

void softmax_double(const double *x, size_t depth, double beta,
		    double *p);
int32_t next_int(uint32_t *state, int32_t low, int32_t high);

#endif
