/*
 * quantization.c - the prepare-time half of the reference plugin's quantized
 * arithmetic: turning real rescale factors into TFLite's multiplier and
 * shift, activation ranges of float and quantized outputs, and the checks of
 * a tensor's quantization parameters.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "quantization.h"

void ref_quantize_multiplier(double real, int32_t *multiplier, int *shift)
{
	int exponent;
	int64_t fixed;

	if (real == 0.0) {
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

bool ref_type_range(opver_type type, int32_t *min, int32_t *max)
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

bool ref_activation_is_clamp(opver_activation activation)
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

opver_status ref_expect_clamp_activation(const opver_host *host,
					 opver_activation activation)
{
	if (ref_activation_is_clamp(activation))
		return OPVER_OK;
	host->report_error(host,
			   "fused activation %d is not supported: only NONE, RELU, RELU_N1_TO_1 and RELU6 are",
			   (int)activation);
	return OPVER_ERROR_UNSUPPORTED;
}

/* The real-valued bounds of a clamp activation; infinite where open. */
static void activation_bounds(opver_activation activation, float *low,
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

void ref_activation_range_float(opver_activation activation, float *min,
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

bool ref_activation_range_quantized(opver_activation activation, int32_t qmin,
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

opver_status ref_output_activation_range(const opver_host *host,
					 opver_activation activation,
					 const opver_tensor *output,
					 float scale, int32_t zero_point,
					 int32_t *min, int32_t *max)
{
	int32_t qmin = 0, qmax = 0;

	if (ref_type_range(output->type, &qmin, &qmax) &&
	    ref_activation_range_quantized(activation, qmin, qmax, scale,
					   zero_point, min, max))
		return OPVER_OK;
	host->report_error(host,
			   "output '%s' has scale %g, too small to quantize the fused activation's bounds",
			   output->name, (double)scale);
	return OPVER_ERROR_INVALID_MODEL;
}

opver_status ref_per_tensor_quantization(const opver_host *host,
					 const char *role,
					 const opver_tensor *tensor,
					 float *scale, int32_t *zero_point)
{
	const opver_quantization *quant = &tensor->quant;
	int32_t min, max;

	if (quant->count == 0) {
		host->report_error(host,
				   "%s '%s' is not quantized: it needs a scale and zero point",
				   role, tensor->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (quant->count > 1) {
		host->report_error(host,
				   "%s '%s' is quantized per channel (%d scales along axis %d); only per-tensor quantization is supported",
				   role, tensor->name, (int)quant->count,
				   (int)quant->axis);
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (!ref_type_range(tensor->type, &min, &max)) {
		host->report_error(host,
				   "%s '%s' has type %d, which cannot be quantized",
				   role, tensor->name, (int)tensor->type);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!isfinite(quant->scale[0]) || !(quant->scale[0] > 0.0f)) {
		host->report_error(host,
				   "%s '%s' has scale %g; a scale must be finite and positive",
				   role, tensor->name, (double)quant->scale[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (quant->zero_point[0] < min || quant->zero_point[0] > max) {
		host->report_error(host,
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

opver_status ref_channel_quantization_get(const opver_host *host,
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
		status = ref_per_tensor_quantization(host, role, tensor, &scale,
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
		host->report_error(host,
				   "%s '%s' has %d scales along axis %d; per-channel quantization needs one for each index of a dimension",
				   role, tensor->name, (int)quant->count,
				   (int)axis);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!ref_type_range(tensor->type, &min, &max)) {
		host->report_error(host,
				   "%s '%s' has type %d, which cannot be quantized",
				   role, tensor->name, (int)tensor->type);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t c = 0; c < quant->count; c++) {
		if (!isfinite(quant->scale[c]) || !(quant->scale[c] > 0.0f)) {
			host->report_error(host,
					   "%s '%s' has scale %g for channel %d; a scale must be finite and positive",
					   role, tensor->name,
					   (double)quant->scale[c], (int)c);
			return OPVER_ERROR_INVALID_MODEL;
		}
		if (quant->zero_point[c] < min || quant->zero_point[c] > max) {
			host->report_error(host,
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

/* Checks one filter scale and zero point; `channel` -1 for per tensor. */
static opver_status check_filter_channel(const opver_host *host,
					 const opver_tensor *filter,
					 int32_t channel, int32_t index,
					 bool symmetric)
{
	const float scale = filter->quant.scale[index];
	char where[32] = "";

	if (channel >= 0)
		snprintf(where, sizeof(where), " for channel %d", (int)channel);
	if (!isfinite(scale) || !(scale > 0.0f)) {
		host->report_error(host,
				   "filter '%s' has scale %g%s; a scale must be finite and positive",
				   filter->name, (double)scale, where);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (symmetric && filter->quant.zero_point[index] != 0) {
		host->report_error(host,
				   "filter '%s' has zero point %lld%s; this kernel takes only symmetric filters (zero point 0)",
				   filter->name,
				   (long long)filter->quant.zero_point[index],
				   where);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

opver_status ref_filter_scales_check(const opver_host *host,
				     const opver_tensor *filter, int32_t axis,
				     int32_t channels)
{
	const opver_quantization *quant = &filter->quant;
	opver_status status = OPVER_OK;

	if (quant->count == 1)
		return check_filter_channel(host, filter, -1, 0, true);
	if (quant->count != channels || quant->axis != axis) {
		host->report_error(host,
				   "filter '%s' has %d scales along axis %d; it needs one scale, or %d along axis %d (one per output channel)",
				   filter->name, (int)quant->count,
				   (int)quant->axis, (int)channels, (int)axis);
		return quant->count == 0 ? OPVER_ERROR_INVALID_MODEL
					 : OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t c = 0; c < channels && status == OPVER_OK; c++)
		status = check_filter_channel(host, filter, c, c, true);
	return status;
}

opver_status ref_channel_rescales(const opver_host *host,
				  const opver_tensor *filter, int32_t axis,
				  int32_t channels, float input_scale,
				  float output_scale, int32_t *multipliers,
				  int *shifts)
{
	const bool per_tensor = filter->quant.count == 1;
	opver_status status;

	if (per_tensor) {
		/* Per-tensor filters may be asymmetric (the kernel then
		 * subtracts the zero point); only the scale is checked. */
		status = check_filter_channel(host, filter, -1, 0, false);
	} else {
		status = ref_filter_scales_check(host, filter, axis, channels);
	}
	if (status != OPVER_OK)
		return status;
	for (int32_t c = 0; c < channels; c++) {
		const double rescale = (double)input_scale *
				       (double)ref_filter_scale(filter, c) /
				       (double)output_scale;

		ref_quantize_multiplier(rescale, &multipliers[c], &shifts[c]);
		if (shifts[c] > 30) {
			host->report_error(host,
					   "channel %d: input scale x filter scale / output scale is %g; rescale factors of 2^31 and more are not supported",
					   (int)c, rescale);
			return OPVER_ERROR_UNSUPPORTED;
		}
	}
	return OPVER_OK;
}

void ref_quantize_floats_symmetric(const float *values, size_t count,
				   int8_t *quantized, float *scale)
{
	float range = 0.0f;

	for (size_t i = 0; i < count; i++)
		range = fmaxf(range, fabsf(values[i]));
	if (range == 0.0f) {
		for (size_t i = 0; i < count; i++)
			quantized[i] = 0;
		*scale = 1.0f;
		return;
	}
	*scale = range / 127.0f;
	for (size_t i = 0; i < count; i++) {
		const float q = roundf(values[i] * (127.0f / range));

		quantized[i] = (int8_t)fminf(127.0f, fmaxf(-127.0f, q));
	}
}

void ref_quantize_floats_asymmetric(const float *values, size_t count,
				    int8_t *quantized, float *scale,
				    int32_t *zero_point)
{
	float low = 0.0f, high = 0.0f, inverse;
	double step, from_min, from_max, zero;

	for (size_t i = 0; i < count; i++) {
		low = fminf(low, values[i]);
		high = fmaxf(high, values[i]);
	}
	if (low == high) {
		for (size_t i = 0; i < count; i++)
			quantized[i] = 0;
		*scale = 1.0f;
		*zero_point = 0;
		return;
	}
	step = ((double)high - (double)low) / 255.0;
	/* The zero point from whichever end loses less to rounding, nudged
	 * onto the integer grid as TFLite's AsymmetricQuantizeFloats. */
	from_min = -128.0 - (double)low / step;
	from_max = 127.0 - (double)high / step;
	zero = fabs(-128.0) + fabs((double)low / step) <
			       fabs(127.0) + fabs((double)high / step) ?
		       from_min :
		       from_max;
	*zero_point = zero <= -128.0 ? -128 :
		      zero >= 127.0  ? 127 :
				       (int32_t)round(zero);
	*scale = (float)step;
	/* Rounded in float through the reciprocal of the float scale, as
	 * TFLite does: in double, values on a tie (4 in [-4, 4] is 127.5
	 * steps) would round the other way. */
	inverse = (float)(1.0 / (double)*scale);
	for (size_t i = 0; i < count; i++) {
		const float q =
			roundf((float)*zero_point + values[i] * inverse);

		quantized[i] = (int8_t)fminf(127.0f, fmaxf(-128.0f, q));
	}
}
