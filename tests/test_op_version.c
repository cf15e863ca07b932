/*
 * test_op_version.c - TensorFlow Lite's operator-version rules
 * (core/op_version.c): every branch of each op's rule on signatures built
 * here, with the fact the reason must name; schema defaults for absent or
 * short parameter structs; the first-release table and the release
 * comparison; signatures read from a test model; and, when
 * OPVER_MODEL_CORPUS names the model corpus, the versions its 17 real
 * models need, worked out by hand from its README and TFLite's rules.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "messages.h"
#include "model_reader.h"
#include "op_version.h"

#define COUNT(array) ((int32_t)(sizeof(array) / sizeof((array)[0])))

/* Shapes shared by the tests: NHWC activations with 4 and 2 channels, a
 * CONV_2D filter [out, h, w, in], a DEPTHWISE_CONV_2D filter [1, h, w, c],
 * FULLY_CONNECTED weights [units, depth] and row vectors. */
static const int32_t nhwc_4[] = { 1, 3, 3, 4 };
static const int32_t nhwc_2[] = { 1, 3, 3, 2 };
static const int32_t conv_filter_2x4[] = { 2, 3, 3, 4 };
static const int32_t depthwise_filter_4[] = { 1, 3, 3, 4 };
static const int32_t weights_2x4[] = { 2, 4 };
static const int32_t row_4[] = { 1, 4 };
static const int32_t row_2[] = { 1, 2 };
static const int32_t vector_1[] = { 1 };
static const int32_t vector_2[] = { 2 };
static const int32_t vector_4[] = { 4 };

/* Scales for tensors whose values the rules do not read. */
static const float some_scales[] = { 0.5f, 0.25f, 0.125f, 0.0625f };

/* A node and the tensors its signature points to. */
typedef struct test_node {
	opver__op_signature sig;
	opver__tensor_signature inputs[4];
	opver__tensor_signature outputs[1];
} test_node;

static bool is_integer(int32_t type)
{
	return type == OPVER_TYPE_INT4 || type == OPVER_TYPE_INT8 ||
	       type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT16 ||
	       type == OPVER_TYPE_INT32 || type == OPVER_TYPE_INT64;
}

/* A tensor of `type` and shape `dims` (rank entries, borrowed), with a
 * one-scale quantization table when the type is an integer type. */
static opver__tensor_signature tensor(int32_t type, int32_t rank,
				      const int32_t *dims)
{
	opver__tensor_signature t = {
		.type = type, .rank = rank, .dims = dims
	};

	if (is_integer(type)) {
		t.has_quantization = true;
		t.quant_count = 1;
		t.scale = some_scales;
	}
	return t;
}

#define TENSOR(type, shape) tensor(OPVER_TYPE_##type, COUNT(shape), shape)

/* `t` quantized with `count` scales from `scale` along `axis`. */
static opver__tensor_signature scaled(opver__tensor_signature t,
				      int32_t count, const float *scale,
				      int32_t axis)
{
	t.has_quantization = true;
	t.quant_count = count;
	t.scale = scale;
	t.quant_axis = axis;
	return t;
}

/* `t` without any quantization table. */
static opver__tensor_signature unquantized(opver__tensor_signature t)
{
	t.has_quantization = false;
	t.quant_count = 0;
	t.scale = NULL;
	return t;
}

/* Points n's signature at its first num_inputs inputs and at its output
 * (num_outputs is 0 or 1). */
static const opver__op_signature *build(test_node *n, int32_t op,
					const void *params, size_t params_size,
					int32_t num_inputs, int32_t num_outputs)
{
	n->sig = (opver__op_signature){
		.op = op,
		.params = params,
		.params_size = params_size,
		.num_inputs = num_inputs,
		.inputs = n->inputs,
		.num_outputs = num_outputs,
		.outputs = n->outputs,
	};
	return &n->sig;
}

/* A CONV_2D-shaped node of the given types: input [1,3,3,4], filter
 * [2,3,3,4], bias [2], output [1,3,3,2]; a test then changes what its
 * branch is about. */
static void conv_tensors(test_node *n, int32_t input, int32_t filter,
			 int32_t output)
{
	int32_t bias = input == OPVER_TYPE_FLOAT32 ? OPVER_TYPE_FLOAT32
						   : OPVER_TYPE_INT32;

	n->inputs[0] = tensor(input, COUNT(nhwc_4), nhwc_4);
	n->inputs[1] = tensor(filter, COUNT(conv_filter_2x4), conv_filter_2x4);
	n->inputs[2] = tensor(bias, COUNT(vector_2), vector_2);
	n->outputs[0] = tensor(output, COUNT(nhwc_2), nhwc_2);
}

/* DEPTHWISE_CONV_2D: input [1,3,3,4], filter [1,3,3,4], bias [4],
 * output [1,3,3,4]. */
static void depthwise_tensors(test_node *n, int32_t input, int32_t filter,
			      int32_t output)
{
	int32_t bias = input == OPVER_TYPE_FLOAT32 ? OPVER_TYPE_FLOAT32
						   : OPVER_TYPE_INT32;

	n->inputs[0] = tensor(input, COUNT(nhwc_4), nhwc_4);
	n->inputs[1] = tensor(filter, COUNT(depthwise_filter_4),
			      depthwise_filter_4);
	n->inputs[2] = tensor(bias, COUNT(vector_4), vector_4);
	n->outputs[0] = tensor(output, COUNT(nhwc_4), nhwc_4);
}

/* FULLY_CONNECTED: input [1,4], weights [2,4], bias [2], output [1,2]. */
static void fc_tensors(test_node *n, int32_t input, int32_t weights,
		       int32_t output)
{
	int32_t bias = input == OPVER_TYPE_FLOAT32 ? OPVER_TYPE_FLOAT32
						   : OPVER_TYPE_INT32;

	n->inputs[0] = tensor(input, COUNT(row_4), row_4);
	n->inputs[1] = tensor(weights, COUNT(weights_2x4), weights_2x4);
	n->inputs[2] = tensor(bias, COUNT(vector_2), vector_2);
	n->outputs[0] = tensor(output, COUNT(row_2), row_2);
}

/* Element-wise ops: inputs [1,4] of `a` and `b`, output [1,4]. */
static void binary_tensors(test_node *n, int32_t a, int32_t b,
			   int32_t output)
{
	n->inputs[0] = tensor(a, COUNT(row_4), row_4);
	n->inputs[1] = tensor(b, COUNT(row_4), row_4);
	n->outputs[0] = tensor(output, COUNT(row_4), row_4);
}

/* One-input ops: input [1,3,3,4], output [1,3,3,4]. */
static void unary_tensors(test_node *n, int32_t input, int32_t output)
{
	n->inputs[0] = tensor(input, COUNT(nhwc_4), nhwc_4);
	n->outputs[0] = tensor(output, COUNT(nhwc_4), nhwc_4);
}

/* Asserts that the node needs `version` and that the reason, which must
 * fit its buffer, mentions `fact`. */
static void expect(const opver__op_signature *sig, int32_t version,
		   const char *fact)
{
	char reason[OPVER__VERSION_REASON_SIZE];
	int32_t got = opver__op_required_version(sig, reason, sizeof(reason));

	cr_assert_eq(got, version, "%s: version %d, expected %d (\"%s\")",
		     opver_op_name(sig->op), got, version, reason);
	cr_assert_lt(strlen(reason) + 1, sizeof(reason),
		     "reason fills its whole buffer: \"%s\"", reason);
	cr_assert_not_null(strstr(reason, fact),
			   "%s v%d: reason \"%s\" does not mention \"%s\"",
			   opver_op_name(sig->op), version, reason, fact);
}

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

/* ---------------------------------------------------- FULLY_CONNECTED */

static const opver_fully_connected_params fc_params = { 0 };

#define FC(n, params)                                                   \
	build((n), OPVER_OP_FULLY_CONNECTED, &(params), sizeof(params), 3, \
	      1)

Test(fully_connected, float_tensors_are_version_1)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, fc_params), 1, "float32 tensors");
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, NULL, 0, 3, 1), 1,
	       "float32 tensors");
}

/* TFLite's legacy int16 output of uint8: no rule looks at it. */
Test(fully_connected, uint8_with_int16_output_is_version_1)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 1, "uint8 and int16 tensors");
}

Test(fully_connected, shuffled_weights_are_version_2)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8;
	fc_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	expect(FC(&n, params), 2, "shuffled 4x16 int8 weights");
	/* A struct ending before weights_format reads the default. */
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params,
		     offsetof(opver_fully_connected_params, weights_format), 3,
		     1),
	       1, "uint8 tensors");
}

Test(fully_connected, hybrid_is_version_3)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, fc_params), 3,
	       "per-tensor int8 weights with float input (hybrid)");
}

Test(fully_connected, hybrid_with_shuffled_weights_is_version_3)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8;
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, params), 3, "hybrid");
}

Test(fully_connected, int8_is_version_4)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(FC(&n, fc_params), 4, "int8 input and weights, int8 output");
}

Test(fully_connected, keep_num_dims_is_version_5)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.keep_num_dims = true;
	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(FC(&n, params), 5, "keep_num_dims");
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params,
		     offsetof(opver_fully_connected_params, keep_num_dims), 3,
		     1),
	       4, "int8 input and weights");
}

Test(fully_connected, two_inputs_are_version_6)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &fc_params,
		     sizeof(fc_params), 2, 1),
	       6, "no bias input");
	/* It comes before keep_num_dims. */
	params.keep_num_dims = true;
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params, sizeof(params), 2,
		     1),
	       6, "no bias input");
}

Test(fully_connected, omitted_bias_entry_is_not_a_missing_bias)
{
	test_node n;

	/* TFLite counts the -1 entry: 3 inputs, so not version 6. */
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		   OPVER_TYPE_FLOAT32);
	n.inputs[2] = (opver__tensor_signature){ .type = -1 };
	expect(FC(&n, fc_params), 1, "float32 tensors");
}

