/*
 * test_reference_conv_int8.c - the reference plugin's int8 and uint8 CONV_2D
 * kernels: TFLite's quantized rounding per tensor and per channel, zero
 * points, groups and saturation on values worked out by hand.
 */
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "conv_harness.h"

/* ----------------------------------------------------------------- int8 */

TestSuite(conv_int8, .init = setup, .fini = teardown);

/* input 2 x 2 at scale 0.5, zero point -1: q (1, 3, 5, -1) is (1, 2, 3, 0) */
static opver_tensor *int8_image(void)
{
	return quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 2, 2, 1),
			 (int8_t[]){ 1, 3, 5, -1 }, 0.5f, -1);
}

Test(conv_int8, per_tensor_filter_with_bias)
{
	/*
	 * filter at scale 0.25: o0 q (4, 0, -4, 8) is (1, 0, -1, 2),
	 *                       o1 q (2, 2, 2, 2) is 0.5 each
	 * bias at scale 0.5 * 0.25 = 0.125: q (4, -3) is (0.5, -0.375)
	 * output scale 1, zero point 3: multiplier 0.125 = 2^30, shift -2
	 *
	 * o0: 4*(1+1) + 0 + -4*(5+1) + 8*(-1+1) = -16, + 4 = -12;
	 *     high mul -6, divide by 4: -1.5 -> -2 (away from zero); + 3 = 1.
	 *     Real: 1 - 3 + 0.5 = -1.5.
	 * o1: 2*(2 + 4 + 6 + 0) = 24, - 3 = 21; high mul 10.5 -> 11,
	 *     11 / 4 = 2.75 -> 3; + 3 = 6.  Real: 3 - 0.375 = 2.625.
	 */
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 2, 2, 1),
				    (int8_t[]){ 4, 0, -4, 8, 2, 2, 2, 2 },
				    0.25f, 0);
	opver_tensor *b = quantized("bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 4, -3 }, 0.125f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 3);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(int8_image(), f, b),
					   out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 1, 6 }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_int8, per_channel_scales)
{
	/*
	 * filter per channel: o0 scale 0.25, q (4, 0, -4, 8);
	 *                     o1 scale 0.5,  q (1, 3, -1, 2)
	 * bias per channel (scales 0.125, 0.25): q (2, -3)
	 * output scale 1, zero point 0.
	 * o0: multiplier 0.5 * 0.25 = 0.125 (2^30, shift -2):
	 *     -16 + 2 = -14; high mul -7, -7 / 4 = -1.75 -> -2.
	 * o1: multiplier 0.5 * 0.5 = 0.25 (2^30, shift -1):
	 *     1*2 + 3*4 - 1*6 + 2*0 = 8, - 3 = 5; high mul 2.5 -> 3 (ties
	 *     up), 3 / 2 = 1.5 -> 2.  (Real 1.25: TFLite's double rounding
	 *     gives 2; o0's rescale would give 5 * 0.125 -> 1.)
	 */
	opver_tensor *f = per_channel_filter(KH_DIMS(2, 2, 2, 1),
					     (int8_t[]){ 4, 0, -4, 8, 1, 3, -1,
							 2 },
					     (float[]){ 0.25f, 0.5f });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 2, -3 });
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	kh_quantize_per_channel(&h, b, 0, 2, (float[]){ 0.125f, 0.25f },
				(int64_t[]){ 0, 0 });
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(int8_image(), f, b),
					   out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -2, 2 }, 2);
}

Test(conv_int8, padding_contributes_nothing)
{
	/*
	 * input 1 x 2 at scale 1, zero point 2: q (3, 7) is (1, 5)
	 * filter 1 x 3 at scale 1: (1, 2, 4); SAME: one column of padding
	 * each side.  output scale 1, zero point -10 (multiplier 1).
	 * out 0: pad + 2*1 + 4*5 = 22 -> 12; out 1: 1*1 + 2*5 + pad = 11 -> 1.
	 * Padding read as a raw q of 0 would add -2 * weight: 20, 3.
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 2, 1), (int8_t[]){ 3, 7 },
				     1.0f, 2);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 1, 3, 1), (int8_t[]){ 1, 2, 4 },
				    1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 2, 1), NULL, 1.0f, -10);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 12, 1 }, 2);
}

Test(conv_int8, two_groups)
{
	/* channels (1, 2, 3, 4); o0 (1, 1) reads channels 0-1: 3;
	 * o1 (2, 1) reads channels 2-3: 6 + 4 = 10 (2 + 2 = 4 without
	 * groups).  All scales 1: multiplier 1. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 4),
				     (int8_t[]){ 1, 2, 3, 4 }, 1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 1, 2),
				    (int8_t[]){ 1, 1, 2, 1 }, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 3, 10 }, 2);
}

Test(conv_int8, saturates_at_the_type_edges)
{
	/* All scales 1: raw sums clamped to [-128, 127].  input (127, 1):
	 * (1, 1) -> 128 -> 127; (-1, -2) -> -129 -> -128; (1, 0) -> 127. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 2),
				     (int8_t[]){ 127, 1 }, 1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(3, 1, 1, 2),
				    (int8_t[]){ 1, 1, -1, -2, 1, 0 }, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 3), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 127, -128, 127 }, 3);
}

struct int8_activation_case {
	opver_activation activation;
	int8_t expected[4];
};

ParameterizedTestParameters(conv_int8, activations)
{
	/*
	 * Real outputs -1, 2, 5, 7 at output scale 0.125, zero point -20
	 * (multiplier 8 is 2^30 with shift 4) are q -28, -4, 20, 36.
	 * RELU clamps to [-20, 127]; RELU6 to [-20, -20 + 48 = 28];
	 * RELU_N1_TO_1 to [-20 - 8, -20 + 8] = [-28, -12].
	 */
	static struct int8_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -28, -4, 20, 36 } },
		{ OPVER_ACTIVATION_RELU, { -20, -4, 20, 36 } },
		{ OPVER_ACTIVATION_RELU6, { -20, -4, 20, 28 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -28, -12, -12, -12 } },
	};

	return cr_make_param_array(struct int8_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct int8_activation_case *c, conv_int8, activations)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 1), (int8_t[]){ 1 },
				     1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(4, 1, 1, 1),
				    (int8_t[]){ -1, 2, 5, 7 }, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 4), NULL, 0.125f, -20);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, c->activation);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, c->expected, 4);
}

