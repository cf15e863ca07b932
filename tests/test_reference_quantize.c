/*
 * test_reference_quantize.c - the reference plugin's QUANTIZE and
 * DEQUANTIZE kernels run from the built reference.so through the kernel
 * harness: TFLite's rounding of float to int8 and int16 (ties away from
 * zero, saturation, NaN and infinities), per-channel quantization,
 * requantizing between int8, int16 and int32 with rescale factors below
 * and above 1, dequantizing per tensor and per channel, what prepare
 * rejects and what it says, and the kernels' manifest entries.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "kernel_harness.h"

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

/* A QUANTIZE or DEQUANTIZE node: no parameters. */
static opver_node *unary_node(const char *kernel, int32_t version,
			      opver_tensor *in, opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, NULL, 0,
		       KH_TENSORS(in), KH_TENSORS(out));
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

/* ---------------------------------------------------------- dequantize */

TestSuite(dequantize, .init = setup, .fini = teardown);

Test(dequantize, int8)
{
	/* Scale 0.5, zero point -3: -128 -> -62.5, 127 -> 65, -3 -> 0,
	 * 0 -> 1.5 */
	opver_tensor *in =
		kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(4),
			     (int8_t[]){ -128, 127, -3, 0 }, 0.5f, -3);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);

	cr_assert_eq(kh_run(&h, unary_node("dequantize_int8_float32", 2, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ -62.5f, 65, 0, 1.5f }, 4);
}

Test(dequantize, int16)
{
	/* Scale 2^-10, zero point 0: 32767 -> 31.9990234375, -32768 -> -32,
	 * 512 -> 0.5 */
	opver_tensor *in =
		kh_quantized(&h, "in", OPVER_TYPE_INT16, KH_DIMS(3),
			     (int16_t[]){ 32767, -32768, 512 }, 0x1p-10f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, unary_node("dequantize_int16_float32", 3, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 31.9990234375f, -32, 0.5f }, 3);
}

/* TFLite multiplies in double and rounds to float: every int8 and a sweep
 * of int16 values with an awkward scale and zero point match that. */
Test(dequantize, matches_tflite_double_product_bit_for_bit)
{
	static int8_t q8[256];
	static int16_t q16[4096];
	static float want8[256], want16[4096];
	const float scale = 0.0123456789f;
	opver_tensor *in8, *in16, *out8, *out16;

	for (int i = 0; i < 256; i++) {
		q8[i] = (int8_t)(i - 128);
		want8[i] = (float)((double)scale * (double)(q8[i] - 77));
	}
	for (int i = 0; i < 4096; i++) {
		q16[i] = (int16_t)(i * 16 - 32768 + i % 16);
		want16[i] = (float)((double)scale * (double)(q16[i] + 31000));
	}
	in8 = kh_quantized(&h, "in8", OPVER_TYPE_INT8, KH_DIMS(256), q8, scale,
			   77);
	in16 = kh_quantized(&h, "in16", OPVER_TYPE_INT16, KH_DIMS(4096), q16,
			    scale, -31000);
	out8 = kh_tensor(&h, "out8", OPVER_TYPE_FLOAT32, KH_DIMS(256), NULL);
	out16 = kh_tensor(&h, "out16", OPVER_TYPE_FLOAT32, KH_DIMS(4096), NULL);

	cr_assert_eq(kh_run(&h, unary_node("dequantize_int8_float32", 2, in8,
					   out8)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, unary_node("dequantize_int16_float32", 3,
					   in16, out16)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out8, want8, 256);
	kh_expect_floats(out16, want16, 4096);
}

Test(dequantize, int8_per_channel)
{
	/* [2, 2] with scales 0.5 and 2 along axis 0, zero points 1 and -1:
	 *   row 0 (3, -1) -> 1, -1;  row 1 (3, -1) -> 8, 0 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2, 2),
				     (int8_t[]){ 3, -1, 3, -1 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);

	kh_quantize_per_channel(&h, in, 0, 2, (float[]){ 0.5f, 2 },
				(int64_t[]){ 1, -1 });
	cr_assert_eq(kh_run(&h, unary_node("dequantize_int8_float32", 2, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 1, -1, 8, 0 }, 4);
}

/* ------------------------------------------------------ prepare rejects */

Test(dequantize, uint8)
{
	/* Scale 0.5, zero point 128: 0 -> -64, 255 -> 63.5, 128 -> 0 */
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8, KH_DIMS(3),
					(uint8_t[]){ 0, 255, 128 }, 0.5f, 128);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, unary_node("dequantize_uint8_float32", 1, in,
					   out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ -64, 63.5f, 0 }, 3);
}

