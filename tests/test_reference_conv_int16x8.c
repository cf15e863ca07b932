/*
 * test_reference_conv_int16x8.c - the reference plugin's int16x8 CONV_2D
 * kernel: its two bias widths and the rescale each chooses, activations,
 * saturation, groups and padding.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "conv_harness.h"

/* ------------------------------------------------------------- int16x8 */

TestSuite(conv_int16x8, .init = setup, .fini = teardown);

/*
 * input at scale 0.001: q (1000, -2000) is (1, -2)
 * filter per channel: o0 scale 0.01, q (100, 50) is (1, 0.5)
 *                     o1 scale 0.02, q (-25, 100) is (-0.5, 2)
 * output scale 0.002.  Rescales 0.001 * 0.01 / 0.002 = 0.005 (multiplier
 * 1374389504, shift -7) and 0.01 (same multiplier, shift -6).
 * Sums: o0 100000 - 100000 = 0; o1 -25000 - 200000 = -225000.
 */
static void int16_node_tensors(opver_type bias_type, const void *bias,
			       opver_tensor **in, opver_tensor **f,
			       opver_tensor **b, opver_tensor **out)
{
	*in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 1, 1, 2),
			(int16_t[]){ 1000, -2000 }, 0.001f, 0);
	*f = per_channel_filter(KH_DIMS(2, 1, 1, 2),
				(int8_t[]){ 100, 50, -25, 100 },
				(float[]){ 0.01f, 0.02f });
	*b = bias != NULL ? kh_tensor(&h, "bias", bias_type, KH_DIMS(2), bias)
			  : NULL;
	*out = quantized("output", OPVER_TYPE_INT16, KH_DIMS(1, 1, 1, 2), NULL,
			 0.002f, 0);
}

Test(conv_int16x8, int64_bias)
{
	/*
	 * bias (scales 1e-5, 2e-5): q (150000, -50000) is (1.5, -1).
	 * 64-bit rescale: multiplier reduced to 20972 (Q0.15).
	 * o0: 150000 * 20972 = 3145800000, + 2^21, >> 22 = 750 (1.5/0.002)
	 * o1: -275000 * 20972 = -5767300000, + 2^20, >> 21 = floor(-2749.56)
	 *     = -2750 (-5.5 / 0.002)
	 */
	opver_tensor *in, *f, *b, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	int16_node_tensors(OPVER_TYPE_INT64, (int64_t[]){ 150000, -50000 },
			   &in, &f, &b, &out);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out, (int16_t[]){ 750, -2750 }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_int16x8, int32_bias)
{
	/* 32-bit rescale: o0 high mul of 150000 by 0.64 * 2^31 gives 96000,
	 * / 2^7 = 750; o1 -275000 -> -176000, / 2^6 = -2750. */
	opver_tensor *in, *f, *b, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	p.quantized_bias_type = OPVER_TYPE_INT32;
	int16_node_tensors(OPVER_TYPE_INT32, (int32_t[]){ 150000, -50000 },
			   &in, &f, &b, &out);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 8, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out, (int16_t[]){ 750, -2750 }, 2);
}

Test(conv_int16x8, bias_width_chooses_the_rescale)
{
	/* A bias of 6000000 on o0 (sum 0): the 64-bit rescale gives
	 * 6000000 * 20972 / 2^22 = 30000.69 -> 30001, the 32-bit one
	 * 6000000 * 0.005 = 30000. */
	opver_tensor *in, *f, *b64, *b32, *out64, *out32;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	int16_node_tensors(OPVER_TYPE_INT64, (int64_t[]){ 6000000, 0 }, &in,
			   &f, &b64, &out64);
	int16_node_tensors(OPVER_TYPE_INT32, (int32_t[]){ 6000000, 0 }, &in,
			   &f, &b32, &out32);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b64), out64)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b32), out32)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(((int16_t *)out64->data)[0], 30001);
	cr_expect_eq(((int16_t *)out32->data)[0], 30000);
}

Test(conv_int16x8, without_bias_quantized_bias_type_chooses)
{
	/* input q (32767, 14477), filter q (127, 127): sum 127 * 47244 =
	 * 5999988.  Unset, the int64 arithmetic: 5999988 * 20972 / 2^22 =
	 * 30000.63 -> 30001; INT32: 5999988 * 0.005 = 29999.94 -> 30000. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 1, 2),
				     (int16_t[]){ 32767, 14477 }, 0.001f, 0);
	opver_tensor *f = per_channel_filter(KH_DIMS(1, 1, 1, 2),
					     (int8_t[]){ 127, 127 },
					     (float[]){ 0.01f });
	opver_tensor *unset = quantized("output", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 1, 1), NULL, 0.002f, 0);
	opver_tensor *int32 = quantized("output", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 1, 1), NULL, 0.002f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f), unset)),
		     OPVER_OK, "%s", h.errors);
	p.quantized_bias_type = OPVER_TYPE_INT32;
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 8, &p,
					   KH_TENSORS(in, f), int32)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(((int16_t *)unset->data)[0], 30001);
	cr_expect_eq(((int16_t *)int32->data)[0], 30000);
}

Test(conv_int16x8, activation_and_saturation)
{
	/* All scales 1 (multiplier 1): sums 40000, -40000, -3 clamp to
	 * 32767, -32768 and, under RELU, 0. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 1, 1), (int16_t[]){ 1000 },
				     1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(3, 1, 1, 1),
				    (int8_t[]){ 40, -40, 0 }, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT64, KH_DIMS(3),
				    (int64_t[]){ 0, 0, -3 });
	opver_tensor *none = quantized("output", OPVER_TYPE_INT16,
				       KH_DIMS(1, 1, 1, 3), NULL, 1.0f, 0);
	opver_tensor *relu = quantized("output", OPVER_TYPE_INT16,
				       KH_DIMS(1, 1, 1, 3), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b), none)),
		     OPVER_OK, "%s", h.errors);
	p.activation = OPVER_ACTIVATION_RELU;
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b), relu)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(none, (int16_t[]){ 32767, -32768, -3 }, 3);
	expect_int16s(relu, (int16_t[]){ 32767, 0, 0 }, 3);
}

Test(conv_int16x8, two_groups_and_padding)
{
	/* channels (100, 200, 300, 400) in a 1 x 1 image, SAME with a 1 x 2
	 * filter (one column of padding after); 2 groups: o0 (1, 1 | 0, 0)
	 * on channels 0-1, o1 (1, -1 | 0, 0) on channels 2-3.  All scales
	 * 1: o0 300, o1 -100. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 1, 4),
				     (int16_t[]){ 100, 200, 300, 400 }, 1.0f,
				     0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 2, 2),
				    (int8_t[]){ 1, 1, 5, 5, 1, -1, 5, 5 },
				    1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out, (int16_t[]){ 300, -100 }, 2);
}
