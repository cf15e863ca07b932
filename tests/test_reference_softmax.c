/*
 * test_reference_softmax.c - the reference plugin's SOFTMAX kernels run
 * from the built reference.so through the kernel harness: float32 against
 * values worked out by hand; int8, int16, and int8 or uint8 to int16
 * against hand-derived cases (all-equal rows, dominated rows) and against
 * a double-precision softmax within a stated tolerance; the gemmlowp
 * fixed-point helpers against exact values and libm; what prepare rejects
 * and what it says.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "kernel_harness.h"
#include "../plugins/reference/fixed_point.h"

#define SOFTMAX_FLOAT32 "softmax_float32"
#define SOFTMAX_INT8 "softmax_int8"
#define SOFTMAX_INT16 "softmax_int16"
#define SOFTMAX_UINT8 "softmax_uint8"
#define SOFTMAX_INT8_INT16 "softmax_int8_int16"
#define SOFTMAX_UINT8_INT16 "softmax_uint8_int16"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

/* A SOFTMAX node for `kernel` with beta. */
static opver_node *softmax_node(const char *kernel, float beta,
				opver_tensor *input, opver_tensor *output)
{
	const opver_softmax_params params = { .beta = beta };

	return kh_node(&h, kh_kernel(&h, kernel), 1, &params, sizeof(params),
		       KH_TENSORS(input), KH_TENSORS(output));
}

