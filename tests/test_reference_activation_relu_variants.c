/*
 * test_reference_activation_relu_variants.c - the reference plugin's
 * LEAKY_RELU, HARD_SWISH and PRELU kernels against values worked out by hand
 * and, for HARD_SWISH, within a step of the function.
 */
#include <math.h>

#include <criterion/criterion.h>

#include "activation_harness.h"

/* ------------------------------------------------------------ LEAKY_RELU */

TestSuite(leaky_relu, .init = setup, .fini = teardown);

/*
 * int8, scale 0.1 in and out: steps at or above the zero point pass
 * (identity multiplier 1), those below are alpha x (q - 0), rounded half
 * away from zero: alpha 0.25: -9 -> -2.25 -> -2, -50 -> -12.5 -> -13,
 * -128 -> -32; alpha 3: -9 -> -27, -50 -> -150, clamped to -128; alpha
 * -0.5: -9 -> 4.5 -> 5, -6 -> 3.
 */
Test(leaky_relu, int8_by_hand)
{
	static const int8_t in[] = { -128, -50, -9, -6, 0, 7, 127 };
	static const struct {
		float alpha;
		int8_t want[7];
	} cases[] = {
		{ 0.25f, { -32, -13, -2, -2, 0, 7, 127 } },
		{ 3.0f, { -128, -128, -27, -18, 0, 7, 127 } },
		{ -0.5f, { 64, 25, 5, 3, 0, 7, 127 } },
	};

	for (size_t i = 0; i < COUNT(cases); i++) {
		const opver_leaky_relu_params params = { cases[i].alpha };

		kh_expect_int8s(run_quantized("leaky_relu_quantized", &params,
					      sizeof(params), OPVER_TYPE_INT8,
					      in, 7, 0.1f, 0, 0.1f, 0),
				cases[i].want, 7);
	}
}

/* int16, scale 2e-4 in, 1e-4 out: positives double (saturating), alpha
 * 0.1 gives 0.2 per step below 0: -1000 -> -200. */
