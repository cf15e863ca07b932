/*
 * pool_harness.h - what the test_reference_pooling_*.c suites share: the
 * kernel harness on the built reference.so (opened by setup(), closed by
 * teardown(), for a TestSuite's .init and .fini), node and tensor
 * builders, runners of one or both pools, and checks of outputs and of
 * prepare's refusals. Defined in pool_harness.c.
 */
#ifndef OPVER_TESTS_POOL_HARNESS_H
#define OPVER_TESTS_POOL_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_harness.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* The harness of the running test, between setup() and teardown(). */
extern kernel_harness h;

void setup(void);
void teardown(void);

opver_pool_params pool_params(opver_padding padding, int32_t filter_h,
			      int32_t filter_w, int32_t stride_h,
			      int32_t stride_w,
			      opver_activation activation);

/* A node of `kernel` (borrowed from h, like its tensors). */
opver_node *pool_node(const char *kernel,
		      const opver_pool_params *params,
		      opver_tensor *input, opver_tensor *output);

/* A tensor of h quantized per tensor; data is borrowed. */
opver_tensor *quantized(const char *name, opver_type type,
			int32_t rank, const int32_t *dims,
			const void *data, float scale,
			int64_t zero_point);

/* Runs `kernel` with `p` from `in` into `out`; it must succeed. */
void run_pool(const char *kernel, const opver_pool_params *p,
	      opver_tensor *in, opver_tensor *out);

/* Runs the average and the max pool of in's type with `p` from `in` into
 * two new outputs "avg" and "max" of shape `dims`, quantized as `in` is
 * (when it is); both must succeed. */
void run_both_pools(const opver_pool_params *p, opver_tensor *in,
		    int32_t rank, const int32_t *dims,
		    opver_tensor **avg_out, opver_tensor **max_out);

/* Element i of an integer tensor of any width, as int32. */
int32_t element(const opver_tensor *tensor, size_t i);

void expect_floats(const opver_tensor *tensor, const float *want,
		   size_t count);
void expect_ints(const opver_tensor *tensor, const int32_t *want,
		 size_t count);

void expect_rejected(opver_node *node, opver_status status,
		     const char *text);

#endif
