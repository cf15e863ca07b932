/*
 * local_response_norm.c - LOCAL_RESPONSE_NORMALIZATION: each element of a
 * 4-D float32 input times (bias + alpha * sum) ^ -beta, where sum adds the
 * squares of the elements within `radius` of it along the last (channel)
 * dimension, cut at its ends, as TFLite's reference kernel computes it:
 * the squares summed in float in channel order, the power taken in float.
 * Parameters that make the base negative give NaN, as in TFLite.
 *
 * Version range: TFLite has only version 1.
 */
#include <math.h>

#include "kernels.h"
#include "node_checks.h"

typedef struct local_response_norm_data {
	opver_local_response_norm_params params;
	ref_rows rows; /* [pixels, channels] */
} local_response_norm_data;

static opver_status local_response_norm_prepare(const opver_context *ctx,
						opver_node *node)
{
	local_response_norm_data *data = node->op_data;
	opver_local_response_norm_params params =
		OPVER_LOCAL_RESPONSE_NORM_PARAMS_DEFAULTS;
	opver_status status;

	status = ref_check_rows(ctx, node, OPVER_TYPE_FLOAT32,
				OPVER_TYPE_FLOAT32,
				"LOCAL_RESPONSE_NORMALIZATION", &data->rows);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "input", node->inputs[0], 4);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	data->params = params;
	return OPVER_OK;
}

static opver_status local_response_norm_invoke(const opver_context *ctx,
					       opver_node *node)
{
	const local_response_norm_data *d = node->op_data;
	const int64_t depth = (int64_t)d->rows.depth;
	const int64_t radius = d->params.radius;
	const float *in = node->inputs[0]->data;
	float *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t r = 0; r < d->rows.rows; r++, in += depth, out += depth)
		for (int64_t c = 0; c < depth; c++) {
			const int64_t begin = c - radius > 0 ? c - radius : 0;
			const int64_t end = c + radius + 1 < depth
						    ? c + radius + 1
						    : depth;
			float sum = 0.0f;

			for (int64_t k = begin; k < end; k++)
				sum += in[k] * in[k];
			out[c] = in[c] * powf(d->params.bias +
						      d->params.alpha * sum,
					      -d->params.beta);
		}
	return OPVER_OK;
}

const opver_kernel ref_local_response_norm = {
	OPVER_KERNEL("local_response_norm", LOCAL_RESPONSE_NORMALIZATION, 1,
		     1),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(FLOAT32, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(local_response_norm_data),
	.prepare = local_response_norm_prepare,
	.invoke = local_response_norm_invoke,
};
