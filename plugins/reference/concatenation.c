/*
 * concatenation.c - CONCATENATION: inputs of one type and rank, equal but
 * along `axis`, joined along it, for every element type of TFLite's
 * kernel.
 *
 * Quantized inputs follow TFLite: in UINT8 an input whose scale or zero
 * point differs from the output's is requantized as TFLite's
 * ConcatenationWithScaling computes it, in float (q * scale + bias with
 * scale = input scale * (1 / output scale), bias = -input zero point *
 * scale, rounded half away from zero, plus the output zero point, clamped
 * to 0..255); INT8 and INT16 inputs must share the output's quantization,
 * a restriction TFLite's kernel makes.  TFLite computes no fused
 * activation here, so one is refused.
 *
 * Version range 1-4: int8 2, int16 3, uint32 4 (int4, version 5, is not
 * computed).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "movement.h"
#include "node_memory.h"
#include "node_checks.h"

/* One input's share of each output row, and its requantization. */
typedef struct concat_part {
	size_t bytes;
	bool requantize;
	float scale;
	float bias;
} concat_part;

typedef struct concat_data {
	size_t rows;
	concat_part *parts;  /* one per input; persistent memory */
	size_t *part_bytes;  /* parts[k].bytes, for ref_move_join() */
	bool requantize;     /* some part requantizes */
	int32_t zero_point;  /* the output's, when requantizing */
} concat_data;

