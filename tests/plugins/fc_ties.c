/*
 * fc_ties.c - a deliberately wrong vendor plugin for opver-conformance:
 * its int8 FULLY_CONNECTED (versions 1-7, weights per tensor or per unit,
 * bias optional) requantizes as TFLite does, except that the final
 * rounding shift sends ties toward zero instead of away from it.  Only an
 * output whose rescale lands exactly on a tie shows it, one step off.
 */
#include <stddef.h>

#include "common.h"
#include "tools/conformance/requant.h"

#define MAX_UNITS 16

typedef struct fc {
	int32_t multiplier[MAX_UNITS];
	int shift[MAX_UNITS];
	int32_t input_offset, filter_offset, output_offset, min, max;
} fc;

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	opver_fully_connected_params params =
		OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS;
	const opver_tensor *in = node->inputs[0], *w = node->inputs[1];
	const opver_tensor *out = node->outputs[0];
	fc *f = node->op_data;
	int32_t units;

	if (node->params == NULL || node->num_inputs < 2 || w->rank != 2 ||
	    w->dims[0] > MAX_UNITS || in->quant.count != 1 ||
	    out->quant.count != 1 || w->quant.count < 1) {
		OPVER_REPORT(ctx, "fc_ties: unexpected node");
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	units = w->dims[0];
	for (int32_t u = 0; u < units; u++) {
		const int32_t s = w->quant.count > 1 ? u : 0;
		/* Per tensor the scales' product is rounded to float first. */
		const double product =
			w->quant.count > 1 ?
				(double)in->quant.scale[0] *
					(double)w->quant.scale[s] :
				(double)(in->quant.scale[0] *
					 w->quant.scale[s]);

		rq_quantize(product / (double)out->quant.scale[0],
			    &f->multiplier[u], &f->shift[u]);
	}
	f->input_offset = -(int32_t)in->quant.zero_point[0];
	f->filter_offset = -(int32_t)w->quant.zero_point[0];
	f->output_offset = (int32_t)out->quant.zero_point[0];
	rq_activation(params.activation, out->quant.scale[0], f->output_offset,
		      INT8_MIN, INT8_MAX, &f->min, &f->max);
	return OPVER_OK;
}

static opver_status invoke(const opver_context *ctx, opver_node *node)
{
	const fc *f = node->op_data;
	const opver_tensor *w = node->inputs[1];
	const opver_tensor *b = node->num_inputs > 2 ? node->inputs[2] : NULL;
	const int8_t *x = node->inputs[0]->data, *weights = w->data;
	const int32_t *bias = b != NULL ? b->data : NULL;
	int8_t *y = node->outputs[0]->data;
	const int32_t units = w->dims[0], depth = w->dims[1];
	const size_t rows = opver_tensor_elements(node->inputs[0]) /
			    (size_t)depth;

	(void)ctx;
	for (size_t r = 0; r < rows; r++) {
		for (int32_t u = 0; u < units; u++) {
			int32_t acc = bias != NULL ? bias[u] : 0;

			for (int32_t d = 0; d < depth; d++)
				acc += (x[r * (size_t)depth + (size_t)d] +
					f->input_offset) *
				       (weights[u * depth + d] +
					f->filter_offset);
			/* The bug: ties toward zero in the final shift. */
			acc = rq_rescale(acc, f->multiplier[u], f->shift[u],
					 true) +
			      f->output_offset;
			y[r * (size_t)units + (size_t)u] =
				(int8_t)rq_clamp(acc, f->min, f->max);
		}
	}
	return OPVER_OK;
}

static const opver_type_signature int8_fc[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT8), OPVER_T(INT8),
				     OPVER_T(INT32) | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(OPVER_T(INT8))),
};

static const opver_kernel fc_int8 = {
	OPVER_KERNEL("fc_ties_int8", FULLY_CONNECTED, 1, 7),
	OPVER_KERNEL_SIGNATURES(int8_fc),
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(fc),
	.prepare = prepare,
	.invoke = invoke,
};

static const opver_kernel *const kernels[] = { &fc_int8 };

TEST_PLUGIN("fc_ties", kernels)
