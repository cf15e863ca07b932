/*
 * test_reference_depthwise_conv_int8.c - the reference plugin's int8, uint8
 * and int16x8 DEPTHWISE_CONV_2D kernels: TFLite's per-channel rounding,
 * saturation and zero points on values worked out by hand.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "dw_harness.h"

/* ----------------------------------------------------------------- int8 */

TestSuite(dw_int8, .init = setup, .fini = teardown);

/*
 * Two channels, 2x2 input, 2x2 filter, VALID: one output pixel.
 * Input scale 0.5, zero point 1; output scale 1, zero point -3.
 * Filter per channel along dimension 3: scales 0.25 and 1.5, so the
 * rescales are 0.5 * 0.25 = 0.125 (2^30, shift -2) and 0.5 * 1.5 = 0.75
 * (1610612736, shift 0).
 *   channel 0: (q - 1) = (2, 4, -2, 0), filter (1, 2, 3, -4):
 *     2 + 8 - 6 + 0 = 4, + bias 7 = 11.  TFLite rounds twice:
 *     11 * 2^30 * 2 / 2^32 = 5.5 -> 6 (ties up), 6 / 4 = 1.5 -> 2 (ties
 *     away); once it would be 1.375 -> 1.  2 - 3 = -1.
 *   channel 1: (q - 1) = (1, -1, 3, 6), filter (3, -2, 1, 2):
 *     3 + 2 + 3 + 12 = 20, + bias -30 = -10.  -10 * 0.75 = -7.5 -> -7
 *     (ties toward +infinity), shift 0.  -7 - 3 = -10.
 */
static opver_node *per_channel_node(opver_activation activation,
				    opver_tensor **output)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 2, 2, 2),
				       (int8_t[]){ 3, 2, 5, 0, -1, 4, 1, 7 },
				       0.5f, 1);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 2, 2, 2),
				    (int8_t[]){ 1, 3, 2, -2, 3, 1, -4, 2 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 7, -30 });
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	*output = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL, 1.0f, -3);
	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 0.25f, 1.5f },
				(int64_t[]){ 0, 0 });
	kh_quantize_per_channel(&h, b, 0, 2, (float[]){ 0.125f, 0.75f },
				(int64_t[]){ 0, 0 });
	p.activation = activation;
	return dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), *output);
}

Test(dw_int8, per_channel_scales_round_as_tflite)
{
	opver_tensor *out;
	opver_node *node = per_channel_node(OPVER_ACTIVATION_NONE, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -1, -10 }, 2);
}

Test(dw_int8, per_channel_with_relu)
{
	/* RELU clamps at the output zero point, -3. */
	opver_tensor *out;
	opver_node *node = per_channel_node(OPVER_ACTIVATION_RELU, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -1, -3 }, 2);
}

struct int8_activation_case {
	opver_activation activation;
	int8_t expected[4];
};

ParameterizedTestParameters(dw_int8, activations)
{
	/*
	 * Real outputs -1, 2, 5, 7 (inputs times a filter of ones) at output
	 * scale 0.125, zero point -20 are q -28, -4, 20, 36.  RELU clamps to
	 * [-20, 127]; RELU6 to [-20, 28]; RELU_N1_TO_1 to [-28, -12].
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

ParameterizedTest(struct int8_activation_case *c, dw_int8, activations)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 4),
				       (int8_t[]){ -1, 2, 5, 7 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 4),
				      (int8_t[]){ 1, 1, 1, 1 }, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 4), NULL,
					0.125f, -20);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.activation = c->activation;
	node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, c->expected, 4);
}

Test(dw_int8, saturates_at_the_type_edges)
{
	/* All scales 1: 127 * 2 = 254 -> 127; -128 * 2 = -256 -> -128. */
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2),
				       (int8_t[]){ 127, -128 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 2),
				      (int8_t[]){ 2, 2 }, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 127, -128 }, 2);
}

