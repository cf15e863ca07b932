/*
 * test_reference_unary.c - the reference plugin's one-input math ops
 * (ABS, NEG, SQRT, RSQRT, SQUARE, EXP, LOG, SIN, COS, FLOOR, CEIL, ROUND,
 * SIGN) against values worked out by hand (the arithmetic next to each)
 * or against an independent double-precision computation, and the nodes
 * they refuse.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "activation_harness.h"

TestSuite(unary, .init = setup, .fini = teardown);

/* Runs kernel `name` on a 1-D tensor of `type` without quantization and
 * returns the output (borrowed from h). */
static opver_tensor *run_plain(const char *name, opver_type type,
			       const void *in, int32_t count)
{
	const int32_t dims[] = { count };
	opver_tensor *input = kh_tensor(&h, "in", type, 1, dims, in);
	opver_tensor *output = kh_tensor(&h, "out", type, 1, dims, NULL);

	cr_assert_eq(kh_run(&h, unary_node(name, NULL, 0, input, output)),
		     OPVER_OK, "%s: %s", name, h.errors);
	return output;
}

static opver_tensor *run_float32(const char *name, const float *in,
				 int32_t count)
{
	return run_plain(name, OPVER_TYPE_FLOAT32, in, count);
}

/* ----------------------------------------------------------- float32 */

Test(unary, float32_exact_results)
{
	static const float in[] = { -2.5f, 0.0f, 3.0f, -0.0f, 0.25f };
	static const float abs_want[] = { 2.5f, 0.0f, 3.0f, 0.0f, 0.25f };
	static const float neg_want[] = { 2.5f, -0.0f, -3.0f, 0.0f, -0.25f };
	static const float square_want[] = { 6.25f, 0.0f, 9.0f, 0.0f,
					     0.0625f };
	static const float sign_want[] = { -1.0f, 0.0f, 1.0f, 0.0f, 1.0f };
	static const float floor_want[] = { -3.0f, 0.0f, 3.0f, -0.0f, 0.0f };
	static const float ceil_want[] = { -2.0f, 0.0f, 3.0f, -0.0f, 1.0f };

	kh_expect_floats(run_float32("abs_float32", in, 5), abs_want, 5);
	kh_expect_floats(run_float32("neg_float32", in, 5), neg_want, 5);
	kh_expect_floats(run_float32("square_float32", in, 5), square_want,
			 5);
	kh_expect_floats(run_float32("sign_float32", in, 5), sign_want, 5);
	kh_expect_floats(run_float32("floor_float32", in, 5), floor_want, 5);
	kh_expect_floats(run_float32("ceil_float32", in, 5), ceil_want, 5);
}

/* Ties go to the even neighbour, as TFLite's RoundToNearest; others to
 * the nearest. */
Test(unary, round_is_half_to_even)
{
	static const float in[] = { 0.5f,  1.5f,  2.5f,	 -0.5f, -1.5f,
				    -2.5f, 2.4f,  -2.6f, 8388607.5f };
	static const float want[] = { 0.0f,  2.0f, 2.0f,  -0.0f, -2.0f,
				      -2.0f, 2.0f, -3.0f, 8388608.0f };

	kh_expect_floats(run_float32("round_float32", in, COUNT(in)), want,
			 COUNT(want));
}

/* SQRT 4 = 2, 2.25 -> 1.5; RSQRT 4 -> 0.5, 0.25 -> 2; both exact. */
Test(unary, sqrt_and_rsqrt_exact_values)
{
	static const float in[] = { 4.0f, 2.25f, 0.25f, 0.0f };
	static const float sqrt_want[] = { 2.0f, 1.5f, 0.5f, 0.0f };
	static const float rsqrt_want[] = { 0.5f, 1.0f / 1.5f, 2.0f,
					    INFINITY };

	kh_expect_floats(run_float32("sqrt_float32", in, 4), sqrt_want, 4);
	kh_expect_floats(run_float32("rsqrt_float32", in, 4), rsqrt_want, 4);
}

/* Outside the domain, libm's answers, as TFLite checks nothing on
 * float32: SQRT(-1) and LOG(-1) NaN, LOG(0) -inf; SIGN(NaN) 0. */
