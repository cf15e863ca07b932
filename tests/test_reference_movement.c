/*
 * test_reference_movement.c - the reference plugin's data-movement kernels
 * (PAD, PADV2, MIRROR_PAD, CONCATENATION, SPLIT, SPLIT_V, PACK, UNPACK,
 * SQUEEZE, EXPAND_DIMS, TRANSPOSE, SLICE, STRIDED_SLICE) run from the built
 * reference.so through the kernel harness.  Expected values are written
 * out by hand, or, for the every-type tests, computed here from element
 * coordinates independently of the plugin's plans.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

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

TestSuite(movement, .init = setup, .fini = teardown);

/* A constant INT32 tensor of shape `dims`, as a converter stores indices. */
static opver_tensor *constant(const char *name, int32_t rank,
			      const int32_t *dims, const int32_t *values)
{
	opver_tensor *t = kh_tensor(&h, name, OPVER_TYPE_INT32, rank, dims,
				    values);

	t->is_constant = true;
	return t;
}

/* A constant one-element INT32 tensor. */
static opver_tensor *scalar(const char *name, int32_t value)
{
	return constant(name, KH_DIMS(1), &value);
}

static opver_tensor *floats(const char *name, int32_t rank,
			    const int32_t *dims, const float *data)
{
	return kh_tensor(&h, name, OPVER_TYPE_FLOAT32, rank, dims, data);
}

static opver_node *node(const char *kernel, int32_t version,
			const void *params, size_t params_size,
			int32_t num_inputs, opver_tensor *const *inputs,
			int32_t num_outputs, opver_tensor *const *outputs)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, params, params_size,
		       num_inputs, inputs, num_outputs, outputs);
}

static void run(opver_node *n)
{
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
}

static const float six[] = { 1, 2, 3, 4, 5, 6 };

/* ---------------------------------------------------------------- PAD */

Test(movement, pad_float_adds_zeros_before_and_after)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *pads = constant("paddings", KH_DIMS(2, 2),
				      (const int32_t[]){ 1, 0, 0, 2 });
	opver_tensor *out = floats("out", KH_DIMS(3, 5), NULL);
	static const float want[] = { 0, 0, 0, 0, 0,
				      1, 2, 3, 0, 0,
				      4, 5, 6, 0, 0 };

	run(node("pad", 1, NULL, 0, KH_TENSORS(in, pads), KH_TENSORS(out)));
	kh_expect_floats(out, want, COUNT(want));
}

/* Quantized PAD fills with the output's zero point, not 0. */
Test(movement, pad_int8_fills_with_the_zero_point)
{
	static const int8_t data[] = { 10, -20 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2),
					data, 0.5f, -5);
	opver_tensor *pads = constant("paddings", KH_DIMS(1, 2),
				      (const int32_t[]){ 2, 1 });
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(5), NULL, 0.5f, -5);
	static const int8_t want[] = { -5, -5, 10, -20, -5 };

	run(node("pad", 2, NULL, 0, KH_TENSORS(in, pads), KH_TENSORS(out)));
	kh_expect_int8s(out, want, COUNT(want));
}

Test(movement, padv2_fills_with_its_constant_and_takes_int64_paddings)
{
	static const int64_t pairs[] = { 0, 1, 1, 0 };
	opver_tensor *in = floats("in", KH_DIMS(1, 2), six);
	opver_tensor *pads = kh_tensor(&h, "paddings", OPVER_TYPE_INT64,
				       KH_DIMS(2, 2), pairs);
	opver_tensor *value = floats("value", KH_DIMS(1), (const float[]){ 9 });
	opver_tensor *out = floats("out", KH_DIMS(2, 3), NULL);
	static const float want[] = { 9, 1, 2, 9, 9, 9 };

	pads->is_constant = true;
	run(node("padv2", 1, NULL, 0, KH_TENSORS(in, pads, value),
		 KH_TENSORS(out)));
	kh_expect_floats(out, want, COUNT(want));
}

/* Paddings computed at run time: the plan is made, and the output shape
 * checked, in invoke. */
