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

/*
 * uint8, 2x2 -> 3x3 with align_corners: scale 1/2, so the middle row and
 * column read halfway.  TFLite's legacy kernel adds 0.5 to the float sum
 * and truncates: (100 + 255) / 2 = 177.5 gives 178, (50 + 255) / 2 =
 * 152.5 gives 153, the centre (0 + 100 + 50 + 255) / 4 = 101.25 gives 101.
 */
Test(spatial, bilinear_uint8_rounds_the_float_sum_half_up)
{
	static const opver_resize_bilinear_params params = { 1, 0 };
	static const uint8_t want[9] = { 0, 50, 100, 25, 101, 178, 50, 153,
					 255 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8,
					KH_DIMS(1, 2, 2, 1),
					(const uint8_t[]){ 0, 100, 50, 255 },
					0.1f, 128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(1, 3, 3, 1), NULL, 0.1f, 128);
	opver_node *n = kh_node(&h, kh_kernel(&h, "resize_bilinear_uint8"), 1,
				&params, sizeof(params),
				KH_TENSORS(in, size_tensor(3, 3)),
				KH_TENSORS(out));
	const uint8_t *y;

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	for (int i = 0; i < 9; i++)
		cr_expect_eq(y[i], want[i], "element %d: %d, want %d", i,
			     y[i], want[i]);
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

/*
 * uint8, the same 1x1 input and 2x2 filter: input 130 - 128 = 2, filter
 * 101..104 - 100 = 1..4, bias 5: sums 7, 9, 11, 13 at 0.5 x 0.25 = 0.125,
 * rescaled to the output's 0.25 (x 0.5): 3.5, 4.5, 5.5, 6.5, rounded half
 * up to 4..7, plus the zero point 10.
 */
Test(spatial, transpose_conv_uint8_subtracts_both_zero_points)
{
	static const opver_transpose_conv_params params = {
		.padding = OPVER_PADDING_VALID, .stride_width = 2,
		.stride_height = 2
	};
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(4),
					(const int32_t[]){ 1, 2, 2, 1 });
	opver_tensor *filter = kh_quantized(
		&h, "filter", OPVER_TYPE_UINT8, KH_DIMS(1, 2, 2, 1),
		(const uint8_t[]){ 101, 102, 103, 104 }, 0.25f, 100);
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8,
					KH_DIMS(1, 1, 1, 1),
					(const uint8_t[]){ 130 }, 0.5f, 128);
	opver_tensor *bias = kh_quantized(&h, "bias", OPVER_TYPE_INT32,
					  KH_DIMS(1), (const int32_t[]){ 5 },
					  0.125f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(1, 2, 2, 1), NULL, 0.25f, 10);
	opver_node *n;
	const uint8_t *y;

	shape->is_constant = filter->is_constant = bias->is_constant = true;
	n = kh_node(&h, kh_kernel(&h, "transpose_conv_uint8"), 3, &params,
		    sizeof(params), KH_TENSORS(shape, filter, in, bias),
		    KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	for (int i = 0; i < 4; i++)
		cr_expect_eq(y[i], 14 + i, "element %d: %d", i, y[i]);
}

/*
 * 16x8, the same 1x1 input and 2x2 filter: input 1000 x filter 1..4, plus
 * the bias 505, gives sums 1505, 2505, 3505, 4505 at 0.001 x 0.01, and the
 * output's scale 0.0001 takes a tenth of them: 150.500008 and so on (the
 * float scales make the rescale 0.100000005).  An int32 bias takes TFLite's
 * int32 rescale, whose multiplier 1717987005 x 2^-3 keeps that above the
 * half: 151..451.  An int64 bias takes the 64-bit one, whose multiplier
 * rounded to Q0.15 is 26214 / 2^15 = 0.79998779 (x 2^-3), just below the
 * half: 1505 x 26214 / 2^18 = 150.4997, so 150..450.
 */
