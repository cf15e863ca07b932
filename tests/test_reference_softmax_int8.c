/*
 * test_reference_softmax_int8.c - the reference plugin's int8 and uint8
 * SOFTMAX kernels against hand-derived cases (all-equal rows, dominated
 * rows), against TFLite's outputs and against a double-precision softmax
 * within a stated tolerance; what their prepare rejects.
 */
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "softmax_harness.h"

/* ----------------------------------------------------------------- int8 */

TestSuite(softmax_int8, .init = setup, .fini = teardown);

/* A row of n equal values has probabilities 1/n: 256/n steps above the
 * zero point -128, rounded; 1 (n = 1) is 256 steps, clamped to 127. */
ParameterizedTestParameters(softmax_int8, all_equal_rows)
{
	static struct equal_case cases[] = {
		{ 1, 127 },   /* -128 + 256, clamped */
		{ 2, 0 },     /* -128 + 128 */
		{ 3, -43 },   /* -128 + 85.33 */
		{ 4, -64 },   /* -128 + 64 */
		{ 5, -77 },   /* -128 + 51.2 */
		{ 8, -96 },   /* -128 + 32 */
		{ 10, -102 }, /* -128 + 25.6 */
		{ 100, -125 }, /* -128 + 2.56 */
		{ 256, -127 }, /* -128 + 1 */
		{ 600, -128 }, /* 0.43 steps: the sum is past 512 */
		{ 5000, -128 }, /* the Q12.19 sum saturates */
	};

	return cr_make_param_array(struct equal_case, cases, COUNT(cases));
}

ParameterizedTest(struct equal_case *c, softmax_int8, all_equal_rows)
{
	int8_t *x = calloc((size_t)c->n, 1);
	opver_tensor *in, *out;
	opver_node *node;

	cr_assert_not_null(x);
	for (int32_t i = 0; i < c->n; i++)
		x[i] = 17;
	in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, c->n), x, 0.1f,
		       3);
	free(x);
	out = int8_output(KH_DIMS(1, c->n));
	node = softmax_node(SOFTMAX_INT8, 1.0f, in, out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	for (int32_t i = 0; i < c->n; i++)
		cr_expect_eq(((int8_t *)out->data)[i], c->want,
			     "n %d, element %d: got %d, want %d", c->n, i,
			     ((int8_t *)out->data)[i], c->want);
}

