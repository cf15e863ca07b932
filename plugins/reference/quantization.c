/*
 * quantization.c - the prepare-time half of the reference plugin's quantized
 * arithmetic: turning real rescale factors into TFLite's multiplier and
 * shift, activation ranges of float and quantized outputs, and the checks of
 * a tensor's quantization parameters.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "fixed_point.h"
#include "quantization.h"

void ref_quantize_multiplier(double real, int32_t *multiplier, int *shift)
{
	int exponent;
	int64_t fixed;

	/* Not finite: no multiplier, rather than converting an infinite
	 * fraction to an integer (undefined); ref_quantize_rescale() rejects
	 * such factors before they are used. */
	if (real == 0.0 || !isfinite(real)) {
		*multiplier = 0;
		*shift = 0;
		return;
	}
	fixed = (int64_t)round(frexp(real, &exponent) *
			       (double)(INT64_C(1) << 31));
	/* A fraction just below 1 can round up to 2^31, one past Q0.31. */
	if (fixed == (INT64_C(1) << 31)) {
		fixed /= 2;
		exponent++;
	}
	/* Every bit would be shifted out: flush to zero rather than shift by
	 * more than 31. */
	if (exponent < -31) {
		fixed = 0;
		exponent = 0;
	}
	*multiplier = (int32_t)fixed;
	*shift = exponent;
}

bool ref_softmax_diff_scaling(double beta_scale, int32_t *multiplier,
			      int *shift, int32_t *diff_min)
{
	const double factor = beta_scale * (double)(INT32_C(1) << 26);

	if (!(factor > 1.0))
		return false;
	ref_quantize_multiplier(factor < 2147483647.0 ? factor : 2147483647.0,
				multiplier, shift);
	*diff_min = -(int32_t)floor(ldexp(31.0, 26 - *shift));
	return true;
}

opver_status ref_quantize_rescale(const opver_context *ctx, double real,
				  int32_t *multiplier, int *shift,
				  const char *format, ...)
{
	char what[256];
	va_list args;

	ref_quantize_multiplier(real, multiplier, shift);
	if (isfinite(real) && real >= 0.0 && *shift <= REF_MAX_RESCALE_SHIFT)
		return OPVER_OK;
	va_start(args, format);
	vsnprintf(what, sizeof(what), format, args);
	va_end(args);
	OPVER_REPORT(ctx,
		     "%s is %g; a rescale factor must be finite, not negative and below 2^%d",
		     what, real, REF_MAX_RESCALE_SHIFT);
	return OPVER_ERROR_INVALID_MODEL;
}

bool ref_type_range(int32_t type, int32_t *min, int32_t *max)
{
	switch (type) {
	case OPVER_TYPE_INT8:
		*min = INT8_MIN;
		*max = INT8_MAX;
		return true;
	case OPVER_TYPE_UINT8:
		*min = 0;
		*max = UINT8_MAX;
		return true;
	case OPVER_TYPE_INT16:
		*min = INT16_MIN;
		*max = INT16_MAX;
		return true;
	case OPVER_TYPE_INT32:
		*min = INT32_MIN;
		*max = INT32_MAX;
		return true;
	default:
		return false;
	}
}

bool ref_activation_is_clamp(int32_t activation)
{
	switch (activation) {
	case OPVER_ACTIVATION_NONE:
	case OPVER_ACTIVATION_RELU:
	case OPVER_ACTIVATION_RELU_N1_TO_1:
	case OPVER_ACTIVATION_RELU6:
		return true;
	default:
		return false;
	}
}

opver_status ref_expect_clamp_activation(const opver_context *ctx,
					 int32_t activation)
{
	if (ref_activation_is_clamp(activation))
		return OPVER_OK;
	OPVER_REPORT(ctx,
		     "fused activation %d is not supported: only NONE, RELU, RELU_N1_TO_1 and RELU6 are",
		     (int)activation);
	return OPVER_ERROR_UNSUPPORTED;
}

/* The real-valued bounds of a clamp activation; infinite where open. */
static void activation_bounds(int32_t activation, float *low,
			      float *high)
{
	*low = -INFINITY;
	*high = INFINITY;
	switch (activation) {
	case OPVER_ACTIVATION_RELU:
		*low = 0.0f;
		break;
	case OPVER_ACTIVATION_RELU_N1_TO_1:
		*low = -1.0f;
		*high = 1.0f;
		break;
	case OPVER_ACTIVATION_RELU6:
		*low = 0.0f;
		*high = 6.0f;
		break;
	default:
		break;
	}
}

void ref_activation_range_float(int32_t activation, float *min,
				float *max)
{
	activation_bounds(activation, min, max);
	/* TFLite clamps to the finite float range, so an infinite result of
	 * NONE or RELU becomes +-FLT_MAX exactly as there. */
	if (isinf(*min))
		*min = -FLT_MAX;
	if (isinf(*max))
		*max = FLT_MAX;
}