/* Input `k` has input 0's rank and dimensions but along axis. */
static opver_status concat_check_input(const opver_context *ctx,
				       const opver_node *node, int32_t k,
				       int32_t axis, int32_t *along)
{
	const opver_tensor *first = node->inputs[0], *input = node->inputs[k];
	opver_status status;
	char role[32];

	snprintf(role, sizeof(role), "input %d", (int)k);
	if (input == NULL) {
		OPVER_REPORT(ctx, "%s is omitted; CONCATENATION joins every input",
			     role);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = ref_move_same_type(ctx, role, input, node->outputs[0]);
	if (status != OPVER_OK)
		return status;
	if (input->rank != first->rank) {
		OPVER_REPORT(ctx, "%s '%s' has rank %d; input 0 has rank %d",
			     role, input->name, (int)input->rank,
			     (int)first->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t d = 0; d < input->rank; d++)
		if (d != axis && input->dims[d] != first->dims[d]) {
			OPVER_REPORT(ctx,
				     "%s '%s' has dimension %d of %d; input 0 has %d, and only axis %d may differ",
				     role, input->name, (int)d,
				     (int)input->dims[d], (int)first->dims[d],
				     (int)axis);
			return OPVER_ERROR_INVALID_MODEL;
		}
	/* Empty inputs (a dimension of 0) may be that long along axis. */
	if (input->dims[axis] > INT32_MAX - *along) {
		OPVER_REPORT(ctx, "%s '%s' takes the output past %d along axis %d",
			     role, input->name, (int)INT32_MAX, (int)axis);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*along += input->dims[axis];
	return OPVER_OK;
}

/* How input k's bytes reach the output: copied, or (UINT8 only)
 * requantized; INT8 and INT16 must not need it. */
static opver_status concat_quantization(const opver_context *ctx,
					const opver_tensor *input,
					const opver_tensor *output,
					concat_part *part)
{
	if (input->quant.count == 0 || output->quant.count == 0 ||
	    ref_move_same_quantization(input, output))
		return OPVER_OK;
	if (output->type != OPVER_TYPE_UINT8) {
		OPVER_REPORT(ctx,
			     "input '%s' has scale %g and zero point %lld, output '%s' %g and %lld; TFLite's %s CONCATENATION requires them equal",
			     input->name, (double)input->quant.scale[0],
			     (long long)input->quant.zero_point[0],
			     output->name, (double)output->quant.scale[0],
			     (long long)output->quant.zero_point[0],
			     ctx->host->type_name(output->type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	part->requantize = true;
	part->scale = input->quant.scale[0] * (1.0f / output->quant.scale[0]);
	part->bias = -(float)input->quant.zero_point[0] * part->scale;
	return OPVER_OK;
}

static opver_status concat_prepare(const opver_context *ctx, opver_node *node)
{
	concat_data *data = node->op_data;
	opver_concatenation_params params = OPVER_CONCATENATION_PARAMS_DEFAULTS;
	const opver_tensor *output, *first;
	int32_t axis, along = 0, dims[REF_MOVE_MAX_DIMS];
	size_t row_elements, element;
	opver_status status;

	if (node->num_inputs < 1 || node->num_outputs != 1 ||
	    node->outputs[0] == NULL || node->inputs[0] == NULL) {
		OPVER_REPORT(ctx, "has %d inputs and %d outputs; CONCATENATION takes one or more inputs and one output",
			     (int)node->num_inputs, (int)node->num_outputs);
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	if (params.activation != OPVER_ACTIVATION_NONE) {
		OPVER_REPORT(ctx, "fused activation %d: TFLite's CONCATENATION computes none",
			     (int)params.activation);
		return OPVER_ERROR_UNSUPPORTED;
	}
	output = node->outputs[0];
	first = node->inputs[0];
	if (first->rank > REF_MOVE_MAX_DIMS || first->rank == 0) {
		OPVER_REPORT(ctx, "input '%s' has rank %d; CONCATENATION takes 1 to %d",
			     first->name, (int)first->rank, REF_MOVE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_move_axis(ctx, "option axis", params.axis, first->rank,
			       &axis);
	if (status != OPVER_OK)
		return status;
	data->parts = ref_persistent(ctx, (size_t)node->num_inputs,
				     sizeof(*data->parts), "input parts");
	data->part_bytes = ref_persistent(ctx, (size_t)node->num_inputs,
					  sizeof(*data->part_bytes),
					  "input parts");
	if (data->parts == NULL || data->part_bytes == NULL)
		return OPVER_ERROR_NOMEM;
	element = ref_move_element_size(output->type);
	data->requantize = false;
	for (int32_t k = 0; k < node->num_inputs; k++) {
		const opver_tensor *input = node->inputs[k];
		size_t rows;

		status = concat_check_input(ctx, node, k, axis, &along);
		if (status == OPVER_OK)
			status = concat_quantization(ctx, input, output,
						     &data->parts[k]);
		if (status != OPVER_OK)
			return status;
		ref_move_outer(input, axis, &rows, &row_elements);
		data->parts[k].bytes = row_elements * element;
		data->part_bytes[k] = data->parts[k].bytes;
		data->requantize |= data->parts[k].requantize;
	}
	for (int32_t d = 0; d < first->rank; d++)
		dims[d] = d == axis ? along : first->dims[d];
	status = ref_move_shape_output(ctx, node, 0, first->rank,
				       dims, "the inputs joined give", false);
	if (status != OPVER_OK)
		return status;
	ref_move_outer(output, axis, &data->rows, &row_elements);
	data->zero_point = output->quant.count > 0
				   ? (int32_t)output->quant.zero_point[0]
				   : 0;
	return OPVER_OK;
}

/* One UINT8 row of a part that requantizes. */
static void concat_requantize(const concat_part *part, int32_t zero_point,
			      const uint8_t *in, uint8_t *out)
{
	for (size_t i = 0; i < part->bytes; i++) {
		const float scaled = (float)in[i] * part->scale;
		int32_t q = (int32_t)roundf(scaled + part->bias) + zero_point;

		out[i] = (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
	}
}

static opver_status concat_invoke(const opver_context *ctx, opver_node *node)
{
	const concat_data *data = node->op_data;
	uint8_t *out = node->outputs[0]->data;

	(void)ctx;
	/* Empty rows, however many, need no walk. */
	if (node->outputs[0]->bytes == 0)
		return OPVER_OK;
	if (!data->requantize) {
		ref_move_join(data->rows, node->num_inputs, data->part_bytes,
			      node->inputs, out);
		return OPVER_OK;
	}
	for (size_t r = 0; r < data->rows; r++)
		for (int32_t k = 0; k < node->num_inputs; k++) {
			const concat_part *part = &data->parts[k];
			const uint8_t *in = (const uint8_t *)node->inputs[k]->data +
					    r * part->bytes;

			if (part->requantize)
				concat_requantize(part, data->zero_point, in,
						  out);
			else if (part->bytes > 0)
				memcpy(out, in, part->bytes);
			out += part->bytes;
		}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define CONCAT_TYPES (REF_MOVE_TYPES | OPVER_T(UINT32))

const opver_kernel ref_concatenation = {
	OPVER_KERNEL("concatenation", CONCATENATION, 1, 4),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(CONCAT_TYPES, CONCAT_TYPES | OPVER_TYPE_BIT_ABSENT,
			     CONCAT_TYPES | OPVER_TYPE_BIT_ABSENT,
			     CONCAT_TYPES | OPVER_TYPE_BIT_ABSENT),
		OPVER_OUTPUT(CONCAT_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(concat_data),
	.prepare = concat_prepare, .invoke = concat_invoke,
};