Test(fully_connected, int16_is_version_7)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 7, "int16 input, weights and output");
}

Test(fully_connected, sparse_weights_are_version_8)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	n.inputs[1].is_sparse = true;
	expect(FC(&n, fc_params), 8, "sparse weights");
	/* Before the int16 kernel and the missing bias. */
	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	n.inputs[1].is_sparse = true;
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &fc_params,
		     sizeof(fc_params), 2, 1),
	       8, "sparse weights");
}

Test(fully_connected, asymmetric_hybrid_is_version_9)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.asymmetric_quantize_inputs = true;
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, params), 9, "asymmetric_quantize_inputs");
	/* Only hybrid nodes care. */
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, params), 1, "float32 tensors");
}

Test(fully_connected, int4_weights_with_int8_are_version_10)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT4, OPVER_TYPE_INT8);
	expect(FC(&n, fc_params), 10, "int4 weights with int8 input");
}

Test(fully_connected, quantized_bias_type_with_16x8_is_version_11)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.quantized_bias_type = OPVER_TYPE_INT64;
	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(FC(&n, params), 11, "quantized_bias_type int64");
	/* Even without a bias: it comes first. */
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params, sizeof(params), 2,
		     1),
	       11, "quantized_bias_type");
}

Test(fully_connected, plain_16x8_falls_through_to_version_1)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 1,
	       "without quantized_bias_type: TFLite's rules give such a FULLY_CONNECTED no later version");
}

Test(fully_connected, per_channel_hybrid_is_version_12)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	/* 2 scales for 2 units (weights dimension 0), even asymmetric. */
	params.asymmetric_quantize_inputs = true;
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 2, some_scales, 0);
	expect(FC(&n, params), 12,
	       "per-channel int8 weights with float input (hybrid)");
}

Test(fully_connected, one_scale_for_one_unit_is_not_per_channel)
{
	static const int32_t weights_1x4[] = { 1, 4 };
	test_node n;

	/* FULLY_CONNECTED asks for more than one scale. */
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(INT8, weights_1x4);
	expect(FC(&n, fc_params), 3, "per-tensor int8 weights");
}

Test(fully_connected, int4_weights_with_int16_are_version_13)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT4, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 13, "int4 weights with int16 input");
}

Test(fully_connected, missing_weights_are_version_1_with_the_reason)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &fc_params,
		     sizeof(fc_params), 1, 1),
	       1, "FULLY_CONNECTED needs 2 input(s)");
}

/* -------------------------------------------------------------- pools */

static const opver_pool_params pool_params = {
	.stride_width = 1,
	.stride_height = 1,
	.filter_width = 2,
	.filter_height = 2,
};

static const int32_t pool_ops[] = { OPVER_OP_AVERAGE_POOL_2D,
				    OPVER_OP_MAX_POOL_2D };

/* Asserts the version of both pools for one input and output type. */
static void expect_pools(int32_t input, int32_t output, int32_t version,
			 const char *fact)
{
	test_node n;

	unary_tensors(&n, input, output);
	for (int32_t i = 0; i < COUNT(pool_ops); i++)
		expect(build(&n, pool_ops[i], &pool_params, sizeof(pool_params),
			     1, 1),
		       version, fact);
}

Test(pools, float_is_version_1)
{
	expect_pools(OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, 1,
		     "float32 tensors");
	expect_pools(OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, 1, "uint8 tensors");
}

Test(pools, int8_is_version_2)
{
	expect_pools(OPVER_TYPE_INT8, OPVER_TYPE_INT8, 2, "int8 input");
}

Test(pools, int16_is_version_3)
{
	expect_pools(OPVER_TYPE_INT16, OPVER_TYPE_INT16, 3,
		     "int16 input and output");
	/* Both must be int16. */
	expect_pools(OPVER_TYPE_INT16, OPVER_TYPE_INT8, 1,
		     "int16 and int8 tensors");
}

/* ------------------------------------------------ RESHAPE and SOFTMAX */

Test(reshape, every_reshape_is_version_1)
{
	static const opver_reshape_params params = { .num_dims = 2,
						     .dims = { 1, 36 } };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESHAPE, &params, sizeof(params), 2, 1), 1,
	       "RESHAPE a single version");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESHAPE, &params, sizeof(params), 2, 1), 1,
	       "RESHAPE a single version");
	expect(build(&n, OPVER_OP_RESHAPE, NULL, 0, 0, 0), 1,
	       "RESHAPE a single version");
}

Test(softmax, versions_follow_the_input_type)
{
	static const opver_softmax_params params = { .beta = 1.0f };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 1,
	       "float32 tensors");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 1,
	       "uint8 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 2,
	       "int8 input");
	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 3,
	       "int16 input");
	/* An int16 output of an 8-bit input adds no version: the input's
	 * type decides. */
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 2,
	       "int8 input");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 1,
	       "uint8 and int16 tensors");
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 0, 1), 1,
	       "SOFTMAX needs 1 input(s)");
}

/* --------------------------------------------------------- activations */

/* Asserts that a one-input activation node of `op` on `in` to `out`
 * tensors needs `version`, for a reason that mentions `fact`. */
static void activation_expect(int32_t op, int32_t in, int32_t out,
			      int32_t version, const char *fact)
{
	static const opver_leaky_relu_params leaky = { .alpha = 0.2f };
	static const opver_gelu_params gelu = { .approximate = 1 };
	const void *params = NULL;
	size_t size = 0;
	test_node n;

	if (op == OPVER_OP_LEAKY_RELU) {
		params = &leaky;
		size = sizeof(leaky);
	} else if (op == OPVER_OP_GELU) {
		params = &gelu;
		size = sizeof(gelu);
	}
	unary_tensors(&n, in, out);
	expect(build(&n, op, params, size, 1, 1), version, fact);
}

#define expect_activation(op, in, out, version, fact)                 \
	activation_expect(op, OPVER_TYPE_##in, OPVER_TYPE_##out, version, \
			  fact)

Test(activations, relu_int16_int8_and_uint8_rows)
{
	expect_activation(OPVER_OP_RELU, FLOAT32, FLOAT32, 1, "float32 tensors");
	expect_activation(OPVER_OP_RELU, INT16, INT16, 3, "int16 input");
	expect_activation(OPVER_OP_RELU, INT8, INT8, 2, "int8 input");
	expect_activation(OPVER_OP_RELU, UINT8, UINT8, 2, "uint8 input");
}

Test(activations, relu6_int16_and_int8_rows)
{
	expect_activation(OPVER_OP_RELU6, FLOAT32, FLOAT32, 1,
			  "float32 tensors");
	expect_activation(OPVER_OP_RELU6, INT16, INT16, 3, "int16 input");
	expect_activation(OPVER_OP_RELU6, INT8, INT8, 2, "int8 input");
	/* TFLite's RELU6 rule names no uint8 branch. */
	expect_activation(OPVER_OP_RELU6, UINT8, UINT8, 1, "uint8 tensors");
}

Test(activations, logistic_and_tanh_need_int16_on_both_sides_for_3)
{
	static const int32_t ops[] = { OPVER_OP_LOGISTIC, OPVER_OP_TANH };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		expect_activation(ops[i], FLOAT32, FLOAT32, 1,
				  "float32 tensors");
		expect_activation(ops[i], INT16, INT16, 3,
				  "int16 input and output");
		/* int16 in, another type out: not the int16 row. */
		expect_activation(ops[i], INT16, FLOAT32, 1, "int16");
		expect_activation(ops[i], INT8, INT8, 2, "int8 input");
		expect_activation(ops[i], UINT8, UINT8, 1, "uint8 tensors");
	}
}

Test(activations, leaky_relu_int16_row)
{
	expect_activation(OPVER_OP_LEAKY_RELU, INT16, INT16, 2, "int16 input");
	expect_activation(OPVER_OP_LEAKY_RELU, INT8, INT8, 1, "int8 tensors");
	expect_activation(OPVER_OP_LEAKY_RELU, UINT8, UINT8, 1,
			  "uint8 tensors");
}

Test(activations, log_softmax_int8_row)
{
	expect_activation(OPVER_OP_LOG_SOFTMAX, FLOAT32, FLOAT32, 1,
			  "float32 tensors");
	expect_activation(OPVER_OP_LOG_SOFTMAX, INT8, INT8, 2, "int8 input");
	expect_activation(OPVER_OP_LOG_SOFTMAX, UINT8, UINT8, 1,
			  "uint8 tensors");
}

Test(activations, gelu_int8_and_uint8_rows)
{
	expect_activation(OPVER_OP_GELU, FLOAT32, FLOAT32, 1,
			  "float32 tensors");
	expect_activation(OPVER_OP_GELU, INT8, INT8, 2, "int8 input");
	expect_activation(OPVER_OP_GELU, UINT8, UINT8, 2, "uint8 input");
}

