/*
 * test_reference_conv_float.c - the reference plugin's float32 CONV_2D
 * kernel run from the built reference.so through the kernel harness:
 * padding, strides, dilation, groups, activations and batches checked
 * against values worked out by hand.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "conv_harness.h"

/* -------------------------------------------------------------- float32 */

TestSuite(conv_float32, .init = setup, .fini = teardown);

/* The 3 x 3 image 1..9 and the 2 x 2 filter (1 2 / 3 4), single channel. */
static const float image_3x3[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const float filter_2x2[] = { 1, 2, 3, 4 };

Test(conv_float32, valid_padding_with_bias)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *b = float_tensor("bias", KH_DIMS(1), (float[]){ 0.5f });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	/* (0,0): 1*1 + 2*2 + 4*3 + 5*4 = 37; (0,1): 2 + 6 + 15 + 24 = 47;
	 * (1,0): 4 + 10 + 21 + 32 = 67;   (1,1): 5 + 12 + 24 + 36 = 77;
	 * each + 0.5 */
	expect_floats(out, (float[]){ 37.5f, 47.5f, 67.5f, 77.5f }, 4);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_float32, same_padding_even_total)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (float[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Total padding (3-1)*1 + 3 - 3 = 2: one row and column each side;
	 * each output sums the 3 x 3 neighbourhood inside the image:
	 * corners 1+2+4+5 = 12, 2+3+5+6 = 16, 4+5+7+8 = 24, 5+6+8+9 = 28;
	 * edges 1..6 = 21, 27 (1+2+4+5+7+8), 33 (2+3+5+6+8+9), 39 (4..9);
	 * centre 45. */
	expect_floats(out, (float[]){ 12, 21, 16, 27, 45, 33, 24, 39, 28 }, 9);
}

Test(conv_float32, same_padding_odd_total_pads_after)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Total padding 2*1 + 2 - 3 = 1, all of it after: out(y,x) =
	 * in(y,x) + 2 in(y,x+1) + 3 in(y+1,x) + 4 in(y+1,x+1), zero outside.
	 * Row 0: 37, 47, 3 + 3*6 = 21; row 1: 67, 77, 6 + 3*9 = 33;
	 * row 2: 7 + 2*8 = 23, 8 + 2*9 = 26, 9. */
	expect_floats(out, (float[]){ 37, 47, 21, 67, 77, 33, 23, 26, 9 }, 9);
}

Test(conv_float32, stride_2_same)
{
	float image[16];
	opver_tensor *in, *f, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 2, 1, OPVER_ACTIVATION_NONE);

	for (int i = 0; i < 16; i++)
		image[i] = (float)(i + 1);
	in = float_tensor("input", KH_DIMS(1, 4, 4, 1), image);
	f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
			 (float[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 });
	out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* 2 outputs per side; total padding (2-1)*2 + 3 - 4 = 1, after.
	 * Windows rows/cols {0,1,2} and {2,3}:
	 * (1+2+3) + (5+6+7) + (9+10+11) = 54; (3+4) + (7+8) + (11+12) = 45;
	 * (9+10+11) + (13+14+15) = 72; 11 + 12 + 15 + 16 = 54. */
	expect_floats(out, (float[]){ 54, 45, 72, 54 }, 4);
}

Test(conv_float32, strides_apply_to_their_own_dimension)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 1, 1, 1),
				       (float[]){ 1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	p.stride_height = 2;
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Rows 0 and 2, every column. */
	expect_floats(out, (float[]){ 1, 2, 3, 7, 8, 9 }, 6);
}