static opver_tensor *quantized(const char *name, opver_type type,
			       int32_t rank, const int32_t *dims,
			       const void *data, float scale,
			       int64_t zero_point)
{
	opver_tensor *t = kh_tensor(&h, name, type, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

/* Prepare fails with `status` and exactly one message containing `text`. */
static void expect_rejected(opver_node *node, opver_status status,
			    const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

static void expect_int8s(const opver_tensor *tensor, const int8_t *want,
			 size_t count)
{
	const int8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

static void expect_int16s(const int16_t *got, const int16_t *want,
			  size_t count)
{
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

/* exp(beta * (x - max)) / sum, in double, of one row. */
static void softmax_double(const double *x, size_t depth, double beta,
			   double *p)
{
	double max = -INFINITY, sum = 0.0;

	for (size_t c = 0; c < depth; c++)
		max = fmax(max, x[c]);
	for (size_t c = 0; c < depth; c++)
		sum += exp(beta * (x[c] - max));
	for (size_t c = 0; c < depth; c++)
		p[c] = exp(beta * (x[c] - max)) / sum;
}

/* Deterministic pseudo-random integers in [low, high]. */
static int32_t next_int(uint32_t *state, int32_t low, int32_t high)
{
	*state = *state * 1664525u + 1013904223u;
	return low + (int32_t)((*state >> 8) % (uint32_t)(high - low + 1));
}

/* ------------------------------------------------- fixed-point helpers */

Test(fixed_point, count_leading_zeros)
{
	cr_expect_eq(ref_count_leading_zeros(0), 32);
	cr_expect_eq(ref_count_leading_zeros(1), 31);
	cr_expect_eq(ref_count_leading_zeros(0x00080000u), 12);
	cr_expect_eq(ref_count_leading_zeros(0x80000000u), 0);
	cr_expect_eq(ref_count_leading_zeros(0xffffffffu), 0);
}

Test(fixed_point, saturating_shift_left)
{
	/* 3 * 2^5 */
	cr_expect_eq(ref_saturating_shift_left(3, 5), 96);
	cr_expect_eq(ref_saturating_shift_left(-3, 5), -96);
	/* threshold for exponent 5 is 2^26 - 1: it still fits */
	cr_expect_eq(ref_saturating_shift_left((1 << 26) - 1, 5),
		     INT32_MAX - 31);
	cr_expect_eq(ref_saturating_shift_left(1 << 26, 5), INT32_MAX);
	/* gemmlowp saturates -2^26 too, though -2^31 would fit */
	cr_expect_eq(ref_saturating_shift_left(-(1 << 26), 5), INT32_MIN);
	cr_expect_eq(ref_saturating_shift_left(INT32_MIN, 1), INT32_MIN);
}

Test(fixed_point, rounding_half_sum)
{
	cr_expect_eq(ref_rounding_half_sum(1, 2), 2);   /* 1.5 */
	cr_expect_eq(ref_rounding_half_sum(-1, -2), -2); /* -1.5 */
	cr_expect_eq(ref_rounding_half_sum(4, 6), 5);
	cr_expect_eq(ref_rounding_half_sum(0, INT32_MAX), 1 << 30);
	cr_expect_eq(ref_rounding_half_sum(INT32_MAX, INT32_MAX), INT32_MAX);
	cr_expect_eq(ref_rounding_half_sum(INT32_MIN, INT32_MIN), INT32_MIN);
}

/*
 * gemmlowp's exp is accurate to a few units of 2^-31 over most of its
 * range, 2.3e-7 at worst (measured over [-31, 0]); 3e-7 bounds it.
 */
ParameterizedTestParameters(fixed_point, exp_on_negative_q5_26)
{
	static double points[] = { 0.0,   -0.125, -0.25, -0.3,   -1.0,
				   -2.5,  -4.0,   -7.75, -16.0,  -20.0,
				   -31.0, -31.99 };

	return cr_make_param_array(double, points, COUNT(points));
}

ParameterizedTest(double *x, fixed_point, exp_on_negative_q5_26)
{
	const int32_t a = (int32_t)lround(*x * 67108864.0); /* 2^26 */
	const double got = ref_exp_on_negative_q5_26(a) / 2147483648.0;

	cr_expect(fabs(got - exp(*x)) < 3e-7, "exp(%g): got %.9g, want %.9g",
		  *x, got, exp(*x));
}

Test(fixed_point, exp_of_zero_is_one)
{
	cr_expect_eq(ref_exp_on_negative_q5_26(0), INT32_MAX);
}

/* 1 / (1 + a) to within 1e-8 (measured 3.1e-9 over [0, 1)). */
ParameterizedTestParameters(fixed_point, one_over_one_plus_x)
{
	static double points[] = { 0.0, 0.001, 0.25, 0.5, 0.75, 0.999 };

	return cr_make_param_array(double, points, COUNT(points));
}

ParameterizedTest(double *x, fixed_point, one_over_one_plus_x)
{
	const int32_t a = (int32_t)lround(*x * 2147483648.0);
	const double got = ref_one_over_one_plus_x(a) / 2147483648.0;

	cr_expect(fabs(got - 1.0 / (1.0 + *x)) < 1e-8,
		  "1/(1 + %g): got %.10g", *x, got);
}

Test(fixed_point, reciprocal)
{
	int bits;
	/* 3 in Q12.19 is 3 * 2^19: scaled into [1, 2) it is 1.5 = 3 / 2^1,
	 * and 1 / 1.5 = 2/3. */
	int32_t got = ref_reciprocal(3 << 19, 12, &bits);

	cr_expect_eq(bits, 1);
	cr_expect(fabs(got / 2147483648.0 - 2.0 / 3.0) < 1e-8, "got %d", got);
	/* 1 is already in [1, 2): no bits over the unit, reciprocal ~1 */
	got = ref_reciprocal(1 << 19, 12, &bits);
	cr_expect_eq(bits, 0);
	cr_expect(got >= INT32_MAX - 1, "got %d", got);
	/* 0.25 in Q12.19 is 1 / 2^2: bits_over_unit -2 */
	got = ref_reciprocal(1 << 17, 12, &bits);
	cr_expect_eq(bits, -2);
	cr_expect(got >= INT32_MAX - 1, "got %d", got);
}

/* -------------------------------------------------------------- float32 */

TestSuite(softmax_float32, .init = setup, .fini = teardown);

static void expect_floats_near(const opver_tensor *tensor, const float *want,
			       size_t count, double tolerance)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(fabs((double)got[i] - (double)want[i]) <= tolerance,
			  "element %zu: got %.9g, want %.9g", i,
			  (double)got[i], (double)want[i]);
}

/*
 * x = (1, 2, 3), beta 1: exps e^-2, e^-1, 1 = 0.135335283, 0.367879441,
 * 1; sum 1.503214724; softmax 0.090030573, 0.244728471, 0.665240956.
 * Halving beta on doubled inputs gives the same.
 */
struct float_case {
	float beta;
	float x[3];
};

ParameterizedTestParameters(softmax_float32, hand_computed)
{
	static struct float_case cases[] = {
		{ 1.0f, { 1, 2, 3 } },
		{ 0.5f, { 2, 4, 6 } },
		{ 1.0f, { 1001, 1002, 1003 } }, /* the max keeps exp finite */
		{ 0.5f, { -6, -4, -2 } },
	};

	return cr_make_param_array(struct float_case, cases, COUNT(cases));
}

ParameterizedTest(struct float_case *c, softmax_float32, hand_computed)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), c->x);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 3), NULL);
	opver_node *node = softmax_node(SOFTMAX_FLOAT32, c->beta, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out,
			   (float[]){ 0.090030573f, 0.244728471f,
				      0.665240956f },
			   3, 3e-7);
}

