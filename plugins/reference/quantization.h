/*
 * quantization.h - the quantized arithmetic of the reference kernels,
 * computed exactly as TensorFlow Lite's reference kernels compute it: a real
 * rescale factor becomes an int32 multiplier in Q0.31 and a power-of-two
 * shift at prepare time; at invoke time an int32 accumulator is rescaled by a
 * saturating rounding doubling high multiply followed by a rounding divide by
 * a power of two (TFLite's default "double rounding"), then offset and
 * clamped to the fused activation's range.
 *
 * The per-element functions are static inline so kernel loops inline them
 * and stay vectorizable; the prepare-time ones live in quantization.c.  All
 * of it is internal to the plugin (hidden by -fvisibility=hidden).
 */
#ifndef OPVER_REFERENCE_QUANTIZATION_H
#define OPVER_REFERENCE_QUANTIZATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/* ------------------------------------------------------------ prepare time */

/*
 * Splits `real` into multiplier * 2^shift / 2^31 with multiplier in
 * [2^30, 2^31) (Q0.31 of frexp's fraction, rounded half away from zero).
 * 0, and magnitudes too small for a shift >= -31, give multiplier 0 and
 * shift 0, as in TFLite's QuantizeMultiplier.
 */
void ref_quantize_multiplier(double real, int32_t *multiplier, int *shift);

/*
 * 1 / sqrt(x) as a Q0.31 multiplier and a (left) shift, as TFLite's
 * GetInvSqrtQuantizedMultiplierExp computes it with its reverse shift -1
 * (L2_NORMALIZATION, RSQRT): x normalized to [2^27, 2^29) by pairs of
 * bits, five gemmlowp Newton-Raphson steps y = 1.5 y - (x / 2) y^3 in
 * Q3.28, then times sqrt(2) / 2.  x of 0 or 1 gives INT32_MAX and shift 0.
 */
void ref_inv_sqrt_multiplier(int32_t x, int32_t *multiplier, int *shift);

/*
 * The largest shift ref_quantize_multiplier() may give for the integer
 * rescales (ref_multiply_by_quantized_multiplier() shifts left by at most
 * 30 bits), so a rescale factor must be below about 2^30.
 */
#define REF_MAX_RESCALE_SHIFT 30

/*
 * ref_quantize_multiplier() of a rescale factor derived from a node's
 * scales, checked as prepare must: `real` must be finite, not negative and
 * small enough for a shift of at most REF_MAX_RESCALE_SHIFT.  Otherwise
 * reports "WHAT is REAL; a rescale factor must be finite, not negative and
 * below 2^30", where WHAT is `format` and its arguments ("channel 1: input
 * scale x filter scale / output scale"), and returns
 * OPVER_ERROR_INVALID_MODEL: the model's scales are hostile or corrupt.
 * Compute `real` in double so that it is infinite only when a scale is.
 */
opver_status ref_quantize_rescale(const opver_context *ctx, double real,
				  int32_t *multiplier, int *shift,
				  const char *format, ...) OPVER__PRINTF(5, 6);

/*
 * True when `scale` is a power of two within TFLite's tolerance (its log2,
 * computed in float as TFLite's CheckedLog2, within 1e-3 of an integer);
 * *log2 receives that log2 rounded, whether or not it is.
 */
bool ref_checked_log2(float scale, int *log2);

/*
 * The scaling of quantized SOFTMAX and LOG_SOFTMAX (TFLite's
 * PreprocessSoftmaxScaling and CalculateInputRadius): one input step times
 * `beta_scale` (beta x input scale) in Q5.26, as a multiplier and a left
 * shift, the factor capped at 2^31 - 1 since any larger one already sends
 * every difference but 0 below diff_min; and *diff_min, the most negative
 * difference from the row max whose shifted value stays within 31 x 2^26,
 * inside int32 before the multiplier reduces it.  False, with nothing
 * set, when the factor is not above 1 (TFLite requires a left shift).
 */
bool ref_softmax_diff_scaling(double beta_scale, int32_t *multiplier,
			      int *shift, int32_t *diff_min);

/* Smallest and largest value of an integer tensor type; false for a type
 * that is not an integer type a quantized tensor can have. */
bool ref_type_range(int32_t type, int32_t *min, int32_t *max);

/* True for the activations a kernel can fuse as a clamp: NONE, RELU,
 * RELU_N1_TO_1 and RELU6 (not TANH or SIGN_BIT). */
bool ref_activation_is_clamp(int32_t activation);

/* Reports, and returns OPVER_ERROR_UNSUPPORTED, unless the fused activation
 * is a clamp (ref_activation_is_clamp). */
opver_status ref_expect_clamp_activation(const opver_context *ctx,
					 int32_t activation);

/* The clamp of a clamp activation on float outputs: [lowest, max] for NONE. */
void ref_activation_range_float(int32_t activation, float *min,
				float *max);