Test(conv_float32, dilation_2_valid)
{
	float image[25];
	opver_tensor *in, *f, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 2, OPVER_ACTIVATION_NONE);

	for (int i = 0; i < 25; i++)
		image[i] = (float)(i + 1);
	in = float_tensor("input", KH_DIMS(1, 5, 5, 1), image);
	f = float_tensor("filter", KH_DIMS(1, 2, 2, 1), filter_2x2);
	out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* The filter spans 3 x 3: with v = in(y,x) = 5y + x + 1,
	 * v + 2 in(y,x+2) + 3 in(y+2,x) + 4 in(y+2,x+2)
	 * = v + 2(v+2) + 3(v+10) + 4(v+12) = 10v + 82. */
	expect_floats(out,
		      (float[]){ 92, 102, 112, 142, 152, 162, 192, 202, 212 },
		      9);
}

Test(conv_float32, dilation_in_height_only_with_same_padding)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	p.dilation_height = 2;
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Height: the filter spans 3, total padding 2, one row before.
	 * Width: spans 2, total padding 1, after.  out(y,x) =
	 * in(y-1,x) + 2 in(y-1,x+1) + 3 in(y+1,x) + 4 in(y+1,x+1):
	 * row 0: 3*4 + 4*5 = 32, 3*5 + 4*6 = 39, 3*6 = 18;
	 * row 1: 1 + 4 + 21 + 32 = 58, 2 + 6 + 24 + 36 = 68, 3 + 27 = 30;
	 * row 2: 4 + 10 = 14, 5 + 12 = 17, 6. */
	expect_floats(out, (float[]){ 32, 39, 18, 58, 68, 30, 14, 17, 6 }, 9);
}

Test(conv_float32, batches_channels_and_bias)
{
	/* 2 batches of one pixel with channels (1, 2) and (3, -1). */
	opver_tensor *in = float_tensor("input", KH_DIMS(2, 1, 1, 2),
					(float[]){ 1, 2, 3, -1 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(3, 1, 1, 2),
				       (float[]){ 1, 1, 2, -1, 0.5f, 0 });
	opver_tensor *b = float_tensor("bias", KH_DIMS(3),
				       (float[]){ 0, 1, -1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(2, 1, 1, 3), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	/* batch 0: 1+2 = 3; 2-2+1 = 1; 0.5-1 = -0.5
	 * batch 1: 3-1 = 2; 6+1+1 = 8; 1.5-1 = 0.5 */
	expect_floats(out, (float[]){ 3, 1, -0.5f, 2, 8, 0.5f }, 6);
}

Test(conv_float32, two_groups)
{
	/* 4 input channels, filters of 2: groups of 2 output channels each
	 * reading 2 input channels.  Pixels (1, 2, 3, 4) and (-1, 0, 2, 1).
	 * Filters: o0 (1, 0) and o1 (1, 1) on channels 0-1; o2 (1, 0) and
	 * o3 (0, -1) on channels 2-3. */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 2, 4),
					(float[]){ 1, 2, 3, 4, -1, 0, 2, 1 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(4, 1, 1, 2),
				       (float[]){ 1, 0, 1, 1, 1, 0, 0, -1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 2, 4), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* pixel 0: 1, 1+2 = 3, 3, -4; pixel 1: -1, -1+0 = -1, 2, -1 */
	expect_floats(out, (float[]){ 1, 3, 3, -4, -1, -1, 2, -1 }, 8);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(conv_float32, activations)
{
	/* Outputs before the activation: -2.5, -0.5, 0.5, 3, 7. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, conv_float32, activations)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 1),
					(float[]){ 1 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(5, 1, 1, 1),
				       (float[]){ -2.5f, -0.5f, 0.5f, 3, 7 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 5), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, c->activation);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats(out, c->expected, 5);
}

/* A core built before dilation was decoded fills only the prefix it knows;
 * the harness copies exactly that many bytes, so reading further would be
 * caught, and the missing dilations must act as 1. */
Test(conv_float32, reads_only_the_filled_params_prefix)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 7, OPVER_ACTIVATION_NONE);
	opver_node *node =
		kh_node(&h, kh_kernel(&h, CONV_FLOAT32), 1, &p,
			offsetof(opver_conv_params, dilation_width),
			KH_TENSORS(in, f), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 37, 47, 67, 77 }, 4);
}
