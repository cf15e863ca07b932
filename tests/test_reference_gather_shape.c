/*
 * test_reference_gather_shape.c - the reference plugin's kernels that make
 * a tensor from a shape or a value: TILE, BROADCAST_TO, SHAPE, RANK, FILL,
 * ZEROS_LIKE, and CAST, run from the built reference.so through the kernel
 * harness.  Shape-giving inputs are constant (checked in prepare) or come
 * at run time (checked in invoke).  Expected values are worked out by hand
 * in each test.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(tile, .init = setup, .fini = teardown);
TestSuite(broadcast_to, .init = setup, .fini = teardown);
TestSuite(shape, .init = setup, .fini = teardown);
TestSuite(rank, .init = setup, .fini = teardown);
TestSuite(fill, .init = setup, .fini = teardown);
TestSuite(cast, .init = setup, .fini = teardown);

/* kh_expect_rejected() with the messages of earlier checks forgotten. */
static void rejected(opver_node *node, opver_status status, const char *text)
{
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node, status, text);
}

static opver_tensor *constant(opver_tensor *t)
{
	t->is_constant = 1;
	return t;
}

static opver_node *two_input_node(const char *kernel, opver_tensor *a,
				  opver_tensor *b, opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, kernel), 1, NULL, 0,
		       KH_TENSORS(a, b), KH_TENSORS(out));
}

/* ------------------------------------------------------------- TILE */

/* [2, 2] tiled [2, 3] is [4, 6]: rows repeat three times, then the
 * block twice. */
Test(tile, a_matrix_along_both_dimensions)
{
	static const int8_t x[] = { 1, 2, 3, 4 };
	static const int32_t m[] = { 2, 3 };
	static const int8_t want[] = {
		1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
		1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
	};
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2, 2),
				     x);
	opver_tensor *mult = constant(kh_tensor(&h, "multiples",
						OPVER_TYPE_INT32, KH_DIMS(2),
						m));
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(4, 6), NULL);

	cr_assert_eq(kh_run(&h, two_input_node("tile", in, mult, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, want, 24);
}

/* int64 multiples given at run time; [1, 3] float tiled [2, 1]. */
Test(tile, multiples_at_run_time)
{
	static const float x[] = { 1, 2, 3 };
	static const int64_t m[] = { 2, 1 };
	static const int64_t bad[] = { 1, 2 };
	static const float want[] = { 1, 2, 3, 1, 2, 3 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), x);
	opver_tensor *mult = kh_tensor(&h, "multiples", OPVER_TYPE_INT64,
				       KH_DIMS(2), m);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_node *node = two_input_node("tile", in, mult, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, want, 6);
	memcpy(mult->data, bad, sizeof(bad));
	cr_expect_eq(kh_invoke(&h, node), OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "has shape [2, 3]; this TILE gives [1, 6]"), "%s",
		  h.errors);
}

Test(tile, prepare_rejects_shapes_the_multiples_do_not_give)
{
	static const int32_t m[] = { 2, 2 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT32,
				     KH_DIMS(2, 2), NULL);
	opver_tensor *mult = constant(kh_tensor(&h, "multiples",
						OPVER_TYPE_INT32, KH_DIMS(2),
						m));
	opver_tensor *odd = kh_tensor(&h, "odd", OPVER_TYPE_INT32,
				      KH_DIMS(4, 5), NULL);
	opver_tensor *other = kh_tensor(&h, "other", OPVER_TYPE_INT32,
					KH_DIMS(4, 6), NULL);

	rejected(two_input_node("tile", in, mult, odd),
		 OPVER_ERROR_INVALID_MODEL, "output 'odd' has shape [4, 5]; this TILE gives [4, 4]");
	rejected(two_input_node("tile", in, mult, other),
		 OPVER_ERROR_INVALID_MODEL, "output 'other' has shape [4, 6]; this TILE gives [4, 4]");
}

/* ----------------------------------------------------- BROADCAST_TO */

