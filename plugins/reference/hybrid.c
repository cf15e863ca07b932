/*
 * hybrid.c - the hybrid kernels' quantization of their float input and
 * their filter scales (hybrid.h).
 */
#include <math.h>

#include "hybrid.h"
#include "node_memory.h"
#include "quantization.h"

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

void ref_hybrid_quantize(const float *values, size_t count, bool asymmetric,
			 int8_t *quantized, float *scale, int32_t *zero_point)
{
	if (asymmetric) {
		ref_quantize_floats_asymmetric(values, count, quantized, scale,
					       zero_point);
		return;
	}
	ref_quantize_floats_symmetric(values, count, quantized, scale);
	*zero_point = 0;
}

opver_status ref_hybrid_filter_scales(const opver_context *ctx,
				      const opver_tensor *filter,
				      int32_t axis, int32_t channels,
				      float **scales)
{
	opver_status status;

	status = ref_filter_scales_check(ctx, filter, axis, channels);
	if (status != OPVER_OK)
		return status;
	*scales = ref_persistent(ctx, (size_t)channels, sizeof(**scales),
				 "filter scales");
	if (*scales == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t c = 0; c < channels; c++)
		(*scales)[c] = ref_filter_scale(filter, c);
	return OPVER_OK;
}
