/*
 * refusals.c - the per-op checks behind the XNNPACK delegate's claims:
 * where XNNPACK's own checks would fail the runtime's creation (scale
 * ratios, zero points, empty clamps, windows) or where it would compute
 * other than TFLite (rescaling ops it does not rescale), a reason the node
 * stays on the kernels.  claims.c checks types and operands first.
 */
#include <math.h>
#include <stdio.h>

#include "claims.h"
#include "delegate_claims.h"
#include "refusals.h"

bool xp_activation_range(int32_t activation, float *min, float *max)
{
	switch (activation) {
	case OPVER_ACTIVATION_NONE:
		*min = -INFINITY;
		*max = INFINITY;
		return true;
	case OPVER_ACTIVATION_RELU:
		*min = 0.0f;
		*max = INFINITY;
		return true;
	case OPVER_ACTIVATION_RELU_N1_TO_1:
		*min = -1.0f;
		*max = 1.0f;
		return true;
	case OPVER_ACTIVATION_RELU6:
		*min = 0.0f;
		*max = 6.0f;
		return true;
	default:
		return false;
	}
}

bool xp_is_8bit(const opver_tensor *t)
{
	return t->type == OPVER_TYPE_INT8 || t->type == OPVER_TYPE_UINT8;
}

/* A quantized tensor's (first) scale and zero point. */
static float scale_of(const opver_tensor *t)
{
	return t->quant.scale[0];
}

static int32_t zero_point_of(const opver_tensor *t)
{
	return (int32_t)t->quant.zero_point[0];
}

/* XNNPACK takes only finite, normal, positive scales. */
static bool usable_scale(float scale)
{
	return scale > 0.0f && isnormal(scale);
}

/* An 8-bit tensor as XNNPACK's quantized values hold it: one usable scale
 * and a zero point its type can store.  `what` names it in the reason. */
const char *xp_quant_refusal(const opver_tensor *t, const char *what,
			     char *buf, size_t size)
{
	int64_t low = t->type == OPVER_TYPE_INT8 ? -128 : 0;

	if (t->quant.count != 1 || t->quant.scale == NULL ||
	    t->quant.zero_point == NULL)
		return dc_say(buf, size, "%s is not quantized per tensor", what);
	if (!usable_scale(scale_of(t)))
		return dc_say(buf, size, "%s has scale %g, not a normal positive one",
			   what, (double)scale_of(t));
	if (t->quant.zero_point[0] < low || t->quant.zero_point[0] > low + 255)
		return dc_say(buf, size, "%s has zero point %lld out of range", what,
			   (long long)t->quant.zero_point[0]);
	return NULL;
}

static bool same_quantization(const opver_tensor *a, const opver_tensor *b)
{
	return !xp_is_8bit(a) ||
	       (scale_of(a) == scale_of(b) &&
		zero_point_of(a) == zero_point_of(b));
}

static const char *same_quant_refusal(const opver_node *node, char *buf,
				      size_t size)
{
	if (same_quantization(node->inputs[0], node->outputs[0]))
		return NULL;
	return dc_say(buf, size,
		   "input and output quantization differ: XNNPACK does not rescale here");
}

static const char *activation_refusal(int32_t activation, char *buf,
				      size_t size)
{
	float min, max;

	if (xp_activation_range(activation, &min, &max))
		return NULL;
	return dc_say(buf, size, "fused activation %d not supported by XNNPACK",
		   (int)activation);
}

/*
 * The clamp of a quantized output as XNNPACK derives it from the float
 * range (rounded to nearest even after adding the zero point); TFLite's
 * differs only when min / scale is a tie.  XNNPACK refuses an empty one.
 */
