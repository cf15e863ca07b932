/*
 * quantized_add.h - the quantized arithmetic ADD and SUB share, computed as
 * TensorFlow Lite's reference kernels compute it.  SUB is ADD with the
 * second input's contribution negated: TFLite subtracts input 2 after
 * rescaling it (general path) or after rounding it (power-of-two path), and
 * otherwise runs ADD's arithmetic.
 *
 *   general path (uint8, int8, and int16 with general scales): each input
 *            minus its zero point is shifted left (20 bits for 8-bit
 *            types, 15 for int16) and rescaled by its scale / (2 x the
 *            larger input scale); the sum is rescaled by 2 x the larger
 *            input scale / (2^shift x output scale), the output zero point
 *            added and the result clamped.
 *   power-of-two path (int16, every scale a power of two, every zero point
 *            0): the input with the finer scale is divided by the power of
 *            two between the scales, rounding; the two are added with int16
 *            saturation and clamped.
 *
 * Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_QUANTIZED_ADD_H
#define OPVER_REFERENCE_QUANTIZED_ADD_H

#include <stdbool.h>
#include <stdint.h>

#include <opver/plugin.h>

#include "kernels.h"
#include "quantization.h"

/* Bits the general path shifts inputs left before rescaling: enough
 * precision, yet the sum of two shifted inputs fits an int32. */
#define REF_ADD_8BIT_LEFT_SHIFT 20
#define REF_ADD_INT16_LEFT_SHIFT 15

/* Whether input 2 is added (ADD) or subtracted (SUB). */
typedef enum ref_add_sign { REF_ADD = 1, REF_SUBTRACT = -1 } ref_add_sign;

/* The general path, as prepare computes it. */
typedef struct ref_add_rescale {
	int32_t input1_offset; /* minus the input zero points */
	int32_t input2_offset;
	int32_t output_offset; /* the output zero point */
	int left_shift;
	int32_t input1_multiplier; /* input scale / (2 x larger input scale) */
	int input1_shift;
	int32_t input2_multiplier;
	int input2_shift;
	int32_t input2_sign; /* a ref_add_sign: added or subtracted */
	int32_t output_multiplier; /* back to the output's scale */
	int output_shift;
	int32_t activation_min;
	int32_t activation_max;
} ref_add_rescale;

/* The power-of-two path, as prepare computes it: each input is divided by
 * 2^exponent (one of them is 0). */
typedef struct ref_add_pot {
	int input1_exponent;
	int input2_exponent;
	int32_t input2_sign; /* a ref_add_sign */
	int32_t activation_min;
	int32_t activation_max;
} ref_add_pot;

/* One output of the general path, before narrowing to the output type. */
static REF_ALWAYS_INLINE int32_t ref_add_rescaled(int32_t a, int32_t b,
						  const ref_add_rescale *r)
{
	const int32_t shifted1 = (a + r->input1_offset) * (1 << r->left_shift);
	const int32_t shifted2 = (b + r->input2_offset) * (1 << r->left_shift);
	/* SUB negates input 2 once rescaled, as TFLite does.  The high
	 * multiply rounds its ties towards +infinity, so negating the
	 * multiplier instead would round them the other way. */
	const int32_t sum =
		ref_multiply_by_quantized_multiplier(
			shifted1, r->input1_multiplier, r->input1_shift) +
		r->input2_sign *
			ref_multiply_by_quantized_multiplier(
				shifted2, r->input2_multiplier,
				r->input2_shift);
	const int32_t result = ref_multiply_by_quantized_multiplier(
				       sum, r->output_multiplier,
				       r->output_shift) +
			       r->output_offset;

	return ref_clamp_int32(result, r->activation_min, r->activation_max);
}

/* One output of the power-of-two path. */
static inline int16_t ref_add_pot_element(int16_t a, int16_t b,
					  const ref_add_pot *p)
{
	/* Dividing by 2^0 leaves the input whose scale is the output's. */
	const int32_t sum =
		ref_rounding_divide_by_pot(a, p->input1_exponent) +
		p->input2_sign * ref_rounding_divide_by_pot(b,
							    p->input2_exponent);
	const int32_t saturated = ref_clamp_int32(sum, INT16_MIN, INT16_MAX);

	return (int16_t)ref_clamp_int32(saturated, p->activation_min,
					p->activation_max);
}

/* The per-tensor quantization of input 1, input 2 and the output, in that
 * order, checked (ref_per_tensor_quantization). */
opver_status ref_add_quantization(const opver_context *ctx,
				  const opver_node *node, float scales[3],
				  int32_t zero_points[3]);

/*
 * The general path's offsets, multipliers and clamp for the node's
 * quantized tensors with the given scales and zero points (inputs, then
 * output), as TFLite's ADD and SUB Prepare compute them (in double).  The
 * sum's rescale factor must come out below 1, as TFLite requires.
 */
opver_status ref_add_rescale_prepare(const opver_context *ctx,
				     const opver_node *node,
				     int32_t activation, const float scales[3],
				     const int32_t zero_points[3],
				     int left_shift, ref_add_sign sign,
				     ref_add_rescale *r);

/*
 * True when TFLite takes the power-of-two path for int16: asked for
 * (pot_scale_int16), every scale a power of two and every zero point 0.
 * Fills the scales' log2s.
 */
bool ref_add_takes_pot_path(int32_t pot_scale_int16, const float scales[3],
			    const int32_t zero_points[3], int log2s[3]);

/* The power-of-two path's shifts and clamp, as TFLite requires them: one
 * input at the output's scale, the other at the same or a finer one. */
opver_status ref_add_pot_prepare(const opver_context *ctx,
				 const opver_node *node, int32_t activation,
				 const float scales[3], const int log2s[3],
				 ref_add_sign sign, ref_add_pot *p);

#endif /* OPVER_REFERENCE_QUANTIZED_ADD_H */
