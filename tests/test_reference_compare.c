/*
 * test_reference_compare.c - the reference plugin's comparison and logical
 * kernels (compare.c) and SELECT, SELECT_V2 (select.c): values worked out
 * by hand, TFLite's rescaling of 8-bit inputs, bytes other than 0 and 1
 * in BOOL inputs, broadcasting and the nodes they refuse.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "binary_harness.h"

TestSuite(compare, .init = setup, .fini = teardown);

/* Runs kernel `name` over a and b into a BOOL tensor shaped like `shape`
 * (`rank` dims) and expects `want` (count 0/1 bytes). */
static void expect_compare(const char *name, opver_tensor *a,
			   opver_tensor *b, int32_t rank,
			   const int32_t *shape, const uint8_t *want,
			   size_t count)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_BOOL, rank, shape,
				      NULL);

	cr_assert_eq(kh_run(&h, binary_node(name, 1, NULL, 0, a, b, out)),
		     OPVER_OK, "%s: %s", name, h.errors);
	expect_uint8s(out, want, count);
}

/* A node of kernel `name` over a and b into out: rejected with `status`
 * and a message containing `text`. */
static void expect_refused(const char *name, opver_tensor *a, opver_tensor *b,
			   opver_tensor *out, opver_status status,
			   const char *text)
{
	kh_expect_rejected(&h, binary_node(name, 1, NULL, 0, a, b, out),
			   status, text);
}

#define VECTOR(name, type) \
	kh_tensor(&h, name, OPVER_TYPE_##type, KH_DIMS(2), NULL)

Test(compare, float32_every_op_and_nan)
{
	static const struct {
		const char *kernel;
		uint8_t want[4];
	} ops[] = {
		{ "equal", { 0, 1, 0, 0 } },
		{ "not_equal", { 1, 0, 1, 1 } },
		{ "less", { 1, 0, 0, 0 } },
		{ "less_equal", { 1, 1, 0, 0 } },
		{ "greater", { 0, 0, 1, 0 } },
		{ "greater_equal", { 0, 1, 1, 0 } },
	};
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 1, 2, 3, NAN });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(4),
				    (float[]){ 2, 2, 2, NAN });

	for (size_t i = 0; i < COUNT(ops); i++)
		expect_compare(ops[i].kernel, a, b, KH_DIMS(4), ops[i].want,
			       4);
}

/* int64 values that one float (or double) would not tell apart. */
Test(compare, int64_compares_every_bit)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT64, KH_DIMS(2),
				    (int64_t[]){ (INT64_C(1) << 62) + 1,
						 INT64_MIN });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT64, KH_DIMS(2),
				    (int64_t[]){ INT64_C(1) << 62,
						 INT64_MIN });

	expect_compare("greater", a, b, KH_DIMS(2), (uint8_t[]){ 1, 0 }, 2);
	expect_compare("equal", a, b, KH_DIMS(2), (uint8_t[]){ 0, 1 }, 2);
}

/* int16 (EQUAL v5, NOT_EQUAL v4, LESS and GREATER_EQUAL v3) is newer
 * than the oracle's TFLite 2.12, which refuses those versions: by hand. */
Test(compare, int16_and_int32)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT16, KH_DIMS(3),
				    (int16_t[]){ -32768, 0, 32767 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT16, KH_DIMS(1),
				    (int16_t[]){ 0 });
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_INT32, KH_DIMS(3),
				    (int32_t[]){ INT32_MIN, 7, INT32_MAX });
	opver_tensor *d = kh_tensor(&h, "d", OPVER_TYPE_INT32, KH_DIMS(3),
				    (int32_t[]){ INT32_MAX, 7, INT32_MIN });

	expect_compare("less", a, b, KH_DIMS(3), (uint8_t[]){ 1, 0, 0 }, 3);
	expect_compare("equal", a, b, KH_DIMS(3), (uint8_t[]){ 0, 1, 0 }, 3);
	expect_compare("greater_equal", a, b, KH_DIMS(3),
		       (uint8_t[]){ 0, 1, 1 }, 3);
	expect_compare("not_equal", a, b, KH_DIMS(3), (uint8_t[]){ 1, 0, 1 },
		       3);
	expect_compare("less_equal", c, d, KH_DIMS(3), (uint8_t[]){ 1, 1, 0 },
		       3);
}

/* Bytes 2 and 255 are true, like 1: hostile BOOL inputs compare as truth
 * values, and the output holds only 0 and 1. */
Test(compare, bool_bytes_other_than_0_and_1_are_true)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_BOOL, KH_DIMS(4),
				    (uint8_t[]){ 0, 1, 2, 255 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_BOOL, KH_DIMS(4),
				    (uint8_t[]){ 1, 1, 1, 0 });

	expect_compare("equal", a, b, KH_DIMS(4), (uint8_t[]){ 0, 1, 1, 0 },
		       4);
	expect_compare("not_equal", a, b, KH_DIMS(4),
		       (uint8_t[]){ 1, 0, 0, 1 }, 4);
}

