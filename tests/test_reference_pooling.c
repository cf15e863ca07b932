/*
 * test_reference_pooling.c - the reference plugin's AVERAGE_POOL_2D and
 * MAX_POOL_2D kernels run from the built reference.so through the kernel
 * harness: SAME and VALID windows, strides and filters larger than the
 * stride checked against values worked out by hand (padding left out of
 * averages), batches and channels, fused activations, the rounding of
 * quantized averages, random shapes against a naive reference written
 * here, and what prepare rejects and what it says.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "kernel_harness.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

static opver_pool_params pool_params(opver_padding padding, int32_t filter_h,
				     int32_t filter_w, int32_t stride_h,
				     int32_t stride_w,
				     opver_activation activation)
{
	return (opver_pool_params){ .padding = padding,
				    .stride_width = stride_w,
				    .stride_height = stride_h,
				    .filter_width = filter_w,
				    .filter_height = filter_h,
				    .activation = activation };
}

static opver_node *pool_node(const char *kernel,
			     const opver_pool_params *params,
			     opver_tensor *input, opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, kernel), 1, params, sizeof(*params),
		       KH_TENSORS(input), KH_TENSORS(output));
}

static opver_tensor *quantized(const char *name, opver_type type,
			       int32_t rank, const int32_t *dims,
			       const void *data, float scale,
			       int64_t zero_point)
{
	opver_tensor *t = kh_tensor(&h, name, type, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

static void expect_floats(const opver_tensor *tensor, const float *want,
			  size_t count)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(got[i] == want[i], "element %zu: got %g, want %g", i,
			  (double)got[i], (double)want[i]);
}

/* Integer tensors of any width, compared as int32. */
static int32_t element(const opver_tensor *tensor, size_t i)
{
	return tensor->type == OPVER_TYPE_INT8	  ? ((const int8_t *)tensor->data)[i]
	       : tensor->type == OPVER_TYPE_UINT8 ? ((const uint8_t *)tensor->data)[i]
						  : ((const int16_t *)tensor->data)[i];
}

static void expect_ints(const opver_tensor *tensor, const int32_t *want,
			size_t count)
{
	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(element(tensor, i), want[i],
			     "element %zu: got %d, want %d", i,
			     element(tensor, i), want[i]);
}

/* Prepare fails with `status` and exactly one message containing `text`. */
static void expect_rejected(opver_node *node, opver_status status,
			    const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

/* Runs `kernel` with `p` from `in` into `out`; it must succeed. */
static void run_pool(const char *kernel, const opver_pool_params *p,
		     opver_tensor *in, opver_tensor *out)
{
	cr_assert_eq(kh_run(&h, pool_node(kernel, p, in, out)), OPVER_OK,
		     "%s: %s", kernel, h.errors);
}

/* Runs the average and the max pool of in's type with `p` from `in` into
 * two new outputs "avg" and "max" of shape `dims`, quantized as `in` is
 * (when it is); both must succeed. */
static void run_both_pools(const opver_pool_params *p, opver_tensor *in,
			   int32_t rank, const int32_t *dims,
			   opver_tensor **avg_out, opver_tensor **max_out)
{
	const char *type = in->type == OPVER_TYPE_FLOAT32 ? "float32"
			   : in->type == OPVER_TYPE_INT8  ? "int8"
			   : in->type == OPVER_TYPE_UINT8 ? "uint8"
							  : "int16";
	char avg_kernel[32], max_kernel[32];

	snprintf(avg_kernel, sizeof(avg_kernel), "average_pool_2d_%s", type);
	snprintf(max_kernel, sizeof(max_kernel), "max_pool_2d_%s", type);
	*avg_out = kh_tensor(&h, "avg", in->type, rank, dims, NULL);
	*max_out = kh_tensor(&h, "max", in->type, rank, dims, NULL);
	if (in->quant.count > 0) {
		kh_quantize(&h, *avg_out, in->quant.scale[0],
			    in->quant.zero_point[0]);
		kh_quantize(&h, *max_out, in->quant.scale[0],
			    in->quant.zero_point[0]);
	}
	run_pool(avg_kernel, p, in, *avg_out);
	run_pool(max_kernel, p, in, *max_out);
}

/* ------------------------------------------------------- float, by hand */

TestSuite(pool_float32, .init = setup, .fini = teardown);

/*
 * 4 x 4 input 1..16, 2 x 2 windows, stride 2, VALID:
 *   (1+2+5+6)/4 = 3.5   (3+4+7+8)/4 = 5.5
 *   (9+10+13+14)/4 = 11.5   (11+12+15+16)/4 = 13.5
 * maxima 6, 8, 14, 16.
 */
Test(pool_float32, valid_2x2_stride_2)
{
	float x[16];
	opver_tensor *in, *avg_out, *max_out;
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	for (int i = 0; i < 16; i++)
		x[i] = (float)(i + 1);
	in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, KH_DIMS(1, 4, 4, 1),
		       x);
	run_both_pools(&p, in, KH_DIMS(1, 2, 2, 1), &avg_out, &max_out);
	expect_floats(avg_out, (float[]){ 3.5f, 5.5f, 11.5f, 13.5f }, 4);
	expect_floats(max_out, (float[]){ 6, 8, 14, 16 }, 4);
}

