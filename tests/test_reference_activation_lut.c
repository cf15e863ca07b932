/*
 * test_reference_activation_lut.c - the reference plugin's lookup-table
 * activations (LOGISTIC, TANH, ELU, GELU) against values worked out by hand
 * (the arithmetic is spelled out next to each) or against an independent
 * double-precision computation with TFLite's rounding.
 */
#include <math.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "activation_harness.h"

/* ------------------------------------------------ lookup-table activations */

TestSuite(lut, .init = setup, .fini = teardown);

/*
 * int8 LOGISTIC, input scale 1/16: x = q / 16, output q = round(256 / (1 +
 * exp(-x))) - 128.  x = 0: 128 - 128 = 0; x = 1: round(187.15) - 128 = 59;
 * x = -1: round(68.85) - 128 = -59; x = 7.94: round(255.9) = 256 -> 128,
 * clamped to 127; x = -8: round(0.086) - 128 = -128.
 */
Test(lut, int8_logistic_by_hand)
{
	static const int8_t in[] = { 0, 16, -16, 127, -128 };
	static const int8_t want[] = { 0, 59, -59, 127, -128 };

	kh_expect_int8s(run_quantized("logistic_lut8", NULL, 0,
				      OPVER_TYPE_INT8, in, 5, 1.0f / 16, 0,
				      1.0f / 256, -128),
			want, COUNT(want));
}

/*
 * uint8 TANH, input scale 0.05 zero point 128, output scale 1/128 zero
 * point 128: x = 1 gives round(128 tanh 1 = 97.48) + 128 = 225, x = -1 31;
 * x = 6.35 gives 128 + 128 = 256 -> 255; x = -6.4 gives 0.
 */
Test(lut, uint8_tanh_by_hand)
{
	static const uint8_t in[] = { 128, 148, 108, 255, 0 };
	static const uint8_t want[] = { 128, 225, 31, 255, 0 };

	expect_uint8s(run_quantized("tanh_lut8", NULL, 0, OPVER_TYPE_UINT8, in,
				    5, 0.05f, 128, 1.0f / 128, 128),
		      want, COUNT(want));
}

/*
 * int8 ELU, input scale 0.1, output scale 0.05 zero point -50: x = -12.8
 * gives about -1 = -20 steps -> -70; x = -1 gives (e^-1 - 1) / 0.05 =
 * -12.64 -> -13 -> -63; x = 1 gives 20 -> -30; x = 12.7 gives 254 - 50,
 * clamped to 127.
 */
Test(lut, int8_elu_by_hand)
{
	static const int8_t in[] = { -128, -10, 0, 10, 127 };
	static const int8_t want[] = { -70, -63, -50, -30, 127 };

	kh_expect_int8s(run_quantized("elu_lut8", NULL, 0, OPVER_TYPE_INT8, in,
				      5, 0.1f, 0, 0.05f, -50),
			want, COUNT(want));
}

/*
 * uint8 GELU, input scale 0.05 zero point 100, output scale 0.03 zero
 * point 20.  Exact: gelu(1) = 0.84134 = 28.04 steps -> 48; gelu(-1) =
 * -0.15866 = -5.29 -> 15; gelu(-5) = -1.4e-6 -> 20; gelu(7.75) = 258.3
 * steps -> 255.  The tanh form gives 28.04 and -5.29 steps too here, and
 * -7.6e-6 at -5: the same outputs.
 */
Test(lut, uint8_gelu_by_hand_both_forms)
{
	static const uint8_t in[] = { 100, 120, 80, 0, 255 };
	static const uint8_t want[] = { 20, 48, 15, 20, 255 };

	for (int32_t approximate = 0; approximate <= 1; approximate++) {
		const opver_gelu_params params = { .approximate = approximate };

		expect_uint8s(run_quantized("gelu_lut8", &params,
					    sizeof(params), OPVER_TYPE_UINT8,
					    in, 5, 0.05f, 100, 0.03f, 20),
			      want, COUNT(want));
	}
}