/*
 * A hostile bias: the sum plus the bias leaves int32.  TFLite adds them in
 * an int32 accumulator; the kernel adds modulo 2^32, which is what that
 * accumulator holds on every target, without signed overflow (UBSan runs
 * this).  Output scale 2: multiplier 0.5, no left shift.
 *   channel 0: 1 * 1 + INT32_MAX wraps to INT32_MIN -> -2^30 -> -128
 *   channel 1: -1 * 1 + INT32_MIN wraps to INT32_MAX -> 2^30 -> 127
 * (without wrapping, 64-bit sums would give 127 and -128).
 */
Test(dw_int8, sum_plus_bias_wraps_as_an_int32_accumulator)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2),
				       (int8_t[]){ 1, -1 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 2),
				      (int8_t[]){ 1, 1 }, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ INT32_MAX, INT32_MIN });
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					2.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -128, 127 }, 2);
}

Test(dw_int8, padding_contributes_nothing_despite_the_zero_point)
{
	/*
	 * SAME 3x3 filter of ones on a 1x1 input q 10, zero point 10 (real
	 * 0): only the centre is inside, so the sum is (10 - 10) * 1 = 0.
	 * Padding taken as q 0 would give 8 * (0 - 10) = -80 instead.
	 * Output zero point 4.
	 */
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 1),
				       (int8_t[]){ 10 }, 1.0f, 10);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 3, 3, 1),
				      (int8_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 },
				      1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 1), NULL,
					1.0f, 4);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 4 }, 1);
}

/* person_detect quantizes its 1-D biases "per channel" along dimension 3;
 * TFLite ignores a bias's quantization and so must we. */
Test(dw_int8, ignores_the_bias_quantization)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2),
				       (int8_t[]){ 1, 2 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 2),
				      (int8_t[]){ 3, 4 }, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 10, -20 });
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	kh_quantize_per_channel(&h, b, 3, 2, (float[]){ 7.0f, 9.0f },
				(int64_t[]){ 0, 0 });
	node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* 1 * 3 + 10, 2 * 4 - 20 */
	expect_int8s(out, (int8_t[]){ 13, -12 }, 2);
}

/* ---------------------------------------------------------------- uint8 */

TestSuite(dw_uint8, .init = setup, .fini = teardown);

