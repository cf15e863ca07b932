/*
 * claims.c - the delegate's typed claims and the per-node checks behind
 * them.  Claims are per type: float32, int8 (XNNPACK's QS8, and QC8 for
 * per-channel CONV_2D and DEPTHWISE_CONV_2D filters) and uint8 (QU8),
 * each op's version range ending at the highest version whose features
 * XNNPACK computes for that type (float32: grouped CONV_2D is v6, dilated
 * DEPTHWISE_CONV_2D v2, FULLY_CONNECTED without bias v6, SUB broadcasting
 * above 4 dimensions v3, PAD above 4 dimensions v4; DIV, MAXIMUM,
 * MINIMUM, SQUARED_DIFFERENCE and LEAKY_RELU are float32 only here, as
 * are RESIZE_BILINEAR, v3 with half_pixel_centers, DEPTH_TO_SPACE, PRELU,
 * ELU, TRANSPOSE_CONV, v3 with a bias and v4 with a fused activation,
 * and ABS, NEG, SQUARE, SQRT, FLOOR, CEIL and ROUND).  Quantized nodes
 * are refused where XNNPACK's own checks would fail the runtime's
 * creation (scale ratios, zero points, empty clamps) or where it would
 * compute other than TFLite (rescaling ops it does not rescale).  Its
 * 8-bit results are TFLite's within one step: it rescales once, in
 * float.
 * This XNNPACK (Debian's 2022 snapshot) has no CONCATENATION node and no
 * quantized SOFTMAX, HARD_SWISH or LEAKY_RELU, so those stay on the
 * kernels; its only quantized average pooling is global, which a
 * quantized AVERAGE_POOL_2D whose window is its whole input becomes.
 */
#include <math.h>
#include <stdio.h>

#include "claims.h"
#include "delegate_claims.h"

#define F32 OPVER_T(FLOAT32)
#define S8 OPVER_T(INT8)
#define U8 OPVER_T(UINT8)
#define I32 OPVER_T(INT32)
#define BIAS(type) ((type) | OPVER_TYPE_BIT_ABSENT)

#define SIGNATURES(name, ...) \
	static const opver_type_signature name[] = { __VA_ARGS__ }
#define FILTER(in, bias) \
	OPVER_SIGNATURE(OPVER_INPUTS(in, in, BIAS(bias)), OPVER_OUTPUT(in))
#define BINARY(t) OPVER_SIGNATURE(OPVER_INPUTS(t, t), OPVER_OUTPUT(t))
#define UNARY(t) OPVER_SIGNATURE(OPVER_INPUTS(t), OPVER_OUTPUT(t))
/* RESHAPE's shape input, when present, is only read in prepare. */
#define SHAPED(t) OPVER_SIGNATURE(OPVER_INPUTS(t, 0), OPVER_OUTPUT(t))
#define INDEXED(t) OPVER_SIGNATURE(OPVER_INPUTS(t, I32), OPVER_OUTPUT(t))

SIGNATURES(filter_f32, FILTER(F32, F32));
SIGNATURES(filter_s8, FILTER(S8, I32));
SIGNATURES(filter_u8, FILTER(U8, I32));
SIGNATURES(binary_f32, BINARY(F32));
SIGNATURES(binary_s8, BINARY(S8));
SIGNATURES(binary_u8, BINARY(U8));
SIGNATURES(unary_f32, UNARY(F32));
SIGNATURES(unary_s8, UNARY(S8));
SIGNATURES(unary_u8, UNARY(U8));
SIGNATURES(unary_8bit, UNARY(S8), UNARY(U8));
SIGNATURES(unary_any, UNARY(F32), UNARY(S8), UNARY(U8));
SIGNATURES(reshape_any, SHAPED(F32), SHAPED(S8), SHAPED(U8));
SIGNATURES(indexed_f32, INDEXED(F32));
SIGNATURES(indexed_s8, INDEXED(S8));
SIGNATURES(indexed_u8, INDEXED(U8));
SIGNATURES(indexed_any, INDEXED(F32), INDEXED(S8), INDEXED(U8));
SIGNATURES(quantize_8bit,
	   OPVER_SIGNATURE(OPVER_INPUTS(F32), OPVER_OUTPUT(S8 | U8)));
