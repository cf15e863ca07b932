/*
 * test_reference_quantize_requantize.c - the reference plugin's QUANTIZE
 * kernels requantizing between int8, uint8, int16 and int32 with rescale
 * factors below and above 1.
 */
#include <stdint.h>

#include <criterion/criterion.h>

#include "quantize_harness.h"

/* ---------------------------------------------------------- requantize */

TestSuite(requantize, .init = setup, .fini = teardown);

Test(requantize, int8_with_a_rescale_above_1)
{
	/*
	 * Input scale 0.5, zero point 3; output scale 0.25, zero point -2:
	 * rescale 2 (2^30, shift 2).  q = (x - 3) x 2 - 2:
	 *   10 -> 12;  3 -> -2;  -128 -> -264 -> -128;  127 -> 246 -> 127
	 *   -60 -> -128 (exactly)
	 */
	opver_tensor *in =
		kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(5),
			     (int8_t[]){ 10, 3, -128, 127, -60 }, 0.5f, 3);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(5),
					 NULL, 0.25f, -2);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int8_int8", 1, in, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 12, -2, -128, 127, -128 }, 5);
}

Test(requantize, int8_rounds_twice_as_tflite)
{
	/* Scales 1 and 4: rescale 0.25 (2^30, shift -1).
	 *   5 -> 2 (1.25);  -6 -> -2 (-1.5);  2 -> 1 (0.5);  -2 -> -1 */
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(4),
					(int8_t[]){ 5, -6, 2, -2 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(4),
					 NULL, 4.0f, 0);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int8_int8", 1, in, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 2, -2, 1, -1 }, 4);
}

Test(requantize, int16_to_int8)
{
	/* Input scale 2^-12, output scale 2^-5 and zero point 10: divide by
	 * 2^7 and add 10.
	 *   1280 -> 10 -> 20;  -1280 -> 0;  64 -> 0.5 -> 1 -> 11
	 *   32767 -> 256 -> 127;  -32768 -> -256 -> -128 */
	opver_tensor *in = kh_quantized(
		&h, "in", OPVER_TYPE_INT16, KH_DIMS(5),
		(int16_t[]){ 1280, -1280, 64, 32767, -32768 }, 0x1p-12f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(5),
					 NULL, 0x1p-5f, 10);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int16_int8", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 20, 0, 11, 127, -128 }, 5);
}

Test(requantize, int8_to_int16)
{
	/* Input scale 0.5, zero point -128; output scale 2^-8: x 128.
	 *   -128 -> 0;  127 -> 255 x 128 = 32640;  0 -> 16384 */
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(3),
					(int8_t[]){ -128, 127, 0 }, 0.5f, -128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(3), NULL, 0x1p-8f, 0);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int8_int16", 2, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 0, 32640, 16384 }, 3);
}

Test(requantize, int16_to_int16)
{
	/*
	 * Scales 3 and 2: rescale 1.5 is 0.75 x 2^1 (shift 1: the input is
	 * doubled, then multiplied by 0.75 in the high multiply).
	 *   1000 -> 2000 x 0.75 = 1500
	 *   -3 -> -6 x 0.75 = -4.5, a tie rounded toward +infinity: -4
	 *   30000 -> 45000 -> 32767
	 */
	opver_tensor *in =
		kh_quantized(&h, "in", OPVER_TYPE_INT16, KH_DIMS(3),
			     (int16_t[]){ 1000, -3, 30000 }, 3.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(3), NULL, 2.0f, 0);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int16_int16", 2, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 1500, -4, 32767 }, 3);
}

