/*
 * testing_op.c - a vendor plugin providing CUSTOM "testing_op", versions
 * 1-2, the custom op of the corpus model litert_test_model_versioned_ops
 * (LiteRT's op-versioning test data).  The op has no published semantics,
 * so this kernel copies its float32 input to its float32 output when they
 * have the same size and zero-fills the output otherwise: the corpus case
 * only asks that the model load, resolve and run.
 */
#include <string.h>

#include "common.h"

static const opver_type_signature float_to_float = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
};

static opver_status testing_op_prepare(const opver_host *host,
				       opver_node *node)
{
	if (node->num_inputs < 1 || node->num_outputs != 1 ||
	    node->inputs[0] == NULL) {
		host->report_error(host,
				   "testing_op takes an input and one output");
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status testing_op_invoke(const opver_host *host,
				      opver_node *node)
{
	const opver_tensor *in = node->inputs[0];
	opver_tensor *out = node->outputs[0];

	(void)host;
	if (in->bytes == out->bytes)
		memmove(out->data, in->data, out->bytes);
	else
		memset(out->data, 0, out->bytes);
	return OPVER_OK;
}

static const opver_kernel testing_op = {
	TEST_KERNEL("testing_op", OPVER_OP_CUSTOM, 1, 2),
	.custom_name = "testing_op",
	.signatures = &float_to_float,
	.num_signatures = 1,
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = testing_op_prepare,
	.invoke = testing_op_invoke,
};

static const opver_kernel *const kernels[] = { &testing_op };

TEST_PLUGIN("testing_op", kernels)
