/*
 * test_reference_binary_math.c - the reference plugin's FLOOR_DIV,
 * FLOOR_MOD, POW and ADD_N kernels: values worked out by hand, the type
 * minimum divided by -1, zero divisors and negative int32 exponents
 * reported at invoke, broadcasting, wrapping sums and bad nodes.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "binary_harness.h"

/* ------------------------------------------------------------ FLOOR_DIV */

TestSuite(floor_div, .init = setup, .fini = teardown);

/* Floors toward minus infinity, unlike DIV: 7 / -2 = -3.5 -> -4. */
Test(floor_div, float32_floors_toward_minus_infinity)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(6),
				    (float[]){ 7, -7, 7, -7, 1, 5.5f });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(6),
				    (float[]){ 2, 2, -2, -2, 3, 0.5f });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(6), NULL);

	cr_assert_eq(kh_run(&h, binary_node("floor_div_float32", 2, NULL, 0,
					    a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 3, -4, -4, 3, 0, 11 }, 6);
}

/* [2, 2] by [1] -3: -7 / -3 = 2.33 -> 2; INT32_MIN / -3 = 715827882.67
 * -> 715827882. */
Test(floor_div, int32_broadcasts_a_scalar)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(2, 2),
				    (int32_t[]){ 7, -7, 0, INT32_MIN });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(1),
				    (int32_t[]){ -3 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2, 2), NULL);

	cr_assert_eq(kh_run(&h, binary_node("floor_div_int32", 1, NULL, 0, a,
					    b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ -3, 2, 0, 715827882 }, 4);
}

/* The type's minimum / -1 is one past its maximum: the minimum, as
 * TFLite's conversion gives it on x86 and WebAssembly (TFLite 2.12's tool
 * gives INT32_MIN for INT32_MIN / -1). */
Test(floor_div, minimum_by_minus_one_is_the_minimum)
{
	opver_tensor *a32 = kh_tensor(&h, "a32", OPVER_TYPE_INT32, KH_DIMS(2),
				      (int32_t[]){ INT32_MIN, INT32_MAX });
	opver_tensor *b32 = kh_tensor(&h, "b32", OPVER_TYPE_INT32, KH_DIMS(2),
				      (int32_t[]){ -1, -1 });
	opver_tensor *o32 = kh_tensor(&h, "o32", OPVER_TYPE_INT32, KH_DIMS(2),
				      NULL);
	opver_tensor *a16 = kh_tensor(&h, "a16", OPVER_TYPE_INT16, KH_DIMS(3),
				      (int16_t[]){ -32768, 100, -100 });
	opver_tensor *b16 = kh_tensor(&h, "b16", OPVER_TYPE_INT16, KH_DIMS(3),
				      (int16_t[]){ -1, 7, 7 });
	opver_tensor *o16 = kh_tensor(&h, "o16", OPVER_TYPE_INT16, KH_DIMS(3),
				      NULL);
	opver_tensor *a8 = kh_tensor(&h, "a8", OPVER_TYPE_INT8, KH_DIMS(3),
				     (int8_t[]){ -128, 7, -7 });
	opver_tensor *b8 = kh_tensor(&h, "b8", OPVER_TYPE_INT8, KH_DIMS(3),
				     (int8_t[]){ -1, -2, 2 });
	opver_tensor *o8 = kh_tensor(&h, "o8", OPVER_TYPE_INT8, KH_DIMS(3),
				     NULL);

	cr_assert_eq(kh_run(&h, binary_node("floor_div_int32", 1, NULL, 0,
					    a32, b32, o32)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(o32, (int32_t[]){ INT32_MIN, -INT32_MAX }, 2);
	cr_assert_eq(kh_run(&h, binary_node("floor_div_int16", 3, NULL, 0,
					    a16, b16, o16)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(o16, (int16_t[]){ -32768, 14, -15 }, 3);
	cr_assert_eq(kh_run(&h, binary_node("floor_div_int8", 3, NULL, 0, a8,
					    b8, o8)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(o8, (int8_t[]){ -128, -4, -4 }, 3);
}

/* TFLite refuses a zero divisor of every type, float32's -0 too. */
Test(floor_div, zero_divisor_is_reported_not_computed)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 7, 1 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 2, -0.0f });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);
	opver_node *n = binary_node("floor_div_float32", 2, NULL, 0, a, b,
				    out);

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(kh_error_contains(&h,
				    "input 2 'b' element 1 is zero: FLOOR_DIV"),
		  "%s", h.errors);
}

Test(floor_div, shapes_that_do_not_broadcast_are_refused)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(2, 3),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2, 3), NULL);

	kh_expect_rejected(&h, binary_node("floor_div_int32", 1, NULL, 0, a,
					   b, out),
			   OPVER_ERROR_INVALID_MODEL, "do not broadcast");
}

