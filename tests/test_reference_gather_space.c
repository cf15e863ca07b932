/*
 * test_reference_gather_space.c - the reference plugin's SPACE_TO_DEPTH,
 * DEPTH_TO_SPACE, SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND kernels run from
 * the built reference.so through the kernel harness: TensorFlow's
 * documented examples worked by hand, padding with the zero point, rank 3,
 * block and paddings given at run time, and what prepare rejects.
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

TestSuite(space_depth, .init = setup, .fini = teardown);
TestSuite(space_batch, .init = setup, .fini = teardown);

/* kh_expect_rejected() with the messages of earlier checks forgotten. */
static void rejected(opver_node *node, opver_status status, const char *text)
{
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node, status, text);
}

static opver_node *block_node(const char *kernel, int32_t block,
			      opver_tensor *in, opver_tensor *out)
{
	const opver_space_depth_params p = { .block_size = block };

	return kh_node(&h, kh_kernel(&h, kernel), 1, &p, sizeof(p),
		       KH_TENSORS(in), KH_TENSORS(out));
}

/* 1..16 as [1, 4, 4, 1], block 2: each 2x2 square becomes a pixel of 4. */
static const float square[] = { 1, 2, 3, 4, 5, 6, 7, 8,
				9, 10, 11, 12, 13, 14, 15, 16 };
static const float squares_as_depth[] = { 1, 2, 5, 6, 3, 4, 7, 8,
					  9, 10, 13, 14, 11, 12, 15, 16 };

Test(space_depth, space_to_depth_moves_squares_into_channels)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 4, 4, 1), square);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 2, 4), NULL);

	cr_assert_eq(kh_run(&h, block_node("space_to_depth", 2, in, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, squares_as_depth, 16);
}

Test(space_depth, depth_to_space_is_the_inverse)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 2, 4), squares_as_depth);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 4, 4, 1), NULL);

	cr_assert_eq(kh_run(&h, block_node("depth_to_space", 2, in, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, square, 16);
}

/* Two channels per pixel move together; int8 and int64 alike. */
Test(space_depth, channels_move_together)
{
	static const int8_t x[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int64_t wide[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8,
				     KH_DIMS(1, 2, 2, 2), x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 8), NULL);
	opver_tensor *in64 = kh_tensor(&h, "in64", OPVER_TYPE_INT64,
				       KH_DIMS(1, 1, 1, 8), wide);
	opver_tensor *out64 = kh_tensor(&h, "out64", OPVER_TYPE_INT64,
					KH_DIMS(1, 2, 2, 2), NULL);

	cr_assert_eq(kh_run(&h, block_node("space_to_depth", 2, in, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, x, 8);
	cr_assert_eq(kh_run(&h, block_node("depth_to_space", 2, in64, out64)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(out64->data, wide, sizeof(wide)), 0);
}

Test(space_depth, prepare_rejects_blocks_that_do_not_divide)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3, 3, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1, 1, 9), NULL);
	opver_tensor *even = kh_tensor(&h, "even", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *wrong = kh_tensor(&h, "wrong", OPVER_TYPE_FLOAT32,
					KH_DIMS(1, 1, 1, 2), NULL);

	rejected(block_node("space_to_depth", 2, in, out),
		 OPVER_ERROR_INVALID_MODEL, "block_size 2");
	rejected(block_node("space_to_depth", 0, even, wrong),
		 OPVER_ERROR_INVALID_MODEL, "block_size 0");
	rejected(block_node("space_to_depth", 2, even, wrong),
		 OPVER_ERROR_INVALID_MODEL, "SPACE_TO_DEPTH gives");
}

/* ------------------------------------------ SPACE_TO_BATCH_ND and back */

static opver_tensor *int32s(const char *name, int32_t rank,
			    const int32_t *dims, const int32_t *values,
			    bool is_constant)
{
	opver_tensor *t = kh_tensor(&h, name, OPVER_TYPE_INT32, rank, dims,
				    values);

	t->is_constant = is_constant;
	return t;
}

static opver_node *space_batch_node(const char *kernel, opver_tensor *in,
				    opver_tensor *block, opver_tensor *pads,
				    opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, kernel), 1, NULL, 0,
		       KH_TENSORS(in, block, pads), KH_TENSORS(out));
}