Test(unary, float32_outside_the_domain)
{
	static const float in[] = { -1.0f, 0.0f };
	static const float nan_in[] = { NAN };
	const float *sqrt_out = run_float32("sqrt_float32", in, 2)->data;
	const float *log_out = run_float32("log_float32", in, 2)->data;
	const float *sign_out = run_float32("sign_float32", nan_in, 1)->data;

	cr_expect(isnan(sqrt_out[0]));
	cr_expect(isnan(log_out[0]));
	cr_expect(isinf(log_out[1]) && log_out[1] < 0);
	cr_expect_eq(sign_out[0], 0.0f);
}

/* EXP, LOG, SIN and COS within a float's rounding of the double
 * functions. */
Test(unary, float32_transcendentals_against_double)
{
	static const float in[] = { 0.125f, 0.5f, 1.0f, 2.0f, 3.0f, 7.5f };
	static const char *const kernels[] = { "exp_float32", "log_float32",
					       "sin_float32", "cos_float32" };
	double (*const exact[])(double) = { exp, log, sin, cos };

	for (size_t k = 0; k < COUNT(kernels); k++) {
		const float *out =
			run_float32(kernels[k], in, COUNT(in))->data;

		for (size_t i = 0; i < COUNT(in); i++) {
			const double want = exact[k](in[i]);

			cr_expect(fabs(out[i] - want) <=
					  2e-7 * fmax(1.0, fabs(want)),
				  "%s(%g): got %.9g, want %.9g", kernels[k],
				  (double)in[i], (double)out[i], want);
		}
	}
}

