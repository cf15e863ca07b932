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
 * where a kernel may wrongly put it before.  Then the hard variants
 * (cases_hard.h), int8 and uint8 with every activation and both paddings:
 * the zero point at the type's lowest, middle or highest value, scale
 * 2^-4 (RELU6's bound 96 steps up, RELU_N1_TO_1's 16 either way), values
 * over the whole type, the first output's window at the type's lowest
 * value and the last one's at its highest (past every clamp), windows
 * that do not overlap (stride = filter, one side 2), and in AVERAGE_POOL_2D
 * every other window holding an even count of input elements put on a
 * tie of the average, which TFLite rounds half away from zero: positive
 * and negative ones taking turns (uint8's all positive).
 */
#include "cases_hard.h"

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
#define ODD_VARIANTS (NUM_TYPES * CF_NUM_ACTIVATIONS)
/* int8 and uint8, every activation, SAME and VALID. */
#define HARD_VARIANTS (2 * CF_NUM_ACTIVATIONS * 2)

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

/* The input elements (offsets into the NHWC input `in`) of channel ch of
 * output pixel (b, oy, ox) inside the input; returns how many (at most 9:
 * windows are 3 x 3 at most). */
static size_t window_elements(const cf_tensor_desc *in,
			      const opver_pool_params *p, int32_t top,
			      int32_t left, int32_t b, int32_t oy, int32_t ox,
			      int32_t ch, size_t elements[9])
{
	const int32_t y0 = oy * p->stride_height - top;
	const int32_t x0 = ox * p->stride_width - left;
	size_t n = 0;

	for (int32_t y = y0 < 0 ? 0 : y0;
	     y < y0 + p->filter_height && y < in->dims[1]; y++)
		for (int32_t x = x0 < 0 ? 0 : x0;
		     x < x0 + p->filter_width && x < in->dims[2]; x++)
			elements[n++] =
				(((size_t)b * (size_t)in->dims[1] + (size_t)y) *
					 (size_t)in->dims[2] +
				 (size_t)x) * (size_t)in->dims[3] + (size_t)ch;
	return n;
}

/* The sign of the tie planted in output pixel i's channel ch: int8's
 * take turns, uint8's sums are never negative. */
static int32_t alternate_sign(opver_type type, size_t i, int32_t ch)
{
	if (type == OPVER_TYPE_UINT8)
		return 1;
	return (i + (size_t)ch) % 2 ? -1 : 1;
}

/* The first output pixel's window at the type's lowest value and the
 * last one's at its highest, in every channel; in AVERAGE_POOL_2D every
 * other window with an even count of elements on a tie. */
static void plant_hard(cf_case *c, int32_t input, int32_t output)
{
	const cf_tensor_desc *in = &c->tensors[input];
	const cf_tensor_desc *out = &c->tensors[output];
	const opver_pool_params *p = &c->params.pool;
	const int32_t top = cf_padding_before(in->dims[1], p->filter_height,
					      p->stride_height, 1, p->padding);
	const int32_t left = cf_padding_before(in->dims[2], p->filter_width,
					       p->stride_width, 1, p->padding);
	const size_t pixels = cf_tensor_elements(out) / (size_t)out->dims[3];
	size_t elements[9];

	for (size_t i = 0; i < pixels; i++) {
		const int32_t ox = (int32_t)(i % (size_t)out->dims[2]);
		const int32_t oy = (int32_t)(i / (size_t)out->dims[2] %
					     (size_t)out->dims[1]);
		const int32_t b = (int32_t)(i / (size_t)out->dims[2] /
					    (size_t)out->dims[1]);

		for (int32_t ch = 0; ch < in->dims[3]; ch++) {
			const size_t n = window_elements(in, p, top, left, b,
							 oy, ox, ch, elements);

			if (i == 0 || i == pixels - 1)
				cf_hard_set_group(c, input, elements, n, i != 0);
			else if (n % 2 == 0 &&
				 c->op == OPVER_OP_AVERAGE_POOL_2D)
				cf_hard_plant_tie(
					c, input, elements, n, 0, (int64_t)n,
					alternate_sign(in->type, i, ch));
		}
	}
}

/* Hard variant v (see the top of the file). */
static bool generate_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const opver_type type = v % 2 ? OPVER_TYPE_UINT8 : OPVER_TYPE_INT8;
	const opver_activation activation = cf_activation(v / 2 %
							  CF_NUM_ACTIVATIONS);
	const opver_padding padding = v / (2 * CF_NUM_ACTIVATIONS) ?
					      OPVER_PADDING_VALID :
					      OPVER_PADDING_SAME;
	opver_pool_params *p = &c->params.pool;
	int32_t in_dims[4], out_dims[4], input, output, zero_point, other;
	cf_hard hard;
	float scale;

	cf_hard_draw(&hard, CF_SPOT_TIES, rng);
	other = cf_rng_int(rng, 1, 3);
	*p = (opver_pool_params){
		.padding = padding,
		.activation = activation,
	};
	/* One side of 2, so that whole windows hold an even count. */
	if (cf_rng_int(rng, 0, 1)) {
		p->filter_height = 2;
		p->filter_width = other;
	} else {
		p->filter_height = other;
		p->filter_width = 2;
	}
	p->stride_height = p->filter_height;
	p->stride_width = p->filter_width;
	c->has_params = true;
	in_dims[0] = cf_rng_int(rng, 1, 2);
	/* Two windows each way at least: four outputs, two of them between
	 * the first and the last, whose windows take ties. */
	in_dims[1] = cf_rng_int(rng, 2 * p->filter_height, 7);
	in_dims[2] = cf_rng_int(rng, 2 * p->filter_width, 7);
	in_dims[3] = cf_rng_int(rng, 2, 6);
	out_dims[0] = in_dims[0];
	out_dims[1] = cf_window_output(in_dims[1], p->filter_height,
				       p->stride_height, 1, padding);
	out_dims[2] = cf_window_output(in_dims[2], p->filter_width,
				       p->stride_width, 1, padding);
	out_dims[3] = in_dims[3];
	input = cf_case_tensor(c, type, 4, in_dims);
	output = cf_case_tensor(c, type, 4, out_dims);
	cf_case_input(c, input);
	c->output = output;
	scale = cf_hard_input_scale(&hard, 0, 0x1p-4f);
	zero_point = cf_hard_zero_point(&hard, CF_HARD_INPUT, type, rng);
	if (!cf_case_quantize(c, input, scale, zero_point) ||
	    !cf_case_quantize(c, output, scale, zero_point) ||
	    !cf_hard_fill(c, input, rng, INT8_MAX, false))
		return false;
	plant_hard(c, input, output);
	cf_case_param(c, "padding=%s stride=%dx%d filter=%dx%d activation=%s "
			 "zero_point=%s hard",
		      cf_padding_name(padding), p->stride_width,
		      p->stride_height, p->filter_width, p->filter_height,
		      cf_activation_name(activation),
		      cf_hard_side_name(&hard, CF_HARD_INPUT));
	return true;
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

	if (variant >= PLAIN_VARIANTS + ODD_VARIANTS)
		return generate_hard(variant - PLAIN_VARIANTS - ODD_VARIANTS,
				     rng, c);

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
	.num_variants = PLAIN_VARIANTS + ODD_VARIANTS + HARD_VARIANTS,
	.generate = generate,
};

const cf_generator cf_max_pool_2d_cases = {
	.op = OPVER_OP_MAX_POOL_2D,
	.num_variants = PLAIN_VARIANTS + ODD_VARIANTS + HARD_VARIANTS,
	.generate = generate,
};
