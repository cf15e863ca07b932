/*
 * test_reference_softmax_fixed_point.c - the gemmlowp fixed-point helpers
 * (plugins/reference/fixed_point.h) against exact values and libm.
 */
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "../plugins/reference/fixed_point.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

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
