/*
 * test_conformance_window.c - the padding and input window that
 * opver-conformance's mismatch reports give for spatial ops
 * (tools/conformance/window.c), against values worked out by hand.
 */
#include <criterion/criterion.h>

#include "conformance/cases.h"
#include "conformance/window.h"

/* A node of `op`: the tensors of dims[0..count-1] (rank 4; a NULL row is
 * an omitted input) as its inputs, `output` as its output. */
static void node(cf_case *c, int32_t op, const int32_t (*dims)[4],
		 int32_t count, const int32_t *output)
{
	cf_case_init(c, op);
	for (int32_t i = 0; i < count; i++)
		cf_case_input(c, dims[i][0] < 0 ? -1 :
				 cf_case_tensor(c, OPVER_TYPE_FLOAT32, 4,
						dims[i]));
	c->output = cf_case_tensor(c, OPVER_TYPE_FLOAT32, 4, output);
	c->has_params = true;
}

/* 5x5 input, 2x2 window, stride 2, SAME: 3x3 outputs need 6 rows and
 * columns, one of padding, after the input.  Output [0,2,2,0] reads rows
 * and columns 4..5. */
Test(conformance_window, conv_odd_same_padding_goes_after)
{
	static const int32_t dims[2][4] = { { 1, 5, 5, 1 }, { 1, 2, 2, 1 } };
	static const int32_t out[4] = { 1, 3, 3, 1 };
	cf_text t = { 0 };
	cf_case c;

	node(&c, OPVER_OP_CONV_2D, dims, 2, out);
	c.params.conv = (opver_conv_params){
		.padding = OPVER_PADDING_SAME, .stride_width = 2,
		.stride_height = 2, .dilation_width = 1, .dilation_height = 1,
	};
	cr_assert(cf_describe_window(&t, &c, 8));
	cr_assert_str_eq(cf_text_get(&t),
			 "padding: top 0 bottom 1 left 0 right 1 (SAME; total 1 rows, 1 columns)\n"
			 "an odd padding total puts its extra row at the bottom, its extra column at the right\n"
			 "window of the first differing element: input rows 4..5, columns 4..5 (of 0..4 x 0..4); it reaches into the padding\n");
	cf_text_free(&t);
	cf_case_free(&c);
}

/* A 3x3 window dilated 2x1 (width x height) over 7x8, strides 1 (width)
 * and 2 (height), SAME: 4x8 outputs; rows need 2 of padding, columns 4
 * (effective window 5), split evenly.  Output [0,0,0,0] reads rows -1..1
 * and every second column of -2..2. */
Test(conformance_window, dilated_depthwise_window)
{
	static const int32_t dims[2][4] = { { 1, 7, 8, 3 }, { 1, 3, 3, 3 } };
	static const int32_t out[4] = { 1, 4, 8, 3 };
	cf_text t = { 0 };
	cf_case c;

	node(&c, OPVER_OP_DEPTHWISE_CONV_2D, dims, 2, out);
	c.params.depthwise = (opver_depthwise_conv_params){
		.padding = OPVER_PADDING_SAME, .stride_width = 1,
		.stride_height = 2, .depth_multiplier = 1,
		.dilation_width = 2, .dilation_height = 1,
	};
	cr_assert(cf_describe_window(&t, &c, 0));
	cr_assert_str_eq(cf_text_get(&t),
			 "padding: top 1 bottom 1 left 2 right 2 (SAME; total 2 rows, 4 columns)\n"
			 "window of the first differing element: input rows -1..1, columns -2..2 every 2 (of 0..6 x 0..7); it reaches into the padding\n");
	cf_text_free(&t);
	cf_case_free(&c);
}

/* VALID pooling has no padding. */
Test(conformance_window, valid_pool_has_no_padding)
{
	static const int32_t dims[1][4] = { { 1, 4, 4, 2 } };
	static const int32_t out[4] = { 1, 2, 2, 2 };
	cf_text t = { 0 };
	cf_case c;

	node(&c, OPVER_OP_MAX_POOL_2D, dims, 1, out);
	c.params.pool = (opver_pool_params){
		.padding = OPVER_PADDING_VALID, .stride_width = 2,
		.stride_height = 2, .filter_width = 2, .filter_height = 2,
	};
	/* Element [0,1,0,1]. */
	cr_assert(cf_describe_window(&t, &c, 5));
	cr_assert_str_eq(cf_text_get(&t),
			 "padding: top 0 bottom 0 left 0 right 0 (VALID; total 0 rows, 0 columns)\n"
			 "window of the first differing element: input rows 2..3, columns 0..1 (of 0..3 x 0..3)\n");
	cf_text_free(&t);
	cf_case_free(&c);
}

/* TRANSPOSE_CONV: a 3x3 window, stride 2, SAME, grows 2x2 to 4x4; the
 * padding is the forward convolution's over the output (total
 * (2 - 1) * 2 + 3 - 4 = 1, after).  Input row 0 reaches output rows 0..2
 * and row 1 rows 2..4, so output [0,1,3,0] takes input row 0 and column
 * 1 only. */
Test(conformance_window, transpose_conv_names_the_contributing_inputs)
{
	static const int32_t dims[4][4] = {
		{ 1, 1, 1, 4 }, { 1, 3, 3, 1 }, { 1, 2, 2, 1 }, { -1 },
	};
	static const int32_t out[4] = { 1, 4, 4, 1 };
	cf_text t = { 0 };
	cf_case c;

	node(&c, OPVER_OP_TRANSPOSE_CONV, dims, 4, out);
	c.params.transpose_conv = (opver_transpose_conv_params){
		.padding = OPVER_PADDING_SAME, .stride_width = 2,
		.stride_height = 2,
	};
	cr_assert(cf_describe_window(&t, &c, 7));
	cr_assert_str_eq(cf_text_get(&t),
			 "padding: top 0 bottom 1 left 0 right 1 (SAME; total 1 rows, 1 columns)\n"
			 "an odd padding total puts its extra row at the bottom, its extra column at the right\n"
			 "window of the first differing element: input rows 0..0, columns 1..1 (of 2x2) contribute to output row 1, column 3\n");
	cf_text_free(&t);
	cf_case_free(&c);
}

/* Other ops have no window: nothing is appended. */
Test(conformance_window, other_ops_have_none)
{
	static const int32_t dims[2][4] = { { 1, 2, 2, 1 }, { 1, 2, 2, 1 } };
	static const int32_t out[4] = { 1, 2, 2, 1 };
	cf_text t = { 0 };
	cf_case c;

	node(&c, OPVER_OP_ADD, dims, 2, out);
	cr_assert_not(cf_describe_window(&t, &c, 0));
	cr_assert_str_eq(cf_text_get(&t), "");
	cf_text_free(&t);
	cf_case_free(&c);
}
