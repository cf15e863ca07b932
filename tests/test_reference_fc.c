/*
 * test_reference_fc.c - the reference plugin's FULLY_CONNECTED kernels run
 * from the built reference.so through the kernel harness, checked against
 * values worked out by hand; TFLite's quantized arithmetic helpers on edge
 * cases; what prepare rejects and what it says; and the plugin's descriptor
 * and exported symbols.
 */
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "kernel_harness.h"
#include "../plugins/reference/quantization.h"

#define FC_FLOAT32 "fully_connected_float32"
#define FC_INT8 "fully_connected_int8"
#define FC_HYBRID "fully_connected_hybrid"
#define FC_UINT8 "fully_connected_uint8"
#define FC_INT16X8 "fully_connected_int16x8"
#define FC_UINT8_INT16 "fully_connected_uint8_int16"
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

static opver_fully_connected_params fc_params(opver_activation activation)
{
	return (opver_fully_connected_params){ .activation = activation };
}

/* A FULLY_CONNECTED node with the full current params struct. */
static opver_node *fc_node(const char *kernel, int32_t version,
			   const opver_fully_connected_params *params,
			   int32_t num_inputs, opver_tensor *const *inputs,
			   opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, params,
		       sizeof(*params), num_inputs, inputs, KH_TENSORS(output));
}

static void expect_floats(const opver_tensor *tensor, const float *want,
			  size_t count)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(got[i] == want[i],
			  "element %zu: got %.9g, want %.9g", i,
			  (double)got[i], (double)want[i]);
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

/* Prepare fails with `status` and exactly one message containing `text`. */
static void expect_rejected(opver_node *node, opver_status status,
			    const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

/* ------------------------------------------------- quantized arithmetic */

struct multiplier_case {
	double real;
	int32_t multiplier;
	int shift;
};

ParameterizedTestParameters(quantization, quantize_multiplier)
{
	static struct multiplier_case cases[] = {
		{ 0.5, 1 << 30, 0 },      /* 0.5 * 2^0 */
		{ 0.25, 1 << 30, -1 },    /* 0.5 * 2^-1 */
		{ 1.0, 1 << 30, 1 },      /* 0.5 * 2^1 */
		{ 1.5, 1610612736, 1 },   /* 0.75 * 2^31 = 1610612736 */
		{ 3.0, 1610612736, 2 },   /* 0.75 * 2^2 */
		{ 0.1, 1717986918, -3 },  /* 0.8 * 2^31 = 1717986918.4 */
		/* 128/255 * 2^31 = 1077952576.25 */
		{ 1.0 / 255.0, 1077952576, -7 },
		/* the fraction rounds up to 2^31: halve it, one more shift */
		{ 1.0 - 0x1p-40, 1 << 30, 1 },
		{ 0x1p-32, 1 << 30, -31 }, /* the smallest kept */
		{ 0x1p-33, 0, 0 },         /* shift -32: flushed to zero */
		{ 1e-12, 0, 0 },
		{ 0.0, 0, 0 },
	};

	return cr_make_param_array(struct multiplier_case, cases, COUNT(cases));
}

ParameterizedTest(struct multiplier_case *c, quantization, quantize_multiplier)
{
	int32_t multiplier = -1;
	int shift = -99;

	ref_quantize_multiplier(c->real, &multiplier, &shift);
	cr_expect_eq(multiplier, c->multiplier, "%g: multiplier %d, want %d",
		     c->real, multiplier, c->multiplier);
	cr_expect_eq(shift, c->shift, "%g: shift %d, want %d", c->real, shift,
		     c->shift);
}

/* Infinity and NaN have no multiplier; converting frexp's infinite
 * fraction to an integer would be undefined (ref_quantize_rescale()
 * rejects such factors in prepare). */
Test(quantization, quantize_multiplier_of_a_non_finite_factor_is_zero)
{
	const double reals[] = { INFINITY, -INFINITY, NAN };

	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++) {
		int32_t multiplier = -1;
		int shift = -99;

		ref_quantize_multiplier(reals[i], &multiplier, &shift);
		cr_expect(multiplier == 0 && shift == 0,
			  "%g: multiplier %d, shift %d", reals[i], multiplier,
			  shift);
	}
}

Test(quantization, saturating_rounding_doubling_high_mul)
{
	/* The one product that overflows saturates. */
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(INT32_MIN,
							       INT32_MIN),
		     INT32_MAX);
	/* 2^30 * 2^30 * 2 / 2^32 = 2^29 */
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(1 << 30,
							       1 << 30),
		     1 << 29);
	/* (2^31 - 1)^2 / 2^31 = 2147483646.0000000005 */
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(INT32_MAX,
							       INT32_MAX),
		     2147483646);
	/* -2^31 * (2^31 - 1) / 2^31 = -2147483647 exactly */
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(INT32_MIN,
							       INT32_MAX),
		     -2147483647);
	/* Ties go toward +infinity: 0.5 -> 1, -0.5 -> 0, -1.5 -> -1. */
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(1, 1 << 30), 1);
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(-1, 1 << 30), 0);
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(-3, 1 << 30),
		     -1);
	/* 12 * 0.5 = 6, no rounding */
	cr_expect_eq(ref_saturating_rounding_doubling_high_mul(12, 1 << 30), 6);
}

struct divide_case {
	int32_t x;
	int exponent;
	int32_t expected;
};

