/*
 * requant.h - TFLite's integer requantization, written from TFLite's
 * documented semantics rather than taken from the reference plugin: the
 * conformance tool derives a mismatching element with it
 * (requant_report.c), and the hand-written bug plugins of tests/plugins
 * (fc_ties, add_no_clamp) compute with it, so that each differs from the
 * reference only in its one bug.
 */
#ifndef OPVER_CONFORMANCE_REQUANT_H
#define OPVER_CONFORMANCE_REQUANT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <opver/ops.h>

/* real = multiplier / 2^31 * 2^shift, multiplier in [2^30, 2^31). */
static inline void rq_quantize(double real, int32_t *multiplier, int *shift)
{
	int64_t q;

	if (real == 0) {
		*multiplier = 0;
		*shift = 0;
		return;
	}
	q = llround(frexp(real, shift) * 2147483648.0);
	if (q == INT64_C(2147483648)) {
		q /= 2;
		++*shift;
	}
	if (*shift < -31) {
		q = 0;
		*shift = 0;
	}
	*multiplier = (int32_t)q;
}

/* round(a * b / 2^31), gemmlowp's nudges, INT32_MIN squared saturating. */
static inline int32_t rq_high_mul(int32_t a, int32_t b)
{
	const int64_t ab = (int64_t)a * b;

	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	return (int32_t)((ab + (ab >= 0 ? (1 << 30) : 1 - (1 << 30))) /
			 (INT64_C(1) << 31));
}

/* x / 2^e rounded to nearest; ties away from zero, or toward zero when
 * `ties_toward_zero`. */
static inline int32_t rq_shift_right(int32_t x, int e, bool ties_toward_zero)
{
	const int32_t mask = (int32_t)((INT64_C(1) << e) - 1);
	const int32_t half = mask >> 1;
	const bool negative = x < 0;
	const int32_t threshold =
		half + (ties_toward_zero ? !negative : negative);

	return (x >> e) + ((x & mask) > threshold);
}

/* x * multiplier * 2^shift / 2^31, rounded twice as TFLite's reference
 * kernels do. */
static inline int32_t rq_rescale(int32_t x, int32_t multiplier, int shift,
				 bool ties_toward_zero)
{
	const int32_t shifted =
		(int32_t)((uint32_t)x << (shift > 0 ? shift : 0));

	return rq_shift_right(rq_high_mul(shifted, multiplier),
			      shift > 0 ? 0 : -shift, ties_toward_zero);
}

/* The clamp of a fused activation on an output of range [lo, hi]. */
static inline void rq_activation(int32_t activation, float scale,
				 int32_t zero, int32_t lo, int32_t hi,
				 int32_t *min, int32_t *max)
{
	float low = -INFINITY, high = INFINITY;
	int32_t q;

	if (activation == OPVER_ACTIVATION_RELU ||
	    activation == OPVER_ACTIVATION_RELU6)
		low = 0;
	if (activation == OPVER_ACTIVATION_RELU6)
		high = 6;
	if (activation == OPVER_ACTIVATION_RELU_N1_TO_1) {
		low = -1;
		high = 1;
	}
	*min = lo;
	*max = hi;
	if (!isinf(low) && (q = zero + (int32_t)roundf(low / scale)) > lo)
		*min = q;
	if (!isinf(high) && (q = zero + (int32_t)roundf(high / scale)) < hi)
		*max = q;
}

static inline int32_t rq_clamp(int32_t x, int32_t min, int32_t max)
{
	return x < min ? min : x > max ? max : x;
}

#endif /* OPVER_CONFORMANCE_REQUANT_H */