/*
 * The clamp of a clamp activation on a quantized output of range
 * [qmin, qmax] with the given scale and zero point: activation bounds are
 * quantized as zero_point + round(bound / scale) in float and intersected
 * with [qmin, qmax].  False when a bound does not fit an int32.
 */
bool ref_activation_range_quantized(int32_t activation, int32_t qmin,
				    int32_t qmax, float scale,
				    int32_t zero_point, int32_t *min,
				    int32_t *max);

/*
 * ref_activation_range_quantized() on `output`, quantized with `scale` and
 * `zero_point`, over its type's range (ref_type_range): reports and
 * returns OPVER_ERROR_INVALID_MODEL when a bound does not fit.  The
 * output's type must be an integer type (as ref_per_tensor_quantization()
 * has checked).
 */
opver_status ref_output_activation_range(const opver_context *ctx,
					 int32_t activation,
					 const opver_tensor *output,
					 float scale, int32_t zero_point,
					 int32_t *min, int32_t *max);

/* True when `tensor` has a quantization (one scale or more). */
static inline bool ref_is_quantized(const opver_tensor *tensor)
{
	return tensor->quant.count > 0;
}

/*
 * The per-tensor quantization of `tensor`, checked: exactly one scale,
 * finite and positive, and a zero point inside the range of the tensor's
 * type.  On failure reports why, naming the tensor by `role` ("input",
 * "weights", ...), and returns OPVER_ERROR_UNSUPPORTED for per-channel
 * quantization or OPVER_ERROR_INVALID_MODEL otherwise.
 */
opver_status ref_per_tensor_quantization(const opver_context *ctx,
					 const char *role,
					 const opver_tensor *tensor,
					 float *scale, int32_t *zero_point);

/*
 * A tensor's quantization as elementwise kernels (QUANTIZE, DEQUANTIZE) walk
 * it: the tensor seen as [outer, channels, inner] in row-major order, with
 * one scale and zero point per channel; channels is 1 when it is quantized
 * per tensor.
 */
typedef struct ref_channel_quantization {
	size_t outer;
	size_t channels;
	size_t inner;
	/* channels entries each; borrowed from the tensor, valid while the
	 * model is loaded. */
	const float *scales;
	const int64_t *zero_points;
} ref_channel_quantization;

/*
 * Checks the quantization of `tensor` and describes it in `q`: per tensor
 * as ref_per_tensor_quantization() checks it, or, when `per_channel` allows
 * it, one scale and zero point for each index of dimension quant.axis, every
 * scale finite and positive and every zero point inside the type's range.
 * Reports and fails otherwise, naming the tensor by `role`.
 */
opver_status ref_channel_quantization_get(const opver_context *ctx,
					  const char *role,
					  const opver_tensor *tensor,
					  bool per_channel,
					  ref_channel_quantization *q);

/*
 * The scale of `filter` for output channel `channel`: its only scale when
 * quantized per tensor, else scale[channel].  The filter's quantization
 * must have been checked (ref_filter_scales_check).
 */
static inline float ref_filter_scale(const opver_tensor *filter,
				     int32_t channel)
{
	return filter->quant.count == 1 ? filter->quant.scale[0]
					: filter->quant.scale[channel];
}

/*
 * Checks a filter as the per-channel integer kernels and the hybrid kernels
 * (float activations, int8 filter) need it, since neither subtracts a
 * filter zero point: symmetric (zero points 0), one finite positive scale
 * or one per channel along `axis` (`channels` of them).
 */
opver_status ref_filter_scales_check(const opver_context *ctx,
				     const opver_tensor *filter, int32_t axis,
				     int32_t channels);

/* ------------------------------------------------------------- invoke time */

/*
 * round(a * b / 2^31), ties toward +infinity, saturating the one overflowing
 * case INT32_MIN * INT32_MIN to INT32_MAX.
 */
static inline int32_t ref_saturating_rounding_doubling_high_mul(int32_t a,
								int32_t b)
{
	const int64_t product = (int64_t)a * (int64_t)b;
	const int64_t nudge = product >= 0 ? (INT64_C(1) << 30)
					   : 1 - (INT64_C(1) << 30);

	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	/* Division, not a shift: it truncates toward zero, which with the
	 * nudge above gives TFLite's rounding. */
	return (int32_t)((product + nudge) / (INT64_C(1) << 31));
}

/* x / 2^exponent rounded to nearest, ties away from zero; exponent in
 * [0, 31]. */