/* [3] to [2, 3] and [2, 1] to [2, 3]: rows repeat, then columns. */
Test(broadcast_to, repeats_missing_and_unit_dimensions)
{
	static const int16_t row[] = { 1, 2, 3 };
	static const int16_t column[] = { 7, 9 };
	static const int32_t shape[] = { 2, 3 };
	static const int16_t want_rows[] = { 1, 2, 3, 1, 2, 3 };
	static const int16_t want_columns[] = { 7, 7, 7, 9, 9, 9 };
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT16, KH_DIMS(3),
				    row);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT16, KH_DIMS(2, 1),
				    column);
	opver_tensor *s = constant(kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					     KH_DIMS(2), shape));
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT16,
				      KH_DIMS(2, 3), NULL);

	cr_assert_eq(kh_run(&h, two_input_node("broadcast_to", a, s, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, want_rows, 6);
	cr_assert_eq(kh_run(&h, two_input_node("broadcast_to", b, s, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, want_columns, 6);
}

/* A scalar to [2, 2] with an int64 shape given at run time. */
Test(broadcast_to, a_scalar_with_a_run_time_shape)
{
	static const int32_t five = 5;
	static const int64_t shape[] = { 2, 2 };
	static const int32_t want[] = { 5, 5, 5, 5 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT32, 0, NULL,
				     &five);
	opver_tensor *s = kh_tensor(&h, "shape", OPVER_TYPE_INT64,
				    KH_DIMS(2), shape);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2, 2), NULL);

	cr_assert_eq(kh_run(&h, two_input_node("broadcast_to", in, s, out)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0);
}

Test(broadcast_to, prepare_rejects_what_does_not_broadcast)
{
	static const int32_t shape[] = { 2, 3 };
	static const int32_t other[] = { 2, 4 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2), NULL);
	opver_tensor *row = kh_tensor(&h, "row", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);
	opver_tensor *s = constant(kh_tensor(&h, "shape", OPVER_TYPE_INT32,
					     KH_DIMS(2), shape));
	opver_tensor *s2 = constant(kh_tensor(&h, "s2", OPVER_TYPE_INT32,
					      KH_DIMS(2), other));
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	rejected(two_input_node("broadcast_to", in, s, out),
		 OPVER_ERROR_INVALID_MODEL, "only 1 broadcasts");
	rejected(two_input_node("broadcast_to", row, s2, out),
		 OPVER_ERROR_INVALID_MODEL, "has shape [2, 3]; its shape input gives [2, 4]");
}

/* ------------------------------------------------------------ SHAPE */

static opver_node *shape_node(int32_t out_type, opver_tensor *in,
			      opver_tensor *out)
{
	const opver_shape_params p = { .out_type = out_type };

	return kh_node(&h, kh_kernel(&h, "shape"), 1, &p, sizeof(p),
		       KH_TENSORS(in), KH_TENSORS(out));
}

Test(shape, gives_the_dimensions_as_int32_or_int64)
{
	static const int32_t want32[] = { 2, 3, 4 };
	static const int64_t want64[] = { 2, 3, 4 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_UINT8,
				     KH_DIMS(2, 3, 4), NULL);
	opver_tensor *o32 = kh_tensor(&h, "o32", OPVER_TYPE_INT32, KH_DIMS(3),
				      NULL);
	opver_tensor *o64 = kh_tensor(&h, "o64", OPVER_TYPE_INT64, KH_DIMS(3),
				      NULL);

	cr_assert_eq(kh_run(&h, shape_node(OPVER_TYPE_INT32, in, o32)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(o32->data, want32, sizeof(want32)), 0);
	cr_assert_eq(kh_run(&h, shape_node(OPVER_TYPE_INT64, in, o64)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(o64->data, want64, sizeof(want64)), 0);
}

Test(shape, prepare_rejects_a_wrong_output)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(3),
				      NULL);
	opver_tensor *two = kh_tensor(&h, "two", OPVER_TYPE_INT32, KH_DIMS(2),
				      NULL);

	rejected(shape_node(OPVER_TYPE_INT32, in, out),
		 OPVER_ERROR_INVALID_MODEL, "an entry per dimension of the input gives [2]");
	rejected(shape_node(OPVER_TYPE_INT64, in, two),
		 OPVER_ERROR_INVALID_MODEL, "out_type is INT64");
}

/* ---------------------------------------------------------------- RANK */

static opver_node *rank_node(opver_tensor *in, opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, "rank"), 1, NULL, 0, KH_TENSORS(in),
		       KH_TENSORS(out));
}

