/*
 * test_case_ranges.c - the conformance cases reach past both bounds of
 * every clamp activation: a kernel clamping RELU6 at 5, or RELU_N1_TO_1
 * at 0.9, must give a wrong output in some element of every case that
 * applies the clamp.  Computes the outputs of the float FULLY_CONNECTED,
 * CONV_2D, DEPTHWISE_CONV_2D and pooling cases before activation here,
 * straight from their definition (hybrid weights dequantized), for every
 * variant and many seeds.  ADD and MUL are proved by tests/plugins/wrong_relu6 in
 * test_conformance.c.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "conformance/cases.h"

#define SEEDS 50

/* Element i of a float or int8 weight tensor as a real number. */
static float weight(const cf_tensor_desc *w, size_t i, int32_t channel)
{
	if (w->type == OPVER_TYPE_FLOAT32)
		return ((const float *)w->data)[i];
	return (float)((const int8_t *)w->data)[i] *
	       w->scales[w->num_scales > 1 ? channel : 0];
}

static const float *bias_of(const cf_case *c)
{
	return c->num_inputs > 2 && c->inputs[2] >= 0 ?
		       c->tensors[c->inputs[2]].data :
		       NULL;
}

typedef struct range {
	float lo, hi;
	long reads;     /* input elements read, over all outputs */
} range;

static void widen(range *r, float value)
{
	r->lo = fminf(r->lo, value);
	r->hi = fmaxf(r->hi, value);
}

/* The outputs before activation of a float or hybrid FULLY_CONNECTED
 * case. */
static range fc_range(const cf_case *c)
{
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];
	const float *x = c->values[c->inputs[0]];
	const float *bias = bias_of(c);
	int32_t units = w->dims[0], depth = w->dims[1], rows = 1;
	range r = { INFINITY, -INFINITY, 0 };

	for (int32_t d = 0; d + 1 < in->rank; d++)
		rows *= in->dims[d];
	for (int32_t row = 0; row < rows; row++) {
		for (int32_t u = 0; u < units; u++) {
			float sum = bias != NULL ? bias[u] : 0;

			r.reads += depth;
			for (int32_t d = 0; d < depth; d++)
				sum += x[row * depth + d] *
				       weight(w, (size_t)u * (size_t)depth +
							 (size_t)d,
					      u);
			widen(&r, sum);
		}
	}
	return r;
}

/* Padding before the first row or column, as TFLite computes it. */
static int32_t padding_before(opver_padding padding, int32_t in,
			      int32_t out, int32_t stride, int32_t filter,
			      int32_t dilation)
{
	int32_t total = (out - 1) * stride + (filter - 1) * dilation + 1 - in;

	return padding == OPVER_PADDING_SAME && total > 0 ? total / 2 : 0;
}

/*
 * The outputs before activation of a convolution over an NHWC input with
 * filter taps w(oc, ky, kx, ic) for output channel oc and input channel
 * ic (in_channel(oc) + j for j < depth).
 */
typedef struct conv_shape {
	const cf_case *c;
	int32_t stride_h, stride_w, dilation_h, dilation_w;
	opver_padding padding;
	int32_t out_channels, depth, kh, kw;
	int32_t (*in_channel)(const struct conv_shape *s, int32_t oc);
	float (*tap)(const struct conv_shape *s, int32_t oc, int32_t ky,
		     int32_t kx, int32_t j);
	int32_t per_group;      /* conv: filters per group; dw: multiplier */
} conv_shape;