ParameterizedTestParameters(quantization, rounding_divide_by_pot)
{
	static struct divide_case cases[] = {
		{ 5, 1, 3 },     /* 2.5: tie away from zero */
		{ -5, 1, -3 },   /* -2.5: tie away from zero */
		{ 3, 1, 2 },     /* 1.5 */
		{ -3, 1, -2 },   /* -1.5 */
		{ -4, 1, -2 },   /* exact */
		{ 6, 2, 2 },     /* 1.5 */
		{ -6, 2, -2 },   /* -1.5 */
		{ 7, 2, 2 },     /* 1.75 */
		{ -5, 2, -1 },   /* -1.25 */
		{ -7, 2, -2 },   /* -1.75 */
		{ 12345, 0, 12345 },
		{ -12345, 0, -12345 },
		{ INT32_MAX, 31, 1 },  /* 0.99999... */
		{ INT32_MIN, 31, -1 }, /* exact */
		{ -1, 31, 0 },
		{ 1 << 30, 31, 1 },    /* 0.5: tie away from zero */
		{ -(1 << 30), 31, -1 }, /* -0.5: tie away from zero */
	};

	return cr_make_param_array(struct divide_case, cases, COUNT(cases));
}

ParameterizedTest(struct divide_case *c, quantization, rounding_divide_by_pot)
{
	const int32_t got = ref_rounding_divide_by_pot(c->x, c->exponent);

	cr_expect_eq(got, c->expected, "%d / 2^%d: got %d, want %d", c->x,
		     c->exponent, got, c->expected);
}

Test(quantization, multiply_by_quantized_multiplier)
{
	cr_expect_eq(ref_multiply_by_quantized_multiplier(100, 1 << 30, 0), 50);
	cr_expect_eq(ref_multiply_by_quantized_multiplier(100, 1 << 30, -1),
		     25);
	cr_expect_eq(ref_multiply_by_quantized_multiplier(100, 1 << 30, 1),
		     100);
	/* 3 * 0.75 * 2^2 = 9, through a left shift */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(3, 1610612736, 2), 9);
	/* TFLite rounds twice: 5 * 0.25 is 1.25, but the high multiply
	 * rounds 2.5 up to 3 and the divide rounds 1.5 away to 2. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(5, 1 << 30, -1), 2);
	/* -6 * 0.25: -3.5 -> -3, then -1.5 -> -2 */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(-6, 1 << 30, -1),
		     -2);
	/* A left shift wraps as TFLite's int32 arithmetic does:
	 * (2^31 - 1) << 1 is -2, times 0.5 rounds to -1. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(INT32_MAX, 1 << 30,
							  1),
		     -1);
}

struct range_case {
	opver_activation activation;
	float scale;
	int32_t zero_point;
	int32_t min, max;
};

ParameterizedTestParameters(quantization, activation_range_int8)
{
	static struct range_case cases[] = {
		{ OPVER_ACTIVATION_NONE, 0.5f, -10, -128, 127 },
		/* 0 -> -10 */
		{ OPVER_ACTIVATION_RELU, 0.5f, -10, -10, 127 },
		/* 0 -> -10, 6 -> -10 + 12 */
		{ OPVER_ACTIVATION_RELU6, 0.5f, -10, -10, 2 },
		/* -1 -> -10 - 2, 1 -> -10 + 2 */
		{ OPVER_ACTIVATION_RELU_N1_TO_1, 0.5f, -10, -12, -8 },
		/* 6 -> 100 + 600, clipped to the type */
		{ OPVER_ACTIVATION_RELU6, 0.01f, 100, 100, 127 },
		/* -1 -> -1000 and 1 -> 1000, both clipped */
		{ OPVER_ACTIVATION_RELU_N1_TO_1, 0.001f, 0, -128, 127 },
		/* 6 / 0.4 = 15.000001 in float, rounds to 15 */
		{ OPVER_ACTIVATION_RELU6, 0.4f, 0, 0, 15 },
		/* 1 / 0.3 = 3.33 -> 3; -1 -> -3 */
		{ OPVER_ACTIVATION_RELU_N1_TO_1, 0.3f, 5, 2, 8 },
	};

	return cr_make_param_array(struct range_case, cases, COUNT(cases));
}

ParameterizedTest(struct range_case *c, quantization, activation_range_int8)
{
	int32_t min = 0, max = 0;

	cr_assert(ref_activation_range_quantized(c->activation, INT8_MIN,
						 INT8_MAX, c->scale,
						 c->zero_point, &min, &max));
	cr_expect_eq(min, c->min, "activation %d: min %d, want %d",
		     c->activation, min, c->min);
	cr_expect_eq(max, c->max, "activation %d: max %d, want %d",
		     c->activation, max, c->max);
}

Test(quantization, activation_range_fails_when_a_bound_overflows_int32)
{
	int32_t min, max;

	/* RELU's only bound, 0, always fits. */
	cr_expect(ref_activation_range_quantized(OPVER_ACTIVATION_RELU,
						 INT8_MIN, INT8_MAX, 1e-12f, 0,
						 &min, &max));
	/* 6 / 1e-12 does not. */
	cr_expect_not(ref_activation_range_quantized(OPVER_ACTIVATION_RELU6,
						     INT8_MIN, INT8_MAX,
						     1e-12f, 0, &min, &max));
}

Test(quantization, activation_range_float)
{
	float min, max;

	ref_activation_range_float(OPVER_ACTIVATION_NONE, &min, &max);
	cr_expect(min == -FLT_MAX && max == FLT_MAX);
	ref_activation_range_float(OPVER_ACTIVATION_RELU, &min, &max);
	cr_expect(min == 0.0f && max == FLT_MAX);
	ref_activation_range_float(OPVER_ACTIVATION_RELU_N1_TO_1, &min, &max);
	cr_expect(min == -1.0f && max == 1.0f);
	ref_activation_range_float(OPVER_ACTIVATION_RELU6, &min, &max);
	cr_expect(min == 0.0f && max == 6.0f);
}

