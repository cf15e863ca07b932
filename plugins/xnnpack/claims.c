/*
 * claims.c - the delegate's typed claims, and the type and operand checks
 * of a node against them (refusals.c has the per-op checks).  Claims are
 * per type: float32, int8 (XNNPACK's QS8, and QC8 for
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
#include <stdio.h>

#include "claims.h"
#include "delegate_claims.h"
#include "refusals.h"

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
	if (xp_is_8bit(t) && !filter)
		return xp_quant_refusal(t, what, buf, size);
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
	return xp_op_refusal(node, buf, size);
}
