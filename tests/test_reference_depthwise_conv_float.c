/*
 * test_reference_depthwise_conv_float.c - the reference plugin's float32
 * DEPTHWISE_CONV_2D kernel run from the built reference.so through the
 * kernel harness: padding, strides, dilation and depth multipliers on values
 * worked out by hand.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "dw_harness.h"

/* The 3x3 image 1..9, one channel. */
static const float image_3x3[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* ------------------------------------------------------------- float32 */

TestSuite(dw_float32, .init = setup, .fini = teardown);

Test(dw_float32, same_padding_odd_filter)
{
	/*
	 * SAME, 3x3 filter on 3x3: one pad on every side.  Filter taps
	 * (0,0) 100, (1,1) 1, (2,2) 10, so out(y, x) = 100 in(y-1, x-1) +
	 * in(y, x) + 10 in(y+1, x+1), zero outside:
	 *   row 0: 1 + 50, 2 + 60, 3
	 *   row 1: 4 + 80, 100 + 5 + 90, 200 + 6
	 *   row 2: 7, 400 + 8, 500 + 9
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (float[]){ 100, 0, 0, 0, 1, 0, 0, 0,
						  10 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 51, 62, 3, 84, 195, 206, 7, 408, 509 }, 9);
}

Test(dw_float32, same_padding_even_filter_pads_after)
{
	/*
	 * SAME, 2x2 filter on 3x3: total padding 1 per dimension, none
	 * before (TFLite puts the odd one after).  Filter (1, 10; 100,
	 * 1000): out(y, x) = in(y, x) + 10 in(y, x+1) + 100 in(y+1, x) +
	 * 1000 in(y+1, x+1):
	 *   (0,0) 1 + 20 + 400 + 5000    (0,1) 2 + 30 + 500 + 6000
	 *   (0,2) 3 + 600                (1,0) 4 + 50 + 700 + 8000
	 *   (1,1) 5 + 60 + 800 + 9000    (1,2) 6 + 900
	 *   (2,0) 7 + 80   (2,1) 8 + 90   (2,2) 9
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 5421, 6532, 603, 8754, 9865, 906, 87, 98, 9 },
		      9);
}

/* The 5x5 image in(y, x) = 5y + x, one channel. */
static const float image_5x5[] = {
	0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
	13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
};

Test(dw_float32, valid_stride_2)
{
	/*
	 * VALID, 3x3 filter, stride 2 on 5x5: (5 - 3 + 2) / 2 = 2 outputs
	 * per dimension, windows at 0 and 2.  Taps (0,0) 1, (1,1) 10,
	 * (2,2) 2: out = in(y, x) + 10 in(y+1, x+1) + 2 in(y+2, x+2):
	 *   (0,0) 0 + 60 + 24     (0,2) 2 + 80 + 28
	 *   (2,0) 10 + 160 + 44   (2,2) 12 + 180 + 48
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 5, 5, 1),
					image_5x5);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (float[]){ 1, 0, 0, 0, 10, 0, 0, 0, 2 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.stride_width = 2;
	p.stride_height = 2;
	node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 84, 110, 214, 240 }, 4);
}

Test(dw_float32, dilation_2)
{
	/*
	 * VALID, 2x2 filter (1, 10; 100, 1000) dilated by 2 spans 3x3, so
	 * 5x5 gives 3x3: out = in(y, x) + 10 in(y, x+2) + 100 in(y+2, x) +
	 * 1000 in(y+2, x+2).  (0,0) = 0 + 20 + 1000 + 12000 = 13020; each
	 * step right adds 1 + 10 + 100 + 1000 = 1111, each step down 5555.
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 5, 5, 1),
					image_5x5);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.dilation_width = 2;
	p.dilation_height = 2;
	node = dw_node(DW_FLOAT32, 2, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 13020, 14131, 15242, 18575, 19686, 20797,
				 24130, 25241, 26352 },
		      9);
}

Test(dw_float32, dilation_2_with_same_padding)
{
	/*
	 * SAME, 2x2 filter dilated by 2 (spanning 3) on 3x3: 3 outputs,
	 * total padding 2, one before.  out(y, x) = in(y-1, x-1) +
	 * 10 in(y-1, x+1) + 100 in(y+1, x-1) + 1000 in(y+1, x+1):
	 *   (0,0) 1000 * 5        (0,1) 100 * 4 + 1000 * 6   (0,2) 100 * 5
	 *   (1,0) 10 * 2 + 1000 * 8    (1,1) 1 + 30 + 700 + 9000
	 *   (1,2) 2 + 800         (2,0) 10 * 5   (2,1) 4 + 60   (2,2) 5
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node;

	p.dilation_width = 2;
	p.dilation_height = 2;
	node = dw_node(DW_FLOAT32, 2, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 5000, 6400, 500, 8020, 9731, 802, 50, 64, 5 },
		      9);
}

Test(dw_float32, depth_multiplier_2_with_bias)
{
	/*
	 * Input [1, 2, 1, 2]: pixel 0 (1, 2), pixel 1 (3, 4).  Filter
	 * [1, 2, 1, 4], M = 2, output channel c * 2 + m; tap 0 (1, 2, 3, 4),
	 * tap 1 (5, 6, 7, 8).  VALID gives one pixel:
	 *   channel 0 (c 0, m 0): 1 * 1 + 3 * 5 = 16, + 0.5
	 *   channel 1 (c 0, m 1): 1 * 2 + 3 * 6 = 20, - 1
	 *   channel 2 (c 1, m 0): 2 * 3 + 4 * 7 = 34, + 0
	 *   channel 3 (c 1, m 1): 2 * 4 + 4 * 8 = 40, + 2
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 2, 1, 2),
					(float[]){ 1, 2, 3, 4 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 1, 4),
				       (float[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
	opver_tensor *b = float_tensor("bias", KH_DIMS(4),
				       (float[]){ 0.5f, -1, 0, 2 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 4), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.depth_multiplier = 2;
	node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 16.5f, 19, 34, 42 }, 4);
}

Test(dw_float32, batches_are_independent)
{
	/* 1x1 filter (2, -1), bias (1, 0): batch 0 (3, 4) gives (7, -4),
	 * batch 1 (-1, 0.5) gives (-1, -0.5). */
	opver_tensor *in = float_tensor("input", KH_DIMS(2, 1, 1, 2),
					(float[]){ 3, 4, -1, 0.5f });
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 1, 1, 2),
				       (float[]){ 2, -1 });
	opver_tensor *b = float_tensor("bias", KH_DIMS(2), (float[]){ 1, 0 });
	opver_tensor *out = float_tensor("output", KH_DIMS(2, 1, 1, 2), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f, b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 7, -4, -1, -0.5f }, 4);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(dw_float32, activations)
{
	/* Five channels, 1x1 filter of ones: outputs before the
	 * activation are the inputs -2.5, -0.5, 0.5, 3, 7. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, dw_float32, activations)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 5),
					(float[]){ -2.5f, -0.5f, 0.5f, 3, 7 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 1, 1, 5),
				       (float[]){ 1, 1, 1, 1, 1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 5), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.activation = c->activation;
	node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, c->expected, 5);
}

/* A model older than dilation fills only the prefix before it; the harness
 * copies exactly that many bytes, and dilation must then act as 1. */
Test(dw_float32, reads_only_the_filled_params_prefix)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.dilation_width = 2;
	p.dilation_height = 2;
	node = kh_node(&h, kh_kernel(&h, DW_FLOAT32), 1, &p,
		       offsetof(opver_depthwise_conv_params, dilation_width),
		       KH_TENSORS(in, f), KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* undilated: (0,0) 1 + 20 + 400 + 5000, then as in the SAME test */
	expect_floats(out, (float[]){ 5421, 6532, 8754, 9865 }, 4);
}
