/*
 * quantization.c - the prepare-time half of the reference plugin's quantized
 * arithmetic: turning real rescale factors into TFLite's multiplier and
 * shift, activation ranges of float and quantized outputs, and the checks of
 * a tensor's quantization parameters.
 */
#include <float.h>
#include <math.h>

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
