/*
 * test_reference_movement_reverse.c - the reference plugin's REVERSE_V2 and
 * DYNAMIC_UPDATE_SLICE kernels against values written out by hand or
 * computed here from element coordinates, and the refusals TFLite's
 * kernels make.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "movement_harness.h"

/* ---------------------------------------------------------- REVERSE_V2 */

static opver_tensor *reversed(opver_tensor *in, opver_tensor *axis)
{
	opver_tensor *out = kh_tensor(&h, "out", in->type, in->rank, in->dims,
				      NULL);

	run(node("reverse_v2", 1, NULL, 0, KH_TENSORS(in, axis),
		 KH_TENSORS(out)));
	return out;
}

Test(movement, reverse_v2_one_axis_and_a_negative_one)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);

	kh_expect_floats(reversed(in, scalar("axis", 1)),
			 (const float[]){ 3, 2, 1, 6, 5, 4 }, 6);
	kh_expect_floats(reversed(in, scalar("axis", -2)),
			 (const float[]){ 4, 5, 6, 1, 2, 3 }, 6);
}

/* [2,3,4] reversed along axes 1 and 2 (given as 2, 1): element (a, b, c)
 * comes from (a, 2 - b, 3 - c). */
Test(movement, reverse_v2_two_adjacent_axes)
{
	float data[24], want[24];
	opver_tensor *in;

	for (int i = 0; i < 24; i++)
		data[i] = (float)i;
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 3; b++)
			for (int c = 0; c < 4; c++)
				want[(a * 3 + b) * 4 + c] =
					data[(a * 3 + (2 - b)) * 4 + (3 - c)];
	in = floats("in", KH_DIMS(2, 3, 4), data);
	kh_expect_floats(reversed(in, constant("axes", KH_DIMS(2),
					       (const int32_t[]){ 2, 1 })),
			 want, 24);
}

/* The bytes of every element move together: int64, int8 and bool. */
Test(movement, reverse_v2_moves_whole_elements)
{
	const int64_t wide[3] = { INT64_C(1) << 40, -2, 3 };
	const int64_t wide_want[3] = { 3, -2, INT64_C(1) << 40 };
	const int8_t narrow[4] = { -128, 1, 2, 127 };
	const int8_t narrow_want[4] = { 127, 2, 1, -128 };
	opver_tensor *out;

	out = reversed(kh_tensor(&h, "wide", OPVER_TYPE_INT64, KH_DIMS(3),
				 wide),
		       scalar("axis", 0));
	cr_expect_eq(memcmp(out->data, wide_want, sizeof(wide_want)), 0);
	out = reversed(kh_tensor(&h, "narrow", OPVER_TYPE_INT8, KH_DIMS(4),
				 narrow),
		       scalar("axis", 0));
	kh_expect_int8s(out, narrow_want, 4);
	out = reversed(kh_tensor(&h, "flags", OPVER_TYPE_BOOL, KH_DIMS(1, 3),
				 (const uint8_t[]){ 1, 0, 0 }),
		       scalar("axis", 1));
	cr_expect_eq(memcmp(out->data, (const uint8_t[]){ 0, 0, 1 }, 3), 0);
}

Test(movement, reverse_v2_without_axes_copies)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *none = kh_tensor(&h, "none", OPVER_TYPE_INT32,
				       KH_DIMS(0), NULL);

	none->is_constant = true;
	kh_expect_floats(reversed(in, none), six, 6);
}

