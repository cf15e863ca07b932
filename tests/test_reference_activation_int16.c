/*
 * test_reference_activation_int16.c - the reference plugin's int16 LOGISTIC
 * and TANH kernels, on their fixed-point and table paths, against a
 * double-precision computation; what their prepare rejects.
 */
#include <math.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "activation_harness.h"

/* ------------------------------------------------- int16 LOGISTIC, TANH */

TestSuite(sigmoid16, .init = setup, .fini = teardown);

#define INT16_VALUES 65536

/* Every int16 value, from -32768 up. */
static const int16_t *every_int16(void)
{
	static int16_t values[INT16_VALUES];

	for (int32_t i = 0; i < INT16_VALUES; i++)
		values[i] = (int16_t)(i - 32768);
	return values;
}

/* Runs int16 `name` on every int16 input at `in_scale` (output scale
 * 2^-15) and expects each output within `allowance` steps of
 * 32768 f(x), clamped to the int16 range, computed in double. */
static void expect_every_input_near(const char *name, float in_scale,
				    double (*f)(double), int allowance)
{
	const opver_tensor *out = run_quantized(
		name, NULL, 0, OPVER_TYPE_INT16, every_int16(), INT16_VALUES,
		in_scale, 0, 1.0f / 32768, 0);
	const int16_t *got = out->data;
	int worst = 0;

	for (int32_t i = 0; i < INT16_VALUES; i++) {
		const double x = (double)in_scale * (i - 32768);
		const double want = fmin(fmax(32768.0 * f(x), -32768.0),
					 32767.0);
		const int off = (int)ceil(fabs(got[i] - want) - 1e-9);

		if (off > worst)
			worst = off;
		cr_expect(off <= allowance,
			  "%s scale %g input %d: got %d, want %.3f", name,
			  (double)in_scale, (int)(i - 32768), got[i], want);
	}
	cr_log_info("%s scale %g: at most %d step(s) off", name,
		    (double)in_scale, worst);
}

static double sigmoid(double x)
{
	return 1.0 / (1.0 + exp(-x));
}

/*
 * Input scale 2^-12 is TFLite's fixed-point path: gemmlowp's logistic and
 * tanh in 16 bits.  Their Newton-Raphson division ends in Q2.13, whose
 * unit is 2 output steps of 2^-15 for logistic (the result read as Q1.14)
 * and 4 for tanh (shifted left by 2); its three iterations round each
 * product to that unit, and the exp before them rounds in Q0.15.  The
 * allowance is 4 Q2.13 units: 8 steps for logistic, 16 for tanh (measured
 * over every input: at most 7 and 12).
 */
Test(sigmoid16, fixed_point_path_within_4_units_of_q2_13)
{
	expect_every_input_near("logistic_int16", 0x1p-12f, sigmoid, 8);
	expect_every_input_near("tanh_int16", 0x1p-12f, tanh, 16);
	/* TANH's 2^-11 doubles the input into Q3.12, saturating. */
	expect_every_input_near("tanh_int16", 0x1p-11f, tanh, 16);
}

/*
 * Other scales take the table path: the input rescaled by an integer
 * multiplier of at least 2^14 (relative error below 2^-14), then linear
 * interpolation between entries 1/24 apart of a sigmoid table in 0.16
 * (entries within 2 of the exact 65536 sigmoid): the interpolation's
 * error is at most (1/24)^2 / 8 max|sigmoid''| = 2.1e-5 (0.7 step of
 * 2^-15), the entries' 1 step, the multiplier's max |x sigmoid'(x)|
 * 2^-14 = 0.45 step, the output's rounding 0.5.  TANH, at twice the
 * argument and twice the output, doubles the first two.  The allowance
 * is 3 steps for LOGISTIC, 4 for TANH (measured: at most 2 and 3).
 */
Test(sigmoid16, table_path_within_a_few_steps_of_double)
{
	static const float scales[] = { 1.5e-4f, 0x1p-11f, 0x1p-10f, 3e-3f };

	for (size_t i = 0; i < COUNT(scales); i++) {
		/* 2^-11 is the fixed-point path for TANH. */
		if (scales[i] != 0x1p-11f)
			expect_every_input_near("tanh_int16", scales[i], tanh,
						4);
		expect_every_input_near("logistic_int16", scales[i], sigmoid,
					3);
	}
}

/*
 * The exact points.  Fixed point: logistic(0) is 1/2 = 16384 and tanh(0)
 * 0, exactly, by gemmlowp's special case.  TANH at scale 2^-11 doubles the
 * input saturating: every input from 16384 up reads as 32767 (7.9998), so
 * all give the same output, as do -16384 and below (-8).
 */