/*
 * [1, 2, 2, 1] = 1 2 / 3 4 padded by one column each side is
 * 0 1 2 0 / 0 3 4 0; blocks of 2x2 give batch (by, bx) the pixels at
 * (by, 2x + bx): (0,0) 0 2, (0,1) 1 0, (1,0) 0 4, (1,1) 3 0.  As uint8 with
 * zero point 128 the padding is 128.
 */
static const int32_t block22[] = { 2, 2 };
static const int32_t pad_columns[] = { 0, 0, 1, 1 };
static const uint8_t space_2x2[] = { 1, 2, 3, 4 };
static const uint8_t as_batches[] = { 128, 2, 1, 128, 128, 4, 3, 128 };

Test(space_batch, space_to_batch_pads_with_the_zero_point)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8,
					KH_DIMS(1, 2, 2, 1), space_2x2, 0.5f,
					128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(4, 1, 2, 1), NULL, 0.5f,
					 128);
	opver_tensor *block = int32s("block", KH_DIMS(2), block22, true);
	opver_tensor *pads = int32s("pads", KH_DIMS(2, 2), pad_columns, true);

	cr_assert_eq(kh_run(&h, space_batch_node("space_to_batch_nd", in,
						 block, pads, out)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(out->data, as_batches, sizeof(as_batches)), 0);
}

/* The same, back: the crops drop the padding.  Block and crops come at
 * run time. */
Test(space_batch, batch_to_space_crops)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_UINT8,
				     KH_DIMS(4, 1, 2, 1), as_batches);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *block = int32s("block", KH_DIMS(2), block22, false);
	opver_tensor *crops = int32s("crops", KH_DIMS(2, 2), pad_columns,
				     false);

	cr_assert_eq(kh_run(&h, space_batch_node("batch_to_space_nd", in,
						 block, crops, out)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(out->data, space_2x2, sizeof(space_2x2)), 0);
}

/* Rank 3 [1, 4, 1] = 1 2 3 4 with block [2]: batch 0 takes rows 0 and 2,
 * batch 1 rows 1 and 3. */
Test(space_batch, rank_3_has_one_spatial_dimension)
{
	static const int32_t block2[] = { 2 };
	static const int32_t none[] = { 0, 0 };
	static const float x[] = { 1, 2, 3, 4 };
	static const float want[] = { 1, 3, 2, 4 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 4, 1), x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2, 1), NULL);
	opver_tensor *back = kh_tensor(&h, "back", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1, 4, 1), NULL);
	opver_tensor *block = int32s("block", KH_DIMS(1), block2, true);
	opver_tensor *pads = int32s("pads", KH_DIMS(1, 2), none, true);

	cr_assert_eq(kh_run(&h, space_batch_node("space_to_batch_nd", in,
						 block, pads, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, want, 4);
	cr_assert_eq(kh_run(&h, space_batch_node("batch_to_space_nd", out,
						 block, pads, back)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(back, x, 4);
}

Test(space_batch, bad_geometry_is_rejected)
{
	static const int32_t odd_pads[] = { 0, 1, 0, 0 };
	static const int32_t negative[] = { 0, 0, -1, 1 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4, 1, 1, 1), NULL);
	opver_tensor *block = int32s("block", KH_DIMS(2), block22, true);
	opver_tensor *odd = int32s("odd", KH_DIMS(2, 2), odd_pads, true);
	opver_tensor *neg = int32s("neg", KH_DIMS(2, 2), negative, false);
	opver_tensor *cols = int32s("cols", KH_DIMS(2, 2), pad_columns, true);

	rejected(space_batch_node("space_to_batch_nd", in, block, odd, out),
		 OPVER_ERROR_INVALID_MODEL, "3 padded does not divide");
	rejected(space_batch_node("space_to_batch_nd", in, block, cols, out),
		 OPVER_ERROR_INVALID_MODEL, "the block and paddings give [4, 1, 2, 1]");
	/* Run-time paddings are checked at invoke. */
	h.num_errors = 0;
	cr_expect_eq(kh_run(&h, space_batch_node("space_to_batch_nd", in,
						 block, neg, out)),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "not negative"), "%s", h.errors);
}