static range conv_range(const conv_shape *s)
{
	const cf_tensor_desc *in = &s->c->tensors[s->c->inputs[0]];
	const float *x = s->c->values[s->c->inputs[0]];
	const float *bias = bias_of(s->c);
	int32_t h = in->dims[1], w = in->dims[2], ch = in->dims[3];
	int32_t oh = cf_window_output(h, s->kh, s->stride_h, s->dilation_h,
				      s->padding);
	int32_t ow = cf_window_output(w, s->kw, s->stride_w, s->dilation_w,
				      s->padding);
	int32_t top = padding_before(s->padding, h, oh, s->stride_h, s->kh,
				     s->dilation_h);
	int32_t left = padding_before(s->padding, w, ow, s->stride_w, s->kw,
				      s->dilation_w);
	range r = { INFINITY, -INFINITY, 0 };

	for (int32_t b = 0; b < in->dims[0]; b++)
	for (int32_t oy = 0; oy < oh; oy++)
	for (int32_t ox = 0; ox < ow; ox++)
	for (int32_t oc = 0; oc < s->out_channels; oc++) {
		float sum = bias != NULL ? bias[oc] : 0;

		for (int32_t ky = 0; ky < s->kh; ky++)
		for (int32_t kx = 0; kx < s->kw; kx++) {
			int32_t iy = oy * s->stride_h - top + ky * s->dilation_h;
			int32_t ix = ox * s->stride_w - left + kx * s->dilation_w;

			if (iy < 0 || iy >= h || ix < 0 || ix >= w)
				continue;
			r.reads += s->depth;
			for (int32_t j = 0; j < s->depth; j++)
				sum += x[((b * h + iy) * w + ix) * ch +
					 s->in_channel(s, oc) + j] *
				       s->tap(s, oc, ky, kx, j);
		}
		widen(&r, sum);
	}
	return r;
}

static int32_t conv_in_channel(const conv_shape *s, int32_t oc)
{
	return oc / s->per_group * s->depth;
}

static float conv_tap(const conv_shape *s, int32_t oc, int32_t ky,
		      int32_t kx, int32_t j)
{
	const cf_tensor_desc *w = &s->c->tensors[s->c->inputs[1]];

	return weight(w, (((size_t)oc * (size_t)s->kh + (size_t)ky) *
				  (size_t)s->kw + (size_t)kx) *
				 (size_t)s->depth + (size_t)j,
		      oc);
}

static range conv_2d_range(const cf_case *c)
{
	const opver_conv_params *p = &c->params.conv;
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];
	int32_t groups = in->dims[3] / w->dims[3];
	conv_shape s = {
		.c = c, .stride_h = p->stride_height, .stride_w = p->stride_width,
		.dilation_h = p->dilation_height, .dilation_w = p->dilation_width,
		.padding = p->padding, .out_channels = w->dims[0],
		.depth = w->dims[3], .kh = w->dims[1], .kw = w->dims[2],
		.in_channel = conv_in_channel, .tap = conv_tap,
		.per_group = w->dims[0] / groups,
	};

	return conv_range(&s);
}

static int32_t dw_in_channel(const conv_shape *s, int32_t oc)
{
	return oc / s->per_group;
}

static float dw_tap(const conv_shape *s, int32_t oc, int32_t ky, int32_t kx,
		    int32_t j)
{
	const cf_tensor_desc *w = &s->c->tensors[s->c->inputs[1]];

	(void)j;
	return weight(w, ((size_t)ky * (size_t)s->kw + (size_t)kx) *
				 (size_t)s->out_channels + (size_t)oc,
		      oc);
}

static range depthwise_range(const cf_case *c)
{
	const opver_depthwise_conv_params *p = &c->params.depthwise;
	const cf_tensor_desc *w = &c->tensors[c->inputs[1]];
	conv_shape s = {
		.c = c, .stride_h = p->stride_height, .stride_w = p->stride_width,
		.dilation_h = p->dilation_height, .dilation_w = p->dilation_width,
		.padding = p->padding, .out_channels = w->dims[3], .depth = 1,
		.kh = w->dims[1], .kw = w->dims[2], .in_channel = dw_in_channel,
		.tap = dw_tap, .per_group = p->depth_multiplier,
	};

	return conv_range(&s);
}

/* The outputs before activation of a float AVERAGE_POOL_2D or MAX_POOL_2D
 * case: the average or the maximum of the window's inputs (padding left
 * out). */
