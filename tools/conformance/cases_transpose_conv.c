/*
 * cases_transpose_conv.c - TRANSPOSE_CONV cases.
 *
 * Variants cross the kinds (float32; int8 with a per-channel filter;
 * 16x8: int16 activations, int8 filter, int64 bias, or an int32 one with
 * quantized_bias_type INT32, set without a bias too; uint8 with zero
 * points, the filter's too) with the padding, the
 * bias (version 3) and the activation (NONE, or RELU: version 4).  Each
 * case draws the batch (1-2), the input size (1-5 each way), the channels
 * (1-4 in, 1-4 out), the window (1-3), the strides (1-3) and the data.  The
 * output's size is the one a convolution of the same window would shrink
 * back to the input's: in x stride (SAME), (in - 1) x stride + filter
 * (VALID); output_shape is a constant input.  Then the hard variants
 * (cases_hard.h): int8, uint8 and 16x8 (int64 bias), with a bias, NONE
 * or RELU, at every spot, the padding drawn, 3 or 4 output channels (the
 * first's outputs past every clamp, the second's all on ties, the last's
 * below the clamps).
 */
#include <math.h>

#include "cases_hard.h"

enum { FLOAT32, INT8, INT16X8, UINT8, INT16X8_INT32, NUM_KINDS };

static const char *const kind_names[NUM_KINDS] = { "float32", "int8",
						   "16x8", "uint8",
						   "16x8_int32" };

/* Output size along one axis. */
static int32_t grown(int32_t in, int32_t filter, int32_t stride,
		     opver_padding padding)
{
	return padding == OPVER_PADDING_SAME ? in * stride
					     : (in - 1) * stride + filter;
}

/* uint8: input, filter and output per tensor, with zero points near the
 * middle; the bias with input scale x filter scale. */
static bool quantize_uint8(cf_case *c, cf_rng *rng, const int32_t *t,
			   int32_t taps)
{
	float input_scale = cf_rng_float(rng, 0.005f, 0.05f);
	float filter_scale = cf_rng_float(rng, 0.002f, 0.02f);

	return cf_case_quantize(c, t[1], filter_scale,
				cf_rng_int(rng, 100, 150)) &&
	       (t[3] < 0 ||
		cf_case_quantize(c, t[3], input_scale * filter_scale, 0)) &&
	       cf_case_quantize(c, t[2], input_scale,
				cf_rng_int(rng, 100, 150)) &&
	       cf_case_quantize(c, t[4],
				input_scale * filter_scale *
					sqrtf((float)taps) * 135.0f,
				cf_rng_int(rng, 100, 150));
}

/* Input, filter (per channel along 0), bias and output quantization; the
 * output scale spreads a typical sum over a few dozen (int8) or a few
 * thousand (int16) steps, every multiplier below 1. */
static bool quantize(cf_case *c, cf_rng *rng, bool int16, const int32_t *t,
		     int32_t channels, int32_t taps)
{
	float input_scale = int16 ? cf_rng_float(rng, 1e-4f, 1e-3f)
				  : cf_rng_float(rng, 0.005f, 0.05f);
	float scales[4], bias_scales[4], mean = 0;

	for (int32_t i = 0; i < channels; i++) {
		scales[i] = cf_rng_float(rng, 0.002f, 0.02f);
		bias_scales[i] = input_scale * scales[i];
		mean += scales[i] / (float)channels;
	}
	if (!cf_case_quantize_per_channel(c, t[1], 0, scales))
		return false;
	if (t[3] >= 0 && !cf_case_quantize_per_channel(c, t[3], 0, bias_scales))
		return false;
	return cf_case_quantize(c, t[2], input_scale,
				int16 ? 0 : cf_rng_int(rng, -10, 10)) &&
	       cf_case_quantize(c, t[4],
				input_scale * mean * sqrtf((float)taps) *
					(int16 ? 460.0f : 135.0f),
				int16 ? 0 : cf_rng_int(rng, -10, 10));
}

