/*
 * slice.c - SLICE: the block of the input that starts at `begin` and has
 * `size` elements along each dimension (-1: to the end), for every element
 * type of TFLite's kernel.  begin and size are 1-D INT32 or INT64 tensors
 * of the input's rank; the block must lie inside the input.  With constant
 * begin and size the output is shaped in prepare; otherwise it is
 * dynamic, shaped in invoke (checked there by hosts before ABI 2.4).
 *
 * Version range 1-6 (int8 2, int16 4, more than 4 dimensions 5, uint32 6;
 * string, version 3, and int4, version 7, are not computed).
 */
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { SLICE_INPUT = 0, SLICE_BEGIN = 1, SLICE_SIZE = 2 };

typedef struct slice_data {
	ref_gather_plan plan;
	bool deferred; /* begin or size known only at invoke */
} slice_data;

static opver_status slice_plan(const opver_context *ctx,
			       const opver_node *node, slice_data *data)
{
	const opver_tensor *input = node->inputs[SLICE_INPUT];
	int64_t begin[REF_MOVE_MAX_DIMS], size[REF_MOVE_MAX_DIMS];
	opver_status status;

	status = ref_gather_identity(ctx, input, &data->plan);
	if (status != OPVER_OK)
		return status;
	ref_move_indices(node->inputs[SLICE_BEGIN], input->rank, begin);
	ref_move_indices(node->inputs[SLICE_SIZE], input->rank, size);
	for (int32_t d = 0; d < input->rank; d++) {
		const int64_t dim = input->dims[d];
		const int64_t count = size[d] == -1 ? dim - begin[d] : size[d];

		if (begin[d] < 0 || begin[d] > dim || count < 0 ||
		    count > dim - begin[d]) {
			OPVER_REPORT(ctx, "dimension %d: begin %lld and size %lld leave the input's %lld elements",
				     (int)d, (long long)begin[d],
				     (long long)size[d], (long long)dim);
			return OPVER_ERROR_INVALID_MODEL;
		}
		data->plan.dims[d].start = (int32_t)begin[d];
		data->plan.dims[d].count = (int32_t)count;
	}
	return ref_gather_check_output(ctx, &data->plan, node, "SLICE",
				       data->deferred);
}

static opver_status slice_prepare(const opver_context *ctx, opver_node *node)
{
	slice_data *data = node->op_data;
	const opver_tensor *input;
	opver_status status;

	status = ref_check_arity(ctx, node, 3, 3, 1,
				 "SLICE takes input, begin, size and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[SLICE_INPUT];
	status = ref_move_same_type(ctx, "output", node->outputs[0], input);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "begin",
					       node->inputs[SLICE_BEGIN],
					       (size_t)input->rank);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "size",
					       node->inputs[SLICE_SIZE],
					       (size_t)input->rank);
	if (status != OPVER_OK)
		return status;
	data->deferred = !ref_move_all_constant(2, node->inputs + SLICE_BEGIN);
	if (data->deferred) {
		status = ref_defer_output(ctx, 0, NULL);
		return status == OPVER_OK ?
			ref_gather_identity(ctx, input, &data->plan) : status;
	}
	return slice_plan(ctx, node, data);
}

static opver_status slice_invoke(const opver_context *ctx, opver_node *node)
{
	slice_data *data = node->op_data;

	if (data->deferred) {
		opver_status status = slice_plan(ctx, node, data);

		if (status != OPVER_OK)
			return status;
	}
	ref_gather_run(&data->plan, node->inputs[SLICE_INPUT]->data,
		       node->outputs[0]->data);
	return OPVER_OK;
}

#define SLICE_TYPES (REF_MOVE_TYPES | OPVER_T(UINT32))
#define SLICE_INDEX_TYPES (OPVER_T(INT32) | OPVER_T(INT64))

const opver_kernel ref_slice = {
	OPVER_KERNEL("slice", SLICE, 1, 6),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(SLICE_TYPES, SLICE_INDEX_TYPES, SLICE_INDEX_TYPES),
		OPVER_OUTPUT(SLICE_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(slice_data),
	.prepare = slice_prepare, .invoke = slice_invoke,
};
