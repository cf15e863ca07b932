/*
 * requantize.h - the output stage of the integer kernels of the filter ops
 * (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED), as TFLite's per-channel
 * integer kernels compute it: each output channel's sum, plus its bias, is
 * rescaled by input scale x filter scale[channel] / output scale with
 * TFLite's multiplier and shift, offset by the output zero point and
 * clamped to the fused activation's range.  uint8 tensors (TFLite's legacy
 * asymmetric quantization) and FULLY_CONNECTED's per-tensor int8 weights
 * take one rescale for all channels, computed as TFLite does for them,
 * and a filter zero point (ref_requantize_tensor).
 *
 *   int32 sums (int8 activations; int16 with an int32 bias): the sum and
 *       the bias wrap modulo 2^32, as in TFLite's int32 accumulator
 *   int64 sums ("wide": int16 activations with an int64 bias): they wrap
 *       modulo 2^64 and the rescale is TFLite's 64-bit one
 *
 * Prepare fills a ref_requantize from the tensors' quantization; invoke
 * calls the static inline apply functions once per output element, so
 * kernel loops inline them.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_REQUANTIZE_H
#define OPVER_REFERENCE_REQUANTIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

#include "quantization.h"

typedef struct ref_requantize {
	int32_t input_offset;  /* minus the input zero point */
	/* Minus the filter zero point: 0 but for ref_requantize_tensor()'s
	 * asymmetric filters. */
	int32_t filter_offset;
	int32_t output_offset; /* the output zero point */
	int32_t activation_min;
	int32_t activation_max;
	/* One per output channel, in node memory (allocate_persistent):
	 * owned by the core, valid until the interpreter is destroyed. */
	int32_t *multipliers;
	int *shifts;
	/* TFLite's builtin kernel computes this node with its reference
	 * kernel, not its GEMM (grouped int8 CONV_2D), so it rounds twice
	 * even in reference-tflite (ref_requantize_gemm_apply()). */
	bool outside_gemm;
} ref_requantize;

/*
 * The per-tensor quantization of `input` and `output`, checked, with zero
 * points 0 when `symmetric` (int16 activations, as TFLite requires): fills
 * the offsets and the activation's clamp over the output type, and gives
 * the scales for ref_requantize_channels().
 */
opver_status ref_requantize_io(const opver_context *ctx,
			       const opver_tensor *input,
			       const opver_tensor *output, int32_t activation,
			       bool symmetric, float *input_scale,
			       float *output_scale, ref_requantize *r);

/* Node memory for `channels` multipliers and shifts, for a kernel that
 * computes them itself. */
opver_status ref_requantize_allocate(const opver_context *ctx,
				     size_t channels, ref_requantize *r);

/*
 * The multipliers and shifts of `channels` output channels, in node
 * memory: input_scale x filter scale / output_scale in double, as TFLite's
 * PopulateConvolutionQuantizationParams.  The filter must be symmetric,
 * quantized per tensor or per channel along `axis`; a rescale must be below
 * 2^31.  Reports and fails otherwise.
 */
opver_status ref_requantize_channels(const opver_context *ctx,
				     const opver_tensor *filter, int32_t axis,
				     int32_t channels, float input_scale,
				     float output_scale, ref_requantize *r);

/*
 * The rescale of a filter quantized per tensor with any zero point, the
 * same for all `channels`, as TFLite computes it for uint8 (its legacy
 * GetQuantizedConvolutionMultipler) and for FULLY_CONNECTED's per-tensor
 * int8 weights: input scale x filter scale rounded to float, then divided
 * by the output scale in double.  The bias, when there is one, must have
 * been quantized with that product, to within 0.02 of an output step, as
 * TFLite checks.  Fills filter_offset.  Reports and fails otherwise,
 * naming the filter by `role` ("filter", "weights").
 */
opver_status ref_requantize_tensor(const opver_context *ctx,
				   const char *role,
				   const opver_tensor *filter,
				   const opver_tensor *bias, int32_t channels,
				   float input_scale, float output_scale,
				   ref_requantize *r);

/*
 * Whether int16 activations take the wide arithmetic: from the bias's
 * type, or without a bias from the quantized_bias_type parameter (unset,
 * FLOAT32, means int64: TFLite's original 16x8 bias).  A set
 * quantized_bias_type must be INT32 or INT64 and match the bias.  After
 * ref_requantize_channels(), checks that every rescale is in the wide
 * arithmetic's domain.
 */
opver_status ref_requantize_wide(const opver_context *ctx,
				 int32_t quantized_bias_type,
				 const opver_tensor *bias, bool *wide);
opver_status ref_requantize_check_wide(const opver_context *ctx,
				       const ref_requantize *r,
				       int32_t channels);

/* A rescaled value plus the output offset, clamped; in 64 bits, where the
 * addition cannot overflow. */
static inline int32_t ref_requantize_finish(const ref_requantize *r,
					    int32_t rescaled)
{
	const int64_t value = (int64_t)rescaled + r->output_offset;

	return value < r->activation_min   ? r->activation_min
	       : value > r->activation_max ? r->activation_max
					   : (int32_t)value;
}

/* What TFLite's int32 accumulator holds for `channel`: its sum plus its
 * bias (none when `bias` is NULL), modulo 2^32. */
static inline int32_t ref_requantize_acc(size_t channel, uint32_t sum,
					 const int32_t *bias)
{
	return (int32_t)(sum + (bias != NULL ? (uint32_t)bias[channel] : 0));
}

/* The output of `channel` from its int32 sum (modulo 2^32) and its bias
 * (none when `bias` is NULL). */
static inline int32_t ref_requantize_apply(const ref_requantize *r,
					   size_t channel, uint32_t sum,
					   const int32_t *bias)
{
	return ref_requantize_finish(
		r, ref_multiply_by_quantized_multiplier(
			   ref_requantize_acc(channel, sum, bias),
			   r->multipliers[channel], r->shifts[channel]));
}

/* The same for the int8 and uint8 kernels TFLite runs through its GEMM
 * (ref_gemm_multiply_by_quantized_multiplier()). */
static inline int32_t ref_requantize_gemm_apply(const ref_requantize *r,
						size_t channel, uint32_t sum,
						const int32_t *bias)
{
	const int32_t acc = ref_requantize_acc(channel, sum, bias);
	const int32_t multiplier = r->multipliers[channel];
	const int shift = r->shifts[channel];

	return ref_requantize_finish(
		r, r->outside_gemm ? ref_multiply_by_quantized_multiplier(
					     acc, multiplier, shift) :
				     ref_gemm_multiply_by_quantized_multiplier(
					     acc, multiplier, shift));
}

/* The output of `channel` from its int64 sum and int64 bias (none when
 * NULL), in the wide arithmetic. */
static inline int32_t ref_requantize_wide_apply(const ref_requantize *r,
						size_t channel, int64_t sum,
						const int64_t *bias)
{
	/* Modulo 2^64, as TFLite's int64 accumulator adds its bias. */
	const uint64_t acc = (uint64_t)sum +
			     (bias != NULL ? (uint64_t)bias[channel] : 0);

	return ref_requantize_finish(
		r, ref_multiply_by_quantized_multiplier_int64(
			   (int64_t)acc, r->multipliers[channel],
			   r->shifts[channel]));
}

#endif /* OPVER_REFERENCE_REQUANTIZE_H */