Test(requantize, uint8_to_int8_and_back_shifts_by_128)
{
	/* Same scale, zero points 128 and 0: q - 128, and back. */
	opver_tensor *u = kh_quantized(&h, "u", OPVER_TYPE_UINT8, KH_DIMS(4),
				       (uint8_t[]){ 0, 127, 128, 255 }, 0.1f,
				       128);
	opver_tensor *s8 = kh_quantized(&h, "s8", OPVER_TYPE_INT8, KH_DIMS(4),
					NULL, 0.1f, 0);
	opver_tensor *back = kh_quantized(&h, "back", OPVER_TYPE_UINT8,
					  KH_DIMS(4), NULL, 0.1f, 128);

	cr_assert_eq(kh_run(&h, unary_node("quantize_uint8_int8", 1, u, s8)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(s8, (int8_t[]){ -128, -1, 0, 127 }, 4);
	cr_assert_eq(kh_run(&h, unary_node("quantize_int8_uint8", 1, s8,
					   back)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(back, (uint8_t[]){ 0, 127, 128, 255 }, 4);
}

Test(requantize, uint8_to_uint8_rescales_and_clamps)
{
	/* Scales 1 and 4, zero points 100 and 10: (x - 100) / 4 + 10,
	 * rounded twice as TFLite (rescale 0.25: 2^30, shift -1).
	 *   105 -> 1.25 -> 2 (twice rounded up) -> 12;  94 -> -1.5 -> -2
	 *   -> 8;  0 -> -25 -> -15, clamped to 0;  255 -> 38.75 -> 39 -> 49 */
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8, KH_DIMS(4),
					(uint8_t[]){ 105, 94, 0, 255 }, 1.0f,
					100);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(4), NULL, 4.0f, 10);

	cr_assert_eq(kh_run(&h, unary_node("quantize_uint8_uint8", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 12, 8, 0, 49 }, 4);
}

Test(requantize, int16_to_int32)
{
	/* Input scale 0.5; output scale 2^-10 and zero point 5: rescale 512
	 * (2^30, shift 10), exact.  q = x x 512 + 5:
	 *   32767 -> 16776709;  -32768 -> -16777211;  3 -> 1541;  0 -> 5 */
	opver_tensor *in =
		kh_quantized(&h, "in", OPVER_TYPE_INT16, KH_DIMS(4),
			     (int16_t[]){ 32767, -32768, 3, 0 }, 0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT32,
					 KH_DIMS(4), NULL, 0x1p-10f, 5);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int16_int32", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out,
			 (int32_t[]){ 16776709, -16777211, 1541, 5 }, 4);
}

Test(requantize, int8_to_int32)
{
	/* Input scale 1, zero point -3; output scale 0.25, zero point -100:
	 * q = (x + 3) x 4 - 100.
	 *   127 -> 420;  -128 -> -600;  -3 -> -100 */
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(3),
					(int8_t[]){ 127, -128, -3 }, 1.0f, -3);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT32,
					 KH_DIMS(3), NULL, 0.25f, -100);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int8_int32", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ 420, -600, -100 }, 3);
}

Test(requantize, int32_to_int8_rounds_twice_and_saturates)
{
	/*
	 * Input scale 2^-16; output scale 2^-8 and zero point -10: rescale
	 * 2^-8 (2^30, shift -7): a rounding halving, then a rounding shift
	 * by 7, ties away from zero.
	 *   2560 -> 1280 -> 10 -> 0;  384 -> 192 -> 1.5 -> 2 -> -8
	 *   -384 -> -2 -> -12;  INT32_MAX -> 2^30 -> 2^23 -> 127
	 *   INT32_MIN -> -2^30 -> -2^23 -> -128
	 */
	opver_tensor *in = kh_quantized(
		&h, "in", OPVER_TYPE_INT32, KH_DIMS(5),
		(int32_t[]){ 2560, 384, -384, INT32_MAX, INT32_MIN }, 0x1p-16f,
		0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(5),
					 NULL, 0x1p-8f, -10);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int32_int8", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 0, -8, -12, 127, -128 }, 5);
}

Test(requantize, int32_input_minus_its_zero_point_wraps)
{
	/* Zero point 1: INT32_MIN - 1 wraps to INT32_MAX, as TFLite's int32
	 * subtraction does, so it gives 2^23 and saturates high; 257 - 1 is
	 * 256 -> 128 -> 1. */
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT32, KH_DIMS(2),
					(int32_t[]){ INT32_MIN, 257 }, 0x1p-16f,
					1);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 0x1p-8f, 0);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int32_int8", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 127, 1 }, 2);
}

Test(requantize, int32_to_int16)
{
	/* Input scale 2^-20; output scale 2^-12: rescale 2^-8 as above.
	 *   2^20 -> 4096;  -384 -> -2;  2^30 -> 2^22 -> 32767
	 *   -2^30 -> -32768 */
	opver_tensor *in = kh_quantized(
		&h, "in", OPVER_TYPE_INT32, KH_DIMS(4),
		(int32_t[]){ 1 << 20, -384, 1 << 30, -(1 << 30) }, 0x1p-20f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(4), NULL, 0x1p-12f, 0);

	cr_assert_eq(kh_run(&h, unary_node("quantize_int32_int16", 2, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 4096, -2, 32767, -32768 }, 4);
}