Test(softmax_float32, rows_are_independent_along_the_last_dimension)
{
	/* [2, 2, 2]: rows (0, 0), (5, 5), (0, ln 3), (-1, 1e9).
	 * (0, ln 3): exps 1 and 3, so 1/4 and 3/4. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2, 2),
				     (float[]){ 0, 0, 5, 5, 0, logf(3.0f), -1,
						1e9f });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2, 2), NULL);
	opver_node *node = softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out,
			   (float[]){ 0.5f, 0.5f, 0.5f, 0.5f, 0.25f, 0.75f, 0,
				      1 },
			   8, 3e-7);
}

Test(softmax_float32, beta_zero_is_uniform)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(4), (float[]){ -3, 0, 8, 100 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);
	/* No params at all: beta is the schema's default, 0. */
	opver_node *node = kh_node(&h, kh_kernel(&h, SOFTMAX_FLOAT32), 1,
				   NULL, 0, KH_TENSORS(in), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.25f, 0.25f, 0.25f, 0.25f }, 4,
			   0);
}

Test(softmax_float32, single_element_rows_are_one)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3, 1), (float[]){ -7, 0, 42 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 1), NULL);
	opver_node *node = softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 1, 1, 1 }, 3, 0);
}

/* ----------------------------------------------------------------- int8 */

TestSuite(softmax_int8, .init = setup, .fini = teardown);

static opver_tensor *int8_output(int32_t rank, const int32_t *dims)
{
	return quantized("output", OPVER_TYPE_INT8, rank, dims, NULL,
			 1.0f / 256.0f, -128);
}

/* A row of n equal values has probabilities 1/n: 256/n steps above the
 * zero point -128, rounded; 1 (n = 1) is 256 steps, clamped to 127. */
struct equal_case {
	int32_t n;
	int32_t want;
};

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

struct quantized_case {
	float scale;
	float beta;
	int32_t depth;
};

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

/* ---------------------------------------------------------------- int16 */

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

/* ------------------------------------------------------ shared checks */

TestSuite(softmax_prepare, .init = setup, .fini = teardown);

Test(softmax_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 4), NULL);
	opver_tensor *out = int8_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT8, 1.0f, in, out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' has type FLOAT32; this kernel takes INT8");
}

Test(softmax_prepare, rejects_a_different_output_shape)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);

	expect_rejected(softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' must have the shape of input 'input'");
}

Test(softmax_prepare, rejects_a_scalar)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, 0, NULL,
				     (float[]){ 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32, 0,
				      NULL, NULL);

	expect_rejected(softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is a scalar; SOFTMAX needs rank 1 or more");
}

Test(softmax_prepare, rejects_a_non_finite_beta)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(4), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);

	expect_rejected(softmax_node(SOFTMAX_FLOAT32, NAN, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"beta is nan; it must be finite");
}

Test(softmax_prepare, rejects_two_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(4), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);
	const opver_softmax_params params = { .beta = 1.0f };

	expect_rejected(kh_node(&h, kh_kernel(&h, SOFTMAX_FLOAT32), 1, &params,
				sizeof(params), KH_TENSORS(in, in),
				KH_TENSORS(out)),
			OPVER_ERROR_INVALID_MODEL,
			"has 2 inputs and 1 outputs; SOFTMAX takes one input and one output");
}

/* Every kernel covers versions 1 to 3: each version adds only a type. */
Test(softmax_prepare, kernels_cover_versions_1_to_3)
{
	static const char *names[] = { SOFTMAX_FLOAT32, SOFTMAX_INT8,
				       SOFTMAX_INT16, SOFTMAX_UINT8,
				       SOFTMAX_INT8_INT16,
				       SOFTMAX_UINT8_INT16 };

	for (size_t i = 0; i < COUNT(names); i++) {
		const opver_kernel *k = kh_kernel(&h, names[i]);

		cr_expect_eq(k->op, OPVER_OP_SOFTMAX, "%s", names[i]);
		cr_expect_eq(k->min_version, 1, "%s", names[i]);
		cr_expect_eq(k->max_version, 3, "%s", names[i]);
	}
}
