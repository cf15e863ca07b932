/*
 * test_reference_fc_int8.c - the reference plugin's int8 and int16x8
 * FULLY_CONNECTED kernels, checked against values worked out by hand.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "fc_harness.h"

/* ----------------------------------------------------------------- int8 */

TestSuite(fc_int8, .init = setup, .fini = teardown);

Test(fc_int8, nonzero_zero_points_and_bias)
{
	/*
	 * input: scale 0.5, zero point -1: q (1, 3, -1) is (1, 2, 0)
	 * weights: scale 0.25, zero point 2:
	 *   unit 0 q (6, 2, -2) is (1, 0, -1)
	 *   unit 1 q (10, 6, 4) is (2, 1, 0.5)
	 * bias: scale 0.5 * 0.25 = 0.125: q (4, -8) is (0.5, -1)
	 * output: scale 1, zero point 3; multiplier 0.125 is 2^30, shift -2
	 *
	 * unit 0: acc = (6-2)(1+1) + (2-2)(3+1) + (-2-2)(-1+1) + 4 = 12;
	 *   12 * 0.125 = 1.5: high mul 6.5 -> 6, divide by 4: 1.5 -> 2;
	 *   2 + 3 = 5.  Real: 1 + 0 + 0 + 0.5 = 1.5 rounds to 2.  Yes.
	 * unit 1: acc = 8*2 + 4*4 + 2*0 - 8 = 24; 24 * 0.125 = 3; 3 + 3 = 6.
	 *   Real: 2 + 2 + 0 - 1 = 3.
	 */
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 3),
				       (int8_t[]){ 1, 3, -1 }, 0.5f, -1);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 3),
				      (int8_t[]){ 6, 2, -2, 10, 6, 4 }, 0.25f,
				      2);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 4, -8 });
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 3);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize(&h, b, 0.125f, 0);
	node = fc_node(FC_INT8, 4, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 5, 6 }, 2);
}

/*
 * A hostile bias: the sum plus the bias leaves int32.  TFLite adds them in
 * an int32 accumulator; the kernel adds modulo 2^32, which is what that
 * accumulator holds on every target, without signed overflow (UBSan runs
 * this).  Output scale 2: multiplier 0.5, no left shift.
 *   unit 0: 1 + 1 + INT32_MAX wraps to INT32_MIN + 1 -> -128
 *   unit 1: -1 - 1 + INT32_MIN wraps to INT32_MAX - 1 -> 127
 */
Test(fc_int8, sum_plus_bias_wraps_as_an_int32_accumulator)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 2),
				       (int8_t[]){ 1, 1 }, 1.0f, 0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 2),
				      (int8_t[]){ 1, 1, -1, -1 }, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ INT32_MAX, INT32_MIN });
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 2.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize(&h, b, 1.0f, 0);
	node = fc_node(FC_INT8, 4, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -128, 127 }, 2);
}

Test(fc_int8, saturates_at_the_type_edges)
{
	/*
	 * All scales 1, zero points 0: the output is the raw dot product
	 * (multiplier 1.0 is 2^30 with shift 1), clamped to [-128, 127].
	 * input (127, 1):
	 *   (1, 0) -> 127      (1, 1) -> 128 -> 127
	 *   (-1, -1) -> -128   (-1, -2) -> -129 -> -128
	 *   (100, 100) -> 12800 -> 127   (-100, -100) -> -12800 -> -128
	 */
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 2),
				       (int8_t[]){ 127, 1 }, 1.0f, 0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(6, 2),
				      (int8_t[]){ 1, 0, 1, 1, -1, -1, -1, -2,
						  100, 100, -100, -100 },
				      1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 6), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_INT8, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 127, 127, -128, -128, 127, -128 }, 6);
}

Test(fc_int8, rounds_twice_as_tflite)
{
	/*
	 * input and weights scale 0.5, output scale 1: multiplier 0.25 is
	 * 2^30 with shift -1.  Weights (1); inputs 5, -5, 3, -3:
	 *   5: high mul 2.5 -> 3, then 1.5 -> 2 (1.25 rounded once is 1)
	 *   -5: high mul -2.5 -> -2, then -1 -> -1
	 *   3: 1.5 -> 2, then 1 -> 1 (0.75)
	 *   -3: -1.5 -> -1, then -0.5 -> -1 (-0.75)
	 */
	opver_tensor *in = int8_tensor("input", KH_DIMS(4, 1),
				       (int8_t[]){ 5, -5, 3, -3 }, 0.5f, 0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(1, 1), (int8_t[]){ 1 },
				      0.5f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(4, 1), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_INT8, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 2, -1, 1, -1 }, 4);
}

struct int8_activation_case {
	opver_activation activation;
	int8_t expected[4];
};

ParameterizedTestParameters(fc_int8, activations)
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