/*
 * 3 x 3 input 1..9, 3 x 3 windows, stride 1, SAME: one row and column of
 * padding on each side, left out of the averages:
 *   (1+2+4+5)/4 = 3     (1+..+6)/6 = 3.5        (2+3+5+6)/4 = 4
 *   (1+2+4+5+7+8)/6 = 4.5   45/9 = 5   (2+3+5+6+8+9)/6 = 5.5
 *   (4+5+7+8)/4 = 6     (4+..+9)/6 = 6.5        (5+6+8+9)/4 = 7
 * (counting the padding would give 12/9 = 1.33 in the corner).
 */
Test(pool_float32, same_3x3_leaves_padding_out_of_the_average)
{
	float x[9];
	opver_tensor *in, *avg_out, *max_out;
	opver_pool_params p = pool_params(OPVER_PADDING_SAME, 3, 3, 1, 1,
					  OPVER_ACTIVATION_NONE);

	for (int i = 0; i < 9; i++)
		x[i] = (float)(i + 1);
	in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, KH_DIMS(1, 3, 3, 1),
		       x);
	run_both_pools(&p, in, KH_DIMS(1, 3, 3, 1), &avg_out, &max_out);
	expect_floats(avg_out,
		      (float[]){ 3, 3.5f, 4, 4.5f, 5, 5.5f, 6, 6.5f, 7 }, 9);
	expect_floats(max_out, (float[]){ 5, 6, 6, 8, 9, 9, 8, 9, 9 }, 9);
}

/* One spatial dimension of windows, worked by hand. */
struct line_case {
	opver_padding padding;
	int32_t filter, stride;
	int32_t in;
	float x[5];
	int32_t out;
	float avg[5];
	float max[5];
};

ParameterizedTestParameters(pool_float32, lines)
{
	static struct line_case cases[] = {
		/* SAME, 5 by filter 2 stride 2: 3 outputs, total padding
		 * 1, all after: windows [0,2) [2,4) [4,5). */
		{ OPVER_PADDING_SAME, 2, 2, 5, { 1, 3, 5, 7, 9 }, 3,
		  { 2, 6, 9 }, { 3, 7, 9 } },
		/* SAME, 4 by filter 3 stride 2: 2 outputs, padding 1
		 * after: windows [0,3) [2,4). */
		{ OPVER_PADDING_SAME, 3, 2, 4, { 2, 4, 6, 8 }, 2, { 4, 7 },
		  { 6, 8 } },
		/* SAME, 5 by filter 4 stride 1: padding 3, 1 before and 2
		 * after: windows [0,3) [0,4) [1,5) [2,5) [3,5). */
		{ OPVER_PADDING_SAME, 4, 1, 5, { 1, 2, 3, 4, 5 }, 5,
		  { 2, 2.5f, 3.5f, 4, 4.5f }, { 3, 4, 5, 5, 5 } },
		/* VALID, 5 by filter 3 stride 2: windows [0,3) [2,5). */
		{ OPVER_PADDING_VALID, 3, 2, 5, { 1, 2, 3, 4, 5 }, 2, { 2, 4 },
		  { 3, 5 } },
		/* VALID, filter 1 stride 3 skips elements. */
		{ OPVER_PADDING_VALID, 1, 3, 5, { 1, -2, 3, -4, 5 }, 2,
		  { 1, -4 }, { 1, -4 } },
		/* SAME with a stride larger than the filter. */
		{ OPVER_PADDING_SAME, 1, 2, 5, { 1, -2, 3, -4, 5 }, 3,
		  { 1, 3, 5 }, { 1, 3, 5 } },
	};

	return cr_make_param_array(struct line_case, cases, COUNT(cases));
}