SIGNATURES(dequantize_s8,
	   OPVER_SIGNATURE(OPVER_INPUTS(S8), OPVER_OUTPUT(F32)));
SIGNATURES(dequantize_u8,
	   OPVER_SIGNATURE(OPVER_INPUTS(U8), OPVER_OUTPUT(F32)));
/* TRANSPOSE_CONV: output_shape, filter, input and an optional bias. */
SIGNATURES(transpose_conv_f32,
	   OPVER_SIGNATURE(OPVER_INPUTS(I32, F32, F32, BIAS(F32)),
			   OPVER_OUTPUT(F32)));

#define CLAIM(var, op, min, max, types)              \
	static const opver_delegate_op var = {       \
		OPVER_DELEGATE_OP(op, min, max),     \
		OPVER_KERNEL_SIGNATURES(types),      \
	}

/* Each op's versions per type, as TFLite's rules give them (int8 CONV_2D
 * is version 3, grouped 6; int8 DEPTHWISE_CONV_2D 3; int8 MUL 2, 3 for
 * an output scale below the inputs' product; PAD above 4 dimensions 4). */
CLAIM(conv_2d, CONV_2D, 1, 6, filter_f32);
CLAIM(conv_2d_s8, CONV_2D, 1, 6, filter_s8);
CLAIM(conv_2d_u8, CONV_2D, 1, 6, filter_u8);
CLAIM(depthwise_conv_2d, DEPTHWISE_CONV_2D, 1, 2, filter_f32);
CLAIM(depthwise_conv_2d_s8, DEPTHWISE_CONV_2D, 1, 3, filter_s8);
CLAIM(depthwise_conv_2d_u8, DEPTHWISE_CONV_2D, 1, 2, filter_u8);
CLAIM(fully_connected, FULLY_CONNECTED, 1, 6, filter_f32);
CLAIM(fully_connected_s8, FULLY_CONNECTED, 1, 6, filter_s8);
CLAIM(fully_connected_u8, FULLY_CONNECTED, 1, 6, filter_u8);
CLAIM(add, ADD, 1, 1, binary_f32);
CLAIM(add_s8, ADD, 1, 2, binary_s8);
CLAIM(add_u8, ADD, 1, 1, binary_u8);
CLAIM(mul, MUL, 1, 1, binary_f32);
CLAIM(mul_s8, MUL, 1, 3, binary_s8);
CLAIM(mul_u8, MUL, 1, 3, binary_u8);
CLAIM(sub, SUB, 1, 3, binary_f32);
CLAIM(sub_s8, SUB, 1, 3, binary_s8);
CLAIM(sub_u8, SUB, 1, 3, binary_u8);
CLAIM(average_pool_2d, AVERAGE_POOL_2D, 1, 1, unary_f32);
CLAIM(average_pool_2d_s8, AVERAGE_POOL_2D, 1, 2, unary_s8);
CLAIM(average_pool_2d_u8, AVERAGE_POOL_2D, 1, 1, unary_u8);
CLAIM(max_pool_2d, MAX_POOL_2D, 1, 1, unary_f32);
CLAIM(max_pool_2d_s8, MAX_POOL_2D, 1, 2, unary_s8);
CLAIM(max_pool_2d_u8, MAX_POOL_2D, 1, 1, unary_u8);
CLAIM(reshape, RESHAPE, 1, 1, reshape_any);
CLAIM(softmax, SOFTMAX, 1, 1, unary_f32);
CLAIM(relu, RELU, 1, 1, unary_f32);
CLAIM(relu_8bit, RELU, 1, 2, unary_8bit);
CLAIM(relu6, RELU6, 1, 1, unary_f32);
CLAIM(relu6_s8, RELU6, 1, 2, unary_s8);
CLAIM(relu6_u8, RELU6, 1, 1, unary_u8);
CLAIM(relu_n1_to_1, RELU_N1_TO_1, 1, 1, unary_any);
CLAIM(logistic, LOGISTIC, 1, 1, unary_f32);
CLAIM(logistic_s8, LOGISTIC, 1, 2, unary_s8);
CLAIM(logistic_u8, LOGISTIC, 1, 1, unary_u8);
CLAIM(hard_swish, HARD_SWISH, 1, 1, unary_f32);
CLAIM(pad, PAD, 1, 4, indexed_any);
CLAIM(mean, MEAN, 1, 1, indexed_f32);
CLAIM(mean_s8, MEAN, 1, 2, indexed_s8);
CLAIM(mean_u8, MEAN, 1, 1, indexed_u8);
CLAIM(quantize, QUANTIZE, 1, 1, quantize_8bit);
CLAIM(dequantize_s8_claim, DEQUANTIZE, 1, 2, dequantize_s8);
CLAIM(dequantize_u8_claim, DEQUANTIZE, 1, 1, dequantize_u8);
/* Float32 only in this XNNPACK; above 4 dimensions (DIV v2, MAXIMUM and
 * MINIMUM v3) it broadcasts up to its 6. */
