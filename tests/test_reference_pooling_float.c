/*
 * test_reference_pooling_float.c - the reference plugin's float32
 * AVERAGE_POOL_2D and MAX_POOL_2D kernels run from the built reference.so
 * through the kernel harness: SAME and VALID windows, strides and filters
 * larger than the stride checked against values worked out by hand (padding
 * left out of averages), batches and channels, fused activations.
 */
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "pool_harness.h"

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