/*
 * Input 1: scale 0.5, zero point 128; input 2: scale 0.25, zero point 0.
 * TFLite rescales both: ((x - zero) << 8) x scale.  130 -> 2 x 256 x 0.5 =
 * 256; 4 -> 4 x 256 x 0.25 = 256: equal, as their real values (1 and 1).
 * 128 -> 0 and 0 -> 0; 126 -> -256 against 0.
 */
Test(compare, uint8_rescales_each_input)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(3),
				       (uint8_t[]){ 130, 128, 126 }, 0.5f,
				       128);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(3),
				       (uint8_t[]){ 4, 0, 0 }, 0.25f, 0);

	expect_compare("equal", a, b, KH_DIMS(3), (uint8_t[]){ 1, 1, 0 }, 3);
	expect_compare("less", a, b, KH_DIMS(3), (uint8_t[]){ 0, 0, 1 }, 3);
}

/*
 * Scale 0.001 is multiplier round(0.512 x 2^31) = 1099511680 (0.001f is
 * 0.0010000000475) and shift -9.  1 -> 256: round(256 x 0.512) = 131,
 * then 131 / 2^9 rounds to 0.  2 -> 512: round(262.1) = 262, 262 / 512
 * rounds to 1.  So in TFLite int8 1 equals 0 at this scale, and 2 does not.
 */
Test(compare, int8_fine_scales_round_neighbours_together)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ 1, 2, -1 }, 0.001f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ 0, 0, 0 }, 0.001f, 0);

	expect_compare("equal", a, b, KH_DIMS(3), (uint8_t[]){ 1, 0, 1 }, 3);
	expect_compare("greater", a, b, KH_DIMS(3), (uint8_t[]){ 0, 1, 0 },
		       3);
}

/* TFLite aborts on an 8-bit comparison input without quantization (its
 * scale 0 fails QuantizeMultiplierSmallerThanOneExp's check). */
Test(compare, unquantized_uint8_inputs_are_refused)
{
	expect_refused("equal", VECTOR("a", UINT8), VECTOR("b", UINT8),
		       VECTOR("out", BOOL), OPVER_ERROR_INVALID_MODEL,
		       "input 1 'a' is not quantized");
}

/* [2, 1] against [3]: output [2, 3], each row against the vector. */
Test(compare, broadcasts_both_ways)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(2, 1),
				    (int32_t[]){ 1, 5 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(3),
				    (int32_t[]){ 0, 1, 5 });

	expect_compare("greater", a, b, KH_DIMS(2, 3),
		       (uint8_t[]){ 1, 0, 0, 1, 1, 0 }, 6);
	expect_compare("greater", b, a, KH_DIMS(2, 3),
		       (uint8_t[]){ 0, 0, 1, 0, 0, 0 }, 6);
}

Test(compare, same_shapes_of_rank_6_and_empty_tensors)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32,
				    KH_DIMS(1, 1, 1, 1, 1, 2),
				    (float[]){ 1, 2 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32,
				    KH_DIMS(1, 1, 1, 1, 1, 2),
				    (float[]){ 2, 2 });
	opver_tensor *e1 = kh_tensor(&h, "e1", OPVER_TYPE_INT8, KH_DIMS(0, 3),
				     NULL);
	opver_tensor *e2 = kh_tensor(&h, "e2", OPVER_TYPE_INT8, KH_DIMS(3),
				     NULL);

	expect_compare("less_equal", a, b, KH_DIMS(1, 1, 1, 1, 1, 2),
		       (uint8_t[]){ 1, 1 }, 2);
	kh_quantize(&h, e1, 0.5f, 0);
	kh_quantize(&h, e2, 0.5f, 0);
	expect_compare("equal", e1, e2, KH_DIMS(0, 3), NULL, 0);
}

Test(compare, broadcasting_past_4_dimensions_is_refused)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32,
				    KH_DIMS(1, 1, 1, 2, 2), NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_BOOL,
				      KH_DIMS(1, 1, 1, 2, 2), NULL);

	kh_expect_rejected(&h, binary_node("equal", 1, NULL, 0, a, b, out),
			   OPVER_ERROR_UNSUPPORTED, "4 at most");
}

Test(compare, inputs_of_two_types_are_refused)
{
	expect_refused("less", VECTOR("f", FLOAT32), VECTOR("i", INT32),
		       VECTOR("out", BOOL), OPVER_ERROR_UNSUPPORTED,
		       "input 2 'i' has type INT32");
}