static opver_tensor *uint8_tensor(const char *name, int32_t rank,
				  const int32_t *dims, const uint8_t *data,
				  float scale, int64_t zero_point)
{
	opver_tensor *t =
		kh_tensor(&h, name, OPVER_TYPE_UINT8, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

Test(dw_uint8, padding_contributes_nothing_and_the_filter_zero_point_counts)
{
	/*
	 * SAME 3x3 filter on a 1x1 input q 140, zero point 130 (10): only
	 * the centre tap, q 133 at zero point 128 (5), lands inside: 50.
	 * Scales input 0.5, filter 2, bias 1, output 1: the rescale is 1.
	 * 50 + bias 7 + output zero point 60 = 117.  Padding read as q 0 would
	 * add 8 x (0 - 130) x 2 more; ignoring the filter zero point would
	 * give 10 x 133.
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1, 1, 1),
					(uint8_t[]){ 140 }, 0.5f, 130);
	opver_tensor *f = uint8_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (uint8_t[]){ 1, 2, 3, 4, 133, 6, 7, 8,
						    9 },
				       2.0f, 128);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(1),
				    (int32_t[]){ 7 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 1, 1, 1), NULL,
					 1.0f, 60);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node;

	kh_quantize(&h, b, 1.0f, 0);
	node = dw_node(DW_UINT8, 1, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	cr_expect_eq(((const uint8_t *)out->data)[0], 117);
}

Test(dw_uint8, multiplier_2_with_relu6_and_rounding)
{
	/*
	 * Two input channels q (12, 8) at zero point 10: (2, -2); filter
	 * scale 0.25 and zero point 100, q (104, 96, 101, 110): output
	 * channels 0, 1 read channel 0 with (4, -4), 2, 3 read channel 1
	 * with (1, 10).  Sums 8, -8, -2, -20; input scale 0.5 x 0.25 over
	 * output scale 0.25 is 0.5: 4, -4, -1, -10 (exact), + zero point
	 * 20 = 24, 16, 19, 10; RELU6 clamps to [20, 20 + 24 = 44].
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1, 1, 2),
					(uint8_t[]){ 12, 8 }, 0.5f, 10);
	opver_tensor *f = uint8_tensor("filter", KH_DIMS(1, 1, 1, 4),
				       (uint8_t[]){ 104, 96, 101, 110 }, 0.25f,
				       100);
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 1, 1, 4), NULL,
					 0.25f, 20);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	static const uint8_t want[] = { 24, 20, 20, 20 };
	opver_node *node;

	p.activation = OPVER_ACTIVATION_RELU6;
	node = dw_node(DW_UINT8, 1, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(((const uint8_t *)out->data)[i], want[i],
			     "element %d", i);
}

Test(dw_uint8, rejects_a_per_channel_filter)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1, 1, 2),
					(uint8_t[]){ 1, 2 }, 1.0f, 0);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_UINT8,
				    KH_DIMS(1, 1, 1, 2), (uint8_t[]){ 3, 4 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					 1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 1.0f, 2.0f },
				(int64_t[]){ 0, 0 });
	expect_rejected(dw_node(DW_UINT8, 1, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_UNSUPPORTED, "filter");
}

/* ------------------------------------------------------------- int16x8 */
TestSuite(dw_int16x8, .init = setup, .fini = teardown);

/*
 * Two channels, a 1x2 input and a 1x2 filter, VALID: one output pixel.
 * Input scale 0.5, filter scales 1 and 0.5 per channel, output scale 1:
 * rescales 0.5 and 0.25, exact in the wide arithmetic's Q0.15 multiplier,
 * which rounds halves toward +infinity.
 *   channel 0: 1000 * 3 + -20 * 100 = 1000, + bias 5 = 1005;
 *     x 0.5 = 502.5 -> 503
 *   channel 1: -300 * -5 + 7 * 127 = 2389, + bias -3000 = -611;
 *     x 0.25 = -152.75 -> -153
 * A bias of 2^31 (beyond int32, where it would wrap negative) gives
 * channel 0 2^30 + 503 and saturates it at 32767.
 */
static opver_node *int16x8_node(int64_t bias0, int64_t input_zero,
				opver_tensor **output)
{
	opver_tensor *in = kh_quantized(&h, "input", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 2, 2),
					(int16_t[]){ 1000, -300, -20, 7 },
					0.5f, input_zero);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 1, 2, 2),
				    (int8_t[]){ 3, -5, 100, 127 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT64, KH_DIMS(2),
				    (int64_t[]){ bias0, -3000 });
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	*output = kh_quantized(&h, "output", OPVER_TYPE_INT16,
			       KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 1.0f, 0.5f },
				(int64_t[]){ 0, 0 });
	return dw_node(DW_INT16X8, 3, &p, KH_TENSORS(in, f, b), *output);
}

Test(dw_int16x8, per_channel_sums_in_int64_and_rescales_wide)
{
	opver_tensor *out;
	opver_node *node = int16x8_node(5, 0, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 503, -153 }, 2);
}

Test(dw_int16x8, int64_bias_saturates)
{
	opver_tensor *out;
	opver_node *node = int16x8_node(INT64_C(1) << 31, 0, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 32767, -153 }, 2);
}

Test(dw_int16x8, rejects_an_input_zero_point)
{
	opver_tensor *out;

	expect_rejected(int16x8_node(5, 3, &out), OPVER_ERROR_INVALID_MODEL,
			"int16 activations must have zero point 0");
}
