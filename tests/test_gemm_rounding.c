/*
 * test_gemm_rounding.c - the rescales of the reference plugin's variant
 * reference-tflite (REF_TFLITE_BUILTIN): the int8 GEMM ops'
 * (CONV_2D, FULLY_CONNECTED, BATCH_MATMUL) rounds once, half up, as ruy's
 * output stage; every other op's rounds twice, as in the reference plugin.
 * Values worked by hand.
 */
#define REF_TFLITE_BUILTIN
#include <criterion/criterion.h>

#include "../plugins/reference/quantization.h"
#include "../plugins/reference/requantize.h"

/* M = 2^30 is the real factor 0.5. */
#define HALF (INT32_C(1) << 30)

Test(gemm_rounding, gemm_rescale_rounds_once)
{
	/* 5 * 0.5 * 2^-1 = 1.25 -> 1, and -1.25 -> -1. */
	cr_expect_eq(ref_gemm_multiply_by_quantized_multiplier(5, HALF, -1),
		     1);
	cr_expect_eq(ref_gemm_multiply_by_quantized_multiplier(-5, HALF, -1),
		     -1);
	/* Ties go up: -1.5 -> -1. */
	cr_expect_eq(ref_gemm_multiply_by_quantized_multiplier(-3, HALF, 0),
		     -1);
}

Test(gemm_rounding, other_rescales_round_twice)
{
	/* round(5 * 0.5) = 3 (2.5, away from zero), then 3 / 2 = 1.5 -> 2. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(5, HALF, -1), 2);
	/* M = 1518500250 is 0.7071 (sqrt(2) / 2): 5 * M * 2^-3 = 0.442, but
	 * round(5 * M) = round(3.536) = 4 first, then 4 / 8 = 0.5 -> 1. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier(5, 1518500250, -3),
		     1);
	cr_expect_eq(ref_gemm_multiply_by_quantized_multiplier(5, 1518500250,
							       -3),
		     0);
}

Test(gemm_rounding, requantize_apply_takes_each_ops_rescale)
{
	int32_t multiplier = HALF;
	int shift = -1;
	const ref_requantize r = {
		.output_offset = 10,
		.activation_min = -128,
		.activation_max = 127,
		.multipliers = &multiplier,
		.shifts = &shift,
	};
	const int32_t bias = 1;

	/* (4 + 1) * 0.25 = 1.25, plus the zero point 10. */
	cr_expect_eq(ref_requantize_gemm_apply(&r, 0, 4, &bias), 11);
	cr_expect_eq(ref_requantize_apply(&r, 0, 4, &bias), 12);
}