Test(quantization, only_clamp_activations_are_fused)
{
	cr_expect(ref_activation_is_clamp(OPVER_ACTIVATION_NONE));
	cr_expect(ref_activation_is_clamp(OPVER_ACTIVATION_RELU));
	cr_expect(ref_activation_is_clamp(OPVER_ACTIVATION_RELU_N1_TO_1));
	cr_expect(ref_activation_is_clamp(OPVER_ACTIVATION_RELU6));
	cr_expect_not(ref_activation_is_clamp(OPVER_ACTIVATION_TANH));
	cr_expect_not(ref_activation_is_clamp(OPVER_ACTIVATION_SIGN_BIT));
	cr_expect_not(ref_activation_is_clamp((opver_activation)42));
}

Test(quantization, clamps)
{
	cr_expect(ref_clamp_float(7.0f, 0.0f, 6.0f) == 6.0f);
	cr_expect(ref_clamp_float(-7.0f, -1.0f, 1.0f) == -1.0f);
	cr_expect(ref_clamp_float(0.5f, -1.0f, 1.0f) == 0.5f);
	cr_expect(isnan(ref_clamp_float(NAN, 0.0f, 6.0f)),
		  "a NaN passes through, as in TFLite");
	cr_expect_eq(ref_clamp_int32(200, -128, 127), 127);
	cr_expect_eq(ref_clamp_int32(-200, -128, 127), -128);
	cr_expect_eq(ref_clamp_int32(5, -128, 127), 5);
}

Test(quantization, type_ranges)
{
	int32_t min, max;

	cr_expect(ref_type_range(OPVER_TYPE_INT8, &min, &max) && min == -128 &&
		  max == 127);
	cr_expect(ref_type_range(OPVER_TYPE_UINT8, &min, &max) && min == 0 &&
		  max == 255);
	cr_expect(ref_type_range(OPVER_TYPE_INT16, &min, &max) &&
		  min == -32768 && max == 32767);
	cr_expect(ref_type_range(OPVER_TYPE_INT32, &min, &max) &&
		  min == INT32_MIN && max == INT32_MAX);
	cr_expect_not(ref_type_range(OPVER_TYPE_FLOAT32, &min, &max));
}

/* -------------------------------------------------------------- float32 */

TestSuite(fc_float32, .init = setup, .fini = teardown);

/* weights [2, 3]: unit 0 is (1, 0, -1), unit 1 is (2, 1, 0.5) */
static const float weights_2x3[] = { 1, 0, -1, 2, 1, 0.5f };

Test(fc_float32, without_bias_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_FLOAT32, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* 1 - 3 = -2; 2 + 2 + 1.5 = 5.5 */
	expect_floats(out, (float[]){ -2, 5.5f }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(fc_float32, with_omitted_bias)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node =
		fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, NULL), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ -2, 5.5f }, 2);
}

Test(fc_float32, with_bias)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.5f, -1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node =
		fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* -2 + 0.5; 5.5 - 1 */
	expect_floats(out, (float[]){ -1.5f, 4.5f }, 2);
}

Test(fc_float32, batches)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3, 2),
				     (float[]){ 1, 2, 3, 4, -1, 0.5f });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 2), (float[]){ 1, 1, 1, -1 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0, 10 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node =
		fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* rows: (1+2, 1-2+10), (3+4, 3-4+10), (-1+0.5, -1-0.5+10) */
	expect_floats(out, (float[]){ 3, 9, 7, 9, -0.5f, 8.5f }, 6);
}

Test(fc_float32, flattens_higher_rank_input)
{
	/* [1, 2, 2, 3] is 4 rows of depth 3 */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 2, 3),
				     (float[]){ 1, 2, 3, 0, 0, 1, 2, 0, 0, 4,
						4, 4 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_FLOAT32, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* (1,2,3) -> (-2, 5.5); (0,0,1) -> (-1, 0.5); (2,0,0) -> (2, 4);
	 * (4,4,4) -> (0, 14) */
	expect_floats(out, (float[]){ -2, 5.5f, -1, 0.5f, 2, 4, 0, 14 }, 8);
}

