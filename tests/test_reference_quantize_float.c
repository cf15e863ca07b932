/*
 * test_reference_quantize_float.c - the reference plugin's QUANTIZE kernels
 * from float32, run from the built reference.so through the kernel harness:
 * TFLite's rounding of float to int8 and int16 (ties away from zero,
 * saturation, NaN and infinities) and per-channel quantization.
 */
#include <math.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "quantize_harness.h"

/* ------------------------------------------------------ float32 -> int */

TestSuite(quantize_float32, .init = setup, .fini = teardown);

Test(quantize_float32, to_int8_rounds_ties_away_from_zero)
{
	/*
	 * Scale 0.5, zero point -1: q = round(x / 0.5) - 1.
	 *   1.25 -> 2.5 -> 3 -> 2      -1.25 -> -2.5 -> -3 -> -4
	 *   0.74 -> 1.48 -> 1 -> 0     0 -> -1
	 *   63.75 -> 127.5 -> 128 -> 127 (the top, exactly)
	 *   64 -> 128 -> 127           -63.75 -> -127.5 -> -128 -> -129,
	 *                              clamped to -128
	 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(8),
				     (float[]){ 1.25f, -1.25f, 0.74f, 0,
						63.75f, 64, -63.75f, 0.25f });
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(8),
					 NULL, 0.5f, -1);

	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_int8", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	/* 0.25 -> 0.5 -> 1 -> 0 */
	kh_expect_int8s(out, (int8_t[]){ 2, -4, 0, -1, 127, 127, -128, 0 }, 8);
}

Test(quantize_float32, saturates_far_values_nan_and_infinities)
{
	/* Values past int32 saturate; NaN goes to the type's minimum. */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(6),
				     (float[]){ 1e30f, -1e30f, INFINITY,
						-INFINITY, NAN, 1e6f });
	opver_tensor *out8 = kh_quantized(&h, "out8", OPVER_TYPE_INT8,
					  KH_DIMS(6), NULL, 0.1f, 5);
	opver_tensor *out16 = kh_quantized(&h, "out16", OPVER_TYPE_INT16,
					   KH_DIMS(6), NULL, 0.1f, 5);

	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_int8", 1, in,
					   out8)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_int16", 2, in,
					   out16)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out8, (int8_t[]){ 127, -128, 127, -128, -128, 127 }, 6);
	kh_expect_int16s(
		out16,
		(int16_t[]){ 32767, -32768, 32767, -32768, -32768, 32767 }, 6);
}

Test(quantize_float32, to_int16)
{
	/*
	 * Scale 2^-10, zero point 0: q = round(x x 1024).
	 *   1 -> 1024    -0.5 -> -512    31.999 -> 32766.976 -> 32767
	 *   32 -> 32768 -> 32767    -32 -> -32768    -33 -> -32768
	 *   0.00048828125 (2^-11) -> 0.5 -> 1
	 *   -0.00048828125 -> -0.5 -> -1
	 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(8),
				     (float[]){ 1, -0.5f, 31.999f, 32, -32, -33,
						0x1p-11f, -0x1p-11f });
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(8), NULL, 0x1p-10f, 0);

	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_int16", 2, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(
		out,
		(int16_t[]){ 1024, -512, 32767, 32767, -32768, -32768, 1, -1 },
		8);
}

Test(quantize_float32, divides_in_float_as_tflite)
{
	/*
	 * Scale 0.1f, zero point 0; x / 0.1f in float, then rounded:
	 *   0.65f / 0.1f is 6.4999995 -> 6, where multiplying by
	 *   1 / 0.1f would give 6.5 -> 7;
	 *   0.45f / 0.1f is 4.5 -> 5 and 0.35f / 0.1f is 3.5 -> 4 (ties
	 *   away from zero).
	 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				     (float[]){ 0.65f, 0.45f, 0.35f, -0.45f });
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(4),
					 NULL, 0.1f, 0);

	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_int8", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 6, 5, 4, -5 }, 4);
}

Test(quantize_float32, to_uint8_with_a_zero_point)
{
	/*
	 * Scale 0.5, zero point 128: q = round(x / 0.5) + 128.
	 *   1.25 -> 2.5 -> 3 -> 131     -1.25 -> -3 -> 125
	 *   63.5 -> 127 -> 255          64 -> 256 -> 255
	 *   -64 -> -128 -> 0            -70 -> -12 -> 0;  NaN -> 0
	 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(7),
				     (float[]){ 1.25f, -1.25f, 63.5f, 64, -64,
						-70, NAN });
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(7), NULL, 0.5f, 128);

	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_uint8", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 131, 125, 255, 255, 0, 0, 0 }, 7);
}

Test(quantize_float32, per_channel_along_the_last_axis)
{
	/*
	 * [2, 3], one scale per column (axis 1): scales 1, 0.5, 0.25 and
	 * zero points 0, 1, -1.
	 *   row 0 (1.5, 1.5, 1.5):   2, 3 + 1 = 4, 6 - 1 = 5
	 *   row 1 (-2, -0.75, 40):   -2, -1.5 -> -2 + 1 = -1, 160 - 1 -> 127
	 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3),
				     (float[]){ 1.5f, 1.5f, 1.5f, -2, -0.75f,
						40 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(2, 3), NULL);

	kh_quantize_per_channel(&h, out, 1, 3, (float[]){ 1, 0.5f, 0.25f },
				(int64_t[]){ 0, 1, -1 });
	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_int8", 3, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 2, 4, 5, -2, -1, 127 }, 6);
}

Test(quantize_float32, per_channel_along_a_middle_axis)
{
	/*
	 * [2, 2, 2] with scales 1 and 0.1 along axis 1 (zero points 0):
	 * elements alternate scale in pairs: (1, 1), (0.1, 0.1), ...
	 *   x = 0.5 everywhere: round(0.5) = 1; round(5) = 5 (0.5f / 0.1f
	 *   is 5 in float).
	 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2, 2),
				     (float[]){ 0.5f, 0.5f, 0.5f, 0.5f, 0.5f,
						0.5f, 0.5f, 0.5f });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT16,
				      KH_DIMS(2, 2, 2), NULL);

	kh_quantize_per_channel(&h, out, 1, 2, (float[]){ 1, 0.1f },
				(int64_t[]){ 0, 0 });
	cr_assert_eq(kh_run(&h, unary_node("quantize_float32_int16", 3, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 1, 1, 5, 5, 1, 1, 5, 5 }, 8);
}
