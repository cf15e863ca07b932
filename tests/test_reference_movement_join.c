/*
 * test_reference_movement_join.c - the reference plugin's CONCATENATION,
 * SPLIT, SPLIT_V, PACK and UNPACK kernels against values written out by
 * hand.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "movement_harness.h"

/* ------------------------------------------------------ CONCATENATION */

Test(movement, concatenation_along_the_last_axis)
{
	opver_tensor *a = floats("a", KH_DIMS(2, 1), (const float[]){ 1, 2 });
	opver_tensor *b = floats("b", KH_DIMS(2, 2),
				 (const float[]){ 3, 4, 5, 6 });
	opver_tensor *out = floats("out", KH_DIMS(2, 3), NULL);
	opver_concatenation_params p = { .axis = -1 };

	run(node("concatenation", 1, &p, sizeof(p), KH_TENSORS(a, b),
		 KH_TENSORS(out)));
	kh_expect_floats(out, (const float[]){ 1, 3, 4, 2, 5, 6 }, 6);
}

/* UINT8 inputs quantized unlike the output are requantized in float:
 * q' = round(q * s_in / s_out - z_in * s_in / s_out) + z_out. */
Test(movement, concatenation_uint8_requantizes)
{
	static const uint8_t a_data[] = { 0, 10, 255 };
	static const uint8_t b_data[] = { 7 };
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(3),
				       a_data, 0.5f, 10);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(1),
				       b_data, 0.25f, 128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(4), NULL, 0.25f, 128);
	opver_concatenation_params p = { .axis = 0 };
	/* a: scale 2, bias -20: 0 -> -20+128 = 108; 10 -> 128;
	 * 255 -> 490+128 clamped to 255.  b is copied. */
	static const uint8_t want[] = { 108, 128, 255, 7 };

	run(node("concatenation", 1, &p, sizeof(p), KH_TENSORS(a, b),
		 KH_TENSORS(out)));
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0,
		     "got %u %u %u %u", ((uint8_t *)out->data)[0],
		     ((uint8_t *)out->data)[1], ((uint8_t *)out->data)[2],
		     ((uint8_t *)out->data)[3]);
}

/* Half-way values round away from zero, as std::round does. */
Test(movement, concatenation_uint8_rounds_half_away_from_zero)
{
	static const uint8_t a_data[] = { 1, 3 };
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(2),
				       a_data, 0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(2), NULL, 1.0f, 0);
	opver_concatenation_params p = { .axis = 0 };
	static const uint8_t want[] = { 1, 2 }; /* 0.5 -> 1, 1.5 -> 2 */

	run(node("concatenation", 1, &p, sizeof(p), KH_TENSORS(a),
		 KH_TENSORS(out)));
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0);
}

Test(movement, concatenation_int8_needs_equal_quantization)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(2), NULL, 0.25f, 0);
	opver_concatenation_params p = { .axis = 0 };

	kh_expect_rejected(&h, node("concatenation", 2, &p, sizeof(p),
				    KH_TENSORS(a), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "requires them equal");
}

Test(movement, concatenation_refuses_activation_and_mismatched_shapes)
{
	opver_tensor *a = floats("a", KH_DIMS(2, 1), NULL);
	opver_tensor *b = floats("b", KH_DIMS(3, 1), NULL);
	opver_tensor *out = floats("out", KH_DIMS(2, 2), NULL);
	opver_concatenation_params relu = { .axis = 1,
					    .activation =
						    OPVER_ACTIVATION_RELU };
	opver_concatenation_params p = { .axis = 1 };

	kh_expect_rejected(&h, node("concatenation", 1, &relu, sizeof(relu),
				    KH_TENSORS(a, a), KH_TENSORS(out)),
			   OPVER_ERROR_UNSUPPORTED, "computes none");
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node("concatenation", 1, &p, sizeof(p),
				    KH_TENSORS(a, b), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "only axis 1 may differ");
}

/* Empty inputs may be long along the axis; joined past INT32_MAX they
 * are refused (fuzz_invoke: signed overflow adding their lengths). */
