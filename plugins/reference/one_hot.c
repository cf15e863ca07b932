/*
 * one_hot.c - ONE_HOT: for each index, a run of `depth` elements along a new
 * dimension at `axis`, on_value at the index's position and off_value
 * elsewhere, as TFLite's one_hot.cc computes them; an index outside [0,
 * depth) gives off_value throughout.  Inputs (indices: INT32 or INT64,
 * depth: INT32 of one element, on_value, off_value: one element of the
 * output's type); the output's type is float32, int32, int64, int8, uint8
 * or bool (TFLite's; it fails int16 at invoke), handled by element size
 * since no value is computed.
 *
 * depth must be a constant: the output's shape depends on it, and opver
 * fixes output shapes before the first invoke, so a depth the graph
 * computes is refused at prepare.  on_value and off_value are read at
 * each invoke.
 *
 * Version range 1 (TFLite has one version).
 */
#include <string.h>

#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

#define ONE_HOT_TYPES                                                 \
	(OPVER_T(FLOAT32) | OPVER_T(INT32) | OPVER_T(INT64) |         \
	 OPVER_T(INT8) | OPVER_T(UINT8) | OPVER_T(BOOL))

enum { ONE_HOT_INDICES = 0, ONE_HOT_DEPTH, ONE_HOT_ON, ONE_HOT_OFF };

typedef struct one_hot_data {
	/* The output as [outer, depth, inner], depth along the new axis. */
	size_t outer, depth, inner;
	size_t element; /* bytes per output element */
} one_hot_data;

/* The output: the indices' shape with depth inserted at axis (0 to the
 * indices' rank). */
static opver_status one_hot_shape_output(const opver_context *ctx,
					 const opver_node *node, int32_t axis,
					 int32_t depth)
{
	const opver_tensor *indices = node->inputs[ONE_HOT_INDICES];
	ref_dims shape = { 0 };

	ref_dims_append(&shape, indices, 0, axis);
	ref_dims_push(&shape, depth);
	ref_dims_append(&shape, indices, axis, indices->rank);
	return ref_shape_dims(ctx, node, 0, &shape,
			      "depth inserted into the indices' shape gives");
}

static opver_status one_hot_prepare(const opver_context *ctx, opver_node *node)
{
	one_hot_data *data = node->op_data;
	opver_one_hot_params params = OPVER_ONE_HOT_PARAMS_DEFAULTS;
	const opver_tensor *indices, *depth_tensor, *out;
	opver_status status;
	int32_t depth, axis;

	status = ref_check_arity(ctx, node, 4, 4, 1,
				 "ONE_HOT takes indices, depth, on_value, off_value and one output");
	if (status != OPVER_OK)
		return status;
	indices = node->inputs[ONE_HOT_INDICES];
	depth_tensor = node->inputs[ONE_HOT_DEPTH];
	out = node->outputs[0];
	status = ref_expect_type_in(ctx, "output", out, ONE_HOT_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "indices", indices,
					    OPVER_T(INT32) | OPVER_T(INT64));
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "depth", depth_tensor,
					 OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_move_same_type(ctx, "on_value",
					    node->inputs[ONE_HOT_ON], out);
	if (status == OPVER_OK)
		status = ref_move_same_type(ctx, "off_value",
					    node->inputs[ONE_HOT_OFF], out);
	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(depth_tensor) != 1 ||
	    opver_tensor_elements(node->inputs[ONE_HOT_ON]) != 1 ||
	    opver_tensor_elements(node->inputs[ONE_HOT_OFF]) != 1) {
		OPVER_REPORT(ctx, "ONE_HOT takes depth, on_value and off_value of one element each");
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!depth_tensor->is_constant) {
		OPVER_REPORT(ctx, "depth '%s' is computed by the graph; ONE_HOT needs a constant depth, since the output's shape depends on it",
			     depth_tensor->name);
		return OPVER_ERROR_UNSUPPORTED;
	}
	depth = *(const int32_t *)depth_tensor->data;
	opver_read_params(node, &params, sizeof(params));
	axis = params.axis == -1 ? indices->rank : params.axis;
	if (depth < 0 || axis < 0 || axis > indices->rank) {
		OPVER_REPORT(ctx, "depth is %d and axis %d; ONE_HOT takes a depth of 0 or more and an axis of -1 to the indices' rank %d",
			     (int)depth, (int)params.axis, (int)indices->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = one_hot_shape_output(ctx, node, axis, depth);
	if (status != OPVER_OK)
		return status;
	data->outer = 1;
	data->inner = 1;
	for (int32_t d = 0; d < indices->rank; d++) {
		if (d < axis)
			data->outer *= (size_t)indices->dims[d];
		else
			data->inner *= (size_t)indices->dims[d];
	}
	data->depth = (size_t)depth;
	data->element = ref_move_element_size(out->type);
	return OPVER_OK;
}

/* Index i of the indices tensor, INT32 or INT64, widened. */
static int64_t index_at(const opver_tensor *indices, size_t i)
{
	if (indices->type == OPVER_TYPE_INT64)
		return ((const int64_t *)indices->data)[i];
	return ((const int32_t *)indices->data)[i];
}

static opver_status one_hot_invoke(const opver_context *ctx, opver_node *node)
{
	const one_hot_data *d = node->op_data;
	const opver_tensor *indices = node->inputs[ONE_HOT_INDICES];
	const void *on = node->inputs[ONE_HOT_ON]->data;
	const void *off = node->inputs[ONE_HOT_OFF]->data;
	unsigned char *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t o = 0; o < d->outer; o++)
		for (size_t j = 0; j < d->depth; j++)
			for (size_t i = 0; i < d->inner; i++) {
				const int64_t index =
					index_at(indices, o * d->inner + i);

				memcpy(out, index == (int64_t)j ? on : off,
				       d->element);
				out += d->element;
			}
	return OPVER_OK;
}

const opver_kernel ref_one_hot = {
	OPVER_KERNEL("one_hot", ONE_HOT, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(INT32) | OPVER_T(INT64), OPVER_T(INT32),
			     ONE_HOT_TYPES, ONE_HOT_TYPES),
		OPVER_OUTPUT(ONE_HOT_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(one_hot_data),
	.prepare = one_hot_prepare, .invoke = one_hot_invoke,
};
