/*
 * cases_conv.c - CONV_2D cases.
 *
 * Variants cross the kinds of node with grouping (version 6), dilation and
 * four padding/activation pairs (each padding and each clamp activation
 * appears):
 *
 *   float32 (v1); int8 with a per-tensor or a per-channel filter (v3);
 *   uint8, TFLite's legacy asymmetric quantization: zero points near 128
 *   on input, filter and output, the filter per tensor, random bytes for
 *   data (v1);
 *   hybrid, float input and int8 filter, per tensor (v2) or per channel
 *   (v5); int16 activations with an int8 filter and an int64 bias, without
 *   quantized_bias_type (which the rules leave at v1) or with it INT64
 *   (v8), and with an int32 bias and quantized_bias_type INT32 (v8)
 *
 * Dilation predates versioning in CONV_2D: every version has it.  Each
 * case draws the batch, the spatial sizes, the filter (at least 2 taps
 * along a dilated axis), strides, the channels (1-4 input channels per
 * group, 1-3 filters per group, 2 groups when grouped, 2 filters or more
 * in all), whether there is a bias, the quantization and the data.  Cases
 * with a float input reach past both bounds of every clamp activation.
 * The hard variants come last: the integer kinds, ungrouped with a bias
 * and three filters, each at every spot of cases_hard.h; then int8 (per
 * tensor and per channel) and 16x8 at the above-one spot (a left shift).
 */
#include <math.h>

#include "cases_hard.h"

/* uint8 came last (cf_variant_split). */
enum { FLOAT32, INT8_PER_TENSOR, INT8_PER_CHANNEL, HYBRID_PER_TENSOR,
       HYBRID_PER_CHANNEL, INT16X8, INT16X8_INT64_TYPE, INT16X8_INT32_TYPE,
       UINT8, NUM_KINDS };
static const char *const kind_names[NUM_KINDS] = {
	"float32", "int8-per-tensor", "int8-per-channel",
	"hybrid-per-tensor", "hybrid-per-channel", "int16x8",
	"int16x8-int64-bias", "int16x8-int32-bias", "uint8",
};
#define VARIANTS_PER_KIND (2 * 2 * NUM_WINDOWS)

/* Padding and activation together: every value of each appears. */
static const struct {
	opver_padding padding;
	opver_activation activation;
} windows[] = {
	{ OPVER_PADDING_SAME, OPVER_ACTIVATION_NONE },
	{ OPVER_PADDING_VALID, OPVER_ACTIVATION_RELU },
	{ OPVER_PADDING_SAME, OPVER_ACTIVATION_RELU6 },
	{ OPVER_PADDING_VALID, OPVER_ACTIVATION_RELU_N1_TO_1 },
};
#define NUM_WINDOWS 4

/* One axis of the window, as in the DEPTHWISE_CONV_2D cases: a dilated
 * axis gets 2 or more taps over 2 or more pixels. */
static void draw_axis(cf_rng *rng, int32_t dilation, opver_padding padding,
		      int32_t *filter, int32_t *in)
{
	int32_t smallest = dilation > 1 ? 2 : 1;

	*filter = cf_rng_int(rng, smallest, 3);
	*in = cf_rng_int(rng, padding == OPVER_PADDING_VALID ?
				      (*filter - 1) * dilation + 1 :
				      smallest,
			 9);
}

/*
 * Quantizes input, filter, bias and output for the integer kinds, and the
 * filter for the hybrid ones.  `taps` products make one output; the output
 * scale spreads a typical sum over a few dozen (int8) or a few thousand
 * (int16) steps, keeping every multiplier below 1.
 */