/* Each case along the width, then the same along the height. */
ParameterizedTest(struct line_case *c, pool_float32, lines)
{
	for (int along_height = 0; along_height < 2; along_height++) {
		const int32_t in_h = along_height ? c->in : 1;
		const int32_t in_w = along_height ? 1 : c->in;
		const int32_t out_h = along_height ? c->out : 1;
		const int32_t out_w = along_height ? 1 : c->out;
		opver_pool_params p =
			along_height
				? pool_params(c->padding, c->filter, 1,
					      c->stride, 1,
					      OPVER_ACTIVATION_NONE)
				: pool_params(c->padding, 1, c->filter, 1,
					      c->stride, OPVER_ACTIVATION_NONE);
		opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
					     KH_DIMS(1, in_h, in_w, 1), c->x);
		opver_tensor *avg_out, *max_out;

		run_both_pools(&p, in, KH_DIMS(1, out_h, out_w, 1), &avg_out,
			       &max_out);
		expect_floats(avg_out, c->avg, (size_t)c->out);
		expect_floats(max_out, c->max, (size_t)c->out);
	}
}

/*
 * [2, 2, 2, 3], one 2 x 2 window: element (n, y, x, c) is
 * 100 n + 10 c + (2 y + x), so channel c of batch n averages to
 * 100 n + 10 c + 1.5 and peaks at 100 n + 10 c + 3.
 */
Test(pool_float32, batches_and_channels)
{
	float x[24];
	opver_tensor *in, *avg_out, *max_out;
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 1, 1,
					  OPVER_ACTIVATION_NONE);

	for (int n = 0; n < 2; n++)
		for (int i = 0; i < 4; i++)
			for (int c = 0; c < 3; c++)
				x[(n * 4 + i) * 3 + c] =
					(float)(100 * n + 10 * c + i);
	in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, KH_DIMS(2, 2, 2, 3),
		       x);
	run_both_pools(&p, in, KH_DIMS(2, 1, 1, 3), &avg_out, &max_out);
	expect_floats(avg_out,
		      (float[]){ 1.5f, 11.5f, 21.5f, 101.5f, 111.5f, 121.5f },
		      6);
	expect_floats(max_out, (float[]){ 3, 13, 23, 103, 113, 123 }, 6);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(pool_float32, activations)
{
	/* 1 x 1 windows pass -2.5, -0.5, 0.5, 3, 7 to the clamp. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, pool_float32, activations)
{
	static const char *kernels[] = { "average_pool_2d_float32",
					 "max_pool_2d_float32" };
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 1, 1, 1,
					  c->activation);

	for (size_t k = 0; k < COUNT(kernels); k++) {
		opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
					     KH_DIMS(1, 1, 5, 1),
					     (float[]){ -2.5f, -0.5f, 0.5f, 3,
							7 });
		opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
					      KH_DIMS(1, 1, 5, 1), NULL);

		run_pool(kernels[k], &p, in, out);
		expect_floats(out, c->expected, 5);
	}
}

Test(pool_float32, max_starts_below_every_finite_value)
{
	/* A window of -FLT_MAX and -inf: the max is -FLT_MAX. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1, 2, 1),
				     (float[]){ -3e38f, -INFINITY });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1, 1, 1), NULL);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 2, 1, 1,
					  OPVER_ACTIVATION_NONE);

	run_pool("max_pool_2d_float32", &p, in, out);
	expect_floats(out, (float[]){ -3e38f }, 1);
}

/* -------------------------------------------------- quantized, by hand */

TestSuite(pool_quantized, .init = setup, .fini = teardown);

/*
 * Pairs averaged by 1 x 2 windows of stride 2, rounded half away from
 * zero:  (-3, -2) -2.5 -> -3   (-1, -2) -1.5 -> -2   (-1, 0) -0.5 -> -1
 *        (1, 0) 0.5 -> 1       (1, 2) 1.5 -> 2       (0, 0) 0
 * then the type's extremes, which the int32 sum holds.
 */
Test(pool_quantized, int8_averages_round_half_away_from_zero)
{
	static const int8_t x[] = { -3, -2, -1, -2, -1, 0, 1,    0,
				    1,  2,  0,  0,  127, 127, -128, -128 };
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 16, 1), x, 0.5f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 8, 1), NULL, 0.5f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 2, 1, 2,
					  OPVER_ACTIVATION_NONE);

	run_pool("average_pool_2d_int8", &p, in, out);
	expect_ints(out, (int32_t[]){ -3, -2, -1, 1, 2, 0, 127, -128 }, 8);
}