Test(movement, pad_with_run_time_paddings)
{
	opver_tensor *in = floats("in", KH_DIMS(3), six);
	opver_tensor *pads = kh_tensor(&h, "paddings", OPVER_TYPE_INT32,
				       KH_DIMS(1, 2),
				       (const int32_t[]){ 1, 1 });
	opver_tensor *out = floats("out", KH_DIMS(5), NULL);
	opver_tensor *wrong = floats("wrong", KH_DIMS(4), NULL);
	static const float want[] = { 0, 1, 2, 3, 0 };

	run(node("pad", 1, NULL, 0, KH_TENSORS(in, pads), KH_TENSORS(out)));
	kh_expect_floats(out, want, COUNT(want));
	cr_assert_eq(kh_run(&h, node("pad", 1, NULL, 0, KH_TENSORS(in, pads),
				     KH_TENSORS(wrong))),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "gives [5]"), "%s", h.errors);
}

Test(movement, pad_rejects_negative_paddings_and_a_wrong_output)
{
	opver_tensor *in = floats("in", KH_DIMS(3), six);
	opver_tensor *neg = constant("paddings", KH_DIMS(1, 2),
				     (const int32_t[]){ -1, 0 });
	opver_tensor *pads = constant("paddings", KH_DIMS(1, 2),
				      (const int32_t[]){ 1, 0 });
	opver_tensor *out = floats("out", KH_DIMS(3), NULL);

	kh_expect_rejected(&h, node("pad", 1, NULL, 0, KH_TENSORS(in, neg),
				    KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "(-1, 0)");
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, node("pad", 1, NULL, 0, KH_TENSORS(in, pads),
				    KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "this PAD gives [4]");
}

/* Every element size and rank 3, against padding computed here. */
Test(movement, pad_moves_every_element_size)
{
	static const opver_type types[] = {
		OPVER_TYPE_UINT8, OPVER_TYPE_BOOL, OPVER_TYPE_INT16,
		OPVER_TYPE_INT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT64,
	};
	static const int32_t in_dims[] = { 2, 1, 3 };
	static const int32_t pairs[] = { 1, 0, 0, 2, 1, 1 };
	static const int32_t out_dims[] = { 3, 3, 5 };

	for (size_t t = 0; t < COUNT(types); t++) {
		unsigned char in_data[6 * 8], want[45 * 8];
		size_t size = types[t] == OPVER_TYPE_INT64 ? 8
			      : types[t] == OPVER_TYPE_INT32 ||
					types[t] == OPVER_TYPE_FLOAT32
				      ? 4
			      : types[t] == OPVER_TYPE_INT16 ? 2
							     : 1;
		opver_tensor *in, *pads, *out;

		for (size_t i = 0; i < sizeof(in_data); i++)
			in_data[i] = (unsigned char)(i % 7 + 1);
		if (types[t] == OPVER_TYPE_BOOL)
			memset(in_data, 1, sizeof(in_data));
		memset(want, 0, sizeof(want));
		for (int32_t a = 0; a < 3; a++)
			for (int32_t b = 0; b < 3; b++)
				for (int32_t c = 0; c < 5; c++) {
					int32_t i = a - 1, j = b, k = c - 1;

					if (i < 0 || j >= 1 || k < 0 || k >= 3)
						continue;
					memcpy(want + ((a * 3 + b) * 5 + c) * size,
					       in_data + (i * 3 + k) * size,
					       size);
				}
		in = kh_tensor(&h, "in", types[t], 3, in_dims, in_data);
		pads = constant("paddings", KH_DIMS(3, 2), pairs);
		out = kh_tensor(&h, "out", types[t], 3, out_dims, NULL);
		run(node("pad", 5, NULL, 0, KH_TENSORS(in, pads),
			 KH_TENSORS(out)));
		cr_expect_eq(memcmp(out->data, want, 45 * size), 0,
			     "type %d", (int)types[t]);
	}
}

/* --------------------------------------------------------- MIRROR_PAD */

Test(movement, mirror_pad_reflect_and_symmetric)
{
	opver_tensor *in = floats("in", KH_DIMS(3), six);
	opver_tensor *pads = constant("paddings", KH_DIMS(1, 2),
				      (const int32_t[]){ 2, 2 });
	opver_tensor *reflected = floats("out", KH_DIMS(7), NULL);
	opver_tensor *symmetric = floats("out", KH_DIMS(7), NULL);
	opver_mirror_pad_params reflect = { OPVER_MIRROR_PAD_REFLECT };
	opver_mirror_pad_params sym = { OPVER_MIRROR_PAD_SYMMETRIC };

	run(node("mirror_pad", 1, &reflect, sizeof(reflect),
		 KH_TENSORS(in, pads), KH_TENSORS(reflected)));
	kh_expect_floats(reflected, (const float[]){ 3, 2, 1, 2, 3, 2, 1 }, 7);
	run(node("mirror_pad", 1, &sym, sizeof(sym), KH_TENSORS(in, pads),
		 KH_TENSORS(symmetric)));
	kh_expect_floats(symmetric, (const float[]){ 2, 1, 1, 2, 3, 3, 2 }, 7);
}

Test(movement, mirror_pad_2d)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *pads = constant("paddings", KH_DIMS(2, 2),
				      (const int32_t[]){ 1, 0, 0, 1 });
	opver_tensor *out = floats("out", KH_DIMS(3, 4), NULL);
	opver_mirror_pad_params reflect = { OPVER_MIRROR_PAD_REFLECT };
	static const float want[] = { 4, 5, 6, 5, 1, 2, 3, 2, 4, 5, 6, 5 };

	run(node("mirror_pad", 1, &reflect, sizeof(reflect),
		 KH_TENSORS(in, pads), KH_TENSORS(out)));
	kh_expect_floats(out, want, COUNT(want));
}

