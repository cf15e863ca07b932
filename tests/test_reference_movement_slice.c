/*
 * test_reference_movement_slice.c - the reference plugin's SQUEEZE,
 * EXPAND_DIMS, TRANSPOSE, SLICE and STRIDED_SLICE kernels against values
 * written out by hand or computed here from element coordinates.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "movement_harness.h"

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
