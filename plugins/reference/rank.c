/*
 * rank.c - RANK: the input's number of dimensions as one INT32 (a scalar
 * in TFLite's models).  Like SHAPE, only the input's shape matters, which
 * opver fixes before running: any input type.
 *
 * Version range: TFLite has only RANK version 1.
 */
#include "kernels.h"
#include "node_checks.h"

static opver_status rank_prepare(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *output;
	opver_status status;

	status = ref_check_arity(ctx, node, 1, 1, 1,
				 "RANK takes one input and one output");
	if (status != OPVER_OK)
		return status;
	output = node->outputs[0];
	status = ref_expect_type(ctx, "output", output, OPVER_TYPE_INT32);
	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(output) != 1) {
		OPVER_REPORT(ctx, "output '%s' has %zu elements; RANK writes one",
			     output->name, opver_tensor_elements(output));
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* One element whatever the input's shape: the model's shape ([] or
	 * [1]) stays. */
	return ref_shape_output(ctx, node, 0, output->dims, output->rank,
				"RANK gives");
}

static opver_status rank_invoke(const opver_context *ctx, opver_node *node)
{
	(void)ctx;
	*(int32_t *)node->outputs[0]->data = node->inputs[0]->rank;
	return OPVER_OK;
}

const opver_kernel ref_rank = {
	OPVER_KERNEL("rank", RANK, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(0),
				       OPVER_OUTPUT(OPVER_T(INT32)))),
	REF_KERNEL_TRAITS,
	.prepare = rank_prepare, .invoke = rank_invoke,
};