/* Thirds: (-1, -2, -2) -5/3 -> -2; (1, 1, 2) 4/3 -> 1; (-1, -1, 1) -1/3
 * -> 0; (-2, -2, 0) -4/3 -> -1; (2, 2, 1) 5/3 -> 2. */
Test(pool_quantized, int16_averages_of_three)
{
	static const int16_t x[] = { -1, -2, -2, 1,  1,  2, -1, -1,
				     1,  -2, -2, 0,  2,  2, 1 };
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 15, 1), x, 0.01f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 5, 1), NULL, 0.01f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 3, 1, 3,
					  OPVER_ACTIVATION_NONE);

	run_pool("average_pool_2d_int16", &p, in, out);
	expect_ints(out, (int32_t[]){ -2, 1, 0, -1, 2 }, 5);
}

/* (32767, 32767) 32767; (-32768, -32768) -32768; (-32768, -32767)
 * -32767.5 -> -32768; (32766, 32767) 32766.5 -> 32767. */
Test(pool_quantized, int16_extremes)
{
	static const int16_t x[] = { 32767, 32767, -32768, -32768,
				     -32768, -32767, 32766, 32767 };
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 8, 1), x, 0.01f, 0);
	opver_tensor *avg_out, *max_out;
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 2, 1, 2,
					  OPVER_ACTIVATION_NONE);

	run_both_pools(&p, in, KH_DIMS(1, 1, 4, 1), &avg_out, &max_out);
	expect_ints(avg_out, (int32_t[]){ 32767, -32768, -32768, 32767 }, 4);
	expect_ints(max_out, (int32_t[]){ 32767, -32768, -32767, 32767 }, 4);
}

/*
 * uint8 pairs, 1 x 2 windows of stride 2: averages (1, 2) 1.5 -> 2,
 * (0, 1) 0.5 -> 1, (254, 255) 254.5 -> 255 (the sum 509 stays exact),
 * (0, 0) 0, (3, 4) 3.5 -> 4, (255, 255) 255: halves round up, as TFLite's
 * uint8 kernel does.  Maxima 2, 1, 255, 0, 4, 255.
 */
Test(pool_quantized, uint8_averages_round_half_up)
{
	static const uint8_t x[] = { 1, 2, 0, 1, 254, 255, 0, 0, 3, 4, 255,
				     255 };
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 12, 1), x, 0.5f, 0);
	opver_tensor *avg_out, *max_out;
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 2, 1, 2,
					  OPVER_ACTIVATION_NONE);

	run_both_pools(&p, in, KH_DIMS(1, 1, 6, 1), &avg_out, &max_out);
	expect_ints(avg_out, (int32_t[]){ 2, 1, 255, 0, 4, 255 }, 6);
	expect_ints(max_out, (int32_t[]){ 2, 1, 255, 0, 4, 255 }, 6);
}

/* RELU6 at scale 0.5 and zero point 128 clamps uint8 to [128, 140]:
 * averages (100, 110) 105, (130, 131) 130.5 -> 131, (200, 150) 175 ->
 * 128, 131, 140; maxima 110, 131, 200 -> 128, 131, 140. */
Test(pool_quantized, uint8_activation_around_the_zero_point)
{
	static const uint8_t x[] = { 100, 110, 130, 131, 200, 150 };
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 6, 1), x, 0.5f, 128);
	opver_tensor *avg_out, *max_out;
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 2, 1, 2,
					  OPVER_ACTIVATION_RELU6);

	run_both_pools(&p, in, KH_DIMS(1, 1, 3, 1), &avg_out, &max_out);
	expect_ints(avg_out, (int32_t[]){ 128, 131, 140 }, 3);
	expect_ints(max_out, (int32_t[]){ 128, 131, 140 }, 3);
}

