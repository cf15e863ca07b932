/*
 * split.c - SPLIT and SPLIT_V: one tensor cut along `axis` into one output
 * per part, for every element type of TFLite's kernels.
 *
 * SPLIT (inputs axis, input) makes num_splits equal parts; SPLIT_V (input,
 * size_splits, axis) parts of the sizes size_splits gives, one of which
 * may be -1: what the others leave.  The axis is a one-element INT32
 * tensor, negative counting from the end.  With constant axis and sizes
 * the outputs are shaped in prepare; otherwise they are dynamic, shaped
 * in invoke (checked there by hosts before ABI 2.4).
 *
 * Version ranges: SPLIT 1-4 (int8 2, int32 3, int16 4); SPLIT_V 1-2 (int8
 * 2).
 */
#include <stdio.h>

#include "kernels.h"
#include "movement.h"
#include "node_memory.h"
#include "node_checks.h"

typedef struct split_data {
	int32_t input;       /* index of the data input */
	int32_t axis_input;  /* index of the axis input */
	bool deferred;       /* axis or sizes known only at invoke */
	size_t rows;
	int64_t *sizes;      /* one per output, along the axis; persistent */
	size_t *part_bytes;  /* one per output; persistent memory */
} split_data;

/* The part sizes: SPLIT's equal ones, or SPLIT_V's size_splits with its
 * -1 filled in; each checked against the dimension `size`. */