Test(fc_float32, keep_num_dims)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2, 3),
				     (float[]){ 1, 2, 3, 0, 0, 1, 2, 0, 0, 4,
						4, 4 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2, 2), NULL);
	opver_fully_connected_params p = { .keep_num_dims = 1 };
	opver_node *node = fc_node(FC_FLOAT32, 5, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ -2, 5.5f, -1, 0.5f, 2, 4, 0, 14 }, 8);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(fc_float32, activations)
{
	/* Unit outputs before the activation: -2.5, -0.5, 0.5, 3, 7. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, fc_float32, activations)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 1 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(5, 1),
				    (float[]){ -2.5f, -0.5f, 0.5f, 3, 7 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 5), NULL);
	opver_fully_connected_params p = fc_params(c->activation);
	opver_node *node = fc_node(FC_FLOAT32, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, c->expected, 5);
}

struct fc_shape_case {
	int32_t batches, depth, units;
	bool bias;
};

ParameterizedTestParameters(fc_float32, shapes)
{
	static struct fc_shape_case cases[] = {
		{ 1, 1, 1, false },   { 1, 1, 1, true },   { 1, 5, 3, true },
		{ 3, 7, 4, false },   { 4, 16, 33, true }, { 2, 64, 1, true },
		{ 5, 3, 17, false },  { 0, 4, 2, true },
	};

	return cr_make_param_array(struct fc_shape_case, cases, COUNT(cases));
}

/* Small integers make every product and sum exact in float, so the result
 * can be checked against a plain double computation. */
ParameterizedTest(struct fc_shape_case *c, fc_float32, shapes)
{
	const size_t n_in = (size_t)c->batches * (size_t)c->depth;
	const size_t n_w = (size_t)c->units * (size_t)c->depth;
	float input[256], weights[1024], bias[64], expected[256];
	opver_tensor *in, *w, *b, *out;
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	cr_assert(n_in <= COUNT(input) && n_w <= COUNT(weights) &&
		  (size_t)c->units <= COUNT(bias) &&
		  (size_t)c->batches * (size_t)c->units <= COUNT(expected));
	for (size_t i = 0; i < n_in; i++)
		input[i] = (float)((int)(i * 7 % 11) - 5);
	for (size_t i = 0; i < n_w; i++)
		weights[i] = (float)((int)(i * 5 % 9) - 4);
	for (int32_t u = 0; u < c->units; u++)
		bias[u] = c->bias ? (float)(u % 3 - 1) : 0.0f;
	for (int32_t r = 0; r < c->batches; r++) {
		for (int32_t u = 0; u < c->units; u++) {
			double sum = bias[u];

			for (int32_t d = 0; d < c->depth; d++)
				sum += (double)input[r * c->depth + d] *
				       weights[u * c->depth + d];
			expected[r * c->units + u] = (float)sum;
		}
	}
	in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
		       KH_DIMS(c->batches, c->depth), input);
	w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
		      KH_DIMS(c->units, c->depth), weights);
	b = c->bias ? kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32,
				KH_DIMS(c->units), bias)
		    : NULL;
	out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
			KH_DIMS(c->batches, c->units), NULL);
	node = fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, expected, (size_t)c->batches * (size_t)c->units);
}

/* A core built before keep_num_dims fills only the prefix it knows; the
 * harness copies exactly that many bytes, so reading further would be
 * caught, and the fields left out must act as their defaults. */
Test(fc_float32, reads_only_the_filled_params_prefix)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 1 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 1), (float[]){ -3, 8 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = {
		.activation = OPVER_ACTIVATION_RELU6,
		.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8,
		.keep_num_dims = 1,
	};
	opver_node *node =
		kh_node(&h, kh_kernel(&h, FC_FLOAT32), 1, &p,
			offsetof(opver_fully_connected_params, weights_format),
			KH_TENSORS(in, w), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 0, 6 }, 2);
}

Test(fc_float32, without_params_uses_defaults)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 1 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 1), (float[]){ -3, 8 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_node *node = kh_node(&h, kh_kernel(&h, FC_FLOAT32), 1, NULL, 0,
				   KH_TENSORS(in, w), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ -3, 8 }, 2);
}

/* Stateless: one kernel serves nodes of different shapes, each keeping what
 * it prepared in its own op_data. */
Test(fc_float32, nodes_keep_their_own_op_data)
{
	opver_tensor *in1 = kh_tensor(&h, "in1", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w1 = kh_tensor(&h, "w1", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out1 = kh_tensor(&h, "out1", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1, 2), NULL);
	opver_tensor *in2 = kh_tensor(&h, "in2", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 1), (float[]){ 2, -2 });
	opver_tensor *w2 = kh_tensor(&h, "w2", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 3 });
	opver_tensor *out2 = kh_tensor(&h, "out2", OPVER_TYPE_FLOAT32,
				       KH_DIMS(2, 1), NULL);
	opver_fully_connected_params none = fc_params(OPVER_ACTIVATION_NONE);
	opver_fully_connected_params relu = fc_params(OPVER_ACTIVATION_RELU);
	opver_node *n1 =
		fc_node(FC_FLOAT32, 6, &none, KH_TENSORS(in1, w1), out1);
	opver_node *n2 =
		fc_node(FC_FLOAT32, 6, &relu, KH_TENSORS(in2, w2), out2);

	cr_assert_eq(kh_prepare(&h, n1), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_prepare(&h, n2), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_invoke(&h, n1), OPVER_OK);
	cr_assert_eq(kh_invoke(&h, n2), OPVER_OK);
	expect_floats(out1, (float[]){ -2, 5.5f }, 2);
	expect_floats(out2, (float[]){ 6, 0 }, 2);
}

/* ----------------------------------------------------------------- int8 */

TestSuite(fc_int8, .init = setup, .fini = teardown);