Test(activations, ops_without_rules_are_version_1)
{
	static const int32_t ops[] = {
		OPVER_OP_RELU_N1_TO_1, OPVER_OP_RELU_0_TO_1, OPVER_OP_ELU,
		OPVER_OP_HARD_SWISH,
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		expect_activation(ops[i], INT8, INT8, 1, "no version rule");
}

/* ---------------------------------------------- reductions and ARG_* */

/* A reduction node: input, a constant int32 axis tensor, output. */
static const opver__op_signature *reduction(test_node *n, int32_t op,
					    int32_t type, const void *params,
					    size_t params_size)
{
	unary_tensors(n, type, type);
	n->inputs[1] = TENSOR(INT32, vector_2);
	n->inputs[1].is_constant = true;
	return build(n, op, params, params_size, 2, 1);
}

/* MEAN, REDUCE_MAX and REDUCE_MIN: int16 3, int8 2, the rest 1. */
Test(reductions, mean_max_and_min_follow_the_input_type)
{
	static const opver_reducer_params keep = { .keep_dims = 1 };
	static const int32_t ops[] = { OPVER_OP_MEAN, OPVER_OP_REDUCE_MAX,
				       OPVER_OP_REDUCE_MIN };
	test_node n;

	for (int i = 0; i < COUNT(ops); i++) {
		expect(reduction(&n, ops[i], OPVER_TYPE_INT16, &keep,
				 sizeof(keep)),
		       3, "int16 input");
		expect(reduction(&n, ops[i], OPVER_TYPE_INT8, &keep,
				 sizeof(keep)),
		       2, "int8 input");
		expect(reduction(&n, ops[i], OPVER_TYPE_UINT8, NULL, 0), 1,
		       "uint8 and int32 tensors");
		expect(reduction(&n, ops[i], OPVER_TYPE_FLOAT32, &keep,
				 sizeof(keep)),
		       1, "float32 and int32 tensors");
		expect(build(&n, ops[i], NULL, 0, 0, 1), 1,
		       "needs 1 input(s)");
	}
}

/* SUM: int8 2; int16 (TFLite's rule has no int16 branch) 1. */
Test(reductions, sum_is_version_2_for_int8_only)
{
	test_node n;

	expect(reduction(&n, OPVER_OP_SUM, OPVER_TYPE_INT8, NULL, 0), 2,
	       "int8 input");
	expect(reduction(&n, OPVER_OP_SUM, OPVER_TYPE_INT16, NULL, 0), 1,
	       "int16 and int32 tensors");
	expect(reduction(&n, OPVER_OP_SUM, OPVER_TYPE_FLOAT32, NULL, 0), 1,
	       "float32 and int32 tensors");
}

/* REDUCE_PROD: int8 and int16 2. */
Test(reductions, reduce_prod_is_version_2_for_int8_and_int16)
{
	test_node n;

	expect(reduction(&n, OPVER_OP_REDUCE_PROD, OPVER_TYPE_INT8, NULL, 0),
	       2, "int8 input");
	expect(reduction(&n, OPVER_OP_REDUCE_PROD, OPVER_TYPE_INT16, NULL, 0),
	       2, "int16 input");
	expect(reduction(&n, OPVER_OP_REDUCE_PROD, OPVER_TYPE_INT32, NULL, 0),
	       1, "int32 tensors");
}

/* ARG_MAX and ARG_MIN: bool 3, int8 2, whatever the output type. */
Test(reductions, arg_max_and_min_follow_the_input_type)
{
	static const opver_arg_min_max_params int64_out = {
		.output_type = OPVER_TYPE_INT64
	};
	static const int32_t ops[] = { OPVER_OP_ARG_MAX, OPVER_OP_ARG_MIN };
	test_node n;

	for (int i = 0; i < COUNT(ops); i++) {
		unary_tensors(&n, OPVER_TYPE_BOOL, OPVER_TYPE_INT64);
		n.inputs[1] = TENSOR(INT32, vector_1);
		expect(build(&n, ops[i], &int64_out, sizeof(int64_out), 2, 1),
		       3, "bool input");
		n.inputs[0] = TENSOR(INT8, nhwc_4);
		expect(build(&n, ops[i], &int64_out, sizeof(int64_out), 2, 1),
		       2, "int8 input");
		n.inputs[0] = TENSOR(UINT8, nhwc_4);
		expect(build(&n, ops[i], &int64_out, sizeof(int64_out), 2, 1),
		       1, "uint8, int32 and int64 tensors");
		n.inputs[0] = TENSOR(FLOAT32, nhwc_4);
		n.outputs[0] = TENSOR(INT32, nhwc_2);
		expect(build(&n, ops[i], NULL, 0, 2, 1), 1,
		       "float32 and int32 tensors");
	}
}

/* ------------------------------------------------ data-movement ops */

static const int32_t rank_5[] = { 1, 2, 1, 2, 2 };
static const int32_t rank_6[] = { 1, 2, 1, 2, 2, 1 };
static const int32_t rank_7[] = { 1, 2, 1, 2, 2, 1, 1 };

/*
 * A data-movement node: input `data` (at index data_at, the other inputs
 * INT32 vectors) of `type` and shape [1,4] unless `rank`/`dims` are given,
 * output of `output` type; asserts the version and the reason's `fact`.
 */
static void expect_move(int32_t op, const void *params, size_t params_size,
			int32_t num_inputs, int32_t data_at, int32_t type,
			int32_t output, int32_t rank, const int32_t *dims,
			int32_t version, const char *fact)
{
	test_node n;

	for (int32_t i = 0; i < num_inputs; i++)
		n.inputs[i] = TENSOR(INT32, vector_2);
	n.inputs[data_at] = dims != NULL ? tensor(type, rank, dims)
					 : tensor(type, COUNT(row_4), row_4);
	n.outputs[0] = tensor(output, COUNT(row_4), row_4);
	expect(build(&n, op, params, params_size, num_inputs, 1), version,
	       fact);
}

/* The common case: the data is input 0 and the output has its type. */
#define EXPECT_MOVE(op, inputs, type, version, fact)                        \
	expect_move(OPVER_OP_##op, NULL, 0, inputs, 0, OPVER_TYPE_##type,   \
		    OPVER_TYPE_##type, 0, NULL, version, fact)
#define EXPECT_MOVE_RANK(op, inputs, shape, version, fact)                  \
	expect_move(OPVER_OP_##op, NULL, 0, inputs, 0, OPVER_TYPE_FLOAT32,  \
		    OPVER_TYPE_FLOAT32, COUNT(shape), shape, version, fact)

Test(pad, versions_follow_type_and_rank)
{
	static const int32_t ops[] = { OPVER_OP_PAD, OPVER_OP_PADV2 };

	for (size_t i = 0; i < COUNT(ops); i++) {
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_BOOL,
			    OPVER_TYPE_BOOL, COUNT(rank_5), rank_5, 5,
			    "bool input");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_INT8,
			    OPVER_TYPE_INT8, COUNT(rank_5), rank_5, 4,
			    "more than 4 dimensions");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_INT16,
			    OPVER_TYPE_INT16, 0, NULL, 3, "int16 input");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_INT8,
			    OPVER_TYPE_INT8, 0, NULL, 2, "int8 input");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_UINT8,
			    OPVER_TYPE_UINT8, COUNT(nhwc_4), nhwc_4, 1,
			    "uint8 and int32 tensors");
	}
}

Test(mirror_pad, versions_follow_the_input_type)
{
	EXPECT_MOVE(MIRROR_PAD, 2, INT16, 3, "int16 input");
	EXPECT_MOVE(MIRROR_PAD, 2, INT8, 2, "int8 input");
	EXPECT_MOVE(MIRROR_PAD, 2, FLOAT32, 1, "float32 and int32 tensors");
}

Test(concatenation, versions_follow_the_input_type)
{
	EXPECT_MOVE(CONCATENATION, 1, INT4, 5, "int4 input");
	EXPECT_MOVE(CONCATENATION, 1, UINT32, 4, "uint32 input");
	EXPECT_MOVE(CONCATENATION, 1, INT16, 3, "int16 input");
	EXPECT_MOVE(CONCATENATION, 1, INT8, 2, "int8 input");
	EXPECT_MOVE(CONCATENATION, 1, UINT8, 1, "uint8 tensors");
}

Test(split, versions_follow_the_data_input_not_the_axis)
{
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_INT16,
		    OPVER_TYPE_INT16, 0, NULL, 4, "int16 input");
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_INT32,
		    OPVER_TYPE_INT32, 0, NULL, 3, "int32 input");
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_INT8,
		    OPVER_TYPE_INT8, 0, NULL, 2, "int8 input");
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_FLOAT32,
		    OPVER_TYPE_FLOAT32, 0, NULL, 1,
		    "int32 and float32 tensors");
	EXPECT_MOVE(SPLIT_V, 3, INT8, 2, "int8 input");
	EXPECT_MOVE(SPLIT_V, 3, INT16, 1, "int16 and int32 tensors");
}

Test(pack, versions_follow_the_input_type)
{
	EXPECT_MOVE(PACK, 2, INT8, 2, "int8 input");
	EXPECT_MOVE(PACK, 2, INT16, 3, "int16 input and output");
	expect_move(OPVER_OP_PACK, NULL, 0, 2, 0, OPVER_TYPE_INT16,
		    OPVER_TYPE_INT8, 0, NULL, 1, "int16, int32 and int8");
	EXPECT_MOVE(PACK, 2, UINT32, 4, "uint32 input");
	EXPECT_MOVE(UNPACK, 1, INT8, 2, "int8 input");
	EXPECT_MOVE(UNPACK, 1, UINT8, 2, "uint8 input");
	EXPECT_MOVE(UNPACK, 1, BOOL, 3, "bool input");
	EXPECT_MOVE(UNPACK, 1, INT16, 4, "int16 input and output");
	EXPECT_MOVE(UNPACK, 1, FLOAT16, 5, "float16 input");
	EXPECT_MOVE(UNPACK, 1, BFLOAT16, 5, "bfloat16 input");
	EXPECT_MOVE(UNPACK, 1, FLOAT32, 1, "float32 tensors");
}

Test(squeeze, only_strings_need_version_2)
{
	EXPECT_MOVE(SQUEEZE, 1, STRING, 2, "string input");
	EXPECT_MOVE(SQUEEZE, 1, INT8, 1, "int8 tensors");
	EXPECT_MOVE(EXPAND_DIMS, 2, INT8, 1, "no version rule for EXPAND_DIMS");
}