Test(sigmoid16, fixed_point_exact_points)
{
	static const int16_t zero[] = { 0 };
	static const int16_t high[] = { 16384, 20000, 32767 };
	static const int16_t low[] = { -16384, -20000, -32768 };
	const int16_t *got;

	got = run_quantized("logistic_int16", NULL, 0, OPVER_TYPE_INT16, zero,
			    1, 0x1p-12f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect_eq(got[0], 16384);
	got = run_quantized("tanh_int16", NULL, 0, OPVER_TYPE_INT16, zero, 1,
			    0x1p-12f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect_eq(got[0], 0);
	got = run_quantized("tanh_int16", NULL, 0, OPVER_TYPE_INT16, high, 3,
			    0x1p-11f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect(got[0] == got[1] && got[1] == got[2], "%d %d %d", got[0],
		  got[1], got[2]);
	got = run_quantized("tanh_int16", NULL, 0, OPVER_TYPE_INT16, low, 3,
			    0x1p-11f, 0, 1.0f / 32768, 0)
		      ->data;
	cr_expect(got[0] == got[1] && got[1] == got[2], "%d %d %d", got[0],
		  got[1], got[2]);
}

/*
 * The table path's saturation, at input scale 2^-10: the multiplier is
 * 12 * 2^11 with shift 11, so the table argument is exactly 12 q (units
 * of 1/12288).  TANH's table (of sigmoid at 2x, steps of 256 units) ends
 * at 255 * 256 = 65280 units, q = 5440: from there the sigmoid is 65535 /
 * 65536 and tanh 2 * that - 1 = 32767 steps of 2^-15 exactly: 32767, and
 * -32767 mirrored (never -32768).  Just inside, q = +-5439 (65268 units)
 * gives entry 254 (65534) plus 244/256 of its step of 1 to entry 255:
 * 32766.95 steps, rounded to the same 32767 and -32767.  LOGISTIC's
 * table (steps of 512 units) ends at 130560 units, q = 10880: 32767
 * above, and below -10880 the mirrored 1 - 32767 / 32768, 1 step.
 */
Test(sigmoid16, table_path_saturation_points)
{
	static const int16_t tanh_in[] = { 5439, 5440, 32767,
					   -5439, -5440, -32768 };
	static const int16_t tanh_want[] = { 32767, 32767, 32767,
					     -32767, -32767, -32767 };
	static const int16_t logistic_in[] = { 10880, 32767, -10880, -32768 };
	static const int16_t logistic_want[] = { 32767, 32767, 1, 1 };

	kh_expect_int16s(run_quantized("tanh_int16", NULL, 0,
				       OPVER_TYPE_INT16, tanh_in, 6, 0x1p-10f,
				       0, 1.0f / 32768, 0),
			 tanh_want, COUNT(tanh_want));
	kh_expect_int16s(run_quantized("logistic_int16", NULL, 0,
				       OPVER_TYPE_INT16, logistic_in, 4,
				       0x1p-10f, 0, 1.0f / 32768, 0),
			 logistic_want, COUNT(logistic_want));
}

/* An int16 node of kernel `name` with the given quantization, expected
 * to be rejected with `status` and `text`. */
static void expect_int16_rejected(const char *name, float in_scale,
				  int32_t in_zero, float out_scale,
				  int32_t out_zero, opver_status status,
				  const char *text)
{
	const int32_t dims[] = { 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   NULL, in_scale, in_zero);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, out_scale, out_zero);

	kh_expect_rejected(&h, unary_node(name, NULL, 0, input, output),
			   status, text);
}

Test(sigmoid16, rejects_a_logistic_input_zero_point)
{
	expect_int16_rejected("logistic_int16", 0x1p-12f, 1, 1.0f / 32768, 0,
			      OPVER_ERROR_INVALID_MODEL, "zero points of 0");
}

Test(sigmoid16, rejects_a_tanh_output_zero_point)
{
	expect_int16_rejected("tanh_int16", 0x1p-12f, 0, 1.0f / 32768, -1,
			      OPVER_ERROR_INVALID_MODEL, "zero points of 0");
}

Test(sigmoid16, rejects_a_tanh_output_scale_of_2_to_the_minus_14)
{
	expect_int16_rejected("tanh_int16", 0x1p-12f, 0, 1.0f / 16384, 0,
			      OPVER_ERROR_INVALID_MODEL,
			      "output scale of 1/32768");
}

Test(sigmoid16, rejects_a_tanh_output_scale_off_a_power_of_two)
{
	expect_int16_rejected("tanh_int16", 0x1p-12f, 0, 3e-5f, 0,
			      OPVER_ERROR_INVALID_MODEL,
			      "output scale of 1/32768");
}

/* LOGISTIC wants 1/32768 exactly; TANH a power of two near it (below). */
Test(sigmoid16, rejects_a_logistic_output_scale_near_1_32768)
{
	expect_int16_rejected("logistic_int16", 0x1p-12f, 0,
			      1.0f / 32768 * 1.0001f, 0,
			      OPVER_ERROR_INVALID_MODEL,
			      "output scale of 1/32768");
}

/* Past 65535 / 12288, TFLite's q * multiplier overflows int32. */
Test(sigmoid16, rejects_an_input_scale_whose_rescale_overflows)
{
	expect_int16_rejected("logistic_int16", 6.0f, 0, 1.0f / 32768, 0,
			      OPVER_ERROR_UNSUPPORTED, "input scales from");
}

Test(sigmoid16, tanh_takes_an_output_scale_within_tflite_tolerance)
{
	static const int16_t in[] = { 4096 };
	const int16_t *got = run_quantized("tanh_int16", NULL, 0,
					   OPVER_TYPE_INT16, in, 1, 0x1p-12f,
					   0, 1.0f / 32768 * 1.0001f, 0)
				     ->data;

	/* tanh(1) = 0.76159 = 24956.0 steps of 2^-15, within the fixed-point
	 * path's allowance above. */
	cr_expect(abs(got[0] - 24956) <= 16, "got %d", got[0]);
}

/* Every kernel covers versions 1 to 3: each version adds only a type. */
Test(sigmoid16, kernels_cover_versions_1_to_3)
{
	static const char *const kernels[] = {
		"logistic_float32", "logistic_lut8", "logistic_int16",
		"tanh_float32",	    "tanh_lut8",     "tanh_int16",
	};

	for (size_t i = 0; i < COUNT(kernels); i++) {
		const opver_kernel *k = kh_kernel(&h, kernels[i]);

		cr_expect_eq(k->min_version, 1, "%s", kernels[i]);
		cr_expect_eq(k->max_version, 3, "%s", kernels[i]);
	}
}