static opver_tensor *int8_tensor(const char *name, int32_t rank,
				 const int32_t *dims, const int8_t *data,
				 float scale, int64_t zero_point)
{
	opver_tensor *t =
		kh_tensor(&h, name, OPVER_TYPE_INT8, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

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

/* --------------------------------------------------------------- hybrid */

TestSuite(fc_uint8, .init = setup, .fini = teardown);

static opver_tensor *uint8_tensor(const char *name, int32_t rank,
				  const int32_t *dims, const uint8_t *data,
				  float scale, int64_t zero_point)
{
	opver_tensor *t =
		kh_tensor(&h, name, OPVER_TYPE_UINT8, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

static void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
			  size_t count)
{
	const uint8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

Test(fc_uint8, zero_points_and_bias)
{
	/*
	 * fc_int8's nonzero_zero_points_and_bias, every value shifted by
	 * 128 and every zero point with it: input zero point 127, weights
	 * 130, output 131.  Same sums (12, 24), same outputs + 128.
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 3),
					(uint8_t[]){ 129, 131, 127 }, 0.5f,
					127);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 3),
				       (uint8_t[]){ 134, 130, 126, 138, 134,
						    132 },
				       0.25f, 130);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 4, -8 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f,
					 131);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize(&h, b, 0.125f, 0);
	node = fc_node(FC_UINT8, 1, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 133, 134 }, 2);
}

Test(fc_uint8, saturates_and_clamps_to_the_activation)
{
	/*
	 * Scales 1; input (255, 1) at zero point 0, weights (2, 0) and
	 * (0, 0) at zero point 1, so (1, -1) and (-1, -1): sums 254 and
	 * -256, plus the output zero point 10: 264 and -246, clamped to
	 * 255 and 0 by the type.  RELU6 at output scale 1: [10, 16].
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 2),
					(uint8_t[]){ 255, 1 }, 1.0f, 0);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 2),
				       (uint8_t[]){ 2, 0, 0, 0 }, 1.0f, 1);
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f,
					 10);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	node = fc_node(FC_UINT8, 6, &p, KH_TENSORS(in, w), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 255, 0 }, 2);
	p.activation = OPVER_ACTIVATION_RELU6;
	node = fc_node(FC_UINT8, 6, &p, KH_TENSORS(in, w), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 16, 10 }, 2);
}

Test(fc_uint8, rejects_per_channel_weights)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1),
					(uint8_t[]){ 1 }, 1.0f, 0);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_UINT8,
				    KH_DIMS(2, 1), (uint8_t[]){ 1, 2 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f,
					 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	kh_quantize_per_channel(&h, w, 0, 2, (float[]){ 1.0f, 2.0f },
				(int64_t[]){ 0, 0 });
	expect_rejected(fc_node(FC_UINT8, 6, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_UNSUPPORTED, "weights");
}

/*
 * TFLite's legacy int16 output of uint8 input: fc_uint8's
 * zero_points_and_bias sums (12, 24; input x weights scale 0.125) at
 * output scale 2^-10, zero point 0: rescale 128, exactly 1536 and 3072.
 * At 2^-14 (rescale 2048) 24576 and 49152, clamped to 32767; RELU_N1_TO_1
 * at 2^-10 clamps both to 1024.
 */
Test(fc_uint8, int16_output)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 3),
					(uint8_t[]){ 129, 131, 127 }, 0.5f,
					127);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 3),
				       (uint8_t[]){ 134, 130, 126, 138, 134,
						    132 },
				       0.25f, 130);
	opver_tensor *b = kh_quantized(&h, "bias", OPVER_TYPE_INT32,
				       KH_DIMS(2), (int32_t[]){ 4, -8 },
				       0.125f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(1, 2), NULL, 0x1p-10f, 0);
	opver_tensor *fine = kh_quantized(&h, "fine", OPVER_TYPE_INT16,
					  KH_DIMS(1, 2), NULL, 0x1p-14f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	node = fc_node(FC_UINT8_INT16, 1, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 1536, 3072 }, 2);
	node = fc_node(FC_UINT8_INT16, 1, &p, KH_TENSORS(in, w, b), fine);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(fine, (int16_t[]){ 24576, 32767 }, 2);
	p.activation = OPVER_ACTIVATION_RELU_N1_TO_1;
	node = fc_node(FC_UINT8_INT16, 1, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 1024, 1024 }, 2);
}

Test(fc_uint8, rejects_an_int16_output_zero_point)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1),
					(uint8_t[]){ 1 }, 1.0f, 0);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 1),
				       (uint8_t[]){ 1, 2 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(1, 2), NULL, 1.0f, 5);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_UINT8_INT16, 6, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_INVALID_MODEL,
			"an int16 output of uint8 input must have zero point 0");
}

TestSuite(fc_hybrid, .init = setup, .fini = teardown);

/*
 * The row (1, -2, 0.5) quantized symmetrically: scale max|x| / 127 =
 * 2 / 127, q = round(x * 63.5) = (64, -127, 32) (63.5 rounds away from
 * zero).  Weights q (2, 1, -4) and (0, 3, 1) (reals at scale 0.5:
 * (1, 0.5, -2) and (0, 1.5, 0.5)) give int32 sums
 *   unit 0: 128 - 127 - 128 = -127   (real 1 - 1 - 1 = -1)
 *   unit 1: 0 - 381 + 32 = -349      (real -3 + 0.25 = -2.75)
 * and TFLite's result bias + sum * (row scale * weights scale), each
 * product rounded to float.
 */
static const float hybrid_row[] = { 1, -2, 0.5f };
static const int8_t hybrid_weights[] = { 2, 1, -4, 0, 3, 1 };

/* Separate statements: a compiler may not fuse the multiply and add (a
 * contracted constant would be rounded once). */
static float hybrid_symmetric(int32_t sum, float weights_scale, float bias)
{
	const float scale = (2.0f / 127.0f) * weights_scale;
	const float product = (float)sum * scale;

	return bias + product;
}

static opver_tensor *hybrid_weights_tensor(float scale)
{
	return int8_tensor("weights", KH_DIMS(2, 3), hybrid_weights, scale, 0);
}

Test(fc_hybrid, symmetric_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), hybrid_row);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.25f, 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_HYBRID, 3, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f),
					      b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0.25f),
				 hybrid_symmetric(-349, 0.5f, 1) },
		      2);
}

