/*
 * half.h - IEEE 754 binary16 (FLOAT16) to and from float32, as TensorFlow
 * Lite converts them (its FP16 library): widening is exact; narrowing
 * rounds to nearest, ties to even, overflows to infinity, and makes every
 * NaN the quiet NaN 0x7e00 with the input's sign.
 *
 * Static inline for the element loops of DEQUANTIZE and CAST.  Internal to
 * the plugin.
 */
#ifndef OPVER_REFERENCE_HALF_H
#define OPVER_REFERENCE_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The float32 of binary16 `h`: exact, as every float16 is a float32;
 * infinities stay infinite and NaNs keep their payload. */
static inline float ref_half_to_float(uint16_t h)
{
	const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	const uint32_t exponent = (h >> 10) & 0x1fu;
	const uint32_t mantissa = h & 0x3ffu;
	uint32_t bits;
	float f;

	if (exponent == 0) {
		/* zero or subnormal: mantissa x 2^-24 */
		f = ldexpf((float)mantissa, -24);
		return sign != 0 ? -f : f;
	}
	if (exponent == 0x1f)
		bits = sign | 0x7f800000u | (mantissa << 13);
	else /* rebias the exponent from 15 to 127 */
		bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* The binary16 nearest `f` (ties to even). */
static inline uint16_t ref_float_to_half(float f)
{
	uint32_t bits, magnitude, rest, h;
	uint16_t sign;

	memcpy(&bits, &f, sizeof(bits));
	sign = (uint16_t)((bits >> 16) & 0x8000u);
	magnitude = bits & 0x7fffffffu;
	if (magnitude > 0x7f800000u)
		return (uint16_t)(sign | 0x7e00u);
	/* 65520, halfway from the largest half (65504) to 2^16, and above
	 * round to infinity (the tie goes to the even 2^16). */
	if (magnitude >= 0x477ff000u)
		return (uint16_t)(sign | 0x7c00u);
	if (magnitude < 0x38800000u) {
		/* Below 2^-14: a subnormal, f / 2^-24 rounded to an integer
		 * (exact scaling; 1024 is the smallest normal, correctly). */
		return (uint16_t)(sign |
				  (uint16_t)rintf(fabsf(f) * 16777216.0f));
	}
	/* Rebias the exponent from 127 to 15 and keep 10 of the 23
	 * mantissa bits; a carry out of the mantissa raises the exponent. */
	h = (magnitude - 0x38000000u) >> 13;
	rest = magnitude & 0x1fffu;
	if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0))
		h++;
	return (uint16_t)(sign | h);
}

#endif /* OPVER_REFERENCE_HALF_H */
