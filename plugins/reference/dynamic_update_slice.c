/*
 * dynamic_update_slice.c - DYNAMIC_UPDATE_SLICE: the operand with the
 * block that starts at `start_indices` replaced by `update`, as XLA's
 * DynamicUpdateSlice and TFLite's kernel define it.  The update has the
 * operand's rank and no dimension larger than the operand's; the start
 * indices, a 1-D INT32 or INT64 tensor of one value per dimension, are
 * clamped into [0, operand dimension - update dimension], so the block
 * always lies inside (TFLite's ClampStartIndices).  The output has the
 * operand's shape and type.  Elements are only moved, so one kernel serves
 * every type TFLite's kernel takes, by element size.
 *
 * Version range 1-6 (int64 start indices 2, float16 3, int16 4, bfloat16
 * 6).  Version 5's int4, packed two to a byte, is not computed: opver has
 * no element size for it.
 */
#include <string.h>

#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { DUS_OPERAND = 0, DUS_UPDATE = 1, DUS_START = 2 };

typedef struct dus_data {
	size_t element;                         /* bytes per element */
	size_t operand_bytes;
	size_t update_elements;
	int32_t rank;
	/* Elements one step along each dimension moves by. */
	size_t operand_stride[REF_MOVE_MAX_DIMS];
	size_t update_stride[REF_MOVE_MAX_DIMS];
} dus_data;

static opver_status dus_prepare(const opver_context *ctx, opver_node *node)
{
	dus_data *data = node->op_data;
	const opver_tensor *operand, *update;
	opver_status status;

	status = ref_check_arity(ctx, node, 3, 3, 1,
				 "DYNAMIC_UPDATE_SLICE takes operand, update, start_indices and one output");
	if (status != OPVER_OK)
		return status;
	operand = node->inputs[DUS_OPERAND];
	update = node->inputs[DUS_UPDATE];
	status = ref_move_same_type(ctx, "update", update, operand);
	if (status == OPVER_OK)
		status = ref_move_same_type(ctx, "output", node->outputs[0],
					    operand);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "start_indices",
					 node->inputs[DUS_START], 1);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "start_indices",
					       node->inputs[DUS_START],
					       (size_t)operand->rank);
	if (status != OPVER_OK)
		return status;
	if (operand->rank > REF_MOVE_MAX_DIMS) {
		OPVER_REPORT(ctx, "operand '%s' has %d dimensions; DYNAMIC_UPDATE_SLICE takes up to %d",
			     operand->name, (int)operand->rank,
			     REF_MOVE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (update->rank != operand->rank) {
		OPVER_REPORT(ctx, "update '%s' has %d dimensions; it must have the operand's %d",
			     update->name, (int)update->rank,
			     (int)operand->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t d = 0; d < operand->rank; d++)
		if (update->dims[d] > operand->dims[d] || update->dims[d] < 0) {
			OPVER_REPORT(ctx, "dimension %d: the update's %d elements do not fit the operand's %d",
				     (int)d, (int)update->dims[d],
				     (int)operand->dims[d]);
			return OPVER_ERROR_INVALID_MODEL;
		}
	status = ref_shape_like(ctx, node, 0, operand);
	if (status != OPVER_OK)
		return status;
	data->element = ref_move_element_size(operand->type);
	data->operand_bytes = opver_tensor_elements(operand) * data->element;
	data->update_elements = opver_tensor_elements(update);
	data->rank = operand->rank;
	for (int32_t d = operand->rank - 1; d >= 0; d--) {
		const bool last = d == operand->rank - 1;

		data->operand_stride[d] =
			last ? 1 : data->operand_stride[d + 1] *
					   (size_t)operand->dims[d + 1];
		data->update_stride[d] =
			last ? 1 : data->update_stride[d + 1] *
					   (size_t)update->dims[d + 1];
	}
	return OPVER_OK;
}

static opver_status dus_invoke(const opver_context *ctx, opver_node *node)
{
	const dus_data *data = node->op_data;
	const opver_tensor *operand = node->inputs[DUS_OPERAND];
	const opver_tensor *update = node->inputs[DUS_UPDATE];
	const unsigned char *from = update->data;
	unsigned char *out = node->outputs[0]->data;
	int64_t start[REF_MOVE_MAX_DIMS];
	int32_t index[REF_MOVE_MAX_DIMS] = { 0 };
	size_t offset = 0, row;

	(void)ctx;
	if (out != operand->data)
		memcpy(out, operand->data, data->operand_bytes);
	if (data->update_elements == 0)
		return OPVER_OK;
	if (data->rank == 0) {
		memcpy(out, from, data->element);
		return OPVER_OK;
	}
	ref_move_indices(node->inputs[DUS_START], data->rank, start);
	for (int32_t d = 0; d < data->rank; d++) {
		const int64_t room = operand->dims[d] - update->dims[d];
		const int64_t s = start[d] < 0 ? 0 : start[d] > room ? room
								    : start[d];

		offset += (size_t)s * data->operand_stride[d];
	}
	/* One run of the update's last dimension at a time, the odometer
	 * over the dimensions before it. */
	row = (size_t)update->dims[data->rank - 1] * data->element;
	for (size_t done = 0; done < data->update_elements;
	     done += (size_t)update->dims[data->rank - 1]) {
		size_t at = offset;

		for (int32_t d = 0; d < data->rank - 1; d++)
			at += (size_t)index[d] * data->operand_stride[d];
		memcpy(out + at * data->element, from + done * data->element,
		       row);
		for (int32_t d = data->rank - 2; d >= 0; d--) {
			if (++index[d] < update->dims[d])
				break;
			index[d] = 0;
		}
	}
	return OPVER_OK;
}

#define DUS_TYPES                                                        \
	(OPVER_T(FLOAT32) | OPVER_T(FLOAT16) | OPVER_T(BFLOAT16) |       \
	 OPVER_T(BOOL) | OPVER_T(INT8) | OPVER_T(INT16) | OPVER_T(INT32) | \
	 OPVER_T(INT64))

const opver_kernel ref_dynamic_update_slice = {
	OPVER_KERNEL("dynamic_update_slice", DYNAMIC_UPDATE_SLICE, 1, 6),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(DUS_TYPES, DUS_TYPES,
			     OPVER_T(INT32) | OPVER_T(INT64)),
		OPVER_OUTPUT(DUS_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dus_data),
	.prepare = dus_prepare, .invoke = dus_invoke,
};
