/*
 * cases_depthwise_conv.c - DEPTHWISE_CONV_2D cases.
 *
 * Variants cross the tensor types (float32; int8 with a per-channel
 * filter; int8 with a per-tensor filter; uint8, TFLite's legacy asymmetric
 * quantization, zero points near 128 everywhere and random bytes for data;
 * int16 activations with an int8 filter per channel or per tensor and an
 * int64 bias, zero points 0) with the dilation, the parameter
 * version 2 added (1x1, 2x1, 1x2, 3x2, width x height), the padding and
 * the clamp activations.  Each case draws the batch, the input size, the
 * filter size (at least 2 along a dilated axis, so that dilation changes
 * the result), strides, the depth multiplier (1-2, over 1-4 input
 * channels; 2 over 1, so that there are 2 output channels or more),
 * whether there is a bias, and the data.  Float cases reach past both
 * bounds of every clamp activation.  The hard variants come last: the
 * integer types at every spot of cases_hard.h, with a bias and 3 output
 * channels or more, dilation, padding and activation taking turns; then
 * the same at the above-one spot.
 */
#include <math.h>

#include "cases_hard.h"

enum { DW_FLOAT32, DW_INT8_PER_CHANNEL, DW_INT8_PER_TENSOR, DW_UINT8,
       DW_INT16X8_PER_CHANNEL, DW_INT16X8_PER_TENSOR, DW_NUM_TYPES };

static const struct {
	int32_t width, height;
} dilations[] = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 3, 2 } };
#define DW_NUM_DILATIONS ((int32_t)(sizeof(dilations) / sizeof(dilations[0])))
#define DW_VARIANTS_PER_TYPE (DW_NUM_DILATIONS * 2 * CF_NUM_ACTIVATIONS)
/* The hard variants' types: every one after float32. */
#define DW_NUM_HARD_TYPES (DW_NUM_TYPES - DW_INT8_PER_CHANNEL)

/* One axis: filter size, then an input size the window fits in (VALID
 * needs the dilated filter to fit; spatial sizes stay within 1..9).  A
 * dilated axis gets a filter of 2 or more taps over 2 or more pixels:
 * over a single pixel only one tap ever lands, and dilation could not
 * change the result. */
static void draw_axis(cf_rng *rng, int32_t dilation, opver_padding padding,
		      int32_t *filter, int32_t *in)
{
	int32_t effective, smallest = dilation > 1 ? 2 : 1;

	*filter = cf_rng_int(rng, smallest, 3);
	effective = (*filter - 1) * dilation + 1;
	*in = cf_rng_int(rng, padding == OPVER_PADDING_VALID ? effective
							     : smallest,
			 9);
}

/* int8 quantization: input and output asymmetric, filter symmetric per
 * channel or per tensor, int32 bias at input scale x filter scale; uint8
 * (`zero` 128): zero points around 128 on all three, the filter per
 * tensor; int16 activations (`int16`): input and output zero points 0.
 * The output scale spreads a typical sum of `taps` products over a few
 * dozen (int8) or a few thousand (int16) steps, which keeps every
 * multiplier below 1. */
static bool quantize_int8(cf_case *c, cf_rng *rng, bool per_channel,
			  bool int16, int32_t zero, int32_t input,
			  int32_t filter, int32_t bias, int32_t output,
			  int32_t channels, int32_t taps)
{
	float input_scale = int16 ? cf_rng_float(rng, 1e-4f, 1e-3f) :
				    cf_rng_float(rng, 0.005f, 0.05f);
	float scales[8], bias_scales[8], mean = 0;
	int32_t num_scales = per_channel ? channels : 1;

	for (int32_t i = 0; i < num_scales; i++) {
		scales[i] = cf_rng_float(rng, 0.002f, 0.02f);
		bias_scales[i] = input_scale * scales[i];
		mean += scales[i] / (float)num_scales;
	}
	if (!cf_case_quantize(c, input, input_scale,
			      int16 ? 0 : cf_rng_int(rng, -10, 10) + zero))
		return false;
	if (per_channel ?
		    !cf_case_quantize_per_channel(c, filter, 3, scales) :
		    !cf_case_quantize(c, filter, scales[0],
				      zero != 0 ? cf_rng_int(rng, -10, 10) + zero
						: 0))
		return false;
	if (bias >= 0 &&
	    !(per_channel ?
		      cf_case_quantize_per_channel(c, bias, 0, bias_scales) :
		      cf_case_quantize(c, bias, bias_scales[0], 0)))
		return false;
	return cf_case_quantize(c, output,
				input_scale * mean * sqrtf((float)taps) *
					(int16 ? 460.0f : 135.0f),
				int16 ? 0 : cf_rng_int(rng, -10, 10) + zero);
}

