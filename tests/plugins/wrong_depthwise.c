/*
 * wrong_depthwise.c - a deliberately wrong vendor plugin for
 * opver-conformance: its float32 DEPTHWISE_CONV_2D kernel declares
 * versions 1-2, but version 2's feature, dilation, is ignored: every
 * filter tap is read as if the dilation were 1, and the padding is
 * computed for the undilated filter.  Strides, padding, the depth
 * multiplier, the bias and the clamp activations are computed as TFLite
 * does, so every case with dilation 1 is right and every dilated one is
 * not.  It takes the output's shape from the output tensor, so a dilated
 * node still prepares and the error shows in the values.
 */
#include <math.h>
#include <stddef.h>

#include "common.h"

typedef struct geometry {
	int32_t batches, in_height, in_width, depth, multiplier;
	int32_t filter_height, filter_width, out_height, out_width;
	int32_t stride_height, stride_width, pad_top, pad_left;
	float min, max;
} geometry;

/* TFLite's padding before the first row or column, for a filter of
 * `filter` taps -- here always the undilated one. */
static int32_t padding_before(int32_t padding, int32_t in, int32_t out,
			      int32_t stride, int32_t filter)
{
	int32_t total = (out - 1) * stride + filter - in;

	return padding == OPVER_PADDING_SAME && total > 0 ? total / 2 : 0;
}

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	opver_depthwise_conv_params p = OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS;
	const opver_depthwise_conv_params *params = &p;
	const opver_tensor *in, *filter, *out;
	geometry *g = node->op_data;

	if (node->params == NULL || node->num_inputs < 2 ||
	    node->num_outputs != 1) {
		OPVER_REPORT(ctx, "wrong_depthwise: unexpected node");
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &p, sizeof(p));
	in = node->inputs[0];
	filter = node->inputs[1];
	out = node->outputs[0];
	*g = (geometry){
		.batches = in->dims[0],
		.in_height = in->dims[1],
		.in_width = in->dims[2],
		.depth = in->dims[3],
		.multiplier = filter->dims[3] / in->dims[3],
		.filter_height = filter->dims[1],
		.filter_width = filter->dims[2],
		.out_height = out->dims[1],
		.out_width = out->dims[2],
		.stride_height = params->stride_height,
		.stride_width = params->stride_width,
		.min = -INFINITY,
		.max = INFINITY,
	};
	g->pad_top = padding_before(params->padding, g->in_height,
				    g->out_height, g->stride_height,
				    g->filter_height);
	g->pad_left = padding_before(params->padding, g->in_width, g->out_width,
				     g->stride_width, g->filter_width);
	if (params->activation == OPVER_ACTIVATION_RELU ||
	    params->activation == OPVER_ACTIVATION_RELU6)
		g->min = 0;
	if (params->activation == OPVER_ACTIVATION_RELU6)
		g->max = 6;
	if (params->activation == OPVER_ACTIVATION_RELU_N1_TO_1) {
		g->min = -1;
		g->max = 1;
	}
	return OPVER_OK;
}

static opver_status invoke(const opver_context *ctx, opver_node *node)
{
	const geometry *g = node->op_data;
	const float *x = node->inputs[0]->data;
	const float *w = node->inputs[1]->data;
	const float *bias = node->num_inputs > 2 && node->inputs[2] != NULL ?
				    node->inputs[2]->data :
				    NULL;
	float *y = node->outputs[0]->data;
	int32_t channels = g->depth * g->multiplier;

	(void)ctx;
	for (int32_t b = 0; b < g->batches; b++)
	for (int32_t oy = 0; oy < g->out_height; oy++)
	for (int32_t ox = 0; ox < g->out_width; ox++)
	for (int32_t oc = 0; oc < channels; oc++) {
		int32_t c = oc / g->multiplier;
		float sum = 0;

		for (int32_t ky = 0; ky < g->filter_height; ky++) {
			/* The bug: ky, not ky * dilation_height. */
			int32_t iy = oy * g->stride_height - g->pad_top + ky;

			if (iy < 0 || iy >= g->in_height)
				continue;
			for (int32_t kx = 0; kx < g->filter_width; kx++) {
				int32_t ix = ox * g->stride_width -
					     g->pad_left + kx;

				if (ix < 0 || ix >= g->in_width)
					continue;
				sum += x[((b * g->in_height + iy) * g->in_width +
					  ix) * g->depth + c] *
				       w[(ky * g->filter_width + kx) * channels +
					 oc];
			}
		}
		if (bias != NULL)
			sum += bias[oc];
		y[((b * g->out_height + oy) * g->out_width + ox) * channels +
		  oc] = fminf(fmaxf(sum, g->min), g->max);
	}
	return OPVER_OK;
}

static const opver_type_signature float32[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32),
				     OPVER_T(FLOAT32) | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel depthwise = {
	OPVER_KERNEL("wrong_depthwise_float32", DEPTHWISE_CONV_2D, 1, 2),
	OPVER_KERNEL_SIGNATURES(float32),
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(geometry),
	.prepare = prepare,
	.invoke = invoke,
};

static const opver_kernel *const kernels[] = { &depthwise };

TEST_PLUGIN("wrong_depthwise", kernels)
