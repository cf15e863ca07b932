/*
 * arithmetic.c - the prepares ADD, SUB, MUL and DIV share, and the zero
 * divisor report of the dividing ops (arithmetic.h).
 */
#include "arithmetic.h"
#include "quantization.h"

opver_status ref_arithmetic_prepare(const opver_context *ctx,
				    const opver_node *node, opver_type type,
				    const char *op, int32_t activation,
				    ref_broadcast *plan)
{
	opver_status status = ref_expect_clamp_activation(ctx, activation);

	if (status == OPVER_OK)
		status = ref_binary_prepare(ctx, node, type, op, plan);
	return status;
}

opver_status ref_arithmetic_float32_prepare(const opver_context *ctx,
					    const opver_node *node,
					    const char *op, int32_t activation,
					    ref_arithmetic_float32 *data)
{
	opver_status status = ref_arithmetic_prepare(
		ctx, node, OPVER_TYPE_FLOAT32, op, activation, &data->plan);

	if (status == OPVER_OK)
		ref_activation_range_float(activation, &data->activation_min,
					   &data->activation_max);
	return status;
}

opver_status ref_arithmetic_int32_prepare(const opver_context *ctx,
					  const opver_node *node,
					  const char *op, int32_t activation,
					  ref_arithmetic_int32 *data)
{
	opver_status status = ref_arithmetic_prepare(
		ctx, node, OPVER_TYPE_INT32, op, activation, &data->plan);

	if (status != OPVER_OK)
		return status;
	return ref_output_activation_range(ctx, activation, node->outputs[0],
					   1.0f, 0, &data->activation_min,
					   &data->activation_max);
}

opver_status ref_arithmetic_int64_prepare(const opver_context *ctx,
					  const opver_node *node,
					  const char *op, int32_t activation,
					  ref_arithmetic_int64 *data)
{
	opver_status status = ref_arithmetic_prepare(
		ctx, node, OPVER_TYPE_INT64, op, activation, &data->plan);

	data->activation_min = INT64_MIN;
	data->activation_max = INT64_MAX;
	switch (activation) {
	case OPVER_ACTIVATION_RELU:
		data->activation_min = 0;
		break;
	case OPVER_ACTIVATION_RELU_N1_TO_1:
		data->activation_min = -1;
		data->activation_max = 1;
		break;
	case OPVER_ACTIVATION_RELU6:
		data->activation_min = 0;
		data->activation_max = 6;
		break;
	default: /* NONE; ref_arithmetic_prepare refused the others */
		break;
	}
	return status;
}

opver_status ref_report_zero_divisor(const opver_context *ctx,
				     const opver_node *node, const char *op,
				     size_t index)
{
	OPVER_REPORT(ctx,
		     "input 2 '%s' element %zu is zero: %s by zero is undefined",
		     node->inputs[1]->name, index, op);
	return OPVER_ERROR_INVALID_ARGUMENT;
}