Test(softmax_int8, differences_past_the_input_radius_are_zero)
{
	/*
	 * Input scale 1, beta 1: beta x scale x 2^26 = 2^26 is 2^30 with
	 * left shift 27, so differences below -floor(31 x 2^26 / 2^27) =
	 * -15 count as exp 0.  Row (127, 127, 111, 0): 127 and 127 share
	 * the mass (e^-16 is 1e-7): 128 steps each, -128 for the rest.
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				     (int8_t[]){ 127, 127, 111, 0 }, 1.0f, 0);
	opver_tensor *out = int8_output(KH_DIMS(1, 4));
	opver_node *node = softmax_node(SOFTMAX_INT8, 1.0f, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 0, 0, -128, -128 }, 4);
}

Test(softmax_int8, a_dominant_element_takes_everything)
{
	/* Scale 0.5: (-128, 100) differ by 114 steps = 57, e^-57 is 0. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 2),
				     (int8_t[]){ -128, 100 }, 0.5f, -5);
	opver_tensor *out = int8_output(KH_DIMS(1, 2));
	opver_node *node = softmax_node(SOFTMAX_INT8, 1.0f, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -128, 127 }, 2);
}

/*
 * Random rows against a double softmax: the fixed-point result is within
 * one output step (measured: within half a step plus rounding, 0.5).
 */
ParameterizedTestParameters(softmax_int8, near_the_real_softmax)
{
	static struct quantized_case cases[] = {
		{ 0.1f, 1.0f, 10 },    { 0.05f, 1.0f, 12 },
		{ 0.25f, 0.5f, 4 },    { 1.0f / 16, 2.0f, 33 },
		{ 0.0039f, 1.0f, 64 }, { 0.2f, 1.0f, 257 },
		{ 3.0f, 1.0f, 7 },
	};

	return cr_make_param_array(struct quantized_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct quantized_case *c, softmax_int8,
		  near_the_real_softmax)
{
	enum { ROWS = 3 };
	const size_t n = (size_t)ROWS * (size_t)c->depth;
	int8_t x[ROWS * 257];
	double real[257], p[257];
	uint32_t state = (uint32_t)c->depth;
	opver_tensor *in, *out;
	opver_node *node;

	cr_assert(n <= COUNT(x));
	for (size_t i = 0; i < n; i++)
		x[i] = (int8_t)next_int(&state, -128, 127);
	in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(ROWS, c->depth), x,
		       c->scale, 7);
	out = int8_output(KH_DIMS(ROWS, c->depth));
	node = softmax_node(SOFTMAX_INT8, c->beta, in, out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	for (int r = 0; r < ROWS; r++) {
		const int8_t *got = (const int8_t *)out->data + r * c->depth;

		for (int32_t i = 0; i < c->depth; i++)
			real[i] = c->scale * (x[r * c->depth + i] - 7);
		softmax_double(real, (size_t)c->depth, c->beta, p);
		for (int32_t i = 0; i < c->depth; i++) {
			const double want = fmin(p[i] * 256.0 - 128.0, 127.0);

			cr_expect(fabs(got[i] - want) <= 1.0,
				  "row %d element %d: got %d, want %.3f", r, i,
				  got[i], want);
		}
	}
}

/*
 * Bit-exact expectations, computed outside this project by a transcript
 * of TFLite's reference_ops::Softmax built on gemmlowp's own
 * fixedpoint.h (the same transcript agreed with this kernel on 1.5
 * million random elements).  One step off anywhere means the fixed-point
 * arithmetic drifted from TFLite's.
 */
struct int8_golden_case {
	float scale;
	float beta;
	int32_t depth;
	int8_t x[12];
	int8_t want[12];
};

ParameterizedTestParameters(softmax_int8, matches_tflite_bit_for_bit)
{
	static struct int8_golden_case cases[] = {
		{ 0.1f, 1.0f, 10,
		  { 20, 22, 25, 27, 30, 31, 33, 36, 40, 41 },
		  { -121, -119, -116, -114, -109, -107, -102, -93, -75, -70 } },
		{ 0.05f, 1.0f, 12,
		  { 5, 17, -3, 40, 41, 39, -90, 100, 99, 98, 0, 60 },
		  { -127, -127, -128, -124, -124, -124, -128, -47, -51, -55,
		    -127, -117 } },
		{ 1.0f / 16, 2.0f, 5,
		  { 10, 12, 14, 16, 18 },
		  { -99, -91, -80, -66, -49 } },
	};

	return cr_make_param_array(struct int8_golden_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct int8_golden_case *c, softmax_int8,
		  matches_tflite_bit_for_bit)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, c->depth), c->x, c->scale, 0);
	opver_tensor *out = int8_output(KH_DIMS(1, c->depth));

	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT8, c->beta, in, out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, c->want, (size_t)c->depth);
}

Test(softmax_int8, rejects_an_output_zero_point_other_than_minus_128)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				     NULL, 0.1f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				      NULL, 1.0f / 256.0f, 0);

	expect_rejected(softmax_node(SOFTMAX_INT8, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has scale 0.00390625 and zero point 0; INT8 SOFTMAX needs an output scale of 1/256 and zero point -128");
}

Test(softmax_int8, rejects_an_output_scale_other_than_1_over_256)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				     NULL, 0.1f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				      NULL, 1.0f / 255.0f, -128);

	expect_rejected(softmax_node(SOFTMAX_INT8, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"INT8 SOFTMAX needs an output scale of 1/256 and zero point -128");
}

Test(softmax_int8, accepts_an_output_scale_within_tflite_tolerance)
{
	/* TFLite allows 0.1% off 1/256. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 2),
				     (int8_t[]){ 1, 1 }, 0.1f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8, KH_DIMS(1, 2),
				      NULL, 1.0005f / 256.0f, -128);

	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT8, 1.0f, in, out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 0, 0 }, 2);
}

Test(softmax_int8, rejects_a_beta_too_small_for_fixed_point)
{
	/* 1e-8 x 1 x 2^26 = 0.67, not above 1 */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				     NULL, 1e-8f, 0);
	opver_tensor *out = int8_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT8, 1.0f, in, out),
			OPVER_ERROR_UNSUPPORTED,
			"INT8 SOFTMAX needs beta x input scale x 2^26 > 1");
}