Test(dequantize, float16_converts_exactly)
{
	/*
	 * IEEE binary16 bit patterns: 1 (0x3c00), -2 (0xc000), 65504, the
	 * largest (0x7bff), 2^-14, the smallest normal (0x0400), 2^-24, the
	 * smallest subnormal (0x0001), -0 (0x8000), 1/3 rounded to half
	 * (0x3555: 0.333251953125), infinity (0x7c00).
	 */
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT16, KH_DIMS(8),
				     (uint16_t[]){ 0x3c00, 0xc000, 0x7bff,
						   0x0400, 0x0001, 0x8000,
						   0x3555, 0x7c00 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(8), NULL);
	const float *got;

	cr_assert_eq(kh_run(&h, unary_node("dequantize_float16_float32", 3,
					   in, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out,
			 (float[]){ 1, -2, 65504, 0x1p-14f, 0x1p-24f, -0.0f,
				    0.333251953125f, INFINITY },
			 8);
	got = out->data;
	cr_expect(signbit(got[5]), "-0 keeps its sign");
}

Test(dequantize, float16_nan_stays_nan)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT16, KH_DIMS(2),
				     (uint16_t[]){ 0x7e00, 0xfc00 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);
	const float *got;

	cr_assert_eq(kh_run(&h, unary_node("dequantize_float16_float32", 3,
					   in, out)),
		     OPVER_OK, "%s", h.errors);
	got = out->data;
	cr_expect(isnan(got[0]));
	cr_expect(isinf(got[1]) && got[1] < 0);
}

TestSuite(quantize_prepare, .init = setup, .fini = teardown);

Test(quantize_prepare, rejects_an_unquantized_output)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
				      NULL);

	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 1, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' is not quantized");
}

Test(quantize_prepare, rejects_another_shape)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(1, 2), NULL, 1.0f, 0);

	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 1, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' must have the shape of input 'in'");
}

Test(quantize_prepare, rejects_an_output_type_the_kernel_does_not_take)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 1.0f, 0);

	kh_expect_rejected(
		&h, unary_node("quantize_float32_int8", 1, in, out),
		OPVER_ERROR_UNSUPPORTED,
		"output 'out' has type INT16; this kernel takes INT8");
}

Test(quantize_prepare, rejects_per_channel_scales_not_matching_the_axis)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(2, 3), NULL);

	kh_quantize_per_channel(&h, out, 0, 3, (float[]){ 1, 1, 1 },
				(int64_t[]){ 0, 0, 0 });
	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 3, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' has 3 scales along axis 0");
}

Test(quantize_prepare, rejects_a_per_channel_zero_point_outside_the_type)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
				      NULL);

	kh_quantize_per_channel(&h, out, 0, 2, (float[]){ 1, 1 },
				(int64_t[]){ 0, 300 });
	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 3, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' has zero point 300 for channel 1, "
			   "outside its type's range [-128, 127]");
}

Test(quantize_prepare, rejects_a_per_channel_requantize)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2),
					NULL, 1.0f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
				      NULL);

	kh_quantize_per_channel(&h, out, 0, 2, (float[]){ 1, 2 },
				(int64_t[]){ 0, 0 });
	kh_expect_rejected(&h, unary_node("quantize_int8_int8", 1, in, out),
			   OPVER_ERROR_UNSUPPORTED,
			   "output 'out' is quantized per channel");
}

Test(quantize_prepare, rejects_int16_requantize_zero_points)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT16, KH_DIMS(2),
					NULL, 1.0f, 4);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 1.0f, 0);

	kh_expect_rejected(
		&h, unary_node("quantize_int16_int16", 2, in, out),
		OPVER_ERROR_INVALID_MODEL,
		"have zero points 4 and 0; int16 to int16 needs both 0");
}

