/*
 * claims.c - the delegate's typed claims and the per-node checks behind
 * them.  Every claim is float32 only: for each op the version range ends at
 * the highest version whose float32 features XNNPACK computes (grouped
 * CONV_2D is v6, dilated DEPTHWISE_CONV_2D v2, FULLY_CONNECTED without bias
 * v6, SUB broadcasting above 4 dimensions v3, PAD above 4 dimensions v4;
 * the versions in between add integer types, which are not claimed).
 * This XNNPACK (Debian's 2022 snapshot) has no CONCATENATION node, so the
 * op stays on the kernels.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "claims.h"

#define F32 OPVER_T(FLOAT32)

static const opver_type_signature filter_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(F32, F32, F32 | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(F32)),
};
static const opver_type_signature binary_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(F32, F32), OPVER_OUTPUT(F32)),
};
static const opver_type_signature unary_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(F32), OPVER_OUTPUT(F32)),
};
/* RESHAPE's shape input, when present, is only read in prepare. */
static const opver_type_signature reshape_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(F32, 0), OPVER_OUTPUT(F32)),
};
static const opver_type_signature indexed_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(F32, OPVER_T(INT32)), OPVER_OUTPUT(F32)),
};

#define CLAIM(var, op, min, max, types)              \
	static const opver_delegate_op var = {       \
		OPVER_DELEGATE_OP(op, min, max),     \
		OPVER_KERNEL_SIGNATURES(types),      \
	}

CLAIM(conv_2d, CONV_2D, 1, 6, filter_types);
CLAIM(depthwise_conv_2d, DEPTHWISE_CONV_2D, 1, 2, filter_types);
CLAIM(fully_connected, FULLY_CONNECTED, 1, 6, filter_types);
CLAIM(add, ADD, 1, 1, binary_types);
CLAIM(mul, MUL, 1, 1, binary_types);
CLAIM(sub, SUB, 1, 3, binary_types);
CLAIM(average_pool_2d, AVERAGE_POOL_2D, 1, 1, unary_types);
CLAIM(max_pool_2d, MAX_POOL_2D, 1, 1, unary_types);
CLAIM(reshape, RESHAPE, 1, 1, reshape_types);
CLAIM(softmax, SOFTMAX, 1, 1, unary_types);
CLAIM(relu, RELU, 1, 1, unary_types);
CLAIM(relu6, RELU6, 1, 1, unary_types);
CLAIM(relu_n1_to_1, RELU_N1_TO_1, 1, 1, unary_types);
CLAIM(logistic, LOGISTIC, 1, 1, unary_types);
CLAIM(hard_swish, HARD_SWISH, 1, 1, unary_types);
CLAIM(pad, PAD, 1, 4, indexed_types);
CLAIM(mean, MEAN, 1, 1, indexed_types);

const opver_delegate_op *const xp_claims[XP_NUM_CLAIMS] = {
	&conv_2d, &depthwise_conv_2d, &fully_connected, &add, &mul, &sub,
	&average_pool_2d, &max_pool_2d, &reshape, &softmax, &relu, &relu6,
	&relu_n1_to_1, &logistic, &hard_swish, &pad, &mean,
};

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

static const char *say(char *buf, size_t size, const char *format, ...)
	__attribute__((format(printf, 3, 4)));
static const char *say(char *buf, size_t size, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(buf, size, format, args);
	va_end(args);
	return buf;
}

static const opver_delegate_op *claim_of(int32_t op)
{
	for (int i = 0; i < XP_NUM_CLAIMS; i++)
		if (xp_claims[i]->op == op)
			return xp_claims[i];
	return NULL;
}

static bool is_float32(const opver_tensor *t)
{
	return t != NULL && t->type == OPVER_TYPE_FLOAT32;
}

