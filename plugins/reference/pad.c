/*
 * pad.c - PAD, PADV2 and MIRROR_PAD: the input with rows added before and
 * after each dimension, for every element type of TFLite's kernels.
 *
 * paddings is an INT32 or INT64 tensor [rank, 2] of (before, after) pairs,
 * none negative.  PAD fills with zero, or with the output's zero point in
 * quantized types (false for BOOL); PADV2 with its optional third input, a
 * one-element tensor of the input's type (with the output's quantization
 * when quantized: its bytes are copied).  MIRROR_PAD mirrors the input:
 * REFLECT without repeating the edge (each padding at most size - 1),
 * SYMMETRIC repeating it (at most size).  With constant paddings the
 * output shape is checked in prepare; otherwise in invoke, where a
 * mismatch fails the run.
 *
 * Version ranges: PAD and PADV2 1-5 (int8 2, int16 3, more than 4
 * dimensions 4, bool 5); MIRROR_PAD 1-3 (int8 2, int16 3).
 */
#include <string.h>

#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { PAD_INPUT = 0, PAD_PADDINGS = 1, PAD_VALUE = 2 };

typedef struct pad_data {
	ref_gather_plan plan;
	bool deferred; /* paddings known only at invoke */
} pad_data;

/* The plan from the paddings' values, checked against the output. */
static opver_status pad_plan(const opver_context *ctx, const opver_node *node,
			     pad_data *data)
{
	const opver_tensor *input = node->inputs[PAD_INPUT];
	const opver_tensor *paddings = node->inputs[PAD_PADDINGS];
	const char *op = ctx->host->op_name(node->op);
	int32_t mode = REF_GATHER_PAD;
	int64_t pairs[2 * REF_MOVE_MAX_DIMS];
	opver_status status;

	if (node->op == OPVER_OP_MIRROR_PAD) {
		opver_mirror_pad_params params =
			OPVER_MIRROR_PAD_PARAMS_DEFAULTS;

		opver_read_params(node, &params, sizeof(params));
		mode = params.mode == OPVER_MIRROR_PAD_SYMMETRIC
			       ? REF_GATHER_SYMMETRIC
			       : REF_GATHER_REFLECT;
	}
	status = ref_gather_identity(ctx, input, &data->plan);
	if (status != OPVER_OK)
		return status;
	data->plan.outside = mode;
	ref_move_indices(paddings, 2 * input->rank, pairs);
	for (int32_t d = 0; d < input->rank; d++) {
		const int64_t before = pairs[2 * d], after = pairs[2 * d + 1];
		const int64_t size = input->dims[d];
		/* How far a mirror reaches: the edge row is its centre in
		 * REFLECT, and repeated in SYMMETRIC. */
		const int64_t reach = mode == REF_GATHER_REFLECT ? size - 1
				      : mode == REF_GATHER_SYMMETRIC ? size
								     : INT32_MAX;
		ref_gather_dim *dim = &data->plan.dims[d];

		if (before < 0 || after < 0 || before > reach ||
		    after > reach || size + before + after > INT32_MAX) {
			OPVER_REPORT(ctx,
				     "paddings of dimension %d are (%lld, %lld); %s takes 0 to %lld on a dimension of %lld",
				     (int)d, (long long)before,
				     (long long)after, op,
				     (long long)(reach < INT32_MAX ? reach
								   : INT32_MAX),
				     (long long)size);
			return OPVER_ERROR_INVALID_MODEL;
		}
		dim->count = (int32_t)(size + before + after);
		dim->start = (int32_t)-before;
	}
	return ref_gather_check_output(ctx, &data->plan, node, op,
				       data->deferred);
}

/* The pad value: PADV2's third input, else the output's zero point (0 in
 * float and unquantized types), in the element's bytes. */
static void pad_value(const opver_node *node, ref_gather_plan *plan)
{
	const opver_tensor *output = node->outputs[0];
	const opver_tensor *value = node->num_inputs > PAD_VALUE
					    ? node->inputs[PAD_VALUE]
					    : NULL;
	int64_t zero_point = output->quant.count > 0
				     ? output->quant.zero_point[0]
				     : 0;

	if (value != NULL) {
		memcpy(plan->pad, value->data, plan->element);
		return;
	}
	memset(plan->pad, 0, sizeof(plan->pad));
	switch (output->type) {
	case OPVER_TYPE_UINT8: {
		const uint8_t z = (uint8_t)zero_point;

		memcpy(plan->pad, &z, 1);
		break;
	}
	case OPVER_TYPE_INT8: {
		const int8_t z = (int8_t)zero_point;

		memcpy(plan->pad, &z, 1);
		break;
	}
	case OPVER_TYPE_INT16: {
		const int16_t z = (int16_t)zero_point;

		memcpy(plan->pad, &z, 2);
		break;
	}
	default:
		break;
	}
}