static const char *range_refusal(int32_t activation, const opver_tensor *out,
				 char *buf, size_t size)
{
	float low = out->type == OPVER_TYPE_INT8 ? -128.0f : 0.0f;
	float min, max, zero;
	long qmin, qmax;

	if (!xp_activation_range(activation, &min, &max))
		return activation_refusal(activation, buf, size);
	if (!xp_is_8bit(out))
		return NULL;
	zero = (float)zero_point_of(out);
	qmin = lrintf(fminf(fmaxf(min / scale_of(out) + zero, low),
			    low + 255.0f));
	qmax = lrintf(fminf(fmaxf(max / scale_of(out) + zero, low),
			    low + 255.0f));
	if (qmin >= qmax)
		return dc_say(buf, size,
			   "fused activation leaves the output no range (%ld to %ld)",
			   qmin, qmax);
	return NULL;
}

/*
 * The filter (or weights) of a quantized CONV_2D, DEPTHWISE_CONV_2D or
 * FULLY_CONNECTED: int8 symmetric (XNNPACK's QS8 has no filter zero
 * point), per tensor or, where `channel_axis` >= 0, per channel along it
 * (QC8); uint8 per tensor.  Each channel's input * filter / output scale
 * must be below 256, and input * filter a usable bias scale.
 */
static const char *filter_quant_refusal(const opver_node *node,
					int32_t channel_axis, char *buf,
					size_t size)
{
	const opver_tensor *in = node->inputs[0];
	const opver_tensor *filter = node->inputs[1];
	const opver_tensor *out = node->outputs[0];
	const opver_tensor *bias = node->num_inputs > 2 ? node->inputs[2] :
							   NULL;
	int32_t count = filter->quant.count;

	if (filter->type == OPVER_TYPE_UINT8 || count <= 1) {
		if (xp_quant_refusal(filter, "filter", buf, size) != NULL)
			return buf;
		if (filter->type == OPVER_TYPE_INT8 &&
		    zero_point_of(filter) != 0)
			return dc_say(buf, size,
				   "int8 filter zero point %d: XNNPACK needs 0",
				   (int)zero_point_of(filter));
	} else if (channel_axis < 0) {
		return dc_say(buf, size,
			   "per-channel int8 weights: this XNNPACK has no per-channel FULLY_CONNECTED");
	} else if (filter->quant.axis != channel_axis ||
		   count != filter->dims[channel_axis] ||
		   filter->quant.scale == NULL ||
		   filter->quant.zero_point == NULL) {
		return dc_say(buf, size,
			   "filter scales are not one per channel along dimension %d",
			   (int)channel_axis);
	}
	if (bias != NULL && (bias->rank != 1 || out->rank < 1 ||
			     bias->dims[0] != out->dims[out->rank - 1]))
		return dc_say(buf, size, "bias is not one value per output channel");
	for (int32_t c = 0; c < count; c++) {
		float scale = filter->quant.scale[c];
		float product = scale_of(in) * scale;

		if (filter->quant.zero_point[c] != 0 && count > 1)
			return dc_say(buf, size,
				   "per-channel filter zero point %lld: XNNPACK needs 0",
				   (long long)filter->quant.zero_point[c]);
		if (!usable_scale(scale) || !usable_scale(product))
			return dc_say(buf, size,
				   "filter scale %g: input * filter scale is not a normal positive number",
				   (double)scale);
		/* In float, as XNNPACK computes it. */
		if (product / scale_of(out) >= 256.0f)
			return dc_say(buf, size,
				   "input * filter / output scale %g: XNNPACK needs it below 256",
				   (double)(product / scale_of(out)));
	}
	return NULL;
}

/* CONV_2D and DEPTHWISE_CONV_2D: 4D input, output and filter, constant
 * filter and bias (XNNPACK packs them when the runtime is created). */
static const char *window_refusal(const opver_node *node, char *buf,
				  size_t size)
{
	const opver_tensor *filter = node->inputs[1];
	const opver_tensor *bias = node->num_inputs > 2 ? node->inputs[2] :
							   NULL;

	if (node->inputs[0]->rank != 4 || filter->rank != 4 ||
	    node->outputs[0]->rank != 4)
		return dc_say(buf, size, "input, filter and output must be 4D");
	if (!filter->is_constant || (bias != NULL && !bias->is_constant))
		return dc_say(buf, size,
			   "filter and bias must be constant for XNNPACK");
	if (!xp_is_8bit(node->inputs[0]))
		return NULL;
	return filter_quant_refusal(node,
				    node->op == OPVER_OP_CONV_2D ? 0 : 3, buf,
				    size);
}