ParameterizedTest(struct int8_activation_case *c, fc_int8, activations)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1), (int8_t[]){ 1 },
				       1.0f, 0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(4, 1),
				      (int8_t[]){ -1, 2, 5, 7 }, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 4), NULL, 0.125f,
					-20);
	opver_fully_connected_params p = fc_params(c->activation);
	opver_node *node = fc_node(FC_INT8, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, c->expected, 4);
}

Test(fc_int8, per_channel_weights)
{
	/*
	 * input: scale 0.5, zero point -1: q (3, -1, 5) is (2, 0, 3)
	 * weights per unit (axis 0), symmetric:
	 *   unit 0 scale 0.25: q (4, 8, -2) is (1, 2, -0.5)
	 *   unit 1 scale 1:    q (1, -3, 2) is (1, -3, 2)
	 * bias per unit at input x weights scale: q (9, -6) is (1.125, -3)
	 * output: scale 0.5, zero point 2
	 * Rescales 0.5 * 0.25 / 0.5 = 0.25 (2^30, shift -1) and 1 (2^30,
	 * shift 1).
	 *   unit 0: 4 * 4 + 8 * 0 - 2 * 6 = 4, + 9 = 13; 13 * 0.25 = 3.25,
	 *     TFLite rounds twice: high mul 6.5 -> 7, 7 / 2 = 3.5 -> 4;
	 *     4 + 2 = 6.  (Real: 2 - 1.5 + 1.125 = 1.625 is 3.25 steps.)
	 *   unit 1: 1 * 4 + 0 + 2 * 6 = 16, - 6 = 10; 10 + 2 = 12.
	 *     (Real: 2 + 6 - 3 = 5 is 10 steps.)
	 */
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 3),
				       (int8_t[]){ 3, -1, 5 }, 0.5f, -1);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_INT8,
				    KH_DIMS(2, 3),
				    (int8_t[]){ 4, 8, -2, 1, -3, 2 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 9, -6 });
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 0.5f, 2);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize_per_channel(&h, w, 0, 2, (float[]){ 0.25f, 1.0f },
				(int64_t[]){ 0, 0 });
	kh_quantize_per_channel(&h, b, 0, 2, (float[]){ 0.125f, 0.5f },
				(int64_t[]){ 0, 0 });
	node = fc_node(FC_INT8, 4, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 6, 12 }, 2);
}

Test(fc_int8, keep_num_dims)
{
	/* All scales 1.  Rows (1, 2) and (3, -1) of a [2, 1, 2] input,
	 * weights (1, 1) and (2, -1): (3, 0) and (2, 7), in [2, 1, 2]. */
	opver_tensor *in = int8_tensor("input", KH_DIMS(2, 1, 2),
				       (int8_t[]){ 1, 2, 3, -1 }, 1.0f, 0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 2),
				      (int8_t[]){ 1, 1, 2, -1 }, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(2, 1, 2), NULL, 1.0f,
					0);
	opver_fully_connected_params p = { .keep_num_dims = 1 };
	opver_node *node = fc_node(FC_INT8, 5, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 3, 0, 2, 7 }, 4);
}

/* ------------------------------------------------------------- int16x8 */
TestSuite(fc_int16x8, .init = setup, .fini = teardown);

/* Two rows of int16 input at scale 0.5, zero point 0; row 0's sums reach
 * past int16, and unit 1's past the output's range. */
static opver_tensor *int16x8_input(void)
{
	return kh_quantized(&h, "input", OPVER_TYPE_INT16, KH_DIMS(2, 3),
			    (int16_t[]){ 1000, -2000, 30000, -1, 2, -3 },
			    0.5f, 0);
}

static opver_tensor *int16x8_weights(void)
{
	return kh_tensor(&h, "weights", OPVER_TYPE_INT8, KH_DIMS(2, 3),
			 (int8_t[]){ 1, 2, 3, -127, 0, 127 });
}

/*
 * Weights per tensor at scale 0.5, bias (1, -1) at 0.25, output scale 1:
 * rescale 0.25, exact in the wide arithmetic's Q0.15 multiplier, halves
 * rounded toward +infinity.
 *   row 0: 1000 + -4000 + 90000 + 1 = 87001 -> 21750.25 -> 21750;
 *          -127000 + 3810000 - 1 = 3682999 -> 920749.75 -> 32767
 *   row 1: -1 + 4 - 9 + 1 = -5 -> -1.25 -> -1;
 *          127 - 381 - 1 = -255 -> -63.75 -> -64
 */
Test(fc_int16x8, per_tensor_weights_with_int64_bias)
{
	opver_tensor *w = int16x8_weights();
	opver_tensor *b = kh_quantized(&h, "bias", OPVER_TYPE_INT64,
				       KH_DIMS(2), (int64_t[]){ 1, -1 },
				       0.25f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize(&h, w, 0.5f, 0);
	node = fc_node(FC_INT16X8, 4, &p, KH_TENSORS(int16x8_input(), w, b),
		       out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 21750, 32767, -1, -64 }, 4);
}

