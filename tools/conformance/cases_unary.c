/*
 * cases_unary.c - the one-input math ops: ABS, NEG, SQRT, RSQRT, SQUARE,
 * EXP, LOG, SIN, COS, FLOOR, CEIL, ROUND and SIGN.
 *
 * Variants cross each op's tensor types (the "kinds" below, at the
 * versions TFLite's rules give them) with the rank (1-4); each case draws
 * the shape (dimensions 1-5), the quantization and the data.
 *
 * Inputs stay where TFLite defines the result:
 *   - SQRT, RSQRT and LOG on float32 take inputs in [0.05, 8] (SQRT from
 *     0), away from NaN and infinities, which compare badly;
 *   - int8 and int16 SQRT and RSQRT fail at invoke below the input's zero
 *     point (as TFLite does), so their inputs start at it; RSQRT's zero
 *     point itself (x = 0) gives the type's maximum;
 *   - int8 and int16 LOG's inputs reach below the zero point, where
 *     TFLite's table gives the lowest output;
 *   - ROUND, FLOOR and CEIL get ties and integers as their first values
 *     (-2.5, -0.5, 0.5, 1.5, 2.5, -3, 4), ROUND's ties going to even.
 * int8 ABS keeps the input's quantization on rank 1 (TFLite's path
 * without a rescale) and draws the output's otherwise; int16 tensors are
 * symmetric.  int16 ABS without quantization is version 4, with it 3.
 *
 * ATAN2 (two inputs of one shape, at the end of this file): float32, one
 * variant per rank; y and x drawn from [-8, 8], the first four points
 * (1, 0), (-1, 0), (0, -1) and (-1, -1) on the axes and in the third
 * quadrant.
 */
#include "cases.h"

#define MAX_RANK 4
#define MAX_KINDS 5

/* A tensor type, and for int16 ABS whether it is quantized. */
typedef struct unary_kind {
	opver_type type;
	bool plain; /* an integer type without quantization */
} unary_kind;

typedef struct unary_kinds {
	int32_t count;
	unary_kind kinds[MAX_KINDS];
} unary_kinds;

#define KIND(type) { OPVER_TYPE_##type, false }
#define PLAIN(type) { OPVER_TYPE_##type, true }

static unary_kinds kinds_of(int32_t op)
{
	switch (op) {
	case OPVER_OP_ABS:
		return (unary_kinds){ 5, { KIND(FLOAT32), KIND(INT8),
					   KIND(INT16), PLAIN(INT16),
					   PLAIN(INT32) } };
	case OPVER_OP_NEG:
		return (unary_kinds){ 3, { KIND(FLOAT32), PLAIN(INT32),
					   PLAIN(INT64) } };
	case OPVER_OP_SQRT:
	case OPVER_OP_RSQRT:
	case OPVER_OP_EXP:
	case OPVER_OP_LOG:
		return (unary_kinds){ 3, { KIND(FLOAT32), KIND(INT8),
					   KIND(INT16) } };
	case OPVER_OP_SIGN:
		return (unary_kinds){ 2, { KIND(FLOAT32), PLAIN(INT32) } };
	default:
		return (unary_kinds){ 1, { KIND(FLOAT32) } };
	}
}

/* The number of elements of tensor t. */
static size_t elements(const cf_case *c, int32_t t)
{
	size_t n = 1;

	for (int32_t d = 0; d < c->tensors[t].rank; d++)
		n *= (size_t)c->tensors[t].dims[d];
	return n;
}

/* Ties and integers as the first values of float input t. */
static void set_ties(cf_case *c, int32_t t)
{
	static const float ties[] = { -2.5f, -0.5f, 0.5f, 1.5f,
				      2.5f,  -3.0f, 4.0f };
	/* The case allocated the values (cf_case_fill): they are its to
	 * change. */
	float *data = c->values[t];
	const size_t n = elements(c, t);

	for (size_t i = 0; i < n && i < sizeof(ties) / sizeof(ties[0]); i++)
		data[i] = ties[i];
}