/*
 * The SAME 3 x 3 case of the float suite on int8 values with zero point
 * -10 (q = real - 10): averages 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7 become
 * -7, -6.5 -> -7, -6, -5.5 -> -6, -5, -4.5 -> -5, -4, -3.5 -> -4, -3:
 * the stored integers are averaged, so halves round away from zero on
 * the stored scale, as in TFLite.
 */
Test(pool_quantized, int8_same_padding_with_a_zero_point)
{
	int8_t x[9];
	opver_tensor *in, *avg_out, *max_out;
	opver_pool_params p = pool_params(OPVER_PADDING_SAME, 3, 3, 1, 1,
					  OPVER_ACTIVATION_NONE);

	for (int i = 0; i < 9; i++)
		x[i] = (int8_t)(i + 1 - 10);
	in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 3, 3, 1), x, 0.25f,
		       -10);
	run_both_pools(&p, in, KH_DIMS(1, 3, 3, 1), &avg_out, &max_out);
	expect_ints(avg_out,
		    (int32_t[]){ -7, -7, -6, -6, -5, -5, -4, -4, -3 }, 9);
	expect_ints(max_out,
		    (int32_t[]){ -5, -4, -4, -2, -1, -1, -2, -1, -1 }, 9);
}

struct int_activation_case {
	opver_activation activation;
	int32_t expected[6];
};

ParameterizedTestParameters(pool_quantized, activations)
{
	/*
	 * Scale 0.5, zero point -10: RELU clamps below at q(0) = -10,
	 * RELU6 also above at q(6) = -10 + 12 = 2, RELU_N1_TO_1 to
	 * [q(-1), q(1)] = [-12, -8].  1 x 1 windows pass
	 * -20, -11, -9, 0, 5, 100 through.
	 */
	static struct int_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -20, -11, -9, 0, 5, 100 } },
		{ OPVER_ACTIVATION_RELU, { -10, -10, -9, 0, 5, 100 } },
		{ OPVER_ACTIVATION_RELU6, { -10, -10, -9, 0, 2, 2 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -12, -11, -9, -8, -8, -8 } },
	};

	return cr_make_param_array(struct int_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct int_activation_case *c, pool_quantized, activations)
{
	static const char *kernels[] = { "average_pool_2d_int8",
					 "max_pool_2d_int8",
					 "average_pool_2d_int16",
					 "max_pool_2d_int16" };
	static const int8_t x8[] = { -20, -11, -9, 0, 5, 100 };
	static const int16_t x16[] = { -20, -11, -9, 0, 5, 100 };
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 1, 1, 1, 1,
					  c->activation);

	for (size_t k = 0; k < COUNT(kernels); k++) {
		const opver_type type = k < 2 ? OPVER_TYPE_INT8
					      : OPVER_TYPE_INT16;
		const void *x = type == OPVER_TYPE_INT8 ? (const void *)x8
							: (const void *)x16;
		opver_tensor *in = quantized("input", type,
					     KH_DIMS(1, 1, 6, 1), x, 0.5f,
					     -10);
		opver_tensor *out = quantized("output", type,
					      KH_DIMS(1, 1, 6, 1), NULL, 0.5f,
					      -10);

		run_pool(kernels[k], &p, in, out);
		expect_ints(out, c->expected, 6);
	}
}

/* ------------------------------------------- random shapes, naive check */

TestSuite(pool_shapes, .init = setup, .fini = teardown);

struct shape_case {
	int32_t n, h, w, c;
	int32_t filter_h, filter_w, stride_h, stride_w;
	opver_padding padding;
};

ParameterizedTestParameters(pool_shapes, match_a_naive_reference)
{
	static struct shape_case cases[] = {
		{ 1, 5, 5, 1, 3, 3, 1, 1, OPVER_PADDING_SAME },
		{ 2, 7, 6, 3, 3, 2, 2, 2, OPVER_PADDING_SAME },
		{ 1, 8, 8, 4, 2, 2, 2, 2, OPVER_PADDING_VALID },
		{ 3, 9, 4, 5, 4, 3, 3, 1, OPVER_PADDING_VALID },
		{ 1, 6, 10, 16, 5, 5, 2, 3, OPVER_PADDING_SAME },
		{ 2, 1, 9, 2, 1, 4, 1, 2, OPVER_PADDING_SAME },
		{ 1, 12, 12, 7, 12, 12, 1, 1, OPVER_PADDING_VALID },
		{ 1, 5, 7, 33, 7, 7, 1, 1, OPVER_PADDING_SAME },
		{ 1, 10, 3, 1, 2, 1, 4, 4, OPVER_PADDING_SAME },
	};

	return cr_make_param_array(struct shape_case, cases, COUNT(cases));
}

