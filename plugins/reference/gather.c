/*
 * gather.c - GATHER: slices of the input along `axis` picked by the
 * positions tensor, per batch of the batch_dims leading dimensions the two
 * share.  The output is input[:axis] + positions[batch_dims:] +
 * input[axis + 1:].  Only data moves, so one kernel serves every element
 * type TFLite gathers, by element size.
 *
 * As in TFLite, a position outside [0, input.dims[axis]) fails the invoke
 * (nothing is read out of bounds).  Positions are INT32 or INT64, INT16 from
 * version 6.
 *
 * Version range: 1-6.  7 (int4 input) is not computed.
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

enum { GATHER_INPUT = 0, GATHER_POSITIONS = 1 };

/* What TFLite gathers: its types of fixed size. */
#define GATHER_TYPES                                                   \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) |           \
	 OPVER_T(INT16) | OPVER_T(INT32) | OPVER_T(INT64) | OPVER_T(BOOL))

typedef struct gather_data {
	size_t batches;     /* product of the batch_dims leading dimensions */
	size_t outer;       /* of the input dimensions from batch_dims to axis */
	size_t axis_size;   /* input.dims[axis] */
	size_t per_batch;   /* positions per batch */
	size_t slice_bytes; /* bytes after the axis: one gathered slice */
} gather_data;

/* axis and batch_dims, with negative values counted from the end, checked
 * as TFLite does. */
static opver_status gather_axes(const opver_context *ctx,
				const opver_node *node, int32_t *axis,
				int32_t *batch_dims)
{
	const opver_tensor *input = node->inputs[GATHER_INPUT];
	const opver_tensor *positions = node->inputs[GATHER_POSITIONS];
	opver_gather_params params = OPVER_GATHER_PARAMS_DEFAULTS;

	opver_read_params(node, &params, sizeof(params));
	*axis = params.axis < 0 ? params.axis + input->rank : params.axis;
	*batch_dims = params.batch_dims < 0
			      ? params.batch_dims + positions->rank
			      : params.batch_dims;
	if (*axis < 0 || *axis >= input->rank) {
		OPVER_REPORT(ctx,
			     "axis %d is outside input '%s' of rank %d",
			     (int)params.axis, input->name, (int)input->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (*batch_dims < 0 || *batch_dims > *axis ||
	    *batch_dims > positions->rank) {
		OPVER_REPORT(ctx,
			     "batch_dims %d must lie in 0..%d: at most the axis (%d) and the rank of positions '%s' (%d)",
			     (int)params.batch_dims,
			     (int)(*axis < positions->rank ? *axis
							   : positions->rank),
			     (int)*axis, positions->name,
			     (int)positions->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t d = 0; d < *batch_dims; d++)
		if (input->dims[d] != positions->dims[d]) {
			OPVER_REPORT(ctx,
				     "batch dimension %d is %d in input '%s' but %d in positions '%s'",
				     (int)d, (int)input->dims[d], input->name,
				     (int)positions->dims[d], positions->name);
			return OPVER_ERROR_INVALID_MODEL;
		}
	return OPVER_OK;
}

/* The output is input[:axis] + positions[batch_dims:] + input[axis + 1:]. */
static opver_status gather_shape_output(const opver_context *ctx,
					const opver_node *node, int32_t axis,
					int32_t batch_dims)
{
	const opver_tensor *input = node->inputs[GATHER_INPUT];
	const opver_tensor *positions = node->inputs[GATHER_POSITIONS];
	ref_dims shape = { 0 };

	ref_dims_append(&shape, input, 0, axis);
	ref_dims_append(&shape, positions, batch_dims, positions->rank);
	ref_dims_append(&shape, input, axis + 1, input->rank);
	return ref_shape_dims(ctx, node, 0, &shape, "this gather gives");
}

static opver_status gather_prepare(const opver_context *ctx,
				   opver_node *node)
{
	gather_data *data = node->op_data;
	const opver_tensor *input, *positions, *output;
	int32_t axis, batch_dims;
	size_t inner = 1, positions_count;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "GATHER takes an input, positions and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[GATHER_INPUT];
	positions = node->inputs[GATHER_POSITIONS];
	output = node->outputs[0];
	status = ref_expect_type_in(ctx, "input", input, GATHER_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "positions", positions,
					    REF_INDEX_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, input->type);
	if (status == OPVER_OK)
		status = gather_axes(ctx, node, &axis, &batch_dims);
	if (status == OPVER_OK)
		status = gather_shape_output(ctx, node, axis, batch_dims);
	if (status != OPVER_OK)
		return status;
	data->batches = 1;
	data->outer = 1;
	for (int32_t d = 0; d < batch_dims; d++)
		data->batches *= (size_t)input->dims[d];
	for (int32_t d = batch_dims; d < axis; d++)
		data->outer *= (size_t)input->dims[d];
	for (int32_t d = axis + 1; d < input->rank; d++)
		inner *= (size_t)input->dims[d];
	data->axis_size = (size_t)input->dims[axis];
	positions_count = opver_tensor_elements(positions);
	data->per_batch =
		data->batches == 0 ? 0 : positions_count / data->batches;
	data->slice_bytes = inner * ref_element_size(input->type);
	return OPVER_OK;
}

static opver_status gather_invoke(const opver_context *ctx,
				  opver_node *node)
{
	const gather_data *d = node->op_data;
	const opver_tensor *positions = node->inputs[GATHER_POSITIONS];
	const unsigned char *in = node->inputs[GATHER_INPUT]->data;
	unsigned char *out = node->outputs[0]->data;

	for (size_t b = 0; b < d->batches; b++)
		for (size_t o = 0; o < d->outer; o++) {
			const unsigned char *from =
				in + (b * d->outer + o) * d->axis_size *
					     d->slice_bytes;

			for (size_t i = 0; i < d->per_batch; i++) {
				int64_t at = ref_integer_at(
					positions, b * d->per_batch + i);

				if (at < 0 || (uint64_t)at >= d->axis_size) {
					OPVER_REPORT(ctx,
						     "position %lld of '%s' is outside 0..%zu",
						     (long long)at,
						     positions->name,
						     d->axis_size - 1);
					return OPVER_ERROR_INVALID_ARGUMENT;
				}
				memcpy(out, from + (size_t)at * d->slice_bytes,
				       d->slice_bytes);
				out += d->slice_bytes;
			}
		}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_gather = {
	OPVER_KERNEL("gather", GATHER, 1, 6),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(GATHER_TYPES, REF_INDEX_TYPES),
		OPVER_OUTPUT(GATHER_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(gather_data),
	.prepare = gather_prepare, .invoke = gather_invoke,
};