Test(unary, float32_empty_tensor)
{
	const int32_t dims[] = { 2, 0 };
	opver_tensor *input =
		kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 2, dims, NULL);
	opver_tensor *output =
		kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 2, dims, NULL);

	cr_assert_eq(kh_run(&h, unary_node("exp_float32", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
}

/* ----------------------------------------------------------- integers */

/* The minimum's negation wraps to itself. */
Test(unary, int32_abs_neg_and_sign)
{
	static const int32_t in[] = { -5, 7, 0, INT32_MIN, INT32_MAX };
	static const int32_t abs_want[] = { 5, 7, 0, INT32_MIN, INT32_MAX };
	static const int32_t neg_want[] = { 5, -7, 0, INT32_MIN,
					    -INT32_MAX };
	static const int32_t sign_want[] = { -1, 1, 0, -1, 1 };

	kh_expect_int32s(run_plain("abs_integer", OPVER_TYPE_INT32, in, 5),
			 abs_want, 5);
	kh_expect_int32s(run_plain("neg_integer", OPVER_TYPE_INT32, in, 5),
			 neg_want, 5);
	kh_expect_int32s(run_plain("sign_integer", OPVER_TYPE_INT32, in, 5),
			 sign_want, 5);
}

Test(unary, int64_neg)
{
	static const int64_t in[] = { INT64_MIN, 3, -4, 0 };
	static const int64_t want[] = { INT64_MIN, -3, 4, 0 };
	const int64_t *out =
		run_plain("neg_integer", OPVER_TYPE_INT64, in, 4)->data;

	for (size_t i = 0; i < COUNT(want); i++)
		cr_expect_eq(out[i], want[i], "element %zu", i);
}

/* ------------------------------------------------------------ quantized */

/*
 * int8 ABS, equal scales 0.1: |q - (-10)| + (-128), no rescale.  q = -10
 * -> 0 -> -128; 0 and -20 -> 10 -> -118; 127 -> 137 -> 9; -128 -> 118 ->
 * -10.  With output zero point 0, q = -128 -> 118 stays, and an input
 * zero point of 0 takes -128 to 128, clamped to 127.
 */
Test(unary, int8_abs_same_scale)
{
	static const int8_t in[] = { -10, 0, -20, 127, -128 };
	static const int8_t want[] = { -128, -118, -118, 9, -10 };
	static const int8_t clamp_in[] = { -128, 5 };
	static const int8_t clamp_want[] = { 127, 5 };

	kh_expect_int8s(run_quantized("abs_quantized", NULL, 0,
				      OPVER_TYPE_INT8, in, 5, 0.1f, -10, 0.1f,
				      -128),
			want, 5);
	kh_expect_int8s(run_quantized("abs_quantized", NULL, 0,
				      OPVER_TYPE_INT8, clamp_in, 2, 0.1f, 0,
				      0.1f, 0),
			clamp_want, 2);
}

/*
 * int8 ABS, input scale 0.1 to output scale 0.2: times 0.5 (multiplier
 * 2^30, shift 0), rounding half up: |q| = 0, 1, 3, 5, 128 -> 0, 1 (0.5),
 * 2 (1.5), 3 (2.5), 64; minus 128.
 */
Test(unary, int8_abs_rescaled)
{
	static const int8_t in[] = { 0, 1, -3, 5, -128 };
	static const int8_t want[] = { -128, -127, -126, -125, -64 };

	kh_expect_int8s(run_quantized("abs_quantized", NULL, 0,
				      OPVER_TYPE_INT8, in, 5, 0.1f, 0, 0.2f,
				      -128),
			want, 5);
}

/* int16 ABS, scale 0.5 to 0.25: times 2, saturating at 32767. */
Test(unary, int16_abs_quantized)
{
	static const int16_t in[] = { -32768, -100, 100, 20000, 0 };
	static const int16_t want[] = { 32767, 200, 200, 32767, 0 };

	kh_expect_int16s(run_quantized("abs_quantized", NULL, 0,
				       OPVER_TYPE_INT16, in, 5, 0.5f, 0, 0.25f,
				       0),
			 want, 5);
}

/* int16 ABS without quantization (version 4): |q|, -32768 wrapping to
 * itself as TFLite's cast back to int16 does. */
Test(unary, int16_abs_without_quantization)
{
	static const int16_t in[] = { -32768, -5, 7, 0 };
	static const int16_t want[] = { -32768, 5, 7, 0 };

	kh_expect_int16s(run_plain("abs_quantized", OPVER_TYPE_INT16, in, 4),
			 want, 4);
}

/*
 * int8 RSQRT, input scale 1/4 zero point -10, output scale 1/64 zero
 * point -20: steps s = q + 10 of 0, 1, 4, 16, 64 are x = 0, 0.25, 1, 4,
 * 16.  s = 0 gives 127 whatever the zero point.  Otherwise 2^20 / sqrt(s)
 * (2^20, 2^19, 2^18, 2^17: TFLite's integer inverse square root is exact
 * on powers of four, and 1 / sqrt(1) is INT32_MAX, rounding back to 2^20)
 * times 1 / (sqrt(1/4) x 1/64) = 128 (multiplier 2^30, shift 8) over
 * 2^20: 128, 64, 32, 16; minus 20: 108, 44, 12, -4.
 */
Test(unary, int8_rsqrt_by_hand)
{
	static const int8_t in[] = { -10, -9, -6, 6, 54 };
	static const int8_t want[] = { 127, 108, 44, 12, -4 };

	kh_expect_int8s(run_quantized("rsqrt_int8", NULL, 0, OPVER_TYPE_INT8,
				      in, 5, 0.25f, -10, 1.0f / 64, -20),
			want, 5);
}

/* Every input at or above the zero point, against 1 / sqrt in double,
 * rounded: TFLite's integer path (five Newton steps) is within a step. */
Test(unary, int8_rsqrt_within_a_step_of_double)
{
	const float in_scale = 0.02f, out_scale = 0.05f;
	const int32_t in_zero = -100, out_zero = -128;
	int8_t in[228];
	const int8_t *out;

	for (int i = 0; i < 228; i++)
		in[i] = (int8_t)(in_zero + i);
	out = run_quantized("rsqrt_int8", NULL, 0, OPVER_TYPE_INT8, in, 228,
			    in_scale, in_zero, out_scale, out_zero)
		      ->data;
	for (int i = 1; i < 228; i++) {
		const double x = (double)in_scale * i;
		const double want =
			fmin(127.0, round(1.0 / sqrt(x) / out_scale) + out_zero);

		cr_expect(fabs(out[i] - want) <= 1.0, "q %d: got %d, want %g",
			  in[i], out[i], want);
	}
}

/*
 * int8 SQRT, input scale 1/4 zero point -100, output scale 1/8 zero point
 * -128: x = 0, 1, 2.25, 2, 3, 56.75 give sqrt(x) * 8 = 0, 8, 12, 11.31,
 * 13.86, 60.27, truncated (not rounded: 13.86 gives 13) to 0, 8, 12, 11,
 * 13, 60; minus 128.  With output zero point 100, 60 + 100 clamps to 127.
 */
Test(unary, int8_sqrt_truncates)
{
	static const int8_t in[] = { -100, -96, -91, -92, -88, 127 };
	static const int8_t want[] = { -128, -120, -116, -117, -115, -68 };
	static const int8_t clamp_in[] = { 127 };
	static const int8_t clamp_want[] = { 127 };

	kh_expect_int8s(run_quantized("sqrt_quantized", NULL, 0,
				      OPVER_TYPE_INT8, in, 6, 0.25f, -100,
				      0.125f, -128),
			want, 6);
	kh_expect_int8s(run_quantized("sqrt_quantized", NULL, 0,
				      OPVER_TYPE_INT8, clamp_in, 1, 0.25f,
				      -100, 0.125f, 100),
			clamp_want, 1);
}

/*
 * int16 SQRT, input scale 1/256, output scale 1/128: x = 0, 1, 2, 3, 4,
 * 127.996 give 128 sqrt(x) = 0, 128, 181.02, 221.70, 256, 1448.13 ->
 * 0, 128, 181, 221, 256, 1448.
 */
Test(unary, int16_sqrt)
{
	static const int16_t in[] = { 0, 256, 512, 768, 1024, 32767 };
	static const int16_t want[] = { 0, 128, 181, 221, 256, 1448 };

	kh_expect_int16s(run_quantized("sqrt_quantized", NULL, 0,
				       OPVER_TYPE_INT16, in, 6, 1.0f / 256, 0,
				       1.0f / 128, 0),
			 want, 6);
}

/*
 * int8 EXP, input scale 1/16, output scale 1/4 zero point -128: x = 0, 1,
 * -1, -8, 5, 2 give 4 e^x = 4, 10.87, 1.47, 0.001, 593.7, 29.56 -> 4, 11,
 * 1, 0, (clamped) 255, 30; minus 128.
 */
Test(unary, int8_exp_by_hand)
{
	static const int8_t in[] = { 0, 16, -16, -128, 80, 32 };
	static const int8_t want[] = { -124, -117, -127, -128, 127, -98 };

	kh_expect_int8s(run_quantized("exp_lut", NULL, 0, OPVER_TYPE_INT8, in,
				      6, 1.0f / 16, 0, 0.25f, -128),
			want, 6);
}

/*
 * int8 LOG, input scale 0.1 zero point -128, output scale 0.05: x = 0
 * gives the lowest output, -128; x = 1, 2.7, 2, 25.5, 0.1 give 20 ln x =
 * 0, 19.87, 13.86, 64.77, -46.05 -> 0, 20, 14, 65, -46.
 */
Test(unary, int8_log_by_hand)
{
	static const int8_t in[] = { -128, -118, -101, -108, 127, -127 };
	static const int8_t want[] = { -128, 0, 20, 14, 65, -46 };

	kh_expect_int8s(run_quantized("log_lut", NULL, 0, OPVER_TYPE_INT8, in,
				      6, 0.1f, -128, 0.05f, 0),
			want, 6);
}

/* Every int8 EXP input against exp in double, rounded: no input here
 * lies within float error of a half step (checked). */
Test(unary, int8_exp_every_input_matches_double)
{
	const float in_scale = 0.032f, out_scale = 0.1f;
	int8_t in[256], want[256];

	for (int i = 0; i < 256; i++) {
		const double steps = exp((double)in_scale * (i - 128 - 20)) /
				      out_scale;
		const double frac = steps - floor(steps);

		in[i] = (int8_t)(i - 128);
		cr_assert(fabs(frac - 0.5) > 1e-3, "input %d is a tie", i);
		want[i] = (int8_t)fmin(round(steps) - 100, 127);
	}
	kh_expect_int8s(run_quantized("exp_lut", NULL, 0, OPVER_TYPE_INT8, in,
				      256, in_scale, 20, out_scale, -100),
			want, 256);
}

/*
 * The int16 tables (EXP, LOG, RSQRT) sample the function every 128 input
 * steps and interpolate.  Runs kernel `name` on every int16 input from
 * `first` to `last` (in_scale and out_scale, zero points 0); expects
 * inputs below `exact_until` to give exactly `exact`, and those from
 * `compare_from` on to lie within `tolerance` output steps of `f` in
 * double, rounded and clamped to int16.  Returns the output of input 0
 * when `first` <= 0.
 */
static int16_t expect_lut16(const char *name, double (*f)(double),
			    float in_scale, float out_scale, int32_t first,
			    int32_t last, int32_t exact_until, int16_t exact,
			    int32_t compare_from, double tolerance)
{
	const int32_t count = last - first + 1;
	int16_t *in = malloc((size_t)count * sizeof(*in));
	const int16_t *out;

	cr_assert_not_null(in);
	for (int32_t i = 0; i < count; i++)
		in[i] = (int16_t)(first + i);
	out = run_quantized(name, NULL, 0, OPVER_TYPE_INT16, in, count,
			    in_scale, 0, out_scale, 0)
		      ->data;
	free(in);
	for (int32_t i = 0; i < count; i++) {
		const int32_t q = first + i;
		double want;

		if (q < exact_until)
			cr_expect_eq(out[i], exact, "%s q %d: got %d, want %d",
				     name, q, out[i], exact);
		if (q < compare_from)
			continue;
		want = fmin(fmax(round(f(in_scale * q) / out_scale), -32768),
			    32767);
		cr_expect(fabs(out[i] - want) <= tolerance,
			  "%s q %d: got %d, want %g", name, q, out[i], want);
	}
	return first <= 0 ? out[-first] : 0;
}

static double reciprocal_sqrt(double x)
{
	return 1.0 / sqrt(x);
}

/*
 * int16 EXP, x = q / 4096 in [-8, 8), output steps of 1/256: within 4
 * steps of 256 e^x up to x = 4.  TFLite's 512 intervals span 65535 input
 * steps, so its samples drift from the 128-step grid the lookup assumes
 * (half a step at 0, 1.5 at the end), which adds to the interpolation
 * error: about 3 steps near x = 3.  From x = 5 on, where 256 e^x is past
 * int16 and the table is clamped, exactly 32767.
 */
Test(unary, int16_exp_table)
{
	expect_lut16("exp_lut", exp, 1.0f / 4096, 1.0f / 256, -32768, 16384,
		     -32768, 0, -32768, 4.0);
	expect_lut16("exp_lut", exp, 1.0f / 4096, 1.0f / 256, 20480, 32767,
		     32768, 32767, 32768, 0.0);
}

/*
 * int16 LOG, x = q / 256, output steps of 1/2048.  Inputs from -32768 to
 * -129 give the lowest output, -32768: the table's samples there are all
 * -32768 / 2048 (the lowest real output, for x <= 0).  From x = 16 on
 * within 4 steps of 2048 ln x.  At 0 TFLite's midpoint correction, made
 * for smooth functions, lifts the last low sample: its sample is
 * round(-32768 x 65536 / 65535) = -32769, the next one (x = 0.498)
 * -1427.0, the interpolated midpoint round((-1427.0 - 32769) / 2) =
 * -17098 against ln(0.248) = -2855, so it is lowered by round(-14243 / 2)
 * = -7122: -25647.
 */
Test(unary, int16_log_table)
{
	cr_expect_eq(expect_lut16("log_lut", log, 1.0f / 256, 1.0f / 2048,
				  -32768, 32767, -128, -32768, 4096, 4.0),
		     -25647);
}

/*
 * int16 RSQRT, x = q / 256, output steps of 1/1024: from x = 4 on within
 * 4 steps of 1024 / sqrt(x).  At 0, as for LOG: the sample for x <= 0 is
 * the highest output, round(32767 x 65536 / 65535) = 32768, the next one
 * (x = 0.498) 1451.1, the midpoint round((1451.1 + 32768) / 2) = 17110
 * against 1024 / sqrt(0.248) = 2056, lowered by round(15054 / 2) = 7527:
 * 25241.
 */
Test(unary, int16_rsqrt_table)
{
	cr_expect_eq(expect_lut16("rsqrt_lut16", reciprocal_sqrt, 1.0f / 256,
				  1.0f / 1024, 0, 32767, 0, 0, 1024, 4.0),
		     25241);
}

/* ---------------------------------------------------------- bad nodes */

/* SQRT and RSQRT fail at invoke, as TFLite, on an input below the zero
 * point, naming it. */
Test(unary, below_the_domain_fails_at_invoke)
{
	static const int8_t in[] = { 0, -11 };
	static const int16_t in16[] = { 4, -1 };
	const int32_t dims[] = { 2 };
	opver_tensor *input = kh_quantized(&h, "x", OPVER_TYPE_INT8, 1, dims,
					   in, 0.25f, -10);
	opver_tensor *output = kh_quantized(&h, "y", OPVER_TYPE_INT8, 1, dims,
					    NULL, 0.25f, 0);
	opver_tensor *input16 = kh_quantized(&h, "x16", OPVER_TYPE_INT16, 1,
					     dims, in16, 0.25f, 0);
	opver_tensor *output16 = kh_quantized(&h, "y16", OPVER_TYPE_INT16, 1,
					      dims, NULL, 0.25f, 0);

	cr_assert_eq(kh_run(&h, unary_node("rsqrt_int8", NULL, 0, input,
					   output)),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "input 'x' element 1 is -11"),
		  "%s", h.errors);
	cr_assert_eq(kh_run(&h, unary_node("sqrt_quantized", NULL, 0, input16,
					   output16)),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "SQRT is only defined"), "%s",
		  h.errors);
	cr_assert_eq(kh_run(&h, unary_node("rsqrt_lut16", NULL, 0, input16,
					   output16)),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "input 'x16' element 1 is -1"), "%s",
		  h.errors);
}

