/*
 * test_op_version_conv.c - TensorFlow Lite's version rules for CONV_2D,
 * DEPTHWISE_CONV_2D and TRANSPOSE_CONV, and how a reason is cut to a
 * small buffer.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

static const opver_conv_params conv_params = {
	.padding = OPVER_PADDING_SAME,
	.stride_width = 1,
	.stride_height = 1,
	.dilation_width = 1,
	.dilation_height = 1,
};

#define CONV(n, params) \
	build((n), OPVER_OP_CONV_2D, &(params), sizeof(params), 3, 1)

/* ------------------------------------------------------------ CONV_2D */

Test(conv_2d, float_tensors_are_version_1)
{
	test_node n;

	conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		     OPVER_TYPE_FLOAT32);
	expect(CONV(&n, conv_params), 1, "float32 tensors");
}

Test(conv_2d, uint8_tensors_are_version_1)
{
	test_node n;

	conv_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		     OPVER_TYPE_UINT8);
	expect(CONV(&n, conv_params), 1, "uint8");
}

Test(conv_2d, per_tensor_hybrid_is_version_2)
{
	test_node n;

	/* One scale for a filter of 2 output channels. */
	conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		     OPVER_TYPE_FLOAT32);
	expect(CONV(&n, conv_params), 2,
	       "per-tensor int8 filter with float input (hybrid)");
}

Test(conv_2d, scales_not_matching_the_filters_are_per_tensor_hybrid)
{
	test_node n;

	/* 3 scales for 2 output channels: not per-channel in TFLite's sense. */
	conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		     OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 3, some_scales, 0);
	expect(CONV(&n, conv_params), 2, "per-tensor");
}

Test(conv_2d, int8_is_version_3)
{
	test_node n;

	conv_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	n.inputs[1] = scaled(n.inputs[1], 2, some_scales, 0);
	expect(CONV(&n, conv_params), 3, "int8 input and filter, int8 output");
}

Test(conv_2d, int16_filter_and_output_is_version_4)
{
	test_node n;

	/* TFLite's rule reads outputs.at(1) here; output 0 is what counts. */
	conv_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		     OPVER_TYPE_INT16);
	expect(CONV(&n, conv_params), 4, "int16 input, filter and output");
}

Test(conv_2d, per_channel_hybrid_is_version_5)
{
	test_node n;

	/* 2 scales for 2 output channels (filter dimension 0). */
	conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		     OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 2, some_scales, 0);
	expect(CONV(&n, conv_params), 5,
	       "per-channel int8 filter with float input (hybrid)");
}

Test(conv_2d, grouped_convolution_is_version_6)
{
	static const int32_t filter_2x2[] = { 2, 3, 3, 2 };
	test_node n;

	/* The filter sees 2 of the input's 4 channels: 2 groups. */
	conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		     OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(FLOAT32, filter_2x2);
	expect(CONV(&n, conv_params), 6,
	       "grouped convolution: input has 4 channels, filter 2");
}

Test(conv_2d, grouped_int8_is_version_6_not_3)
{
	static const int32_t filter_2x1[] = { 2, 3, 3, 1 };
	test_node n;

	conv_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	n.inputs[1] = TENSOR(INT8, filter_2x1);
	expect(CONV(&n, conv_params), 6, "grouped");
}

Test(conv_2d, input_without_shape_is_not_grouped)
{
	test_node n;

	/* TFLite compares channels only when the input has a shape. */
	conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		     OPVER_TYPE_FLOAT32);
	n.inputs[0].rank = 0;
	n.inputs[0].dims = NULL;
	expect(CONV(&n, conv_params), 1, "float32 tensors");
}

Test(conv_2d, input_of_rank_below_4_is_not_read_past_its_shape)
{
	test_node n;

	/* litert_test_model_versioned_ops has such a CONV_2D: TFLite would
	 * read dimension 3 of a rank-1 shape. */
	conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		     OPVER_TYPE_FLOAT32);
	n.inputs[0] = TENSOR(FLOAT32, vector_1);
	n.inputs[1] = TENSOR(FLOAT32, vector_2);
	expect(CONV(&n, conv_params), 1, "float32 tensors");
}

Test(conv_2d, int4_filter_is_version_7)
{
	test_node n;

	conv_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT4, OPVER_TYPE_INT8);
	expect(CONV(&n, conv_params), 7, "int4 filter");
}

Test(conv_2d, quantized_bias_type_with_16x8_is_version_8)
{
	opver_conv_params params = conv_params;
	test_node n;

	params.quantized_bias_type = OPVER_TYPE_INT64;
	conv_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(CONV(&n, params), 8, "quantized_bias_type int64");
}