CLAIM(div, DIV, 1, 2, binary_f32);
CLAIM(maximum, MAXIMUM, 1, 3, binary_f32);
CLAIM(minimum, MINIMUM, 1, 3, binary_f32);
CLAIM(squared_difference, SQUARED_DIFFERENCE, 1, 1, binary_f32);
CLAIM(leaky_relu, LEAKY_RELU, 1, 1, unary_f32);
/* Float32 only too: RESIZE_BILINEAR's v2 is int8 (its float32 nodes are
 * computed alike), v3 half_pixel_centers; TRANSPOSE_CONV's v2 an int8
 * filter, v3 a bias, v4 a fused activation. */
CLAIM(resize_bilinear, RESIZE_BILINEAR, 1, 3, indexed_f32);
CLAIM(depth_to_space, DEPTH_TO_SPACE, 1, 1, unary_f32);
CLAIM(prelu, PRELU, 1, 1, binary_f32);
CLAIM(elu, ELU, 1, 1, unary_f32);
CLAIM(transpose_conv, TRANSPOSE_CONV, 1, 4, transpose_conv_f32);
/* Float32 unary math: every later version of these ops is an integer
 * type.  XNNPACK's ROUND is banker's rounding, as TFLite's. */
CLAIM(abs_f32, ABS, 1, 1, unary_f32);
CLAIM(neg_f32, NEG, 1, 1, unary_f32);
CLAIM(square_f32, SQUARE, 1, 1, unary_f32);
CLAIM(sqrt_f32, SQRT, 1, 1, unary_f32);
CLAIM(floor_f32, FLOOR, 1, 1, unary_f32);
CLAIM(ceil_f32, CEIL, 1, 1, unary_f32);
CLAIM(round_f32, ROUND, 1, 1, unary_f32);

const opver_delegate_op *const xp_claims[XP_NUM_CLAIMS] = {
	&conv_2d, &conv_2d_s8, &conv_2d_u8,
	&depthwise_conv_2d, &depthwise_conv_2d_s8, &depthwise_conv_2d_u8,
	&fully_connected, &fully_connected_s8, &fully_connected_u8,
	&add, &add_s8, &add_u8, &mul, &mul_s8, &mul_u8,
	&sub, &sub_s8, &sub_u8,
	&average_pool_2d, &average_pool_2d_s8, &average_pool_2d_u8,
	&max_pool_2d, &max_pool_2d_s8, &max_pool_2d_u8, &reshape, &softmax,
	&relu, &relu_8bit, &relu6, &relu6_s8, &relu6_u8, &relu_n1_to_1,
	&logistic, &logistic_s8, &logistic_u8, &hard_swish, &pad,
	&mean, &mean_s8, &mean_u8, &quantize, &dequantize_s8_claim,
	&dequantize_u8_claim, &div, &maximum, &minimum, &squared_difference,
	&leaky_relu, &resize_bilinear, &depth_to_space, &prelu, &elu,
	&transpose_conv, &abs_f32, &neg_f32, &square_f32, &sqrt_f32,
	&floor_f32, &ceil_f32, &round_f32,
};

