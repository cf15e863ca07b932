/*
 * claims.c - the oneDNN delegate's typed claims and the per-node checks
 * behind them.  It claims int8 CONV_2D (TFLite's versions 1 to 3:
 * dilation, per-channel filters), DEPTHWISE_CONV_2D (1 to 3: any depth
 * multiplier, dilation, per-channel filters) and FULLY_CONNECTED (1 to 6:
 * keep_num_dims, no bias, per-tensor or per-unit weights) where oneDNN's
 * VNNI convolution computes TFLite's result within one output step:
 * oneDNN rescales the int32 accumulator by a float multiplier per channel,
 * TFLite by a fixed-point one, so ties may round apart.  It claims the
 * three in float32 too, where oneDNN's AVX-512 kernels beat XNNPACK's (on
 * mlperf_vww_96_float, one thread: XNNPACK alone 0.134 ms, oneDNN +
 * XNNPACK 0.113 ms with oneDNN's float CONV_2D, 0.100 ms with its
 * depthwise and fully connected layers as well).  Grouped
 * convolution (CONV_2D version 6), int16, int4 and hybrid nodes, filters
 * with zero points (oneDNN has no weight zero point) and the activations
 * oneDNN is not given (TANH, SIGN_BIT) stay on the kernels.
 */
#include <math.h>

#include "claims.h"
#include "delegate_claims.h"
#include "geometry.h"

#define S8 OPVER_T(INT8)
#define I32 OPVER_T(INT32)
#define F32 OPVER_T(FLOAT32)

static const opver_type_signature conv_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(S8, S8, I32 | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(S8)),
	OPVER_SIGNATURE(OPVER_INPUTS(F32, F32, F32 | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(F32)),
};

static const opver_delegate_op conv_2d = {
	OPVER_DELEGATE_OP(CONV_2D, 1, 3),
	OPVER_KERNEL_SIGNATURES(conv_types),
};

static const opver_delegate_op depthwise_conv_2d = {
	OPVER_DELEGATE_OP(DEPTHWISE_CONV_2D, 1, 3),
	OPVER_KERNEL_SIGNATURES(conv_types),
};

static const opver_delegate_op fully_connected = {
	OPVER_DELEGATE_OP(FULLY_CONNECTED, 1, 6),
	OPVER_KERNEL_SIGNATURES(conv_types),
};

const opver_delegate_op *const dn_claims[DN_NUM_CLAIMS] = {
	&conv_2d, &depthwise_conv_2d, &fully_connected,
};

bool dn_activation_bounds(int32_t activation, float *lo, float *hi)
{
	*lo = -INFINITY;
	*hi = INFINITY;
	switch (activation) {
	case OPVER_ACTIVATION_NONE:
		return true;
	case OPVER_ACTIVATION_RELU:
		*lo = 0.0f;
		return true;
	case OPVER_ACTIVATION_RELU6:
		*lo = 0.0f;
		*hi = 6.0f;
		return true;
	case OPVER_ACTIVATION_RELU_N1_TO_1:
		*lo = -1.0f;
		*hi = 1.0f;
		return true;
	default:
		return false;
	}
}

/* `value` in `t`'s steps, held to one step past the int8 range (so a
 * bound above it still leaves no range below it). */
static int32_t quantize(float value, const opver_tensor *t)
{
	float q = (float)t->quant.zero_point[0] +
		  roundf(value / t->quant.scale[0]);

	return q < INT8_MIN - 1 ? INT8_MIN - 1 :
	       q > INT8_MAX + 1 ? INT8_MAX + 1 : (int32_t)q;
}

bool dn_activation_range(int32_t activation, const opver_tensor *out,
			 int32_t *qmin, int32_t *qmax)
{
	float lo, hi;

	*qmin = INT8_MIN;
	*qmax = INT8_MAX;
	if (!dn_activation_bounds(activation, &lo, &hi))
		return false;
	if (isfinite(lo) && quantize(lo, out) > *qmin)
		*qmin = quantize(lo, out);
	if (isfinite(hi) && quantize(hi, out) < *qmax)
		*qmax = quantize(hi, out);
	return true;
}

static bool usable_scale(float scale)
{
	return isnormal(scale) && scale > 0.0f;
}

/* One scale and zero point, the scale a normal positive number, the zero
 * point an int8 value. */