static opver_status pad_check_value(const opver_context *ctx,
				    const opver_tensor *input,
				    const opver_tensor *output,
				    const opver_tensor *value)
{
	opver_status status = ref_move_same_type(ctx, "constant_values",
						 value, input);

	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(value) != 1) {
		OPVER_REPORT(ctx,
			     "constant_values '%s' has %zu elements; PADV2 takes one",
			     value->name, opver_tensor_elements(value));
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* Its bytes are the output's: the same quantization, as TFLite
	 * requires. */
	if (value->quant.count > 0 && output->quant.count > 0 &&
	    !ref_move_same_quantization(value, output)) {
		OPVER_REPORT(ctx,
			     "constant_values '%s' is quantized unlike output '%s'; PADV2 copies its value unchanged",
			     value->name, output->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status pad_prepare(const opver_context *ctx, opver_node *node)
{
	pad_data *data = node->op_data;
	const opver_tensor *input, *paddings;
	const bool v2 = node->op == OPVER_OP_PADV2;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, v2 ? 3 : 2, 1,
				 v2 ? "PADV2 takes input, paddings, an optional constant_values and one output"
				    : "it takes input, paddings and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[PAD_INPUT];
	paddings = node->inputs[PAD_PADDINGS];
	status = ref_move_same_type(ctx, "output", node->outputs[0], input);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "paddings", paddings, 2);
	if (status == OPVER_OK)
		status = ref_move_index_tensor(ctx, "paddings", paddings,
					       2 * (size_t)input->rank);
	if (status == OPVER_OK && paddings->dims[1] != 2) {
		OPVER_REPORT(ctx, "paddings '%s' is [%d, %d]; it must be [%d, 2]",
			     paddings->name, (int)paddings->dims[0],
			     (int)paddings->dims[1], (int)input->rank);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	if (status == OPVER_OK && v2 && node->num_inputs > PAD_VALUE &&
	    node->inputs[PAD_VALUE] != NULL)
		status = pad_check_value(ctx, input, node->outputs[0],
					 node->inputs[PAD_VALUE]);
	if (status != OPVER_OK)
		return status;
	data->deferred = !paddings->is_constant;
	if (data->deferred) {
		status = ref_defer_output(ctx, 0, NULL);
		return status == OPVER_OK ?
			ref_gather_identity(ctx, input, &data->plan) : status;
	}
	return pad_plan(ctx, node, data);
}

static opver_status pad_invoke(const opver_context *ctx, opver_node *node)
{
	pad_data *data = node->op_data;

	if (data->deferred) {
		opver_status status = pad_plan(ctx, node, data);

		if (status != OPVER_OK)
			return status;
	}
	pad_value(node, &data->plan);
	ref_gather_run(&data->plan, node->inputs[PAD_INPUT]->data,
		       node->outputs[0]->data);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define PAD_INDEX_TYPES (OPVER_T(INT32) | OPVER_T(INT64))
#define MIRROR_PAD_TYPES (REF_MOVE_TYPES & ~OPVER_T(BOOL))

const opver_kernel ref_pad = {
	OPVER_KERNEL("pad", PAD, 1, 5),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(REF_MOVE_TYPES, PAD_INDEX_TYPES),
		OPVER_OUTPUT(REF_MOVE_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(pad_data),
	.prepare = pad_prepare, .invoke = pad_invoke,
};

const opver_kernel ref_padv2 = {
	OPVER_KERNEL("padv2", PADV2, 1, 5),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(REF_MOVE_TYPES, PAD_INDEX_TYPES,
			     REF_MOVE_TYPES | OPVER_TYPE_BIT_ABSENT),
		OPVER_OUTPUT(REF_MOVE_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(pad_data),
	.prepare = pad_prepare, .invoke = pad_invoke,
};

const opver_kernel ref_mirror_pad = {
	OPVER_KERNEL("mirror_pad", MIRROR_PAD, 1, 3),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(MIRROR_PAD_TYPES, PAD_INDEX_TYPES),
		OPVER_OUTPUT(MIRROR_PAD_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(pad_data),
	.prepare = pad_prepare, .invoke = pad_invoke,
};
