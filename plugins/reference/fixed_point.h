/*
 * fixed_point.h - the fixed-point math of TensorFlow Lite's quantized
 * SOFTMAX and LOG_SOFTMAX, computed exactly as gemmlowp's fixedpoint.h computes it (the
 * library TFLite's reference kernels use), so results match TFLite bit for
 * bit.
 *
 * Numbers are int32 "Qm.n" values: m integer bits, n = 31 - m fractional
 * bits, real = raw / 2^n.  Q0.31 covers [-1, 1), with 1 itself stood in for
 * by INT32_MAX.  A product of Qa and Qb values is a Q(a+b) value, computed
 * by ref_saturating_rounding_doubling_high_mul() on the raw integers.  Every
 * rounding, saturation and constant below is gemmlowp's: the same inputs
 * give the same raw bits.
 *
 * Static inline so kernel loops inline them.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_FIXED_POINT_H
#define OPVER_REFERENCE_FIXED_POINT_H

#include <stdint.h>

#include "quantization.h"

/* 1 in Q0.31, as gemmlowp approximates it. */
#define REF_Q0_ONE INT32_MAX

/* Leading zero bits of x; 32 for 0.  Used once per row, so a loop. */
static inline int ref_count_leading_zeros(uint32_t x)
{
	int zeros = 0;

	for (uint32_t bit = UINT32_C(1) << 31; bit != 0 && !(x & bit);
	     bit >>= 1)
		zeros++;
	return zeros;
}

/* x * 2^exponent for exponent in [1, 30], saturating to the int32 range
 * where |x| exceeds 2^(31 - exponent) - 1 (so -2^(31 - exponent) itself
 * saturates too, as in gemmlowp). */
static inline int32_t ref_saturating_shift_left(int32_t x, int exponent)
{
	const int32_t threshold = (INT32_C(1) << (31 - exponent)) - 1;

	if (x > threshold)
		return INT32_MAX;
	if (x < -threshold)
		return INT32_MIN;
	return x * (INT32_C(1) << exponent);
}

/* x * 2^exponent for exponent in [-31, 30]: a saturating left shift or a
 * rounding right shift (gemmlowp's SaturatingRoundingMultiplyByPOT). */
static inline int32_t ref_saturating_multiply_by_pot(int32_t x, int exponent)
{
	if (exponent > 0)
		return ref_saturating_shift_left(x, exponent);
	return ref_rounding_divide_by_pot(x, -exponent);
}

/* a + b and a - b saturated to the int32 range. */
static inline int32_t ref_saturating_add(int32_t a, int32_t b)
{
	const int64_t sum = (int64_t)a + (int64_t)b;

	return sum > INT32_MAX ? INT32_MAX :
	       sum < INT32_MIN ? INT32_MIN : (int32_t)sum;
}

static inline int32_t ref_saturating_sub(int32_t a, int32_t b)
{
	const int64_t difference = (int64_t)a - (int64_t)b;

	return difference > INT32_MAX ? INT32_MAX :
	       difference < INT32_MIN ? INT32_MIN : (int32_t)difference;
}

