/*
 * test_reference_movement_pad.c - the reference plugin's PAD, PADV2 and
 * MIRROR_PAD kernels run from the built reference.so through the kernel
 * harness, against values written out by hand or, for every element size,
 * computed here from element coordinates.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "movement_harness.h"

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

/* An input with a dimension of 0 has no element to read, and every
 * output element is the constant; its data may be NULL (the core gave
 * such tensors NULL before it gave them an empty spot).  fuzz_invoke
 * found the kernel forming addresses from that NULL (UBSan: applying
 * zero offset to null pointer). */
Test(movement, padv2_of_an_empty_input_is_all_constant)
{
	opver_tensor *in = floats("in", KH_DIMS(2, 0), NULL);
	opver_tensor *pads = constant("paddings", KH_DIMS(2, 2),
				      (const int32_t[]){ 0, 0, 1, 2 });
	opver_tensor *value = floats("value", KH_DIMS(1), (const float[]){ 9 });
	opver_tensor *out = floats("out", KH_DIMS(2, 3), NULL);
	static const float want[] = { 9, 9, 9, 9, 9, 9 };

	in->data = NULL;
	run(node("padv2", 1, NULL, 0, KH_TENSORS(in, pads, value),
		 KH_TENSORS(out)));
	kh_expect_floats(out, want, COUNT(want));
}

/* Paddings computed at run time: the plan is made, and the output shape
 * checked, in invoke. */
/* An output of no elements is not walked, however long its other
 * dimensions (here 2^93 empty rows): fuzz_invoke (three invokes) timed
 * out in PAD walking the empty rows of an input the core gives an empty
 * spot rather than NULL. */
Test(movement, pad_to_an_empty_output_walks_nothing, .timeout = 2)
{
	opver_tensor *in = floats("in", KH_DIMS(1, 1, 1, 0), NULL);
	opver_tensor *pads = constant("paddings", KH_DIMS(4, 2),
				      (const int32_t[]){ 0, INT32_MAX - 1,
							 0, INT32_MAX - 1,
							 0, INT32_MAX - 1,
							 0, 0 });
	opver_tensor *out = floats("out",
				   KH_DIMS(INT32_MAX, INT32_MAX, INT32_MAX, 0),
				   NULL);
	static _Alignas(64) float spot[16];

	in->data = spot;
	run(node("pad", 1, NULL, 0, KH_TENSORS(in, pads), KH_TENSORS(out)));
	cr_assert_eq(out->bytes, 0);
}

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