static const char *conv_refusal(const opver_node *node, char *buf,
				size_t size)
{
	opver_conv_params p = OPVER_CONV_PARAMS_DEFAULTS;
	const char *why = window_refusal(node, buf, size);

	if (why != NULL)
		return why;
	opver_read_params(node, &p, sizeof(p));
	if (p.stride_width < 1 || p.stride_height < 1 ||
	    p.dilation_width < 1 || p.dilation_height < 1)
		return dc_say(buf, size, "stride or dilation below 1");
	if (node->inputs[1]->dims[3] < 1 ||
	    node->inputs[0]->dims[3] % node->inputs[1]->dims[3] != 0)
		return dc_say(buf, size,
			   "input channels not a multiple of the filter's");
	return range_refusal(p.activation, node->outputs[0], buf, size);
}

static const char *depthwise_refusal(const opver_node *node, char *buf,
				     size_t size)
{
	opver_depthwise_conv_params p = OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS;
	const char *why = window_refusal(node, buf, size);
	int32_t in = node->inputs[0]->dims[3];

	if (why != NULL)
		return why;
	opver_read_params(node, &p, sizeof(p));
	if (p.stride_width < 1 || p.stride_height < 1 ||
	    p.dilation_width < 1 || p.dilation_height < 1)
		return dc_say(buf, size, "stride or dilation below 1");
	if (in < 1 || node->inputs[1]->dims[3] % in != 0)
		return dc_say(buf, size,
			   "filter channels not a multiple of the input's");
	return range_refusal(p.activation, node->outputs[0], buf, size);
}

static const char *fc_refusal(const opver_node *node, char *buf, size_t size)
{
	opver_fully_connected_params p = OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS;
	const opver_tensor *in = node->inputs[0];
	const opver_tensor *weights = node->inputs[1];
	const opver_tensor *bias = node->num_inputs > 2 ? node->inputs[2] :
							   NULL;

	opver_read_params(node, &p, sizeof(p));
	if (weights->rank != 2 || in->rank < 1)
		return dc_say(buf, size, "weights must be 2D");
	if (!weights->is_constant || (bias != NULL && !bias->is_constant))
		return dc_say(buf, size,
			   "weights and bias must be constant for XNNPACK");
	if (p.weights_format != OPVER_FC_WEIGHTS_DEFAULT)
		return dc_say(buf, size, "shuffled weights format");
	if (p.keep_num_dims && in->dims[in->rank - 1] != weights->dims[1])
		return dc_say(buf, size,
			   "keep_num_dims with an input depth other than the weights'");
	if (!p.keep_num_dims && node->outputs[0]->rank != 2)
		return dc_say(buf, size, "output must be 2D without keep_num_dims");
	if (xp_is_8bit(in) && filter_quant_refusal(node, -1, buf, size) != NULL)
		return buf;
	return range_refusal(p.activation, node->outputs[0], buf, size);
}

/* The scale ratios XNNPACK's quantized ADD, SUB (each input to the output:
 * 2^-10 to 2^8) and MUL (their product to the output: 2^-16 to 2^8)
 * take, computed in float as it computes them. */
static const char *binary_scale_refusal(const opver_node *node, char *buf,
					size_t size)
{
	float a = scale_of(node->inputs[0]), b = scale_of(node->inputs[1]);
	float out = scale_of(node->outputs[0]);

	if (node->op == OPVER_OP_MUL) {
		float ratio = a * b / out;

		if (ratio < 0x1.0p-16f || ratio >= 0x1.0p+8f)
			return dc_say(buf, size,
				   "input product to output scale %g: XNNPACK needs 2^-16 to 2^8",
				   (double)ratio);
		return NULL;
	}
	if (a / out < 0x1.0p-10f || a / out >= 0x1.0p+8f ||
	    b / out < 0x1.0p-10f || b / out >= 0x1.0p+8f)
		return dc_say(buf, size,
			   "input to output scales %g and %g: XNNPACK needs 2^-10 to 2^8",
			   (double)(a / out), (double)(b / out));
	return NULL;
}