Test(conv_2d, quantized_bias_type_comes_before_grouping)
{
	static const int32_t filter_2x2[] = { 2, 3, 3, 2 };
	opver_conv_params params = conv_params;
	test_node n;

	params.quantized_bias_type = OPVER_TYPE_INT32;
	conv_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	n.inputs[1] = TENSOR(INT8, filter_2x2);
	expect(CONV(&n, params), 8, "quantized_bias_type int32");
	/* Without it the grouping decides. */
	expect(CONV(&n, conv_params), 6, "grouped");
}

Test(conv_2d, quantized_bias_type_is_ignored_without_16x8)
{
	opver_conv_params params = conv_params;
	test_node n;

	params.quantized_bias_type = OPVER_TYPE_INT32;
	conv_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(CONV(&n, params), 3, "int8 input and filter");
}

Test(conv_2d, plain_16x8_falls_through_to_version_1)
{
	test_node n;

	/* As published: no branch takes int16 input with an int8 filter
	 * unless quantized_bias_type is set. */
	conv_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(CONV(&n, conv_params), 1,
	       "without quantized_bias_type: TFLite's rules give such a CONV_2D no later version");
}

Test(conv_2d, absent_or_short_params_read_as_no_bias_type)
{
	opver_conv_params params = conv_params;
	test_node n;

	params.quantized_bias_type = OPVER_TYPE_INT64;
	conv_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_CONV_2D, NULL, 0, 3, 1), 1,
	       "without quantized_bias_type");
	/* A struct from a core older than the field ends before it. */
	expect(build(&n, OPVER_OP_CONV_2D, &params,
		     offsetof(opver_conv_params, quantized_bias_type), 3, 1),
	       1, "without quantized_bias_type");
}

Test(conv_2d, missing_filter_is_version_1_with_the_reason)
{
	test_node n;

	conv_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_CONV_2D, &conv_params, sizeof(conv_params),
		     1, 1),
	       1, "CONV_2D needs 2 input(s) and 1 output(s)");
	expect(build(&n, OPVER_OP_CONV_2D, &conv_params, sizeof(conv_params),
		     3, 0),
	       1, "the node has 3 and 0");
}

/* --------------------------------------------------- DEPTHWISE_CONV_2D */

static const opver_depthwise_conv_params depthwise_params = {
	.stride_width = 1,
	.stride_height = 1,
	.depth_multiplier = 1,
	.dilation_width = 1,
	.dilation_height = 1,
};

#define DEPTHWISE(n, params)                                            \
	build((n), OPVER_OP_DEPTHWISE_CONV_2D, &(params), sizeof(params), \
	      3, 1)

Test(depthwise_conv_2d, float_tensors_are_version_1)
{
	test_node n;

	depthwise_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			  OPVER_TYPE_FLOAT32);
	expect(DEPTHWISE(&n, depthwise_params), 1, "float32 tensors");
}

Test(depthwise_conv_2d, dilation_is_version_2)
{
	opver_depthwise_conv_params params = depthwise_params;
	test_node n;

	params.dilation_width = 2;
	depthwise_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			  OPVER_TYPE_FLOAT32);
	expect(DEPTHWISE(&n, params), 2, "dilation 2x1");
	params.dilation_width = 1;
	params.dilation_height = 3;
	expect(DEPTHWISE(&n, params), 2, "dilation 1x3");
}

Test(depthwise_conv_2d, dilated_uint8_is_version_2)
{
	opver_depthwise_conv_params params = depthwise_params;
	test_node n;

	params.dilation_height = 2;
	depthwise_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
			  OPVER_TYPE_UINT8);
	expect(DEPTHWISE(&n, params), 2, "dilation 1x2");
}

Test(depthwise_conv_2d, absent_or_short_params_read_as_no_dilation)
{
	opver_depthwise_conv_params params = depthwise_params;
	test_node n;

	params.dilation_width = 2;
	params.dilation_height = 2;
	depthwise_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			  OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_DEPTHWISE_CONV_2D, NULL, 0, 3, 1), 1,
	       "float32 tensors");
	expect(build(&n, OPVER_OP_DEPTHWISE_CONV_2D, &params,
		     offsetof(opver_depthwise_conv_params, dilation_width), 3,
		     1),
	       1, "float32 tensors");
	/* The width is there, the height is not: 2x1. */
	expect(build(&n, OPVER_OP_DEPTHWISE_CONV_2D, &params,
		     offsetof(opver_depthwise_conv_params, dilation_height),
		     3, 1),
	       2, "dilation 2x1");
}

Test(depthwise_conv_2d, int8_is_version_3_even_dilated)
{
	opver_depthwise_conv_params params = depthwise_params;
	test_node n;

	params.dilation_width = 2;
	depthwise_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8,
			  OPVER_TYPE_INT8);
	n.inputs[1] = scaled(n.inputs[1], 4, some_scales, 3);
	expect(DEPTHWISE(&n, params), 3, "int8 input and filter, int8 output");
}