int32_t xp_value_input(const opver_node *node)
{
	return node->op == OPVER_OP_TRANSPOSE_CONV ? 2 : 0;
}

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

/* The name of the first of the claims' types in `mask`; NULL for none. */
static const char *type_word(uint32_t mask)
{
	if (mask & F32)
		return "float32";
	if (mask & S8)
		return "int8";
	if (mask & U8)
		return "uint8";
	if (mask & I32)
		return "int32";
	return NULL;
}

/* The claim for the node's op whose signature takes its value input's
 * and its output's types, with that signature in *sig; NULL when none. */
static const opver_delegate_op *claim_of(const opver_node *node,
					 const opver_type_signature **sig)
{
	int32_t v = xp_value_input(node);
	const opver_tensor *in = node->num_inputs > v ? node->inputs[v] : NULL;
	const opver_tensor *out = node->num_outputs > 0 ? node->outputs[0] :
							    NULL;

	if (in == NULL || out == NULL)
		return NULL;
	for (int i = 0; i < XP_NUM_CLAIMS; i++) {
		const opver_delegate_op *claim = xp_claims[i];

		if (claim->op != node->op)
			continue;
		for (uint32_t s = 0; s < claim->num_signatures; s++) {
			*sig = &claim->signatures[s];
			if (opver_type_mask_has((*sig)->inputs[v], in->type) &&
			    opver_type_mask_has((*sig)->output, out->type))
				return claim;
		}
	}
	return NULL;
}

static const char *types_refusal(const opver_node *node, char *buf,
				 size_t size)
{
	int32_t in = node->inputs[xp_value_input(node)]->type;
	int32_t out = node->outputs[0]->type;
	const char *in_word = opver_type_mask_has(F32 | S8 | U8, in) ?
		type_word(OPVER_TYPE_BIT(in)) : NULL;
	const char *out_word = opver_type_mask_has(F32 | S8 | U8, out) ?
		type_word(OPVER_TYPE_BIT(out)) : NULL;

	if (in_word == NULL || out_word == NULL)
		return dc_say(buf, size,
			   "types other than float32, int8 and uint8");
	return dc_say(buf, size,
		   "this XNNPACK has no such node for %s input and %s output",
		   in_word, out_word);
}

static bool has_claim(int32_t op)
{
	for (int i = 0; i < XP_NUM_CLAIMS; i++)
		if (xp_claims[i]->op == op)
			return true;
	return false;
}