static bool quantize(cf_case *c, cf_rng *rng, int32_t kind, const int32_t *t,
		     int32_t channels, int32_t taps)
{
	bool int16 = kind >= INT16X8 && kind <= INT16X8_INT32_TYPE;
	bool hybrid = kind == HYBRID_PER_TENSOR || kind == HYBRID_PER_CHANNEL;
	bool per_channel = kind != INT8_PER_TENSOR &&
			   kind != HYBRID_PER_TENSOR && kind != UINT8;
	int32_t n = per_channel ? channels : 1;
	float input_scale = int16 ? cf_rng_float(rng, 1e-4f, 1e-3f) :
				    cf_rng_float(rng, 0.005f, 0.05f);
	/* uint8's zero points lie around the middle of its range. */
	int32_t zero = kind == UINT8 ? 128 : 0;
	float scales[8], bias_scales[8], mean = 0;

	for (int32_t i = 0; i < n; i++) {
		scales[i] = cf_rng_float(rng, 0.002f, 0.02f);
		bias_scales[i] = input_scale * scales[i];
		mean += scales[i] / (float)n;
	}
	if (!(per_channel ? cf_case_quantize_per_channel(c, t[1], 0, scales) :
			    cf_case_quantize(c, t[1], scales[0],
					     kind == UINT8 ?
						     cf_rng_int(rng, 118, 138) :
						     0)))
		return false;
	if (hybrid)
		return true;
	if (t[2] >= 0 &&
	    !(per_channel ? cf_case_quantize_per_channel(c, t[2], 0, bias_scales) :
			    cf_case_quantize(c, t[2], bias_scales[0], 0)))
		return false;
	return cf_case_quantize(c, t[0], input_scale,
				int16 ? 0 : cf_rng_int(rng, -10, 10) + zero) &&
	       cf_case_quantize(c, t[3],
				input_scale * mean * sqrtf((float)taps) *
					(int16 ? 460.0f : 135.0f),
				int16 ? 0 : cf_rng_int(rng, -10, 10) + zero);
}

/*
 * For a float input (float32 and hybrid): an output pixel of the first
 * filter comes out above 7 and of the last below -7 (cf_dominant_input),
 * through the first tap that reads inside the input: its weight set to the
 * largest of its type, positive or negative, and the input there (the
 * filter group's first channel) large enough.  A window that misses the
 * input entirely (over padding, dilated) leaves every output its bias:
 * such a case is about padding, and is left as drawn.
 */
static void plant_extremes(cf_case *c, const int32_t *t,
			   const opver_conv_params *p, int32_t groups)
{
	const cf_tensor_desc *in = &c->tensors[t[0]];
	cf_tensor_desc *w = &c->tensors[t[1]];
	int32_t filters = w->dims[0], group_depth = w->dims[3];
	size_t taps = (size_t)w->dims[1] * (size_t)w->dims[2] *
		      (size_t)group_depth;
	bool hybrid = w->type == OPVER_TYPE_INT8;
	float *x = c->values[t[0]];
	int32_t ky, kx;
	size_t pixel;

	if (!cf_reading_pixel(in, w, p->stride_height, p->stride_width,
			      p->dilation_height, p->dilation_width,
			      p->padding, &ky, &kx, &pixel))
		return;
	for (int32_t f = 0; f < filters; f += filters - 1) {
		size_t first = (size_t)f * taps;
		size_t lead = first + ((size_t)ky * (size_t)w->dims[2] +
				       (size_t)kx) * (size_t)group_depth;
		int32_t channel = f / (filters / groups) * group_depth;
		size_t at = pixel + (size_t)channel;
		float rest = 0, bias = 0;

		cf_set_lead_weight(w, lead, f == 0);
		for (size_t i = first; i < first + taps; i++)
			if (i != lead)
				rest += fabsf(cf_weight(w, i, f));
		if (t[2] >= 0)
			bias = fabsf(((const float *)c->tensors[t[2]].data)[f]);
		x[at] = fmaxf(x[at], cf_dominant_input(fabsf(cf_weight(w, lead, f)),
						       rest, bias, hybrid));
	}
}

/* The case's parameters as its text. */
static void describe(cf_case *c, int32_t kind, int32_t groups, bool has_bias)
{
	const opver_conv_params *p = &c->params.conv;

	cf_case_param(c, "kind=%s padding=%s stride=%dx%d dilation=%dx%d groups=%d activation=%s bias=%s",
		      kind_names[kind], cf_padding_name(p->padding),
		      p->stride_width, p->stride_height, p->dilation_width,
		      p->dilation_height, groups,
		      cf_activation_name(p->activation),
		      has_bias ? "yes" : "no");
	if (p->quantized_bias_type != OPVER_TYPE_FLOAT32)
		cf_case_param(c, "quantized_bias_type=%s",
			      opver_type_name(p->quantized_bias_type));
}

