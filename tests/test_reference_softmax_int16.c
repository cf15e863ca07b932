/*
 * test_reference_softmax_int16.c - the reference plugin's int16, and int8 or
 * uint8 to int16, SOFTMAX kernels against hand-derived cases, against
 * TFLite's outputs and against a double-precision softmax within a stated
 * tolerance; what their prepare rejects.
 */
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "softmax_harness.h"

/* ------------------------------------------- int8 and uint8 to int16 */

TestSuite(softmax_8_to_int16, .init = setup, .fini = teardown);

static opver_tensor *wide_output(int32_t rank, const int32_t *dims)
{
	return quantized("output", OPVER_TYPE_INT16, rank, dims, NULL,
			 1.0f / 65536.0f, -32768);
}

/* A row of n equal values has probabilities 1/n: 65536/n steps above the
 * zero point -32768, rounded; 1 (n = 1) is 65536 steps, clamped. */
ParameterizedTestParameters(softmax_8_to_int16, all_equal_rows)
{
	static struct equal_case cases[] = {
		{ 1, 32767 },    /* -32768 + 65536, clamped */
		{ 2, 0 },        /* -32768 + 32768 */
		{ 3, -10923 },   /* -32768 + 21845.33 */
		{ 4, -16384 },   /* -32768 + 16384 */
		{ 5, -19661 },   /* -32768 + 13107.2 */
		{ 10, -26214 },  /* -32768 + 6553.6 */
		{ 100, -32113 }, /* -32768 + 655.36 */
		{ 256, -32512 }, /* -32768 + 256 */
		{ 600, -32659 }, /* -32768 + 109.23 */
		{ 4000, -32752 }, /* -32768 + 16.38 */
	};

	return cr_make_param_array(struct equal_case, cases, COUNT(cases));
}

ParameterizedTest(struct equal_case *c, softmax_8_to_int16, all_equal_rows)
{
	int8_t *x = calloc((size_t)c->n, 1);
	uint8_t *u = calloc((size_t)c->n, 1);
	opver_tensor *in, *in_u, *out, *out_u;

	cr_assert_not_null(x);
	cr_assert_not_null(u);
	for (int32_t i = 0; i < c->n; i++) {
		x[i] = -40;
		u[i] = 250;
	}
	in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, c->n), x, 0.1f,
		       3);
	in_u = quantized("input", OPVER_TYPE_UINT8, KH_DIMS(1, c->n), u, 0.1f,
			 128);
	free(x);
	free(u);
	out = wide_output(KH_DIMS(1, c->n));
	out_u = wide_output(KH_DIMS(1, c->n));
	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT8_INT16, 1.0f, in,
					     out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_UINT8_INT16, 1.0f, in_u,
					     out_u)),
		     OPVER_OK, "%s", h.errors);
	for (int32_t i = 0; i < c->n; i++) {
		cr_expect_eq(((int16_t *)out->data)[i], c->want,
			     "int8: n %d, element %d: got %d, want %d", c->n,
			     i, ((int16_t *)out->data)[i], c->want);
		cr_expect_eq(((int16_t *)out_u->data)[i], c->want,
			     "uint8: n %d, element %d: got %d, want %d", c->n,
			     i, ((int16_t *)out_u->data)[i], c->want);
	}
}

Test(softmax_8_to_int16, a_dominant_element_takes_everything)
{
	/* Scale 0.5: (-128, 100) differ by 228 steps = 114, far past the
	 * input radius: exp 0, the lowest value; the max gets 65536 steps,
	 * clamped. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 2),
				     (int8_t[]){ -128, 100 }, 0.5f, -5);
	opver_tensor *out = wide_output(KH_DIMS(1, 2));

	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT8_INT16, 1.0f, in,
					     out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out->data, (int16_t[]){ -32768, 32767 }, 2);
}

/*
 * Random rows against a double softmax.  Each exp enters the Q12.19 sum
 * rounded to 2^-20 of its value at most, so the sum errs by up to depth x
 * 2^-20 relative: with the fixed-point exp and reciprocal, the output is
 * within 1 + depth / 16 steps of 1/65536.
 */
ParameterizedTestParameters(softmax_8_to_int16, near_the_real_softmax)
{
	static struct quantized_case cases[] = {
		{ 0.1f, 1.0f, 10 },    { 0.05f, 1.0f, 12 },
		{ 0.25f, 0.5f, 4 },    { 1.0f / 16, 2.0f, 33 },
		{ 0.0039f, 1.0f, 64 }, { 3.0f, 1.0f, 7 },
	};

	return cr_make_param_array(struct quantized_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct quantized_case *c, softmax_8_to_int16,
		  near_the_real_softmax)
{
	enum { ROWS = 3 };
	const size_t n = (size_t)ROWS * (size_t)c->depth;
	const double tolerance = 1.0 + c->depth / 16.0;
	int8_t x[ROWS * 64];
	double real[64], p[64];
	uint32_t state = (uint32_t)c->depth + 11;
	opver_tensor *in, *out;

	cr_assert(n <= COUNT(x));
	for (size_t i = 0; i < n; i++)
		x[i] = (int8_t)next_int(&state, -128, 127);
	in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(ROWS, c->depth), x,
		       c->scale, -7);
	out = wide_output(KH_DIMS(ROWS, c->depth));
	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT8_INT16, c->beta, in,
					     out)),
		     OPVER_OK, "%s", h.errors);
	for (int r = 0; r < ROWS; r++) {
		const int16_t *got = (const int16_t *)out->data + r * c->depth;

		for (int32_t i = 0; i < c->depth; i++)
			real[i] = c->scale * (x[r * c->depth + i] + 7);
		softmax_double(real, (size_t)c->depth, c->beta, p);
		for (int32_t i = 0; i < c->depth; i++) {
			const double want =
				fmin(p[i] * 65536.0 - 32768.0, 32767.0);

			cr_expect(fabs(got[i] - want) <= tolerance,
				  "row %d element %d: got %d, want %.3f", r, i,
				  got[i], want);
		}
	}
}

