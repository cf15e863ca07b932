/*
 * lut.h - per-element lookup tables for the 8-bit activations (LOGISTIC,
 * TANH, ELU, GELU on int8 and uint8), built at prepare as TensorFlow
 * Lite's builtin kernels build theirs: every one of the 256 inputs
 * dequantized, transformed in float, requantized to the output.  Invoke
 * is then one table read per element, for int8 and uint8 alike, since
 * the table is indexed by the input's byte.  int16 LOGISTIC and TANH
 * with a general input scale interpolate in TFLite's sigmoid table.
 *
 * Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_LUT_H
#define OPVER_REFERENCE_LUT_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/* The output byte of each input byte. */
typedef struct ref_lut8 {
	uint8_t entries[256];
} ref_lut8;

/* A real function to tabulate; `params` is the op's parameter struct (or
 * NULL), borrowed for the call. */
typedef float (*ref_lut_transform)(float x, const void *params);

/*
 * Fills `lut` for a `type` (OPVER_TYPE_INT8 or OPVER_TYPE_UINT8) input of
 * scale/zero point `in_scale`/`in_zero` and output of `out_scale`/
 * `out_zero`: f(in_scale * (q - in_zero)) divided by out_scale in float,
 * rounded half away from zero, plus out_zero, clamped to the type's range.
 */
void ref_lut8_fill(ref_lut8 *lut, int32_t type, float in_scale,
		   int32_t in_zero, float out_scale, int32_t out_zero,
		   ref_lut_transform f, const void *params);

/* out[i] = lut[in[i]] for n bytes; in place allowed. */
static inline void ref_lut8_apply(const ref_lut8 *lut, const uint8_t *in,
				  uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = lut->entries[in[i]];
}

/* An int16 table: 512 intervals over the input's whole range and the
 * value at its end. */
#define REF_LUT16_SIZE 513

/*
 * Fills `lut` (REF_LUT16_SIZE entries) as TFLite's LUTPopulate for int16
 * (EXP, LOG, RSQRT): f sampled in float at the start of each of 512
 * intervals of the input's real range, the real output range mapped onto
 * the 65536 int16 steps, each sample lowered by half the error linear
 * interpolation makes at its interval's midpoint; the last entry is f at
 * the range's end.  Zero points are TFLite's int16 ones, 0.
 */
void ref_lut16_fill(int16_t *lut, float in_scale, float out_scale,
		    ref_lut_transform f, const void *params);

/* `value`'s entry of an int16 table, interpolated between the two
 * entries around it on its low 7 bits (TFLite's LUTLookup). */
static inline int16_t ref_lut16_lookup(int16_t value, const int16_t *lut)
{
	const int32_t index = 256 + (value >> 7);
	const int32_t offset = value & 0x7f;
	const int16_t slope = (int16_t)(lut[index + 1] - lut[index]);

	return (int16_t)(lut[index] + ((slope * offset + 64) >> 7));
}

/*
 * TFLite's int16 LOGISTIC and TANH for a general input scale: x is the
 * input in units of 1 / (3 * 4096) (about +-10.7 over +-2^17), and the
 * result, in Q0.15, is interpolated in TFLite's 256-entry table of the
 * sigmoid on [0, 10.6], tanh through tanh(y) = 2 sigmoid(2y) - 1.
 * |x| must stay below 2^31.
 */
int16_t ref_logistic16_from_table(int32_t x);
int16_t ref_tanh16_from_table(int32_t x);

#endif /* OPVER_REFERENCE_LUT_H */