/* TFLite's output size and leading padding for one dimension. */
static int32_t out_size(opver_padding padding, int32_t in, int32_t filter,
			int32_t stride)
{
	return padding == OPVER_PADDING_SAME
		       ? (in + stride - 1) / stride
		       : (in - filter + stride) / stride;
}

static int32_t pad_before(int32_t in, int32_t filter, int32_t stride,
			  int32_t out)
{
	const int32_t total = (out - 1) * stride + filter - in;

	return total > 0 ? total / 2 : 0;
}

/* Every filter tap of one output element, tested against the input's
 * bounds: the sum (a double), count and maximum of the taps inside. */
static void naive_window(const struct shape_case *s, const double *x,
			 int32_t n, int32_t top, int32_t left, int32_t c,
			 double *sum, double *max, int32_t *count)
{
	*sum = 0.0;
	*max = -INFINITY;
	*count = 0;
	for (int32_t fy = 0; fy < s->filter_h; fy++) {
		for (int32_t fx = 0; fx < s->filter_w; fx++) {
			const int32_t iy = top + fy, ix = left + fx;
			double v;

			if (iy < 0 || iy >= s->h || ix < 0 || ix >= s->w)
				continue;
			v = x[((n * s->h + iy) * s->w + ix) * s->c + c];
			*sum += v;
			*max = fmax(*max, v);
			(*count)++;
		}
	}
}

/* Channel by channel, output element by output element. */
static void naive_pool(const struct shape_case *s, const double *x,
		       int32_t oh, int32_t ow, double *sums, double *maxima,
		       int32_t *counts)
{
	const int32_t ph = pad_before(s->h, s->filter_h, s->stride_h, oh);
	const int32_t pw = pad_before(s->w, s->filter_w, s->stride_w, ow);

	for (int32_t c = 0; c < s->c; c++) {
		for (int32_t n = 0; n < s->n; n++) {
			for (int32_t y = 0; y < oh; y++) {
				for (int32_t xo = 0; xo < ow; xo++) {
					const size_t o =
						(((size_t)n * oh + y) * ow +
						 xo) * s->c + c;

					naive_window(s, x, n,
						     y * s->stride_h - ph,
						     xo * s->stride_w - pw, c,
						     &sums[o], &maxima[o],
						     &counts[o]);
				}
			}
		}
	}
}

ParameterizedTest(struct shape_case *s, pool_shapes, match_a_naive_reference)
{
	enum { MAX_IN = 2048, MAX_OUT = 2048 };
	const int32_t oh = out_size(s->padding, s->h, s->filter_h, s->stride_h);
	const int32_t ow = out_size(s->padding, s->w, s->filter_w, s->stride_w);
	const size_t n_in = (size_t)s->n * s->h * s->w * s->c;
	const size_t n_out = (size_t)s->n * oh * ow * s->c;
	static double x[MAX_IN], sums[MAX_OUT], maxima[MAX_OUT];
	static int32_t counts[MAX_OUT];
	static float xf[MAX_IN], want_f[MAX_OUT], want_max_f[MAX_OUT];
	static int8_t x8[MAX_IN];
	static int16_t x16[MAX_IN];
	static int32_t want_q[MAX_OUT], want_max_q[MAX_OUT];
	opver_pool_params p = pool_params(s->padding, s->filter_h, s->filter_w,
					  s->stride_h, s->stride_w,
					  OPVER_ACTIVATION_NONE);

	cr_assert(n_in <= MAX_IN && n_out <= MAX_OUT, "%zu %zu", n_in, n_out);
	for (int pass = 0; pass < 3; pass++) {
		const opver_type type = pass == 0   ? OPVER_TYPE_FLOAT32
					: pass == 1 ? OPVER_TYPE_INT8
						    : OPVER_TYPE_INT16;
		const int32_t range = pass == 2 ? 65536 : 256;
		const void *data = pass == 0   ? (const void *)xf
				   : pass == 1 ? (const void *)x8
					       : (const void *)x16;
		opver_tensor *in, *avg_out, *max_out;

		/* values spread over the type's range (int8's for float) */
		for (size_t i = 0; i < n_in; i++) {
			const int32_t v = (int32_t)((i * 2654435761u) %
						    (uint32_t)range) -
					  range / 2;

			x[i] = v;
			xf[i] = (float)v;
			if (pass == 1)
				x8[i] = (int8_t)v;
			if (pass == 2)
				x16[i] = (int16_t)v;
		}
		naive_pool(s, x, oh, ow, sums, maxima, counts);
		for (size_t o = 0; o < n_out; o++) {
			/* float: the integer sum is exact, divided in float
			 * as TFLite; integers: rounded half away from 0 */
			want_f[o] = (float)sums[o] / (float)counts[o];
			want_max_f[o] = (float)maxima[o];
			want_q[o] = (int32_t)round(sums[o] / counts[o]);
			want_max_q[o] = (int32_t)maxima[o];
		}
		in = kh_tensor(&h, "input", type, KH_DIMS(s->n, s->h, s->w, s->c),
			       data);
		if (type != OPVER_TYPE_FLOAT32)
			kh_quantize(&h, in, 0.5f, 3);
		run_both_pools(&p, in, KH_DIMS(s->n, oh, ow, s->c), &avg_out,
			       &max_out);
		if (type == OPVER_TYPE_FLOAT32) {
			expect_floats(avg_out, want_f, n_out);
			expect_floats(max_out, want_max_f, n_out);
		} else {
			expect_ints(avg_out, want_q, n_out);
			expect_ints(max_out, want_max_q, n_out);
		}
	}
}

