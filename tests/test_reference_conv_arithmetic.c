/*
 * test_reference_conv_arithmetic.c - the arithmetic helpers CONV_2D's
 * int16x8 and hybrid kernels use: TFLite's 64-bit rescale and its
 * asymmetric quantization of float rows, on edge cases.
 */
#include <criterion/criterion.h>

#include "../plugins/reference/hybrid.h"
#include "../plugins/reference/quantization.h"

/* ------------------------------------------------ the 64-bit rescale */

Test(quantization, multiply_by_quantized_multiplier_int64)
{
	/* 0.005 is 1374389504 * 2^-7 / 2^31; reduced to Q0.15 it is
	 * (1374389504 + 2^15) >> 16 = 20972, shifted by 15 + 7 = 22:
	 * (150000 * 20972 + 2^21) >> 22 = 3147897152 >> 22 = 750. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     150000, 1374389504, -7),
		     750);
	/* The reduced multiplier is coarser than the 32-bit one:
	 * 6000000 * 20972 / 2^22 = 30000.69 rounds to 30001, not 30000. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     6000000, 1374389504, -7),
		     30001);
	cr_expect_eq(ref_multiply_by_quantized_multiplier(6000000, 1374389504,
							  -7),
		     30000);
	/* 0.5 is 2^30 with shift 0, reduced to 2^14, shifted by 15: one
	 * rounding, ties toward +infinity: 1.5 -> 2, -1.5 -> -1, 2.5 -> 3,
	 * -2.5 -> -2. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(3, 1 << 30, 0),
		     2);
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(-3, 1 << 30, 0),
		     -1);
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(5, 1 << 30, 0),
		     3);
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(-5, 1 << 30, 0),
		     -2);
	/* A multiplier of 0x7FFF0000 or more saturates to 2^15 - 1 instead
	 * of rounding up to 2^15: 2^15 * 32767 / 2^15 = 32767 (+0.5 floors
	 * away), where 2^15 would give 32768. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     1 << 15, INT32_MAX, 0),
		     32767);
	/* Inputs beyond 32 bits: 2^40 * 2^14 / 2^25 = 2^29. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     INT64_C(1) << 40, 1 << 30, -10),
		     1 << 29);
}

Test(quantization, asymmetric_quantization_rounds_as_tflite)
{
	/*
	 * [-4, 4] onto [-128, 127]: step 8/255; zero point -128 + 127.5 or
	 * 127 - 127.5, both -0.5, from the max (error 254.5 < 255.5), rounded
	 * away from zero to -1.  TFLite multiplies by the float reciprocal of
	 * the float scale, 31.8749981: 4 gives 127.499992 - 1 -> 126 (exact
	 * arithmetic would make it the tie 126.5 -> 127); -4 gives
	 * -128.499992 -> -128.
	 */
	int8_t q[2];
	float scale;
	int32_t zero_point;

	ref_quantize_floats_asymmetric((float[]){ -4, 4 }, 2, q, &scale,
				       &zero_point);
	cr_expect_eq(zero_point, -1);
	cr_expect(scale == 8.0f / 255.0f, "scale %.9g", (double)scale);
	cr_expect_eq(q[0], -128);
	cr_expect_eq(q[1], 126);
}
