/*
 * test_reference_fc_arithmetic.c - TFLite's quantized arithmetic helpers
 * (plugins/reference/quantization.c) on edge cases.
 */
#include <float.h>
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../plugins/reference/quantization.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

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