Test(leaky_relu, int16_by_hand)
{
	static const int16_t in[] = { -32768, -1000, 0, 1000, 20000 };
	static const int16_t want[] = { -6554, -200, 0, 2000, 32767 };
	const opver_leaky_relu_params params = { 0.1f };
	const int32_t dims[] = { 5 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   in, 2e-4f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, 1e-4f, 0);

	cr_assert_eq(kh_run(&h, unary_node("leaky_relu_quantized", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, want, COUNT(want));
}

/*
 * TFLite computes the multipliers from its float scales and alpha in
 * float: a layer of TFLite Micro's SEANet (input scale 9.6937158e-4,
 * output 8.0922339e-4, alpha 0.3) gets 0.35936... as 1543487104 x 2^-32
 * in float but 1543487050 x 2^-32 in double.  For input -12005 the
 * doubling high multiply gives -12005 x m / 2^31 = -8628.500012 (float's
 * m), rounding to -8629 and halving, rounded, to -4315: TFLite's output;
 * double's m gives -8628.499711, so -8628 and -4314.
 */
Test(leaky_relu, int16_multipliers_computed_in_float)
{
	static const int16_t in[] = { -12005 };
	const opver_leaky_relu_params params = { 0.3f };
	const int32_t dims[] = { 1 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   in, 9.693715837784111e-4f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, 8.092233911156654e-4f,
					    0);

	cr_assert_eq(kh_run(&h, unary_node("leaky_relu_quantized", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, (const int16_t[]){ -4315 }, 1);
}

Test(leaky_relu, float32_by_hand)
{
	static const float in[] = { -2.0f, -0.5f, 0.0f, 3.0f };
	static const float want[] = { -0.4f, -0.1f, 0.0f, 3.0f };
	const opver_leaky_relu_params params = { 0.2f };
	const int32_t dims[] = { 4 };
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1, dims,
					in);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 1,
					 dims, NULL);

	cr_assert_eq(kh_run(&h, unary_node("leaky_relu_float32", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(output, want, 4);
}

/* ------------------------------------------------------------ HARD_SWISH */

TestSuite(hard_swish, .init = setup, .fini = teardown);

static double hard_swish_double(double x)
{
	return x * fmin(6.0, fmax(0.0, x + 3.0)) / 6.0;
}

/*
 * int8, scale 0.05 in and out: x = 5 (q 100) is above 3, so the output is
 * x itself, 100 (worked through the fixed point: hires 12800, preshift
 * 6400, reluish saturated to 32767, 6399 >> 6 rounded = 100); x = -5 is
 * below -3, output 0.  Every other input within one step of the real
 * function: the int16 fixed point loses a little.
 */
Test(hard_swish, int8_by_hand_and_within_a_step_of_the_function)
{
	int8_t in[256];
	const int8_t *got;
	opver_tensor *output;

	for (int i = 0; i < 256; i++)
		in[i] = (int8_t)(i - 128);
	output = run_quantized("hard_swish_quantized", NULL, 0,
			       OPVER_TYPE_INT8, in, 256, 0.05f, 0, 0.05f, 0);
	got = output->data;
	cr_expect_eq(got[128 + 100], 100);
	cr_expect_eq(got[128 - 100], 0);
	cr_expect_eq(got[128], 0);
	for (int i = 0; i < 256; i++) {
		const double want = fmin(
			127.0, round(hard_swish_double(0.05 * in[i]) / 0.05));

		cr_expect(fabs(got[i] - want) <= 1.0, "q %d: got %d, want %g",
			  in[i], got[i], want);
	}
}

/* A wide uint8 input (scale 0.5: the reluish rescale shifts left) stays
 * within a step of the function too. */
Test(hard_swish, uint8_wide_input_within_a_step)
{
	uint8_t in[256];
	const uint8_t *got;
	opver_tensor *output;

	for (int i = 0; i < 256; i++)
		in[i] = (uint8_t)i;
	output = run_quantized("hard_swish_quantized", NULL, 0,
			       OPVER_TYPE_UINT8, in, 256, 0.5f, 128, 0.25f, 20);
	got = output->data;
	for (int i = 0; i < 256; i++) {
		const double want = fmin(
			255.0,
			fmax(0.0, round(hard_swish_double(0.5 * (i - 128)) /
					0.25) +
					  20));

		cr_expect(fabs(got[i] - want) <= 1.0, "q %d: got %d, want %g",
			  i, got[i], want);
	}
}

/*
 * An output scale 2^21 / 128 times the input's (rescale 2^-21: a right
 * shift of 21): TFLite's int16 rounding divide truncates its mask,
 * (1 << 21) - 1, to int16, all ones, and returns 1 for every x >= 0 and
 * -1 for every x < 0, rather than 0.  So x = 0, x = 100 and x = -100
 * (below -3: reluish 0, a product of 0) give the zero point + 1 (-127);
 * x = -1 (a product below 0) -1 - 128, clamped to -128.  TFLite's tool
 * gives -127 on such a case too (HARD_SWISH hard case 20-0's golden).
 */
Test(hard_swish, an_output_shift_of_16_or_more_rounds_as_tflite_int16)
{
	const int8_t in[] = { 0, 100, -1, -100 };
	const int8_t *got;
	opver_tensor *output;

	output = run_quantized("hard_swish_quantized", NULL, 0,
			       OPVER_TYPE_INT8, in, 4, 1.0f, 0, 16384.0f,
			       -128);
	got = output->data;
	cr_expect_eq(got[0], -127);
	cr_expect_eq(got[1], -127);
	cr_expect_eq(got[2], -128);
	cr_expect_eq(got[3], -127);
	/* Where x is positive and the output zero point leaves room. */
	output = run_quantized("hard_swish_quantized", NULL, 0,
			       OPVER_TYPE_INT8, in, 4, 1.0f, 0, 16384.0f, 0);
	got = output->data;
	cr_expect_eq(got[0], 1);
	cr_expect_eq(got[1], 1);
	cr_expect_eq(got[2], -1);
	cr_expect_eq(got[3], 1);
}

Test(hard_swish, rejects_an_output_scale_below_input_scale_over_128)
{
	const int32_t dims[] = { 2 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					   NULL, 1.0f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1,
					    dims, NULL, 1.0f / 512, 0);

	kh_expect_rejected(&h, unary_node("hard_swish_quantized", NULL, 0,
					  input, output),
			   OPVER_ERROR_INVALID_MODEL, "128 x the output scale");
}

/* ----------------------------------------------------------------- PRELU */

TestSuite(prelu, .init = setup, .fini = teardown);

static const int32_t dims2x2[] = { 2, 2 };
static const int32_t dims2[] = { 2 };

/* Alpha [2] broadcast along the rows of a [2, 2] input. */
Test(prelu, float32_broadcasts_alpha_per_channel)
{
	static const float in[] = { -2.0f, 3.0f, -4.0f, -1.0f };
	static const float alpha[] = { 0.5f, -1.0f };
	static const float want[] = { -1.0f, 3.0f, -2.0f, 1.0f };
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 2,
					dims2x2, in);
	opver_tensor *a = kh_tensor(&h, "alpha", OPVER_TYPE_FLOAT32, 1, dims2,
				    alpha);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 2,
					 dims2x2, NULL);

	a->is_constant = true;
	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "prelu_float32"), 1,
					NULL, 0, KH_TENSORS(input, a),
					KH_TENSORS(output))),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(output, want, 4);
}

/*
 * int8, input and output scale 0.1, alpha {50, -100} at scale 0.01 (0.5
 * and -1): the negative branch multiplies x by alpha's step and rescales
 * by 0.1 x 0.01 / 0.1 = 0.01.  -10 x 50 x 0.01 = -5; 4 passes; -6 x 50 x
 * 0.01 = -3; -128 x -100 x 0.01 = 128, clamped to 127.
 */
Test(prelu, int8_by_hand)
{
	static const int8_t in[] = { -10, 4, -6, -128 };
	static const int8_t alpha[] = { 50, -100 };
	static const int8_t want[] = { -5, 4, -3, 127 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 2,
					   dims2x2, in, 0.1f, 0);
	opver_tensor *a = kh_quantized(&h, "alpha", OPVER_TYPE_INT8, 1, dims2,
				       alpha, 0.01f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 2,
					    dims2x2, NULL, 0.1f, 0);

	a->is_constant = true;
	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "prelu_quantized"),
					1, NULL, 0, KH_TENSORS(input, a),
					KH_TENSORS(output))),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(output, want, 4);
}

/* The output must have the input's shape: alpha does not broadcast the
 * input. */
Test(prelu, rejects_an_input_broadcast_along_alpha)
{
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1, dims2,
					NULL);
	opver_tensor *a = kh_tensor(&h, "alpha", OPVER_TYPE_FLOAT32, 2,
				    dims2x2, NULL);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 2,
					 dims2x2, NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "prelu_float32"), 1,
				       NULL, 0, KH_TENSORS(input, a),
				       KH_TENSORS(output)),
			   OPVER_ERROR_INVALID_MODEL, "shape of input 'in'");
}