/* REFLECT reaches size - 1 at most; more would read outside the input. */
Test(movement, mirror_pad_rejects_a_reach_past_the_input)
{
	opver_tensor *in = floats("in", KH_DIMS(3), six);
	opver_tensor *pads = constant("paddings", KH_DIMS(1, 2),
				      (const int32_t[]){ 3, 0 });
	opver_tensor *out = floats("out", KH_DIMS(6), NULL);
	opver_mirror_pad_params reflect = { OPVER_MIRROR_PAD_REFLECT };

	kh_expect_rejected(&h, node("mirror_pad", 1, &reflect, sizeof(reflect),
				    KH_TENSORS(in, pads), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "takes 0 to 2");
}

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

/* ------------------------------------------- SQUEEZE and EXPAND_DIMS */

Test(movement, squeeze_and_expand_dims_keep_the_bytes)
{
	opver_tensor *in = floats("in", KH_DIMS(1, 6, 1), six);
	opver_tensor *all = floats("all", KH_DIMS(6), NULL);
	opver_tensor *last = floats("last", KH_DIMS(1, 6), NULL);
	opver_tensor *expanded = floats("expanded", KH_DIMS(1, 6, 1, 1), NULL);
	opver_squeeze_params every = { 0 };
	opver_squeeze_params only_last = { .num_dims = 1, .dims = { -1 } };

	run(node("squeeze", 1, &every, sizeof(every), KH_TENSORS(in),
		 KH_TENSORS(all)));
	kh_expect_floats(all, six, 6);
	run(node("squeeze", 1, &only_last, sizeof(only_last), KH_TENSORS(in),
		 KH_TENSORS(last)));
	kh_expect_floats(last, six, 6);
	run(node("expand_dims", 1, NULL, 0, KH_TENSORS(in, scalar("axis", -1)),
		 KH_TENSORS(expanded)));
	kh_expect_floats(expanded, six, 6);
}

Test(movement, squeeze_refuses_a_dimension_larger_than_1)
{
	opver_tensor *in = floats("in", KH_DIMS(1, 6), six);
	opver_tensor *out = floats("out", KH_DIMS(1), NULL);
	opver_squeeze_params p = { .num_dims = 1, .dims = { 1 } };

	kh_expect_rejected(&h, node("squeeze", 1, &p, sizeof(p),
				    KH_TENSORS(in), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "of size 6");
}

/* ---------------------------------------------------------- TRANSPOSE */

/* [2,3,4] by perm (2, 0, 1) against indices computed here. */
Test(movement, transpose_3d)
{
	float data[24], want[24];
	opver_tensor *in, *perm, *out;

	for (int i = 0; i < 24; i++)
		data[i] = (float)i;
	for (int c = 0; c < 4; c++)
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 3; b++)
				want[(c * 2 + a) * 3 + b] = data[(a * 3 + b) * 4 + c];
	in = floats("in", KH_DIMS(2, 3, 4), data);
	perm = constant("perm", KH_DIMS(3), (const int32_t[]){ 2, 0, 1 });
	out = floats("out", KH_DIMS(4, 2, 3), NULL);
	run(node("transpose", 1, NULL, 0, KH_TENSORS(in, perm),
		 KH_TENSORS(out)));
	kh_expect_floats(out, want, 24);
}

Test(movement, transpose_refuses_a_repeated_axis)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *perm = constant("perm", KH_DIMS(2),
				      (const int32_t[]){ 0, 0 });
	opver_tensor *out = floats("out", KH_DIMS(2, 2), NULL);

	kh_expect_rejected(&h, node("transpose", 1, NULL, 0,
				    KH_TENSORS(in, perm), KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "each of 0 to 1 once");
}

/*
 * Version 8: 8 dimensions, bfloat16.  [2,1,3,1,1,1,1,2] reversed is
 * [2,1,1,1,1,3,1,2]: element (a, b, c) of the three dimensions above 1
 * moves to (c, b, a).  The elements are bit patterns: only moved.
 */
Test(movement, transpose_8d_bfloat16)
{
	uint16_t data[12], want[12];
	opver_tensor *in, *perm, *out;

	for (int i = 0; i < 12; i++)
		data[i] = (uint16_t)(0x3f80 + i);
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 3; b++)
			for (int c = 0; c < 2; c++)
				want[(c * 3 + b) * 2 + a] = data[(a * 3 + b) * 2 + c];
	in = kh_tensor(&h, "in", OPVER_TYPE_BFLOAT16,
		       KH_DIMS(2, 1, 3, 1, 1, 1, 1, 2), data);
	perm = constant("perm", KH_DIMS(8),
			(const int32_t[]){ 7, 6, 5, 4, 3, 2, 1, 0 });
	out = kh_tensor(&h, "out", OPVER_TYPE_BFLOAT16,
			KH_DIMS(2, 1, 1, 1, 1, 3, 1, 2), NULL);
	run(node("transpose", 8, NULL, 0, KH_TENSORS(in, perm),
		 KH_TENSORS(out)));
	cr_expect_eq(memcmp(out->data, want, sizeof(want)), 0);
}