static const char *binary_refusal(const opver_node *node, char *buf,
				  size_t size)
{
	/* ADD, MUL, SUB and DIV share the activation field's place. */
	opver_mul_params p = OPVER_MUL_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	if (xp_is_8bit(node->inputs[0]) &&
	    binary_scale_refusal(node, buf, size) != NULL)
		return buf;
	return range_refusal(p.activation, node->outputs[0], buf, size);
}

static const char *pool_refusal(const opver_node *node, char *buf,
				size_t size)
{
	opver_pool_params p = OPVER_POOL_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	if (node->inputs[0]->rank != 4 || node->outputs[0]->rank != 4)
		return dc_say(buf, size, "input and output must be 4D");
	if (p.stride_width < 1 || p.stride_height < 1 ||
	    p.filter_width < 1 || p.filter_height < 1)
		return dc_say(buf, size, "filter or stride below 1");
	/* XNNPACK's pooling nodes need a window of 2 or more elements. */
	if (p.filter_width == 1 && p.filter_height == 1)
		return dc_say(buf, size, "1x1 pooling is not supported by XNNPACK");
	if (same_quant_refusal(node, buf, size) != NULL)
		return buf;
	if (node->op == OPVER_OP_AVERAGE_POOL_2D &&
	    xp_is_8bit(node->inputs[0]) && !xp_is_global_pool(node))
		return dc_say(buf, size,
			   "quantized average pooling other than over the whole input");
	return range_refusal(p.activation, node->outputs[0], buf, size);
}

bool xp_is_global_pool(const opver_node *node)
{
	opver_pool_params p = OPVER_POOL_PARAMS_DEFAULTS;
	const int32_t *in = node->inputs[0]->dims;
	const int32_t *out = node->outputs[0]->dims;

	opver_read_params(node, &p, sizeof(p));
	return p.filter_height == in[1] && p.filter_width == in[2] &&
	       out[1] == 1 && out[2] == 1;
}

/* RELU, RELU6 and RELU_N1_TO_1 are XNNPACK clamps, which do not rescale. */
static const char *clamp_refusal(const opver_node *node, char *buf,
				 size_t size)
{
	int32_t activation = node->op == OPVER_OP_RELU ?
		OPVER_ACTIVATION_RELU : node->op == OPVER_OP_RELU6 ?
		OPVER_ACTIVATION_RELU6 : OPVER_ACTIVATION_RELU_N1_TO_1;

	if (same_quant_refusal(node, buf, size) != NULL)
		return buf;
	return range_refusal(activation, node->outputs[0], buf, size);
}

/* XNNPACK's quantized sigmoid has TFLite's fixed output quantization. */
static const char *logistic_refusal(const opver_node *node, char *buf,
				    size_t size)
{
	const opver_tensor *out = node->outputs[0];
	int32_t zero = out->type == OPVER_TYPE_INT8 ? -128 : 0;

	if (!xp_is_8bit(out) ||
	    (scale_of(out) == 0x1.0p-8f && zero_point_of(out) == zero))
		return NULL;
	return dc_say(buf, size,
		   "output scale %g and zero point %d: XNNPACK needs 1/256 and %d",
		   (double)scale_of(out), (int)zero_point_of(out), (int)zero);
}

static const char *softmax_refusal(const opver_node *node, char *buf,
				   size_t size)
{
	opver_softmax_params p = OPVER_SOFTMAX_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	if (p.beta != 1.0f)
		return dc_say(buf, size, "beta %g: XNNPACK's softmax has beta 1",
			   (double)p.beta);
	if (node->inputs[0]->rank < 1)
		return dc_say(buf, size, "scalar input");
	return NULL;
}