/*
 * Weights per unit at scales 0.5 and 1, no bias: rescales 0.25 and 0.5.
 *   row 0: 87000 -> 21750; 3683000 -> 1841500 -> 32767
 *   row 1: -6 -> -1.5 -> -1 (the half toward +infinity); -254 -> -127
 */
Test(fc_int16x8, per_unit_weights_without_bias)
{
	opver_tensor *w = int16x8_weights();
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize_per_channel(&h, w, 0, 2, (float[]){ 0.5f, 1.0f },
				(int64_t[]){ 0, 0 });
	node = fc_node(FC_INT16X8, 6, &p, KH_TENSORS(int16x8_input(), w),
		       out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 21750, 32767, -1, -127 }, 4);
}

Test(fc_int16x8, rejects_an_output_zero_point)
{
	opver_tensor *w = int16x8_weights();
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(2, 2), NULL, 1.0f, 2);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	kh_quantize(&h, w, 0.5f, 0);
	expect_rejected(fc_node(FC_INT16X8, 6, &p,
				KH_TENSORS(int16x8_input(), w), out),
			OPVER_ERROR_INVALID_MODEL,
			"int16 activations must have zero point 0");
}

/*
 * An int32 bias (version 11): TFLite's int32 accumulator and 32-bit
 * rescale, which rounds twice.  Weights per tensor at 0.5, bias (1, -1)
 * at 0.25, rescale 0.25 (2^30, shift -1): a halving with ties up, then a
 * rounding shift by 1 with ties away from zero.
 *   row 0: 87001 -> 43500.5 -> 43501 -> 21750.5 -> 21751 (the int64
 *          bias gives 21750); 3682999 -> 32767
 *   row 1: -5 -> -2.5 -> -2 -> -1;  -255 -> -127.5 -> -127 -> -63.5 -> -64
 */
Test(fc_int16x8, per_tensor_weights_with_int32_bias)
{
	opver_tensor *w = int16x8_weights();
	opver_tensor *b = kh_quantized(&h, "bias", OPVER_TYPE_INT32,
				       KH_DIMS(2), (int32_t[]){ 1, -1 },
				       0.25f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize(&h, w, 0.5f, 0);
	node = fc_node(FC_INT16X8, 11, &p, KH_TENSORS(int16x8_input(), w, b),
		       out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 21751, 32767, -1, -64 }, 4);
}

/*
 * No bias, quantized_bias_type INT32: the 32-bit arithmetic too.  Per-unit
 * scales 0.5 and 1, rescales 0.25 and 0.5 (2^30, shifts -1 and 0).
 *   row 0: 87000 -> 21750;  3683000 -> 32767
 *   row 1: -6 -> -3 -> -1.5 -> -2 (the int64 arithmetic gives -1)
 *          -254 -> -127
 */
Test(fc_int16x8, int32_quantized_bias_type_without_bias)
{
	opver_tensor *w = int16x8_weights();
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	p.quantized_bias_type = OPVER_TYPE_INT32;
	kh_quantize_per_channel(&h, w, 0, 2, (float[]){ 0.5f, 1.0f },
				(int64_t[]){ 0, 0 });
	node = fc_node(FC_INT16X8, 11, &p, KH_TENSORS(int16x8_input(), w),
		       out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 21750, 32767, -2, -127 }, 4);
}

/*
 * The sum plus an int32 bias wraps modulo 2^32, as TFLite's int32
 * accumulator: weights per tensor at 0.5, bias (INT32_MAX, INT32_MIN).
 *   row 0 unit 0: 87000 + INT32_MAX wraps negative -> -32768
 *   row 1 unit 1: -254 + INT32_MIN wraps positive -> 32767
 */
Test(fc_int16x8, sum_plus_int32_bias_wraps)
{
	opver_tensor *w = int16x8_weights();
	opver_tensor *b = kh_quantized(&h, "bias", OPVER_TYPE_INT32,
				       KH_DIMS(2),
				       (int32_t[]){ INT32_MAX, INT32_MIN },
				       0.25f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize(&h, w, 0.5f, 0);
	node = fc_node(FC_INT16X8, 11, &p, KH_TENSORS(int16x8_input(), w, b),
		       out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	cr_expect_eq(((const int16_t *)out->data)[0], -32768);
	cr_expect_eq(((const int16_t *)out->data)[3], 32767);
}

Test(fc_int16x8, rejects_a_bias_not_matching_quantized_bias_type)
{
	opver_tensor *w = int16x8_weights();
	opver_tensor *b = kh_quantized(&h, "bias", OPVER_TYPE_INT32,
				       KH_DIMS(2), (int32_t[]){ 1, -1 },
				       0.25f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	p.quantized_bias_type = OPVER_TYPE_INT64;
	kh_quantize(&h, w, 0.5f, 0);
	expect_rejected(fc_node(FC_INT16X8, 11, &p,
				KH_TENSORS(int16x8_input(), w, b), out),
			OPVER_ERROR_INVALID_MODEL,
			"but quantized_bias_type is INT64");
}
