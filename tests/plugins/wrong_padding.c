/*
 * wrong_padding.c - a deliberately wrong vendor plugin for
 * opver-conformance: its float32 AVERAGE_POOL_2D kernel (version 1)
 * averages each window over the input pixels it covers and applies the
 * clamp activations as TFLite does, except that when SAME padding's total
 * along an axis is odd it puts the odd row or column before the input
 * (top, left) instead of after it (bottom, right).  Cases whose padding
 * totals are even, and VALID ones, pass; the others fail.
 */
#include <math.h>
#include <stddef.h>

#include "common.h"

typedef struct geometry {
	int32_t pad_top, pad_left, stride_h, stride_w, filter_h, filter_w;
	float min, max;
} geometry;

/* The padding before the first row or column, the odd unit of an odd
 * total there too: the bug. */
static int32_t padding_before(int32_t padding, int32_t in, int32_t out,
			      int32_t stride, int32_t filter)
{
	int32_t total = (out - 1) * stride + filter - in;

	return padding == OPVER_PADDING_SAME && total > 0 ? (total + 1) / 2 :
							    0;
}

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	opver_pool_params p = OPVER_POOL_PARAMS_DEFAULTS;
	const opver_tensor *in, *out;
	geometry *g = node->op_data;

	if (node->params == NULL || node->num_inputs != 1 ||
	    node->num_outputs != 1 || node->inputs[0]->rank != 4 ||
	    node->outputs[0]->rank != 4) {
		OPVER_REPORT(ctx, "wrong_padding: unexpected node");
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &p, sizeof(p));
	in = node->inputs[0];
	out = node->outputs[0];
	if (p.stride_height < 1 || p.stride_width < 1 ||
	    p.filter_height < 1 || p.filter_width < 1 ||
	    out->dims[0] != in->dims[0] || out->dims[3] != in->dims[3]) {
		OPVER_REPORT(ctx, "wrong_padding: unexpected parameters");
		return OPVER_ERROR_INVALID_MODEL;
	}
	g->pad_top = padding_before(p.padding, in->dims[1], out->dims[1],
				    p.stride_height, p.filter_height);
	g->pad_left = padding_before(p.padding, in->dims[2], out->dims[2],
				     p.stride_width, p.filter_width);
	g->min = -INFINITY;
	g->max = INFINITY;
	if (p.activation == OPVER_ACTIVATION_RELU ||
	    p.activation == OPVER_ACTIVATION_RELU6)
		g->min = 0;
	if (p.activation == OPVER_ACTIVATION_RELU6)
		g->max = 6;
	if (p.activation == OPVER_ACTIVATION_RELU_N1_TO_1) {
		g->min = -1;
		g->max = 1;
	}
	g->stride_h = p.stride_height;
	g->stride_w = p.stride_width;
	g->filter_h = p.filter_height;
	g->filter_w = p.filter_width;
	return OPVER_OK;
}

static opver_status invoke(const opver_context *ctx, opver_node *node)
{
	const geometry *g = node->op_data;
	const opver_tensor *in = node->inputs[0], *out = node->outputs[0];
	const float *x = in->data;
	float *y = out->data;
	const int32_t h = in->dims[1], w = in->dims[2], depth = in->dims[3];

	(void)ctx;
	for (int32_t b = 0; b < out->dims[0]; b++)
	for (int32_t oy = 0; oy < out->dims[1]; oy++)
	for (int32_t ox = 0; ox < out->dims[2]; ox++)
	for (int32_t ch = 0; ch < depth; ch++) {
		int32_t y0 = oy * g->stride_h - g->pad_top;
		int32_t x0 = ox * g->stride_w - g->pad_left;
		float sum = 0;
		int32_t count = 0;

		for (int32_t iy = y0; iy < y0 + g->filter_h; iy++)
			for (int32_t ix = x0; ix < x0 + g->filter_w; ix++) {
				if (iy < 0 || iy >= h || ix < 0 || ix >= w)
					continue;
				sum += x[(((size_t)b * (size_t)h + (size_t)iy) *
					  (size_t)w + (size_t)ix) *
					 (size_t)depth + (size_t)ch];
				count++;
			}
		y[(((size_t)b * (size_t)out->dims[1] + (size_t)oy) *
		   (size_t)out->dims[2] + (size_t)ox) * (size_t)depth +
		  (size_t)ch] = fminf(fmaxf(count ? sum / (float)count : 0,
					    g->min), g->max);
	}
	return OPVER_OK;
}

static const opver_type_signature float32[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel average_pool = {
	OPVER_KERNEL("wrong_padding_float32", AVERAGE_POOL_2D, 1, 1),
	OPVER_KERNEL_SIGNATURES(float32),
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(geometry),
	.prepare = prepare,
	.invoke = invoke,
};

static const opver_kernel *const kernels[] = { &average_pool };

TEST_PLUGIN("wrong_padding", kernels)