static const char *pad_refusal(const opver_node *node, char *buf,
			       size_t size)
{
	const opver_tensor *paddings = node->inputs[1];
	const int32_t *pads = paddings->data;
	int32_t rank = node->inputs[0]->rank;

	if (!paddings->is_constant || pads == NULL)
		return dc_say(buf, size, "paddings must be constant");
	if (paddings->rank != 2 || paddings->dims[0] != rank ||
	    paddings->dims[1] != 2)
		return dc_say(buf, size, "paddings must be [rank, 2]");
	for (int32_t i = 0; i < 2 * rank; i++)
		if (pads[i] < 0)
			return dc_say(buf, size, "negative padding");
	return same_quant_refusal(node, buf, size);
}

/* MEAN over height and width of a 4D input: a global average pooling,
 * whose quantized form takes input to output scales of 2^-8 to 2^8. */
static const char *mean_refusal(const opver_node *node, char *buf,
				size_t size)
{
	const opver_tensor *axes = node->inputs[1];
	const int32_t *axis = axes->data;
	bool seen[4] = { false, false, false, false };
	size_t count = opver_tensor_elements(axes);
	float ratio;

	if (node->inputs[0]->rank != 4)
		return dc_say(buf, size, "only MEAN of a 4D input is supported");
	if (!axes->is_constant || axis == NULL)
		return dc_say(buf, size, "axes must be constant");
	for (size_t i = 0; i < count; i++) {
		int32_t a = axis[i] < 0 ? axis[i] + 4 : axis[i];

		if (a < 0 || a > 3)
			return dc_say(buf, size, "axis %d out of range",
				   (int)axis[i]);
		seen[a] = true;
	}
	if (seen[0] || !seen[1] || !seen[2] || seen[3])
		return dc_say(buf, size,
			   "only MEAN over axes 1 and 2 (height, width) is supported");
	if (!xp_is_8bit(node->inputs[0]))
		return NULL;
	ratio = scale_of(node->inputs[0]) / scale_of(node->outputs[0]);
	if (ratio < 0x1.0p-8f || ratio >= 0x1.0p+8f)
		return dc_say(buf, size,
			   "input to output scale %g: XNNPACK needs 2^-8 to 2^8",
			   (double)ratio);
	return NULL;
}

/* XNNPACK's resize takes sizes below 2^24. */
#define XP_MAX_RESIZE 16777215

/*
 * RESIZE_BILINEAR of a 4D input to the constant size.  XNNPACK samples at
 * y * scale (XNN_FLAG_TENSORFLOW_LEGACY_MODE), at y * scale with corners
 * aligned (XNN_FLAG_ALIGN_CORNERS, the scale (in - 1) / (out - 1) but for
 * one output, as TFLite) or at pixel centres clamped to the input (no
 * flag), where TFLite's neighbours clamp to the same pixel; it has no
 * half-pixel sampling with aligned corners.
 */
static const char *resize_refusal(const opver_node *node, char *buf,
				  size_t size)
{
	opver_resize_bilinear_params p = OPVER_RESIZE_BILINEAR_PARAMS_DEFAULTS;
	const opver_tensor *sizes = node->inputs[1];
	const opver_tensor *out = node->outputs[0];
	const int32_t *hw = sizes->data;

	if (node->inputs[0]->rank != 4 || out->rank != 4)
		return dc_say(buf, size, "input and output must be 4D");
	if (!sizes->is_constant || hw == NULL ||
	    opver_tensor_elements(sizes) != 2)
		return dc_say(buf, size, "size must be a constant of 2 elements");
	if (hw[0] != out->dims[1] || hw[1] != out->dims[2])
		return dc_say(buf, size, "size %dx%d is not the output's",
			   (int)hw[0], (int)hw[1]);
	if (hw[0] > XP_MAX_RESIZE || hw[1] > XP_MAX_RESIZE ||
	    node->inputs[0]->dims[1] > XP_MAX_RESIZE ||
	    node->inputs[0]->dims[2] > XP_MAX_RESIZE)
		return dc_say(buf, size, "sizes of 2^24 or more");
	opver_read_params(node, &p, sizeof(p));
	if (p.align_corners && p.half_pixel_centers)
		return dc_say(buf, size,
			   "align_corners with half_pixel_centers: XNNPACK has no such sampling");
	return NULL;
}