Test(floor_div, mixed_types_are_refused)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(3),
				    NULL);
	opver_tensor *f = kh_tensor(&h, "f", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(3),
				      NULL);

	kh_expect_rejected(&h, binary_node("floor_div_int32", 1, NULL, 0, a,
					   f, out),
			   OPVER_ERROR_UNSUPPORTED, "input 2");
}

Test(floor_div, empty_tensors_run)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(0, 3),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(3),
				    (int32_t[]){ 1, 2, 3 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(0, 3), NULL);

	cr_assert_eq(kh_run(&h, binary_node("floor_div_int32", 1, NULL, 0, a,
					    b, out)),
		     OPVER_OK, "%s", h.errors);
}

/* ------------------------------------------------------------ FLOOR_MOD */

TestSuite(floor_mod, .init = setup, .fini = teardown);

/* The result takes the divisor's sign: 7 mod -3 = 1 - 3 = -2, -7 mod 3 =
 * -1 + 3 = 2; INT32_MIN mod -1 is 0 (a trap in C, not computed). */
Test(floor_mod, int32_takes_the_divisors_sign)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(6),
				    (int32_t[]){ 7, -7, 7, -7, INT32_MIN, 6 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(6),
				    (int32_t[]){ -3, 3, 3, -3, -1, 3 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(6), NULL);

	cr_assert_eq(kh_run(&h, binary_node("floor_mod_int32", 1, NULL, 0, a,
					    b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ -2, 2, 1, -1, 0, 0 }, 6);
}

/* 9e15 = 5 (mod 7) (10^15 = 3^15 = 6 (mod 7), 9 x 6 = 54 = 5), so
 * -9e15 leaves -5, and -5 + 7 = 2. */
Test(floor_mod, int64_and_the_narrow_integers)
{
	const int64_t want64[] = { 2, 0, -1 };
	opver_tensor *a64 = kh_tensor(&h, "a64", OPVER_TYPE_INT64, KH_DIMS(3),
				      (int64_t[]){ -9000000000000000, INT64_MIN,
						   5 });
	opver_tensor *b64 = kh_tensor(&h, "b64", OPVER_TYPE_INT64, KH_DIMS(3),
				      (int64_t[]){ 7, -1, -2 });
	opver_tensor *o64 = kh_tensor(&h, "o64", OPVER_TYPE_INT64, KH_DIMS(3),
				      NULL);
	opver_tensor *a16 = kh_tensor(&h, "a16", OPVER_TYPE_INT16, KH_DIMS(2),
				      (int16_t[]){ 32767, -32768 });
	opver_tensor *b16 = kh_tensor(&h, "b16", OPVER_TYPE_INT16, KH_DIMS(2),
				      (int16_t[]){ -2, -1 });
	opver_tensor *o16 = kh_tensor(&h, "o16", OPVER_TYPE_INT16, KH_DIMS(2),
				      NULL);
	opver_tensor *a8 = kh_tensor(&h, "a8", OPVER_TYPE_INT8, KH_DIMS(2),
				     (int8_t[]){ -128, -128 });
	opver_tensor *b8 = kh_tensor(&h, "b8", OPVER_TYPE_INT8, KH_DIMS(2),
				     (int8_t[]){ -1, 3 });
	opver_tensor *o8 = kh_tensor(&h, "o8", OPVER_TYPE_INT8, KH_DIMS(2),
				     NULL);

	cr_assert_eq(kh_run(&h, binary_node("floor_mod_int64", 1, NULL, 0,
					    a64, b64, o64)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(memcmp(o64->data, want64, sizeof(want64)), 0);
	cr_assert_eq(kh_run(&h, binary_node("floor_mod_int16", 2, NULL, 0,
					    a16, b16, o16)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(o16, (int16_t[]){ -1, 0 }, 2);
	/* -128 = -42 x 3 - 2, and -2 + 3 = 1. */
	cr_assert_eq(kh_run(&h, binary_node("floor_mod_int8", 2, NULL, 0, a8,
					    b8, o8)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(o8, (int8_t[]){ 0, 1 }, 2);
}

/* fmodf, then the divisor's sign: 7.5 mod -2 = 1.5 - 2 = -0.5; -7.5
 * mod 2 = -1.5 + 2 = 0.5.  A zero divisor gives NaN, unreported. */
Test(floor_mod, float32_by_zero_is_nan)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 7.5f, -7.5f, 6, 5 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ -2, 2, 3, 0 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);
	const float *got = out->data;

	cr_assert_eq(kh_run(&h, binary_node("floor_mod_float32", 1, NULL, 0,
					    a, b, out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_float_eq(got[0], -0.5f, 0);
	cr_assert_float_eq(got[1], 0.5f, 0);
	cr_assert_float_eq(got[2], 0.0f, 0);
	cr_assert(isnan(got[3]));
}

Test(floor_mod, integer_zero_divisor_is_reported_not_computed)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2, 2),
				    (int8_t[]){ 1, 2, 3, 4 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT8, KH_DIMS(2),
				    (int8_t[]){ 5, 0 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(2, 2), NULL);
	opver_node *n = binary_node("floor_mod_int8", 2, NULL, 0, a, b, out);

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(kh_error_contains(&h,
				    "input 2 'b' element 1 is zero: FLOOR_MOD"),
		  "%s", h.errors);
}

/* ------------------------------------------------------------------ POW */

TestSuite(pow, .init = setup, .fini = teardown);

/* [2, 2] to the power of [2] (broadcast along rows). */
Test(pow, float32_broadcasts)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2, 2),
				    (float[]){ 2, 4, 3, 0.25f });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 3, 0.5f });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);

	cr_assert_eq(kh_run(&h, binary_node("pow_float32", 1, NULL, 0, a, b,
					    out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 8, 2, 27, 0.5f }, 4);
}

/* 3^20 = 3486784401 is past INT32_MAX: INT32_MIN, as TFLite's
 * conversion gives it on x86 and WebAssembly (TFLite 2.12's tool gives
 * INT32_MIN for 3^20, 2^31, 46341^2 and 10^10). */
Test(pow, int32_powers_and_overflow)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(5),
				    (int32_t[]){ 2, -3, 0, 3, 7 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(5),
				    (int32_t[]){ 10, 3, 0, 20, 0 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(5), NULL);

	cr_assert_eq(kh_run(&h, binary_node("pow_int32", 1, NULL, 0, a, b,
					    out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ 1024, -27, 1, INT32_MIN, 1 }, 5);
}

Test(pow, int32_negative_exponent_is_reported_not_computed)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 2, 2 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 1, -1 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);
	opver_node *n = binary_node("pow_int32", 1, NULL, 0, a, b, out);

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(kh_error_contains(&h, "input 2 'b' element 1 is -1"), "%s",
		  h.errors);
}

/* ---------------------------------------------------------------- ADD_N */

TestSuite(add_n, .init = setup, .fini = teardown);

/* INT32_MAX + 1 + 1 wraps to INT32_MIN + 1, as TFLite's int sum does. */
Test(add_n, sums_three_inputs_in_order_and_wraps)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ INT32_MAX, -5 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 1, 7 });
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 1, -100 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);
	opver_tensor *fa = kh_tensor(&h, "fa", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2), (float[]){ 0.5f, 1e8f });
	opver_tensor *fb = kh_tensor(&h, "fb", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2), (float[]){ 0.25f, 1 });
	opver_tensor *fout = kh_tensor(&h, "fout", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1, 2), NULL);

	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "add_n_int32"), 1,
					NULL, 0, KH_TENSORS(a, b, c),
					KH_TENSORS(out))),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ INT32_MIN + 1, -98 }, 2);
	/* 1e8 + 1 rounds back to 1e8 in float. */
	cr_assert_eq(kh_run(&h, binary_node("add_n_float32", 1, NULL, 0, fa,
					    fb, fout)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(fout, (float[]){ 0.75f, 1e8f }, 2);
}

Test(add_n, inputs_of_other_shapes_are_refused)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2, 3),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "add_n_float32"), 1,
				       NULL, 0, KH_TENSORS(a, a, b),
				       KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL,
			   "input 3 'b' differs in shape");
}

