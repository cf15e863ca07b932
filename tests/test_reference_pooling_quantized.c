/*
 * test_reference_pooling_quantized.c - the reference plugin's int8, uint8
 * and int16 pools: the rounding of quantized averages, zero points and fused
 * activations on values worked out by hand.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "pool_harness.h"

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