static void transpose_conv_16x8(opver_type bias_type, int16_t first)
{
	static const opver_transpose_conv_params params = {
		.padding = OPVER_PADDING_VALID, .stride_width = 2,
		.stride_height = 2
	};
	const int32_t bias32 = 505;
	const int64_t bias64 = 505;
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(4),
					(const int32_t[]){ 1, 2, 2, 1 });
	opver_tensor *filter = kh_quantized(&h, "filter", OPVER_TYPE_INT8,
					    KH_DIMS(1, 2, 2, 1),
					    (const int8_t[]){ 1, 2, 3, 4 },
					    0.01f, 0);
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 1, 1),
					(const int16_t[]){ 1000 }, 0.001f, 0);
	opver_tensor *bias = kh_quantized(
		&h, "bias", bias_type, KH_DIMS(1),
		bias_type == OPVER_TYPE_INT32 ? (const void *)&bias32
					      : (const void *)&bias64,
		0.001f * 0.01f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(1, 2, 2, 1), NULL, 0.0001f,
					 0);
	opver_node *n;
	const int16_t *y;

	shape->is_constant = filter->is_constant = bias->is_constant = true;
	n = kh_node(&h, kh_kernel(&h, "transpose_conv_int16x8"), 3, &params,
		    sizeof(params), KH_TENSORS(shape, filter, in, bias),
		    KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	y = out->data;
	for (int i = 0; i < 4; i++)
		cr_expect_eq(y[i], first + 100 * i, "element %d: %d", i,
			     y[i]);
}

Test(spatial, transpose_conv_16x8_int32_bias_takes_the_int32_rescale)
{
	transpose_conv_16x8(OPVER_TYPE_INT32, 151);
}

Test(spatial, transpose_conv_16x8_int64_bias_takes_the_wide_rescale)
{
	transpose_conv_16x8(OPVER_TYPE_INT64, 150);
}

/*
 * 16x8 without a bias: TFLite sums in int32 then, as with an int32 bias.
 * Input 1005 x filter 1..4 gives 1005, 2010, 3015, 4020, a tenth of which
 * (x 0.100000005) is 100.500005, 201.00001, 301.500015, 402.00002: the
 * int32 rescale gives 101, 201, 302, 402 (the Q0.15 one would give 100
 * and 301 for the halves).
 */
Test(spatial, transpose_conv_16x8_without_bias_sums_in_int32)
{
	static const opver_transpose_conv_params params = {
		.padding = OPVER_PADDING_VALID, .stride_width = 2,
		.stride_height = 2
	};
	static const int16_t want[4] = { 101, 201, 302, 402 };
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(4),
					(const int32_t[]){ 1, 2, 2, 1 });
	opver_tensor *filter = kh_quantized(&h, "filter", OPVER_TYPE_INT8,
					    KH_DIMS(1, 2, 2, 1),
					    (const int8_t[]){ 1, 2, 3, 4 },
					    0.01f, 0);
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 1, 1),
					(const int16_t[]){ 1005 }, 0.001f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(1, 2, 2, 1), NULL, 0.0001f,
					 0);
	opver_node *n;

	shape->is_constant = filter->is_constant = true;
	n = kh_node(&h, kh_kernel(&h, "transpose_conv_int16x8"), 2, &params,
		    sizeof(params), KH_TENSORS(shape, filter, in),
		    KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, want, 4);
}

/* A uint8 bias must carry input scale x filter scale, as TFLite checks. */
Test(spatial, transpose_conv_uint8_rejects_a_misscaled_bias)
{
	static const opver_transpose_conv_params params = {
		.padding = OPVER_PADDING_VALID, .stride_width = 1,
		.stride_height = 1
	};
	opver_tensor *shape = kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					KH_DIMS(4),
					(const int32_t[]){ 1, 1, 1, 1 });
	opver_tensor *filter = kh_quantized(&h, "filter", OPVER_TYPE_UINT8,
					    KH_DIMS(1, 1, 1, 1),
					    (const uint8_t[]){ 1 }, 0.25f,
					    100);
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8,
					KH_DIMS(1, 1, 1, 1), NULL, 0.5f, 128);
	opver_tensor *bias = kh_quantized(&h, "bias", OPVER_TYPE_INT32,
					  KH_DIMS(1), (const int32_t[]){ 5 },
					  0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(1, 1, 1, 1), NULL, 0.25f, 10);
	opver_node *n;

	shape->is_constant = filter->is_constant = bias->is_constant = true;
	n = kh_node(&h, kh_kernel(&h, "transpose_conv_uint8"), 3, &params,
		    sizeof(params), KH_TENSORS(shape, filter, in, bias),
		    KH_TENSORS(out));
	cr_expect_eq(kh_prepare(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "bias 'bias' has scale"), "%s",
		  h.errors);
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

/*
 * Hybrid BATCH_MATMUL (float x, int8 y at scale 0.5), y's columns
 * (2, 1, -4) and (0, 3, 1).  Under adj_x the rows of x are the columns of
 * the [3, 2] x: (1, -2, 0.5) and (0.5, 0.25, -1).  Symmetrically, row 0
 * has scale 2 / 127 and q = round(x x 63.5) = (64, -127, 32) (63.5 away
 * from zero), row 1 scale 1 / 127 and q = (64, 32, -127).  Sums:
 *   row 0: 128 - 127 - 128 = -127, 0 - 381 + 32 = -349
 *   row 1: 128 + 32 + 508 = 668,   0 + 96 - 127 = -31
 * each times the float product of the row's scale and y's.
 */