Test(movement, transpose_refuses_more_than_8_dimensions)
{
	opver_tensor *in = floats("in", KH_DIMS(1, 1, 1, 1, 1, 1, 1, 1, 2),
				  six);
	opver_tensor *perm = constant("perm", KH_DIMS(9),
				      (const int32_t[]){ 0, 1, 2, 3, 4, 5, 6,
							 7, 8 });
	opver_tensor *out = floats("out", KH_DIMS(1, 1, 1, 1, 1, 1, 1, 1, 2),
				   NULL);

	kh_expect_rejected(&h, node("transpose", 8, NULL, 0,
				    KH_TENSORS(in, perm), KH_TENSORS(out)),
			   OPVER_ERROR_UNSUPPORTED, "takes up to 8");
}

/* -------------------------------------------------------------- SLICE */

Test(movement, slice_with_size_minus_one)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *begin = constant("begin", KH_DIMS(2),
				       (const int32_t[]){ 1, 1 });
	opver_tensor *size = constant("size", KH_DIMS(2),
				      (const int32_t[]){ 1, -1 });
	opver_tensor *out = floats("out", KH_DIMS(1, 2), NULL);

	run(node("slice", 1, NULL, 0, KH_TENSORS(in, begin, size),
		 KH_TENSORS(out)));
	kh_expect_floats(out, (const float[]){ 5, 6 }, 2);
}

Test(movement, slice_refuses_a_block_outside_the_input)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *begin = constant("begin", KH_DIMS(2),
				       (const int32_t[]){ 1, 2 });
	opver_tensor *size = constant("size", KH_DIMS(2),
				      (const int32_t[]){ 1, 2 });
	opver_tensor *out = floats("out", KH_DIMS(1, 2), NULL);

	kh_expect_rejected(&h, node("slice", 1, NULL, 0,
				    KH_TENSORS(in, begin, size),
				    KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "dimension 1");
}

/* ------------------------------------------------------ STRIDED_SLICE */

/* Runs STRIDED_SLICE on [2,3] {1..6} with a spec of `count` entries. */
static opver_tensor *strided(const opver_strided_slice_params *p,
			     int32_t count, const int32_t *begin,
			     const int32_t *end, const int32_t *strides,
			     int32_t out_rank, const int32_t *out_dims)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 3), six);
	opver_tensor *out = floats("out", out_rank, out_dims, NULL);

	run(node("strided_slice", 8, p, sizeof(*p),
		 KH_TENSORS(in, constant("begin", 1, &count, begin),
			    constant("end", 1, &count, end),
			    constant("strides", 1, &count, strides)),
		 KH_TENSORS(out)));
	return out;
}

