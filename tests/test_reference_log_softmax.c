/*
 * test_reference_log_softmax.c - the reference plugin's LOG_SOFTMAX kernels
 * run from the built reference.so through the kernel harness: float32
 * against log-softmax computed here in double precision; int8 and uint8
 * against values worked out by hand (all-equal rows, a dominant element,
 * the diff_min cut-off) and against a double-precision log-softmax of the
 * dequantized input, quantized to the fixed output scale; the fixed-point
 * log against libm; what prepare rejects and what it says.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"
#include "../plugins/reference/fixed_point.h"

#define LOG_SOFTMAX_FLOAT32 "log_softmax_float32"
#define LOG_SOFTMAX_INT8 "log_softmax_int8"
#define LOG_SOFTMAX_UINT8 "log_softmax_uint8"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))
#define OUTPUT_SCALE (16.0f / 256.0f)

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(log_softmax_float32, .init = setup, .fini = teardown);
TestSuite(log_softmax_int8, .init = setup, .fini = teardown);
TestSuite(log_softmax_uint8, .init = setup, .fini = teardown);

static opver_node *log_softmax_node(const char *kernel, opver_tensor *input,
				    opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, kernel), 1, NULL, 0,
		       KH_TENSORS(input), KH_TENSORS(output));
}

/* log-softmax in double of `rows` rows of `depth` values. */
static void log_softmax_double(const double *in, double *out, size_t rows,
			       size_t depth)
{
	for (size_t r = 0; r < rows; r++) {
		const double *x = in + r * depth;
		double max = -INFINITY, sum = 0.0;

		for (size_t c = 0; c < depth; c++)
			max = fmax(max, x[c]);
		for (size_t c = 0; c < depth; c++)
			sum += exp(x[c] - max);
		for (size_t c = 0; c < depth; c++)
			out[r * depth + c] = x[c] - max - log(sum);
	}
}

/* ------------------------------------------------------------ fixed point */

/* The Q5.26 log of Q12.19 values against libm: TFLite's approximation is
 * good to two units of 2^-26 (measured: 1.2 at most) over the range of sums
 * (1 to 4096). */
Test(fixed_point, log_at_least_one)
{
	static const double xs[] = { 1.0, 1.0001, 1.5, 2.0, 2.718281828,
				     3.9, 100.0, 1000.5, 4095.9 };

	for (size_t i = 0; i < COUNT(xs); i++) {
		const int32_t raw = (int32_t)lround(ldexp(xs[i], 19));
		const double got =
			ldexp(ref_log_at_least_one(raw, 12), -26);
		const double want = log(ldexp(raw, -19));

		cr_expect(fabs(got - want) < ldexp(2.0, -26),
			  "log(%g): got %.9f, want %.9f", xs[i], got, want);
	}
}

Test(fixed_point, log_of_one_is_zero)
{
	cr_expect_leq(abs(ref_log_at_least_one(INT32_C(1) << 19, 12)), 2);
}

/* ------------------------------------------------------------- float32 */

Test(log_softmax_float32, hand_computed_rows)
{
	/* Row 0: log(1 + e^-1 + e^-2) = 0.4076059644; row 1: four equal
	 * values, log(1/4); row 2: one element, 0. */
	static const float in[] = { 1, 2, 3, 5, 5, 5, 5 };
	static const double want[] = {
		-2.4076059644, -1.4076059644, -0.4076059644,
		-1.3862943611, -1.3862943611, -1.3862943611, -1.3862943611,
	};
	const int32_t dims3[] = { 3 }, dims4[] = { 4 };
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, 1, dims3, in);
	opver_tensor *ao = kh_tensor(&h, "ao", OPVER_TYPE_FLOAT32, 1, dims3,
				     NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, 1, dims4,
				    in + 3);
	opver_tensor *bo = kh_tensor(&h, "bo", OPVER_TYPE_FLOAT32, 1, dims4,
				     NULL);
	const float *got;

	cr_assert_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_FLOAT32, a, ao)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_FLOAT32, b, bo)),
		     OPVER_OK, "%s", h.errors);
	got = ao->data;
	for (size_t i = 0; i < 3; i++)
		cr_expect(fabs(got[i] - want[i]) < 1e-6, "a[%zu]: %.9g", i,
			  (double)got[i]);
	got = bo->data;
	for (size_t i = 0; i < 4; i++)
		cr_expect(fabs(got[i] - want[3 + i]) < 1e-6, "b[%zu]: %.9g",
			  i, (double)got[i]);
}

/* Rank 3, rows along the last dimension only, with values far apart (the
 * max subtracted first keeps exp finite): within 1e-5 of double, float's
 * rounding of differences up to 200. */
