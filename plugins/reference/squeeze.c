/*
 * squeeze.c - SQUEEZE and EXPAND_DIMS: the input's bytes, unchanged, under
 * a shape with dimensions of size 1 removed or one inserted, for every
 * element type of fixed size.
 *
 * SQUEEZE removes the dimensions squeeze_dims lists (negative counting
 * from the end; each must have size 1), or every dimension of size 1 when
 * the list is empty.  EXPAND_DIMS inserts one at its second input, a
 * one-element INT32 or INT64 axis in [-(rank + 1), rank]; with a
 * non-constant axis the output is dynamic, shaped in invoke (checked
 * there by hosts before ABI 2.4).
 *
 * Version ranges: SQUEEZE 1 (string, version 2, has no fixed size);
 * EXPAND_DIMS 1.
 */
#include <string.h>

#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

typedef struct squeeze_data {
	size_t bytes;
	bool deferred; /* EXPAND_DIMS' axis known only at invoke */
} squeeze_data;

static opver_status squeeze_shape(const opver_context *ctx,
				  const opver_node *node)
{
	const opver_tensor *input = node->inputs[0];
	opver_squeeze_params params = OPVER_SQUEEZE_PARAMS_DEFAULTS;
	bool drop[REF_MOVE_MAX_DIMS] = { false };
	int32_t dims[REF_MOVE_MAX_DIMS], rank = 0;

	opver_read_params(node, &params, sizeof(params));
	for (int32_t i = 0; i < params.num_dims; i++) {
		int32_t d;
		opver_status status = ref_move_axis(
			ctx, "an entry of squeeze_dims", params.dims[i],
			input->rank, &d);

		if (status != OPVER_OK)
			return status;
		if (input->dims[d] != 1) {
			OPVER_REPORT(ctx, "squeeze_dims names dimension %d of input '%s', of size %d; only dimensions of size 1 can be removed",
				     (int)d, input->name, (int)input->dims[d]);
			return OPVER_ERROR_INVALID_MODEL;
		}
		drop[d] = true;
	}
	for (int32_t d = 0; d < input->rank; d++)
		if (!(params.num_dims == 0 ? input->dims[d] == 1 : drop[d]))
			dims[rank++] = input->dims[d];
	return ref_move_shape_output(ctx, node, 0, rank, dims,
				     "this SQUEEZE gives", false);
}

static opver_status expand_dims_shape(const opver_context *ctx,
				      const opver_node *node, bool at_invoke)
{
	const opver_tensor *input = node->inputs[0];
	int32_t dims[REF_MOVE_MAX_DIMS], axis;
	int64_t value;
	opver_status status;

	ref_move_indices(node->inputs[1], 1, &value);
	status = ref_move_axis(ctx, "axis", value, input->rank + 1, &axis);
	if (status != OPVER_OK)
		return status;
	for (int32_t d = 0, i = 0; d <= input->rank; d++)
		dims[d] = d == axis ? 1 : input->dims[i++];
	return ref_move_shape_output(ctx, node, 0, input->rank + 1, dims,
				     "this EXPAND_DIMS gives", at_invoke);
}

static opver_status squeeze_prepare(const opver_context *ctx,
				    opver_node *node)
{
	squeeze_data *data = node->op_data;
	const bool expand = node->op == OPVER_OP_EXPAND_DIMS;
	const opver_tensor *input;
	opver_status status;

	status = ref_check_arity(ctx, node, expand ? 2 : 1, expand ? 2 : 1, 1,
				 expand ? "EXPAND_DIMS takes input, axis and one output"
					: "SQUEEZE takes one input and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	if (input->rank >= REF_MOVE_MAX_DIMS) {
		OPVER_REPORT(ctx, "input '%s' has rank %d; this kernel takes up to %d",
			     input->name, (int)input->rank,
			     REF_MOVE_MAX_DIMS - 1);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_move_same_type(ctx, "output", node->outputs[0], input);
	if (status == OPVER_OK && expand)
		status = ref_move_index_tensor(ctx, "axis", node->inputs[1], 1);
	if (status != OPVER_OK)
		return status;
	data->bytes = input->bytes;
	data->deferred = expand && !node->inputs[1]->is_constant;
	if (data->deferred)
		return ref_defer_output(ctx, 0, NULL);
	return expand ? expand_dims_shape(ctx, node, false)
		      : squeeze_shape(ctx, node);
}

static opver_status squeeze_invoke(const opver_context *ctx, opver_node *node)
{
	const squeeze_data *data = node->op_data;
	const void *input = node->inputs[0]->data;
	void *output;

	if (data->deferred) {
		opver_status status = expand_dims_shape(ctx, node, true);

		if (status != OPVER_OK)
			return status;
	}
	/* Read after a dynamic output got its buffer; the planner may give
	 * the output the input's memory. */
	output = node->outputs[0]->data;
	if (data->bytes > 0 && output != input)
		memmove(output, input, data->bytes);
	return OPVER_OK;
}

/* Every type whose elements have a fixed size. */
#define SQUEEZE_SIZED_TYPE(name, value, size) \
	| ((size) > 0 ? OPVER_T(name) : 0)
#define SQUEEZE_SIZED_TYPES (0 OPVER_TYPE_MAP(SQUEEZE_SIZED_TYPE))

const opver_kernel ref_squeeze = {
	OPVER_KERNEL("squeeze", SQUEEZE, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(SQUEEZE_SIZED_TYPES),
				       OPVER_OUTPUT(SQUEEZE_SIZED_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(squeeze_data),
	.prepare = squeeze_prepare, .invoke = squeeze_invoke,
};

const opver_kernel ref_expand_dims = {
	OPVER_KERNEL("expand_dims", EXPAND_DIMS, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(SQUEEZE_SIZED_TYPES,
			     OPVER_T(INT32) | OPVER_T(INT64)),
		OPVER_OUTPUT(SQUEEZE_SIZED_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(squeeze_data),
	.prepare = squeeze_prepare, .invoke = squeeze_invoke,
};