/* A quantized int16 node of kernel `name` whose input zero point is 3. */
static opver_node *int16_zero_point_3(const char *name)
{
	const int32_t dims[] = { 2 };
	opver_tensor *input = kh_quantized(&h, "x", OPVER_TYPE_INT16, 1, dims,
					   NULL, 0.25f, 3);
	opver_tensor *output = kh_quantized(&h, "y", OPVER_TYPE_INT16, 1, dims,
					    NULL, 0.25f, 0);

	return unary_node(name, NULL, 0, input, output);
}

Test(unary, int16_sqrt_zero_points_must_be_0)
{
	kh_expect_rejected(&h, int16_zero_point_3("sqrt_quantized"),
			   OPVER_ERROR_INVALID_MODEL,
			   "int16 SQRT needs zero points of 0; input 'x' has 3");
}

Test(unary, int16_abs_zero_points_must_be_0)
{
	kh_expect_rejected(&h, int16_zero_point_3("abs_quantized"),
			   OPVER_ERROR_INVALID_MODEL,
			   "int16 ABS needs zero points of 0");
}

Test(unary, unquantized_int8_is_refused)
{
	const int32_t dims[] = { 2 };
	opver_tensor *input =
		kh_tensor(&h, "x", OPVER_TYPE_INT8, 1, dims, NULL);
	opver_tensor *output =
		kh_tensor(&h, "y", OPVER_TYPE_INT8, 1, dims, NULL);

	kh_expect_rejected(&h, unary_node("rsqrt_int8", NULL, 0, input,
					  output),
			   OPVER_ERROR_INVALID_MODEL, "'x'");
}