/* ------------------------------------------------------ prepare rejects */

TestSuite(pool_prepare, .init = setup, .fini = teardown);

/* A float32 node for `kernel` from an input to an output of the given
 * shapes. */
static opver_node *float_node(const char *kernel, const opver_pool_params *p,
			      int32_t in_rank, const int32_t *in_dims,
			      int32_t out_rank, const int32_t *out_dims)
{
	return pool_node(kernel, p,
			 kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, in_rank,
				   in_dims, NULL),
			 kh_tensor(&h, "output", OPVER_TYPE_FLOAT32, out_rank,
				   out_dims, NULL));
}

/* A valid int8 average pool 2 x 2 VALID over [1, 4, 4, 2] but for the
 * output quantization the test gives. */
static opver_node *int8_node(const char *kernel, float out_scale,
			     int64_t out_zero)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 4, 4, 2), NULL, 0.5f, 3);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 2, 2, 2), NULL, out_scale,
				      out_zero);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	return pool_node(kernel, &p, in, out);
}

Test(pool_prepare, rejects_a_different_output_zero_point)
{
	expect_rejected(int8_node("average_pool_2d_int8", 0.5f, 4),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has scale 0.5 and zero point 3, output 'output' scale 0.5 and zero point 4; quantized pooling needs them equal");
}

Test(pool_prepare, rejects_a_different_output_scale)
{
	expect_rejected(int8_node("max_pool_2d_int8", 0.25f, 3),
			OPVER_ERROR_INVALID_MODEL,
			"quantized pooling needs them equal");
}

Test(pool_prepare, accepts_scales_equal_but_for_float_noise)
{
	cr_expect_eq(kh_prepare(&h, int8_node("average_pool_2d_int8",
					      0.5f * (1.0f + 1e-7f), 3)),
		     OPVER_OK, "%s", h.errors);
}

Test(pool_prepare, rejects_different_int16_quantization)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 2, 2, 1), NULL, 0.001f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 1, 1), NULL, 0.002f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(pool_node("max_pool_2d_int16", &p, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"quantized pooling needs them equal");
}

Test(pool_prepare, rejects_an_unquantized_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 1), NULL, 0.5f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(pool_node("average_pool_2d_int8", &p, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is not quantized");
}

Test(pool_prepare, rejects_a_wrong_output_shape)
{
	/* SAME with stride 2 gives ceil(5 / 2) = 3 */
	opver_pool_params p = pool_params(OPVER_PADDING_SAME, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("average_pool_2d_float32", &p,
				   KH_DIMS(1, 5, 5, 2), KH_DIMS(1, 2, 2, 2)),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has shape [1, 2, 2, 2]; the input and window give [1, 3, 3, 2]");
}

Test(pool_prepare, rejects_a_zero_stride)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 0, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("max_pool_2d_float32", &p,
				   KH_DIMS(1, 4, 4, 1), KH_DIMS(1, 2, 2, 1)),
			OPVER_ERROR_INVALID_MODEL,
			"height: input 4, filter 2, stride 0 and dilation 1 must all be positive");
}

