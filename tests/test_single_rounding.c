/*
 * test_single_rounding.c - the rescale of the reference plugin built with
 * REF_SINGLE_ROUNDING (TFLite's TFLITE_SINGLE_ROUNDING): x * M * 2^shift /
 * 2^31 rounded once, half up, where the default rounds the doubling high
 * multiply and then the power-of-two divide.  Values worked by hand.
 */
#define REF_SINGLE_ROUNDING
#include <criterion/criterion.h>

#include "../plugins/reference/quantization.h"

/* M = 2^30 is the real factor 0.5. */
#define HALF (INT32_C(1) << 30)

Test(single_rounding, rounds_once_half_up)
{
	/* 5 * 0.5 * 2^-1 = 1.25 -> 1; double rounding gives round(2.5) = 3,
	 * then 3 / 2 = 1.5 -> 2. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(5, HALF, -1), 1);
	/* -1.25 -> -1. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(-5, HALF, -1), -1);
	/* Ties go up: 1.5 -> 2 and -1.5 -> -1. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(3, HALF, 0), 2);
	cr_expect_eq(ref_multiply_by_quantized_multiplier(-3, HALF, 0), -1);
	/* A positive shift scales up: 7 * 0.5 * 2^3 = 28. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(7, HALF, 3), 28);
}

Test(single_rounding, saturates_out_of_range_results)
{
	/* INT32_MAX * (2^31 - 1) / 2^31 * 2^30 does not fit. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(INT32_MAX, INT32_MAX, 30),
		     INT32_MAX);
	cr_expect_eq(ref_multiply_by_quantized_multiplier(INT32_MIN, INT32_MAX, 30),
		     INT32_MIN);
}