/* Any input type, a scalar or a [1] output; a scalar input has rank 0. */
Test(rank, gives_the_number_of_dimensions)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, 0, NULL,
				      NULL);
	opver_tensor *one = kh_tensor(&h, "one", OPVER_TYPE_INT32, KH_DIMS(1),
				      NULL);

	cr_assert_eq(kh_run(&h, rank_node(kh_tensor(&h, "in", OPVER_TYPE_BOOL,
						    KH_DIMS(2, 1, 3, 1, 2),
						    NULL),
					  out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (const int32_t[]){ 5 }, 1);
	cr_assert_eq(kh_run(&h, rank_node(kh_tensor(&h, "in",
						    OPVER_TYPE_FLOAT32, 0,
						    NULL, NULL),
					  one)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(one, (const int32_t[]){ 0 }, 1);
}

Test(rank, prepare_rejects_a_wrong_output)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2, 3),
				     NULL);

	rejected(rank_node(in, kh_tensor(&h, "out", OPVER_TYPE_INT64, 0, NULL,
					 NULL)),
		 OPVER_ERROR_UNSUPPORTED, "has type INT64");
	rejected(rank_node(in, kh_tensor(&h, "out", OPVER_TYPE_INT32,
					 KH_DIMS(2), NULL)),
		 OPVER_ERROR_INVALID_MODEL, "has 2 elements");
}

/* ------------------------------------------------ FILL and ZEROS_LIKE */

Test(fill, repeats_the_value)
{
	static const int32_t dims[] = { 2, 2 };
	static const int64_t dims64[] = { 3 };
	static const float value = 1.5f;
	static const uint8_t yes = 1;
	static const float want[] = { 1.5f, 1.5f, 1.5f, 1.5f };
	static const uint8_t want_bools[] = { 1, 1, 1 };
	opver_tensor *d = constant(kh_tensor(&h, "dims", OPVER_TYPE_INT32,
					     KH_DIMS(2), dims));
	opver_tensor *d64 = kh_tensor(&h, "d64", OPVER_TYPE_INT64, KH_DIMS(1),
				      dims64);
	opver_tensor *v = kh_tensor(&h, "value", OPVER_TYPE_FLOAT32, 0, NULL,
				    &value);
	opver_tensor *b = kh_tensor(&h, "yes", OPVER_TYPE_BOOL, 0, NULL,
				    &yes);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);
	opver_tensor *bools = kh_tensor(&h, "bools", OPVER_TYPE_BOOL,
					KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, two_input_node("fill", d, v, out)), OPVER_OK,
		     "%s", h.errors);
	kh_expect_floats(out, want, 4);
	cr_assert_eq(kh_run(&h, two_input_node("fill", d64, b, bools)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(memcmp(bools->data, want_bools, 3), 0);
}

/* float16 (version 4) is two bytes copied: 0x3e00 is 1.5. */
Test(fill, repeats_a_float16_value)
{
	static const int32_t dims[] = { 3 };
	static const uint16_t value = 0x3e00;
	static const uint16_t want[] = { 0x3e00, 0x3e00, 0x3e00 };
	opver_tensor *d = constant(kh_tensor(&h, "dims", OPVER_TYPE_INT32,
					     KH_DIMS(1), dims));
	opver_tensor *v = kh_tensor(&h, "value", OPVER_TYPE_FLOAT16, 0, NULL,
				    &value);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT16,
				      KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, two_input_node("fill", d, v, out)), OPVER_OK,
		     "%s", h.errors);
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0);
}

Test(fill, rejects_dims_that_are_not_the_output)
{
	static const int32_t dims[] = { 2, 3 };
	static const int8_t value = 7;
	opver_tensor *d = constant(kh_tensor(&h, "dims", OPVER_TYPE_INT32,
					     KH_DIMS(2), dims));
	opver_tensor *run = kh_tensor(&h, "run", OPVER_TYPE_INT32, KH_DIMS(2),
				      dims);
	opver_tensor *v = kh_tensor(&h, "value", OPVER_TYPE_INT8, 0, NULL,
				    &value);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(2, 2), NULL);

	rejected(two_input_node("fill", d, v, out), OPVER_ERROR_INVALID_MODEL,
		 "has shape [2, 2]; its shape input gives [2, 3]");
	cr_expect_eq(kh_run(&h, two_input_node("fill", run, v, out)),
		     OPVER_ERROR_INVALID_MODEL);
}

Test(fill, zeros_like_zeroes)
{
	static const float x[] = { 1, -2, 3 };
	static const float zeros[] = { 0, 0, 0 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				     x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), x);

	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "zeros_like"), 1,
					NULL, 0, KH_TENSORS(in),
					KH_TENSORS(out))),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, zeros, 3);
}