Test(softmax_int8, rejects_the_default_beta_of_zero)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 4),
				     NULL, 0.1f, 0);
	opver_tensor *out = int8_output(KH_DIMS(1, 4));

	expect_rejected(kh_node(&h, kh_kernel(&h, SOFTMAX_INT8), 2, NULL, 0,
				KH_TENSORS(in), KH_TENSORS(out)),
			OPVER_ERROR_UNSUPPORTED, "beta 0 x input scale 0.1");
}

Test(softmax_int8, rejects_an_unquantized_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 4), NULL);
	opver_tensor *out = int8_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT8, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is not quantized");
}

/* ---------------------------------------------------------------- uint8 */

TestSuite(softmax_uint8, .init = setup, .fini = teardown);

static opver_tensor *uint8_output(int32_t rank, const int32_t *dims)
{
	return quantized("output", OPVER_TYPE_UINT8, rank, dims, NULL,
			 1.0f / 256.0f, 0);
}

/* softmax_int8's all_equal_rows at the uint8 output zero point 0: 256/n
 * steps, rounded; 1 (n = 1) is 256 steps, clamped to 255. */
ParameterizedTestParameters(softmax_uint8, all_equal_rows)
{
	static struct equal_case cases[] = {
		{ 1, 255 }, { 2, 128 },  { 3, 85 },   { 4, 64 },
		{ 5, 51 },  { 8, 32 },   { 10, 26 },  { 100, 3 },
		{ 256, 1 }, { 600, 0 },  { 5000, 0 },
	};

	return cr_make_param_array(struct equal_case, cases, COUNT(cases));
}

ParameterizedTest(struct equal_case *c, softmax_uint8, all_equal_rows)
{
	uint8_t *x = calloc((size_t)c->n, 1);
	opver_tensor *in, *out;

	cr_assert_not_null(x);
	for (int32_t i = 0; i < c->n; i++)
		x[i] = 200;
	in = quantized("input", OPVER_TYPE_UINT8, KH_DIMS(1, c->n), x, 0.1f,
		       3);
	free(x);
	out = uint8_output(KH_DIMS(1, c->n));
	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_UINT8, 1.0f, in, out)),
		     OPVER_OK, "%s", h.errors);
	for (int32_t i = 0; i < c->n; i++)
		cr_expect_eq(((uint8_t *)out->data)[i], c->want,
			     "n %d, element %d: got %d, want %d", c->n, i,
			     ((uint8_t *)out->data)[i], c->want);
}

/*
 * The uint8 kernel is the int8 kernel's arithmetic at another zero point:
 * rows of uint8 values x + 128 give the int8 outputs of rows x, + 128,
 * over the whole input range (differences from 0 to 255).
 */
Test(softmax_uint8, is_the_int8_arithmetic_shifted_by_128)
{
	enum { ROWS = 16, DEPTH = 24 };
	int8_t x[ROWS * DEPTH];
	uint8_t u[ROWS * DEPTH];
	uint32_t state = 7;
	opver_tensor *in8, *out8, *in_u, *out_u;

	for (size_t i = 0; i < COUNT(x); i++) {
		x[i] = (int8_t)next_int(&state, -128, 127);
		u[i] = (uint8_t)(x[i] + 128);
	}
	in8 = quantized("input", OPVER_TYPE_INT8, KH_DIMS(ROWS, DEPTH), x,
			0.0625f, -3);
	out8 = int8_output(KH_DIMS(ROWS, DEPTH));
	in_u = quantized("input", OPVER_TYPE_UINT8, KH_DIMS(ROWS, DEPTH), u,
			 0.0625f, 125);
	out_u = uint8_output(KH_DIMS(ROWS, DEPTH));
	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_INT8, 0.7f, in8, out8)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, softmax_node(SOFTMAX_UINT8, 0.7f, in_u,
					     out_u)),
		     OPVER_OK, "%s", h.errors);
	for (size_t i = 0; i < COUNT(x); i++)
		cr_expect_eq(((uint8_t *)out_u->data)[i],
			     ((int8_t *)out8->data)[i] + 128,
			     "element %zu: uint8 %d, int8 %d", i,
			     ((uint8_t *)out_u->data)[i],
			     ((int8_t *)out8->data)[i]);
}

Test(softmax_uint8, rejects_an_output_zero_point_other_than_0)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8, KH_DIMS(1, 4),
				     NULL, 0.1f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 4), NULL, 1.0f / 256.0f, 128);

	expect_rejected(softmax_node(SOFTMAX_UINT8, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"UINT8 SOFTMAX needs an output scale of 1/256 and zero point 0");
}