Test(movement, strided_slice_negative_stride_and_masks)
{
	opver_strided_slice_params p = { .begin_mask = 2, .end_mask = 2 };
	opver_tensor *out;

	/* Rows 1..0 backwards, columns whole backwards. */
	out = strided(&p, 2, (const int32_t[]){ -1, 0 },
		      (const int32_t[]){ -3, 0 },
		      (const int32_t[]){ -1, -1 }, KH_DIMS(2, 3));
	kh_expect_floats(out, (const float[]){ 6, 5, 4, 3, 2, 1 }, 6);
}

Test(movement, strided_slice_shrink_and_stride_2)
{
	opver_strided_slice_params p = { .shrink_axis_mask = 1 };
	opver_tensor *out;

	/* Row 1, columns 0 and 2. */
	out = strided(&p, 2, (const int32_t[]){ 1, 0 },
		      (const int32_t[]){ 2, 3 }, (const int32_t[]){ 1, 2 },
		      KH_DIMS(2));
	kh_expect_floats(out, (const float[]){ 4, 6 }, 2);
}

Test(movement, strided_slice_ellipsis_and_new_axis)
{
	opver_strided_slice_params ellipsis = { .ellipsis_mask = 1 };
	opver_strided_slice_params new_axis = { .new_axis_mask = 1 };
	opver_tensor *out;

	/* [..., 1:3]: every row, columns 1 and 2. */
	out = strided(&ellipsis, 2, (const int32_t[]){ 0, 1 },
		      (const int32_t[]){ 0, 3 }, (const int32_t[]){ 1, 1 },
		      KH_DIMS(2, 2));
	kh_expect_floats(out, (const float[]){ 2, 3, 5, 6 }, 4);
	/* [newaxis, 0:1]: [1, 1, 3], the rest of the columns whole. */
	out = strided(&new_axis, 2, (const int32_t[]){ 0, 0 },
		      (const int32_t[]){ 0, 1 }, (const int32_t[]){ 1, 1 },
		      KH_DIMS(1, 1, 3));
	kh_expect_floats(out, (const float[]){ 1, 2, 3 }, 3);
}

/* offset: end counts from begin; begin and end clamp to the input. */
Test(movement, strided_slice_offset_and_clamping)
{
	opver_strided_slice_params offset = { .offset = 1 };
	opver_strided_slice_params plain = { 0 };
	opver_tensor *out;

	out = strided(&offset, 2, (const int32_t[]){ 1, 1 },
		      (const int32_t[]){ 1, 2 }, (const int32_t[]){ 1, 1 },
		      KH_DIMS(1, 2));
	kh_expect_floats(out, (const float[]){ 5, 6 }, 2);
	out = strided(&plain, 2, (const int32_t[]){ -9, 1 },
		      (const int32_t[]){ 9, 9 }, (const int32_t[]){ 1, 1 },
		      KH_DIMS(2, 2));
	kh_expect_floats(out, (const float[]){ 2, 3, 5, 6 }, 4);
}

Test(movement, strided_slice_refuses_a_zero_stride)
{
	opver_tensor *in = floats("in", KH_DIMS(6), six);
	opver_tensor *out = floats("out", KH_DIMS(6), NULL);
	opver_strided_slice_params p = { 0 };

	kh_expect_rejected(&h, node("strided_slice", 1, &p, sizeof(p),
				    KH_TENSORS(in, scalar("b", 0),
					       scalar("e", 6),
					       scalar("s", 0)),
				    KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "stride of dimension 0");
}

/* An empty input slices to an empty output without reading. */
Test(movement, strided_slice_of_an_empty_tensor)
{
	opver_tensor *in = floats("in", KH_DIMS(0, 3), NULL);
	opver_tensor *out = floats("out", KH_DIMS(0, 2), NULL);
	opver_strided_slice_params p = { 0 };

	run(node("strided_slice", 1, &p, sizeof(p),
		 KH_TENSORS(in, constant("b", KH_DIMS(2), (const int32_t[]){ 0, 1 }),
			    constant("e", KH_DIMS(2), (const int32_t[]){ 0, 3 }),
			    constant("s", KH_DIMS(2), (const int32_t[]){ 1, 1 })),
		 KH_TENSORS(out)));
}