#define PLAIN_VARIANTS (NUM_KINDS * 2 * 2 * 2)
/* The hard variants' kinds. */
static const int32_t hard_kinds[] = { INT8, UINT8, INT16X8 };
#define NUM_HARD_KINDS 3

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const bool is_hard = variant >= PLAIN_VARIANTS;
	const int32_t v = variant - PLAIN_VARIANTS;
	int32_t kind = is_hard ? hard_kinds[v % NUM_HARD_KINDS] :
				 variant % NUM_KINDS;
	opver_padding padding = variant / NUM_KINDS % 2 ? OPVER_PADDING_VALID
							: OPVER_PADDING_SAME;
	bool has_bias = is_hard || variant / (NUM_KINDS * 2) % 2;
	bool relu = is_hard ? v / NUM_HARD_KINDS % 2 :
			      variant / (NUM_KINDS * 4) % 2;
	cf_hard hard;
	bool int16 = kind == INT16X8 || kind == INT16X8_INT32;
	opver_type data = kind == FLOAT32   ? OPVER_TYPE_FLOAT32
			  : kind == INT8    ? OPVER_TYPE_INT8
			  : kind == UINT8   ? OPVER_TYPE_UINT8
					    : OPVER_TYPE_INT16;
	opver_type filter_type = kind == FLOAT32 ? OPVER_TYPE_FLOAT32
				 : kind == UINT8 ? OPVER_TYPE_UINT8
						 : OPVER_TYPE_INT8;
	opver_type bias_type = kind == FLOAT32	 ? OPVER_TYPE_FLOAT32
			       : kind == INT16X8 ? OPVER_TYPE_INT64
						 : OPVER_TYPE_INT32;
	opver_transpose_conv_params *p = &c->params.transpose_conv;
	int32_t in_dims[4], filter_dims[4], out_dims[4], four = 4, t[5];
	int32_t *shape = cf_case_alloc(c, 4 * sizeof(int32_t));

	if (shape == NULL)
		return false;
	if (is_hard) {
		cf_hard_draw(&hard, v / (NUM_HARD_KINDS * 2), rng);
		padding = cf_rng_int(rng, 0, 1) ? OPVER_PADDING_VALID :
						  OPVER_PADDING_SAME;
	}
	*p = (opver_transpose_conv_params){
		.padding = padding,
		.stride_width = cf_rng_int(rng, 1, 3),
		.stride_height = cf_rng_int(rng, 1, 3),
		.activation = relu ? OPVER_ACTIVATION_RELU
				   : OPVER_ACTIVATION_NONE,
		.quantized_bias_type = kind == INT16X8_INT32
					       ? OPVER_TYPE_INT32
					       : OPVER_TYPE_FLOAT32,
	};
	c->has_params = true;
	in_dims[0] = cf_rng_int(rng, 1, 2);
	in_dims[1] = cf_rng_int(rng, 1, 5);
	in_dims[2] = cf_rng_int(rng, 1, 5);
	in_dims[3] = cf_rng_int(rng, 1, 4);
	filter_dims[0] = cf_rng_int(rng, is_hard ? 3 : 1, 4);
	filter_dims[1] = cf_rng_int(rng, 1, 3);
	filter_dims[2] = cf_rng_int(rng, 1, 3);
	filter_dims[3] = in_dims[3];
	out_dims[0] = in_dims[0];
	out_dims[1] = grown(in_dims[1], filter_dims[1], p->stride_height,
			    padding);
	out_dims[2] = grown(in_dims[2], filter_dims[2], p->stride_width,
			    padding);
	out_dims[3] = filter_dims[0];
	for (int i = 0; i < 4; i++)
		shape[i] = out_dims[i];

	t[0] = cf_case_tensor(c, OPVER_TYPE_INT32, 1, &four);
	t[1] = cf_case_tensor(c, filter_type, 4, filter_dims);
	t[2] = cf_case_tensor(c, data, 4, in_dims);
	t[3] = has_bias ? cf_case_tensor(c, bias_type, 1, filter_dims) : -1;
	t[4] = cf_case_tensor(c, data, 4, out_dims);
	c->tensors[t[0]].data = shape;
	c->tensors[t[0]].data_size = 4 * sizeof(int32_t);
	cf_case_input(c, t[0]);
	cf_case_input(c, t[1]);
	cf_case_input(c, t[2]);
	if (has_bias)
		cf_case_input(c, t[3]);
	c->output = t[4];
	if (is_hard) {
		const int32_t filter_op[4] = { t[2], t[1], t[3], t[4] };

		if (!cf_hard_filter_op(c, &hard, rng, filter_op, kind != UINT8,
				       0, filter_dims[0],
				       filter_dims[1] * filter_dims[2] *
					       in_dims[3]))
			return false;
		cf_case_param(c, "kind=%s padding=%s stride=%dx%d activation=%s bias=yes",
			      kind_names[kind], cf_padding_name(padding),
			      p->stride_width, p->stride_height,
			      cf_activation_name(p->activation));
		return true;
	}
	if (kind == UINT8 &&
	    !quantize_uint8(c, rng, t,
			    filter_dims[1] * filter_dims[2] * in_dims[3]))
		return false;
	if ((kind == INT8 || int16) &&
	    !quantize(c, rng, int16, t, filter_dims[0],
		      filter_dims[1] * filter_dims[2] * in_dims[3]))
		return false;
	if (!(kind == FLOAT32 ? cf_case_fill(c, t[2], rng, -1, 1, false)
	      : kind == INT8  ? cf_case_fill(c, t[2], rng, -128, 127, false)
	      : kind == UINT8 ? cf_case_fill(c, t[2], rng, 0, 255, false)
			      : cf_case_fill(c, t[2], rng, -32768, 32767,
					     false)))
		return false;
	if (!(kind == FLOAT32 ? cf_case_fill(c, t[1], rng, -1, 1, true)
	      : kind == UINT8 ? cf_case_fill(c, t[1], rng, 0, 255, true)
			      : cf_case_fill(c, t[1], rng, -127, 127, true)))
		return false;
	if (has_bias &&
	    !(kind == FLOAT32 ? cf_case_fill(c, t[3], rng, -1, 1, true)
			      : cf_case_fill(c, t[3], rng, -4000, 4000, true)))
		return false;
	cf_case_param(c, "kind=%s padding=%s stride=%dx%d activation=%s bias=%s",
		      kind_names[kind], cf_padding_name(padding),
		      p->stride_width, p->stride_height,
		      cf_activation_name(p->activation),
		      has_bias ? "yes" : "no");
	return true;
}

const cf_generator cf_transpose_conv_cases = {
	.op = OPVER_OP_TRANSPOSE_CONV,
	.num_variants = PLAIN_VARIANTS + NUM_HARD_KINDS * 2 * CF_NUM_SPOTS,
	.generate = generate,
};