/* (a + b) / 2 rounded to nearest, ties away from zero. */
static inline int32_t ref_rounding_half_sum(int32_t a, int32_t b)
{
	const int64_t sum = (int64_t)a + (int64_t)b;

	return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* exp(a) for a in [-1/4, 0), both Q0.31: a fourth-order Taylor expansion
 * around -1/8. */
static inline int32_t ref_exp_on_quarter_interval(int32_t a)
{
	const int32_t exp_minus_one_eighth = 1895147668; /* exp(-1/8) */
	const int32_t one_third = 715827883;
	const int32_t x = a + (INT32_C(1) << 28); /* a + 1/8 */
	const int32_t x2 = ref_saturating_rounding_doubling_high_mul(x, x);
	const int32_t x3 = ref_saturating_rounding_doubling_high_mul(x2, x);
	const int32_t x4 = ref_saturating_rounding_doubling_high_mul(x2, x2);
	const int32_t x4_over_4 = ref_rounding_divide_by_pot(x4, 2);
	/* x^4/24 + x^3/6 + x^2/2 as ((x^4/4 + x^3) / 3 + x^2) / 2 */
	const int32_t higher_terms = ref_rounding_divide_by_pot(
		ref_saturating_rounding_doubling_high_mul(x4_over_4 + x3,
							  one_third) +
			x2,
		1);

	return exp_minus_one_eighth +
	       ref_saturating_rounding_doubling_high_mul(exp_minus_one_eighth,
							 x + higher_terms);
}

/* Fractional bits of the Q5.26 input of ref_exp_on_negative_q5_26(). */
#define REF_Q5_26_FRACTIONAL_BITS 26

/*
 * exp(a) in Q0.31 for a Q5.26 value a <= 0 (a >= -32).  a is split into
 * its remainder modulo 1/4, shifted into [-1/4, 0) for the Taylor
 * expansion, and the multiples of 1/4, 1/2, 1, ..., 16 it dropped, each
 * applied as a multiplication by exp(-2^k) when its bit is set.
 */
static inline int32_t ref_exp_on_negative_q5_26(int32_t a)
{
	/* exp(-2^k) in Q0.31 for k = -2 .. 4. */
	static const int32_t exp_of_minus_power_of_two[] = {
		1672461947, 1302514674, 790015084, 290630308,
		39332535,   720401,     242,
	};
	const int32_t quarter = INT32_C(1) << (REF_Q5_26_FRACTIONAL_BITS - 2);
	const int32_t modulo_quarter = (a & (quarter - 1)) - quarter;
	/* What was dropped: a non-negative multiple of 1/4. */
	const int32_t dropped = modulo_quarter - a;
	/* Q5.26 to Q0.31; the value is in [-1/4, 0), so nothing saturates. */
	int32_t result =
		ref_exp_on_quarter_interval(ref_saturating_shift_left(
			modulo_quarter, 31 - REF_Q5_26_FRACTIONAL_BITS));

	for (int k = 0; k < 7; k++) {
		const int32_t bit =
			INT32_C(1) << (REF_Q5_26_FRACTIONAL_BITS - 2 + k);

		if (dropped & bit)
			result = ref_saturating_rounding_doubling_high_mul(
				result, exp_of_minus_power_of_two[k]);
	}
	return a == 0 ? REF_Q0_ONE : result;
}

/*
 * 1 / (1 + a) in Q0.31 for a in [0, 1) in Q0.31: three Newton-Raphson
 * steps on the half denominator (1 + a) / 2, in Q2.29, from the start
 * 48/17 - 32/17 * d.
 */
static inline int32_t ref_one_over_one_plus_x(int32_t a)
{
	const int32_t q2_one = INT32_C(1) << 29;
	const int32_t half_denominator = ref_rounding_half_sum(a, REF_Q0_ONE);
	int32_t x = 1515870810 + /* 48/17 */
		    ref_saturating_rounding_doubling_high_mul(
			    half_denominator, -1010580540 /* -32/17 */);

	for (int i = 0; i < 3; i++) {
		const int32_t error =
			q2_one - ref_saturating_rounding_doubling_high_mul(
					 half_denominator, x);

		/* x * error is Q4.27; back to Q2.29. */
		x += ref_saturating_shift_left(
			ref_saturating_rounding_doubling_high_mul(x, error), 2);
	}
	/* x approximates 1 / d = 2 / (1 + a): halving it is reading it as
	 * Q1.30, then Q1.30 to Q0.31. */
	return ref_saturating_shift_left(x, 1);
}

/* Integer bits of the Q5.26 result of ref_log_at_least_one(). */
#define REF_LOG_OUTPUT_INTEGER_BITS 5

/*
 * log(x) in Q5.26 for x >= 1 given in Q(integer_bits).(31 - integer_bits),
 * as TFLite's log_x_for_x_greater_than_or_equal_to_1 computes it.  x is
 * written as r * 2^z with r in [sqrt(1/2), 1) twice over: once from its
 * leading bit, once from x * sqrt(1/2), taking the smaller r and the larger
 * z, each z nudged by 1/4.  Then log(x) = z * log(2) + log(r), log(r) from a
 * rational approximation in q = 2 (r - 2^(-1/4)) with constants alpha_*.
 * The sum is kept with one more integer bit (Q6.25) so that a saturated
 * z * log(2) does not spoil it.
 */
static inline int32_t ref_log_at_least_one(int32_t x, int integer_bits)
{
	enum { ACCUM_BITS = REF_LOG_OUTPUT_INTEGER_BITS + 1 };
	const int32_t log_2 = 1488522236;
	const int32_t sqrt_sqrt_half = 1805811301;
	const int32_t sqrt_half = 1518500250;
	const int32_t alpha_n = 117049297; /* 11/240 * 2^(1/4) */
	const int32_t alpha_d = 127690142; /* 1/20 * 2^(1/4) */
	const int32_t alpha_i = 1057819769; /* 2 / 2^(1/4) - 2^(1/4) */
	const int32_t alpha_f = 638450708; /* 1/4 * 2^(1/4) */
	const int32_t quarter = INT32_C(1) << (29 - ACCUM_BITS); /* Q6.25 */
	/* From the leading bit of x, and from that of x * sqrt(1/2). */
	const int a_headroom_plus_one = ref_count_leading_zeros((uint32_t)x);
	const int32_t r_a = ref_saturating_multiply_by_pot(
		ref_saturating_rounding_doubling_high_mul(
			ref_saturating_multiply_by_pot(x,
						       a_headroom_plus_one - 1),
			sqrt_half),
		1);
	const int32_t z_a = ref_saturating_add(
		ref_saturating_multiply_by_pot(integer_bits -
						       a_headroom_plus_one,
					       31 - ACCUM_BITS),
		quarter);
	const int b_headroom = ref_count_leading_zeros((uint32_t)
		ref_saturating_rounding_doubling_high_mul(x, sqrt_half)) - 1;
	const int32_t r_b = ref_saturating_multiply_by_pot(x, b_headroom);
	const int32_t z_b = ref_saturating_sub(
		ref_saturating_multiply_by_pot(integer_bits - b_headroom,
					       31 - ACCUM_BITS),
		quarter);
	const int32_t r = r_a < r_b ? r_a : r_b;
	const int32_t z = z_a > z_b ? z_a : z_b;
	const int32_t p = ref_rounding_half_sum(r, sqrt_sqrt_half);
	const int32_t q = 2 * (r - sqrt_sqrt_half);
	const int32_t q2 = ref_saturating_rounding_doubling_high_mul(q, q);
	const int32_t numerator =
		ref_saturating_rounding_doubling_high_mul(q, r) +
		ref_saturating_rounding_doubling_high_mul(
			ref_saturating_rounding_doubling_high_mul(q, q2),
			alpha_n);
	const int32_t denominator_minus_one =
		ref_saturating_rounding_doubling_high_mul(
			p, alpha_i + q +
				   ref_saturating_rounding_doubling_high_mul(
					   alpha_d, q2)) +
		ref_saturating_rounding_doubling_high_mul(alpha_f, q);
	const int32_t log_r = ref_saturating_rounding_doubling_high_mul(
		ref_rounding_divide_by_pot(numerator, ACCUM_BITS),
		ref_one_over_one_plus_x(denominator_minus_one));

	/* Q6.25 to Q5.26. */
	return ref_saturating_multiply_by_pot(
		ref_saturating_rounding_doubling_high_mul(z, log_2) + log_r,
		ACCUM_BITS - REF_LOG_OUTPUT_INTEGER_BITS);
}

/*
 * The reciprocal of x > 0 given in Q(integer_bits).(31 - integer_bits), as
 * TFLite's GetReciprocal: x is scaled by a power of two into [1, 2), that
 * is divided by 2^*bits_over_unit, and the result is 1 / that, in Q0.31
 * (so 1 / x is the result divided by 2^*bits_over_unit).
 */
static inline int32_t ref_reciprocal(int32_t x, int integer_bits,
				     int *bits_over_unit)
{
	const int headroom_plus_one = ref_count_leading_zeros((uint32_t)x);
	/* x shifted so its leading one is the 2^31 bit, minus that bit: the
	 * fraction above 1 in Q0.31. */
	const uint32_t fraction =
		((uint32_t)x << headroom_plus_one) - (UINT32_C(1) << 31);

	*bits_over_unit = integer_bits - headroom_plus_one;
	return ref_one_over_one_plus_x((int32_t)fraction);
}

/* ------------------------------------------------------------------ Q.15 */

/*
 * The same functions on int16 "Qm.n" values (n = 15 - m), as gemmlowp
 * computes them on int16 raw types, for TFLite's int16 LOGISTIC and TANH.
 * gemmlowp's plain additions, subtractions and negations wrap in 16 bits
 * (ref_wrap16); its constants are the Q0.31 ones above, rounded to Q0.15
 * (REF_Q15).
 */

/* x reduced modulo 2^16 into the int16 range. */
static inline int16_t ref_wrap16(int32_t x)
{
	return (int16_t)(uint16_t)(uint32_t)x;
}

#define REF_Q15(q31) ((int16_t)ref_rounding_divide_by_pot((q31), 16))

/* round(a * b / 2^15), ties toward +infinity, -1 * -1 saturating. */
static inline int16_t ref_saturating_rounding_doubling_high_mul16(int16_t a,
								  int16_t b)
{
	const int32_t product = (int32_t)a * b;
	const int32_t nudge = product >= 0 ? (1 << 14) : 1 - (1 << 14);

	if (a == INT16_MIN && b == INT16_MIN)
		return INT16_MAX;
	return (int16_t)((product + nudge) / (1 << 15));
}

/* x * 2^exponent, exponent in [1, 14], saturating as
 * ref_saturating_shift_left() does. */
static inline int16_t ref_saturating_shift_left16(int16_t x, int exponent)
{
	const int32_t threshold = (1 << (15 - exponent)) - 1;

	if (x > threshold)
		return INT16_MAX;
	if (x < -threshold)
		return INT16_MIN;
	return (int16_t)(x * (1 << exponent));
}

/* exp(a) for a in [-1/4, 0), both Q0.15; see ref_exp_on_quarter_interval.
 * The last addition saturates, as gemmlowp's does in 16 bits. */
static inline int16_t ref_exp_on_quarter_interval16(int16_t a)
{
	const int16_t exp_minus_one_eighth = REF_Q15(1895147668);
	const int16_t one_third = REF_Q15(715827883);
	const int16_t x = ref_wrap16(a + (1 << 12)); /* a + 1/8 */
	const int16_t x2 = ref_saturating_rounding_doubling_high_mul16(x, x);
	const int16_t x3 = ref_saturating_rounding_doubling_high_mul16(x2, x);
	const int16_t x4 = ref_saturating_rounding_doubling_high_mul16(x2, x2);
	const int16_t x4_over_4 = (int16_t)ref_rounding_divide_by_pot(x4, 2);
	const int16_t higher_terms = (int16_t)ref_rounding_divide_by_pot(
		ref_wrap16(ref_saturating_rounding_doubling_high_mul16(
				   ref_wrap16(x4_over_4 + x3), one_third) +
			   x2),
		1);
	const int32_t sum =
		exp_minus_one_eighth +
		ref_saturating_rounding_doubling_high_mul16(
			exp_minus_one_eighth, ref_wrap16(x + higher_terms));

	return (int16_t)ref_clamp_int32(sum, INT16_MIN, INT16_MAX);
}

/*
 * exp(a) in Q0.15 for a <= 0 in Q(integer_bits).(15 - integer_bits),
 * integer_bits in [1, 5]: ref_exp_on_negative_q5_26's method, where only
 * the multiples 2^k with k < integer_bits can have been dropped.
 */
static inline int16_t ref_exp_on_negative16(int16_t a, int integer_bits)
{
	static const int32_t exp_of_minus_power_of_two[] = {
		1672461947, 1302514674, 790015084, 290630308,
		39332535,   720401,     242,
	};
	const int fractional_bits = 15 - integer_bits;
	const int16_t quarter = (int16_t)(1 << (fractional_bits - 2));
	const int16_t modulo_quarter =
		ref_wrap16((a & (quarter - 1)) - quarter);
	const int16_t dropped = ref_wrap16(modulo_quarter - a);
	int16_t result = ref_exp_on_quarter_interval16(
		ref_saturating_shift_left16(modulo_quarter, integer_bits));

	for (int k = 0; k < integer_bits + 2; k++) {
		if (dropped & (1 << (fractional_bits - 2 + k)))
			result = ref_saturating_rounding_doubling_high_mul16(
				result, REF_Q15(exp_of_minus_power_of_two[k]));
	}
	return a == 0 ? INT16_MAX : result;
}

/*
 * Three Newton-Raphson steps towards 1 / ((1 + a) / 2) for a in [0, 1) in
 * Q0.15, the result in Q2.13: ref_one_over_one_plus_x's iteration.
 */
static inline int16_t ref_newton_half_denominator16(int16_t a)
{
	const int16_t q2_one = 1 << 13;
	const int16_t half_denominator =
		(int16_t)ref_rounding_half_sum(a, INT16_MAX);
	int16_t x = ref_wrap16(REF_Q15(1515870810) + /* 48/17 */
			       ref_saturating_rounding_doubling_high_mul16(
				       half_denominator,
				       REF_Q15(-1010580540) /* -32/17 */));

	for (int i = 0; i < 3; i++) {
		const int16_t error = ref_wrap16(
			q2_one - ref_saturating_rounding_doubling_high_mul16(
					 half_denominator, x));
		const int16_t step =
			ref_saturating_rounding_doubling_high_mul16(x, error);

		/* x * error is Q4.11; back to Q2.13. */
		x = ref_wrap16(x + ref_saturating_shift_left16(step, 2));
	}
	return x;
}

/* logistic(a) = 1 / (1 + exp(-a)) in Q0.15 for a in Q3.12, as gemmlowp's
 * logistic(): computed on |a|, mirrored for negative a. */
static inline int16_t ref_logistic16(int16_t a)
{
	/* -a wraps for INT16_MIN, whose exp(-8) is then still right. */
	const int16_t minus_abs = a > 0 ? ref_wrap16(-a) : a;
	/* 1 / (1 + e): 2 / (1 + e) in Q2.13, read as Q1.14, to Q0.15. */
	const int16_t positive = ref_saturating_shift_left16(
		ref_newton_half_denominator16(
			ref_exp_on_negative16(minus_abs, 3)),
		1);

	if (a == 0)
		return 1 << 14;
	return a > 0 ? positive : ref_wrap16(INT16_MAX - positive);
}

/* tanh(a) in Q0.15 for a in Q(integer_bits).(15 - integer_bits),
 * integer_bits in [0, 4], as gemmlowp's tanh(): (1 - e) / (1 + e) with
 * e = exp(-2|a|), negated for negative a. */
static inline int16_t ref_tanh16_bits(int16_t a, int integer_bits)
{
	const int16_t minus_abs = a < 0 ? a : ref_wrap16(-a);
	/* -2|a| is minus_abs read with one more integer bit. */
	const int16_t x = ref_newton_half_denominator16(
		ref_exp_on_negative16(minus_abs, integer_bits + 1));
	/* 2 / (1 + e) - 1 in Q2.13, to Q0.15. */
	const int16_t t =
		ref_saturating_shift_left16(ref_wrap16(x - (1 << 13)), 2);

	if (a == 0)
		return 0;
	return a < 0 ? ref_wrap16(-t) : t;
}

/* tanh(a) in Q0.15 for a in Q3.12 (ref_tanh16_bits). */
static inline int16_t ref_tanh16(int16_t a)
{
	return ref_tanh16_bits(a, 3);
}

#endif /* OPVER_REFERENCE_FIXED_POINT_H */
