/*
 * dequantize.c - DEQUANTIZE, int8 and int16 to float32, computed as
 * TensorFlow Lite's reference kernel computes it: scale x (q - zero point),
 * with one scale per tensor, or (int8) one per channel.
 *
 * TFLite multiplies in double and rounds the product to float.  That
 * product, of a float and an integer below 2^17, is exact in double, so
 * rounding it once to float gives the float product: the float multiply
 * here is bit for bit the same.
 *
 * Version ranges (TFLite's op_version rules for DEQUANTIZE):
 *   1  uint8: not these kernels' types
 *   2  int8
 *   3  int16, float16
 *   4  added in TFLite 2.2.0, but no published rule ever returns it and
 *      what it adds is unknown here: a gap these kernels do not claim
 *   5  int8 per channel: implemented
 *   6  int4: not these kernels' types
 * Both kernels therefore cover 1..3.
 */
#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

typedef struct dequantize_data {
	ref_channel_quantization layout; /* of the input */
} dequantize_data;

/* Checks the node's tensors and the input's quantization; `per_channel`
 * allows one scale per channel. */
static opver_status dequantize_prepare(const opver_host *host,
				       opver_node *node, opver_type in,
				       bool per_channel)
{
	dequantize_data *data = node->op_data;
	opver_status status;

	status = ref_check_arity(host, node, 1, 1, 1,
				 "DEQUANTIZE takes one input and one output");
	if (status == OPVER_OK)
		status = ref_expect_type(host, "input", node->inputs[0], in);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "output", node->outputs[0],
					 OPVER_TYPE_FLOAT32);
	if (status == OPVER_OK &&
	    !ref_same_shape(node->inputs[0], node->outputs[0])) {
		host->report_error(host,
				   "output '%s' must have the shape of input '%s'",
				   node->outputs[0]->name,
				   node->inputs[0]->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (status == OPVER_OK)
		status = ref_channel_quantization_get(host, "input",
						      node->inputs[0],
						      per_channel,
						      &data->layout);
	return status;
}

static opver_status dequantize_int8_prepare(const opver_host *host,
					    opver_node *node)
{
	return dequantize_prepare(host, node, OPVER_TYPE_INT8, true);
}

/* TFLite dequantizes int16 per tensor only. */
static opver_status dequantize_int16_prepare(const opver_host *host,
					     opver_node *node)
{
	return dequantize_prepare(host, node, OPVER_TYPE_INT16, false);
}

static opver_status dequantize_int8_invoke(const opver_host *host,
					   opver_node *node)
{
	const ref_channel_quantization *q =
		&((const dequantize_data *)node->op_data)->layout;
	const int8_t *in = node->inputs[0]->data;
	float *out = node->outputs[0]->data;

	(void)host;
	for (size_t o = 0; o < q->outer; o++)
		for (size_t c = 0; c < q->channels; c++) {
			const float scale = q->scales[c];
			const int32_t zero = (int32_t)q->zero_points[c];

			for (size_t i = 0; i < q->inner; i++)
				out[i] = scale * (float)(in[i] - zero);
			in += q->inner;
			out += q->inner;
		}
	return OPVER_OK;
}

static opver_status dequantize_int16_invoke(const opver_host *host,
					    opver_node *node)
{
	const ref_channel_quantization *q =
		&((const dequantize_data *)node->op_data)->layout;
	const int16_t *in = node->inputs[0]->data;
	float *out = node->outputs[0]->data;
	const float scale = q->scales[0];
	const int32_t zero = (int32_t)q->zero_points[0];

	(void)host;
	for (size_t i = 0; i < q->inner; i++)
		out[i] = scale * (float)(in[i] - zero);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

static const opver_type_signature dequantize_int8_signatures[] = { {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_INT8) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

static const opver_type_signature dequantize_int16_signatures[] = { {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_INT16) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

const opver_kernel ref_dequantize_int8_float32 = {
	.struct_size = sizeof(opver_kernel),
	.name = "dequantize_int8_float32",
	.op = OPVER_OP_DEQUANTIZE,
	.min_version = 1,
	.max_version = 3,
	.signatures = dequantize_int8_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(dequantize_data),
	.prepare = dequantize_int8_prepare,
	.invoke = dequantize_int8_invoke,
};

const opver_kernel ref_dequantize_int16_float32 = {
	.struct_size = sizeof(opver_kernel),
	.name = "dequantize_int16_float32",
	.op = OPVER_OP_DEQUANTIZE,
	.min_version = 1,
	.max_version = 3,
	.signatures = dequantize_int16_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(dequantize_data),
	.prepare = dequantize_int16_prepare,
	.invoke = dequantize_int16_invoke,
};
