/*
 * test_reference_binary_sub_div.c - the reference plugin's SUB and DIV
 * kernels run from the built reference.so through the kernel harness:
 * TFLite's arithmetic on cases worked out by hand (the rescales are powers
 * of two, so every step is exact and the ties are visible), saturation and
 * wrapping, broadcasting against a naive model of it, empty tensors, and
 * what prepare and invoke reject and say.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "binary_harness.h"
#include "broadcast_shapes.h"

static opver_node *sub_node(const char *kernel, opver_activation activation,
			    bool pot_scale_int16, opver_tensor *a,
			    opver_tensor *b, opver_tensor *out)
{
	const opver_sub_params p = { .activation = activation,
				     .pot_scale_int16 = pot_scale_int16 };

	return binary_node(kernel, pot_scale_int16 ? 1 : 5, &p, sizeof(p), a,
			   b, out);
}

static opver_node *div_node(const char *kernel, opver_activation activation,
			    opver_tensor *a, opver_tensor *b, opver_tensor *out)
{
	const opver_div_params p = { .activation = activation };

	return binary_node(kernel, 1, &p, sizeof(p), a, b, out);
}

/* ------------------------------------------------------------------ SUB */

TestSuite(sub, .init = setup, .fini = teardown);

Test(sub, float32_subtracts_then_clamps)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 9, 1, 0.5f, -4 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 1, 1.5f, 0.25f, 1 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);

	cr_assert_eq(kh_run(&h, sub_node("sub_float32", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 8, -0.5f, 0.25f, -5 }, 4);
	cr_assert_eq(kh_run(&h, sub_node("sub_float32", OPVER_ACTIVATION_RELU6,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 6, 0, 0.25f, 0 }, 4);
}

ParameterizedTestParameters(sub, float32_broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

/* Differences of small integers are exact. */
ParameterizedTest(bs_case *c, sub, float32_broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	float a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS], expected[BS_MAX_ELEMENTS];
	opver_tensor *out;

	cr_assert(na <= COUNT(a) && nb <= COUNT(b) && no <= COUNT(expected));
	for (size_t i = 0; i < na; i++)
		a[i] = (float)((int)(i * 7 % 13) - 6);
	for (size_t i = 0; i < nb; i++)
		b[i] = (float)((int)(i * 5 % 11) - 5);
	for (size_t i = 0; i < no; i++)
		expected[i] = a[bs_source(&c->a, &o, i)] -
			      b[bs_source(&c->b, &o, i)];
	out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, o.rank, o.dims, NULL);

	cr_assert_eq(kh_run(&h, sub_node("sub_float32", OPVER_ACTIVATION_NONE,
					 true,
					 kh_tensor(&h, "a", OPVER_TYPE_FLOAT32,
						   c->a.rank, c->a.dims, a),
					 kh_tensor(&h, "b", OPVER_TYPE_FLOAT32,
						   c->b.rank, c->b.dims, b),
					 out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, expected, no);
}

Test(sub, int32_wraps_and_clamps)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(4),
				    (int32_t[]){ INT32_MIN, 10, -5, 3 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(1),
				    (int32_t[]){ 1 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(4),
				      NULL);

	cr_assert_eq(kh_run(&h, sub_node("sub_int32", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ INT32_MAX, 9, -6, 2 }, 4);
	cr_assert_eq(kh_run(&h, sub_node("sub_int32", OPVER_ACTIVATION_RELU6,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ 6, 6, 0, 2 }, 4);
}

/*
 * Inputs of scale 0.5, output of scale 1: twice the larger input scale is
 * 1, each input multiplier 0.5 (2^30, shift 0), the
 * output rescale 1 / 2^20 (2^30, shift -19).  An input step n becomes
 * n x 2^19 and the result (n1 - n2) / 2 rounds half away from zero:
 *   (7, 9) with zero points -3 and 5:  (10 - 4) / 2 = 3      -> 13
 *   (0, 5):   (3 - 0) / 2 = 1.5  -> 2                         -> 12
 *   (-3, 8):  (0 - 3) / 2 = -1.5 -> -2                        -> 8
 *   (127, -128): (130 + 133) / 2 = 131.5 -> 132               -> 127
 *   (-128, 127): (-125 - 122) / 2 = -123.5 -> -124 + 10       -> -114
 */
Test(sub, int8_negates_input_2_and_rounds_half_away_from_zero)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(5),
				       (int8_t[]){ 7, 0, -3, 127, -128 }, 0.5f,
				       -3);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(5),
				       (int8_t[]){ 9, 5, 8, -128, 127 }, 0.5f,
				       5);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(5), NULL, 1.0f, 10);

	cr_assert_eq(kh_run(&h, sub_node("sub_int8", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 13, 12, 8, 127, -114 }, 5);
}

/* The same arithmetic on uint8 around zero points of 128; RELU clamps at
 * the output zero point. */
Test(sub, uint8_is_the_general_path_with_relu)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(4),
				       (uint8_t[]){ 138, 131, 0, 255 }, 0.5f,
				       128);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(4),
				       (uint8_t[]){ 132, 128, 255, 0 }, 0.5f,
				       128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(4), NULL, 1.0f, 128);

	/* 3, 1.5 -> 2, -127.5 -> -128, 127.5 -> 128 (clamped to 255). */
	cr_assert_eq(kh_run(&h, sub_node("sub_uint8", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 131, 130, 0, 255 }, 4);
	cr_assert_eq(kh_run(&h, sub_node("sub_uint8", OPVER_ACTIVATION_RELU,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 131, 130, 128, 255 }, 4);
}

/*
 * Input 2 is subtracted once rescaled, as TFLite's SUB does, rather than
 * rescaled by a negated multiplier: the two differ where input 2's high
 * multiply is a tie, since that multiply rounds ties towards +infinity.
 * Input scales 2^-6 (1 + 2^-23) and 2^-6 (1 - 2^-23), zero points -128
 * and 127; output 2^-5 (1 + 2^-23), zero point -128.  Twice the larger
 * input scale is 2^-5 (1 + 2^-23): input 1's multiplier 1/2 (2^30, shift
 * 0), input 2's (1 - 2^-23) / (2 (1 + 2^-23)) (2^31 - 512, shift -1), the
 * output's 2^-20 (2^30, shift -19).  Input 2 at 113 is -14 steps,
 * -14 x 2^20 shifted; its high multiply -14 x 2^20 (1 - 2^-22) =
 * -14680060.5 rounds to -14680060, halved to -7340030, and subtracted:
 *   (-107, 113): 21 x 2^19 + 7340030 = 18350078 = 17.4999981 x 2^20
 *                -> 17 -> -111
 *   (-125, 113):  3 x 2^19 + 7340030 =  8912894 =  8.4999981 x 2^20
 *                -> 8 -> -120
 *   (0, 127):   128 x 2^19 + 0 = 64 x 2^20 -> 64 -> -64
 * With the multiplier negated, input 2 gives 14680061, halved 7340031, and
 * the first sum 18350079 halves to 9175039.5 -> 9175040 = 17.5 x 2^19 ->
 * 18 -> -110 (and -119 for the second): TFLite's case SUB 71-0 found this.
 */
Test(sub, int8_subtracts_input_2_once_rescaled)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ -107, -125, 0 },
				       0x1.000002p-6f, -128);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ 113, 113, 127 },
				       0x1.fffffcp-7f, 127);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(3), NULL, 0x1.000002p-5f,
					 -128);

	cr_assert_eq(kh_run(&h, sub_node("sub_int8", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ -111, -120, -64 }, 3);
}

