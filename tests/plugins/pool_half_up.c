/*
 * pool_half_up.c - a deliberately wrong vendor plugin for
 * opver-conformance: its int8 AVERAGE_POOL_2D (versions 1-3) averages each
 * window over the input elements it covers, with TFLite's padding and
 * clamps, but rounds the average as TFLite rounds uint8 sums, adding half
 * the count and flooring: half up rather than half away from zero.  Only
 * an average of a negative sum that lies exactly on a tie comes out one
 * step high (-2.5 gives -2, not -3).
 */
#include <stddef.h>

#include "common.h"
#include "tools/conformance/requant.h"

typedef struct pool {
	int32_t top, left, stride_h, stride_w, filter_h, filter_w, min, max;
} pool;

/* The padding TFLite puts before the input: half the SAME total, the odd
 * unit after. */
static int32_t before(int32_t padding, int32_t in, int32_t out,
		      int32_t stride, int32_t filter)
{
	const int32_t total = (out - 1) * stride + filter - in;

	return padding == OPVER_PADDING_SAME && total > 0 ? total / 2 : 0;
}

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	opver_pool_params p = OPVER_POOL_PARAMS_DEFAULTS;
	const opver_tensor *in, *out;
	pool *g = node->op_data;

	if (node->params == NULL || node->num_inputs != 1 ||
	    node->num_outputs != 1 || node->inputs[0]->rank != 4 ||
	    node->outputs[0]->rank != 4 ||
	    node->outputs[0]->quant.count != 1) {
		OPVER_REPORT(ctx, "pool_half_up: unexpected node");
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &p, sizeof(p));
	in = node->inputs[0];
	out = node->outputs[0];
	if (p.stride_height < 1 || p.stride_width < 1 ||
	    p.filter_height < 1 || p.filter_width < 1 ||
	    out->dims[0] != in->dims[0] || out->dims[3] != in->dims[3]) {
		OPVER_REPORT(ctx, "pool_half_up: unexpected parameters");
		return OPVER_ERROR_INVALID_MODEL;
	}
	g->top = before(p.padding, in->dims[1], out->dims[1], p.stride_height,
			p.filter_height);
	g->left = before(p.padding, in->dims[2], out->dims[2], p.stride_width,
			 p.filter_width);
	g->stride_h = p.stride_height;
	g->stride_w = p.stride_width;
	g->filter_h = p.filter_height;
	g->filter_w = p.filter_width;
	rq_activation(p.activation, out->quant.scale[0],
		      (int32_t)out->quant.zero_point[0], INT8_MIN, INT8_MAX,
		      &g->min, &g->max);
	return OPVER_OK;
}

/* floor(sum / count + 1/2): right for the non-negative sums of uint8, one
 * step high on a negative tie. */
static int32_t half_up(int32_t sum, int32_t count)
{
	const int32_t shifted = sum + count / 2;
	const int32_t quotient = shifted / count;

	return shifted % count != 0 && shifted < 0 ? quotient - 1 : quotient;
}

static opver_status invoke(const opver_context *ctx, opver_node *node)
{
	const pool *g = node->op_data;
	const opver_tensor *in = node->inputs[0], *out = node->outputs[0];
	const int8_t *x = in->data;
	int8_t *y = out->data;
	const int32_t h = in->dims[1], w = in->dims[2], depth = in->dims[3];

	(void)ctx;
	for (int32_t b = 0; b < out->dims[0]; b++)
	for (int32_t oy = 0; oy < out->dims[1]; oy++)
	for (int32_t ox = 0; ox < out->dims[2]; ox++)
	for (int32_t ch = 0; ch < depth; ch++) {
		const int32_t y0 = oy * g->stride_h - g->top;
		const int32_t x0 = ox * g->stride_w - g->left;
		int32_t sum = 0, count = 0;

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
		  (size_t)ch] = (int8_t)rq_clamp(
			count ? half_up(sum, count) : 0, g->min, g->max);
	}
	return OPVER_OK;
}

static const opver_type_signature int8[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT8)),
			OPVER_OUTPUT(OPVER_T(INT8))),
};

static const opver_kernel average_pool = {
	OPVER_KERNEL("pool_half_up_int8", AVERAGE_POOL_2D, 1, 3),
	OPVER_KERNEL_SIGNATURES(int8),
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(pool),
	.prepare = prepare,
	.invoke = invoke,
};

static const opver_kernel *const kernels[] = { &average_pool };

TEST_PLUGIN("pool_half_up", kernels)