static const char *depth_to_space_refusal(const opver_node *node, char *buf,
					  size_t size)
{
	opver_space_depth_params p = OPVER_SPACE_DEPTH_PARAMS_DEFAULTS;
	const opver_tensor *in = node->inputs[0], *out = node->outputs[0];

	opver_read_params(node, &p, sizeof(p));
	if (in->rank != 4 || out->rank != 4)
		return dc_say(buf, size, "input and output must be 4D");
	if (p.block_size < 2)
		return dc_say(buf, size, "block_size %d: XNNPACK needs 2 or more",
			   (int)p.block_size);
	if (in->dims[3] % ((int64_t)p.block_size * p.block_size) != 0 ||
	    (int64_t)in->dims[1] * p.block_size != out->dims[1] ||
	    (int64_t)in->dims[2] * p.block_size != out->dims[2])
		return dc_say(buf, size, "output is not the input's blocks");
	return NULL;
}

/* XNNPACK's PReLU reads one static slope per channel (the input's last
 * dimension): alpha [C] or [1, ..., 1, C], of no more dimensions than the
 * input. */
static const char *prelu_refusal(const opver_node *node, char *buf,
				 size_t size)
{
	const opver_tensor *in = node->inputs[0], *alpha = node->inputs[1];

	if (!alpha->is_constant || alpha->data == NULL)
		return dc_say(buf, size, "alpha must be constant for XNNPACK");
	if (in->rank < 1 || alpha->rank < 1 || alpha->rank > in->rank ||
	    alpha->dims[alpha->rank - 1] != in->dims[in->rank - 1] ||
	    opver_tensor_elements(alpha) !=
		    (size_t)alpha->dims[alpha->rank - 1])
		return dc_say(buf, size,
			   "alpha is not one slope per channel ([C] or [1, ..., C])");
	return NULL;
}

bool xp_deconv_axis_of(int32_t padding, int32_t in, int32_t kernel,
		       int32_t stride, int32_t out, xp_deconv_axis *axis)
{
	int64_t total = 0, end, windows;

	/* The convolution over the output: its windows and padding. */
	if (padding == OPVER_PADDING_SAME) {
		windows = ((int64_t)out + stride - 1) / stride;
		total = (windows - 1) * stride + kernel - out;
		if (total < 0)
			total = 0;
	} else {
		windows = out >= kernel ? (out - kernel) / stride + 1 : 0;
	}
	axis->before = (uint32_t)(total / 2);
	/* What the scattered input reaches past the output's end: from
	 * (1 - stride) to the padding after, when windows is the input's
	 * size. */
	end = ((int64_t)in - 1) * stride + kernel - axis->before - out;
	axis->after = end > 0 ? (uint32_t)end : 0;
	axis->adjustment = end < 0 ? (uint32_t)-end : 0;
	return windows == in;
}

/*
 * TRANSPOSE_CONV from constant output_shape, filter and bias, with an
 * output whose convolution gives back the input's size: TFLite's
 * optimized kernel (col2im over that convolution's windows) computes other
 * outputs wrongly, its reference kernel and XNNPACK as a cropped scatter,
 * so only these are TFLite's whichever kernel it runs.
 */