Test(compare, an_output_other_than_bool_is_refused)
{
	expect_refused("less", VECTOR("f", FLOAT32), VECTOR("g", FLOAT32),
		       VECTOR("out", FLOAT32), OPVER_ERROR_UNSUPPORTED,
		       "output 'out' has type FLOAT32");
}

Test(compare, an_output_of_another_shape_is_refused)
{
	expect_refused("less", VECTOR("f", FLOAT32), VECTOR("g", FLOAT32),
		       kh_tensor(&h, "out", OPVER_TYPE_BOOL, KH_DIMS(3),
				 NULL),
		       OPVER_ERROR_INVALID_MODEL, "broadcast to a different");
}

/* TFLite's LESS has no bool kernel. */
Test(compare, less_of_bools_is_refused)
{
	expect_refused("less", VECTOR("a", BOOL), VECTOR("b", BOOL),
		       VECTOR("out", BOOL), OPVER_ERROR_UNSUPPORTED,
		       "input 1 'a' has type BOOL");
}

Test(compare, int8_scale_of_1_or_more_is_refused)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 0.5f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_BOOL, KH_DIMS(2),
				      NULL);

	kh_expect_rejected(&h, binary_node("equal", 2, NULL, 0, a, b, out),
			   OPVER_ERROR_UNSUPPORTED, "below 1");
}

/* ------------------------------------------------------------ logical */

TestSuite(logical, .init = setup, .fini = teardown);

Test(logical, and_or_read_any_nonzero_byte_as_true_and_broadcast)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_BOOL, KH_DIMS(2, 1),
				    (uint8_t[]){ 0, 7 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_BOOL, KH_DIMS(3),
				    (uint8_t[]){ 0, 1, 255 });

	expect_compare("logical_and", a, b, KH_DIMS(2, 3),
		       (uint8_t[]){ 0, 0, 0, 0, 1, 1 }, 6);
	expect_compare("logical_or", a, b, KH_DIMS(2, 3),
		       (uint8_t[]){ 0, 1, 1, 1, 1, 1 }, 6);
}

Test(logical, not_writes_only_0_and_1)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_BOOL, KH_DIMS(4),
				    (uint8_t[]){ 0, 1, 2, 255 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_BOOL, KH_DIMS(4),
				      NULL);

	cr_assert_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "logical_not"), 1,
					NULL, 0, KH_TENSORS(a),
					KH_TENSORS(out))),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 1, 0, 0, 0 }, 4);
}

Test(logical, non_bool_inputs_are_refused)
{
	expect_refused("logical_or", VECTOR("f", FLOAT32),
		       VECTOR("g", FLOAT32), VECTOR("out", BOOL), OPVER_ERROR_UNSUPPORTED,
		       "input 1 'f' has type FLOAT32");
}

Test(logical, not_of_a_float_is_refused)
{
	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "logical_not"), 1,
				       NULL, 0,
				       KH_TENSORS(VECTOR("f", FLOAT32)),
				       KH_TENSORS(VECTOR("out", BOOL))),
			   OPVER_ERROR_UNSUPPORTED, "input 'f' has type FLOAT32");
}

/* ------------------------------------------------------------- select */

TestSuite(select, .init = setup, .fini = teardown);

/* A node of kernel `name` over condition, x and y into out. */
static opver_node *select_node(const char *name, opver_tensor *condition,
			       opver_tensor *x, opver_tensor *y,
			       opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, name), 1, NULL, 0,
		       KH_TENSORS(condition, x, y), KH_TENSORS(out));
}

/* Condition bytes 2 and 255 are true. */
Test(select, same_shapes_pick_x_where_the_condition_is_nonzero)
{
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_BOOL, KH_DIMS(2, 2),
				    (uint8_t[]){ 1, 0, 2, 255 });
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_FLOAT32, KH_DIMS(2, 2),
				    (float[]){ 1, 2, 3, 4 });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_FLOAT32, KH_DIMS(2, 2),
				    (float[]){ 10, 20, 30, 40 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);

	cr_assert_eq(kh_run(&h, select_node("select", c, x, y, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 1, 20, 3, 4 }, 4);
}

/* A rank-1 condition picks whole rows of x or y. */
Test(select, a_rank_one_condition_picks_slices)
{
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_BOOL, KH_DIMS(2),
				    (uint8_t[]){ 0, 5 });
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_INT16, KH_DIMS(2, 3),
				    (int16_t[]){ 1, 2, 3, 4, 5, 6 });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_INT16, KH_DIMS(2, 3),
				    (int16_t[]){ 10, 20, 30, 40, 50, 60 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT16,
				      KH_DIMS(2, 3), NULL);

	cr_assert_eq(kh_run(&h, select_node("select", c, x, y, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 10, 20, 30, 4, 5, 6 }, 6);
}

