/*
 * test_reference_gather.c - the reference plugin's GATHER and GATHER_ND
 * kernels run from the built reference.so through the kernel harness:
 * axes (negative too), batch_dims, every index type, elements of 1 to 8
 * bytes, out-of-range indices failing the invoke, and what prepare
 * rejects.  Expected values are worked out by hand in each test.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(gather, .init = setup, .fini = teardown);

/* kh_expect_rejected() with the messages of earlier checks forgotten, so
 * that one test can check several nodes. */
static void rejected(opver_node *node, opver_status status, const char *text)
{
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node, status, text);
}

TestSuite(gather_nd, .init = setup, .fini = teardown);

static opver_node *gather_node(int32_t axis, int32_t batch_dims,
			       opver_tensor *input, opver_tensor *positions,
			       opver_tensor *output)
{
	const opver_gather_params p = { .axis = axis,
					.batch_dims = batch_dims };

	return kh_node(&h, kh_kernel(&h, "gather"), 1, &p, sizeof(p),
		       KH_TENSORS(input, positions), KH_TENSORS(output));
}

/* [3, 2] gathered along axis 0 with positions [2, 0, 2]. */
Test(gather, rows_of_a_matrix)
{
	static const float x[] = { 1, 2, 3, 4, 5, 6 };
	static const int32_t at[] = { 2, 0, 2 };
	static const float want[] = { 5, 6, 1, 2, 5, 6 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3, 2), x);
	opver_tensor *pos = kh_tensor(&h, "pos", OPVER_TYPE_INT32,
				      KH_DIMS(3), at);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);

	cr_assert_eq(kh_run(&h, gather_node(0, 0, in, pos, out)), OPVER_OK,
		     "%s", h.errors);
	kh_expect_floats(out, want, 6);
}

/* Axis -1 of [2, 3] is axis 1; int64 positions of shape [2, 1] give an
 * output [2, 2, 1]. */
Test(gather, negative_axis_and_int64_positions)
{
	static const int8_t x[] = { 10, 11, 12, 20, 21, 22 };
	static const int64_t at[] = { 2, 1 };
	static const int8_t want[] = { 12, 11, 22, 21 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8,
				     KH_DIMS(2, 3), x);
	opver_tensor *pos = kh_tensor(&h, "pos", OPVER_TYPE_INT64,
				      KH_DIMS(2, 1), at);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(2, 2, 1), NULL);

	cr_assert_eq(kh_run(&h, gather_node(-1, 0, in, pos, out)), OPVER_OK,
		     "%s", h.errors);
	kh_expect_int8s(out, want, 4);
}

/* batch_dims 1: batch 0 picks from its own row with positions [1, 0],
 * batch 1 with [2, 2]; int16 positions, int64 elements. */
Test(gather, batch_dims_pick_per_batch)
{
	static const int64_t x[] = { 100, 101, 102, 200, 201, 202 };
	static const int16_t at[] = { 1, 0, 2, 2 };
	static const int64_t want[] = { 101, 100, 202, 202 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT64,
				     KH_DIMS(2, 3), x);
	opver_tensor *pos = kh_tensor(&h, "pos", OPVER_TYPE_INT16,
				      KH_DIMS(2, 2), at);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT64,
				      KH_DIMS(2, 2), NULL);

	cr_assert_eq(kh_run(&h, gather_node(1, 1, in, pos, out)), OPVER_OK,
		     "%s", h.errors);
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0);
}

/* Axis 1 of [2, 2, 2] int16: the slices are the trailing pairs. */
Test(gather, inner_slices_of_int16)
{
	static const int16_t x[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int32_t at[] = { 1 };
	static const int16_t want[] = { 3, 4, 7, 8 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT16,
				     KH_DIMS(2, 2, 2), x);
	opver_tensor *pos = kh_tensor(&h, "pos", OPVER_TYPE_INT32,
				      KH_DIMS(1), at);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT16,
				      KH_DIMS(2, 1, 2), NULL);

	cr_assert_eq(kh_run(&h, gather_node(1, 0, in, pos, out)), OPVER_OK,
		     "%s", h.errors);
	kh_expect_int16s(out, want, 4);
}

Test(gather, a_position_out_of_range_fails_the_invoke)
{
	static const float x[] = { 1, 2, 3 };
	static const int32_t past[] = { 0, 3 };
	static const int32_t negative[] = { -1, 0 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3), x);
	opver_tensor *pos = kh_tensor(&h, "pos", OPVER_TYPE_INT32,
				      KH_DIMS(2), past);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);
	opver_node *node = gather_node(0, 0, in, pos, out);

	cr_assert_eq(kh_run(&h, node), OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(kh_error_contains(&h, "position 3 of 'pos' is outside 0..2"),
		  "%s", h.errors);
	memcpy(pos->data, negative, sizeof(negative));
	cr_assert_eq(kh_invoke(&h, node), OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(kh_error_contains(&h, "position -1"), "%s", h.errors);
}

Test(gather, prepare_rejects_bad_nodes)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *pos = kh_tensor(&h, "pos", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);
	opver_tensor *fpos = kh_tensor(&h, "fpos", OPVER_TYPE_FLOAT32,
				       KH_DIMS(2), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);
	opver_tensor *wrong = kh_tensor(&h, "wrong", OPVER_TYPE_FLOAT32,
					KH_DIMS(2, 3), NULL);

	rejected(gather_node(2, 0, in, pos, out),
		 OPVER_ERROR_INVALID_MODEL, "axis 2 is outside");
	rejected(gather_node(1, 0, in, fpos, out),
		 OPVER_ERROR_UNSUPPORTED, "positions 'fpos'");
	rejected(gather_node(1, 0, in, pos, wrong),
		 OPVER_ERROR_INVALID_MODEL,
		 "output 'wrong' has shape [2, 3]; this gather gives [2, 2]");
	rejected(gather_node(0, 1, in, pos, out),
		 OPVER_ERROR_INVALID_MODEL, "batch_dims 1");
}