/* ------------------------------------------------------------- CAST */

/* Casts `count` elements of `in` (type a) to type b and compares the
 * bytes with `want`. */
static void expect_cast(opver_type a, const void *in, opver_type b,
			const void *want, size_t want_bytes, int32_t count)
{
	opver_tensor *x = kh_tensor(&h, "in", a, KH_DIMS(count), in);
	opver_tensor *y = kh_tensor(&h, "out", b, KH_DIMS(count), NULL);

	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "cast"), 1, NULL, 0,
					KH_TENSORS(x), KH_TENSORS(y))),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(y->bytes, want_bytes);
	cr_expect_eq(memcmp(y->data, want, want_bytes), 0, "%s to %s",
		     h.host.type_name(a), h.host.type_name(b));
}

Test(cast, floats_to_integers_truncate_and_clamp)
{
	static const float in[] = { 1.9f, -1.9f, 300.0f, -300.0f, 3e9f,
				    NAN };
	static const int32_t to32[] = { 1, -1, 300, -300, INT32_MAX,
					INT32_MAX };
	static const int16_t to16[] = { 1, -1, 300, -300, INT16_MAX, 0 };
	static const uint8_t to8[] = { 1, 0, 255, 0, 255, 0 };
	static const int8_t toi8[] = { 1, -1, 127, -128, 127, 0 };
	static const uint8_t tobool[] = { 1, 1, 1, 1, 1, 1 };

	expect_cast(OPVER_TYPE_FLOAT32, in, OPVER_TYPE_INT32, to32,
		    sizeof(to32), 6);
	expect_cast(OPVER_TYPE_FLOAT32, in, OPVER_TYPE_INT16, to16,
		    sizeof(to16), 6);
	expect_cast(OPVER_TYPE_FLOAT32, in, OPVER_TYPE_UINT8, to8,
		    sizeof(to8), 6);
	expect_cast(OPVER_TYPE_FLOAT32, in, OPVER_TYPE_INT8, toi8,
		    sizeof(toi8), 6);
	expect_cast(OPVER_TYPE_FLOAT32, in, OPVER_TYPE_BOOL, tobool,
		    sizeof(tobool), 6);
}

Test(cast, integers_wrap_and_bools_are_not_zero)
{
	static const int32_t in[] = { 0, 1, -1, 256, 70000 };
	static const uint8_t to8[] = { 0, 1, 255, 0, 0x70 };
	static const int16_t to16[] = { 0, 1, -1, 256, 4464 };
	static const uint32_t tou32[] = { 0, 1, UINT32_MAX, 256, 70000 };
	static const uint8_t tobool[] = { 0, 1, 1, 1, 1 };
	static const uint8_t bools[] = { 0, 1, 1 };
	static const float bools_to_float[] = { 0, 1, 1 };

	expect_cast(OPVER_TYPE_INT32, in, OPVER_TYPE_UINT8, to8, sizeof(to8),
		    5);
	expect_cast(OPVER_TYPE_INT32, in, OPVER_TYPE_INT16, to16,
		    sizeof(to16), 5);
	expect_cast(OPVER_TYPE_INT32, in, OPVER_TYPE_UINT32, tou32,
		    sizeof(tou32), 5);
	expect_cast(OPVER_TYPE_INT32, in, OPVER_TYPE_BOOL, tobool,
		    sizeof(tobool), 5);
	expect_cast(OPVER_TYPE_BOOL, bools, OPVER_TYPE_FLOAT32,
		    bools_to_float, sizeof(bools_to_float), 3);
}

/* Each int64 rounds once, to even: 2^62 + 2^38 + 1 is just past halfway
 * between two floats, and would land exactly halfway, then on the even
 * 2^62, if it went to float32 through a double. */
Test(cast, wide_integers_round_once)
{
	static const int64_t in[] = { (INT64_C(1) << 24) + 1,
				      (INT64_C(1) << 53) + 1,
				      (INT64_C(1) << 62) + (INT64_C(1) << 38) +
					      1 };
	static const float to_float[] = { 16777216.0f, 9007199254740992.0f,
					  4611686568183201792.0f };
	static const double to_double[] = { 16777217.0, 9007199254740992.0,
					    4611686293305294848.0 };
	static const uint16_t u16[] = { 65535, 1 };
	static const double u16_double[] = { 65535.0, 1.0 };

	expect_cast(OPVER_TYPE_INT64, in, OPVER_TYPE_FLOAT32, to_float,
		    sizeof(to_float), 3);
	expect_cast(OPVER_TYPE_INT64, in, OPVER_TYPE_FLOAT64, to_double,
		    sizeof(to_double), 3);
	expect_cast(OPVER_TYPE_UINT16, u16, OPVER_TYPE_FLOAT64, u16_double,
		    sizeof(u16_double), 2);
}