Test(unary, output_type_must_match)
{
	const int32_t dims[] = { 2 };
	opver_tensor *input =
		kh_tensor(&h, "x", OPVER_TYPE_FLOAT32, 1, dims, NULL);
	opver_tensor *output =
		kh_tensor(&h, "y", OPVER_TYPE_INT32, 1, dims, NULL);

	kh_expect_rejected(&h, unary_node("cos_float32", NULL, 0, input,
					  output),
			   OPVER_ERROR_UNSUPPORTED, "output 'y' has type INT32");
}

Test(unary, output_shape_must_match)
{
	const int32_t dims[] = { 2 }, other[] = { 3 };
	opver_tensor *input =
		kh_tensor(&h, "x", OPVER_TYPE_FLOAT32, 1, dims, NULL);
	opver_tensor *output =
		kh_tensor(&h, "z", OPVER_TYPE_FLOAT32, 1, other, NULL);

	kh_expect_rejected(&h, unary_node("cos_float32", NULL, 0, input,
					  output),
			   OPVER_ERROR_INVALID_MODEL, "'z'");
}

Test(unary, one_input_only)
{
	const int32_t dims[] = { 2 };
	opver_tensor *input =
		kh_tensor(&h, "x", OPVER_TYPE_FLOAT32, 1, dims, NULL);
	opver_tensor *output =
		kh_tensor(&h, "y", OPVER_TYPE_FLOAT32, 1, dims, NULL);

	kh_expect_rejected(&h,
			   kh_node(&h, kh_kernel(&h, "sin_float32"), 1, NULL,
				   0, KH_TENSORS(input, input),
				   KH_TENSORS(output)),
			   OPVER_ERROR_INVALID_MODEL, "one input");
}