static opver_status split_sizes(const opver_context *ctx,
				const opver_node *node, int32_t size,
				int64_t *sizes)
{
	const int32_t count = node->num_outputs;
	int64_t known = 0;
	int32_t stretch = -1;

	if (node->op == OPVER_OP_SPLIT) {
		if (size % count != 0) {
			OPVER_REPORT(ctx, "a dimension of %d does not split into %d equal parts",
				     (int)size, (int)count);
			return OPVER_ERROR_INVALID_MODEL;
		}
		for (int32_t k = 0; k < count; k++)
			sizes[k] = size / count;
		return OPVER_OK;
	}
	ref_move_indices(node->inputs[1], count, sizes);
	for (int32_t k = 0; k < count; k++) {
		if (sizes[k] == -1 && stretch < 0) {
			stretch = k;
		} else if (sizes[k] < 0) {
			OPVER_REPORT(ctx, "size_splits[%d] is %lld; one entry may be -1, none otherwise negative",
				     (int)k, (long long)sizes[k]);
			return OPVER_ERROR_INVALID_MODEL;
		} else {
			known += sizes[k];
		}
	}
	if (stretch >= 0 && known <= size)
		sizes[stretch] = size - known;
	else if (stretch < 0 && known == size)
		return OPVER_OK;
	else {
		OPVER_REPORT(ctx, "size_splits add up to %lld; the dimension split has %d",
			     (long long)known, (int)size);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* Reads the axis and sizes and checks every output against them. */
static opver_status split_plan(const opver_context *ctx,
			       const opver_node *node, split_data *data)
{
	const opver_tensor *input = node->inputs[data->input];
	int64_t axis_value, *sizes = data->sizes;
	int32_t axis, dims[REF_MOVE_MAX_DIMS];
	size_t row_elements, inner = ref_move_element_size(input->type);
	opver_status status;

	ref_move_indices(node->inputs[data->axis_input], 1, &axis_value);
	status = ref_move_axis(ctx, "axis", axis_value, input->rank, &axis);
	if (status != OPVER_OK)
		return status;
	status = split_sizes(ctx, node, input->dims[axis], sizes);
	if (status != OPVER_OK)
		return status;
	ref_move_outer(input, axis, &data->rows, &row_elements);
	for (int32_t d = 0; d < input->rank; d++) {
		dims[d] = input->dims[d];
		if (d > axis)
			inner *= (size_t)input->dims[d];
	}
	for (int32_t k = 0; k < node->num_outputs; k++) {
		dims[axis] = (int32_t)sizes[k];
		status = ref_move_shape_output(ctx, node, k, input->rank, dims,
					       "its part of the input is",
					       data->deferred);
		if (status != OPVER_OK)
			return status;
		data->part_bytes[k] = (size_t)sizes[k] * inner;
	}
	return OPVER_OK;
}

static opver_status split_prepare(const opver_context *ctx, opver_node *node)
{
	split_data *data = node->op_data;
	const bool v = node->op == OPVER_OP_SPLIT_V;
	opver_split_params params = OPVER_SPLIT_PARAMS_DEFAULTS;
	const opver_tensor *input;
	opver_status status;

	if (node->num_inputs != (v ? 3 : 2) || node->num_outputs < 1) {
		OPVER_REPORT(ctx, "has %d inputs and %d outputs; %s",
			     (int)node->num_inputs, (int)node->num_outputs,
			     v ? "SPLIT_V takes input, size_splits, axis and one or more outputs"
			       : "SPLIT takes axis, input and one or more outputs");
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->input = v ? 0 : 1;
	data->axis_input = v ? 2 : 0;
	for (int32_t i = 0; i < node->num_inputs; i++)
		if (node->inputs[i] == NULL) {
			OPVER_REPORT(ctx, "input %d is omitted", (int)i);
			return OPVER_ERROR_INVALID_MODEL;
		}
	input = node->inputs[data->input];
	opver_read_params(node, &params, sizeof(params));
	if (params.num_splits != node->num_outputs) {
		OPVER_REPORT(ctx, "option num_splits is %d; the node has %d outputs",
			     (int)params.num_splits, (int)node->num_outputs);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (input->rank < 1 || input->rank > REF_MOVE_MAX_DIMS) {
		OPVER_REPORT(ctx, "input '%s' has rank %d; this kernel splits 1 to %d",
			     input->name, (int)input->rank, REF_MOVE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_expect_type(ctx, "axis", node->inputs[data->axis_input],
				 OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "axis",
					       node->inputs[data->axis_input],
					       1);
	if (status == OPVER_OK && v)
		status = ref_move_index_tensor(ctx, "size_splits",
					       node->inputs[1],
					       (size_t)node->num_outputs);
	for (int32_t k = 0; k < node->num_outputs && status == OPVER_OK; k++) {
		char role[32];

		snprintf(role, sizeof(role), "output %d", (int)k);
		if (node->outputs[k] == NULL) {
			OPVER_REPORT(ctx, "%s is omitted", role);
			return OPVER_ERROR_INVALID_MODEL;
		}
		status = ref_move_same_type(ctx, role, node->outputs[k], input);
	}
	if (status != OPVER_OK)
		return status;
	data->sizes = ref_persistent(ctx, (size_t)node->num_outputs,
				     sizeof(*data->sizes), "part sizes");
	data->part_bytes = ref_persistent(ctx, (size_t)node->num_outputs,
					  sizeof(*data->part_bytes),
					  "part sizes");
	if (data->sizes == NULL || data->part_bytes == NULL)
		return OPVER_ERROR_NOMEM;
	data->deferred = !node->inputs[data->axis_input]->is_constant ||
			 (v && !node->inputs[1]->is_constant);
	for (int32_t k = 0; data->deferred && k < node->num_outputs &&
			    status == OPVER_OK; k++)
		status = ref_defer_output(ctx, k, NULL);
	if (data->deferred)
		return status;
	return split_plan(ctx, node, data);
}

static opver_status split_invoke(const opver_context *ctx, opver_node *node)
{
	split_data *data = node->op_data;

	if (data->deferred) {
		opver_status status = split_plan(ctx, node, data);

		if (status != OPVER_OK)
			return status;
	}
	ref_move_split(data->rows, node->num_outputs, data->part_bytes,
		       node->inputs[data->input]->data, node->outputs);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define SPLIT_TYPES                                                       \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) | OPVER_T(INT16) | \
	 OPVER_T(INT32))
#define SPLIT_V_TYPES (SPLIT_TYPES | OPVER_T(INT64))

const opver_kernel ref_split = {
	OPVER_KERNEL("split", SPLIT, 1, 4),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(INT32), SPLIT_TYPES),
		OPVER_OUTPUT(SPLIT_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(split_data),
	.prepare = split_prepare, .invoke = split_invoke,
};

const opver_kernel ref_split_v = {
	OPVER_KERNEL("split_v", SPLIT_V, 1, 2),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(SPLIT_V_TYPES, OPVER_T(INT32) | OPVER_T(INT64),
			     OPVER_T(INT32)),
		OPVER_OUTPUT(SPLIT_V_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(split_data),
	.prepare = split_prepare, .invoke = split_invoke,
};
