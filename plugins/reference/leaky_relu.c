/*
 * leaky_relu.c - LEAKY_RELU, computed as TensorFlow Lite's kernels
 * compute it.
 *
 *   float32  x above 0: x; else alpha x.
 *   int8, uint8, int16
 *            q - input zero point at or above 0 rescaled by input scale /
 *            output scale, below 0 by alpha x input scale / output scale
 *            (MultiplyByQuantizedMultiplier each; a negative alpha gives
 *            a negative multiplier, as in TFLite), plus the output zero
 *            point, clamped to the type.
 *
 * Versions (TFLite's op_version rules): 2 for int16, 1 otherwise.
 */
#include <math.h>

#include "activation.h"
#include "kernels.h"
#include "quantization.h"

typedef struct leaky_relu_float32_data {
	float alpha;
	size_t count;
} leaky_relu_float32_data;

typedef struct leaky_relu_quantized_data {
	int32_t type;
	size_t count;
	int32_t input_zero;
	int32_t output_zero;
	int32_t identity_multiplier;
	int identity_shift;
	int32_t alpha_multiplier;
	int alpha_shift;
	int32_t min; /* the type's range */
	int32_t max;
} leaky_relu_quantized_data;

static float leaky_relu_alpha(const opver_node *node)
{
	opver_leaky_relu_params params = OPVER_LEAKY_RELU_PARAMS_DEFAULTS;

	opver_read_params(node, &params, sizeof(params));
	return params.alpha;
}

static opver_status leaky_relu_float32_prepare(const opver_context *ctx,
					       opver_node *node)
{
	leaky_relu_float32_data *data = node->op_data;
	opver_status status;

	status = ref_activation_check(ctx, node, &ref_leaky_relu_float32,
				      NULL);
	if (status != OPVER_OK)
		return status;
	data->alpha = leaky_relu_alpha(node);
	data->count = opver_tensor_elements(node->inputs[0]);
	return OPVER_OK;
}

static opver_status leaky_relu_float32_invoke(const opver_context *ctx,
					      opver_node *node)
{
	const leaky_relu_float32_data *data = node->op_data;
	const float alpha = data->alpha;
	const float *input = node->inputs[0]->data;
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++)
		output[i] = input[i] > 0.0f ? input[i] : input[i] * alpha;
	return OPVER_OK;
}

/* A multiplier for `real`, which may be negative (alpha); its magnitude
 * must keep the shift in range. */
static opver_status leaky_relu_multiplier(const opver_context *ctx,
					  double real, const char *what,
					  int32_t *multiplier, int *shift)
{
	opver_status status;

	status = ref_quantize_rescale(ctx, fabs(real), multiplier, shift,
				      "%s", what);
	if (status == OPVER_OK)
		ref_quantize_multiplier(real, multiplier, shift);
	return status;
}

static opver_status leaky_relu_quantized_prepare(const opver_context *ctx,
						 opver_node *node)
{
	leaky_relu_quantized_data *d = node->op_data;
	const float alpha = leaky_relu_alpha(node);
	ref_activation_quant q;
	opver_status status;

	status = ref_activation_check(ctx, node, &ref_leaky_relu_quantized,
				      &q);
	if (status != OPVER_OK)
		return status;
	/* In float, as TFLite computes them from its float scales and alpha,
	 * and only then widened: in double the multipliers' low bits differ
	 * and some outputs come out one step off. */
	status = leaky_relu_multiplier(ctx,
				       (double)(q.input_scale / q.output_scale),
				       "input scale / output scale",
				       &d->identity_multiplier,
				       &d->identity_shift);
	if (status == OPVER_OK)
		status = leaky_relu_multiplier(
			ctx, (double)(q.input_scale * alpha / q.output_scale),
			"|alpha| x input scale / output scale",
			&d->alpha_multiplier, &d->alpha_shift);
	if (status != OPVER_OK)
		return status;
	d->type = node->inputs[0]->type;
	d->count = opver_tensor_elements(node->inputs[0]);
	d->input_zero = q.input_zero;
	d->output_zero = q.output_zero;
	ref_type_range(d->type, &d->min, &d->max);
	return OPVER_OK;
}

static REF_ALWAYS_INLINE int32_t
leaky_relu_quantized(const leaky_relu_quantized_data *d, int32_t q)
{
	const int32_t x = q - d->input_zero;
	const int32_t rescaled =
		x >= 0 ? ref_multiply_by_quantized_multiplier(
				 x, d->identity_multiplier, d->identity_shift)
		       : ref_multiply_by_quantized_multiplier(
				 x, d->alpha_multiplier, d->alpha_shift);

	return ref_clamp_int32(d->output_zero + rescaled, d->min, d->max);
}

static opver_status leaky_relu_quantized_invoke(const opver_context *ctx,
						opver_node *node)
{
	const leaky_relu_quantized_data *d = node->op_data;
	const void *input = node->inputs[0]->data;
	void *output = node->outputs[0]->data;

	(void)ctx;
	switch (d->type) {
	case OPVER_TYPE_INT8:
		for (size_t i = 0; i < d->count; i++)
			((int8_t *)output)[i] = (int8_t)leaky_relu_quantized(
				d, ((const int8_t *)input)[i]);
		break;
	case OPVER_TYPE_UINT8:
		for (size_t i = 0; i < d->count; i++)
			((uint8_t *)output)[i] = (uint8_t)leaky_relu_quantized(
				d, ((const uint8_t *)input)[i]);
		break;
	default: /* INT16 */
		for (size_t i = 0; i < d->count; i++)
			((int16_t *)output)[i] = (int16_t)leaky_relu_quantized(
				d, ((const int16_t *)input)[i]);
		break;
	}
	return OPVER_OK;
}

const opver_kernel ref_leaky_relu_float32 = {
	OPVER_KERNEL("leaky_relu_float32", LEAKY_RELU, 1, 2),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(FLOAT32, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(leaky_relu_float32_data),
	.prepare = leaky_relu_float32_prepare,
	.invoke = leaky_relu_float32_invoke,
};

#define LEAKY_RELU_TYPES (OPVER_T(INT8) | OPVER_T(UINT8) | OPVER_T(INT16))

const opver_kernel ref_leaky_relu_quantized = {
	OPVER_KERNEL("leaky_relu_quantized", LEAKY_RELU, 1, 2),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(LEAKY_RELU_TYPES),
				       OPVER_OUTPUT(LEAKY_RELU_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(leaky_relu_quantized_data),
	.prepare = leaky_relu_quantized_prepare,
	.invoke = leaky_relu_quantized_invoke,
};