static bool per_tensor(const opver_tensor *t)
{
	return t->quant.count == 1 && t->quant.scale != NULL &&
	       t->quant.zero_point != NULL &&
	       usable_scale(t->quant.scale[0]) &&
	       t->quant.zero_point[0] >= INT8_MIN &&
	       t->quant.zero_point[0] <= INT8_MAX;
}

/* The filter: symmetric, one scale in all or one per output channel
 * (along dimension `axis`). */
static const char *filter_refusal(const opver_tensor *filter, int32_t axis,
				  char *buf, size_t size)
{
	int32_t count = filter->quant.count;

	if (count < 1 || filter->quant.scale == NULL ||
	    filter->quant.zero_point == NULL ||
	    (count > 1 &&
	     (count != filter->dims[axis] || filter->quant.axis != axis)))
		return dc_say(buf, size,
			   "filter scales are neither one per tensor nor one per output channel");
	for (int32_t c = 0; c < count; c++) {
		if (filter->quant.zero_point[c] != 0)
			return dc_say(buf, size,
				   "filter zero point %lld: oneDNN has no weight zero points",
				   (long long)filter->quant.zero_point[c]);
		if (!usable_scale(filter->quant.scale[c]))
			return dc_say(buf, size,
				   "filter scale %g is not a normal positive number",
				   (double)filter->quant.scale[c]);
	}
	return NULL;
}

/* Quantization oneDNN's attributes express, and the activation's range. */
static const char *quantization_refusal(const dn_geometry *g, char *buf,
					size_t size)
{
	int32_t qmin, qmax;

	if (!per_tensor(g->input) || !per_tensor(g->output))
		return dc_say(buf, size,
			   "input and output need one normal positive scale and an int8 zero point each");
	if (filter_refusal(g->filter, g->filter_axis, buf, size) != NULL)
		return buf;
	if (dn_activation_range(g->activation, g->output, &qmin, &qmax) &&
	    qmin > qmax)
		return dc_say(buf, size,
			   "fused activation leaves the output no range (%d to %d)",
			   (int)qmin, (int)qmax);
	return NULL;
}

/* The node's types: int8 with an int32 bias, or float32 throughout. */
static bool types_are(const opver_node *node, int32_t data,
		      int32_t bias)
{
	return node->inputs[0]->type == data &&
	       node->inputs[1]->type == data &&
	       node->outputs[0]->type == data &&
	       (node->num_inputs < 3 || node->inputs[2] == NULL ||
		node->inputs[2]->type == bias);
}

const char *dn_refusal(const opver_node *node, char *buf, size_t size)
{
	const opver_delegate_op *claim = NULL;
	dn_geometry g;
	float lo, hi;
	bool quantized;

	for (size_t c = 0; c < DN_NUM_CLAIMS; c++)
		if (dn_claims[c]->op == node->op)
			claim = dn_claims[c];
	if (claim == NULL)
		return dc_say(buf, size, "op not supported by this delegate");
	if (node->num_inputs < 2 || node->num_outputs != 1 ||
	    node->inputs[0] == NULL || node->inputs[1] == NULL ||
	    node->outputs[0] == NULL)
		return dc_say(buf, size, "needs an input, a filter and an output");
	quantized = types_are(node, OPVER_TYPE_INT8, OPVER_TYPE_INT32);
	if (!quantized &&
	    !types_are(node, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32))
		return dc_say(buf, size,
			   "not int8 input, filter and output with an int32 bias, nor float32 throughout");
	if (node->resolved_version > claim->max_version)
		return dc_say(buf, size, "version %d above %d",
			   (int)node->resolved_version, (int)claim->max_version);
	if (dn_geometry_of(node, &g, buf, size) != NULL)
		return buf;
	if (!g.filter->is_constant)
		return dc_say(buf, size, "filter not constant");
	if (g.bias != NULL &&
	    (!g.bias->is_constant || g.bias->rank != 1 ||
	     g.bias->dims[0] != g.out_channels))
		return dc_say(buf, size,
			   "bias is not a constant with one value per output channel");
	if (!dn_activation_bounds(g.activation, &lo, &hi))
		return dc_say(buf, size,
			   "fused activation %d not supported by this delegate",
			   (int)g.activation);
	return quantized ? quantization_refusal(&g, buf, size) : NULL;
}
