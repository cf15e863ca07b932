/*
 * test_reference_spatial.c - the reference plugin's RESIZE_BILINEAR,
 * RESIZE_NEAREST_NEIGHBOR, TRANSPOSE_CONV, L2_NORMALIZATION, L2_POOL_2D
 * and BATCH_MATMUL kernels on small cases worked out by hand, and nodes
 * they must reject with a report rather than crash on.  TensorFlow Lite's
 * own outputs on the conformance cases are the oracle tests' business.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

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

TestSuite(spatial, .init = setup, .fini = teardown);

/* A constant int32 size tensor {height, width}. */
static opver_tensor *size_tensor(int32_t height, int32_t width)
{
	opver_tensor *t = kh_tensor(&h, "size", OPVER_TYPE_INT32, KH_DIMS(2),
				    (const int32_t[]){ height, width });

	t->is_constant = true;
	return t;
}

/* 1x2 -> 1x4 without options: positions 0, 0.5, 1, 1.5 (clamped). */
Test(spatial, bilinear_float_interpolates_between_columns)
{
	static const opver_resize_bilinear_params params = { 0, 0 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1, 2, 1),
				     (const float[]){ 0.0f, 4.0f });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1, 4, 1), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "resize_bilinear_float32"),
				1, &params, sizeof(params),
				KH_TENSORS(in, size_tensor(1, 4)),
				KH_TENSORS(out));
	const float *y;

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	cr_expect_float_eq(y[0], 0.0f, 1e-6f);
	cr_expect_float_eq(y[1], 2.0f, 1e-6f);
	cr_expect_float_eq(y[2], 4.0f, 1e-6f);
	cr_expect_float_eq(y[3], 4.0f, 1e-6f);
}

/*
 * int8, 1x2 -> 1x3 with half_pixel_centers: scale 2/3 is 683/1024, so
 * column 1 reads at 683 + 341 - 512 = 512 (between the columns, weight
 * 512/1024 each): (10 + 21) / 2 = 15.5 rounds away from zero to 16;
 * column 0 reads at -171, clamped to column 0 with weights 1195 and -171
 * on the same column: 10.
 */
Test(spatial, bilinear_int8_uses_tflite_fixed_point)
{
	static const opver_resize_bilinear_params params = { 0, 1 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 2, 1),
				     (const int8_t[]){ 10, 21 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 3, 1), NULL);
	opver_node *n;
	const int8_t *y;

	kh_quantize(&h, in, 0.5f, 0);
	kh_quantize(&h, out, 0.5f, 0);
	n = kh_node(&h, kh_kernel(&h, "resize_bilinear_int8"), 3, &params,
		    sizeof(params), KH_TENSORS(in, size_tensor(1, 3)),
		    KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	cr_expect_eq(y[0], 10);
	cr_expect_eq(y[1], 16);
	cr_expect_eq(y[2], 21);
}

Test(spatial, bilinear_refuses_both_sampling_options)
{
	static const opver_resize_bilinear_params params = { 1, 1 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 3, 3, 1), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "resize_bilinear_float32"),
				3, &params, sizeof(params),
				KH_TENSORS(in, size_tensor(3, 3)),
				KH_TENSORS(out));

	cr_expect_eq(kh_prepare(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(strstr(h.errors, "align_corners and half_pixel_centers"));
}

Test(spatial, resize_checks_the_output_against_the_size)
{
	static const opver_resize_nearest_neighbor_params params = { 0, 0 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8,
				     KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(1, 3, 3, 1), NULL);
	opver_node *n = kh_node(&h,
				kh_kernel(&h, "resize_nearest_neighbor_int8"),
				1, &params, sizeof(params),
				KH_TENSORS(in, size_tensor(4, 3)),
				KH_TENSORS(out));

	cr_expect_eq(kh_prepare(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(strstr(h.errors, "[1, 4, 3, 1]"), "%s", h.errors);
}

/* 3 columns to 2: scale 1.5, floor gives 0 and 1; align_corners scale
 * 2/1 and rounding gives 0 and 2. */
Test(spatial, nearest_neighbor_floors_or_rounds)
{
	static const opver_resize_nearest_neighbor_params plain = { 0, 0 };
	static const opver_resize_nearest_neighbor_params align = { 1, 0 };
	const opver_resize_nearest_neighbor_params *options[] = { &plain,
								  &align };
	static const uint8_t want[2][2] = { { 7, 8 }, { 7, 9 } };

	for (int i = 0; i < 2; i++) {
		opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_UINT8,
					     KH_DIMS(1, 1, 3, 1),
					     (const uint8_t[]){ 7, 8, 9 });
		opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_UINT8,
					      KH_DIMS(1, 1, 2, 1), NULL);
		opver_node *n = kh_node(
			&h, kh_kernel(&h, "resize_nearest_neighbor_uint8"), 3,
			options[i], sizeof(plain),
			KH_TENSORS(in, size_tensor(1, 2)), KH_TENSORS(out));
		const uint8_t *y;

		cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
		y = out->data;
		cr_expect_eq(y[0], want[i][0]);
		cr_expect_eq(y[1], want[i][1]);
	}
}

/* A 1x1 input with a 2x2 filter, stride 2, VALID: the output is the
 * filter times the input, plus the bias. */
Test(spatial, transpose_conv_float_scatters_the_filter)
{
	static const opver_transpose_conv_params params = {
		.padding = OPVER_PADDING_VALID, .stride_width = 2,
		.stride_height = 2
	};
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(4),
					(const int32_t[]){ 1, 2, 2, 1 });
	opver_tensor *filter = kh_tensor(&h, "filter", OPVER_TYPE_FLOAT32,
					 KH_DIMS(1, 2, 2, 1),
					 (const float[]){ 1, 2, 3, 4 });
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1, 1, 1),
				     (const float[]){ 2 });
	opver_tensor *bias = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1), (const float[]){ 0.5f });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 2, 1), NULL);
	opver_node *n;
	const float *y;

	shape->is_constant = filter->is_constant = bias->is_constant = true;
	n = kh_node(&h, kh_kernel(&h, "transpose_conv_float32"), 3, &params,
		    sizeof(params), KH_TENSORS(shape, filter, in, bias),
		    KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	for (int i = 0; i < 4; i++)
		cr_expect_float_eq(y[i], 2.0f * (float)(i + 1) + 0.5f, 1e-6f);
}