/* The case of `kind` and the rest of its variant; `hard` (NULL but for
 * the hard variants) quantizes and fills it at its spot. */
static bool generate_kind(int32_t kind, int32_t rest, const cf_hard *hard,
			  cf_rng *rng, cf_case *c)
{
	bool grouped = rest % 2;
	bool dilated = rest / 2 % 2;
	int32_t w = rest / 4 % NUM_WINDOWS;
	opver_conv_params *p = &c->params.conv;
	bool int8 = kind == INT8_PER_TENSOR || kind == INT8_PER_CHANNEL;
	bool int16 = kind >= INT16X8 && kind <= INT16X8_INT32_TYPE;
	bool hybrid = kind == HYBRID_PER_TENSOR || kind == HYBRID_PER_CHANNEL;
	opver_type data = int8 ? OPVER_TYPE_INT8 :
			  kind == UINT8 ? OPVER_TYPE_UINT8 :
			  int16 ? OPVER_TYPE_INT16 : OPVER_TYPE_FLOAT32;
	opver_type bias_type = int8 || kind == UINT8 ||
				       kind == INT16X8_INT32_TYPE ?
				       OPVER_TYPE_INT32 :
			       int16 ? OPVER_TYPE_INT64 : OPVER_TYPE_FLOAT32;
	int32_t groups = grouped ? 2 : 1, group_depth = cf_rng_int(rng, 1, 4);
	/* A hard case plants its first and last filters, and keeps one
	 * more to land on ties. */
	int32_t per_group = cf_rng_int(rng, hard != NULL ? 3 : grouped ? 1 : 2,
				       3);
	int32_t in_dims[4], filter_dims[4], out_dims[4], bias_dims[1], t[4];
	bool has_bias = cf_rng_int(rng, 0, 3) != 0 || hard != NULL;

	*p = (opver_conv_params){
		.padding = windows[w].padding,
		.stride_width = cf_rng_int(rng, 1, 2),
		.stride_height = cf_rng_int(rng, 1, 2),
		.activation = windows[w].activation,
		.dilation_width = dilated ? cf_rng_int(rng, 1, 2) : 1,
		.dilation_height = dilated ? cf_rng_int(rng, 1, 2) : 1,
		.quantized_bias_type = kind == INT16X8_INT64_TYPE ?
					       OPVER_TYPE_INT64 :
				       kind == INT16X8_INT32_TYPE ?
					       OPVER_TYPE_INT32 :
					       OPVER_TYPE_FLOAT32,
	};
	if (dilated && p->dilation_width == 1 && p->dilation_height == 1)
		p->dilation_width = 2;
	c->has_params = true;
	in_dims[0] = cf_rng_int(rng, 1, 2);
	draw_axis(rng, p->dilation_height, p->padding, &filter_dims[1],
		  &in_dims[1]);
	draw_axis(rng, p->dilation_width, p->padding, &filter_dims[2],
		  &in_dims[2]);
	in_dims[3] = groups * group_depth;
	filter_dims[0] = groups * per_group;
	filter_dims[3] = group_depth;
	out_dims[0] = in_dims[0];
	out_dims[1] = cf_window_output(in_dims[1], filter_dims[1],
				       p->stride_height, p->dilation_height,
				       p->padding);
	out_dims[2] = cf_window_output(in_dims[2], filter_dims[2],
				       p->stride_width, p->dilation_width,
				       p->padding);
	out_dims[3] = filter_dims[0];
	bias_dims[0] = filter_dims[0];

	t[0] = cf_case_tensor(c, data, 4, in_dims);
	t[1] = cf_case_tensor(c, int8 || int16 || hybrid ? OPVER_TYPE_INT8 :
							   data,
			      4, filter_dims);
	t[2] = has_bias ? cf_case_tensor(c, bias_type, 1, bias_dims) : -1;
	t[3] = cf_case_tensor(c, data, 4, out_dims);
	cf_case_input(c, t[0]);
	cf_case_input(c, t[1]);
	if (has_bias)
		cf_case_input(c, t[2]);
	c->output = t[3];

	if (hard != NULL) {
		describe(c, kind, groups, has_bias);
		return cf_hard_filter_op(c, hard, rng, t,
					 kind != INT8_PER_TENSOR &&
						 kind != UINT8,
					 0, filter_dims[0],
					 filter_dims[1] * filter_dims[2] *
						 group_depth);
	}
	if (kind != FLOAT32 &&
	    !quantize(c, rng, kind, t, filter_dims[0],
		      filter_dims[1] * filter_dims[2] * group_depth))
		return false;
	if (data == OPVER_TYPE_FLOAT32) {
		if (!cf_case_fill(c, t[0], rng, -1, 1, false))
			return false;
	} else if (!cf_case_fill(c, t[0], rng, int8 ? -128 : -32768,
				 int8 ? 127 : 32767, false)) {
		return false;
	}
	if (kind == FLOAT32 ? !cf_case_fill(c, t[1], rng, -1, 1, true) :
			      !cf_case_fill(c, t[1], rng, -127, 127, true))
		return false;
	if (has_bias &&
	    !(bias_type == OPVER_TYPE_FLOAT32 ?
		      cf_case_fill(c, t[2], rng, -1, 1, true) :
		      cf_case_fill(c, t[2], rng, -4000, 4000, true)))
		return false;
	if (data == OPVER_TYPE_FLOAT32)
		plant_extremes(c, t, p, groups);
	describe(c, kind, groups, has_bias);
	return true;
}

