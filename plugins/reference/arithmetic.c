/*
 * arithmetic.c - the prepare ADD, SUB, MUL and DIV share (arithmetic.h).
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