/* 1, -1.5, 2^-24 (the least subnormal), 65504 (the largest finite),
 * -infinity and a NaN: exact in float32; truncated and clamped in int16,
 * the NaN to 0. */
Test(cast, float16_widens_exactly)
{
	static const uint16_t in[] = { 0x3c00, 0xbe00, 0x0001,
				       0x7bff, 0xfc00, 0x7e00 };
	static const uint32_t to_float[] = { 0x3f800000, 0xbfc00000,
					     0x33800000, 0x477fe000,
					     0xff800000, 0x7fc00000 };
	static const int16_t to16[] = { 1, -1, 0, INT16_MAX, INT16_MIN, 0 };

	expect_cast(OPVER_TYPE_FLOAT16, in, OPVER_TYPE_FLOAT32, to_float,
		    sizeof(to_float), 6);
	expect_cast(OPVER_TYPE_FLOAT16, in, OPVER_TYPE_INT16, to16,
		    sizeof(to16), 6);
}

/*
 * To float16, to nearest with ties to even: 1 + 2^-11 is halfway between
 * 1 and 1 + 2^-10 and stays 1; 1 + 3 x 2^-11 goes up to the even
 * 1 + 2^-9; just past halfway goes up.  65519 is the largest finite,
 * 65520 (halfway to 2^16) infinity.  Subnormals: 2^-25 is halfway to the
 * least one and gives 0, 3 x 2^-25 the even 2 x 2^-24, and 2^-14 - 2^-26
 * rounds up to the least normal.  NaNs become 0x7e00 with their sign.
 */
Test(cast, float32_narrows_to_float16_to_nearest_even)
{
	static const uint32_t bits[] = {
		0x3f800000, 0x3f801000, 0x3f803000, 0x3f801008,
		0x477fef00, 0x477ff000, 0x33000000, 0x33c00000,
		0x387ff000, 0x80000000, 0x7f800001, 0xffc00000,
	};
	static const uint16_t want[] = {
		0x3c00, 0x3c00, 0x3c02, 0x3c01, 0x7bff, 0x7c00,
		0x0000, 0x0002, 0x0400, 0x8000, 0x7e00, 0xfe00,
	};

	expect_cast(OPVER_TYPE_FLOAT32, bits, OPVER_TYPE_FLOAT16, want,
		    sizeof(want), 12);
}

/* Integers and doubles go to float16 through float32, as TFLite's: 2049
 * and 2051 are halfway between float16s (2048 and 2052 are even), and
 * 1 + 2^-11 + 2^-40 rounds to the float 1 + 2^-11 first, then to 1. */
Test(cast, wide_values_reach_float16_through_float32)
{
	static const int32_t ints[] = { 2049, 2051, -3 };
	static const uint16_t ints_want[] = { 0x6800, 0x6802, 0xc200 };
	static const double doubles[] = { 1.0 + 0x1p-11 + 0x1p-40, -0.25 };
	static const uint16_t doubles_want[] = { 0x3c00, 0xb400 };

	expect_cast(OPVER_TYPE_INT32, ints, OPVER_TYPE_FLOAT16, ints_want,
		    sizeof(ints_want), 3);
	expect_cast(OPVER_TYPE_FLOAT64, doubles, OPVER_TYPE_FLOAT16,
		    doubles_want, sizeof(doubles_want), 2);
}

Test(cast, rejects_types_it_does_not_convert)
{
	opver_tensor *x = kh_tensor(&h, "in", OPVER_TYPE_BFLOAT16, KH_DIMS(2),
				    NULL);
	opver_tensor *y = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);

	rejected(kh_node(&h, kh_kernel(&h, "cast"), 1, NULL, 0, KH_TENSORS(x),
			 KH_TENSORS(y)),
		 OPVER_ERROR_UNSUPPORTED, "input 'in' has type BFLOAT16");
}