/* ---------------------------------------------------------------- uint8 */

TestSuite(conv_uint8, .init = setup, .fini = teardown);

Test(conv_uint8, filter_zero_point_is_subtracted)
{
	/*
	 * conv_int8's per_tensor_filter_with_bias in TFLite's legacy uint8
	 * quantization, every zero point 128 but the output's:
	 * input scale 0.5: q (130, 132, 134, 128) is (1, 2, 3, 0)
	 * filter scale 0.25: o0 q (132, 128, 124, 136) is (1, 0, -1, 2),
	 *                    o1 q (130, 130, 130, 130) is 0.5 each
	 * bias scale 0.125: (4, -3); output scale 1, zero point 3.
	 * o0: 4*2 + 0 - 4*6 + 8*0 = -16, + 4 = -12; x 0.125 = -1.5 -> -2
	 *     (away from zero), + 3 = 1.
	 * o1: 2*(2 + 4 + 6 + 0) = 24, - 3 = 21; high mul 10.5 -> 11,
	 *     11 / 4 -> 3, + 3 = 6.
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 2, 2, 1),
				     (uint8_t[]){ 130, 132, 134, 128 }, 0.5f,
				     128);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(2, 2, 2, 1),
				    (uint8_t[]){ 132, 128, 124, 136, 130, 130,
						 130, 130 },
				    0.25f, 128);
	opver_tensor *b = quantized("bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 4, -3 }, 0.125f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 3);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 1, 6 }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_uint8, rescale_rounds_the_scale_product_to_float)
{
	/*
	 * TFLite's legacy rescale: float(input scale x filter scale) /
	 * output scale in double, multiplier 1562937613 with shift -6 here.
	 * The product kept in double (as the int8 kernels compute it) gives
	 * 1562937666, and turns the sum 45 x 255 = 11475 into 131, not 130
	 * (the real value is 130.4999...).
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 45 },
				     0.0578598827123642f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 255 },
				    0.05591966584324837f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 1), NULL,
				      0.28451836109161377f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 130 }, 1);
}

Test(conv_uint8, clamps_to_the_activation_and_the_type)
{
	/*
	 * All scales 1 (RELU6 on output scale 1/16, zero point 10:
	 * [10, 10 + 96 = 106]).  input zero point 100: q (101, 103) is
	 * (1, 3); filter zero point 50, q (52, 49, 40, 60, 250, 250) is
	 * (2, -1), (-10, 10), (200, 200); output scale 1/16 multiplies by
	 * 16: o0 (2 - 3) x 16 = -16 -> 10 (RELU6's 0); o1 (-10 + 30) x 16
	 * = 320 -> 106 (6); o2 800 x 16 -> 106.  Without activation the
	 * type clamps: -6, 330, 12810 -> 0, 255, 255.
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 2),
				     (uint8_t[]){ 101, 103 }, 1.0f, 100);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(3, 1, 1, 2),
				    (uint8_t[]){ 52, 49, 40, 60, 250, 250 },
				    1.0f, 50);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 3), NULL, 0.0625f, 10);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_RELU6);

	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 10, 106, 106 }, 3);
	p.activation = OPVER_ACTIVATION_NONE;
	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 0, 255, 255 }, 3);
}

Test(conv_uint8, rejects_a_per_channel_filter)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 1 },
				     1.0f, 0);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_UINT8,
				    KH_DIMS(2, 1, 1, 1), (uint8_t[]){ 1, 2 });
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	kh_quantize_per_channel(&h, f, 0, 2, (float[]){ 1.0f, 2.0f },
				(int64_t[]){ 0, 0 });
	cr_assert_neq(kh_prepare(&h, conv_node(CONV_UINT8, 1, &p,
					       KH_TENSORS(in, f), out)),
		      OPVER_OK);
	cr_expect(strstr(h.errors, "filter") != NULL, "%s", h.errors);
}

Test(conv_uint8, rejects_a_bias_scale_off_the_product)
{
	/* input 0.5 x filter 0.25 = 0.125; a bias at 0.5 is off by 0.375
	 * output steps (scale 1), far beyond TFLite's 0.02. */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 1 },
				     0.5f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 1 },
				    0.25f, 0);
	opver_tensor *b = quantized("bias", OPVER_TYPE_INT32, KH_DIMS(1),
				    (int32_t[]){ 1 }, 0.5f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_prepare(&h, conv_node(CONV_UINT8, 1, &p,
					      KH_TENSORS(in, f, b), out)),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(strstr(h.errors, "must agree") != NULL, "%s", h.errors);
}
