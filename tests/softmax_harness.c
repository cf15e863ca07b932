/*
 * softmax_harness.c - the kernel harness, node and tensor builders, output
 * checks and the double-precision softmax the test_reference_softmax_*.c
 * suites share (softmax_harness.h).
 */
#include <math.h>

#include <criterion/criterion.h>

#include "softmax_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

/* A SOFTMAX node for `kernel` with beta. */
opver_node *softmax_node(const char *kernel, float beta,
			 opver_tensor *input, opver_tensor *output)
{
	const opver_softmax_params params = { .beta = beta };

	return kh_node(&h, kh_kernel(&h, kernel), 1, &params, sizeof(params),
		       KH_TENSORS(input), KH_TENSORS(output));
}

opver_tensor *quantized(const char *name, opver_type type,
			int32_t rank, const int32_t *dims,
			const void *data, float scale,
			int64_t zero_point)
{
	opver_tensor *t = kh_tensor(&h, name, type, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

/* Prepare fails with `status` and exactly one message containing `text`. */
void expect_rejected(opver_node *node, opver_status status,
		     const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

void expect_int8s(const opver_tensor *tensor, const int8_t *want,
		  size_t count)
{
	const int8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

void expect_int16s(const int16_t *got, const int16_t *want,
		   size_t count)
{
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

/* exp(beta * (x - max)) / sum, in double, of one row. */
void softmax_double(const double *x, size_t depth, double beta,
		    double *p)
{
	double max = -INFINITY, sum = 0.0;

	for (size_t c = 0; c < depth; c++)
		max = fmax(max, x[c]);
	for (size_t c = 0; c < depth; c++)
		sum += exp(beta * (x[c] - max));
	for (size_t c = 0; c < depth; c++)
		p[c] = exp(beta * (x[c] - max)) / sum;
}

/* Deterministic pseudo-random integers in [low, high]. */
int32_t next_int(uint32_t *state, int32_t low, int32_t high)
{
	*state = *state * 1664525u + 1013904223u;
	return low + (int32_t)((*state >> 8) % (uint32_t)(high - low + 1));
}

opver_tensor *int8_output(int32_t rank, const int32_t *dims)
{
	return quantized("output", OPVER_TYPE_INT8, rank, dims, NULL,
			 1.0f / 256.0f, -128);
}