/* Every int8 input of LOGISTIC against the double-precision function
 * with the same rounding: the float table may differ only where the
 * scaled value lies within float error of a half step, which none of
 * these inputs do (checked: the exact value is never within 1e-3 of a
 * half). */
Test(lut, int8_logistic_every_input_matches_double)
{
	int8_t in[256], want[256];
	const float scale = 0.0625f;

	for (int i = 0; i < 256; i++) {
		const double x = scale * (i - 128);
		const double steps = 256.0 / (1.0 + exp(-x));
		const double frac = steps - floor(steps);

		in[i] = (int8_t)(i - 128);
		cr_assert(fabs(frac - 0.5) > 1e-3, "input %d is a tie", i);
		want[i] = (int8_t)fmin(round(steps) - 128, 127);
	}
	kh_expect_int8s(run_quantized("logistic_lut8", NULL, 0,
				      OPVER_TYPE_INT8, in, 256, scale, 0,
				      1.0f / 256, -128),
			want, 256);
}

Test(lut, float32_against_libm_in_double)
{
	static const float in[] = { -6.0f, -1.0f, -0.25f, 0.0f, 0.5f, 3.0f };
	const int32_t dims[] = { COUNT(in) };
	static const char *const kernels[] = {
		"logistic_float32", "tanh_float32", "elu_float32",
		"gelu_float32",
	};

	for (size_t k = 0; k < COUNT(kernels); k++) {
		opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1,
						dims, in);
		opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
						 1, dims, NULL);
		const opver_gelu_params exact = { 0 };
		const float *got = output->data;

		cr_assert_eq(kh_run(&h, unary_node(kernels[k], &exact,
						   k == 3 ? sizeof(exact) : 0,
						   input, output)),
			     OPVER_OK, "%s: %s", kernels[k], h.errors);
		for (size_t i = 0; i < COUNT(in); i++) {
			const double x = in[i];
			const double want =
				k == 0	 ? 1.0 / (1.0 + exp(-x))
				: k == 1 ? tanh(x)
				: k == 2 ? (x < 0 ? expm1(x) : x)
					 : 0.5 * x * (1.0 + erf(x / sqrt(2.0)));

			cr_expect(fabs(got[i] - want) <= 1e-6,
				  "%s(%g): got %.9g, want %.9g", kernels[k], x,
				  (double)got[i], want);
		}
	}
}

Test(lut, float32_gelu_approximate_is_the_tanh_form)
{
	static const float in[] = { -1.0f, 1.0f };
	static const float tanh_form[] = { -0.158808009f, 0.841191991f };
	const opver_gelu_params params = { .approximate = 1 };
	const int32_t dims[] = { 2 };
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 1, dims,
					in);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 1,
					 dims, NULL);
	const float *got = output->data;

	cr_assert_eq(kh_run(&h, unary_node("gelu_float32", &params,
					   sizeof(params), input, output)),
		     OPVER_OK, "%s", h.errors);
	for (int i = 0; i < 2; i++)
		cr_expect(fabsf(got[i] - tanh_form[i]) <= 1e-6f,
			  "got %.9g, want %.9g", (double)got[i],
			  (double)tanh_form[i]);
}

Test(lut, logistic_needs_an_output_scale_of_1_256)
{
	const int32_t dims[] = { 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					   NULL, 0.1f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1,
					    dims, NULL, 1.0f / 128, -128);

	kh_expect_rejected(&h, unary_node("logistic_lut8", NULL, 0, input,
					  output),
			   OPVER_ERROR_INVALID_MODEL, "exactly 1/256");
}

/* TFLite's ELU takes no uint8. */
Test(lut, elu_takes_no_uint8)
{
	const int32_t dims[] = { 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_UINT8, 1, dims,
					   NULL, 0.1f, 128);

	kh_expect_rejected(&h, unary_node("elu_lut8", NULL, 0, input, input),
			   OPVER_ERROR_UNSUPPORTED, "type UINT8");
}