/* TFLite's reverse.cc refuses axes that are not adjacent once sorted. */
Test(movement, reverse_v2_refuses_axes_that_are_not_adjacent)
{
	opver_tensor *in = floats("in", KH_DIMS(1, 2, 3), six);
	opver_tensor *out = floats("out", KH_DIMS(1, 2, 3), NULL);

	rejected(node("reverse_v2", 1, NULL, 0,
		      KH_TENSORS(in, constant("axes", KH_DIMS(2),
					      (const int32_t[]){
						      0, 2 })),
		      KH_TENSORS(out)),
		 OPVER_ERROR_UNSUPPORTED, "not contiguous");
	rejected(node("reverse_v2", 1, NULL, 0,
		      KH_TENSORS(in, constant("axes", KH_DIMS(2),
					      (const int32_t[]){
						      1, -2 })),
		      KH_TENSORS(out)),
		 OPVER_ERROR_INVALID_MODEL, "named twice");
}

/* An axis known only at invoke is checked there. */
Test(movement, reverse_v2_checks_a_runtime_axis_at_invoke)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(1), (const int32_t[]){ 2 });
	opver_tensor *out = floats("out", KH_DIMS(2, 3), NULL);
	opver_node *n = node("reverse_v2", 1, NULL, 0, KH_TENSORS(in, axis),
			     KH_TENSORS(out));

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_expect_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "axis is 2"), "%s", h.errors);
	*(int32_t *)axis->data = -1;
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (const float[]){ 3, 2, 1, 6, 5, 4 }, 6);
}

/* ------------------------------------------------- DYNAMIC_UPDATE_SLICE */

/* The operand 0..11 as [3, 4], a [2, 2] update of 100..103 written at the
 * start indices (INT32 or INT64 `start`). */
static opver_tensor *update_at(opver_tensor *start)
{
	float operand[12];
	opver_tensor *out = floats("out", KH_DIMS(3, 4), NULL);

	for (int i = 0; i < 12; i++)
		operand[i] = (float)i;
	run(node("dynamic_update_slice", 1, NULL, 0,
		 KH_TENSORS(floats("operand", KH_DIMS(3, 4), operand),
			    floats("update", KH_DIMS(2, 2),
				   (const float[]){ 100, 101, 102, 103 }),
			    start),
		 KH_TENSORS(out)));
	return out;
}

Test(movement, dynamic_update_slice_writes_the_block)
{
	kh_expect_floats(update_at(kh_tensor(&h, "start", OPVER_TYPE_INT32,
					     KH_DIMS(2),
					     (const int32_t[]){ 1, 1 })),
			 (const float[]){ 0, 1, 2, 3,
					  4, 100, 101, 7,
					  8, 102, 103, 11 },
			 12);
}

/* Start indices are clamped into [0, operand - update]: (5, -3) is
 * (1, 0); INT64 start indices alike. */
Test(movement, dynamic_update_slice_clamps_the_start)
{
	const float want[12] = { 0, 1, 2, 3,
				 100, 101, 6, 7,
				 102, 103, 10, 11 };

	kh_expect_floats(update_at(kh_tensor(&h, "start", OPVER_TYPE_INT32,
					     KH_DIMS(2),
					     (const int32_t[]){ 5, -3 })),
			 want, 12);
	kh_expect_floats(update_at(kh_tensor(&h, "start", OPVER_TYPE_INT64,
					     KH_DIMS(2),
					     (const int64_t[]){
						     INT64_C(1) << 40,
						     -(INT64_C(1) << 40) })),
			 want, 12);
}

/* Elements move whole: int16 and bool; an update of the operand's whole
 * shape replaces it. */