Test(depthwise_conv_2d, per_tensor_hybrid_is_version_4)
{
	test_node n;

	depthwise_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			  OPVER_TYPE_FLOAT32);
	expect(DEPTHWISE(&n, depthwise_params), 4,
	       "per-tensor int8 filter with float input (hybrid)");
}

Test(depthwise_conv_2d, int16_is_version_5)
{
	test_node n;

	/* outputs.at(1) in TFLite's rule: output 0 here. */
	depthwise_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
			  OPVER_TYPE_INT16);
	expect(DEPTHWISE(&n, depthwise_params), 5,
	       "int16 input, filter and output");
}

Test(depthwise_conv_2d, per_channel_hybrid_is_version_6)
{
	test_node n;

	/* 4 scales for the filter's 4 channels (dimension 3). */
	depthwise_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			  OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 4, some_scales, 3);
	expect(DEPTHWISE(&n, depthwise_params), 6,
	       "per-channel int8 filter with float input (hybrid)");
}

Test(depthwise_conv_2d, per_channel_counts_along_dimension_3_only)
{
	static const int32_t filter_2x4[] = { 2, 3, 3, 4 };
	test_node n;

	/* 2 scales match dimension 0, as CONV_2D would ask, not 3. */
	depthwise_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			  OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(TENSOR(INT8, filter_2x4), 2, some_scales, 0);
	expect(DEPTHWISE(&n, depthwise_params), 4, "per-tensor");
}

Test(depthwise_conv_2d, int4_filter_is_version_7)
{
	test_node n;

	depthwise_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT4,
			  OPVER_TYPE_INT8);
	expect(DEPTHWISE(&n, depthwise_params), 7, "int4 filter");
}

/* ----------------------------------------------------- TRANSPOSE_CONV */

/* A TRANSPOSE_CONV node: output_shape [4], filter [2,3,3,4] of `filter`,
 * input [1,3,3,4] and output [1,3,3,2] of `activations`, and a bias of
 * `bias` (-1: the node has three inputs). */
static void transpose_conv_tensors(test_node *n, int32_t activations,
				   int32_t filter, int32_t bias)
{
	n->inputs[0] = TENSOR(INT32, vector_4);
	n->inputs[1] = tensor(filter, COUNT(conv_filter_2x4), conv_filter_2x4);
	n->inputs[2] = tensor(activations, COUNT(nhwc_4), nhwc_4);
	n->inputs[3] = tensor(bias, COUNT(vector_2), vector_2);
	n->outputs[0] = tensor(activations, COUNT(nhwc_2), nhwc_2);
}

Test(transpose_conv, versions_in_tflite_order)
{
	static const opver_transpose_conv_params plain =
		OPVER_TRANSPOSE_CONV_PARAMS_DEFAULTS;
	static const opver_transpose_conv_params relu = {
		.activation = OPVER_ACTIVATION_RELU
	};
	static const opver_transpose_conv_params bias64 = {
		.quantized_bias_type = OPVER_TYPE_INT64
	};
	test_node n;

	transpose_conv_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			       OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 3, 1),
	       1, "int32 and float32 tensors");
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 4, 1),
	       3, "bias input");
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &relu, sizeof(relu), 3, 1),
	       4, "fused activation");
	/* An omitted bias (index -1) is no bias. */
	n.inputs[3].type = -1;
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 4, 1),
	       1, "int32 and float32 tensors");
	transpose_conv_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8,
			       OPVER_TYPE_INT32);
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 3, 1),
	       2, "int8 filter");
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 4, 1),
	       3, "bias input");
	/* uint8 (filter too) is version 1's, as float32. */
	transpose_conv_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
			       OPVER_TYPE_INT32);
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 3, 1),
	       1, "int32 and uint8 tensors");
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 4, 1),
	       3, "bias input");
	/* 16x8 with quantized_bias_type: TFLite reads input 0, the int32
	 * output_shape, so a real node does not reach version 5... */
	transpose_conv_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
			       OPVER_TYPE_INT64);
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &bias64, sizeof(bias64), 4,
		     1),
	       3, "bias input");
	/* ...only one whose input 0 is int16 does. */
	n.inputs[0] = TENSOR(INT16, vector_4);
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &bias64, sizeof(bias64), 4,
		     1),
	       5, "quantized_bias_type");
	expect(build(&n, OPVER_OP_TRANSPOSE_CONV, &plain, sizeof(plain), 1, 1),
	       1, "TRANSPOSE_CONV needs 2 input(s)");
}

Test(reasons, are_cut_to_a_small_buffer)
{
	char reason[8];
	test_node n;

	conv_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	cr_assert_eq(opver__op_required_version(CONV(&n, conv_params), reason,
						sizeof(reason)),
		     3);
	cr_assert_str_eq(reason, "int8 in");
}