Test(softmax_8_to_int16, rejects_an_output_zero_point_other_than_minus_32768)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				     NULL, 0.1f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 4), NULL, 1.0f / 65536.0f, 0);

	expect_rejected(softmax_node(SOFTMAX_INT8_INT16, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"INT16 SOFTMAX needs an output scale of 1/65536 and zero point -32768");
}

Test(softmax_8_to_int16, rejects_the_int16_kernels_output_scale)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8, KH_DIMS(1, 4),
				     NULL, 0.1f, 128);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 4), NULL, 1.0f / 32768.0f,
				      -32768);

	expect_rejected(softmax_node(SOFTMAX_UINT8_INT16, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"INT16 SOFTMAX needs an output scale of 1/65536 and zero point -32768");
}

/* ---------------------------------------------------------------- int16 */

TestSuite(softmax_int16, .init = setup, .fini = teardown);

static opver_tensor *int16_output(int32_t rank, const int32_t *dims)
{
	return quantized("output", OPVER_TYPE_INT16, rank, dims, NULL,
			 1.0f / 32768.0f, 0);
}

/* Equal values: every exp is the same table value e, the sum n e, and
 * the result 1/n of 32768 exactly for n a power of two (32767 for 1). */
ParameterizedTestParameters(softmax_int16, all_equal_rows)
{
	static struct equal_case cases[] = {
		{ 1, 32767 }, { 2, 16384 }, { 4, 8192 }, { 8, 4096 },
		{ 64, 512 },
	};

	return cr_make_param_array(struct equal_case, cases, COUNT(cases));
}

ParameterizedTest(struct equal_case *c, softmax_int16, all_equal_rows)
{
	int16_t x[64];
	opver_tensor *in, *out;
	opver_node *node;

	for (int32_t i = 0; i < c->n; i++)
		x[i] = -1234;
	in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, c->n), x,
		       0.001f, 0);
	out = int16_output(KH_DIMS(1, c->n));
	node = softmax_node(SOFTMAX_INT16, 1.0f, in, out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	for (int32_t i = 0; i < c->n; i++)
		cr_expect_eq(((int16_t *)out->data)[i], c->want,
			     "n %d: got %d, want %d", c->n,
			     ((int16_t *)out->data)[i], c->want);
}

/*
 * Random rows whose differences stay within the exp table's [-10, 0]
 * against a double softmax: within 10 steps of 1/32768 (the interpolated
 * tables are good to about 5e-5 each; measured worst 6.6 steps).  Past
 * -10 TFLite's table floors exp at exp(-10), which adds up over long rows.
 */