static const char *activation_refusal(int32_t activation, char *buf,
				      size_t size)
{
	float min, max;

	if (xp_activation_range(activation, &min, &max))
		return NULL;
	return say(buf, size, "fused activation %d not supported by XNNPACK",
		   (int)activation);
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
		return say(buf, size, "input, filter and output must be 4D");
	if (!filter->is_constant || (bias != NULL && !bias->is_constant))
		return say(buf, size,
			   "filter and bias must be constant for XNNPACK");
	return NULL;
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
		return say(buf, size, "stride or dilation below 1");
	if (node->inputs[1]->dims[3] < 1 ||
	    node->inputs[0]->dims[3] % node->inputs[1]->dims[3] != 0)
		return say(buf, size,
			   "input channels not a multiple of the filter's");
	return activation_refusal(p.activation, buf, size);
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
		return say(buf, size, "stride or dilation below 1");
	if (in < 1 || node->inputs[1]->dims[3] % in != 0)
		return say(buf, size,
			   "filter channels not a multiple of the input's");
	return activation_refusal(p.activation, buf, size);
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
		return say(buf, size, "weights must be 2D");
	if (!weights->is_constant || (bias != NULL && !bias->is_constant))
		return say(buf, size,
			   "weights and bias must be constant for XNNPACK");
	if (p.weights_format != OPVER_FC_WEIGHTS_DEFAULT)
		return say(buf, size, "shuffled weights format");
	if (p.keep_num_dims && in->dims[in->rank - 1] != weights->dims[1])
		return say(buf, size,
			   "keep_num_dims with an input depth other than the weights'");
	if (!p.keep_num_dims && node->outputs[0]->rank != 2)
		return say(buf, size, "output must be 2D without keep_num_dims");
	return activation_refusal(p.activation, buf, size);
}

static const char *binary_refusal(const opver_node *node, char *buf,
				  size_t size)
{
	/* ADD, MUL and SUB share the activation field's place. */
	opver_mul_params p = OPVER_MUL_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	return activation_refusal(p.activation, buf, size);
}

static const char *pool_refusal(const opver_node *node, char *buf,
				size_t size)
{
	opver_pool_params p = OPVER_POOL_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	if (node->inputs[0]->rank != 4 || node->outputs[0]->rank != 4)
		return say(buf, size, "input and output must be 4D");
	if (p.stride_width < 1 || p.stride_height < 1 ||
	    p.filter_width < 1 || p.filter_height < 1)
		return say(buf, size, "filter or stride below 1");
	/* XNNPACK's pooling nodes need a window of 2 or more elements. */
	if (p.filter_width == 1 && p.filter_height == 1)
		return say(buf, size, "1x1 pooling is not supported by XNNPACK");
	return activation_refusal(p.activation, buf, size);
}

static const char *softmax_refusal(const opver_node *node, char *buf,
				   size_t size)
{
	opver_softmax_params p = OPVER_SOFTMAX_PARAMS_DEFAULTS;

	opver_read_params(node, &p, sizeof(p));
	if (p.beta != 1.0f)
		return say(buf, size, "beta %g: XNNPACK's softmax has beta 1",
			   (double)p.beta);
	if (node->inputs[0]->rank < 1)
		return say(buf, size, "scalar input");
	return NULL;
}

static const char *pad_refusal(const opver_node *node, char *buf,
			       size_t size)
{
	const opver_tensor *paddings = node->inputs[1];
	const int32_t *pads = paddings->data;
	int32_t rank = node->inputs[0]->rank;

	if (!paddings->is_constant || pads == NULL)
		return say(buf, size, "paddings must be constant");
	if (paddings->rank != 2 || paddings->dims[0] != rank ||
	    paddings->dims[1] != 2)
		return say(buf, size, "paddings must be [rank, 2]");
	for (int32_t i = 0; i < 2 * rank; i++)
		if (pads[i] < 0)
			return say(buf, size, "negative padding");
	return NULL;
}