/* zero_point + round(bound / scale), with the quotient rounded in float as
 * TFLite does; false when that does not fit an int32. */
static bool quantize_bound(float bound, float scale, int32_t zero_point,
			   int64_t *q)
{
	const float steps = roundf(bound / scale);

	/* 2^31 is exact in float; anything at or past it does not fit. */
	if (!(steps >= -2147483648.0f && steps < 2147483648.0f))
		return false;
	*q = (int64_t)zero_point + (int64_t)steps;
	return true;
}

bool ref_activation_range_quantized(int32_t activation, int32_t qmin,
				    int32_t qmax, float scale,
				    int32_t zero_point, int32_t *min,
				    int32_t *max)
{
	float low, high;
	int64_t q;

	activation_bounds(activation, &low, &high);
	*min = qmin;
	*max = qmax;
	if (!isinf(low)) {
		if (!quantize_bound(low, scale, zero_point, &q))
			return false;
		if (q > *min)
			*min = q > qmax ? qmax : (int32_t)q;
	}
	if (!isinf(high)) {
		if (!quantize_bound(high, scale, zero_point, &q))
			return false;
		if (q < *max)
			*max = q < qmin ? qmin : (int32_t)q;
	}
	return true;
}

opver_status ref_output_activation_range(const opver_context *ctx,
					 int32_t activation,
					 const opver_tensor *output,
					 float scale, int32_t zero_point,
					 int32_t *min, int32_t *max)
{
	int32_t qmin = 0, qmax = 0;

	if (ref_type_range(output->type, &qmin, &qmax) &&
	    ref_activation_range_quantized(activation, qmin, qmax, scale,
					   zero_point, min, max))
		return OPVER_OK;
	OPVER_REPORT(ctx,
		     "output '%s' has scale %g, too small to quantize the fused activation's bounds",
		     output->name, (double)scale);
	return OPVER_ERROR_INVALID_MODEL;
}