static range pool_range(const cf_case *c)
{
	const opver_pool_params *p = &c->params.pool;
	const cf_tensor_desc *in = &c->tensors[c->inputs[0]];
	const float *x = c->values[c->inputs[0]];
	bool max = c->op == OPVER_OP_MAX_POOL_2D;
	int32_t h = in->dims[1], w = in->dims[2], ch = in->dims[3];
	int32_t oh = cf_window_output(h, p->filter_height, p->stride_height,
				      1, p->padding);
	int32_t ow = cf_window_output(w, p->filter_width, p->stride_width, 1,
				      p->padding);
	int32_t top = padding_before(p->padding, h, oh, p->stride_height,
				     p->filter_height, 1);
	int32_t left = padding_before(p->padding, w, ow, p->stride_width,
				      p->filter_width, 1);
	range r = { INFINITY, -INFINITY, 0 };

	for (int32_t b = 0; b < in->dims[0]; b++)
	for (int32_t oy = 0; oy < oh; oy++)
	for (int32_t ox = 0; ox < ow; ox++)
	for (int32_t oc = 0; oc < ch; oc++) {
		float value = max ? -INFINITY : 0;
		int32_t count = 0;

		for (int32_t ky = 0; ky < p->filter_height; ky++)
		for (int32_t kx = 0; kx < p->filter_width; kx++) {
			int32_t iy = oy * p->stride_height - top + ky;
			int32_t ix = ox * p->stride_width - left + kx;
			float v;

			if (iy < 0 || iy >= h || ix < 0 || ix >= w)
				continue;
			v = x[((b * h + iy) * w + ix) * ch + oc];
			value = max ? fmaxf(value, v) : value + v;
			count++;
		}
		r.reads += count;
		if (count > 0)
			widen(&r, max ? value : value / (float)count);
	}
	return r;
}

/* Every case of `op` with a float input, over SEEDS seeds, has outputs
 * below -1 and above 6 before its activation; but for a window that
 * misses the input entirely: its outputs are its bias alone. */
static void check_op(int32_t op, range (*outputs)(const cf_case *c))
{
	const cf_generator *g = cf_generator_for(op);
	int checked = 0;

	cr_assert_not_null(g);
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		for (int32_t variant = 0; variant < g->num_variants; variant++) {
			cf_case c;
			cf_rng rng;
			range r;

			cf_rng_seed(&rng, cf_seed_mix(seed, (uint64_t)variant));
			cf_case_init(&c, g->op);
			cr_assert(g->generate(variant, &rng, &c));
			if (c.tensors[c.inputs[0]].type != OPVER_TYPE_FLOAT32) {
				cf_case_free(&c);
				continue;
			}
			r = outputs(&c);
			if (r.reads == 0) {
				cf_case_free(&c);
				continue;
			}
			cr_assert(r.lo < -1 && r.hi > 6,
				  "%s seed %llu variant %d (%s): outputs in [%g, %g]",
				  opver_op_name(op), (unsigned long long)seed,
				  variant, c.params_text, r.lo, r.hi);
			checked++;
			cf_case_free(&c);
		}
	}
	cr_assert_gt(checked, 0);
}

Test(case_ranges, float_fully_connected_outputs_pass_every_clamp_bound)
{
	check_op(OPVER_OP_FULLY_CONNECTED, fc_range);
}

Test(case_ranges, float_conv_2d_outputs_pass_every_clamp_bound)
{
	check_op(OPVER_OP_CONV_2D, conv_2d_range);
}

Test(case_ranges, float_depthwise_conv_2d_outputs_pass_every_clamp_bound)
{
	check_op(OPVER_OP_DEPTHWISE_CONV_2D, depthwise_range);
}

Test(case_ranges, float_pool_outputs_pass_every_clamp_bound)
{
	check_op(OPVER_OP_AVERAGE_POOL_2D, pool_range);
	check_op(OPVER_OP_MAX_POOL_2D, pool_range);
}