static bool fill_float32(cf_case *c, int32_t t, cf_rng *rng)
{
	bool ok;

	switch (c->op) {
	case OPVER_OP_SQRT:
		return cf_case_fill(c, t, rng, 0, 8, false);
	case OPVER_OP_RSQRT:
	case OPVER_OP_LOG:
		return cf_case_fill(c, t, rng, 0.05, 8, false);
	case OPVER_OP_EXP:
		return cf_case_fill(c, t, rng, -8, 4, false);
	case OPVER_OP_ROUND:
	case OPVER_OP_FLOOR:
	case OPVER_OP_CEIL:
		ok = cf_case_fill(c, t, rng, -8, 8, false);
		if (ok)
			set_ties(c, t);
		return ok;
	default:
		return cf_case_fill(c, t, rng, -8, 8, false);
	}
}

/* int8 input and output quantization and values, by op. */
static bool int8_case(cf_case *c, int32_t input, int32_t output, int32_t rank,
		      cf_rng *rng)
{
	const float in_scale = cf_rng_float(rng, 0.02f, 0.1f);
	int32_t zero;
	bool ok;

	switch (c->op) {
	case OPVER_OP_ABS:
		zero = cf_rng_int(rng, -40, 40);
		ok = cf_case_quantize(c, input, in_scale, zero) &&
		     (rank == 1 ? cf_case_quantize(c, output, in_scale, zero)
				: cf_case_quantize_random(c, output, rng,
							  0.02f, 0.1f, -128,
							  -100));
		return ok && cf_case_fill(c, input, rng, -128, 127, false);
	case OPVER_OP_SQRT:
	case OPVER_OP_RSQRT:
		/* From the zero point up: x in [0, 2.5] to [0, 25]. */
		zero = cf_rng_int(rng, -128, -60);
		return cf_case_quantize(c, input, in_scale, zero) &&
		       cf_case_quantize_random(c, output, rng, 0.02f, 0.1f,
					       -128, -100) &&
		       cf_case_fill(c, input, rng, zero, 127, false);
	case OPVER_OP_EXP:
		return cf_case_quantize(c, input, in_scale,
					cf_rng_int(rng, -40, 40)) &&
		       cf_case_quantize_random(c, output, rng, 0.05f, 0.2f,
					       -128, -100) &&
		       cf_case_fill(c, input, rng, -128, 127, false);
	default: /* LOG: some inputs at or below 0 */
		return cf_case_quantize(c, input, in_scale,
					cf_rng_int(rng, -128, -40)) &&
		       cf_case_quantize_random(c, output, rng, 0.02f, 0.05f,
					       -20, 20) &&
		       cf_case_fill(c, input, rng, -128, 127, false);
	}
}

/* Quantized int16 scales and values, by op: ABS over the whole range,
 * SQRT and RSQRT from 0; EXP's x in about +-3 to +-13, LOG's +-30 to
 * +-130 (its inputs of 0 or less give the lowest output). */
static bool int16_case(cf_case *c, int32_t input, int32_t output,
		       cf_rng *rng)
{
	float in_lo = 1e-4f, in_hi = 4e-4f, out_lo = 1e-4f, out_hi = 4e-4f;

	switch (c->op) {
	case OPVER_OP_EXP:
		out_lo = 1e-3f;
		out_hi = 2e-3f;
		break;
	case OPVER_OP_LOG:
		in_lo = 1e-3f;
		in_hi = 4e-3f;
		break;
	case OPVER_OP_RSQRT:
		in_lo = out_lo = 1e-3f;
		in_hi = out_hi = 4e-3f;
		break;
	default:
		break;
	}
	return cf_case_quantize(c, input, cf_rng_float(rng, in_lo, in_hi),
				0) &&
	       cf_case_quantize(c, output, cf_rng_float(rng, out_lo, out_hi),
				0) &&
	       cf_case_fill(c, input, rng,
			    c->op == OPVER_OP_SQRT || c->op == OPVER_OP_RSQRT
				    ? 0
				    : -32768,
			    32767, false);
}