opver_status ref_per_tensor_quantization(const opver_context *ctx,
					 const char *role,
					 const opver_tensor *tensor,
					 float *scale, int32_t *zero_point)
{
	const opver_quantization *quant = &tensor->quant;
	int32_t min, max;

	if (quant->count == 0) {
		OPVER_REPORT(ctx,
			     "%s '%s' is not quantized: it needs a scale and zero point",
			     role, tensor->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (quant->count > 1) {
		OPVER_REPORT(ctx,
			     "%s '%s' is quantized per channel (%d scales along axis %d); only per-tensor quantization is supported",
			     role, tensor->name, (int)quant->count,
			     (int)quant->axis);
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (!ref_type_range(tensor->type, &min, &max)) {
		OPVER_REPORT(ctx,
			     "%s '%s' has type %d, which cannot be quantized",
			     role, tensor->name, (int)tensor->type);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!isfinite(quant->scale[0]) || !(quant->scale[0] > 0.0f)) {
		OPVER_REPORT(ctx,
			     "%s '%s' has scale %g; a scale must be finite and positive",
			     role, tensor->name, (double)quant->scale[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (quant->zero_point[0] < min || quant->zero_point[0] > max) {
		OPVER_REPORT(ctx,
			     "%s '%s' has zero point %lld, outside its type's range [%ld, %ld]",
			     role, tensor->name,
			     (long long)quant->zero_point[0], (long)min,
			     (long)max);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*scale = quant->scale[0];
	*zero_point = (int32_t)quant->zero_point[0];
	return OPVER_OK;
}

opver_status ref_channel_quantization_get(const opver_context *ctx,
					  const char *role,
					  const opver_tensor *tensor,
					  bool per_channel,
					  ref_channel_quantization *q)
{
	const opver_quantization *quant = &tensor->quant;
	const int32_t axis = quant->axis;
	int32_t min, max;
	float scale;
	int32_t zero_point;
	opver_status status;

	if (quant->count <= 1 || !per_channel) {
		status = ref_per_tensor_quantization(ctx, role, tensor, &scale,
						     &zero_point);
		if (status != OPVER_OK)
			return status;
		*q = (ref_channel_quantization){
			.outer = 1,
			.channels = 1,
			.inner = opver_tensor_elements(tensor),
			.scales = quant->scale,
			.zero_points = quant->zero_point,
		};
		return OPVER_OK;
	}
	if (axis < 0 || axis >= tensor->rank ||
	    tensor->dims[axis] != quant->count) {
		OPVER_REPORT(ctx,
			     "%s '%s' has %d scales along axis %d; per-channel quantization needs one for each index of a dimension",
			     role, tensor->name, (int)quant->count,
			     (int)axis);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!ref_type_range(tensor->type, &min, &max)) {
		OPVER_REPORT(ctx,
			     "%s '%s' has type %d, which cannot be quantized",
			     role, tensor->name, (int)tensor->type);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t c = 0; c < quant->count; c++) {
		if (!isfinite(quant->scale[c]) || !(quant->scale[c] > 0.0f)) {
			OPVER_REPORT(ctx,
				     "%s '%s' has scale %g for channel %d; a scale must be finite and positive",
				     role, tensor->name,
				     (double)quant->scale[c], (int)c);
			return OPVER_ERROR_INVALID_MODEL;
		}
		if (quant->zero_point[c] < min || quant->zero_point[c] > max) {
			OPVER_REPORT(ctx,
				     "%s '%s' has zero point %lld for channel %d, outside its type's range [%ld, %ld]",
				     role, tensor->name,
				     (long long)quant->zero_point[c],
				     (int)c, (long)min, (long)max);
			return OPVER_ERROR_INVALID_MODEL;
		}
	}
	q->outer = 1;
	for (int32_t d = 0; d < axis; d++)
		q->outer *= (size_t)tensor->dims[d];
	q->channels = (size_t)quant->count;
	q->inner = 1;
	for (int32_t d = axis + 1; d < tensor->rank; d++)
		q->inner *= (size_t)tensor->dims[d];
	q->scales = quant->scale;
	q->zero_points = quant->zero_point;
	return OPVER_OK;
}

/* Checks one filter scale and that its zero point is 0; `channel` -1 for
 * per tensor. */
static opver_status check_filter_channel(const opver_context *ctx,
					 const opver_tensor *filter,
					 int32_t channel, int32_t index)
{
	const float scale = filter->quant.scale[index];
	char where[32] = "";

	if (channel >= 0)
		snprintf(where, sizeof(where), " for channel %d", (int)channel);
	if (!isfinite(scale) || !(scale > 0.0f)) {
		OPVER_REPORT(ctx,
			     "filter '%s' has scale %g%s; a scale must be finite and positive",
			     filter->name, (double)scale, where);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (filter->quant.zero_point[index] != 0) {
		OPVER_REPORT(ctx,
			     "filter '%s' has zero point %lld%s; this kernel takes only symmetric filters (zero point 0)",
			     filter->name,
			     (long long)filter->quant.zero_point[index],
			     where);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

opver_status ref_filter_scales_check(const opver_context *ctx,
				     const opver_tensor *filter, int32_t axis,
				     int32_t channels)
{
	const opver_quantization *quant = &filter->quant;
	opver_status status = OPVER_OK;

	if (quant->count == 1)
		return check_filter_channel(ctx, filter, -1, 0);
	if (quant->count != channels || quant->axis != axis) {
		OPVER_REPORT(ctx,
			     "filter '%s' has %d scales along axis %d; it needs one scale, or %d along axis %d (one per output channel)",
			     filter->name, (int)quant->count,
			     (int)quant->axis, (int)channels, (int)axis);
		return quant->count == 0 ? OPVER_ERROR_INVALID_MODEL
					 : OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t c = 0; c < channels && status == OPVER_OK; c++)
		status = check_filter_channel(ctx, filter, c, c);
	return status;
}

bool ref_checked_log2(float scale, int *log2)
{
	const float exact = logf(scale) * (1.0f / logf(2.0f));
	const float rounded = roundf(exact);

	*log2 = (int)rounded;
	return fabsf(exact - rounded) < 1e-3f;
}

void ref_inv_sqrt_multiplier(int32_t squares, int32_t *multiplier,
			     int *shift)
{
	const int32_t half_three = (1 << 28) + (1 << 27); /* 1.5 in Q3.28 */
	int32_t input = squares, half_input, x = 1 << 28; /* 1 in Q3.28 */
	int right = 11;
	int pairs;

	if (input <= 1) {
		*multiplier = INT32_MAX;
		*shift = 0;
		return;
	}
	while (input >= (1 << 29)) {
		input /= 4;
		right++;
	}
	pairs = (ref_count_leading_zeros((uint32_t)input) - 1) / 2 - 1;
	right -= pairs;
	input <<= 2 * pairs;
	half_input = ref_rounding_divide_by_pot(input >> 1, 1);
	for (int i = 0; i < 5; i++) {
		/* x^3: Q6 then Q9, rescaled to Q3 */
		const int32_t x3 = ref_saturating_shift_left(
			ref_saturating_rounding_doubling_high_mul(
				ref_saturating_rounding_doubling_high_mul(x,
									  x),
				x),
			6);
		/* Both products are Q6; gemmlowp subtracts in int32. */
		const int32_t difference = (int32_t)(
			(uint32_t)ref_saturating_rounding_doubling_high_mul(
				half_three, x) -
			(uint32_t)ref_saturating_rounding_doubling_high_mul(
				half_input, x3));

		x = ref_saturating_shift_left(difference, 3);
	}
	/* Times sqrt(2) / 2 in Q0.31: stays Q3.28. */
	x = ref_saturating_rounding_doubling_high_mul(x, 1518500250);
	if (right < 0) {
		x = (int32_t)((uint32_t)x << -right);
		right = 0;
	}
	*multiplier = x;
	*shift = -right;
}