static const int8_t hybrid_y[] = { 2, 0, 1, 3, -4, 1 };

static opver_node *hybrid_node(const opver_batch_matmul_params *params,
			       opver_tensor *x, opver_tensor *y,
			       opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, "batch_matmul_hybrid"),
		       params->asymmetric_quantize_inputs ? 4 : 1, params,
		       sizeof(*params), KH_TENSORS(x, y), KH_TENSORS(out));
}

/* sum x (row scale x y scale), the scale rounded to float first. */
static float hybrid_product(int32_t sum, float row_scale)
{
	const float scale = row_scale * 0.5f;

	return (float)sum * scale;
}

Test(spatial, batch_matmul_hybrid_quantizes_each_row_of_x)
{
	static const opver_batch_matmul_params params = { 1, 0, 0 };
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_FLOAT32, KH_DIMS(3, 2),
				    (const float[]){ 1, 0.5f, -2, 0.25f, 0.5f,
						     -1 });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_INT8, KH_DIMS(3, 2),
				    hybrid_y);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);
	const float want[] = {
		hybrid_product(-127, 2.0f / 127),
		hybrid_product(-349, 2.0f / 127),
		hybrid_product(668, 1.0f / 127),
		hybrid_product(-31, 1.0f / 127),
	};

	kh_quantize(&h, y, 0.5f, 0);
	cr_assert_eq(kh_run(&h, hybrid_node(&params, x, y, out)), OPVER_OK,
		     "%s", h.errors);
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0,
		     "got %g %g %g %g", (double)((float *)out->data)[0],
		     (double)((float *)out->data)[1],
		     (double)((float *)out->data)[2],
		     (double)((float *)out->data)[3]);
}

/*
 * asymmetric_quantize_inputs (version 4): the row (1, -2, 0.2) spans
 * [-2, 1], so the scale is 3 / 255 and the zero point 42 (from either
 * end: -128 + 170 = 127 - 85); q = round(42 + 85 x) = (127, -128, 59) and
 * q - 42 = (85, -170, 17).  Sums 170 - 170 - 68 = -68 and
 * 0 - 510 + 17 = -493.  The same row in both of x's two batches, y
 * broadcast.
 */
Test(spatial, batch_matmul_hybrid_asymmetric_inputs)
{
	static const opver_batch_matmul_params params = { 0, 0, 1 };
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 1, 3),
				    (const float[]){ 1, -2, 0.2f,
						     1, -2, 0.2f });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_INT8, KH_DIMS(3, 2),
				    hybrid_y);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 1, 2), NULL);
	const float scale = (float)(3.0 / 255.0);
	const float want[] = {
		hybrid_product(-68, scale), hybrid_product(-493, scale),
		hybrid_product(-68, scale), hybrid_product(-493, scale),
	};

	kh_quantize(&h, y, 0.5f, 0);
	cr_assert_eq(kh_run(&h, hybrid_node(&params, x, y, out)), OPVER_OK,
		     "%s", h.errors);
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0,
		     "got %g %g", (double)((float *)out->data)[0],
		     (double)((float *)out->data)[1]);
}

/* TFLite's hybrid kernel subtracts no y zero point and scales per
 * tensor. */
Test(spatial, batch_matmul_hybrid_rejects_asymmetric_or_per_channel_y)
{
	static const opver_batch_matmul_params params = { 0, 0, 0 };
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_FLOAT32, KH_DIMS(1, 3),
				    NULL);
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_INT8, KH_DIMS(3, 2),
				    hybrid_y);
	opver_tensor *y2 = kh_tensor(&h, "y2", OPVER_TYPE_INT8, KH_DIMS(3, 2),
				     hybrid_y);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);

	kh_quantize(&h, y, 0.5f, 3);
	cr_expect_eq(kh_prepare(&h, hybrid_node(&params, x, y, out)),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(strstr(h.errors, "zero point 3"), "%s", h.errors);
	kh_quantize_per_channel(&h, y2, 1, 2, (float[]){ 0.5f, 0.25f },
				(int64_t[]){ 0, 0 });
	cr_expect_neq(kh_prepare(&h, hybrid_node(&params, x, y2, out)),
		      OPVER_OK);
}