Test(transpose, versions_follow_type_and_rank)
{
	EXPECT_MOVE_RANK(TRANSPOSE, 2, rank_7, 8, "more than 6 dimensions");
	EXPECT_MOVE(TRANSPOSE, 2, BFLOAT16, 8, "bfloat16 input");
	EXPECT_MOVE(TRANSPOSE, 2, INT4, 7, "int4 input");
	EXPECT_MOVE_RANK(TRANSPOSE, 2, rank_6, 6, "6 dimensions");
	EXPECT_MOVE(TRANSPOSE, 2, INT16, 5, "int16 input");
	EXPECT_MOVE_RANK(TRANSPOSE, 2, rank_5, 4, "5 dimensions");
	EXPECT_MOVE(TRANSPOSE, 2, BOOL, 3, "bool input");
	EXPECT_MOVE(TRANSPOSE, 2, INT8, 2, "int8 input");
	EXPECT_MOVE(TRANSPOSE, 2, UINT8, 1, "uint8 and int32 tensors");
}

Test(slice, versions_follow_type_and_rank)
{
	EXPECT_MOVE(SLICE, 3, INT4, 7, "int4 input");
	EXPECT_MOVE(SLICE, 3, UINT32, 6, "uint32 input");
	EXPECT_MOVE_RANK(SLICE, 3, rank_5, 5, "more than 4 dimensions");
	EXPECT_MOVE(SLICE, 3, INT16, 4, "int16 input");
	EXPECT_MOVE(SLICE, 3, STRING, 3, "string input");
	EXPECT_MOVE(SLICE, 3, INT8, 2, "int8 input");
	EXPECT_MOVE(SLICE, 3, INT64, 1, "int64 and int32 tensors");
}

Test(strided_slice, versions_follow_masks_type_and_rank)
{
	static const opver_strided_slice_params offset = { .offset = 1 };
	static const opver_strided_slice_params ellipsis = {
		.ellipsis_mask = 2
	};
	static const opver_strided_slice_params new_axis = {
		.new_axis_mask = 1, .shrink_axis_mask = 2
	};
	static const opver_strided_slice_params plain = {
		.begin_mask = 3, .end_mask = 1, .shrink_axis_mask = 1
	};

	expect_move(OPVER_OP_STRIDED_SLICE, &offset, sizeof(offset), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 8, "offset");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_UINT32, OPVER_TYPE_UINT32, 0, NULL, 7,
		    "uint32 input");
	expect_move(OPVER_OP_STRIDED_SLICE, &ellipsis, sizeof(ellipsis), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 6,
		    "ellipsis_mask");
	expect_move(OPVER_OP_STRIDED_SLICE, &new_axis, sizeof(new_axis), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 6,
		    "new_axis_mask");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_STRING, OPVER_TYPE_STRING, 0, NULL, 5,
		    "string input");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_BOOL, OPVER_TYPE_BOOL, COUNT(rank_5), rank_5, 4,
		    "more than 4 dimensions");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_BOOL, OPVER_TYPE_BOOL, 0, NULL, 3, "bool input");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 2, "int8 input");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, 0, NULL, 1,
		    "float32 and int32 tensors");
}

/* ---------------------------------------------------------------- ADD */

static const opver_add_params add_params = { .pot_scale_int16 = true };

#define ADD(n, params) \
	build((n), OPVER_OP_ADD, &(params), sizeof(params), 2, 1)

Test(add, float_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(ADD(&n, add_params), 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT32,
		       OPVER_TYPE_INT32);
	expect(ADD(&n, add_params), 1, "int32 tensors");
}

Test(add, int8_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(ADD(&n, add_params), 2, "int8 input");
}

Test(add, general_int16_scales_are_version_3)
{
	opver_add_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(ADD(&n, params), 3, "pot_scale_int16 false with int16 tensors");
}

Test(add, power_of_two_int16_scales_stay_version_1)
{
	opver_add_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(ADD(&n, add_params), 1, "pot_scale_int16 true");
	/* Absent or short structs read the default, true. */
	expect(build(&n, OPVER_OP_ADD, NULL, 0, 2, 1), 1,
	       "pot_scale_int16 true");
	expect(build(&n, OPVER_OP_ADD, &params,
		     offsetof(opver_add_params, pot_scale_int16), 2, 1),
	       1, "pot_scale_int16 true");
}

Test(add, empty_quantization_table_counts_as_quantized)
{
	opver_add_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	n.inputs[0].quant_count = 0;
	n.inputs[0].scale = NULL;
	expect(ADD(&n, params), 3, "pot_scale_int16 false");
}

Test(add, int64_is_version_4)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64,
		       OPVER_TYPE_INT64);
	expect(ADD(&n, add_params), 4, "int64 input");
}

Test(add, unquantized_int16_is_version_5)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	n.inputs[0] = unquantized(n.inputs[0]);
	expect(ADD(&n, add_params), 5, "int16 input without quantization");
}

Test(add, float16_is_version_6)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT16,
		       OPVER_TYPE_FLOAT16);
	expect(ADD(&n, add_params), 6, "float16 input");
}

/* ---------------------------------------------------------------- MUL */

static const opver_mul_params mul_params = { 0 };

#define MUL(n) build((n), OPVER_OP_MUL, &mul_params, sizeof(mul_params), 2, 1)

/* Int8 MUL tensors with the given first scales. */
static void mul_scales(test_node *n, int32_t type, const float *a,
		       const float *b, const float *output)
{
	binary_tensors(n, type, type, type);
	n->inputs[0] = scaled(n->inputs[0], 1, a, 0);
	n->inputs[1] = scaled(n->inputs[1], 1, b, 0);
	n->outputs[0] = scaled(n->outputs[0], 1, output, 0);
}

Test(mul, float_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(MUL(&n), 1, "float32 tensors");
}

Test(mul, int8_with_rescale_below_1_is_version_2)
{
	static const float a = 0.5f, b = 0.5f, out = 0.5f;
	test_node n;

	/* 0.5 * 0.5 / 0.5 = 0.5 */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &out);
	expect(MUL(&n), 2, "int8 input");
}

Test(mul, rescale_of_at_least_1_is_version_3)
{
	static const float a = 0.5f, b = 0.5f, out = 0.25f, out_small = 0.125f;
	test_node n;

	/* 0.5 * 0.5 / 0.25 = 1: exactly 1 counts. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &out);
	expect(MUL(&n), 3, "rescale input1 * input2 / output scale 1 >= 1");
	/* 0.5 * 0.5 / 0.125 = 2, and uint8 too. */
	mul_scales(&n, OPVER_TYPE_UINT8, &a, &b, &out_small);
	expect(MUL(&n), 3, "scale 2 >= 1");
}

Test(mul, rescale_needs_three_scales)
{
	static const float a = 1.0f, b = 1.0f, zero = 0.0f;
	test_node n;

	/* The output has no scales: no rescale, so int8 decides. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &a);
	n.outputs[0] = unquantized(n.outputs[0]);
	expect(MUL(&n), 2, "int8 input");
	/* A zero scale leaves the rescale unset as well. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &zero, &a);
	expect(MUL(&n), 2, "int8 input");
	/* Without a second input nothing is derived. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &a);
	expect(build(&n, OPVER_OP_MUL, &mul_params, sizeof(mul_params), 1, 1),
	       2, "int8 input");
}

Test(mul, quantized_int16_is_version_4)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(MUL(&n), 4, "quantized int16 input");
	/* Either input's table makes it quantized. */
	n.inputs[0] = unquantized(n.inputs[0]);
	expect(MUL(&n), 4, "quantized int16 input");
}

Test(mul, int64_is_version_5)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64,
		       OPVER_TYPE_INT64);
	expect(MUL(&n), 5, "int64 input");
}

Test(mul, complex64_is_version_6)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_COMPLEX64, OPVER_TYPE_COMPLEX64,
		       OPVER_TYPE_COMPLEX64);
	expect(MUL(&n), 6, "complex64 input");
}

Test(mul, unquantized_int16_and_uint32_are_version_7)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	n.inputs[0] = unquantized(n.inputs[0]);
	n.inputs[1] = unquantized(n.inputs[1]);
	expect(MUL(&n), 7, "int16 inputs without quantization");
	binary_tensors(&n, OPVER_TYPE_UINT32, OPVER_TYPE_UINT32,
		       OPVER_TYPE_UINT32);
	expect(MUL(&n), 7, "uint32 input");
}

Test(mul, float16_is_version_8)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT16,
		       OPVER_TYPE_FLOAT16);
	expect(MUL(&n), 8, "float16 input");
}

/* ------------------------------ SUB, DIV, MAXIMUM, MINIMUM, SQUARED_DIFF */

static const opver_sub_params sub_params = { .pot_scale_int16 = true };
static const opver_div_params div_params = { 0 };

/* Rank-5 inputs [1,1,1,1,4] and [1,1,1,1,1]: broadcasting, and more than 4
 * dimensions. */
static const int32_t rank5_4[] = { 1, 1, 1, 1, 4 };
static const int32_t rank5_1[] = { 1, 1, 1, 1, 1 };

#define SUB(n, params) \
	build((n), OPVER_OP_SUB, &(params), sizeof(params), 2, 1)

/* Input 1 of n broadcast against input 0 from rank 5 (inputs [1,1,1,1,4]
 * and [1,1,1,1,1]), or, when `broadcast` is false, the same shapes as
 * each other but of rank 5 (no broadcast). */
static void rank5_tensors(test_node *n, int32_t type, bool broadcast)
{
	n->inputs[0] = tensor(type, COUNT(rank5_4), rank5_4);
	n->inputs[1] = broadcast ? tensor(type, COUNT(rank5_1), rank5_1) :
				   tensor(type, COUNT(rank5_4), rank5_4);
	n->outputs[0] = tensor(type, COUNT(rank5_4), rank5_4);
}

