/*
 * transpose.c - TRANSPOSE: output dimension d is input dimension perm[d],
 * for every element type of TFLite's kernel.  perm is a 1-D INT32 tensor
 * holding each of 0 .. rank-1 once.  With a constant perm the output is
 * shaped in prepare; otherwise it is dynamic, shaped in invoke (checked
 * there by hosts before ABI 2.4).
 *
 * Version range 1-8 (int8 2, bool 3, 5 dimensions 4, int16 5, 6
 * dimensions 6, more than 6 dimensions or bfloat16 8), up to
 * REF_MOVE_MAX_DIMS (8) dimensions.  Version 7's int4, packed two to a
 * byte, is not computed: opver has no element size for it.
 */
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { TRANSPOSE_INPUT = 0, TRANSPOSE_PERM = 1 };

typedef struct transpose_data {
	ref_gather_plan plan;
	bool deferred; /* perm known only at invoke */
} transpose_data;

static opver_status transpose_plan(const opver_context *ctx,
				   const opver_node *node,
				   transpose_data *data)
{
	const opver_tensor *input = node->inputs[TRANSPOSE_INPUT];
	int64_t perm[REF_MOVE_MAX_DIMS];
	bool used[REF_MOVE_MAX_DIMS] = { false };
	ref_gather_plan identity;
	opver_status status;

	status = ref_gather_identity(ctx, input, &identity);
	if (status != OPVER_OK)
		return status;
	data->plan = identity;
	ref_move_indices(node->inputs[TRANSPOSE_PERM], input->rank, perm);
	for (int32_t d = 0; d < input->rank; d++) {
		if (perm[d] < 0 || perm[d] >= input->rank || used[perm[d]]) {
			OPVER_REPORT(ctx, "perm[%d] is %lld; perm must hold each of 0 to %d once",
				     (int)d, (long long)perm[d],
				     (int)input->rank - 1);
			return OPVER_ERROR_INVALID_MODEL;
		}
		used[perm[d]] = true;
		data->plan.dims[d] = identity.dims[perm[d]];
	}
	return ref_gather_check_output(ctx, &data->plan, node, "TRANSPOSE",
				       data->deferred);
}

static opver_status transpose_prepare(const opver_context *ctx,
				      opver_node *node)
{
	transpose_data *data = node->op_data;
	const opver_tensor *input;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "TRANSPOSE takes input, perm and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[TRANSPOSE_INPUT];
	/* Checked here too for a perm known only at invoke. */
	if (input->rank > REF_MOVE_MAX_DIMS) {
		OPVER_REPORT(ctx, "input '%s' has %d dimensions; this TRANSPOSE takes up to %d",
			     input->name, (int)input->rank, REF_MOVE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_move_same_type(ctx, "output", node->outputs[0], input);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "perm",
					 node->inputs[TRANSPOSE_PERM],
					 OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "perm",
					       node->inputs[TRANSPOSE_PERM],
					       (size_t)input->rank);
	if (status != OPVER_OK)
		return status;
	data->deferred = !node->inputs[TRANSPOSE_PERM]->is_constant;
	if (data->deferred)
		return ref_defer_output(ctx, 0, NULL);
	return transpose_plan(ctx, node, data);
}

static opver_status transpose_invoke(const opver_context *ctx,
				     opver_node *node)
{
	transpose_data *data = node->op_data;

	if (data->deferred) {
		opver_status status = transpose_plan(ctx, node, data);

		if (status != OPVER_OK)
			return status;
	}
	ref_gather_run(&data->plan, node->inputs[TRANSPOSE_INPUT]->data,
		       node->outputs[0]->data);
	return OPVER_OK;
}

/* TFLite's TRANSPOSE types but int4. */
#define TRANSPOSE_TYPES (REF_MOVE_TYPES | OPVER_T(BFLOAT16))

const opver_kernel ref_transpose = {
	OPVER_KERNEL("transpose", TRANSPOSE, 1, 8),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(TRANSPOSE_TYPES, OPVER_T(INT32)),
		OPVER_OUTPUT(TRANSPOSE_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(transpose_data),
	.prepare = transpose_prepare, .invoke = transpose_invoke,
};