Test(log_softmax_float32, rank_3_rows_against_double)
{
	static const float in[] = { 100, -100, 0,  1,  2,   3,
				    -7,  -7,   90, 90, -50, 0.5f };
	const int32_t dims[] = { 2, 2, 3 };
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 3, dims,
					in);
	opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 3,
					 dims, NULL);
	double x[COUNT(in)], want[COUNT(in)];
	const float *got;

	for (size_t i = 0; i < COUNT(in); i++)
		x[i] = in[i];
	log_softmax_double(x, want, 4, 3);
	cr_assert_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_FLOAT32, input,
						 output)),
		     OPVER_OK, "%s", h.errors);
	got = output->data;
	for (size_t i = 0; i < COUNT(in); i++)
		cr_expect(fabs(got[i] - want[i]) <= 1e-5 * fmax(1, fabs(want[i])),
			  "element %zu: got %.9g, want %.9g", i,
			  (double)got[i], want[i]);
}

Test(log_softmax_float32, empty_rows_and_empty_depth)
{
	const int32_t no_rows[] = { 0, 4 }, no_depth[] = { 3, 0 };
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, 2, no_rows,
				    NULL);
	opver_tensor *ao = kh_tensor(&h, "ao", OPVER_TYPE_FLOAT32, 2, no_rows,
				     NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, 2, no_depth,
				    NULL);
	opver_tensor *bo = kh_tensor(&h, "bo", OPVER_TYPE_FLOAT32, 2,
				     no_depth, NULL);

	cr_expect_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_FLOAT32, a, ao)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_FLOAT32, b, bo)),
		     OPVER_OK, "%s", h.errors);
}

Test(log_softmax_int8, empty_depth)
{
	const int32_t no_depth[] = { 3, 0 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, 2, no_depth,
					NULL, 0.1f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, 2,
					 no_depth, NULL, OUTPUT_SCALE, 127);

	cr_expect_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_INT8, in, out)),
		     OPVER_OK, "%s", h.errors);
}

Test(log_softmax_float32, rejects_a_scalar)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 0, NULL,
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 0, NULL,
				      NULL);

	kh_expect_rejected(&h, log_softmax_node(LOG_SOFTMAX_FLOAT32, in, out),
			   OPVER_ERROR_INVALID_MODEL, "is a scalar");
}

Test(log_softmax_float32, rejects_another_output_shape)
{
	const int32_t dims[] = { 2, 3 }, other[] = { 3, 2 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, 2, dims,
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 2, other,
				      NULL);

	kh_expect_rejected(&h, log_softmax_node(LOG_SOFTMAX_FLOAT32, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "must have the shape of input 'in'");
}

/* ------------------------------------------------------------ quantized */

/* Runs the int8 kernel on one [rows, depth] input at `scale`, zero point
 * `zero`; the output tensor. */
static opver_tensor *run_int8(const int8_t *in, int32_t rows, int32_t depth,
			      float scale, int32_t zero)
{
	const int32_t dims[] = { rows, depth };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 2, dims,
					   in, scale, zero);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 2,
					    dims, NULL, OUTPUT_SCALE, 127);

	cr_assert_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_INT8, input,
						 output)),
		     OPVER_OK, "%s", h.errors);
	return output;
}

/* n equal values: every output is log(1/n) in steps of 1/16 from 127. */
Test(log_softmax_int8, all_equal_rows)
{
	/* log(1/4) * 16 = -22.18 -> 105; log(1/10) * 16 = -36.84 -> 90;
	 * log(1/1) = 0 -> 127. */
	int8_t in[10];
	const int8_t want4[] = { 105, 105, 105, 105 };
	const int8_t want1[] = { 127 };
	int8_t want10[10];

	for (size_t i = 0; i < 10; i++) {
		in[i] = 37;
		want10[i] = 90;
	}
	kh_expect_int8s(run_int8(in, 1, 4, 0.1f, 3), want4, 4);
	kh_expect_int8s(run_int8(in, 1, 10, 0.05f, -9), want10, 10);
	kh_expect_int8s(run_int8(in, 1, 1, 0.2f, 0), want1, 1);
}