/*
 * Float cases: an output pixel of the first channel comes out above 7 and
 * of the last below -7 (cf_dominant_input), through the first tap that
 * reads inside the input: its weight set to 1 or -1, and the input there
 * (the channel's input channel) large enough.  A window that misses the
 * input entirely (over padding, dilated) leaves every output its bias:
 * such a case is about padding, and is left as drawn.
 */
static void plant_extremes(cf_case *c, int32_t input, int32_t filter,
			   int32_t bias, const opver_depthwise_conv_params *p)
{
	const cf_tensor_desc *in = &c->tensors[input];
	cf_tensor_desc *w = &c->tensors[filter];
	int32_t channels = w->dims[3], taps = w->dims[1] * w->dims[2];
	float *x = c->values[input], *weights = (float *)w->data;
	int32_t ky, kx;
	size_t pixel;

	if (!cf_reading_pixel(in, w, p->stride_height, p->stride_width,
			      p->dilation_height, p->dilation_width,
			      p->padding, &ky, &kx, &pixel))
		return;
	for (int32_t oc = 0; oc < channels; oc += channels - 1) {
		int32_t lead = ky * w->dims[2] + kx;
		size_t at = pixel + (size_t)(oc / p->depth_multiplier);
		float rest = 0, bias_size = 0;

		cf_set_lead_weight(w, (size_t)(lead * channels + oc), oc == 0);
		for (int32_t k = 0; k < taps; k++)
			if (k != lead)
				rest += fabsf(weights[k * channels + oc]);
		if (bias >= 0)
			bias_size = fabsf(
				((const float *)c->tensors[bias].data)[oc]);
		x[at] = fmaxf(x[at], cf_dominant_input(1, rest, bias_size, false));
	}
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	int32_t type, rest, d;
	opver_padding padding;
	opver_activation activation;
	opver_depthwise_conv_params *p = &c->params.depthwise;
	bool quantized, int16, per_channel, has_bias;
	opver_type data;
	int32_t in_dims[4], filter_dims[4], out_dims[4], bias_dims[1];
	int32_t input, filter, bias = -1, output, depth, multiplier;
	cf_hard hard;
	const cf_hard *h = NULL;

	if (variant >= DW_NUM_TYPES * DW_VARIANTS_PER_TYPE) {
		const int32_t v = variant - DW_NUM_TYPES * DW_VARIANTS_PER_TYPE;
		const int32_t turn = v % DW_NUM_HARD_TYPES +
				     v / DW_NUM_HARD_TYPES;

		cf_hard_draw(&hard, v / DW_NUM_HARD_TYPES, rng);
		h = &hard;
		type = DW_INT8_PER_CHANNEL + v % DW_NUM_HARD_TYPES;
		rest = turn % DW_NUM_DILATIONS +
		       DW_NUM_DILATIONS *
			       (turn % 2 + 2 * (turn % CF_NUM_ACTIVATIONS));
	} else if (variant < DW_INT16X8_PER_CHANNEL * DW_VARIANTS_PER_TYPE) {
		/* uint8 came after the first three types, int16 after uint8:
		 * the variants before each addition are as they were. */
		cf_variant_split(variant, DW_UINT8, DW_INT16X8_PER_CHANNEL,
				 DW_VARIANTS_PER_TYPE, &type, &rest);
	} else {
		cf_variant_split(variant, DW_INT16X8_PER_CHANNEL, DW_NUM_TYPES,
				 DW_VARIANTS_PER_TYPE, &type, &rest);
	}
	d = rest % DW_NUM_DILATIONS;
	padding = rest / DW_NUM_DILATIONS % 2 ? OPVER_PADDING_VALID
					      : OPVER_PADDING_SAME;
	activation = cf_activation(rest / (DW_NUM_DILATIONS * 2));
	quantized = type != DW_FLOAT32;
	int16 = type == DW_INT16X8_PER_CHANNEL || type == DW_INT16X8_PER_TENSOR;
	per_channel = type == DW_INT8_PER_CHANNEL ||
		      type == DW_INT16X8_PER_CHANNEL;
	data = type == DW_UINT8 ? OPVER_TYPE_UINT8 :
	       int16		? OPVER_TYPE_INT16 :
	       quantized	? OPVER_TYPE_INT8 :
				  OPVER_TYPE_FLOAT32;
	*p = (opver_depthwise_conv_params){
		.padding = padding,
		.stride_width = cf_rng_int(rng, 1, 2),
		.stride_height = cf_rng_int(rng, 1, 2),
		.activation = activation,
		.dilation_width = dilations[d].width,
		.dilation_height = dilations[d].height,
	};
	c->has_params = true;
	in_dims[0] = cf_rng_int(rng, 1, 2);
	draw_axis(rng, p->dilation_height, padding, &filter_dims[1],
		  &in_dims[1]);
	draw_axis(rng, p->dilation_width, padding, &filter_dims[2],
		  &in_dims[2]);
	/* A hard case plants its first and last channels, and keeps one
	 * more to land on ties. */
	depth = cf_rng_int(rng, h != NULL ? 3 : 1, 4);
	multiplier = depth == 1 ? 2 : cf_rng_int(rng, 1, 2);
	p->depth_multiplier = multiplier;
	in_dims[3] = depth;
	filter_dims[0] = 1;
	filter_dims[3] = depth * multiplier;
	out_dims[0] = in_dims[0];
	out_dims[1] = cf_window_output(in_dims[1], filter_dims[1],
				       p->stride_height, p->dilation_height,
				       padding);
	out_dims[2] = cf_window_output(in_dims[2], filter_dims[2],
				       p->stride_width, p->dilation_width,
				       padding);
	out_dims[3] = filter_dims[3];
	bias_dims[0] = filter_dims[3];
	has_bias = cf_rng_int(rng, 0, 3) != 0 || h != NULL;

	input = cf_case_tensor(c, data, 4, in_dims);
	filter = cf_case_tensor(c, int16 ? OPVER_TYPE_INT8 : data, 4,
				filter_dims);
	if (has_bias)
		bias = cf_case_tensor(c,
				      int16	    ? OPVER_TYPE_INT64 :
				      quantized ? OPVER_TYPE_INT32 :
						  data,
				      1, bias_dims);
	output = cf_case_tensor(c, data, 4, out_dims);
	cf_case_input(c, input);
	cf_case_input(c, filter);
	if (has_bias)
		cf_case_input(c, bias);
	c->output = output;

	if (h != NULL) {
		const int32_t t[4] = { input, filter, bias, output };

		if (!cf_hard_filter_op(c, h, rng, t, per_channel, 3,
				       filter_dims[3],
				       filter_dims[1] * filter_dims[2]))
			return false;
	} else if (quantized) {
		if (!quantize_int8(c, rng, per_channel, int16,
				   type == DW_UINT8 ? 128 : 0, input, filter,
				   bias, output, filter_dims[3],
				   filter_dims[1] * filter_dims[2]) ||
		    !cf_case_fill(c, input, rng, int16 ? -32768 : -128,
				  int16 ? 32767 : 127, false) ||
		    !cf_case_fill(c, filter, rng, -127, 127, true) ||
		    (has_bias && !cf_case_fill(c, bias, rng, -4000, 4000, true)))
			return false;
	} else if (!cf_case_fill(c, input, rng, -1, 1, false) ||
		   !cf_case_fill(c, filter, rng, -1, 1, true) ||
		   (has_bias && !cf_case_fill(c, bias, rng, -1, 1, true))) {
		return false;
	}
	if (!quantized)
		plant_extremes(c, input, filter, bias, p);
	cf_case_param(c, "padding=%s stride=%dx%d dilation=%dx%d multiplier=%d activation=%s bias=%s",
		      cf_padding_name(padding), p->stride_width,
		      p->stride_height, p->dilation_width, p->dilation_height,
		      multiplier, cf_activation_name(activation),
		      has_bias ? "yes" : "no");
	if (quantized)
		cf_case_param(c, "type=%s filter=%s",
			      opver_type_name(data),
			      per_channel ? "per-channel" : "per-tensor");
	return true;
}

const cf_generator cf_depthwise_conv_2d_cases = {
	.op = OPVER_OP_DEPTHWISE_CONV_2D,
	/* The hard variants' last spot is CF_SPOT_ABOVE_ONE: TFLite lets the
	 * rescale exceed 1, a left shift. */
	.num_variants = DW_NUM_TYPES * DW_VARIANTS_PER_TYPE +
			DW_NUM_HARD_TYPES * (CF_NUM_SPOTS + 1),
	.generate = generate,
};
