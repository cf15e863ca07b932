/*
 * dequantize.c - DEQUANTIZE to float32, computed as TensorFlow Lite's
 * reference kernel computes it: from int8, uint8 and int16, scale x (q -
 * zero point), with one scale per tensor, or (int8) one per channel; from
 * float16 (the weights of fp16-quantized models), the exact conversion.
 *
 * TFLite multiplies in double and rounds the product to float.  That
 * product, of a float and an integer below 2^17, is exact in double, so
 * rounding it once to float gives the float product: the float multiply
 * here is bit for bit the same.
 *
 * Version ranges (TFLite's op_version rules for DEQUANTIZE):
 *   1  uint8
 *   2  int8
 *   3  int16, float16
 *   4  added in TFLite 2.2.0, but no published rule ever returns it and
 *      what it adds is unknown here: a gap these kernels do not claim
 *   5  int8 per channel: implemented
 *   6  int4: not these kernels' types
 * Every kernel therefore covers 1..3.
 */

#include "half.h"
#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

typedef struct dequantize_data {
	ref_channel_quantization layout; /* of the input */
} dequantize_data;

/* Checks the node's tensors and the input's quantization; `per_channel`
 * allows one scale per channel. */
static opver_status dequantize_prepare(const opver_context *ctx,
				       opver_node *node, opver_type in,
				       bool per_channel)
{
	dequantize_data *data = node->op_data;
	opver_status status;

	status = ref_check_unary(ctx, node, in, OPVER_TYPE_FLOAT32,
				 "DEQUANTIZE takes one input and one output");
	if (status == OPVER_OK)
		status = ref_channel_quantization_get(ctx, "input",
						      node->inputs[0],
						      per_channel,
						      &data->layout);
	return status;
}

static opver_status dequantize_int8_prepare(const opver_context *ctx,
					    opver_node *node)
{
	return dequantize_prepare(ctx, node, OPVER_TYPE_INT8, true);
}

/* TFLite dequantizes int16 per tensor only. */
static opver_status dequantize_int16_prepare(const opver_context *ctx,
					     opver_node *node)
{
	return dequantize_prepare(ctx, node, OPVER_TYPE_INT16, false);
}

/* TFLite dequantizes uint8 per tensor only. */
static opver_status dequantize_uint8_prepare(const opver_context *ctx,
					     opver_node *node)
{
	return dequantize_prepare(ctx, node, OPVER_TYPE_UINT8, false);
}

/* Defines `name`, the invoke of the kernel that dequantizes `in_type`,
 * walking the input's channels (one when quantized per tensor). */
#define DEQUANTIZE_INVOKE_DEFINE(name, in_type)                              \
	static opver_status name(const opver_context *ctx, opver_node *node)   \
	{                                                                    \
		const ref_channel_quantization *q =                          \
			&((const dequantize_data *)node->op_data)->layout;   \
		const in_type *in = node->inputs[0]->data;                   \
		float *out = node->outputs[0]->data;                         \
                                                                             \
		(void)ctx;                                                  \
		for (size_t o = 0; o < q->outer; o++)                        \
			for (size_t c = 0; c < q->channels; c++) {           \
				const float scale = q->scales[c];            \
				const int32_t zero =                         \
					(int32_t)q->zero_points[c];          \
                                                                             \
				for (size_t i = 0; i < q->inner; i++)        \
					out[i] = scale *                     \
						 (float)(in[i] - zero);      \
				in += q->inner;                              \
				out += q->inner;                             \
			}                                                    \
		return OPVER_OK;                                             \
	}

DEQUANTIZE_INVOKE_DEFINE(dequantize_int8_invoke, int8_t)
DEQUANTIZE_INVOKE_DEFINE(dequantize_int16_invoke, int16_t)
DEQUANTIZE_INVOKE_DEFINE(dequantize_uint8_invoke, uint8_t)

/* ------------------------------------------------------------- float16 */

typedef struct dequantize_float16_data {
	size_t count;
} dequantize_float16_data;

/* float16 carries no quantization: any the model gives it is ignored, as
 * TFLite does. */
static opver_status dequantize_float16_prepare(const opver_context *ctx,
					       opver_node *node)
{
	dequantize_float16_data *data = node->op_data;
	opver_status status;

	status = ref_check_unary(ctx, node, OPVER_TYPE_FLOAT16,
				 OPVER_TYPE_FLOAT32,
				 "DEQUANTIZE takes one input and one output");
	if (status == OPVER_OK)
		data->count = opver_tensor_elements(node->inputs[0]);
	return status;
}

static opver_status dequantize_float16_invoke(const opver_context *ctx,
					      opver_node *node)
{
	const dequantize_float16_data *data = node->op_data;
	const uint16_t *in = node->inputs[0]->data;
	float *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++)
		out[i] = ref_half_to_float(in[i]);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_dequantize_int8_float32 = {
	OPVER_KERNEL("dequantize_int8_float32", DEQUANTIZE, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(INT8, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dequantize_data),
	.prepare = dequantize_int8_prepare, .invoke = dequantize_int8_invoke,
};

const opver_kernel ref_dequantize_int16_float32 = {
	OPVER_KERNEL("dequantize_int16_float32", DEQUANTIZE, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(INT16, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dequantize_data),
	.prepare = dequantize_int16_prepare,
	.invoke = dequantize_int16_invoke,
};

const opver_kernel ref_dequantize_uint8_float32 = {
	OPVER_KERNEL("dequantize_uint8_float32", DEQUANTIZE, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(UINT8, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dequantize_data),
	.prepare = dequantize_uint8_prepare,
	.invoke = dequantize_uint8_invoke,
};

const opver_kernel ref_dequantize_float16_float32 = {
	OPVER_KERNEL("dequantize_float16_float32", DEQUANTIZE, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(FLOAT16, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dequantize_float16_data),
	.prepare = dequantize_float16_prepare,
	.invoke = dequantize_float16_invoke,
};