Test(movement, concatenation_refuses_a_length_past_int32_max)
{
	opver_tensor *a = floats("a", KH_DIMS(0, 1442840577), NULL);
	opver_tensor *out = floats("out", KH_DIMS(0, 1), NULL);
	opver_concatenation_params p = { .axis = 1 };

	kh_expect_rejected(&h, node("concatenation", 1, &p, sizeof(p),
				    KH_TENSORS(a, a), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL,
			   "takes the output past 2147483647 along axis 1");
}

/* Empty inputs with 2^62 empty rows before the axis: nothing to walk
 * (fuzz_invoke timed out walking them). */
Test(movement, concatenation_of_empty_rows_walks_nothing, .timeout = 2)
{
	opver_tensor *a = floats("a", KH_DIMS(INT32_MAX, INT32_MAX, 0), NULL);
	opver_tensor *out = floats("out", KH_DIMS(INT32_MAX, INT32_MAX, 0),
				   NULL);
	opver_concatenation_params p = { .axis = 2 };
	static _Alignas(64) float spot[16];

	a->data = spot;
	out->data = spot;
	run(node("concatenation", 1, &p, sizeof(p), KH_TENSORS(a, a),
		 KH_TENSORS(out)));
	cr_assert_eq(out->bytes, 0);
}

/* ------------------------------------------------ SPLIT, PACK, UNPACK */

Test(movement, split_into_equal_parts)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *axis = scalar("axis", -1);
	opver_tensor *o[3] = { floats("o0", KH_DIMS(2, 1), NULL),
			       floats("o1", KH_DIMS(2, 1), NULL),
			       floats("o2", KH_DIMS(2, 1), NULL) };
	opver_split_params p = { .num_splits = 3 };

	run(node("split", 1, &p, sizeof(p), KH_TENSORS(axis, in), 3, o));
	kh_expect_floats(o[0], (const float[]){ 1, 4 }, 2);
	kh_expect_floats(o[1], (const float[]){ 2, 5 }, 2);
	kh_expect_floats(o[2], (const float[]){ 3, 6 }, 2);
}

Test(movement, split_v_infers_the_minus_one)
{
	opver_tensor *in = floats("in", KH_DIMS(6), six);
	opver_tensor *sizes = constant("sizes", KH_DIMS(3),
				       (const int32_t[]){ 1, -1, 2 });
	opver_tensor *axis = scalar("axis", 0);
	opver_tensor *o[3] = { floats("o0", KH_DIMS(1), NULL),
			       floats("o1", KH_DIMS(3), NULL),
			       floats("o2", KH_DIMS(2), NULL) };
	opver_split_params p = { .num_splits = 3 };

	run(node("split_v", 1, &p, sizeof(p), KH_TENSORS(in, sizes, axis), 3,
		 o));
	kh_expect_floats(o[0], (const float[]){ 1 }, 1);
	kh_expect_floats(o[1], (const float[]){ 2, 3, 4 }, 3);
	kh_expect_floats(o[2], (const float[]){ 5, 6 }, 2);
}

Test(movement, split_rejects_unequal_parts)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *axis = scalar("axis", 1);
	opver_tensor *o[2] = { floats("o0", KH_DIMS(2, 1), NULL),
			       floats("o1", KH_DIMS(2, 2), NULL) };
	opver_split_params p = { .num_splits = 2 };

	kh_expect_rejected(&h, node("split", 1, &p, sizeof(p),
				    KH_TENSORS(axis, in), 2, o),
			   OPVER_ERROR_INVALID_MODEL, "3 does not split");
}

Test(movement, pack_and_unpack_along_axis_1)
{
	opver_tensor *a = floats("a", KH_DIMS(2), (const float[]){ 1, 2 });
	opver_tensor *b = floats("b", KH_DIMS(2), (const float[]){ 3, 4 });
	opver_tensor *c = floats("c", KH_DIMS(2), (const float[]){ 5, 6 });
	opver_tensor *packed = floats("packed", KH_DIMS(2, 3), NULL);
	opver_tensor *o[2] = { floats("o0", KH_DIMS(3), NULL),
			       floats("o1", KH_DIMS(3), NULL) };
	opver_pack_params pack = { .values_count = 3, .axis = 1 };
	opver_unpack_params unpack = { .num = 2, .axis = 0 };

	run(node("pack", 1, &pack, sizeof(pack), KH_TENSORS(a, b, c),
		 KH_TENSORS(packed)));
	kh_expect_floats(packed, (const float[]){ 1, 3, 5, 2, 4, 6 }, 6);
	run(node("unpack", 1, &unpack, sizeof(unpack), KH_TENSORS(packed), 2,
		 o));
	kh_expect_floats(o[0], (const float[]){ 1, 3, 5 }, 3);
	kh_expect_floats(o[1], (const float[]){ 2, 4, 6 }, 3);
}

Test(movement, pack_checks_its_count_and_axis)
{
	opver_tensor *a = floats("a", KH_DIMS(2), NULL);
	opver_tensor *out = floats("out", KH_DIMS(2, 2), NULL);
	opver_pack_params count = { .values_count = 3, .axis = 0 };
	opver_pack_params axis = { .values_count = 2, .axis = 2 };

	kh_expect_rejected(&h, node("pack", 1, &count, sizeof(count),
				    KH_TENSORS(a, a), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "values_count is 3");
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node("pack", 1, &axis, sizeof(axis),
				    KH_TENSORS(a, a), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "axis is 2");
}