Test(sub, float_uint8_and_int32_are_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(SUB(&n, sub_params), 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		       OPVER_TYPE_UINT8);
	expect(SUB(&n, sub_params), 1, "uint8 tensors");
	binary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT32,
		       OPVER_TYPE_INT32);
	expect(SUB(&n, sub_params), 1, "int32 tensors");
}

Test(sub, int8_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(SUB(&n, sub_params), 2, "int8 input");
}

Test(sub, broadcasting_above_rank_4_is_version_3)
{
	test_node n;

	rank5_tensors(&n, OPVER_TYPE_FLOAT32, true);
	expect(SUB(&n, sub_params), 3, "more than 4 dimensions");
	/* Before int8's row, as in TFLite. */
	rank5_tensors(&n, OPVER_TYPE_INT8, true);
	expect(SUB(&n, sub_params), 3, "more than 4 dimensions");
	/* Rank 5 without broadcasting, or broadcasting at rank 4, is not. */
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, false);
	expect(SUB(&n, sub_params), 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(FLOAT32, vector_1);
	expect(SUB(&n, sub_params), 1, "float32 tensors");
	/* Only one input: nothing to broadcast. */
	expect(build(&n, OPVER_OP_SUB, &sub_params, sizeof(sub_params), 1, 1),
	       1, "SUB needs 2 input(s)");
}

Test(sub, int64_is_version_4)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64,
		       OPVER_TYPE_INT64);
	expect(SUB(&n, sub_params), 4, "int64 input");
}

Test(sub, general_int16_scales_are_version_5)
{
	opver_sub_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(SUB(&n, params), 5, "pot_scale_int16 false with int16 tensors");
	/* pot_scale_int16 true: no later version than broadcasting's. */
	expect(SUB(&n, sub_params), 1, "int16 tensors");
	rank5_tensors(&n, OPVER_TYPE_INT16, true);
	expect(SUB(&n, sub_params), 3, "more than 4 dimensions");
	/* Absent or short structs read the default, true. */
	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SUB, NULL, 0, 2, 1), 1, "int16 tensors");
	expect(build(&n, OPVER_OP_SUB, &params,
		     offsetof(opver_sub_params, pot_scale_int16), 2, 1),
	       1, "int16 tensors");
}

Test(div, broadcasting_above_rank_4_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		       OPVER_TYPE_UINT8);
	expect(build(&n, OPVER_OP_DIV, &div_params, sizeof(div_params), 2, 1),
	       1, "uint8 tensors");
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, true);
	expect(build(&n, OPVER_OP_DIV, &div_params, sizeof(div_params), 2, 1),
	       2, "more than 4 dimensions");
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, false);
	expect(build(&n, OPVER_OP_DIV, &div_params, sizeof(div_params), 2, 1),
	       1, "float32 tensors");
}

static const int32_t maximum_minimum_ops[] = { OPVER_OP_MAXIMUM,
					       OPVER_OP_MINIMUM };

/* Expects MAXIMUM and MINIMUM alike to need `version` for n's tensors. */
static void expect_maximum_minimum(test_node *n, int32_t version,
				   const char *fact)
{
	for (int32_t i = 0; i < COUNT(maximum_minimum_ops); i++)
		expect(build(n, maximum_minimum_ops[i], NULL, 0, 2, 1), version,
		       fact);
}

Test(maximum_minimum, versions_follow_type_and_broadcast_rank)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect_maximum_minimum(&n, 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		       OPVER_TYPE_UINT8);
	expect_maximum_minimum(&n, 1, "uint8 tensors");
	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect_maximum_minimum(&n, 2, "int8 input");
	rank5_tensors(&n, OPVER_TYPE_INT8, true);
	expect_maximum_minimum(&n, 3, "more than 4 dimensions");
	rank5_tensors(&n, OPVER_TYPE_INT8, false);
	expect_maximum_minimum(&n, 2, "int8 input");
	/* int16 comes first, before broadcasting. */
	rank5_tensors(&n, OPVER_TYPE_INT16, true);
	expect_maximum_minimum(&n, 4, "int16 input and output");
	/* int16 input with another output type is not int16's row. */
	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT32);
	expect_maximum_minimum(&n, 1, "int16 and int32 tensors");
}

Test(squared_difference, int8_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_SQUARED_DIFFERENCE, NULL, 0, 2, 1), 1,
	       "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_SQUARED_DIFFERENCE, NULL, 0, 2, 1), 2,
	       "int8 input");
	/* Broadcasting at rank 5 adds no version here. */
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, true);
	expect(build(&n, OPVER_OP_SQUARED_DIFFERENCE, NULL, 0, 2, 1), 1,
	       "float32 tensors");
}

/* ------------------------------------------------ QUANTIZE, DEQUANTIZE */

static const int32_t channels_3x2[] = { 3, 2 };

#define UNARY(n, op) build((n), (op), NULL, 0, 1, 1)

Test(quantize, per_tensor_int8_is_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and int8 tensors");
}

/* TFLite's first quantization: uint8 from float and to and from int8 are
 * version 1 (only int16 outputs and per-channel scales come later). */
Test(quantize, uint8_is_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and uint8 tensors");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "uint8 and int8 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_UINT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int8 and uint8 tensors");
}

Test(quantize, int16_output_is_version_2)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT16);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 2, "int16 output");
}

/* TFLite Micro's int32 requantizing: TFLite's rules look only at int16
 * (and int4) outputs, so int32 on either side leaves version 1 but for an
 * int16 output. */
Test(quantize, int32_pairs_follow_the_output_type)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT32);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int16 and int32 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT32);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int8 and int32 tensors");
	unary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int32 and int8 tensors");
	unary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT16);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 2, "int16 output");
}

Test(quantize, per_channel_output_is_version_3)
{
	test_node n;

	/* 2 scales along dimension 1 of a [3,2] output. */
	n.inputs[0] = TENSOR(FLOAT32, channels_3x2);
	n.outputs[0] = scaled(TENSOR(INT8, channels_3x2), 2, some_scales, 1);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 3,
	       "per-channel output: 2 scales along dimension 1");
	/* 3 scales along dimension 0, even for int16. */
	n.outputs[0] = scaled(TENSOR(INT16, channels_3x2), 3, some_scales, 0);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 3, "3 scales along dimension 0");
}

Test(quantize, scales_not_matching_the_axis_are_per_tensor)
{
	test_node n;

	n.inputs[0] = TENSOR(FLOAT32, channels_3x2);
	/* 3 scales along dimension 1 (size 2). */
	n.outputs[0] = scaled(TENSOR(INT8, channels_3x2), 3, some_scales, 1);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and int8 tensors");
	/* An axis outside the shape. */
	n.outputs[0] = scaled(TENSOR(INT8, channels_3x2), 2, some_scales, 2);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and int8 tensors");
}

Test(quantize, int4_is_version_4)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT4);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 4, "int4 output");
	unary_tensors(&n, OPVER_TYPE_INT4, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 4, "int4 input");
}

Test(dequantize, uint8_is_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 1, "uint8 and float32 tensors");
}

Test(dequantize, per_tensor_int8_is_version_2)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 2, "per-tensor int8 input");
}

Test(dequantize, int16_and_float16_are_version_3)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 3, "int16 input");
	unary_tensors(&n, OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 3, "float16 input");
}

Test(dequantize, per_channel_int8_is_version_5)
{
	test_node n;

	n.inputs[0] = scaled(TENSOR(INT8, channels_3x2), 3, some_scales, 0);
	n.outputs[0] = TENSOR(FLOAT32, channels_3x2);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 5,
	       "per-channel int8 input: 3 scales along dimension 0");
	/* One scale for a single slice is per-tensor: more than one is
	 * asked for. */
	n.inputs[0] = scaled(TENSOR(INT8, vector_1), 1, some_scales, 0);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 2, "per-tensor int8 input");
}

Test(dequantize, int4_is_version_6)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT4, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 6, "int4 input");
}

/* ------------------------------------- data movement: GATHER to CAST */

static const int32_t matrix_2x3[] = { 2, 3 };
static const int32_t nhw_3[] = { 1, 4, 4 };

/* A two-input node: input 0 of `input`'s type and shape [1,3,3,4], input
 * 1 of `second` as a vector of 2, the output of `output`. */
static const opver__op_signature *two_inputs(test_node *n, int32_t op,
					     int32_t input, int32_t second,
					     int32_t output,
					     const void *params,
					     size_t params_size)
{
	n->inputs[0] = tensor(input, COUNT(nhwc_4), nhwc_4);
	n->inputs[1] = tensor(second, COUNT(vector_2), vector_2);
	n->outputs[0] = tensor(output, COUNT(nhwc_4), nhwc_4);
	return build(n, op, params, params_size, 2, 1);
}

#define GATHER_NODE(n, input, positions, params)                      \
	two_inputs((n), OPVER_OP_GATHER, OPVER_TYPE_##input,            \
		   OPVER_TYPE_##positions, OPVER_TYPE_##input, &(params), \
		   sizeof(params))

Test(gather, versions_follow_types_and_batch_dims)
{
	static const opver_gather_params plain = { .axis = 1 };
	static const opver_gather_params batched = { .axis = 1,
						     .batch_dims = 1 };
	test_node n;

	expect(GATHER_NODE(&n, FLOAT32, INT32, plain), 1, "float32");
	expect(GATHER_NODE(&n, UINT8, INT64, plain), 1, "uint8");
	expect(GATHER_NODE(&n, INT8, INT32, plain), 2, "int8 input");
	expect(GATHER_NODE(&n, BOOL, INT32, plain), 3, "bool input");
	expect(GATHER_NODE(&n, INT16, INT32, plain), 4, "int16 input");
	expect(GATHER_NODE(&n, INT8, INT32, batched), 5, "batch_dims");
	expect(GATHER_NODE(&n, FLOAT32, INT16, batched), 6,
	       "int16 positions");
	expect(GATHER_NODE(&n, INT4, INT16, batched), 7, "int4 input");
	/* Without options batch_dims is 0. */
	expect(two_inputs(&n, OPVER_OP_GATHER, OPVER_TYPE_FLOAT32,
			  OPVER_TYPE_INT32, OPVER_TYPE_FLOAT32, NULL, 0),
	       1, "float32");
	expect(build(&n, OPVER_OP_GATHER, &plain, sizeof(plain), 1, 1), 1,
	       "GATHER needs 2 input(s)");
}

