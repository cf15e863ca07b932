/*
 * test_reference_quantize_dequantize.c - the reference plugin's DEQUANTIZE
 * kernels: per tensor and per channel, from int8, uint8, int16 and float16.
 */
#include <math.h>
#include <stdint.h>

#include <criterion/criterion.h>

#include "quantize_harness.h"

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