static bool is_8bit(const opver_tensor *t)
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
static const char *quant_refusal(const opver_tensor *t, const char *what,
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
	return !is_8bit(a) ||
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
	if (!is_8bit(out))
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
		if (quant_refusal(filter, "filter", buf, size) != NULL)
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
	if (!is_8bit(node->inputs[0]))
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
	if (is_8bit(in) && filter_quant_refusal(node, -1, buf, size) != NULL)
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
	if (is_8bit(node->inputs[0]) &&
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
	    is_8bit(node->inputs[0]) && !xp_is_global_pool(node))
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

	if (!is_8bit(out) ||
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
	if (!is_8bit(node->inputs[0]))
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

/* How many inputs the op needs. */
static int32_t required_inputs(int32_t op)
{
	switch (op) {
	case OPVER_OP_TRANSPOSE_CONV:
		return 3;
	case OPVER_OP_CONV_2D:
	case OPVER_OP_DEPTHWISE_CONV_2D:
	case OPVER_OP_FULLY_CONNECTED:
	case OPVER_OP_ADD:
	case OPVER_OP_MUL:
	case OPVER_OP_SUB:
	case OPVER_OP_PAD:
	case OPVER_OP_MEAN:
	case OPVER_OP_RESIZE_BILINEAR:
	case OPVER_OP_PRELU:
		return 2;
	default:
		return 1;
	}
}

/* Whether input i of the node is an index operand (PAD's paddings, MEAN's
 * axes, RESHAPE's shape, RESIZE_BILINEAR's size, TRANSPOSE_CONV's
 * output_shape), read in prepare rather than a value. */
static bool is_index_input(const opver_node *node, int32_t i)
{
	if (node->op == OPVER_OP_TRANSPOSE_CONV)
		return i == 0;
	return i == 1 && (node->op == OPVER_OP_PAD ||
			  node->op == OPVER_OP_MEAN ||
			  node->op == OPVER_OP_RESHAPE ||
			  node->op == OPVER_OP_RESIZE_BILINEAR);
}

/* A value operand (or the output): of the signature's type, of at most
 * XP_MAX_DIMS dimensions, not empty and, if 8-bit, quantized as XNNPACK
 * takes it (a filter's scales are the op's check). */
static const char *operand_refusal(const opver_tensor *t, uint32_t mask,
				   const char *what, bool filter, char *buf,
				   size_t size)
{
	if (mask != 0 && !opver_type_mask_has(mask, t->type))
		return dc_say(buf, size, "%s is not %s", what, type_word(mask));
	if (t->rank > XP_MAX_DIMS)
		return dc_say(buf, size, "%s has more than %d dimensions", what,
			   XP_MAX_DIMS);
	/* XNNPACK refuses empty values when the runtime is created. */
	if (opver_tensor_elements(t) == 0)
		return dc_say(buf, size, "%s is empty", what);
	if (is_8bit(t) && !filter)
		return quant_refusal(t, what, buf, size);
	return NULL;
}

/* Every operand present where required and as the claim's signature
 * `sig` types it. */
static const char *tensor_refusal(const opver_node *node,
				  const opver_type_signature *sig, char *buf,
				  size_t size)
{
	bool weighted = node->op == OPVER_OP_CONV_2D ||
			node->op == OPVER_OP_DEPTHWISE_CONV_2D ||
			node->op == OPVER_OP_FULLY_CONNECTED;
	int32_t required = required_inputs(node->op);

	if (node->num_inputs < required || node->num_outputs != 1)
		return dc_say(buf, size, "needs %d inputs and 1 output",
			   (int)required);
	for (int32_t i = 0; i < node->num_inputs; i++) {
		const opver_tensor *t = node->inputs[i];
		uint32_t mask = i < OPVER_SIGNATURE_INPUTS ? sig->inputs[i] : 0;
		char what[24];

		if (t == NULL && i >= required)
			continue;
		if (t == NULL)
			return dc_say(buf, size, "input %d missing", (int)i);
		snprintf(what, sizeof(what), "input %d", (int)i);
		if (is_index_input(node, i)) {
			if (mask != 0 && !opver_type_mask_has(mask, t->type))
				return dc_say(buf, size, "%s is not %s", what,
					   type_word(mask));
			continue;
		}
		if (operand_refusal(t, mask & ~OPVER_TYPE_BIT_ABSENT,
				    what, weighted && i == 1, buf,
				    size) != NULL)
			return buf;
	}
	return operand_refusal(node->outputs[0], sig->output, "output",
			       false, buf, size);
}

const char *xp_refusal(const opver_node *node, char *buf, size_t size)
{
	const opver_type_signature *sig = NULL;
	const opver_delegate_op *claim;
	int32_t v = xp_value_input(node);
	const char *why;

	if (!has_claim(node->op))
		return dc_say(buf, size, "op not supported by this XNNPACK");
	if (node->num_inputs <= v || node->inputs[v] == NULL ||
	    node->num_outputs < 1 || node->outputs[0] == NULL)
		return dc_say(buf, size, "needs an input and an output");
	claim = claim_of(node, &sig);
	if (claim == NULL)
		return types_refusal(node, buf, size);
	if (node->resolved_version > claim->max_version)
		return dc_say(buf, size, "version %d above %d",
			   (int)node->resolved_version, (int)claim->max_version);
	why = tensor_refusal(node, sig, buf, size);
	if (why != NULL)
		return why;
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