Test(gather_nd, versions_follow_params_and_indices)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_INT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_INT8, NULL, 0),
	       1, "int8");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_STRING,
			  OPVER_TYPE_INT32, OPVER_TYPE_STRING, NULL, 0),
	       2, "string params");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_INT16,
			  OPVER_TYPE_INT64, OPVER_TYPE_INT16, NULL, 0),
	       3, "int16 params");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_INT16,
			  OPVER_TYPE_INT16, OPVER_TYPE_INT16, NULL, 0),
	       4, "int16 indices");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_BOOL,
			  OPVER_TYPE_INT16, OPVER_TYPE_BOOL, NULL, 0),
	       5, "bool params");
}

Test(tile, versions_follow_the_input_type)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_TILE, OPVER_TYPE_UINT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_UINT8, NULL, 0),
	       1, "uint8");
	expect(two_inputs(&n, OPVER_OP_TILE, OPVER_TYPE_STRING,
			  OPVER_TYPE_INT64, OPVER_TYPE_STRING, NULL, 0),
	       2, "string input");
	expect(two_inputs(&n, OPVER_OP_TILE, OPVER_TYPE_INT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_INT8, NULL, 0),
	       3, "int8 input");
}

Test(broadcast_to, starts_at_version_2)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_BROADCAST_TO, OPVER_TYPE_FLOAT32,
			  OPVER_TYPE_INT32, OPVER_TYPE_FLOAT32, NULL, 0),
	       2, "version 1 was withdrawn");
	expect(two_inputs(&n, OPVER_OP_BROADCAST_TO, OPVER_TYPE_INT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_INT8, NULL, 0),
	       3, "int8 input");
	expect(two_inputs(&n, OPVER_OP_BROADCAST_TO, OPVER_TYPE_INT16,
			  OPVER_TYPE_INT64, OPVER_TYPE_INT16, NULL, 0),
	       3, "int16 input");
}

Test(fill, versions_follow_the_value_type)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, NULL, 0),
	       1, "float32");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT64,
			  OPVER_TYPE_BOOL, OPVER_TYPE_BOOL, NULL, 0),
	       2, "bool value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_STRING, OPVER_TYPE_STRING, NULL, 0),
	       2, "string value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_INT8, OPVER_TYPE_INT8, NULL, 0),
	       3, "int8 value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_INT16, OPVER_TYPE_INT16, NULL, 0),
	       3, "int16 value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT64,
			  OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT16, NULL, 0),
	       4, "float16 value");
	expect(build(&n, OPVER_OP_FILL, NULL, 0, 1, 1), 1,
	       "FILL needs 2 input(s)");
}

Test(space_depth, int8_is_version_2)
{
	static const opver_space_depth_params params = { .block_size = 2 };
	static const int32_t ops[] = { OPVER_OP_SPACE_TO_DEPTH,
				       OPVER_OP_DEPTH_TO_SPACE };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++) {
		unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
		expect(build(&n, ops[i], &params, sizeof(params), 1, 1), 1,
		       "uint8");
		unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
		expect(build(&n, ops[i], &params, sizeof(params), 1, 1), 2,
		       "int8 input");
	}
}

Test(space_batch, versions_follow_type_and_rank)
{
	static const int32_t ops[] = { OPVER_OP_SPACE_TO_BATCH_ND,
				       OPVER_OP_BATCH_TO_SPACE_ND };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++) {
		n.inputs[1] = TENSOR(INT32, vector_2);
		n.inputs[2] = TENSOR(INT32, matrix_2x3);
		unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 1, "float32");
		unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 2, "int8 input");
		n.inputs[0] = TENSOR(INT8, nhw_3);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 3,
		       "rank other than 4");
		n.inputs[0] = TENSOR(FLOAT32, nhw_3);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 3,
		       "rank other than 4");
		unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 4, "int16 input");
	}
}

Test(cast, versions_follow_either_type)
{
	static const struct {
		int32_t in, out, version;
		const char *fact;
	} pairs[] = {
		{ OPVER_TYPE_FLOAT32, OPVER_TYPE_INT32, 1, "float32 and int32" },
		{ OPVER_TYPE_UINT8, OPVER_TYPE_BOOL, 1, "uint8 and bool" },
		{ OPVER_TYPE_UINT32, OPVER_TYPE_INT64, 2, "uint32 input" },
		{ OPVER_TYPE_INT32, OPVER_TYPE_UINT32, 2, "uint32 output" },
		{ OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32, 3, "int8 input" },
		{ OPVER_TYPE_UINT32, OPVER_TYPE_INT8, 3, "int8 output" },
		{ OPVER_TYPE_UINT16, OPVER_TYPE_INT8, 4, "uint16 input" },
		{ OPVER_TYPE_INT8, OPVER_TYPE_UINT16, 4, "uint16 output" },
		{ OPVER_TYPE_FLOAT64, OPVER_TYPE_UINT16, 5, "float64 input" },
		{ OPVER_TYPE_INT32, OPVER_TYPE_FLOAT64, 5, "float64 output" },
		{ OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT32, 5, "float16 input" },
		{ OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT16, 5, "float16 output" },
		{ OPVER_TYPE_INT4, OPVER_TYPE_FLOAT32, 6,
		  "int4 input and float32 output" },
		/* int4 to anything else is no version-6 cast. */
		{ OPVER_TYPE_INT4, OPVER_TYPE_INT8, 3, "int8 output" },
		{ OPVER_TYPE_BFLOAT16, OPVER_TYPE_FLOAT64, 7, "bfloat16 input" },
		{ OPVER_TYPE_FLOAT32, OPVER_TYPE_BFLOAT16, 7,
		  "bfloat16 output" },
	};
	test_node n;

	for (int32_t i = 0; i < COUNT(pairs); i++) {
		unary_tensors(&n, pairs[i].in, pairs[i].out);
		expect(build(&n, OPVER_OP_CAST, NULL, 0, 1, 1),
		       pairs[i].version, pairs[i].fact);
	}
}

Test(shape_and_zeros_like, have_no_rule_and_are_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT64);
	expect(build(&n, OPVER_OP_SHAPE, NULL, 0, 1, 1), 1,
	       "no version rule for SHAPE");
	unary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64);
	expect(build(&n, OPVER_OP_ZEROS_LIKE, NULL, 0, 1, 1), 1,
	       "no version rule for ZEROS_LIKE");
}

/* --------------------------------------------- resize and L2_NORMALIZATION */

Test(resize_bilinear, versions_follow_type_and_half_pixel_centers)
{
	static const opver_resize_bilinear_params plain = { 0, 0 };
	static const opver_resize_bilinear_params corners = { 1, 0 };
	static const opver_resize_bilinear_params centers = { 0, 1 };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &plain, sizeof(plain), 2,
		     1),
	       1, "float32 and int32 tensors");
	/* align_corners predates versioning. */
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &corners, sizeof(corners),
		     2, 1),
	       1, "float32 and int32 tensors");
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(centers),
		     2, 1),
	       3, "half_pixel_centers");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &plain, sizeof(plain), 2,
		     1),
	       2, "int8 input");
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(centers),
		     2, 1),
	       3, "half_pixel_centers");
	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(centers),
		     2, 1),
	       4, "int16 input");
	/* uint8 is version 1's, as float32. */
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &plain, sizeof(plain), 2,
		     1),
	       1, "uint8 and int32 tensors");
	/* A struct too short for half_pixel_centers reads its default. */
	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(int32_t),
		     2, 1),
	       1, "float32 and int32 tensors");
}

Test(resize_nearest_neighbor, versions_follow_type_and_options)
{
	static const opver_resize_nearest_neighbor_params plain = { 0, 0 };
	static const opver_resize_nearest_neighbor_params corners = { 1, 0 };
	static const opver_resize_nearest_neighbor_params centers = { 0, 1 };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &plain,
		     sizeof(plain), 2, 1),
	       1, "float32 and int32 tensors");
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &corners,
		     sizeof(corners), 2, 1),
	       3, "align_corners");
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &centers,
		     sizeof(centers), 2, 1),
	       3, "half_pixel_centers");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &plain,
		     sizeof(plain), 2, 1),
	       2, "int8 input");
	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &corners,
		     sizeof(corners), 2, 1),
	       4, "int16 input");
}

Test(l2_normalization, int8_output_is_version_2)
{
	static const opver_l2_norm_params params = { 0 };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_L2_NORMALIZATION, &params, sizeof(params),
		     1, 1),
	       1, "float32 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_L2_NORMALIZATION, &params, sizeof(params),
		     1, 1),
	       2, "int8 output");
	expect(build(&n, OPVER_OP_L2_NORMALIZATION, &params, sizeof(params),
		     1, 0),
	       1, "L2_NORMALIZATION needs 0 input(s) and 1 output(s)");
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

/* ------------------------------------------------------- BATCH_MATMUL */