/*
 * The same tie on uint8: zero points 130 and 255, output scale
 * 2^-4 (1 + 2^-23) (rescale 2^-21: 2^30, shift -20), zero point 134.
 * (118, 241): input 1 is -12 steps, -12 x 2^19 = -6291456; input 2 is
 * -14 steps, -7340030 as above, subtracted: 1048574 = 0.4999990 x 2^21
 * -> 0 -> 134.  Negating the multiplier gives 1048575, which halves to
 * 524287.5 -> 524288 = 0.5 x 2^20 -> 1 -> 135.
 */
Test(sub, uint8_subtracts_input_2_once_rescaled)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(2),
				       (uint8_t[]){ 118, 130 }, 0x1.000002p-6f,
				       130);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(2),
				       (uint8_t[]){ 241, 255 }, 0x1.fffffcp-7f,
				       255);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(2), NULL, 0x1.000002p-4f, 134);

	cr_assert_eq(kh_run(&h, sub_node("sub_uint8", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 134, 134 }, 2);
}

/*
 * Power-of-two scales: input 1 and the output 2^-10, input 2 2^-12, four
 * times finer, so input 2 is divided by 4, rounding half away from zero,
 * and the difference saturates to int16.
 */
Test(sub, int16_power_of_two_scales_saturate)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(4),
				       (int16_t[]){ 100, 100, -32768, 32767 },
				       1.0f / 1024, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(4),
				       (int16_t[]){ 6, -6, 4096, -8 },
				       1.0f / 4096, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(4), NULL, 1.0f / 1024, 0);

	cr_assert_eq(kh_run(&h, sub_node("sub_int16", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 98, 102, -32768, 32767 }, 4);
}

/* pot_scale_int16 false: the general path (left shift 15) with equal
 * scales gives the plain difference. */
Test(sub, int16_general_scales)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(3),
				       (int16_t[]){ 100, -200, 30000 },
				       1.0f / 1024, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(3),
				       (int16_t[]){ 6, 50, -30000 },
				       1.0f / 1024, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(3), NULL, 1.0f / 1024, 0);

	cr_assert_eq(kh_run(&h, sub_node("sub_int16", OPVER_ACTIVATION_NONE,
					 false, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 94, -250, 32767 }, 3);
}

