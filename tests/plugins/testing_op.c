/*
 * testing_op.c - the kernels of the corpus model
 * litert_test_model_versioned_ops, LiteRT's op-versioning test data: a
 * CONV_2D stored as version 3 on single-element rank-1 float tensors,
 * feeding CUSTOM "testing_op" version 2.
 *
 *   testing_op   versions 1-2.  The op has no published semantics: the
 *                kernel copies its float32 input to its float32 output
 *                when they have the same size and zero-fills it otherwise.
 *   CONV_2D      version 3 only, float32, priority 1.  The model's
 *                CONV_2D takes a [1] input and a [3] filter to a [3]
 *                output; real convolutions take rank-4 tensors and TFLite's
 *                conv (like the reference plugin's) rejects these.  LiteRT's
 *                own test binds the node to a stand-in kernel, and so does
 *                this one: the single input element times each filter
 *                element.  Version 3 only, so no float CONV_2D of another
 *                corpus model binds to it.
 *
 * The corpus case only asks that the model load, resolve and run.
 */
#include <string.h>

#include "common.h"

static const opver_type_signature float_to_float[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static opver_status testing_op_prepare(const opver_context *ctx,
				       opver_node *node)
{
	if (node->num_inputs < 1 || node->num_outputs != 1 ||
	    node->inputs[0] == NULL) {
		OPVER_REPORT(ctx, "testing_op takes an input and one output");
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status testing_op_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const opver_tensor *in = node->inputs[0];
	opver_tensor *out = node->outputs[0];

	(void)ctx;
	if (in->bytes == out->bytes)
		memmove(out->data, in->data, out->bytes);
	else
		memset(out->data, 0, out->bytes);
	return OPVER_OK;
}

static const opver_kernel testing_op = {
	OPVER_CUSTOM_KERNEL("testing_op", "testing_op", 1, 2),
	OPVER_KERNEL_SIGNATURES(float_to_float),
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = testing_op_prepare,
	.invoke = testing_op_invoke,
};

static opver_status stand_in_conv_prepare(const opver_context *ctx,
					  opver_node *node)
{
	if (node->num_inputs < 2 || node->num_outputs != 1 ||
	    node->inputs[0] == NULL || node->inputs[1] == NULL ||
	    opver_tensor_elements(node->inputs[0]) != 1 ||
	    opver_tensor_elements(node->inputs[1]) !=
		    opver_tensor_elements(node->outputs[0])) {
		OPVER_REPORT(ctx,
			     "this stand-in CONV_2D takes a single-element input and a filter of the output's size only");
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}

static opver_status stand_in_conv_invoke(const opver_context *ctx,
					 opver_node *node)
{
	const float *input = node->inputs[0]->data;
	const float *filter = node->inputs[1]->data;
	float *output = node->outputs[0]->data;
	size_t n = opver_tensor_elements(node->outputs[0]);

	(void)ctx;
	for (size_t i = 0; i < n; i++)
		output[i] = input[0] * filter[i];
	return OPVER_OK;
}

static const opver_type_signature float_conv[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32),
				     OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel stand_in_conv = {
	OPVER_KERNEL("stand_in_conv_2d", CONV_2D, 3, 3),
	OPVER_KERNEL_SIGNATURES(float_conv),
	.priority = 1,
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = stand_in_conv_prepare,
	.invoke = stand_in_conv_invoke,
};

static const opver_kernel *const kernels[] = { &testing_op, &stand_in_conv };

TEST_PLUGIN("testing_op", kernels)