/* --------------------------------------------------------- GATHER_ND */

static opver_node *gather_nd_node(opver_tensor *params, opver_tensor *indices,
				  opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, "gather_nd"), 1, NULL, 0,
		       KH_TENSORS(params, indices), KH_TENSORS(output));
}

/* Indices [[1, 0], [0, 2]] into [2, 3] pick elements. */
Test(gather_nd, full_indices_pick_elements)
{
	static const int32_t x[] = { 1, 2, 3, 4, 5, 6 };
	static const int32_t at[] = { 1, 0, 0, 2 };
	static const int32_t want[] = { 4, 3 };
	opver_tensor *p = kh_tensor(&h, "params", OPVER_TYPE_INT32,
				    KH_DIMS(2, 3), x);
	opver_tensor *i = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
				    KH_DIMS(2, 2), at);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);

	cr_assert_eq(kh_run(&h, gather_nd_node(p, i, out)), OPVER_OK, "%s",
		     h.errors);
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0);
}

/* Indices [[1]] of int64 into [2, 3] pick the second row; int16 indices
 * [[0], [1], [0]] of uint8 params. */
Test(gather_nd, partial_indices_pick_slices)
{
	static const float x[] = { 1, 2, 3, 4, 5, 6 };
	static const int64_t at[] = { 1 };
	static const float want[] = { 4, 5, 6 };
	static const uint8_t bytes[] = { 7, 8 };
	static const int16_t at16[] = { 0, 1, 0 };
	static const uint8_t want8[] = { 7, 8, 7 };
	opver_tensor *p = kh_tensor(&h, "params", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), x);
	opver_tensor *i = kh_tensor(&h, "indices", OPVER_TYPE_INT64,
				    KH_DIMS(1, 1), at);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 3), NULL);
	opver_tensor *p8 = kh_tensor(&h, "p8", OPVER_TYPE_UINT8, KH_DIMS(2),
				     bytes);
	opver_tensor *i16 = kh_tensor(&h, "i16", OPVER_TYPE_INT16,
				      KH_DIMS(3, 1), at16);
	opver_tensor *out8 = kh_tensor(&h, "out8", OPVER_TYPE_UINT8,
				       KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, gather_nd_node(p, i, out)), OPVER_OK, "%s",
		     h.errors);
	kh_expect_floats(out, want, 3);
	cr_assert_eq(kh_run(&h, gather_nd_node(p8, i16, out8)), OPVER_OK,
		     "%s", h.errors);
	cr_expect_eq(memcmp(out8->data, want8, sizeof(want8)), 0);
}

/* TFLite checks the flat offset: [0, 4] in [2, 3] is element 4, inside
 * params; [1, 3] is element 6, past them; a negative index never
 * passes. */
Test(gather_nd, indices_are_checked_as_tflite_checks_them)
{
	static const int32_t x[] = { 1, 2, 3, 4, 5, 6 };
	static const int32_t wraps[] = { 0, 4 };
	static const int32_t past[] = { 1, 3 };
	static const int32_t negative[] = { 1, -1 };
	opver_tensor *p = kh_tensor(&h, "params", OPVER_TYPE_INT32,
				    KH_DIMS(2, 3), x);
	opver_tensor *i = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
				    KH_DIMS(1, 2), wraps);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(1), NULL);
	opver_node *node = gather_nd_node(p, i, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	cr_expect_eq(((int32_t *)out->data)[0], 5);
	memcpy(i->data, past, sizeof(past));
	cr_expect_eq(kh_invoke(&h, node), OPVER_ERROR_INVALID_ARGUMENT);
	memcpy(i->data, negative, sizeof(negative));
	cr_expect_eq(kh_invoke(&h, node), OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(kh_error_contains(&h, "outside the params"), "%s",
		  h.errors);
}

Test(gather_nd, prepare_rejects_bad_nodes)
{
	opver_tensor *p = kh_tensor(&h, "params", OPVER_TYPE_INT32,
				    KH_DIMS(2, 3), NULL);
	opver_tensor *deep = kh_tensor(&h, "deep", OPVER_TYPE_INT32,
				       KH_DIMS(1, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(1), NULL);
	opver_tensor *i = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
				    KH_DIMS(1, 2), NULL);
	opver_tensor *wrong = kh_tensor(&h, "wrong", OPVER_TYPE_INT32,
					KH_DIMS(3), NULL);

	rejected(gather_nd_node(p, deep, out),
		 OPVER_ERROR_INVALID_MODEL, "address 3 dimensions");
	rejected(gather_nd_node(p, i, wrong),
		 OPVER_ERROR_INVALID_MODEL,
		 "output 'wrong' has shape [3]; this GATHER_ND gives [1]");
}
