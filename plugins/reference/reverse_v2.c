/*
 * reverse_v2.c - REVERSE_V2: the input with the order of its elements
 * reversed along each axis the 1-D INT32 `axis` tensor names (negative
 * axes count from the end), for every element type of TFLite's kernel.
 * As TFLite's reverse.cc: the axes, sorted, must be contiguous (TFLite
 * refuses [0, 2]; a repeated axis is not contiguous either), there are no
 * more of them than the input has dimensions, and an empty axis tensor
 * copies the input.  The output has the input's shape.  With a constant
 * axis tensor the axes are checked in prepare; otherwise in invoke.
 *
 * Version range 1-3 (bool 2, int8 3).
 */
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { REVERSE_INPUT = 0, REVERSE_AXIS = 1 };

typedef struct reverse_data {
	ref_gather_plan plan;
	bool deferred; /* the axes known only at invoke */
} reverse_data;

/* Reads the axes and turns the identity plan around along each. */
static opver_status reverse_plan(const opver_context *ctx,
				 const opver_node *node, reverse_data *data)
{
	const opver_tensor *input = node->inputs[REVERSE_INPUT];
	const opver_tensor *axis = node->inputs[REVERSE_AXIS];
	const int32_t count = (int32_t)opver_tensor_elements(axis);
	const int32_t *values = axis->data;
	bool reversed[REF_MOVE_MAX_DIMS] = { false };
	int32_t first = input->rank, last = -1;
	opver_status status;

	status = ref_gather_identity(ctx, input, &data->plan);
	for (int32_t i = 0; status == OPVER_OK && i < count; i++) {
		int32_t a;

		status = ref_move_axis(ctx, "axis", values[i], input->rank,
				       &a);
		if (status != OPVER_OK)
			break;
		if (reversed[a]) {
			OPVER_REPORT(ctx, "axis %d is named twice; REVERSE_V2 takes each axis once",
				     (int)a);
			return OPVER_ERROR_INVALID_MODEL;
		}
		reversed[a] = true;
		first = a < first ? a : first;
		last = a > last ? a : last;
	}
	if (status != OPVER_OK)
		return status;
	if (count > 0 && last - first + 1 != count) {
		OPVER_REPORT(ctx, "the %d axes are not contiguous; TFLite's REVERSE_V2 reverses only adjacent axes",
			     (int)count);
		return OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t d = 0; d < input->rank; d++)
		if (reversed[d]) {
			data->plan.dims[d].start = input->dims[d] - 1;
			data->plan.dims[d].step = -1;
		}
	return OPVER_OK;
}

static opver_status reverse_prepare(const opver_context *ctx,
				    opver_node *node)
{
	reverse_data *data = node->op_data;
	const opver_tensor *input, *axis;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "REVERSE_V2 takes input, axis and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[REVERSE_INPUT];
	axis = node->inputs[REVERSE_AXIS];
	status = ref_move_same_type(ctx, "output", node->outputs[0], input);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "axis", axis, OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "axis", axis, 1);
	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(axis) > (size_t)input->rank) {
		OPVER_REPORT(ctx, "axis '%s' names %zu axes; the input has %d dimensions",
			     axis->name, opver_tensor_elements(axis),
			     (int)input->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = ref_gather_identity(ctx, input, &data->plan);
	if (status == OPVER_OK)
		status = ref_gather_check_output(ctx, &data->plan, node,
						 "REVERSE_V2", false);
	if (status != OPVER_OK)
		return status;
	data->deferred = !axis->is_constant;
	return data->deferred ? OPVER_OK : reverse_plan(ctx, node, data);
}

static opver_status reverse_invoke(const opver_context *ctx, opver_node *node)
{
	reverse_data *data = node->op_data;

	if (data->deferred) {
		opver_status status = reverse_plan(ctx, node, data);

		if (status != OPVER_OK)
			return status;
	}
	ref_gather_run(&data->plan, node->inputs[REVERSE_INPUT]->data,
		       node->outputs[0]->data);
	return OPVER_OK;
}

const opver_kernel ref_reverse_v2 = {
	OPVER_KERNEL("reverse_v2", REVERSE_V2, 1, 3),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(REF_MOVE_TYPES, OPVER_T(INT32)),
		OPVER_OUTPUT(REF_MOVE_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(reverse_data),
	.prepare = reverse_prepare, .invoke = reverse_invoke,
};