/*
 * Scale 1/8: one step is 2 output steps.  The input multiplier is exactly
 * 2^30 with a left shift of 24 (1/8 x 2^26 = 2^23), so diff_min is
 * -31 x 2^26 / 2^24 = -124: real -15.5.  Row [m, m - 124, m - 125, m - 1]:
 * the sum is 1 + e^-0.125 + e^-15.5 = 1.882497 (log 0.632600, 10.12
 * steps), so the max gives round(-10.12) = -10 -> 117, m - 1 gives -12.12
 * -> 115, m - 124 gives -258.12 -> clamped to -128, and m - 125, past the
 * cut-off, is the lowest value by rule.  The cut-off shows with a larger
 * sum's log subtracted less: row [m, m - 124] alone gives -248 + 127 =
 * -121 for m - 124 (log of 1 + e^-15.5 is 0) and -128 for m - 125 where
 * the double computation says -250 + 127 = -123.
 */
Test(log_softmax_int8, diff_min_cut_off)
{
	const int8_t in[] = { 100, -24, -25, 99 };
	const int8_t want[] = { 117, -128, -128, 115 };
	const int8_t two[] = { 100, -24, 100, -25 };
	const int8_t want_two[] = { 127, -121, 127, -128 };

	kh_expect_int8s(run_int8(in, 1, 4, 0.125f, 0), want, 4);
	kh_expect_int8s(run_int8(two, 2, 2, 0.125f, 0), want_two, 4);
}

/* A dominant element: its output is 0 (127), others -diff * scale * 16. */
Test(log_softmax_int8, a_dominant_element)
{
	/* Scale 0.5 (diff_min -31): 100 below is past the cut-off; 7
	 * below is -3.5 and 27 below -13.5, and the sum is 1 + e^-3.5 +
	 * e^-13.5 = 1.030197 (log 0.029750, 0.476 steps): -56.48 -> -56 ->
	 * 71, -216.48 -> -216 -> -89, the max -0.48 -> 0 -> 127. */
	const int8_t in[] = { 20, 13, -7, -80 };
	const int8_t want[] = { 127, 71, -89, -128 };

	kh_expect_int8s(run_int8(in, 1, 4, 0.5f, 0), want, 4);
}

/* Pseudo-random rows against the double computation: every output within
 * one step, nearly all exact (the fixed-point exp and log are good to
 * about 2^-24, far below the 1/16 step, so only values within that of a
 * rounding tie can differ).  Scale 0.1 puts the cut-off at 24.8 below the
 * max, where every output is clamped to -128 anyway. */
Test(log_softmax_int8, random_rows_against_double)
{
	enum { ROWS = 64, DEPTH = 37 };
	int8_t in[ROWS * DEPTH];
	double x[ROWS * DEPTH], want[ROWS * DEPTH];
	const float scale = 0.1f;
	const int8_t *got;
	uint32_t state = 12345;
	int exact = 0;

	for (size_t i = 0; i < COUNT(in); i++) {
		state = state * 1664525u + 1013904223u;
		in[i] = (int8_t)(state >> 24);
		x[i] = (double)scale * (in[i] - 5);
	}
	log_softmax_double(x, want, ROWS, DEPTH);
	got = run_int8(in, ROWS, DEPTH, scale, 5)->data;
	for (size_t i = 0; i < COUNT(in); i++) {
		const double q = fmin(fmax(round(want[i] * 16) + 127, -128),
				      127);

		cr_expect(fabs(got[i] - q) <= 1, "element %zu: got %d, want %g",
			  i, got[i], q);
		exact += got[i] == q;
	}
	cr_expect_geq(exact, (int)COUNT(in) - 5, "%d of %zu exact", exact,
		      COUNT(in));
}

/* A long last axis: 3000 equal values, log(1/3000) * 16 = -128.1 -> -1
 * from 127; and one value 1 above 2999 others at scale 0.25: the sum is
 * 1 + 2999 e^-0.25 = 2336.6, log 7.7564, -124.1 -> 3, the others -128.1
 * -> -1. */
Test(log_softmax_int8, long_axis)
{
	enum { DEPTH = 3000 };
	static int8_t in[DEPTH], want[DEPTH];

	for (size_t i = 0; i < DEPTH; i++) {
		in[i] = -3;
		want[i] = -1;
	}
	kh_expect_int8s(run_int8(in, 1, DEPTH, 0.25f, 0), want, DEPTH);
	in[7] = -2;
	want[7] = 3;
	kh_expect_int8s(run_int8(in, 1, DEPTH, 0.25f, 0), want, DEPTH);
}