Test(select, a_condition_of_another_shape_is_refused)
{
	kh_expect_rejected(&h,
			   select_node("select", VECTOR("c", BOOL),
				       kh_tensor(&h, "x", OPVER_TYPE_INT32,
						 KH_DIMS(3, 2), NULL),
				       kh_tensor(&h, "y", OPVER_TYPE_INT32,
						 KH_DIMS(3, 2), NULL),
				       kh_tensor(&h, "out", OPVER_TYPE_INT32,
						 KH_DIMS(3, 2), NULL)),
			   OPVER_ERROR_INVALID_MODEL, "rank 1");
}

Test(select, a_condition_other_than_bool_is_refused)
{
	kh_expect_rejected(&h,
			   select_node("select", VECTOR("c", INT8),
				       VECTOR("x", INT8), VECTOR("y", INT8),
				       VECTOR("out", INT8)),
			   OPVER_ERROR_UNSUPPORTED, "condition 'c'");
}

/* [2, 1] condition, [3] x, [1] y: [2, 3]. */
Test(select, v2_broadcasts_all_three_inputs)
{
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_BOOL, KH_DIMS(2, 1),
				    (uint8_t[]){ 1, 0 });
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_INT64, KH_DIMS(3),
				    (int64_t[]){ 1, 2, INT64_MAX });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_INT64, KH_DIMS(1),
				    (int64_t[]){ -9 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT64,
				      KH_DIMS(2, 3), NULL);
	const int64_t want[] = { 1, 2, INT64_MAX, -9, -9, -9 };

	cr_assert_eq(kh_run(&h, select_node("select_v2", c, x, y, out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(memcmp(out->data, want, sizeof(want)), 0);
}

Test(select, v2_bools_are_copied_as_stored_and_empty_outputs_pass)
{
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_BOOL, KH_DIMS(1),
				    (uint8_t[]){ 1 });
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_BOOL, KH_DIMS(3),
				    (uint8_t[]){ 1, 0, 1 });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_BOOL, KH_DIMS(3),
				    (uint8_t[]){ 0, 0, 0 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_BOOL, KH_DIMS(3),
				      NULL);
	opver_tensor *e = kh_tensor(&h, "e", OPVER_TYPE_BOOL, KH_DIMS(0, 3),
				    NULL);
	opver_tensor *eout = kh_tensor(&h, "eout", OPVER_TYPE_BOOL,
				       KH_DIMS(0, 3), NULL);

	cr_assert_eq(kh_run(&h, select_node("select_v2", c, x, y, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 1, 0, 1 }, 3);
	cr_assert_eq(kh_run(&h, select_node("select_v2", e, x, y, eout)),
		     OPVER_OK, "%s", h.errors);
}

Test(select, v2_broadcasting_6_dimensions_is_refused)
{
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_BOOL,
				    KH_DIMS(2, 1, 1, 1, 1, 2), NULL);
	opver_tensor *x = VECTOR("x", FLOAT32);

	kh_expect_rejected(&h,
			   select_node("select_v2", c, x, VECTOR("y", FLOAT32),
				       kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
						 KH_DIMS(2, 1, 1, 1, 1, 2),
						 NULL)),
			   OPVER_ERROR_UNSUPPORTED, "5 at most");
}

Test(select, v2_inputs_that_do_not_broadcast_are_refused)
{
	kh_expect_rejected(&h,
			   select_node("select_v2", VECTOR("c", BOOL),
				       kh_tensor(&h, "x", OPVER_TYPE_INT32,
						 KH_DIMS(3), NULL),
				       VECTOR("y", INT32),
				       VECTOR("out", INT32)),
			   OPVER_ERROR_INVALID_MODEL, "do not broadcast");
}

/* uint32 SELECT (v4) is newer than the oracle's TFLite 2.12: by hand. */
Test(select, uint32_values_are_copied_whole)
{
	opver_tensor *c = kh_tensor(&h, "c", OPVER_TYPE_BOOL, KH_DIMS(2),
				    (uint8_t[]){ 0, 1 });
	opver_tensor *x = kh_tensor(&h, "x", OPVER_TYPE_UINT32, KH_DIMS(2),
				    (uint32_t[]){ 1, UINT32_MAX });
	opver_tensor *y = kh_tensor(&h, "y", OPVER_TYPE_UINT32, KH_DIMS(2),
				    (uint32_t[]){ 0x80000000u, 2 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_UINT32,
				      KH_DIMS(2), NULL);
	const uint32_t want[] = { 0x80000000u, UINT32_MAX };

	cr_assert_eq(kh_run(&h, select_node("select", c, x, y, out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(memcmp(out->data, want, sizeof(want)), 0);
}