Test(quantize_prepare, rejects_a_requantize_rescale_of_2_to_the_31)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2),
					NULL, 1e6f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1e-6f, 0);

	kh_expect_rejected(
		&h, unary_node("quantize_int8_int8", 1, in, out),
		OPVER_ERROR_INVALID_MODEL,
		"a rescale factor must be finite, not negative and below 2^30");
}

Test(quantize_prepare, rejects_a_second_input)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1.0f, 0);
	opver_node *node = kh_node(&h, kh_kernel(&h, "quantize_float32_int8"),
				   1, NULL, 0, KH_TENSORS(in, in),
				   KH_TENSORS(out));

	kh_expect_rejected(&h, node, OPVER_ERROR_INVALID_MODEL,
			   "QUANTIZE takes one input and one output");
}

Test(quantize_prepare, rejects_int16_dequantize_per_channel)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT16, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	kh_quantize_per_channel(&h, in, 0, 2, (float[]){ 1, 2 },
				(int64_t[]){ 0, 0 });
	kh_expect_rejected(
		&h, unary_node("dequantize_int16_float32", 3, in, out),
		OPVER_ERROR_UNSUPPORTED, "input 'in' is quantized per channel");
}

Test(quantize_prepare, rejects_a_dequantize_to_another_shape)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(4),
					NULL, 1.0f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);

	kh_expect_rejected(&h,
			   unary_node("dequantize_int8_float32", 2, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' must have the shape of input 'in'");
}

Test(quantize_prepare, rejects_a_dequantize_scale_of_zero)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2),
					NULL, 0.0f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	kh_expect_rejected(
		&h, unary_node("dequantize_int8_float32", 2, in, out),
		OPVER_ERROR_INVALID_MODEL,
		"input 'in' has scale 0; a scale must be finite and positive");
}

/* --------------------------------------------------------------- plugin */

TestSuite(quantize_manifest, .init = setup, .fini = teardown);

struct kernel_case {
	char name[32];
	int32_t op;
	opver_type in, out;
	int32_t max_version;
};

ParameterizedTestParameters(quantize_manifest, kernels)
{
	static struct kernel_case cases[] = {
		/* per channel implemented; 4 and 5 are int4/uint4 */
		{ "quantize_float32_int8", OPVER_OP_QUANTIZE,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, 5 },
		{ "quantize_float32_int16", OPVER_OP_QUANTIZE,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_INT16, 5 },
		/* requantizing has no per-channel output (version 3) */
		{ "quantize_int8_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int16_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT16,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int8_int16", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT16, 2 },
		{ "quantize_int16_int16", OPVER_OP_QUANTIZE, OPVER_TYPE_INT16,
		  OPVER_TYPE_INT16, 2 },
		/* version 4 is a gap */
		{ "dequantize_int8_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32, 3 },
		{ "dequantize_int16_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_INT16, OPVER_TYPE_FLOAT32, 3 },
		/* uint8: TFLite's version 1 types, per tensor */
		{ "quantize_float32_uint8", OPVER_OP_QUANTIZE,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, 5 },
		{ "quantize_uint8_uint8", OPVER_OP_QUANTIZE, OPVER_TYPE_UINT8,
		  OPVER_TYPE_UINT8, 2 },
		{ "quantize_uint8_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_UINT8,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int8_uint8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_UINT8, 2 },
		{ "dequantize_uint8_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_UINT8, OPVER_TYPE_FLOAT32, 3 },
		/* TFLite Micro's int32 pairs: no per-channel output */
		{ "quantize_int8_int32", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT32, 2 },
		{ "quantize_int16_int32", OPVER_OP_QUANTIZE, OPVER_TYPE_INT16,
		  OPVER_TYPE_INT32, 2 },
		{ "quantize_int32_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT32,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int32_int16", OPVER_OP_QUANTIZE, OPVER_TYPE_INT32,
		  OPVER_TYPE_INT16, 2 },
		/* float16: version 3 */
		{ "dequantize_float16_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT32, 3 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, quantize_manifest, kernels)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, c->op);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, c->max_version, "%s: %d, want %d",
		     c->name, k->max_version, c->max_version);
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->in));
	cr_expect_eq(s->inputs[1], 0);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->out));
}