/* MEAN over height and width of a 4D input: a global average pooling. */
static const char *mean_refusal(const opver_node *node, char *buf,
				size_t size)
{
	const opver_tensor *axes = node->inputs[1];
	const int32_t *axis = axes->data;
	bool seen[4] = { false, false, false, false };
	size_t count = opver_tensor_elements(axes);

	if (node->inputs[0]->rank != 4)
		return say(buf, size, "only MEAN of a 4D input is supported");
	if (!axes->is_constant || axis == NULL)
		return say(buf, size, "axes must be constant");
	for (size_t i = 0; i < count; i++) {
		int32_t a = axis[i] < 0 ? axis[i] + 4 : axis[i];

		if (a < 0 || a > 3)
			return say(buf, size, "axis %d out of range",
				   (int)axis[i]);
		seen[a] = true;
	}
	if (seen[0] || !seen[1] || !seen[2] || seen[3])
		return say(buf, size,
			   "only MEAN over axes 1 and 2 (height, width) is supported");
	return NULL;
}

/* Every tensor float32 (but MEAN's and PAD's second input, and RESHAPE's
 * shape), present where required, of at most XP_MAX_DIMS dimensions. */
static const char *tensor_refusal(const opver_node *node, char *buf,
				  size_t size)
{
	bool indexed = node->op == OPVER_OP_PAD || node->op == OPVER_OP_MEAN ||
		       node->op == OPVER_OP_RESHAPE;
	int32_t required = node->op == OPVER_OP_CONV_2D ||
			   node->op == OPVER_OP_DEPTHWISE_CONV_2D ||
			   node->op == OPVER_OP_FULLY_CONNECTED ||
			   node->op == OPVER_OP_ADD || node->op == OPVER_OP_MUL ||
			   node->op == OPVER_OP_SUB || node->op == OPVER_OP_PAD ||
			   node->op == OPVER_OP_MEAN ? 2 : 1;

	if (node->num_inputs < required || node->num_outputs != 1)
		return say(buf, size, "needs %d inputs and 1 output",
			   (int)required);
	for (int32_t i = 0; i < node->num_inputs; i++) {
		const opver_tensor *t = node->inputs[i];

		if (t == NULL && i >= required)
			continue;
		if (t == NULL)
			return say(buf, size, "input %d missing", (int)i);
		if (indexed && i == 1) {
			if (node->op != OPVER_OP_RESHAPE &&
			    t->type != OPVER_TYPE_INT32)
				return say(buf, size, "input 1 is not int32");
			continue;
		}
		if (!is_float32(t))
			return say(buf, size, "input %d is not float32",
				   (int)i);
		if (t->rank > XP_MAX_DIMS)
			return say(buf, size,
				   "input %d has more than %d dimensions",
				   (int)i, XP_MAX_DIMS);
		/* XNNPACK refuses empty values when the runtime is
		 * created. */
		if (opver_tensor_elements(t) == 0)
			return say(buf, size, "input %d is empty", (int)i);
	}
	if (!is_float32(node->outputs[0]))
		return say(buf, size, "output is not float32");
	if (node->outputs[0]->rank > XP_MAX_DIMS)
		return say(buf, size, "output has more than %d dimensions",
			   XP_MAX_DIMS);
	if (opver_tensor_elements(node->outputs[0]) == 0)
		return say(buf, size, "output is empty");
	return NULL;
}

const char *xp_refusal(const opver_node *node, char *buf, size_t size)
{
	const opver_delegate_op *claim = claim_of(node->op);
	const char *why;

	if (claim == NULL)
		return say(buf, size, "op not supported by this XNNPACK");
	if (node->resolved_version > claim->max_version)
		return say(buf, size, "version %d above %d",
			   (int)node->resolved_version, (int)claim->max_version);
	why = tensor_refusal(node, buf, size);
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
		return binary_refusal(node, buf, size);
	case OPVER_OP_AVERAGE_POOL_2D:
	case OPVER_OP_MAX_POOL_2D:
		return pool_refusal(node, buf, size);
	case OPVER_OP_SOFTMAX:
		return softmax_refusal(node, buf, size);
	case OPVER_OP_PAD:
		return pad_refusal(node, buf, size);
	case OPVER_OP_MEAN:
		return mean_refusal(node, buf, size);
	default:
		return NULL;
	}
}