/* Rows (3, 4) and (0, 0): 3/5 and 4/5; the zero row stays zero. */
Test(spatial, l2_normalization_float)
{
	static const opver_l2_norm_params params = { 0 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2),
				     (const float[]){ 3, 4, 0, 0 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "l2_normalization_float32"),
				1, &params, sizeof(params), KH_TENSORS(in),
				KH_TENSORS(out));
	const float *y;

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	cr_expect_float_eq(y[0], 0.6f, 1e-6f);
	cr_expect_float_eq(y[1], 0.8f, 1e-6f);
	cr_expect_float_eq(y[2], 0.0f, 1e-6f);
}

/* (3, 4) in int8 gives 3/5 and 4/5 in 1/128: 76.8 and 102.4, which
 * TFLite's fixed-point inverse square root gives as 77 and 102. */
Test(spatial, l2_normalization_int8)
{
	static const opver_l2_norm_params params = { 0 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8, KH_DIMS(1, 2),
				     (const int8_t[]){ 3, 4 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(1, 2), NULL);
	opver_node *n;
	const int8_t *y;

	kh_quantize(&h, in, 0.1f, 0);
	kh_quantize(&h, out, 1.0f / 128, 0);
	n = kh_node(&h, kh_kernel(&h, "l2_normalization_int8"), 2, &params,
		    sizeof(params), KH_TENSORS(in), KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	cr_expect(y[0] == 77 && y[1] == 102, "got %d %d", y[0], y[1]);
}

/* The window 3, 4 (over padding on one side): sqrt((9 + 16) / 2). */
Test(spatial, l2_pool_float)
{
	static const opver_pool_params params = {
		.padding = OPVER_PADDING_VALID, .stride_width = 1,
		.stride_height = 1, .filter_width = 2, .filter_height = 1
	};
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1, 2, 1),
				     (const float[]){ 3, 4 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1, 1, 1), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "l2_pool_2d_float32"), 1,
				&params, sizeof(params), KH_TENSORS(in),
				KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	cr_expect_float_eq(((const float *)out->data)[0], sqrtf(12.5f), 1e-6f);
}

/* x [2, 1, 2] (two batches) times y [2, 1] (broadcast), adj_y reading y
 * as [1, 2]: x . (5, 7) per batch. */
Test(spatial, batch_matmul_broadcasts_y)
{
	static const opver_batch_matmul_params params = { 0, 1, 0 };
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 1, 2),
				    (const float[]){ 1, 2, 3, 4 });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_FLOAT32,
				    KH_DIMS(1, 2), (const float[]){ 5, 7 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 1, 1), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "batch_matmul_float32"), 1,
				&params, sizeof(params), KH_TENSORS(x, y),
				KH_TENSORS(out));
	const float *o;

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	o = out->data;
	cr_expect_float_eq(o[0], 19.0f, 1e-6f);
	cr_expect_float_eq(o[1], 43.0f, 1e-6f);
}

Test(spatial, batch_matmul_rejects_mismatched_depth)
{
	static const opver_batch_matmul_params params = { 0, 0, 0 };
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_FLOAT32,
				    KH_DIMS(1, 3), NULL);
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "batch_matmul_float32"), 1,
				&params, sizeof(params), KH_TENSORS(x, y),
				KH_TENSORS(out));

	cr_expect_eq(kh_prepare(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(strstr(h.errors, "depth 3"), "%s", h.errors);
}
