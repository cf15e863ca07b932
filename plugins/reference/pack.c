/*
 * pack.c - PACK and UNPACK: N tensors of one shape stacked along a new
 * dimension `axis` of size N, and one tensor unstacked along one, for
 * every element type of TFLite's kernels.  In memory both are a join or a
 * split along `axis` (movement.h): each row before the axis holds one
 * slice of every part in turn.  The bytes move unchanged, as in TFLite.
 *
 * Version ranges: PACK 1-4 (int8 2, int16 3, uint32 4); UNPACK 1-5 (int8
 * and uint8 2, bool 3, int16 4, float16 and bfloat16 5).
 */
#include <stdio.h>

#include "kernels.h"
#include "movement.h"
#include "node_memory.h"
#include "node_checks.h"

typedef struct pack_data {
	size_t rows;
	size_t *part_bytes; /* one per part, all equal; persistent memory */
} pack_data;

/*
 * The shared checks: `count` parts (the option `count_name`, which must
 * equal the node's part count), each of shape `part` with the whole's type;
 * the whole has `part`'s dimensions with one of size count inserted at
 * axis.  `parts` are the node's inputs (PACK) or outputs (UNPACK).
 */
static opver_status pack_plan(const opver_context *ctx, opver_node *node,
			      const opver_tensor *whole, int32_t count,
			      opver_tensor *const *parts, int32_t option_count,
			      const char *count_name, int64_t option_axis,
			      const char *part_role)
{
	pack_data *data = node->op_data;
	const opver_tensor *part = parts[0];
	const char *op = ctx->host->op_name(node->op);
	int32_t axis, dims[REF_MOVE_MAX_DIMS];
	size_t row_elements;
	char role[32], source[64];
	opver_status status;

	if (option_count != count) {
		OPVER_REPORT(ctx, "option %s is %d; the node has %d %ss",
			     count_name, (int)option_count, (int)count,
			     part_role);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (whole->rank > REF_MOVE_MAX_DIMS || whole->rank < 1) {
		OPVER_REPORT(ctx, "the stacked tensor '%s' has rank %d; %s handles 1 to %d",
			     whole->name, (int)whole->rank, op,
			     REF_MOVE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_move_axis(ctx, "option axis", option_axis, whole->rank,
			       &axis);
	if (status != OPVER_OK)
		return status;
	for (int32_t d = 0, p = 0; d < whole->rank; d++)
		if (d != axis)
			dims[p++] = whole->dims[d];
	snprintf(source, sizeof(source), "'%s' unstacked along %d gives",
		 whole->name, (int)axis);
	for (int32_t k = 0; k < count; k++) {
		snprintf(role, sizeof(role), "%s %d", part_role, (int)k);
		if (parts[k] == NULL) {
			OPVER_REPORT(ctx, "%s is omitted", role);
			return OPVER_ERROR_INVALID_MODEL;
		}
		status = ref_move_same_type(ctx, role, parts[k], whole);
		/* UNPACK's parts are its outputs, shaped from its input. */
		if (status == OPVER_OK && parts == node->outputs)
			status = ref_move_shape_output(ctx, node, k,
						       whole->rank - 1, dims,
						       source, false);
		else if (status == OPVER_OK)
			status = ref_move_expect_shape(ctx, role, parts[k],
						       whole->rank - 1, dims,
						       source);
		if (status != OPVER_OK)
			return status;
	}
	if (whole->dims[axis] != count) {
		OPVER_REPORT(ctx, "'%s' has %d along axis %d; the node has %d %ss",
			     whole->name, (int)whole->dims[axis], (int)axis,
			     (int)count, part_role);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->part_bytes = ref_persistent(ctx, (size_t)count,
					  sizeof(*data->part_bytes), "parts");
	if (data->part_bytes == NULL)
		return OPVER_ERROR_NOMEM;
	ref_move_outer(part, axis, &data->rows, &row_elements);
	for (int32_t k = 0; k < count; k++)
		data->part_bytes[k] =
			row_elements * ref_move_element_size(part->type);
	return OPVER_OK;
}

/* PACK's output: input 0's shape with the input count inserted at axis
 * (pack_plan() checks the other inputs against it). */
static opver_status pack_shape_output(const opver_context *ctx,
				      const opver_node *node,
				      int64_t option_axis)
{
	const opver_tensor *part = node->inputs[0];
	ref_dims shape = { 0 };
	int32_t axis;
	opver_status status;

	if (part == NULL)
		return OPVER_OK; /* reported by pack_plan() */
	status = ref_move_axis(ctx, "option axis", option_axis,
			       part->rank + 1, &axis);
	if (status != OPVER_OK)
		return status;
	ref_dims_append(&shape, part, 0, axis);
	ref_dims_push(&shape, node->num_inputs);
	ref_dims_append(&shape, part, axis, part->rank);
	return ref_shape_dims(ctx, node, 0, &shape,
			      "stacking the inputs gives");
}

static opver_status pack_prepare(const opver_context *ctx, opver_node *node)
{
	opver_pack_params params = OPVER_PACK_PARAMS_DEFAULTS;
	opver_status status;

	if (node->num_inputs < 1 || node->num_outputs != 1 ||
	    node->outputs[0] == NULL) {
		OPVER_REPORT(ctx, "has %d inputs and %d outputs; PACK takes one or more inputs and one output",
			     (int)node->num_inputs, (int)node->num_outputs);
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	status = pack_shape_output(ctx, node, params.axis);
	if (status != OPVER_OK)
		return status;
	return pack_plan(ctx, node, node->outputs[0], node->num_inputs,
			 node->inputs, params.values_count, "values_count",
			 params.axis, "input");
}

static opver_status pack_invoke(const opver_context *ctx, opver_node *node)
{
	const pack_data *data = node->op_data;

	(void)ctx;
	ref_move_join(data->rows, node->num_inputs, data->part_bytes,
		      node->inputs, node->outputs[0]->data);
	return OPVER_OK;
}

static opver_status unpack_prepare(const opver_context *ctx,
				   opver_node *node)
{
	opver_unpack_params params = OPVER_UNPACK_PARAMS_DEFAULTS;

	if (node->num_inputs != 1 || node->num_outputs < 1 ||
	    node->inputs[0] == NULL) {
		OPVER_REPORT(ctx, "has %d inputs and %d outputs; UNPACK takes one input and one or more outputs",
			     (int)node->num_inputs, (int)node->num_outputs);
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	return pack_plan(ctx, node, node->inputs[0], node->num_outputs,
			 node->outputs, params.num, "num", params.axis,
			 "output");
}

static opver_status unpack_invoke(const opver_context *ctx, opver_node *node)
{
	const pack_data *data = node->op_data;

	(void)ctx;
	ref_move_split(data->rows, node->num_outputs, data->part_bytes,
		       node->inputs[0]->data, node->outputs);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define PACK_TYPES                                                        \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) | OPVER_T(INT16) | \
	 OPVER_T(INT32) | OPVER_T(INT64) | OPVER_T(UINT32))
#define UNPACK_TYPES                                                      \
	(OPVER_T(FLOAT32) | OPVER_T(INT32) | OPVER_T(UINT8) | OPVER_T(INT8) | \
	 OPVER_T(BOOL) | OPVER_T(INT16) | OPVER_T(FLOAT16) | OPVER_T(BFLOAT16))

const opver_kernel ref_pack = {
	OPVER_KERNEL("pack", PACK, 1, 4),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(PACK_TYPES, PACK_TYPES | OPVER_TYPE_BIT_ABSENT,
			     PACK_TYPES | OPVER_TYPE_BIT_ABSENT,
			     PACK_TYPES | OPVER_TYPE_BIT_ABSENT),
		OPVER_OUTPUT(PACK_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(pack_data),
	.prepare = pack_prepare, .invoke = pack_invoke,
};

const opver_kernel ref_unpack = {
	OPVER_KERNEL("unpack", UNPACK, 1, 5),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(UNPACK_TYPES),
				       OPVER_OUTPUT(UNPACK_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(pack_data),
	.prepare = unpack_prepare, .invoke = unpack_invoke,
};