Test(sub, int16_needs_quantization)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT16, KH_DIMS(2),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT16, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT16, KH_DIMS(2),
				      NULL);

	kh_expect_rejected(&h, sub_node("sub_int16", OPVER_ACTIVATION_NONE,
					true, a, b, out),
			   OPVER_ERROR_INVALID_MODEL, "input 1 'a'");
}

Test(sub, shapes_that_do_not_broadcast_are_reported)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2, 3),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	kh_expect_rejected(&h, sub_node("sub_float32", OPVER_ACTIVATION_NONE,
					true, a, b, out),
			   OPVER_ERROR_INVALID_MODEL, "do not broadcast");
}

Test(sub, empty_tensors_run)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(0, 3),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    (float[]){ 1, 2, 3 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(0, 3), NULL);

	cr_assert_eq(kh_run(&h, sub_node("sub_float32", OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
}

/* ------------------------------------------------------------------ DIV */

TestSuite(div, .init = setup, .fini = teardown);

Test(div, float32_divides_then_clamps)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 7, -7, 1, 1 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 2, 2, 0, 8 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);

	cr_assert_eq(kh_run(&h, div_node("div_float32", OPVER_ACTIVATION_NONE,
					 a, b, out)),
		     OPVER_OK, "%s", h.errors);
	/* Even NONE clamps, to the float range, as TFLite does: 1 / 0 gives
	 * the largest float, not an infinity. */
	kh_expect_floats(out, (float[]){ 3.5f, -3.5f, FLT_MAX, 0.125f }, 4);
	cr_assert_eq(kh_run(&h, div_node("div_float32", OPVER_ACTIVATION_RELU6,
					 a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 3.5f, 0, 6, 0.125f }, 4);
}

Test(div, int32_truncates_toward_zero)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(4),
				    (int32_t[]){ 7, -7, INT32_MIN, 5 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(4),
				    (int32_t[]){ 2, 2, -1, -5 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(4),
				      NULL);

	cr_assert_eq(kh_run(&h, div_node("div_int32", OPVER_ACTIVATION_NONE,
					 a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ 3, -3, INT32_MIN, -1 }, 4);
}

Test(div, int32_zero_divisor_is_reported_not_computed)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 7, 1 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 2, 0 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(2),
				      NULL);
	opver_node *n = div_node("div_int32", OPVER_ACTIVATION_NONE, a, b, out);

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(kh_error_contains(&h, "input 2 'b' element 1 is zero"),
		  "%s", h.errors);
}

/*
 * Scales 1, 1 and 1/8: the rescale is 8 (2^30, shift 4).  n / d x 8 where
 * the quotient is no tie: 6/3 -> 16, -6/3 -> -16, 6/-3 -> -16, 7/3 ->
 * 18.67 -> 19, 1/7 -> 1.14 -> 1, 0/5 -> 0; around zero points 100, 50 and
 * 120.
 */
Test(div, uint8_computes_the_reciprocal_in_fixed_point)
{
	opver_tensor *a = kh_quantized(
		&h, "a", OPVER_TYPE_UINT8, KH_DIMS(6),
		(uint8_t[]){ 106, 94, 106, 107, 101, 100 }, 1.0f, 100);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(6),
				       (uint8_t[]){ 53, 53, 47, 53, 57, 55 },
				       1.0f, 50);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(6), NULL, 0.125f, 120);

	cr_assert_eq(kh_run(&h, div_node("div_uint8", OPVER_ACTIVATION_NONE,
					 a, b, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 136, 104, 104, 139, 121, 120 }, 6);
}

/*
 * 1 / 200 x 8 is 0.04, but TFLite's rescale then shifts right by 33 bits
 * (rescale shift 4, reciprocal shift 7, headroom 30): its int32 shift
 * takes the count modulo 32 on x86 and WebAssembly, so the quotient comes
 * out huge and clamps to 255, as the oracle shows.
 */
Test(div, uint8_follows_tflite_past_a_31_bit_shift)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(1),
				       (uint8_t[]){ 1 }, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(1),
				       (uint8_t[]){ 200 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(1), NULL, 0.125f, 0);

	cr_assert_eq(kh_run(&h, div_node("div_uint8", OPVER_ACTIVATION_NONE,
					 a, b, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 255 }, 1);
}

Test(div, uint8_divisor_at_its_zero_point_is_reported)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(2),
				       (uint8_t[]){ 1, 2 }, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(2),
				       (uint8_t[]){ 60, 50 }, 1.0f, 50);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(2), NULL, 0.125f, 0);
	opver_node *n = div_node("div_uint8", OPVER_ACTIVATION_NONE, a, b, out);

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(kh_error_contains(&h, "element 1 is zero"), "%s", h.errors);
}

Test(div, uint8_rescale_of_2_to_the_23_is_refused)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(1),
				       NULL, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(1),
				       NULL, 1.0f / 4096, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(1), NULL, 1.0f / 4096, 0);

	kh_expect_rejected(&h, div_node("div_uint8", OPVER_ACTIVATION_NONE, a,
					b, out),
			   OPVER_ERROR_UNSUPPORTED, "below 2^23");
}
