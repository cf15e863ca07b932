/*
 * test_reference_binary_compare.c - the reference plugin's
 * SQUARED_DIFFERENCE, MAXIMUM and MINIMUM kernels: values worked out by hand,
 * TFLite's NaN order, broadcasting against a naive model of it.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "binary_harness.h"
#include "broadcast_shapes.h"

/* --------------------------------------------------- SQUARED_DIFFERENCE */

TestSuite(squared_difference, .init = setup, .fini = teardown);

Test(squared_difference, float32_and_int32)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    (float[]){ 3, -1, 0.5f });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(1),
				    (float[]){ 5 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);
	opver_tensor *ia = kh_tensor(&h, "ia", OPVER_TYPE_INT32, KH_DIMS(3),
				     (int32_t[]){ 3, 65536, -46341 });
	opver_tensor *ib = kh_tensor(&h, "ib", OPVER_TYPE_INT32, KH_DIMS(3),
				     (int32_t[]){ 5, 0, 0 });
	opver_tensor *iout = kh_tensor(&h, "iout", OPVER_TYPE_INT32,
				       KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, binary_node("squared_difference_float32", 1,
					    NULL, 0, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 4, 36, 20.25f }, 3);
	/* 2^32 wraps to 0; 46341^2 = 2^31 + 4633 wraps negative. */
	cr_assert_eq(kh_run(&h, binary_node("squared_difference_int32", 1,
					    NULL, 0, ia, ib, iout)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(iout, (int32_t[]){ 4, 0, INT32_MIN + 4633 }, 3);
}

/*
 * Inputs of scale 0.5, output 0.25 with zero point -128: each input step
 * becomes 64 (shift 7, multiplier 0.5), the difference k steps squares to
 * 4096 k^2, rescaled by 1 / (2^14 x 0.25) = 2^-12: k^2.  ((k x 0.5)^2 /
 * 0.25 = k^2 in real terms.)  k = 3 -> -119, 0 -> -128, -22 -> 484 ->
 * 127 (saturated).
 */
Test(squared_difference, int8_rescales_the_square)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ 5, 7, -10 }, 0.5f, 2);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ -3, 2, 7 }, 0.5f, -3);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(3), NULL, 0.25f, -128);

	cr_assert_eq(kh_run(&h, binary_node("squared_difference_int8", 2, NULL,
					    0, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ -119, -128, 127 }, 3);
}

Test(squared_difference, int8_output_scale_too_fine_is_refused)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(1),
				       NULL, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(1),
				       NULL, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(1), NULL, 1e-6f, 0);

	kh_expect_rejected(&h, binary_node("squared_difference_int8", 2, NULL,
					   0, a, b, out),
			   OPVER_ERROR_UNSUPPORTED, "must be below 1");
}

/* ---------------------------------------------------- MAXIMUM, MINIMUM */

TestSuite(maximum_minimum, .init = setup, .fini = teardown);

/* a > b ? a : b and a < b ? a : b, as TFLite: a NaN in input 2 is kept,
 * one in input 1 is not. */
Test(maximum_minimum, float32_keeps_tflite_nan_order)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 1, -2, NAN, 3 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 0, 5, 1, NAN });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);
	const float *got;

	cr_assert_eq(kh_run(&h, binary_node("maximum_float32", 1, NULL, 0, a,
					    b, out)),
		     OPVER_OK, "%s", h.errors);
	got = out->data;
	cr_expect(got[0] == 1 && got[1] == 5 && got[2] == 1 && isnan(got[3]));
	cr_assert_eq(kh_run(&h, binary_node("minimum_float32", 1, NULL, 0, a,
					    b, out)),
		     OPVER_OK, "%s", h.errors);
	cr_expect(got[0] == 0 && got[1] == -2 && got[2] == 1 && isnan(got[3]));
}

Test(maximum_minimum, integers_compare_stored_values_with_broadcast)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(2, 2),
				       (uint8_t[]){ 0, 200, 128, 255 }, 0.5f,
				       128);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(2),
				       (uint8_t[]){ 100, 210 }, 0.5f, 128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(2, 2), NULL, 0.5f, 128);
	opver_tensor *ia = kh_quantized(&h, "ia", OPVER_TYPE_INT16, KH_DIMS(3),
					(int16_t[]){ -32768, 5, 32767 }, 1e-3f,
					0);
	opver_tensor *ib = kh_quantized(&h, "ib", OPVER_TYPE_INT16, KH_DIMS(1),
					(int16_t[]){ 5 }, 1e-3f, 0);
	opver_tensor *iout = kh_quantized(&h, "iout", OPVER_TYPE_INT16,
					  KH_DIMS(3), NULL, 1e-3f, 0);

	cr_assert_eq(kh_run(&h, binary_node("maximum_uint8", 1, NULL, 0, a, b,
					    out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 100, 210, 128, 255 }, 4);
	cr_assert_eq(kh_run(&h, binary_node("minimum_uint8", 1, NULL, 0, a, b,
					    out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 0, 200, 100, 210 }, 4);
	cr_assert_eq(kh_run(&h, binary_node("minimum_int16", 4, NULL, 0, ia,
					    ib, iout)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(iout, (int16_t[]){ -32768, 5, 5 }, 3);
}

ParameterizedTestParameters(maximum_minimum, int32_broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

ParameterizedTest(bs_case *c, maximum_minimum, int32_broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	int32_t a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS];
	int32_t expected[BS_MAX_ELEMENTS];
	opver_tensor *out;

	cr_assert(na <= COUNT(a) && nb <= COUNT(b) && no <= COUNT(expected));
	for (size_t i = 0; i < na; i++)
		a[i] = (int32_t)(i * 7 % 13) - 6;
	for (size_t i = 0; i < nb; i++)
		b[i] = (int32_t)(i * 5 % 11) - 5;
	for (size_t i = 0; i < no; i++) {
		int32_t x = a[bs_source(&c->a, &o, i)];
		int32_t y = b[bs_source(&c->b, &o, i)];

		expected[i] = x > y ? x : y;
	}
	out = kh_tensor(&h, "out", OPVER_TYPE_INT32, o.rank, o.dims, NULL);

	cr_assert_eq(kh_run(&h, binary_node("maximum_int32", 1, NULL, 0,
					    kh_tensor(&h, "a", OPVER_TYPE_INT32,
						      c->a.rank, c->a.dims, a),
					    kh_tensor(&h, "b", OPVER_TYPE_INT32,
						      c->b.rank, c->b.dims, b),
					    out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, expected, no);
}