Test(log_softmax_int8, rejects_an_output_zero_point_other_than_127)
{
	const int32_t dims[] = { 4 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					NULL, 0.1f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1, dims,
					 NULL, OUTPUT_SCALE, -128);

	kh_expect_rejected(&h, log_softmax_node(LOG_SOFTMAX_INT8, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "INT8 LOG_SOFTMAX needs an output scale of 16/256 and zero point 127");
}

Test(log_softmax_int8, rejects_an_output_scale_other_than_16_over_256)
{
	const int32_t dims[] = { 4 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					NULL, 0.1f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1, dims,
					 NULL, 1.0f / 256, 127);

	kh_expect_rejected(&h, log_softmax_node(LOG_SOFTMAX_INT8, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "has scale 0.00390625 and zero point 127");
}

Test(log_softmax_int8, rejects_an_input_scale_too_small_for_fixed_point)
{
	const int32_t dims[] = { 4 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					NULL, 1e-9f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1, dims,
					 NULL, OUTPUT_SCALE, 127);

	kh_expect_rejected(&h, log_softmax_node(LOG_SOFTMAX_INT8, in, out),
			   OPVER_ERROR_UNSUPPORTED, "input scale 1e-09 is too small");
}

Test(log_softmax_int8, rejects_an_unquantized_input)
{
	const int32_t dims[] = { 4 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8, 1, dims, NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1, dims,
					 NULL, OUTPUT_SCALE, 127);

	cr_expect_eq(kh_prepare(&h, log_softmax_node(LOG_SOFTMAX_INT8, in,
						     out)),
		     OPVER_ERROR_INVALID_MODEL, "%s", h.errors);
}

Test(log_softmax_int8, rejects_a_float_output)
{
	const int32_t dims[] = { 4 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					NULL, 0.1f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 1, dims,
				      NULL);

	cr_expect_neq(kh_prepare(&h, log_softmax_node(LOG_SOFTMAX_INT8, in,
						      out)),
		      OPVER_OK);
	cr_expect(kh_error_contains(&h, "out"), "%s", h.errors);
}

/* uint8: the int8 arithmetic on values 128 higher, zero point 255. */
Test(log_softmax_uint8, is_the_int8_arithmetic_shifted_by_128)
{
	enum { ROWS = 16, DEPTH = 23 };
	int8_t in8[ROWS * DEPTH];
	uint8_t in[ROWS * DEPTH];
	const int32_t dims[] = { ROWS, DEPTH };
	opver_tensor *input, *output;
	const int8_t *want;
	const uint8_t *got;
	uint32_t state = 99;

	for (size_t i = 0; i < COUNT(in); i++) {
		state = state * 1664525u + 1013904223u;
		in8[i] = (int8_t)(state >> 24);
		in[i] = (uint8_t)(in8[i] + 128);
	}
	want = run_int8(in8, ROWS, DEPTH, 0.07f, 0)->data;
	input = kh_quantized(&h, "u", OPVER_TYPE_UINT8, 2, dims, in, 0.07f,
			     128);
	output = kh_quantized(&h, "uo", OPVER_TYPE_UINT8, 2, dims, NULL,
			      OUTPUT_SCALE, 255);
	cr_assert_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_UINT8, input,
						 output)),
		     OPVER_OK, "%s", h.errors);
	got = output->data;
	for (size_t i = 0; i < COUNT(in); i++)
		cr_expect_eq(got[i], want[i] + 128, "element %zu: %d vs %d",
			     i, got[i], want[i]);
}

/*
 * Row 0: log(1/4) -> -22 from 255: 233.  Row 1 at scale 0.25 (diff_min
 * -62): 245 and 255 below the max are past the cut-off (0); 5 below is
 * -1.25, the sum 1 + e^-1.25 = 1.286505 (log 0.251872, 4.03 steps): the
 * max -4.03 -> 251, 5 below -24.03 -> 231.
 */
Test(log_softmax_uint8, hand_computed)
{
	const int32_t dims[] = { 2, 4 };
	const uint8_t in[] = { 9, 9, 9, 9, 250, 10, 0, 255 };
	const uint8_t want[] = { 233, 233, 233, 233, 231, 0, 0, 251 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_UINT8, 2,
					   dims, in, 0.25f, 128);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_UINT8, 2,
					    dims, NULL, OUTPUT_SCALE, 255);
	const uint8_t *got;

	cr_assert_eq(kh_run(&h, log_softmax_node(LOG_SOFTMAX_UINT8, input,
						 output)),
		     OPVER_OK, "%s", h.errors);
	got = output->data;
	for (size_t i = 0; i < COUNT(in); i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d",
			     i, got[i], want[i]);
}

Test(log_softmax_uint8, rejects_an_output_zero_point_other_than_255)
{
	const int32_t dims[] = { 4 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8, 1, dims,
					NULL, 0.1f, 128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8, 1, dims,
					 NULL, OUTPUT_SCALE, 127);

	kh_expect_rejected(&h, log_softmax_node(LOG_SOFTMAX_UINT8, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "UINT8 LOG_SOFTMAX needs an output scale of 16/256 and zero point 255");
}
