/*
 * lut.c - building the 8-bit lookup tables of lut.h, and the int16
 * LOGISTIC and TANH interpolation in TFLite's sigmoid table.
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

/* A float clamped to int16 and truncated, as TFLite's table entries. */
static int16_t lut16_entry(float value)
{
	return (int16_t)fminf(fmaxf(value, -32768.0f), 32767.0f);
}

void ref_lut16_fill(int16_t *lut, float in_scale, float out_scale,
		    ref_lut_transform f, const void *params)
{
	/* In float throughout, as TFLite computes it. */
	const float in_min = in_scale * (float)INT16_MIN;
	const float in_max = in_scale * (float)INT16_MAX;
	const float out_range = out_scale * (float)INT16_MAX -
				out_scale * (float)INT16_MIN;
	const float inverse = 65536.0f / out_range;
	const float step = (in_max - in_min) / (float)(REF_LUT16_SIZE - 1);
	const float half_step = step / 2.0f;

	for (int i = 0; i < REF_LUT16_SIZE - 1; i++) {
		const float x = in_min + (float)i * step;
		const float sample = roundf(f(x, params) * inverse);
		const float next = f(in_min + (float)(i + 1) * step, params) *
				   inverse;
		const float midpoint =
			roundf(f(x + half_step, params) * inverse);
		const float interpolated = roundf((next + sample) / 2.0f);

		lut[i] = lut16_entry(sample -
				     roundf((interpolated - midpoint) / 2.0f));
	}
	lut[REF_LUT16_SIZE - 1] = lut16_entry(roundf(f(in_max, params) *
						      inverse));
}

/*
 * TFLite's table of sigmoid(i / 24) for i = 0 .. 255, in 0.16 fixed point.
 * These are the values TFLite ships (sigmoid_table_uint16), not a
 * recomputation: 44 of them differ by one or two from the correctly
 * rounded sigmoid, and bit-exact results need TFLite's.
 */
static const uint16_t sigmoid_q16[256] = {
	32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513,
	38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
	43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
	47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
	51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755,
	55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
	57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519,
	59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
	61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
	62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
	63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
	63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
	64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
	64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
	64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
	65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
	65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301,
	65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
	65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415,
	65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
	65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
	65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
	65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504,
	65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
	65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520,
	65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
	65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
	65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
	65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532,
	65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
	65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534,
	65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

/* The table at |x| / 2^fraction_bits, interpolated linearly on the low
 * fraction_bits of |x|; saturated past the table's last step. */
static uint32_t sigmoid_interpolated(uint32_t abs_x, int fraction_bits,
				     uint32_t saturated)
{
	const uint32_t step = abs_x >> fraction_bits;
	const uint32_t fraction = abs_x & ((UINT32_C(1) << fraction_bits) - 1);

	if (step >= 255)
		return saturated;
	return ((uint32_t)sigmoid_q16[step] << fraction_bits) +
	       fraction * (uint32_t)(sigmoid_q16[step + 1] - sigmoid_q16[step]);
}

static uint32_t magnitude(int32_t x)
{
	return x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
}

int16_t ref_logistic16_from_table(int32_t x)
{
	/* sigmoid(|x| / 12288): table step |x| / 512, in Q0.16 * 2^9. */
	const uint32_t r = sigmoid_interpolated(magnitude(x), 9,
						UINT32_C(0x7FFF) << 10);

	/* To Q0.15, rounding; negative x mirrors: 1 - sigmoid(|x|). */
	return (int16_t)((x >= 0 ? r + (1u << 9)
				 : (1u << 25) - r + (1u << 9) - 1) >>
			 10);
}

int16_t ref_tanh16_from_table(int32_t x)
{
	/* tanh(y) = 2 sigmoid(2y) - 1 for y = |x| / 12288: table step
	 * |x| / 256, in Q0.16 * 2^8. */
	const int32_t r = (int32_t)sigmoid_interpolated(
		magnitude(x), 8, UINT32_C(0xFFFF) << 8);
	const int32_t t = x >= 0 ? r - (1 << 23) + (1 << 7)
				 : -r + (1 << 23) + (1 << 7) - 1;

	/* Arithmetic shift: floor, as TFLite's. */
	return (int16_t)(t >> 8);
}