static inline int32_t ref_rounding_divide_by_pot(int32_t x, int exponent)
{
	const int32_t mask = (int32_t)((INT64_C(1) << exponent) - 1);
	const int32_t remainder = x & mask;
	const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);

	return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/*
 * x * multiplier * 2^shift / 2^31 for a multiplier and shift from
 * ref_quantize_multiplier() with shift in [-31, 30], rounded once, half
 * up: TFLite built with TFLITE_SINGLE_ROUNDING, ruy's GEMM output stage
 * (and float engines such as Arm NN's reference backend) compute this.  The
 * result of a valid rescale fits an int32; anything else is clamped.
 */
static inline int32_t ref_single_rounding_rescale(int32_t x,
						  int32_t multiplier,
						  int shift)
{
	const int total_shift = 31 - shift;
	const int64_t product = (int64_t)x * (int64_t)multiplier +
				(INT64_C(1) << (total_shift - 1));
	/* Division rounding toward minus infinity, as the arithmetic shift
	 * TFLite uses. */
	const int64_t divisor = INT64_C(1) << total_shift;
	int64_t result = product / divisor;

	if (product % divisor < 0)
		result--;
	return result > INT32_MAX ? INT32_MAX :
	       result < INT32_MIN ? INT32_MIN : (int32_t)result;
}

/*
 * The same rescale rounded twice, as TFLite's reference kernels compute it
 * by default.  A positive shift is applied to x first and wraps modulo
 * 2^32 as TFLite's int32 arithmetic does (computed unsigned, so without
 * undefined behaviour).
 */
static inline int32_t ref_double_rounding_rescale(int32_t x,
						  int32_t multiplier,
						  int shift)
{
	const int left = shift > 0 ? shift : 0;
	const int right = shift > 0 ? 0 : -shift;
	const int32_t shifted = (int32_t)((uint32_t)x << left);

	return ref_rounding_divide_by_pot(
		ref_saturating_rounding_doubling_high_mul(shifted, multiplier),
		right);
}

/*
 * The rescale of every integer kernel: rounded twice by default, once in
 * the build with REF_SINGLE_ROUNDING (TFLite's TFLITE_SINGLE_ROUNDING).
 */
static inline int32_t ref_multiply_by_quantized_multiplier(int32_t x,
							   int32_t multiplier,
							   int shift)
{
#ifdef REF_SINGLE_ROUNDING
	return ref_single_rounding_rescale(x, multiplier, shift);
#else
	return ref_double_rounding_rescale(x, multiplier, shift);
#endif
}

/*
 * The rescale of the int8 kernels that TFLite's builtin (desktop) kernels
 * compute with a GEMM: CONV_2D, FULLY_CONNECTED, BATCH_MATMUL.  On x86 and
 * WebAssembly TFLite hands int8 GEMMs to ruy, whose output stage rounds
 * once, so the reference-tflite plugin, built with REF_TFLITE_BUILTIN
 * (TFLite's builtin kernels' arithmetic), does too.  uint8 GEMMs go to gemmlowp, which
 * rounds twice, and so does every other kernel of that build, as TFLite's
 * other builtin kernels do (cpu_backend_gemm.h's dispatch table).
 */
static inline int32_t ref_gemm_multiply_by_quantized_multiplier(
	int32_t x, int32_t multiplier, int shift)
{
#ifdef REF_TFLITE_BUILTIN
	return ref_single_rounding_rescale(x, multiplier, shift);
#else
	return ref_multiply_by_quantized_multiplier(x, multiplier, shift);
#endif
}

/*
 * The same rescale of a 64-bit accumulator, as TFLite's int64 overload of
 * MultiplyByQuantizedMultiplier computes it (int16 activations with an
 * int64 bias): the multiplier is first rounded to Q0.15 (saturating at
 * 2^15 - 1), then x times it is shifted right by 15 - shift, rounding half
 * toward +infinity, once.  For shift in [-31, 7], the domain TFLite
 * documents; kernels reject larger rescales at prepare.  The product and
 * the narrowing wrap as TFLite's int64 arithmetic does (computed unsigned,
 * so without undefined behaviour).
 */
static inline int32_t ref_multiply_by_quantized_multiplier_int64(
	int64_t x, int32_t multiplier, int shift)
{
	const int64_t reduced = multiplier < 0x7FFF0000 ?
					(multiplier + (1 << 15)) >> 16 :
					0x7FFF;
	const int total_shift = 15 - shift;
	const uint64_t rounded = (uint64_t)x * (uint64_t)reduced +
				 (UINT64_C(1) << (total_shift - 1));

	return (int32_t)((int64_t)rounded >> total_shift);
}

/* Clamps as TFLite's ActivationFunctionWithMinMax: a NaN stays NaN. */
static inline float ref_clamp_float(float x, float min, float max)
{
	const float low = x < min ? min : x;

	return max < low ? max : low;
}

static inline int32_t ref_clamp_int32(int32_t x, int32_t min, int32_t max)
{
	const int32_t low = x < min ? min : x;

	return max < low ? max : low;
}

#endif /* OPVER_REFERENCE_QUANTIZATION_H */
