/*
 * op_version_nodes.c - the nodes the test_op_version_*.c suites hand to
 * TensorFlow Lite's operator-version rules (core/op_version.c), and the
 * assertion they share (op_version_nodes.h).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

const int32_t nhwc_4[] = { 1, 3, 3, 4 };
const int32_t nhwc_2[] = { 1, 3, 3, 2 };
const int32_t conv_filter_2x4[] = { 2, 3, 3, 4 };
const int32_t depthwise_filter_4[] = { 1, 3, 3, 4 };
const int32_t weights_2x4[] = { 2, 4 };
const int32_t row_4[] = { 1, 4 };
const int32_t row_2[] = { 1, 2 };
const int32_t vector_1[] = { 1 };
const int32_t vector_2[] = { 2 };
const int32_t vector_4[] = { 4 };

const float some_scales[] = { 0.5f, 0.25f, 0.125f, 0.0625f };

static bool is_integer(int32_t type)
{
	return type == OPVER_TYPE_INT4 || type == OPVER_TYPE_INT8 ||
	       type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT16 ||
	       type == OPVER_TYPE_INT32 || type == OPVER_TYPE_INT64;
}

/* A tensor of `type` and shape `dims` (rank entries, borrowed), with a
 * one-scale quantization table when the type is an integer type. */
opver__tensor_signature tensor(int32_t type, int32_t rank,
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

/* `t` quantized with `count` scales from `scale` along `axis`. */
opver__tensor_signature scaled(opver__tensor_signature t,
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
opver__tensor_signature unquantized(opver__tensor_signature t)
{
	t.has_quantization = false;
	t.quant_count = 0;
	t.scale = NULL;
	return t;
}

/* Points n's signature at its first num_inputs inputs and at its outputs
 * (num_outputs is 0 to 2). */
const opver__op_signature *build(test_node *n, int32_t op,
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
void conv_tensors(test_node *n, int32_t input, int32_t filter,
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
void depthwise_tensors(test_node *n, int32_t input, int32_t filter,
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
void fc_tensors(test_node *n, int32_t input, int32_t weights,
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
void binary_tensors(test_node *n, int32_t a, int32_t b,
		    int32_t output)
{
	n->inputs[0] = tensor(a, COUNT(row_4), row_4);
	n->inputs[1] = tensor(b, COUNT(row_4), row_4);
	n->outputs[0] = tensor(output, COUNT(row_4), row_4);
}

/* One-input ops: input [1,3,3,4], output [1,3,3,4]. */
void unary_tensors(test_node *n, int32_t input, int32_t output)
{
	n->inputs[0] = tensor(input, COUNT(nhwc_4), nhwc_4);
	n->outputs[0] = tensor(output, COUNT(nhwc_4), nhwc_4);
}

/* Asserts that the node needs `version` and that the reason, which must
 * fit its buffer, mentions `fact`. */
void expect(const opver__op_signature *sig, int32_t version,
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