ParameterizedTestParameters(softmax_int16, near_the_real_softmax)
{
	static struct quantized_case cases[] = {
		{ 1.0f / 4096, 1.0f, 10 }, { 0.0003f, 1.0f, 16 },
		{ 0.001f, 0.5f, 5 },       { 0.001f, 1.0f, 40 },
		{ 1.0f / 32768, 2.0f, 3 },
	};

	return cr_make_param_array(struct quantized_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct quantized_case *c, softmax_int16,
		  near_the_real_softmax)
{
	enum { ROWS = 3 };
	const size_t n = (size_t)ROWS * (size_t)c->depth;
	/* differences of at most 9.9 in real terms */
	const int32_t spread = (int32_t)fmin(9.9 / (c->scale * c->beta),
					     65535.0);
	int16_t x[ROWS * 40];
	double real[40], p[40];
	uint32_t state = (uint32_t)c->depth;
	opver_tensor *in, *out;
	opver_node *node;

	cr_assert(n <= COUNT(x));
	for (size_t i = 0; i < n; i++)
		x[i] = (int16_t)next_int(&state, 32767 - spread, 32767);
	in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(ROWS, c->depth), x,
		       c->scale, 0);
	out = int16_output(KH_DIMS(ROWS, c->depth));
	node = softmax_node(SOFTMAX_INT16, c->beta, in, out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	for (int r = 0; r < ROWS; r++) {
		const int16_t *got = (const int16_t *)out->data + r * c->depth;

		for (int32_t i = 0; i < c->depth; i++)
			real[i] = c->scale * x[r * c->depth + i];
		softmax_double(real, (size_t)c->depth, c->beta, p);
		for (int32_t i = 0; i < c->depth; i++) {
			const double want = fmin(p[i] * 32768.0, 32767.0);

			cr_expect(fabs(got[i] - want) <= 10.0,
				  "row %d element %d: got %d, want %.2f", r, i,
				  got[i], want);
		}
	}
}

/* Bit-exact expectations from the same TFLite transcript as the int8
 * ones (gen_lut tables, generic_int16_table_lookup, SoftmaxInt16). */
struct int16_golden_case {
	float scale;
	float beta;
	int32_t depth;
	int16_t x[8];
	int16_t want[8];
};

ParameterizedTestParameters(softmax_int16, matches_tflite_bit_for_bit)
{
	static struct int16_golden_case cases[] = {
		{ 1.0f / 4096, 1.0f, 8,
		  { 32767, 30000, 25000, 20000, 12000, 5000, 0, -8000 },
		  { 19149, 9745, 2875, 848, 120, 22, 6, 1 } },
		{ 0.001f, 0.5f, 6,
		  { -1000, 0, 1000, 2000, 3000, 4000 },
		  { 1114, 1836, 3028, 4992, 8230, 13569 } },
	};

	return cr_make_param_array(struct int16_golden_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct int16_golden_case *c, softmax_int16,
		  matches_tflite_bit_for_bit)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, c->depth), c->x, c->scale, 0);
	opver_tensor *out = int16_output(KH_DIMS(1, c->depth));

	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT16, c->beta, in,
					     out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out->data, c->want, (size_t)c->depth);
}

Test(softmax_int16, works_in_place)
{
	/* The exps go through the output first; an output sharing the
	 * input's memory still gives the right answer: 1/2, 1/2. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 2),
				     (int16_t[]){ 300, 300 }, 0.001f, 0);
	opver_tensor *out = int16_output(KH_DIMS(1, 2));

	out->data = in->data;
	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT16, 1.0f, in, out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(in->data, (int16_t[]){ 16384, 16384 }, 2);
}

Test(softmax_int16, rejects_an_input_zero_point)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 4),
				     NULL, 0.001f, 5);
	opver_tensor *out = int16_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT16, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has zero point 5; int16 SOFTMAX takes a symmetric input (zero point 0)");
}

Test(softmax_int16, rejects_an_output_scale_other_than_1_over_32768)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 4),
				     NULL, 0.001f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 4), NULL, 1.0f / 65536.0f, 0);

	expect_rejected(softmax_node(SOFTMAX_INT16, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"INT16 SOFTMAX needs an output scale of 1/32768 and zero point 0");
}

Test(softmax_int16, rejects_an_output_zero_point)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 4),
				     NULL, 0.001f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 4), NULL, 1.0f / 32768.0f, 1);

	expect_rejected(softmax_node(SOFTMAX_INT16, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL, "and zero point 1; INT16 SOFTMAX");
}

Test(softmax_int16, rejects_a_rescale_of_2_to_the_31)
{
	/* 1000 x 1e4 / (10 / 65535) is about 6.6e10 */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 4),
				     NULL, 1000.0f, 0);
	opver_tensor *out = int16_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT16, 1e4f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"a rescale factor must be finite, not negative and below 2^30");
}

Test(softmax_int16, rejects_a_scale_times_beta_beyond_float)
{
	/* 1e30 x 1e30 overflows float (TFLite's product is then infinite and
	 * its multiplier undefined); in double it is 1e60, far too large. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 4),
				     NULL, 1e30f, 0);
	opver_tensor *out = int16_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT16, 1e30f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"beta x input scale / (10 / 65535) is 6.5535e+63; a rescale factor must be finite");
}

Test(softmax_int16, rejects_a_negative_beta)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 4),
				     NULL, 0.001f, 0);
	opver_tensor *out = int16_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT16, -1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"a rescale factor must be finite, not negative");
}