Test(add_n, inputs_of_other_types_are_refused)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    NULL);
	opver_tensor *i = kh_tensor(&h, "i", OPVER_TYPE_INT32, KH_DIMS(3),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);

	kh_expect_rejected(&h, binary_node("add_n_float32", 1, NULL, 0, a, i,
					   out),
			   OPVER_ERROR_UNSUPPORTED, "input 2");
}

Test(add_n, one_input_is_refused)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "add_n_float32"), 1,
				       NULL, 0, KH_TENSORS(a),
				       KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "two or more inputs");
}

/* ------------------------------------------- int64 ADD, SUB; int MUL */

TestSuite(integer_arithmetic, .init = setup, .fini = teardown);

/* The sums wrap as TFLite's int arithmetic does; RELU6 clamps to 0..6. */
Test(integer_arithmetic, int64_add_and_sub_wrap_and_clamp)
{
	const opver_add_params none = { .activation = OPVER_ACTIVATION_NONE };
	const opver_add_params relu6 = { .activation = OPVER_ACTIVATION_RELU6 };
	const opver_sub_params sub = { .activation = OPVER_ACTIVATION_NONE };
	const int64_t want_sum[] = { INT64_MIN, 7, -7 };
	const int64_t want_relu6[] = { 0, 6, 0 };
	const int64_t want_difference[] = { INT64_MAX, 3, -4 };
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT64, KH_DIMS(3),
				    (int64_t[]){ INT64_MAX, 5, -3 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT64, KH_DIMS(3),
				    (int64_t[]){ 1, 2, -4 });
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_INT64, KH_DIMS(1),
				    (int64_t[]){ 1 });
	opver_tensor *d = kh_tensor(&h, "d", OPVER_TYPE_INT64, KH_DIMS(3),
				    (int64_t[]){ INT64_MIN, 4, -3 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT64,
				      KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, binary_node("add_int64", 4, &none,
					    sizeof(none), a, b, out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(memcmp(out->data, want_sum, sizeof(want_sum)), 0);
	cr_assert_eq(kh_run(&h, binary_node("add_int64", 4, &relu6,
					    sizeof(relu6), a, b, out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(memcmp(out->data, want_relu6, sizeof(want_relu6)), 0);
	/* d - [1], broadcast: INT64_MIN - 1 wraps to INT64_MAX. */
	cr_assert_eq(kh_run(&h, binary_node("sub_int64", 4, &sub, sizeof(sub),
					    d, c, out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(memcmp(out->data, want_difference,
			    sizeof(want_difference)),
		     0);
}

/* 65536^2 = 2^32 wraps to 0 in int32, 2^62 x 4 = 2^64 to 0 in int64. */
Test(integer_arithmetic, int32_and_int64_mul_wrap_and_clamp)
{
	const opver_mul_params none = { .activation = OPVER_ACTIVATION_NONE };
	const opver_mul_params relu = { .activation = OPVER_ACTIVATION_RELU };
	const int64_t want64[] = { 0, -15 };
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(3),
				    (int32_t[]){ 65536, -3, 7 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(3),
				    (int32_t[]){ 65536, 5, 6 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(3), NULL);
	opver_tensor *a64 = kh_tensor(&h, "a64", OPVER_TYPE_INT64, KH_DIMS(2),
				      (int64_t[]){ INT64_C(1) << 62, -3 });
	opver_tensor *b64 = kh_tensor(&h, "b64", OPVER_TYPE_INT64, KH_DIMS(2),
				      (int64_t[]){ 4, 5 });
	opver_tensor *o64 = kh_tensor(&h, "o64", OPVER_TYPE_INT64, KH_DIMS(2),
				      NULL);

	cr_assert_eq(kh_run(&h, binary_node("mul_int32", 1, &none,
					    sizeof(none), a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ 0, -15, 42 }, 3);
	cr_assert_eq(kh_run(&h, binary_node("mul_int32", 1, &relu,
					    sizeof(relu), a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ 0, 0, 42 }, 3);
	cr_assert_eq(kh_run(&h, binary_node("mul_int64", 5, &none,
					    sizeof(none), a64, b64, o64)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(memcmp(o64->data, want64, sizeof(want64)), 0);
}

Test(integer_arithmetic, int64_tanh_activation_is_refused)
{
	const opver_add_params tanh_params = {
		.activation = OPVER_ACTIVATION_TANH
	};
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT64, KH_DIMS(1),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT64,
				      KH_DIMS(1), NULL);

	kh_expect_rejected(&h, binary_node("add_int64", 4, &tanh_params,
					   sizeof(tanh_params), a, a, out),
			   OPVER_ERROR_UNSUPPORTED, "activation");
}
