/*
 * lut.c - building the 8-bit lookup tables of lut.h.
 */
#include <math.h>

#include "lut.h"
#include "quantization.h"

void ref_lut8_fill(ref_lut8 *lut, int32_t type, float in_scale,
		   int32_t in_zero, float out_scale, int32_t out_zero,
		   ref_lut_transform f, const void *params)
{
	/* As TFLite: the reciprocal of the output scale, in float. */
	const float inverse_scale = 1.0f / out_scale;
	int32_t min = 0, max = 0;

	ref_type_range(type, &min, &max);
	for (int32_t q = min; q <= max; q++) {
		const float real = in_scale * (float)(q - in_zero);
		const float rescaled = roundf(f(real, params) * inverse_scale);
		/* The sum in float, as TFLite adds the zero point; clamped
		 * before conversion, so that an infinite or NaN value has a
		 * defined result (NaN gives the lowest). */
		const float value = rescaled + (float)out_zero;
		const int32_t out = value >= (float)max  ? max
				    : value > (float)min ? (int32_t)value
							 : min;

		lut->entries[(uint8_t)q] = (uint8_t)out;
	}
}