Test(batch_matmul, versions_in_tflite_order)
{
	static const opver_batch_matmul_params plain = { 0, 0, 0 };
	static const opver_batch_matmul_params asymmetric = { 0, 0, 1 };
	test_node n;

	n.inputs[0] = TENSOR(FLOAT32, row_4);
	n.inputs[1] = TENSOR(FLOAT32, weights_2x4);
	n.outputs[0] = TENSOR(FLOAT32, row_2);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       1, "float32 tensors");
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &asymmetric,
		     sizeof(asymmetric), 2, 1),
	       1, "float32 tensors");
	n.inputs[1] = TENSOR(INT8, weights_2x4);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       1, "float32 and int8 tensors");
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &asymmetric,
		     sizeof(asymmetric), 2, 1),
	       4, "asymmetric_quantize_inputs");
	n.inputs[0] = TENSOR(INT8, row_4);
	n.outputs[0] = TENSOR(INT8, row_2);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       2, "int8 input");
	n.inputs[0] = TENSOR(INT16, row_4);
	n.inputs[1] = TENSOR(INT16, weights_2x4);
	n.outputs[0] = TENSOR(INT16, row_2);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       3, "int16 input");
}

/* ------------------------------------------------------- other ops */

Test(other_ops, are_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	/* TFLite gives an int8 SVDF more, but opver has no rule for it. */
	expect(build(&n, OPVER_OP_SVDF, NULL, 0, 1, 1), 1,
	       "no version rule for SVDF here");
	expect(build(&n, OPVER_OP_CUSTOM, NULL, 0, 1, 1), 1,
	       "custom ops are not versioned");
	/* TFLite has no rule for L2_POOL_2D: its one version. */
	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_L2_POOL_2D, NULL, 0, 1, 1), 1,
	       "no version rule for L2_POOL_2D here");
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

/* ------------------------------------------------ runtime releases */

Test(runtime_version, samples_of_tflites_table)
{
	static const struct {
		int32_t op;
		int32_t version;
		const char *release;
	} samples[] = {
		{ OPVER_OP_CONV_2D, 1, "1.5.0" },
		{ OPVER_OP_CONV_2D, 8, "2.15.0" },
		{ OPVER_OP_DEPTHWISE_CONV_2D, 2, "1.12.0" },
		{ OPVER_OP_DEPTHWISE_CONV_2D, 7, "2.11.0" },
		{ OPVER_OP_FULLY_CONNECTED, 6, "2.1.0" },
		{ OPVER_OP_FULLY_CONNECTED, 14, "2.21.0" },
		{ OPVER_OP_AVERAGE_POOL_2D, 3, "2.3.0" },
		{ OPVER_OP_MAX_POOL_2D, 2, "1.14.0" },
		{ OPVER_OP_RESHAPE, 1, "1.5.0" },
		{ OPVER_OP_SOFTMAX, 2, "1.14.0" },
		{ OPVER_OP_ADD, 3, "2.4.0" },
		{ OPVER_OP_ADD, 6, "2.23.0" },
		{ OPVER_OP_MUL, 3, "1.15.0" },
		{ OPVER_OP_MUL, 8, "2.23.0" },
		{ OPVER_OP_QUANTIZE, 3, "2.7.0" },
		{ OPVER_OP_DEQUANTIZE, 1, "1.13.1" },
		{ OPVER_OP_DEQUANTIZE, 5, "2.7.0" },
		{ OPVER_OP_TRANSPOSE, 7, "2.14.4" },
		{ OPVER_OP_TILE, 1, "1.10.1" },
		{ OPVER_OP_BROADCAST_TO, 2, "2.5.0" },
		{ OPVER_OP_STABLEHLO_COMPOSITE, 1, "2.17.0" },
	};

	for (int32_t i = 0; i < COUNT(samples); i++) {
		const char *got = opver__op_runtime_version(samples[i].op,
							    samples[i].version);

		cr_assert_not_null(got, "%s v%d: no release",
				   opver_op_name(samples[i].op),
				   samples[i].version);
		cr_assert_str_eq(got, samples[i].release, "%s v%d",
				 opver_op_name(samples[i].op),
				 samples[i].version);
	}
}

Test(runtime_version, pairs_outside_the_table_have_none)
{
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CONV_2D, 9));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_RESHAPE, 2));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CONV_2D, 0));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CONV_2D, -1));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_FULLY_CONNECTED,
						 15));
	/* BROADCAST_TO's version 1 was withdrawn. */
	cr_assert_null(opver__op_runtime_version(OPVER_OP_BROADCAST_TO, 1));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CUSTOM, 1));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_DELEGATE, 1));
	cr_assert_null(opver__op_runtime_version(1000, 1));
}

Test(runtime_version, every_version_the_rules_give_has_a_release)
{
	/* The highest version of each rule, read off op_version.cc. */
	static const struct {
		int32_t op;
		int32_t highest;
	} rules[] = {
		{ OPVER_OP_CONV_2D, 8 },
		{ OPVER_OP_DEPTHWISE_CONV_2D, 7 },
		{ OPVER_OP_FULLY_CONNECTED, 14 },
		{ OPVER_OP_AVERAGE_POOL_2D, 3 },
		{ OPVER_OP_MAX_POOL_2D, 3 },
		{ OPVER_OP_RESHAPE, 1 },
		{ OPVER_OP_SOFTMAX, 3 },
		{ OPVER_OP_ADD, 6 },
		{ OPVER_OP_MUL, 8 },
		{ OPVER_OP_SUB, 5 },
		{ OPVER_OP_DIV, 2 },
		{ OPVER_OP_MAXIMUM, 4 },
		{ OPVER_OP_MINIMUM, 4 },
		{ OPVER_OP_SQUARED_DIFFERENCE, 2 },
		{ OPVER_OP_QUANTIZE, 5 },
		{ OPVER_OP_DEQUANTIZE, 8 },
		{ OPVER_OP_GATHER, 7 },
		{ OPVER_OP_GATHER_ND, 5 },
		{ OPVER_OP_TILE, 3 },
		{ OPVER_OP_FILL, 4 },
		{ OPVER_OP_CAST, 8 },
		{ OPVER_OP_SPACE_TO_DEPTH, 2 },
		{ OPVER_OP_DEPTH_TO_SPACE, 2 },
		{ OPVER_OP_SPACE_TO_BATCH_ND, 4 },
		{ OPVER_OP_BATCH_TO_SPACE_ND, 4 },
		{ OPVER_OP_SHAPE, 1 },
		{ OPVER_OP_ZEROS_LIKE, 1 },
	};

	for (int32_t i = 0; i < COUNT(rules); i++)
		for (int32_t v = 1; v <= rules[i].highest; v++)
			cr_assert_not_null(
				opver__op_runtime_version(rules[i].op, v),
				"%s v%d", opver_op_name(rules[i].op), v);
}

Test(runtime_version, comparison_is_numeric_per_component)
{
	cr_assert_gt(opver__compare_runtime_versions("1.14.0", "1.5.0"), 0);
	cr_assert_lt(opver__compare_runtime_versions("1.5.0", "1.14.0"), 0);
	cr_assert_gt(opver__compare_runtime_versions("10.0.0", "9.9.9"), 0);
	cr_assert_lt(opver__compare_runtime_versions("2.3.0", "2.14.4"), 0);
	cr_assert_eq(opver__compare_runtime_versions("2.3.0", "2.3.0"), 0);
}

Test(runtime_version, a_missing_component_is_smaller)
{
	cr_assert_gt(opver__compare_runtime_versions("2.3.0", "2.3"), 0);
	cr_assert_lt(opver__compare_runtime_versions("2.3", "2.3.0"), 0);
	cr_assert_lt(opver__compare_runtime_versions("", "1.5.0"), 0);
	cr_assert_eq(opver__compare_runtime_versions("", ""), 0);
}

Test(runtime_version, non_numeric_components_are_skipped_as_tflite_does)
{
	cr_assert_eq(opver__compare_runtime_versions("2.3.0-rc1", "2.3.0"), 0);
	cr_assert_eq(opver__compare_runtime_versions("2.x.0", "2.9.0"), 0);
	cr_assert_lt(opver__compare_runtime_versions("2.x.0", "2.9.1"), 0);
}

/* ------------------------------------------- signatures from a graph */

static messages captured;
static opver__reporter reporter;

static void open_model(const char *path, opver__model_file *file)
{
	opver_status status;

	reporter = messages_reporter(&captured);
	status = opver__model_file_open(path, &reporter, file);
	cr_assert_eq(status, OPVER_OK, "%s: %s\n%s", path,
		     opver_status_name(status), captured.text);
}

/* The signature of node `index` in tensors[] (room for 8 tensors). */
static void graph_signature(const opver__graph *g, int32_t index,
			    opver__op_signature *sig,
			    opver__tensor_signature *tensors)
{
	cr_assert_leq(g->nodes[index].num_inputs + g->nodes[index].num_outputs,
		      8);
	opver__op_signature_from_graph(g, index, sig, tensors);
}