Test(pool_prepare, without_params_rejects_the_zero_filter)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 4, 4, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 2, 1), NULL);

	expect_rejected(kh_node(&h, kh_kernel(&h, "max_pool_2d_float32"), 1,
				NULL, 0, KH_TENSORS(in), KH_TENSORS(out)),
			OPVER_ERROR_INVALID_MODEL,
			"height: input 4, filter 0, stride 0");
}

Test(pool_prepare, rejects_a_valid_filter_larger_than_the_input)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 3, 1, 1,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("average_pool_2d_float32", &p,
				   KH_DIMS(1, 4, 2, 1), KH_DIMS(1, 1, 1, 1)),
			OPVER_ERROR_INVALID_MODEL,
			"width: a filter spanning 3 elements does not fit the input's 2 with VALID padding");
}

Test(pool_prepare, rejects_a_tanh_activation)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_TANH);

	expect_rejected(float_node("average_pool_2d_float32", &p,
				   KH_DIMS(1, 2, 2, 1), KH_DIMS(1, 1, 1, 1)),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}

Test(pool_prepare, rejects_rank_3)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("max_pool_2d_float32", &p,
				   KH_DIMS(4, 4, 1), KH_DIMS(1, 2, 2, 1)),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has rank 3; it must have rank 4");
}

Test(pool_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 2, 2, 1), NULL, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(pool_node("average_pool_2d_int8", &p, in, out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' has type INT16; this kernel takes INT8");
}

Test(pool_prepare, rejects_two_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1, 1, 1), NULL);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(kh_node(&h, kh_kernel(&h, "max_pool_2d_float32"), 1,
				&p, sizeof(p), KH_TENSORS(in, in),
				KH_TENSORS(out)),
			OPVER_ERROR_INVALID_MODEL,
			"has 2 inputs and 1 outputs; MAX_POOL_2D takes one input and one output");
}

/*
 * An int16 window of 256 x 257 = 65792 elements could sum past int32
 * (65792 x 32768 > 2^31); the max pool over it has no sum.
 */
Test(pool_prepare, rejects_an_int16_average_that_could_overflow)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 256, 257, 1), NULL, 1.0f, 0);
	opver_tensor *avg_out = quantized("avg", OPVER_TYPE_INT16,
					  KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_tensor *max_out = quantized("max", OPVER_TYPE_INT16,
					  KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 256, 257, 1, 1,
					  OPVER_ACTIVATION_NONE);

	cr_expect_eq(kh_prepare(&h, pool_node("max_pool_2d_int16", &p, in,
					      max_out)),
		     OPVER_OK, "%s", h.errors);
	expect_rejected(pool_node("average_pool_2d_int16", &p, in, avg_out),
			OPVER_ERROR_UNSUPPORTED,
			"a window of 65792 INT16 elements could overflow the int32 sum");
}

/* Every kernel covers versions 1 to 3: each version adds only a type. */
Test(pool_prepare, kernels_cover_versions_1_to_3)
{
	static const struct {
		const char *name;
		int32_t op;
	} kernels[] = {
		{ "average_pool_2d_float32", OPVER_OP_AVERAGE_POOL_2D },
		{ "average_pool_2d_int8", OPVER_OP_AVERAGE_POOL_2D },
		{ "average_pool_2d_int16", OPVER_OP_AVERAGE_POOL_2D },
		{ "max_pool_2d_float32", OPVER_OP_MAX_POOL_2D },
		{ "max_pool_2d_int8", OPVER_OP_MAX_POOL_2D },
		{ "max_pool_2d_int16", OPVER_OP_MAX_POOL_2D },
	};

	for (size_t i = 0; i < COUNT(kernels); i++) {
		const opver_kernel *k = kh_kernel(&h, kernels[i].name);

		cr_expect_eq(k->op, kernels[i].op, "%s", kernels[i].name);
		cr_expect_eq(k->min_version, 1, "%s", kernels[i].name);
		cr_expect_eq(k->max_version, 3, "%s", kernels[i].name);
	}
}