Test(fc_hybrid, per_channel_weights)
{
	/* Unit 1's weights at scale 0.25 instead of 0.5. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), hybrid_row);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_INT8,
				    KH_DIMS(2, 3), hybrid_weights);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize_per_channel(&h, w, 0, 2, (float[]){ 0.5f, 0.25f },
				(int64_t[]){ 0, 0 });
	node = fc_node(FC_HYBRID, 6, &p, KH_TENSORS(in, w), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0),
				 hybrid_symmetric(-349, 0.25f, 0) },
		      2);
}

Test(fc_hybrid, asymmetric_inputs)
{
	/*
	 * The row (1, -2, 0.25) over [-2, 1]: scale 3 / 255 (rounded to
	 * float).  Zero point from the max, 127 - 1 / scale = 42, loses
	 * less (127 + 85 < 128 + 170) than from the min.  q = round(42 +
	 * x / scale) = (127, -128, 63).  Weights as above; int32 sums of
	 * w * (q - 42):
	 *   unit 0: 2 * 85 + 1 * -170 - 4 * 21 = -84   (real -0.5)
	 *   unit 1: 0 + 3 * -170 + 1 * 21 = -489       (real -2.875)
	 */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, -2, 0.25f });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = {
		.asymmetric_quantize_inputs = 1,
	};
	opver_node *node = fc_node(FC_HYBRID, 6, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f)),
				   out);
	const float scale = (float)(3.0 / 255.0) * 0.5f;

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* No bias: 0 + sum * scale is the product, rounded once. */
	expect_floats(out, (float[]){ -84.0f * scale, -489.0f * scale }, 2);
}

Test(fc_hybrid, quantizes_each_row_on_its_own_and_keeps_dims)
{
	/* Row 0 as in symmetric_inputs; row 1 is all zeros (scale 1, q 0),
	 * so it gives the bias alone.  keep_num_dims: [1, 2, 3] -> [1, 2,
	 * 2]. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 3),
				     (float[]){ 1, -2, 0.5f, 0, 0, 0 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.25f, 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 2), NULL);
	opver_fully_connected_params p = { .keep_num_dims = 1 };
	opver_node *node = fc_node(FC_HYBRID, 5, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f),
					      b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0.25f),
				 hybrid_symmetric(-349, 0.5f, 1), 0.25f, 1 },
		      4);
}

Test(fc_hybrid, relu_n1_to_1)
{
	/* -0.75... stays; 1 - 2.75... clamps to -1. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), hybrid_row);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.25f, 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p =
		fc_params(OPVER_ACTIVATION_RELU_N1_TO_1);
	opver_node *node = fc_node(FC_HYBRID, 3, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f),
					      b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0.25f), -1 }, 2);
}

/* ------------------------------------------------------ prepare rejects */

TestSuite(fc_prepare, .init = setup, .fini = teardown);

/* A valid float32 node but for what the test changes. */
static opver_node *float_node(const opver_fully_connected_params *p,
			      int32_t in_rank, const int32_t *in_dims,
			      int32_t w_rank, const int32_t *w_dims,
			      int32_t out_rank, const int32_t *out_dims,
			      opver_tensor *bias)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, in_rank,
				     in_dims, NULL);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32, w_rank,
				    w_dims, NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      out_rank, out_dims, NULL);

	return fc_node(FC_FLOAT32, 1, p, KH_TENSORS(in, w, bias), out);
}

Test(fc_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 3), NULL, 1.0f, 0);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' has type INT8; this kernel takes FLOAT32");
}

Test(fc_prepare, rejects_a_float_bias_on_int8)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 3), NULL, 1.0f, 0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 3), NULL, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_INT8, 4, &p, KH_TENSORS(in, w, b), out),
			OPVER_ERROR_UNSUPPORTED,
			"bias 'bias' has type FLOAT32; this kernel takes INT32");
}

Test(fc_prepare, rejects_a_wrong_number_of_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL, "has 1 inputs and 1 outputs");
}

Test(fc_prepare, rejects_omitted_weights)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, NULL), out),
			OPVER_ERROR_INVALID_MODEL, "only the bias may be omitted");
}

Test(fc_prepare, rejects_weights_that_are_not_a_matrix)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3, 1),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"weights 'weights' must have shape [units, depth]");
}

Test(fc_prepare, rejects_an_input_not_a_multiple_of_depth)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 4), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has 4 elements, not a multiple of the weights' depth 3");
}

Test(fc_prepare, rejects_a_wrong_output_shape)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(2, 3), KH_DIMS(2, 3),
				   KH_DIMS(2, 3), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' must hold 2 x 2 elements (batches x units)");
}

Test(fc_prepare, rejects_a_bias_of_the_wrong_size)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    NULL);

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), b),
			OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has 3 elements; the weights have 2 units");
}

Test(fc_prepare, rejects_keep_num_dims_with_a_flattened_output)
{
	opver_fully_connected_params p = { .keep_num_dims = 1 };

	expect_rejected(float_node(&p, KH_DIMS(2, 2, 3), KH_DIMS(2, 3),
				   KH_DIMS(4, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"with the input's leading dimensions (keep_num_dims)");
}

Test(fc_prepare, rejects_keep_num_dims_when_depth_is_not_the_last_dimension)
{
	opver_fully_connected_params p = { .keep_num_dims = 1 };

	expect_rejected(float_node(&p, KH_DIMS(3, 2), KH_DIMS(2, 3),
				   KH_DIMS(3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"with keep_num_dims the last dimension of input 'input' must be the weights' depth 3");
}

Test(fc_prepare, rejects_shuffled_weights)
{
	opver_fully_connected_params p = {
		.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8,
	};

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_UNSUPPORTED,
			"weights format 1 (shuffled) is not supported");
}

Test(fc_prepare, rejects_a_fused_tanh)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_TANH);

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}

/* A valid int8 node, with the given weights and output quantization. */
static opver_node *int8_node(const opver_fully_connected_params *p,
			     float in_scale, float w_scale, float out_scale,
			     int64_t out_zero_point, opver_tensor *bias)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 2), NULL, in_scale,
				       0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 2), NULL, w_scale,
				      0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL,
					out_scale, out_zero_point);

	return fc_node(FC_INT8, 4, p, KH_TENSORS(in, w, bias), out);
}