Test(signature_from_graph, copies_what_the_rules_read)
{
	opver__model_file file;
	const opver__graph *g = &file.graph;
	opver__tensor_signature tensors[8];
	opver__op_signature sig;

	open_model(TEST_MODEL_DIR "/op_signature.tflite", &file);
	cr_assert_eq(g->num_nodes, 3);

	/* Grouped int8 CONV_2D: the dims decide version 6. */
	graph_signature(g, 0, &sig, tensors);
	cr_assert_eq(sig.op, OPVER_OP_CONV_2D);
	cr_assert_eq(sig.params, g->nodes[0].params);
	cr_assert_eq(sig.params_size, sizeof(opver_conv_params));
	cr_assert_eq(sig.num_inputs, 3);
	cr_assert_eq(sig.num_outputs, 1);
	cr_assert_eq(sig.inputs, tensors);
	cr_assert_eq(sig.outputs, tensors + 3);
	cr_assert_eq(sig.inputs[0].type, OPVER_TYPE_INT8);
	cr_assert_eq(sig.inputs[0].rank, 4);
	cr_assert_eq(sig.inputs[0].dims[3], 4);
	cr_assert(sig.inputs[0].has_quantization);
	cr_assert_eq(sig.inputs[0].quant_count, 1);
	cr_assert_float_eq(sig.inputs[0].scale[0], 0.5f, 0);
	cr_assert_not(sig.inputs[0].is_constant);
	cr_assert_eq(sig.inputs[1].dims[3], 2);
	cr_assert_eq(sig.inputs[1].quant_count, 2);
	cr_assert_float_eq(sig.inputs[1].scale[1], 0.125f, 0);
	cr_assert_eq(sig.inputs[1].quant_axis, 0);
	cr_assert(sig.inputs[1].is_constant);
	cr_assert_not(sig.inputs[1].is_sparse);
	cr_assert_eq(sig.inputs[2].type, OPVER_TYPE_INT32);
	cr_assert(sig.inputs[2].is_constant);
	cr_assert_eq(sig.outputs[0].type, OPVER_TYPE_INT8);
	cr_assert_eq(sig.outputs[0].dims[3], 2);
	cr_assert_not(sig.outputs[0].is_constant);
	expect(&sig, 6, "grouped convolution: input has 4 channels, filter 2");

	/* FULLY_CONNECTED with an omitted bias and an empty table. */
	graph_signature(g, 1, &sig, tensors);
	cr_assert_eq(sig.op, OPVER_OP_FULLY_CONNECTED);
	cr_assert_eq(sig.num_inputs, 3);
	cr_assert_eq(sig.inputs[2].type, -1);
	cr_assert_eq(sig.inputs[2].rank, 0);
	cr_assert_not(sig.inputs[2].has_quantization);
	cr_assert(sig.inputs[0].has_quantization);
	cr_assert_eq(sig.inputs[0].quant_count, 0);
	cr_assert(sig.inputs[1].is_constant);
	cr_assert_eq(sig.outputs, tensors + 3);
	cr_assert_eq(sig.outputs[0].type, OPVER_TYPE_FLOAT32);
	expect(&sig, 1, "float32 tensors");

	/* ADD of int16 tensors without quantization tables, stored as 1. */
	graph_signature(g, 2, &sig, tensors);
	cr_assert_eq(g->nodes[2].version, 1);
	cr_assert_not(sig.inputs[0].has_quantization);
	cr_assert_eq(sig.outputs, tensors + 2);
	expect(&sig, 5, "int16 input without quantization");
	opver__model_file_close(&file);
}

/* ------------------------------------------------------- the corpus */

/* The versions a corpus model's nodes need, by hand from
 * /work/shared/models/README.md, the tensors of each model and TFLite's
 * rules: the distinct "OP vN" over every node, by op code then version. */
struct corpus_versions {
	char model[40];
	char required[160];
};

ParameterizedTestParameters(corpus, every_node_needs_the_hand_worked_version)
{
	static struct corpus_versions models[] = {
		{ "hello_world_float", "FULLY_CONNECTED v1" },
		{ "hello_world_int8", "FULLY_CONNECTED v4" },
		{ "micro_speech_quantized",
		  "DEPTHWISE_CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2" },
		/* CONV_2D stored as v2; int8 everywhere needs 3. */
		{ "person_detect",
		  "AVERAGE_POOL_2D v2, CONV_2D v3, DEPTHWISE_CONV_2D v3, RESHAPE v1, SOFTMAX v2" },
		{ "simple_add_model", "ADD v2" },
		/* Quantized int16 with pot_scale_int16 false: 3 (stored 2). */
		{ "seanet_add0_int16", "ADD v3" },
		/* QUANTIZE float to per-tensor int8: 1; DEQUANTIZE of
		 * per-tensor int8: 2. */
		{ "test_conv_model",
		  "CONV_2D v3, DEQUANTIZE v2, FULLY_CONNECTED v4, MAX_POOL_2D v2, RESHAPE v1, QUANTIZE v1" },
		{ "network_tester_model", "DEPTHWISE_CONV_2D v3" },
		{ "magic_wand",
		  "CONV_2D v1, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, MAX_POOL_2D v1, SOFTMAX v1" },
		{ "mlperf_kws_ref_model_int8",
		  "AVERAGE_POOL_2D v2, CONV_2D v3, DEPTHWISE_CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2" },
		/* Hybrid CONV_2D with one filter scale for 64 filters: 2;
		 * float FULLY_CONNECTED with a bias: 1 (stored 3). */
		{ "mlperf_kws_ref_model_float32",
		  "AVERAGE_POOL_2D v1, CONV_2D v2, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1" },
		{ "mlperf_vww_96_float",
		  "AVERAGE_POOL_2D v1, CONV_2D v1, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1" },
		{ "mlperf_ic_resnet_float",
		  "ADD v1, AVERAGE_POOL_2D v1, CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1" },
		{ "mlperf_ic_resnet_int8",
		  "ADD v2, AVERAGE_POOL_2D v2, CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2" },
		{ "litert_mul_add_signature_def", "ADD v1, MUL v1" },
		/* A float CONV_2D of rank-1 tensors (stored 3) needs 1. */
		{ "litert_test_model_versioned_ops",
		  "CONV_2D v1, CUSTOM testing_op v1" },
		/* Int8 with rescale 0.0039 * 0.0039 / 0.0038 < 1: 2 (stored
		 * 1). */
		{ "litert_single_mul_a8w8", "MUL v2" },
	};

	return cr_make_param_array(struct corpus_versions, models,
				   sizeof(models) / sizeof(models[0]));
}

/* The model's path in the corpus; skips the test without a corpus. */
static void corpus_path(const char *model, char *path, size_t size)
{
	const char *corpus = getenv("OPVER_MODEL_CORPUS");

	if (corpus == NULL || corpus[0] == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set: corpus models not read");
	snprintf(path, size, "%s/%s.tflite", corpus, model);
}

/* The version node `index` needs, asserting its reason is not empty. */
static int32_t node_required_version(const opver__graph *g, int32_t index,
				     char *reason, size_t reason_size)
{
	opver__tensor_signature tensors[8];
	opver__op_signature sig;
	int32_t version;

	graph_signature(g, index, &sig, tensors);
	version = opver__op_required_version(&sig, reason, reason_size);
	cr_assert_gt(strlen(reason), 0, "node %d has no reason", index);
	return version;
}

ParameterizedTest(struct corpus_versions *model, corpus,
		  every_node_needs_the_hand_worked_version)
{
	int32_t required[256];
	int32_t last_op = -1, last_version = 0;
	char path[4096], text[512], reason[OPVER__VERSION_REASON_SIZE];
	opver__model_file file;
	const opver__graph *g = &file.graph;

	corpus_path(model->model, path, sizeof(path));
	open_model(path, &file);
	cr_assert_leq(g->num_nodes, COUNT(required));
	for (int32_t i = 0; i < g->num_nodes; i++)
		required[i] = node_required_version(g, i, reason,
						    sizeof(reason));

	/* The distinct (op, version) pairs in order, as "OP vN, ...". */
	text[0] = '\0';
	for (;;) {
		int32_t op = -1, version = 0, node = -1;
		size_t used = strlen(text);

		for (int32_t i = 0; i < g->num_nodes; i++) {
			int32_t o = g->nodes[i].op, v = required[i];
			bool after = o > last_op ||
				     (o == last_op && v > last_version);
			bool before = op < 0 || o < op ||
				      (o == op && v < version);

			if (after && before) {
				op = o;
				version = v;
				node = i;
			}
		}
		if (node < 0)
			break;
		snprintf(text + used, sizeof(text) - used, "%s%s%s%s v%d",
			 used ? ", " : "", opver_op_name(op),
			 g->nodes[node].custom_name ? " " : "",
			 g->nodes[node].custom_name ? g->nodes[node].custom_name
						    : "",
			 version);
		last_op = op;
		last_version = version;
	}
	cr_assert_str_eq(text, model->required, "%s", model->model);
	opver__model_file_close(&file);
}

/* Each version the corpus README states for a node that stores another,
 * with the fact that decides it. */
Test(corpus, readme_stated_versions_and_their_reasons)
{
	static const struct {
		const char *model;
		int32_t op;
		int32_t stored;
		int32_t required;
		const char *fact;
	} stated[] = {
		{ "litert_single_mul_a8w8", OPVER_OP_MUL, 1, 2, "int8 input" },
		{ "person_detect", OPVER_OP_CONV_2D, 2, 3,
		  "int8 input and filter, int8 output" },
		{ "seanet_add0_int16", OPVER_OP_ADD, 2, 3,
		  "pot_scale_int16 false with int16 tensors" },
		{ "mlperf_kws_ref_model_float32", OPVER_OP_FULLY_CONNECTED, 3,
		  1, "float32 tensors" },
		{ "mlperf_kws_ref_model_float32", OPVER_OP_CONV_2D, 2, 2,
		  "per-tensor int8 filter with float input (hybrid)" },
	};

	for (int32_t s = 0; s < COUNT(stated); s++) {
		char path[4096], reason[OPVER__VERSION_REASON_SIZE];
		opver__model_file file;
		int32_t nodes = 0;

		corpus_path(stated[s].model, path, sizeof(path));
		open_model(path, &file);
		for (int32_t i = 0; i < file.graph.num_nodes; i++) {
			const opver__graph_node *node = &file.graph.nodes[i];

			if (node->op != stated[s].op)
				continue;
			nodes++;
			cr_assert_eq(node->version, stated[s].stored,
				     "%s node %d", stated[s].model, i);
			cr_assert_eq(node_required_version(&file.graph, i,
							   reason,
							   sizeof(reason)),
				     stated[s].required, "%s node %d: %s",
				     stated[s].model, i, reason);
			cr_assert_not_null(strstr(reason, stated[s].fact),
					   "%s node %d: \"%s\"",
					   stated[s].model, i, reason);
		}
		cr_assert_gt(nodes, 0, "%s has no %s", stated[s].model,
			     opver_op_name(stated[s].op));
		opver__model_file_close(&file);
	}
}