/* Variant: kind, then rank. */
static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const unary_kinds kinds = kinds_of(c->op);
	const unary_kind kind = kinds.kinds[variant % kinds.count];
	const int32_t rank = variant / kinds.count % MAX_RANK + 1;
	int32_t dims[MAX_RANK] = { 0 }, input, output;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 5);
	input = cf_case_tensor(c, kind.type, rank, dims);
	output = cf_case_tensor(c, kind.type, rank, dims);
	cf_case_input(c, input);
	c->output = output;
	switch (kind.type) {
	case OPVER_TYPE_FLOAT32:
		return fill_float32(c, input, rng);
	case OPVER_TYPE_INT8:
		return int8_case(c, input, output, rank, rng);
	case OPVER_TYPE_INT16:
		if (kind.plain) {
			cf_case_param(c, "unquantized");
			return cf_case_fill(c, input, rng, -32768, 32767,
					    false);
		}
		return int16_case(c, input, output, rng);
	default: /* INT32 and INT64, away from INT32_MIN, whose ABS and
		  * NEG overflow int32 */
		return cf_case_fill(c, input, rng, -2147483647.0,
				    2147483647.0, false);
	}
}

#define UNARY_CASES(name, op_name, kinds) \
	const cf_generator name = {       \
		.op = OPVER_OP_##op_name, \
		.num_variants = (kinds) * MAX_RANK, \
		.generate = generate,     \
	}

UNARY_CASES(cf_abs_cases, ABS, 5);
UNARY_CASES(cf_neg_cases, NEG, 3);
UNARY_CASES(cf_sqrt_cases, SQRT, 3);
UNARY_CASES(cf_rsqrt_cases, RSQRT, 3);
UNARY_CASES(cf_square_cases, SQUARE, 1);
UNARY_CASES(cf_exp_cases, EXP, 3);
UNARY_CASES(cf_log_cases, LOG, 3);
UNARY_CASES(cf_sin_cases, SIN, 1);
UNARY_CASES(cf_cos_cases, COS, 1);
UNARY_CASES(cf_floor_cases, FLOOR, 1);
UNARY_CASES(cf_ceil_cases, CEIL, 1);
UNARY_CASES(cf_round_cases, ROUND, 1);
UNARY_CASES(cf_sign_cases, SIGN, 2);

/* -------------------------------------------------------------- ATAN2 */

static bool generate_atan2(int32_t variant, cf_rng *rng, cf_case *c)
{
	static const float axes_y[] = { 0, 0, -1, -1 };
	static const float axes_x[] = { 1, -1, 0, -1 };
	const int32_t rank = variant + 1;
	int32_t dims[MAX_RANK], y, x;
	float *yv, *xv;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 5);
	y = cf_case_tensor(c, OPVER_TYPE_FLOAT32, rank, dims);
	x = cf_case_tensor(c, OPVER_TYPE_FLOAT32, rank, dims);
	cf_case_input(c, y);
	cf_case_input(c, x);
	if (!cf_case_fill(c, y, rng, -8, 8, false) ||
	    !cf_case_fill(c, x, rng, -8, 8, false))
		return false;
	yv = c->values[y];
	xv = c->values[x];
	for (size_t i = 0; i < elements(c, y) && i < 4; i++) {
		yv[i] = axes_y[i];
		xv[i] = axes_x[i];
	}
	c->output = cf_case_tensor(c, OPVER_TYPE_FLOAT32, rank, dims);
	return true;
}

const cf_generator cf_atan2_cases = {
	.op = OPVER_OP_ATAN2,
	.num_variants = MAX_RANK,
	.generate = generate_atan2,
};
