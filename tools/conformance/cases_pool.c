/*
 * cases_pool.c - AVERAGE_POOL_2D and MAX_POOL_2D cases.
 *
 * Variants cross the types (float32 v1, int8 v2, int16 v3, uint8 v1) with
 * the padding and the clamp activations.  Each case draws the batch (1-2),
 * the spatial sizes (1-9, large enough for the window with VALID), the
 * window (1-3 each way), the strides (1-3), the channels (2-8) and the
 * data.  Float cases reach past both bounds of every clamp activation.  Quantized pooling keeps the input's quantization, so input and
 * output share scale and zero point (0 for int16).  Last come the odd
 * SAME variants, every type with every activation, whose padding totals
 * are odd along both axes: TFLite puts the odd unit after the input,
 * where a kernel may wrongly put it before.
 */
#include "cases.h"

enum { FLOAT32, INT8, INT16, UINT8, NUM_TYPES };

/* Float cases: fills the window of output pixel 0 with 8 in the first
 * channel and -8 in the last, the ends of the data's range: that pixel's
 * average and maximum are then 8 and -8. */
static void plant_extremes(cf_case *c, int32_t input,
			   const opver_pool_params *p)
{
	const cf_tensor_desc *in = &c->tensors[input];
	int32_t h = in->dims[1], w = in->dims[2], channels = in->dims[3];
	int32_t top = cf_padding_before(h, p->filter_height, p->stride_height,
					1, p->padding);
	int32_t left = cf_padding_before(w, p->filter_width, p->stride_width,
					 1, p->padding);
	float *x = c->values[input];

	/* The window starts at -top, -left: padding, not input. */
	for (int32_t iy = 0; iy < p->filter_height - top && iy < h; iy++)
		for (int32_t ix = 0; ix < p->filter_width - left && ix < w;
		     ix++) {
			float *pixel = x + ((size_t)iy * (size_t)w +
					    (size_t)ix) * (size_t)channels;

			pixel[0] = 8;
			pixel[channels - 1] = -8;
		}
}

#define PLAIN_VARIANTS (NUM_TYPES * 2 * CF_NUM_ACTIVATIONS)

/* One axis of an odd SAME variant: window, stride and input size redrawn
 * until SAME pads an odd total; a window of 2 at stride 1 pads 1. */
static void draw_odd_axis(cf_rng *rng, int32_t *filter, int32_t *stride,
			  int32_t *in)
{
	for (int tries = 0; tries < 16; tries++) {
		int32_t total;

		*filter = cf_rng_int(rng, 1, 3);
		*stride = cf_rng_int(rng, 1, 3);
		*in = cf_rng_int(rng, 1, 9);
		total = (cf_window_output(*in, *filter, *stride, 1,
					  OPVER_PADDING_SAME) - 1) * *stride +
			*filter - *in;
		if (total > 0 && total % 2 == 1)
			return;
	}
	*filter = 2;
	*stride = 1;
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	int32_t kind, rest;
	opver_padding padding;
	opver_activation activation;
	static const opver_type types[NUM_TYPES] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_INT16,
		OPVER_TYPE_UINT8,
	};
	opver_pool_params *p = &c->params.pool;
	int32_t in_dims[4], out_dims[4], input, output;
	float scale;
	int64_t zero_point;

	const bool odd = variant >= PLAIN_VARIANTS;

	if (odd) {
		/* SAME (rest even), every type with every activation. */
		kind = (variant - PLAIN_VARIANTS) % NUM_TYPES;
		rest = 2 * ((variant - PLAIN_VARIANTS) / NUM_TYPES);
	} else {
		/* uint8 came last: the variants before it are as they
		 * were. */
		cf_variant_split(variant, UINT8, NUM_TYPES,
				 2 * CF_NUM_ACTIVATIONS, &kind, &rest);
	}
	padding = rest % 2 ? OPVER_PADDING_VALID : OPVER_PADDING_SAME;
	activation = cf_activation(rest / 2);
	*p = (opver_pool_params){
		.padding = padding,
		.stride_width = cf_rng_int(rng, 1, 3),
		.stride_height = cf_rng_int(rng, 1, 3),
		.filter_width = cf_rng_int(rng, 1, 3),
		.filter_height = cf_rng_int(rng, 1, 3),
		.activation = activation,
	};
	c->has_params = true;
	in_dims[0] = cf_rng_int(rng, 1, 2);
	in_dims[1] = cf_rng_int(rng, padding == OPVER_PADDING_VALID ?
					     p->filter_height : 1, 9);
	in_dims[2] = cf_rng_int(rng, padding == OPVER_PADDING_VALID ?
					     p->filter_width : 1, 9);
	if (odd) {
		draw_odd_axis(rng, &p->filter_height, &p->stride_height,
			      &in_dims[1]);
		draw_odd_axis(rng, &p->filter_width, &p->stride_width,
			      &in_dims[2]);
	}
	in_dims[3] = cf_rng_int(rng, 2, 8);
	out_dims[0] = in_dims[0];
	out_dims[1] = cf_window_output(in_dims[1], p->filter_height,
				       p->stride_height, 1, padding);
	out_dims[2] = cf_window_output(in_dims[2], p->filter_width,
				       p->stride_width, 1, padding);
	out_dims[3] = in_dims[3];
	input = cf_case_tensor(c, types[kind], 4, in_dims);
	output = cf_case_tensor(c, types[kind], 4, out_dims);
	cf_case_input(c, input);
	c->output = output;
	if (kind != FLOAT32) {
		scale = kind == INT16 ? cf_rng_float(rng, 1e-4f, 1e-3f) :
					cf_rng_float(rng, 0.01f, 0.1f);
		zero_point = kind == INT8  ? cf_rng_int(rng, -20, 20) :
			     kind == UINT8 ? cf_rng_int(rng, 108, 148) :
					     0;
		if (!cf_case_quantize(c, input, scale, zero_point) ||
		    !cf_case_quantize(c, output, scale, zero_point))
			return false;
	}
	if (!(kind == FLOAT32 ? cf_case_fill(c, input, rng, -8, 8, false) :
	      kind == INT8 ? cf_case_fill(c, input, rng, -128, 127, false) :
	      kind == UINT8 ? cf_case_fill(c, input, rng, 0, 255, false) :
			     cf_case_fill(c, input, rng, -32768, 32767, false)))
		return false;
	if (kind == FLOAT32)
		plant_extremes(c, input, p);
	cf_case_param(c, "padding=%s stride=%dx%d filter=%dx%d activation=%s",
		      cf_padding_name(padding), p->stride_width,
		      p->stride_height, p->filter_width, p->filter_height,
		      cf_activation_name(activation));
	return true;
}

const cf_generator cf_average_pool_2d_cases = {
	.op = OPVER_OP_AVERAGE_POOL_2D,
	.num_variants = PLAIN_VARIANTS + NUM_TYPES * CF_NUM_ACTIVATIONS,
	.generate = generate,
};

const cf_generator cf_max_pool_2d_cases = {
	.op = OPVER_OP_MAX_POOL_2D,
	.num_variants = PLAIN_VARIANTS + NUM_TYPES * CF_NUM_ACTIVATIONS,
	.generate = generate,
};
