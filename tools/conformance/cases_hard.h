/*
 * cases_hard.h - the hard spots of quantized cases (issue 16), shared by
 * every quantized generator so that no op seeks them its own way.
 *
 * A hard case draws a spot: the region its rescale multiplier (the real
 * factor TFLite turns into a Q0.31 multiplier and a shift) lies in.
 *
 *   ties      exactly 2^-n with power-of-two scales: small inputs then
 *             land on ties of the final rounding shift in a quarter to a
 *             half of the outputs, both signs, and the filter ops put
 *             every output of one channel on a tie
 *   pot-edge  2^-n (1 - 2^-46), from input scales 2^-a (1 + 2^-23) and
 *             2^-b (1 - 2^-23) multiplied in double: the Q0.31 fraction
 *             rounds up to 2^31, TFLite's special case (per-tensor float
 *             products round it to 2^-n exactly, a ties spot)
 *   half      just above or below 1/2
 *   one       just below 1
 *   spread    log-uniform over [2^-20, 1), the rest of the allowed range
 *   above-one log-uniform over (1, 8): the left shift TFLite allows MUL
 *             (outside the rotation of the others, which old cases draw)
 *
 * and, per tensor, a zero point at the type's lowest or highest value or
 * in its middle.  Values deviate from the zero point by as much as keeps
 * the outputs within a few dozen steps of theirs, and the generators plant
 * values past both bounds of every clamp activation (bias for the filter
 * ops, extreme inputs for the binary ones).
 */
#ifndef OPVER_CONFORMANCE_CASES_HARD_H
#define OPVER_CONFORMANCE_CASES_HARD_H

#include "cases.h"

enum { CF_SPOT_TIES, CF_SPOT_POT_EDGE, CF_SPOT_HALF, CF_SPOT_ONE,
       CF_SPOT_SPREAD, CF_NUM_SPOTS, CF_SPOT_ABOVE_ONE = CF_NUM_SPOTS };
extern const char *const cf_spot_names[CF_NUM_SPOTS + 1];

/* The zero points' roles. */
enum { CF_HARD_INPUT, CF_HARD_SECOND, CF_HARD_OUTPUT, CF_HARD_ROLES };

typedef struct cf_hard {
	int32_t spot;
	/* The rescale: output scale = product of the input scales / it. */
	double multiplier;
	/* The fractions of the two input scales: 1 but at the pot edge. */
	float factor[2];
	/* Per role: -1 the type's lowest zero point, 1 its highest, 0 one
	 * in the middle. */
	int32_t zero_side[CF_HARD_ROLES];
} cf_hard;

/* Draws the multiplier of `spot` and the zero points' sides. */
void cf_hard_draw(cf_hard *h, int32_t spot, cf_rng *rng);

/* A power-of-two input scale near `about`, times factor[which]. */
float cf_hard_input_scale(const cf_hard *h, int32_t which, float about);

/* The output scale for input scales whose product is `product`. */
float cf_hard_output_scale(const cf_hard *h, double product);

/* The zero point of `role` for `type`: 0 for int16 and int8 weights
 * (symmetric), else by its side. */
int32_t cf_hard_zero_point(const cf_hard *h, int32_t role, opver_type type,
			   cf_rng *rng);

/* How far values of `type` stray from their zero point so that `terms`
 * products of two such deviations (or sums, when !product) rescale to a
 * few dozen output steps (a few thousand for int16); at least 1, at most
 * the type's half range. */
int32_t cf_hard_deviation(const cf_hard *h, int32_t terms, bool product,
			  opver_type type);

/* Fills tensor t with its zero point plus uniform deviations in
 * [-deviation, deviation], clamped to its type (int8, uint8, int16). */
bool cf_hard_fill(cf_case *c, int32_t t, cf_rng *rng, int32_t deviation,
		  bool constant);

/* "lowest", "middle" or "highest": the side of role's zero point. */
const char *cf_hard_side_name(const cf_hard *h, int32_t role);

/* Appends "spot=... rescale=... zero_points=IN,SECOND,OUT" to the
 * case's parameters (the filter ops' and binary ops' helpers below do):
 * the zero points of the tensors roles[CF_HARD_ROLES] name (-1 for a
 * role the op lacks, written "-"), as quantized, and so 0 for int16
 * whatever side was drawn. */
void cf_hard_param(cf_case *c, const cf_hard *h,
		   const int32_t roles[CF_HARD_ROLES]);

/*
 * Quantizes and fills a filter op's tensors t = { input, filter, bias,
 * output } for `h`: the filter symmetric int8 (uint8 with a zero point for
 * a uint8 input) per tensor or per channel along `axis` (`channels`
 * scales), `taps` products per output, the bias int32 or int64 as its
 * tensor says.  The bias of channel 0 is planted so large, and of the last
 * channel so negative, that their outputs leave the type's range: past
 * every clamp.  False when out of memory.
 */
bool cf_hard_filter_op(cf_case *c, const cf_hard *h, cf_rng *rng,
		       const int32_t *t, bool per_channel, int32_t axis,
		       int32_t channels, int32_t taps);

/*
 * Quantizes and fills a binary op's tensors t = { input 1, input 2,
 * output } (int8 or uint8) for `h`; `product` for MUL (the multiplier
 * applies to the inputs' product), else ADD and SUB (to their sum).  The
 * first elements of both inputs are set to the type's lowest value and the
 * last ones to its highest (the second input's the other way round for a
 * product), which puts the output's first and last
 * elements past the clamps as far as the zero points let them.
 */
bool cf_hard_binary_op(cf_case *c, const cf_hard *h, cf_rng *rng,
		       const int32_t *t, bool product, bool constant);

/*
 * Quantizes and fills a one-input op's tensors t = { input, output } (int8,
 * uint8 or int16, each its own) for `h`, the rescale being input scale /
 * output scale,
 * the input's first element its type's lowest value and its last the
 * highest, past the clamps as far as the zero point lets them.
 */
bool cf_hard_unary_op(cf_case *c, const cf_hard *h, cf_rng *rng,
		      const int32_t *t);

/* Sets the int8, uint8 or int16 values of tensor t at elements[0..n) to
 * the type's highest value, or its lowest: a whole window or group past
 * the clamps. */
void cf_hard_set_group(cf_case *c, int32_t t, const size_t *elements,
		       size_t n, bool highest);

/*
 * Puts an average on a tie: moves the int8, uint8 or int16 values of
 * tensor t at elements[0..n) (each within its type, by as little as it
 * takes) so that the sum of their deviations from `base` becomes an odd
 * multiple of modulus / 2, positive for sign 1, negative for -1, of the
 * sum's own sign for 0.  An average of n values rounded half away from
 * zero (AVERAGE_POOL_2D's, with base 0 and modulus n; MEAN's after a
 * rescale of 2^-k, with modulus n x 2^k) is then exactly halfway between
 * two steps.  modulus must be even; false when the values cannot move
 * that far (and then none moved).
 */
bool cf_hard_plant_tie(cf_case *c, int32_t t, const size_t *elements,
		       size_t n, int32_t base, int64_t modulus, int32_t sign);

#endif /* OPVER_CONFORMANCE_CASES_HARD_H */
