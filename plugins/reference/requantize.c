/*
 * requantize.c - the prepare-time half of the filter ops' integer output
 * stage (requantize.h): the tensors' quantization checked, and each output
 * channel's rescale as TFLite's multiplier and shift.
 */
#include <math.h>

#include "node_memory.h"
#include "requantize.h"

/* The 64-bit rescale is defined for shifts up to 7 (quantization.h). */
#define WIDE_MAX_SHIFT 7

/* Per-tensor quantization, zero point 0 when `symmetric`. */
static opver_status tensor_quantization(const opver_context *ctx,
					const char *role,
					const opver_tensor *tensor,
					bool symmetric, float *scale,
					int32_t *zero_point)
{
	opver_status status;

	status = ref_per_tensor_quantization(ctx, role, tensor, scale,
					     zero_point);
	if (status == OPVER_OK && symmetric && *zero_point != 0) {
		OPVER_REPORT(ctx,
			     "%s '%s' has zero point %d; int16 activations must have zero point 0",
			     role, tensor->name, (int)*zero_point);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	return status;
}

opver_status ref_requantize_io(const opver_context *ctx,
			       const opver_tensor *input,
			       const opver_tensor *output, int32_t activation,
			       bool symmetric, float *input_scale,
			       float *output_scale, ref_requantize *r)
{
	int32_t input_zero, output_zero;
	opver_status status;

	status = tensor_quantization(ctx, "input", input, symmetric,
				     input_scale, &input_zero);
	if (status == OPVER_OK)
		status = tensor_quantization(ctx, "output", output, symmetric,
					     output_scale, &output_zero);
	if (status == OPVER_OK)
		status = ref_output_activation_range(ctx, activation, output,
						     *output_scale, output_zero,
						     &r->activation_min,
						     &r->activation_max);
	if (status != OPVER_OK)
		return status;
	r->input_offset = -input_zero;
	r->filter_offset = 0;
	r->output_offset = output_zero;
	return OPVER_OK;
}

opver_status ref_requantize_allocate(const opver_context *ctx,
				     size_t channels, ref_requantize *r)
{
	r->multipliers = ref_persistent(ctx, channels, sizeof(*r->multipliers),
					"multipliers");
	r->shifts = ref_persistent(ctx, channels, sizeof(*r->shifts),
				   "shifts");
	return r->multipliers != NULL && r->shifts != NULL ? OPVER_OK
							    : OPVER_ERROR_NOMEM;
}

opver_status ref_requantize_channels(const opver_context *ctx,
				     const opver_tensor *filter, int32_t axis,
				     int32_t channels, float input_scale,
				     float output_scale, ref_requantize *r)
{
	opver_status status;

	/* TFLite's per-channel kernels never subtract a filter zero point,
	 * so only symmetric filters give the right result. */
	status = ref_filter_scales_check(ctx, filter, axis, channels);
	if (status == OPVER_OK)
		status = ref_requantize_allocate(ctx, (size_t)channels, r);
	for (int32_t c = 0; c < channels && status == OPVER_OK; c++) {
		const double rescale = (double)input_scale *
				       (double)ref_filter_scale(filter, c) /
				       (double)output_scale;

		status = ref_quantize_rescale(
			ctx, rescale, &r->multipliers[c], &r->shifts[c],
			"channel %d: input scale x filter scale / output scale",
			(int)c);
	}
	return status;
}

/* TFLite's check that the bias was quantized with input scale x filter
 * scale, to within what shifts an output by at most 0.02 of a step. */
static opver_status check_bias_scale(const opver_context *ctx,
				     const char *role,
				     const opver_tensor *bias,
				     float input_scale, float filter_scale,
				     float output_scale)
{
	const double product = (double)input_scale * (double)filter_scale;
	const double bias_scale = bias->quant.count > 0 ?
					  (double)bias->quant.scale[0] : 0.0;

	if (fabs(product - bias_scale) / (double)output_scale <= 0.02)
		return OPVER_OK;
	OPVER_REPORT(ctx,
		     "bias '%s' has scale %g, but input scale x %s scale is %g; they must agree",
		     bias->name, bias_scale, role, product);
	return OPVER_ERROR_INVALID_MODEL;
}

opver_status ref_requantize_tensor(const opver_context *ctx,
				   const char *role,
				   const opver_tensor *filter,
				   const opver_tensor *bias, int32_t channels,
				   float input_scale, float output_scale,
				   ref_requantize *r)
{
	float filter_scale, product_scale;
	int32_t filter_zero;
	double real_multiplier;
	opver_status status;

	status = ref_per_tensor_quantization(ctx, role, filter, &filter_scale,
					     &filter_zero);
	if (status == OPVER_OK && bias != NULL)
		status = check_bias_scale(ctx, role, bias, input_scale,
					  filter_scale, output_scale);
	if (status == OPVER_OK)
		status = ref_requantize_allocate(ctx, (size_t)channels, r);
	if (status != OPVER_OK)
		return status;
	/* As TFLite: the scales' product rounded to float, divided in
	 * double; where the float product overflows (TFLite's result is then
	 * undefined), the product in double. */
	product_scale = input_scale * filter_scale;
	real_multiplier = (isfinite(product_scale)
				   ? (double)product_scale
				   : (double)input_scale * (double)filter_scale) /
			  (double)output_scale;
	status = ref_quantize_rescale(
		ctx, real_multiplier, &r->multipliers[0], &r->shifts[0],
		"input scale x %s scale / output scale", role);
	if (status != OPVER_OK)
		return status;
	for (int32_t c = 1; c < channels; c++) {
		r->multipliers[c] = r->multipliers[0];
		r->shifts[c] = r->shifts[0];
	}
	r->filter_offset = -filter_zero;
	return OPVER_OK;
}

opver_status ref_requantize_wide(const opver_context *ctx,
				 int32_t quantized_bias_type,
				 const opver_tensor *bias, bool *wide)
{
	const bool unset = quantized_bias_type == OPVER_TYPE_FLOAT32;

	if (!unset && quantized_bias_type != OPVER_TYPE_INT32 &&
	    quantized_bias_type != OPVER_TYPE_INT64) {
		OPVER_REPORT(ctx,
			     "quantized_bias_type is %s; it must be INT32 or INT64",
			     ctx->host->type_name(quantized_bias_type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (bias != NULL && !unset && bias->type != quantized_bias_type) {
		OPVER_REPORT(ctx,
			     "bias '%s' has type %s, but quantized_bias_type is %s",
			     bias->name, ctx->host->type_name(bias->type),
			     ctx->host->type_name(quantized_bias_type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	*wide = bias != NULL ? bias->type == OPVER_TYPE_INT64
			     : quantized_bias_type != OPVER_TYPE_INT32;
	return OPVER_OK;
}

opver_status ref_requantize_check_wide(const opver_context *ctx,
				       const ref_requantize *r,
				       int32_t channels)
{
	for (int32_t c = 0; c < channels; c++)
		if (r->shifts[c] > WIDE_MAX_SHIFT) {
			OPVER_REPORT(ctx,
				     "channel %d: input scale x filter scale / output scale is 2^%d or more; with an int64 bias rescale factors of 128 and more are not supported",
				     (int)c, r->shifts[c] - 1);
			return OPVER_ERROR_UNSUPPORTED;
		}
	return OPVER_OK;
}