/* A node of the int8 or hybrid kernel whose [2, 2] int8 weights the caller
 * quantizes. */
static opver_node *weights_node(const char *kernel, opver_tensor *w)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *in, *out;

	if (strcmp(kernel, FC_HYBRID) == 0) {
		in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, KH_DIMS(1, 2),
			       NULL);
		out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				KH_DIMS(1, 2), NULL);
	} else {
		in = int8_tensor("input", KH_DIMS(1, 2), NULL, 1.0f, 0);
		out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	}
	return fc_node(kernel, 4, &p, KH_TENSORS(in, w), out);
}

struct weights_case {
	char kernel[32];
	int32_t count;
	int32_t axis;
	float scales[3];
	int64_t zero_points[3];
	opver_status status;
	char message[160];
};

ParameterizedTestParameters(fc_prepare, rejects_weights_quantization)
{
	static struct weights_case cases[] = {
		{ FC_INT8, 2, 0, { 0.5f, 0.25f }, { 0, 1 },
		  OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has zero point 1 for channel 1; this kernel takes only symmetric filters (zero point 0)" },
		{ FC_INT8, 3, 0, { 1, 1, 1 }, { 0, 0, 0 },
		  OPVER_ERROR_UNSUPPORTED,
		  "filter 'weights' has 3 scales along axis 0; it needs one scale, or 2 along axis 0 (one per output channel)" },
		{ FC_INT8, 2, 1, { 1, 1 }, { 0, 0 }, OPVER_ERROR_UNSUPPORTED,
		  "filter 'weights' has 2 scales along axis 1; it needs one scale, or 2 along axis 0" },
		{ FC_HYBRID, 1, 0, { 0.5f }, { 3 }, OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has zero point 3; this kernel takes only symmetric filters (zero point 0)" },
		{ FC_HYBRID, 2, 0, { 0.5f, 0.0f }, { 0, 0 },
		  OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has scale 0 for channel 1; a scale must be finite and positive" },
		{ FC_HYBRID, 3, 0, { 1, 1, 1 }, { 0, 0, 0 },
		  OPVER_ERROR_UNSUPPORTED,
		  "filter 'weights' has 3 scales along axis 0; it needs one scale, or 2 along axis 0" },
		{ FC_HYBRID, 0, 0, { 0 }, { 0 }, OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has 0 scales along axis 0" },
	};

	return cr_make_param_array(struct weights_case, cases, COUNT(cases));
}

ParameterizedTest(struct weights_case *c, fc_prepare,
		  rejects_weights_quantization)
{
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_INT8,
				    KH_DIMS(2, 2), NULL);

	if (c->count > 0)
		kh_quantize_per_channel(&h, w, c->axis, c->count, c->scales,
					c->zero_points);
	expect_rejected(weights_node(c->kernel, w), c->status,
			c->message);
}

Test(fc_prepare, rejects_an_int32_bias_on_hybrid)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_HYBRID, 3, &p,
				KH_TENSORS(in, hybrid_weights_tensor(0.5f), b),
				out),
			OPVER_ERROR_UNSUPPORTED,
			"bias 'bias' has type INT32; this kernel takes FLOAT32");
}

Test(fc_prepare, rejects_an_int8_output_on_hybrid)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_HYBRID, 3, &p,
				KH_TENSORS(in, hybrid_weights_tensor(0.5f)),
				out),
			OPVER_ERROR_UNSUPPORTED,
			"output 'output' has type INT8; this kernel takes FLOAT32");
}

Test(fc_prepare, rejects_a_fused_tanh_on_hybrid)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_TANH);

	expect_rejected(fc_node(FC_HYBRID, 3, &p,
				KH_TENSORS(in, hybrid_weights_tensor(0.5f)),
				out),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}

Test(fc_prepare, rejects_an_unquantized_int8_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 2), NULL);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_INT8, 4, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is not quantized");
}

Test(fc_prepare, rejects_a_zero_point_outside_int8)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(int8_node(&p, 1.0f, 1.0f, 1.0f, 200, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has zero point 200, outside its type's range [-128, 127]");
}

Test(fc_prepare, rejects_a_zero_scale)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(int8_node(&p, 1.0f, 0.0f, 1.0f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"weights 'weights' has scale 0; a scale must be finite and positive");
}

Test(fc_prepare, rejects_a_bias_scale_that_disagrees)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);

	/* input 0.5 x weights 0.5 is 0.25; 0.5 is off by 0.25 output steps */
	kh_quantize(&h, b, 0.5f, 0);
	expect_rejected(int8_node(&p, 0.5f, 0.5f, 1.0f, 0, b),
			OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has scale 0.5, but input scale x weights scale is 0.25");
}

Test(fc_prepare, accepts_a_bias_scale_within_tflite_tolerance)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);

	/* off by 0.01 of an output step: TFLite accepts up to 0.02 */
	kh_quantize(&h, b, 0.26f, 0);
	cr_expect_eq(kh_prepare(&h, int8_node(&p, 0.5f, 0.5f, 1.0f, 0, b)),
		     OPVER_OK, "%s", h.errors);
}