static const char *transpose_conv_refusal(const opver_node *node, char *buf,
					  size_t size)
{
	opver_transpose_conv_params p = OPVER_TRANSPOSE_CONV_PARAMS_DEFAULTS;
	const opver_tensor *shape = node->inputs[0], *filter = node->inputs[1];
	const opver_tensor *in = node->inputs[2], *out = node->outputs[0];
	const opver_tensor *bias = node->num_inputs > 3 ? node->inputs[3] :
							   NULL;
	const int32_t *dims = shape->data;
	xp_deconv_axis rows, cols;

	if (!shape->is_constant || dims == NULL ||
	    opver_tensor_elements(shape) != 4)
		return dc_say(buf, size,
			   "output_shape must be a constant of 4 elements");
	if (!filter->is_constant || (bias != NULL && !bias->is_constant))
		return dc_say(buf, size,
			   "filter and bias must be constant for XNNPACK");
	if (in->rank != 4 || filter->rank != 4 || out->rank != 4)
		return dc_say(buf, size, "input, filter and output must be 4D");
	for (int d = 0; d < 4; d++)
		if (dims[d] != out->dims[d])
			return dc_say(buf, size,
				   "output_shape is not the output's shape");
	if (filter->dims[3] != in->dims[3] || filter->dims[0] != out->dims[3] ||
	    in->dims[0] != out->dims[0] ||
	    (bias != NULL && opver_tensor_elements(bias) !=
				     (size_t)out->dims[3]))
		return dc_say(buf, size,
			   "filter, bias and output do not fit the input");
	opver_read_params(node, &p, sizeof(p));
	if (p.stride_height < 1 || p.stride_width < 1)
		return dc_say(buf, size, "stride below 1");
	if (!xp_deconv_axis_of(p.padding, in->dims[1], filter->dims[1],
			       p.stride_height, out->dims[1], &rows) ||
	    !xp_deconv_axis_of(p.padding, in->dims[2], filter->dims[2],
			       p.stride_width, out->dims[2], &cols))
		return dc_say(buf, size,
			   "output_shape %dx%d does not convolve back to the input's %dx%d: TFLite's kernels disagree there",
			   (int)out->dims[1], (int)out->dims[2],
			   (int)in->dims[1], (int)in->dims[2]);
	return range_refusal(p.activation, out, buf, size);
}

const char *xp_op_refusal(const opver_node *node, char *buf, size_t size)
{
	switch (node->op) {
	case OPVER_OP_CONV_2D:
		return conv_refusal(node, buf, size);
	case OPVER_OP_DEPTHWISE_CONV_2D:
		return depthwise_refusal(node, buf, size);
	case OPVER_OP_FULLY_CONNECTED:
		return fc_refusal(node, buf, size);
	case OPVER_OP_ADD:
	case OPVER_OP_MUL:
	case OPVER_OP_SUB:
	case OPVER_OP_DIV:
		return binary_refusal(node, buf, size);
	case OPVER_OP_AVERAGE_POOL_2D:
	case OPVER_OP_MAX_POOL_2D:
		return pool_refusal(node, buf, size);
	case OPVER_OP_RELU:
	case OPVER_OP_RELU6:
	case OPVER_OP_RELU_N1_TO_1:
		return clamp_refusal(node, buf, size);
	case OPVER_OP_LOGISTIC:
		return logistic_refusal(node, buf, size);
	case OPVER_OP_SOFTMAX:
		return softmax_refusal(node, buf, size);
	case OPVER_OP_PAD:
		return pad_refusal(node, buf, size);
	case OPVER_OP_RESHAPE:
		return same_quant_refusal(node, buf, size);
	case OPVER_OP_MEAN:
		return mean_refusal(node, buf, size);
	case OPVER_OP_RESIZE_BILINEAR:
		return resize_refusal(node, buf, size);
	case OPVER_OP_DEPTH_TO_SPACE:
		return depth_to_space_refusal(node, buf, size);
	case OPVER_OP_PRELU:
		return prelu_refusal(node, buf, size);
	case OPVER_OP_TRANSPOSE_CONV:
		return transpose_conv_refusal(node, buf, size);
	default:
		return NULL;
	}
}