Test(movement, dynamic_update_slice_int16_bool_and_whole_update)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT16,
				      KH_DIMS(1, 4), NULL);
	opver_tensor *flags = kh_tensor(&h, "flags", OPVER_TYPE_BOOL,
					KH_DIMS(3), NULL);

	run(node("dynamic_update_slice", 4, NULL, 0,
		 KH_TENSORS(kh_tensor(&h, "operand", OPVER_TYPE_INT16,
				      KH_DIMS(1, 4),
				      (const int16_t[]){ 1, 2, 3, 4 }),
			    kh_tensor(&h, "update", OPVER_TYPE_INT16,
				      KH_DIMS(1, 2),
				      (const int16_t[]){ -32768, 32767 }),
			    kh_tensor(&h, "start", OPVER_TYPE_INT32,
				      KH_DIMS(2), (const int32_t[]){ 0, 3 })),
		 KH_TENSORS(out)));
	kh_expect_int16s(out, (const int16_t[]){ 1, 2, -32768, 32767 }, 4);
	run(node("dynamic_update_slice", 1, NULL, 0,
		 KH_TENSORS(kh_tensor(&h, "operand", OPVER_TYPE_BOOL,
				      KH_DIMS(3), (const uint8_t[]){ 0, 0, 0 }),
			    kh_tensor(&h, "update", OPVER_TYPE_BOOL, KH_DIMS(3),
				      (const uint8_t[]){ 1, 0, 1 }),
			    kh_tensor(&h, "start", OPVER_TYPE_INT32,
				      KH_DIMS(1), (const int32_t[]){ 2 })),
		 KH_TENSORS(flags)));
	cr_expect_eq(memcmp(flags->data, (const uint8_t[]){ 1, 0, 1 }, 3), 0);
}

/* Versions 3 and 6: float16 and bfloat16 elements are moved as their bit
 * patterns (a NaN pattern too), start (0, 9) clamped to (0, 1). */
Test(movement, dynamic_update_slice_float16_and_bfloat16)
{
	static const opver_type types[2] = { OPVER_TYPE_FLOAT16,
					     OPVER_TYPE_BFLOAT16 };

	for (int i = 0; i < 2; i++) {
		opver_tensor *out = kh_tensor(&h, "out", types[i],
					      KH_DIMS(1, 3), NULL);

		run(node("dynamic_update_slice", i == 0 ? 3 : 6, NULL, 0,
			 KH_TENSORS(kh_tensor(&h, "operand", types[i],
					      KH_DIMS(1, 3),
					      (const uint16_t[]){ 0x3c00, 0x4000,
								  0x4200 }),
				    kh_tensor(&h, "update", types[i],
					      KH_DIMS(1, 2),
					      (const uint16_t[]){ 0x7e01,
								  0x8000 }),
				    kh_tensor(&h, "start", OPVER_TYPE_INT32,
					      KH_DIMS(2),
					      (const int32_t[]){ 0, 9 })),
			 KH_TENSORS(out)));
		cr_expect_eq(memcmp(out->data,
				    (const uint16_t[]){ 0x3c00, 0x7e01, 0x8000 },
				    3 * sizeof(uint16_t)),
			     0, "%s", i == 0 ? "float16" : "bfloat16");
	}
}

Test(movement, dynamic_update_slice_refuses_an_update_that_cannot_fit)
{
	opver_tensor *operand = floats("operand", KH_DIMS(2, 3), six);
	opver_tensor *start = kh_tensor(&h, "start", OPVER_TYPE_INT32,
					KH_DIMS(2), NULL);
	opver_tensor *out = floats("out", KH_DIMS(2, 3), NULL);

	rejected(node("dynamic_update_slice", 1, NULL, 0,
		      KH_TENSORS(operand,
				 floats("update", KH_DIMS(1, 4),
					NULL),
				 start),
		      KH_TENSORS(out)),
		 OPVER_ERROR_INVALID_MODEL, "do not fit");
	rejected(node("dynamic_update_slice", 1, NULL, 0,
		      KH_TENSORS(operand,
				 floats("update", KH_DIMS(3),
					NULL),
				 start),
		      KH_TENSORS(out)),
		 OPVER_ERROR_INVALID_MODEL, "operand's 2");
	rejected(node("dynamic_update_slice", 1, NULL, 0,
		      KH_TENSORS(operand,
				 floats("update", KH_DIMS(1, 1),
					NULL),
				 start),
		      KH_TENSORS(floats("out", KH_DIMS(3, 2),
					NULL))),
		 OPVER_ERROR_INVALID_MODEL, "the shape of input 'operand'");
}
