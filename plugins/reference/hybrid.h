/*
 * hybrid.h - the hybrid kernels of the filter ops (float input and output,
 * int8 filter), as TensorFlow Lite computes them: the input is quantized to
 * int8 on the fly, a slice at a time (a batch for CONV_2D, a row for
 * FULLY_CONNECTED) with the slice's own scale and zero point; the integer
 * sums are then scaled back to float by the slice's scale and the output
 * channel's filter scale.
 *
 * Quantizing runs in invoke, into scratch; the filter scales are copied at
 * prepare.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_HYBRID_H
#define OPVER_REFERENCE_HYBRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/*
 * Quantizes `count` floats to int8 the way TFLite's hybrid kernels quantize
 * their activations on the fly.  Symmetric: scale = max|x| / 127, values in
 * [-127, 127].  Asymmetric: the range [min(x, 0), max(x, 0)] onto
 * [-128, 127] with a nudged zero point.  An all-zero input gives zeros with
 * scale 1.  `quantized` is the caller's, `count` entries.
 */
void ref_quantize_floats_symmetric(const float *values, size_t count,
				   int8_t *quantized, float *scale);
void ref_quantize_floats_asymmetric(const float *values, size_t count,
				    int8_t *quantized, float *scale,
				    int32_t *zero_point);

/* One slice, asymmetrically or else symmetrically (zero point 0). */
void ref_hybrid_quantize(const float *values, size_t count, bool asymmetric,
			 int8_t *quantized, float *scale, int32_t *zero_point);

/* The dot product of an int8 weight row and a quantized slice, less the
 * slice's zero point times the row's sum, modulo 2^32 as TFLite's int32
 * sums (computed unsigned, without undefined overflow). */
static inline int32_t ref_hybrid_row_dot(const int8_t *weights,
					 const int8_t *quantized, size_t n,
					 int32_t zero_point)
{
	uint32_t dot = 0, row_sum = 0;

	for (size_t i = 0; i < n; i++) {
		dot += (uint32_t)(weights[i] * quantized[i]);
		row_sum += (uint32_t)weights[i];
	}
	return (int32_t)(dot - row_sum * (uint32_t)zero_point);
}

/*
 * Checks the filter (ref_filter_scales_check(): symmetric, per tensor or
 * per channel along `axis`) and copies the scale of each of its `channels`
 * output channels into node memory, *scales: owned by the core, valid
 * until the interpreter is destroyed.
 */
opver_status ref_hybrid_filter_scales(const opver_context *ctx,
				      const opver_tensor *filter,
				      int32_t axis, int32_t channels,
				      float **scales);

#endif /* OPVER_REFERENCE_HYBRID_H */