/* The hard variants: the integer kinds at every spot, undilated and
 * dilated, the windows taking turns. */
static const int32_t hard_kinds[] = {
	INT8_PER_TENSOR, INT8_PER_CHANNEL, UINT8, INT16X8, INT16X8_INT32_TYPE,
};
#define NUM_HARD_KINDS ((int32_t)(sizeof(hard_kinds) / sizeof(hard_kinds[0])))

/* Then the int8 and 16x8 kinds at the above-one spot: TFLite lets a
 * convolution's rescale exceed 1, a left shift. */
static const int32_t above_one_kinds[] = {
	INT8_PER_TENSOR, INT8_PER_CHANNEL, INT16X8,
};
#define NUM_ABOVE_ONE_KINDS \
	((int32_t)(sizeof(above_one_kinds) / sizeof(above_one_kinds[0])))
/* Each twice, a window each. */
#define ABOVE_ONE_VARIANTS (2 * NUM_ABOVE_ONE_KINDS)

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	int32_t kind, rest;

	if (variant >= NUM_KINDS * VARIANTS_PER_KIND +
			       NUM_HARD_KINDS * CF_NUM_SPOTS) {
		const int32_t v = variant - NUM_KINDS * VARIANTS_PER_KIND -
				  NUM_HARD_KINDS * CF_NUM_SPOTS;
		cf_hard hard;

		cf_hard_draw(&hard, CF_SPOT_ABOVE_ONE, rng);
		return generate_kind(above_one_kinds[v % NUM_ABOVE_ONE_KINDS],
				     4 * (v % NUM_WINDOWS), &hard, rng, c);
	}
	if (variant >= NUM_KINDS * VARIANTS_PER_KIND) {
		const int32_t v = variant - NUM_KINDS * VARIANTS_PER_KIND;
		const int32_t turn = v % NUM_HARD_KINDS + v / NUM_HARD_KINDS;
		cf_hard hard;

		cf_hard_draw(&hard, v / NUM_HARD_KINDS, rng);
		/* rest: ungrouped, dilated every other turn, a window. */
		return generate_kind(hard_kinds[v % NUM_HARD_KINDS],
				     2 * (turn % 2) + 4 * (turn % NUM_WINDOWS),
				     &hard, rng, c);
	}

	cf_variant_split(variant, UINT8, NUM_KINDS, VARIANTS_PER_KIND, &kind,
			 &rest);
	return generate_kind(kind, rest, NULL, rng, c);
}

const cf_generator cf_conv_2d_cases = {
	.op = OPVER_OP_CONV_2D,
	.num_variants = NUM_KINDS * VARIANTS_PER_KIND +
			NUM_HARD_KINDS * CF_NUM_SPOTS + ABOVE_ONE_VARIANTS,
	.generate = generate,
};