Test(fc_prepare, rejects_a_rescale_factor_of_2_to_the_31)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	/* 2^20 * 2^20 / 2^-20 = 2^60 */
	expect_rejected(int8_node(&p, 0x1p20f, 0x1p20f, 0x1p-20f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"a rescale factor must be finite, not negative and below 2^30");
}

Test(fc_prepare, rejects_scales_whose_product_overflows_float)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	/* 1e30 x 1e30 is infinite in float; in double 1e60 / 1e30 = 1e30. */
	expect_rejected(int8_node(&p, 1e30f, 1e30f, 1e30f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"input scale x weights scale / output scale is 1e+30; a rescale factor must be finite");
}

Test(fc_prepare, rejects_an_output_scale_too_small_for_the_activation)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_RELU6);

	/* 6 / 1e-12 steps does not fit an int32 */
	expect_rejected(int8_node(&p, 1e-7f, 1e-7f, 1e-12f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has scale 1e-12, too small to quantize the fused activation's bounds");
}

/* --------------------------------------------------------------- plugin */

TestSuite(reference_plugin, .init = setup, .fini = teardown);

Test(reference_plugin, descriptor)
{
	cr_expect_eq(h.plugin->abi_major, OPVER_ABI_MAJOR);
	cr_expect_eq(h.plugin->abi_minor, OPVER_ABI_MINOR);
	cr_expect_eq(h.plugin->struct_size, sizeof(opver_plugin));
	cr_expect_str_eq(h.plugin->name, "reference");
	cr_expect_str_eq(h.plugin->vendor, "opver");
	cr_expect_str_eq(h.plugin->version, OPVER_VERSION_STRING);
	cr_expect_null(h.plugin->init);
	cr_expect_null(h.plugin->fini);
	cr_expect_null(h.plugin->delegate);
	/* Every op file adds kernels: the list is checked for shape, not
	 * length. */
	cr_assert_gt(h.plugin->num_kernels, 0);
	for (size_t i = 0; i < h.plugin->num_kernels; i++) {
		const opver_kernel *k = h.plugin->kernels[i];

		cr_assert_not_null(k, "kernel %zu", i);
		cr_expect_eq(k->struct_size, sizeof(opver_kernel));
		cr_expect(k->name != NULL && k->name[0] != '\0');
		cr_expect(k->min_version >= 1 &&
			  k->max_version >= k->min_version,
			  "%s: versions %d..%d", k->name, k->min_version,
			  k->max_version);
		cr_expect_eq(k->priority, 0, "%s: reference kernels are the "
			     "lowest-priority fallback", k->name);
		cr_expect(k->prepare != NULL && k->invoke != NULL, "%s",
			  k->name);
		for (size_t j = 0; j < i; j++)
			cr_expect_str_neq(k->name, h.plugin->kernels[j]->name,
					  "kernels %zu and %zu share a name", j,
					  i);
	}
}

struct kernel_case {
	char name[32];
	opver_type data;
	opver_type weights;
	opver_type bias;
	opver_type other_bias; /* a second bias type taken, or bias again */
	opver_type output;
	int32_t max_version;
};

ParameterizedTestParameters(reference_plugin, fully_connected_manifest)
{
	static struct kernel_case cases[] = {
		/* Versions 5 (keep_num_dims) and 6 (no bias) are
		 * implemented; 8 (sparse) is not. */
		{ FC_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  7 },
		{ FC_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT32,
		  OPVER_TYPE_INT32, OPVER_TYPE_INT8, 7 },
		{ FC_HYBRID, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  7 },
		{ FC_UINT8, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		  OPVER_TYPE_INT32, OPVER_TYPE_INT32, OPVER_TYPE_UINT8, 7 },
		{ FC_UINT8_INT16, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		  OPVER_TYPE_INT32, OPVER_TYPE_INT32, OPVER_TYPE_INT16, 7 },
		/* 11: quantized_bias_type; sparse weights never reach it */
		{ FC_INT16X8, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT64, OPVER_TYPE_INT32, OPVER_TYPE_INT16, 11 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, reference_plugin,
		  fully_connected_manifest)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, OPVER_OP_FULLY_CONNECTED);
	cr_expect_null(k->custom_name);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, c->max_version, "%s: %d, want %d",
		     c->name, k->max_version, c->max_version);
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_expect_null(k->init, "stateless kernels need no init");
	cr_expect_null(k->free);
	cr_expect_not_null(k->prepare);
	cr_expect_not_null(k->invoke);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->data));
	cr_expect_eq(s->inputs[1], OPVER_TYPE_BIT(c->weights));
	cr_expect_eq(s->inputs[2], OPVER_TYPE_BIT(c->bias) |
					   OPVER_TYPE_BIT(c->other_bias) |
					   OPVER_TYPE_BIT_ABSENT);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->output));
}

Test(reference_plugin, exports_only_its_entry_point)
{
	static const char *const internal[] = {
		"ref_fully_connected_float32", "ref_fully_connected_int8",
		"ref_fully_connected_hybrid",  "ref_depthwise_conv_2d_int8",
		"ref_quantize_multiplier",     "ref_activation_range_quantized",
		"ref_per_tensor_quantization", "ref_type_range",
	};

	cr_expect_not_null(dlsym(h.handle, OPVER_PLUGIN_ENTRY_NAME));
	for (size_t i = 0; i < COUNT(internal); i++)
		cr_expect_null(dlsym(h.handle, internal[i]),
			       "%s is exported", internal[i]);
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
