/*
 * cases_softmax.c - SOFTMAX cases.
 *
 * Variants cross the types (float32 v1, int8 v2, int16 v3, uint8 v1, int8
 * to int16 v2, uint8 to int16 v1) with the rank (1-4).  Each case draws
 * the shape (last dimension 1-8, the others 1-3), beta (0.3-2), the input
 * quantization and the data.  The output quantization is the one TFLite
 * fixes: scale 1/256 and zero point -128 for int8 (0 for uint8), scale
 * 1/32768 and zero point 0 for int16, and scale 1/65536 and zero point
 * -32768 for an int16 output of an 8-bit input.  Then the hard variants
 * (issue 16), int8 and uint8, whose beta x input scale sits where
 * TFLite's derivation of its Q5.26 multiplier has edges: x 2^26 just
 * above 1 (the smallest allowed), exactly a power of two, a hair below
 * one (the Q0.31 fraction rounds up to 2^31) and past 2^31 - 1 (capped);
 * the input scale a power of two, zero points at the type's ends or
 * middle, data over the whole type.
 */
#include <math.h>

#include "cases_hard.h"

enum { FLOAT32, INT8, INT16, UINT8, INT8_INT16, UINT8_INT16, NUM_TYPES };
#define MAX_RANK 4

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	static const opver_type types[NUM_TYPES] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_INT16,
		OPVER_TYPE_UINT8, OPVER_TYPE_INT8, OPVER_TYPE_UINT8,
	};
	static const opver_type output_types[NUM_TYPES] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_INT16,
		OPVER_TYPE_UINT8, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
	};
	int32_t kind, rank, dims[MAX_RANK];
	int32_t input, output;
	bool ok = true;

	/* uint8 came next, then the int16 outputs of 8-bit inputs: the
	 * variants before each are as they were. */
	if (variant < INT8_INT16 * MAX_RANK)
		cf_variant_split(variant, UINT8, INT8_INT16, MAX_RANK, &kind,
				 &rank);
	else
		cf_variant_split(variant, INT8_INT16, NUM_TYPES, MAX_RANK,
				 &kind, &rank);
	rank = rank % MAX_RANK + 1;
	for (int32_t d = 0; d + 1 < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 3);
	dims[rank - 1] = cf_rng_int(rng, 1, 8);
	c->has_params = true;
	c->params.softmax.beta = cf_rng_float(rng, 0.3f, 2.0f);
	input = cf_case_tensor(c, types[kind], rank, dims);
	output = cf_case_tensor(c, output_types[kind], rank, dims);
	cf_case_input(c, input);
	c->output = output;
	switch (kind) {
	case INT8:
		ok = cf_case_quantize_random(c, input, rng, 0.02f, 0.2f, -20,
					     20) &&
		     cf_case_quantize(c, output, 1.0f / 256, -128) &&
		     cf_case_fill(c, input, rng, -128, 127, false);
		break;
	case UINT8:
		ok = cf_case_quantize_random(c, input, rng, 0.02f, 0.2f, 108,
					     148) &&
		     cf_case_quantize(c, output, 1.0f / 256, 0) &&
		     cf_case_fill(c, input, rng, 0, 255, false);
		break;
	case INT8_INT16:
		ok = cf_case_quantize_random(c, input, rng, 0.02f, 0.2f, -20,
					     20) &&
		     cf_case_quantize(c, output, 1.0f / 65536, -32768) &&
		     cf_case_fill(c, input, rng, -128, 127, false);
		break;
	case UINT8_INT16:
		ok = cf_case_quantize_random(c, input, rng, 0.02f, 0.2f, 108,
					     148) &&
		     cf_case_quantize(c, output, 1.0f / 65536, -32768) &&
		     cf_case_fill(c, input, rng, 0, 255, false);
		break;
	case INT16:
		/* Inputs up to about +-10, the span of TFLite's exp table. */
		ok = cf_case_quantize(c, input, cf_rng_float(rng, 1e-4f, 3e-4f),
				      0) &&
		     cf_case_quantize(c, output, 1.0f / 32768, 0) &&
		     cf_case_fill(c, input, rng, -32768, 32767, false);
		break;
	default:
		ok = cf_case_fill(c, input, rng, -5, 5, false);
		break;
	}
	cf_case_param(c, "beta=%.9g", (double)c->params.softmax.beta);
	return ok;
}

enum { EDGE_SMALLEST, EDGE_POT, EDGE_BELOW_POT, EDGE_CAPPED, NUM_EDGES };
static const char *const edge_names[NUM_EDGES] = {
	"smallest", "pot", "below-pot", "capped",
};

/* beta x input scale x 2^26 at `edge` (below a power of two: the power,
 * which the scale's and beta's factors then bring below). */
static double edge_factor(int32_t edge, cf_rng *rng)
{
	const double pot = ldexp(1, cf_rng_int(rng, 1, 30));

	switch (edge) {
	case EDGE_SMALLEST:
		return 1 + 0x1p-20;
	case EDGE_POT:
	case EDGE_BELOW_POT:
		return pot;
	default:
		return 0x1p31 * (1 + cf_rng_float(rng, 0, 1));
	}
}

/* Hard variant v: int8 or uint8 at an edge. */
static bool generate_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const opver_type type = v % 2 ? OPVER_TYPE_UINT8 : OPVER_TYPE_INT8;
	const int32_t edge = v / 2 % NUM_EDGES;
	const int32_t rank = cf_rng_int(rng, 1, MAX_RANK);
	const int32_t exponent = -cf_rng_int(rng, 2, 8);
	/* Below a power of two: (1 + 2^-23)(1 - 2^-23) = 1 - 2^-46, as
	 * TFLite multiplies beta and the scale, in double. */
	const float scale = ldexpf(edge == EDGE_BELOW_POT ? 1 + 0x1p-23f : 1,
				   exponent);
	int32_t dims[MAX_RANK], input, output;
	double factor;
	cf_hard hard;

	cf_hard_draw(&hard, CF_SPOT_TIES, rng);
	for (int32_t d = 0; d + 1 < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 3);
	dims[rank - 1] = cf_rng_int(rng, 2, 8);
	factor = edge_factor(edge, rng);
	c->has_params = true;
	c->params.softmax.beta =
		edge == EDGE_BELOW_POT ?
			ldexpf(1 - 0x1p-23f,
			       (int)lrint(log2(factor)) - 26 - exponent) :
			(float)(ldexp(factor, -26) / scale);
	input = cf_case_tensor(c, type, rank, dims);
	output = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, input);
	c->output = output;
	if (!cf_case_quantize(c, input, scale,
			      cf_hard_zero_point(&hard, CF_HARD_INPUT, type,
						 rng)) ||
	    !cf_case_quantize(c, output, 1.0f / 256,
			      type == OPVER_TYPE_UINT8 ? 0 : -128) ||
	    !cf_hard_fill(c, input, rng, UINT8_MAX, false))
		return false;
	cf_case_param(c, "beta=%.9g edge=%s zero_point=%s",
		      (double)c->params.softmax.beta, edge_names[edge],
		      cf_hard_side_name(&hard, CF_HARD_INPUT));
	return true;
}

static bool generate_any(int32_t variant, cf_rng *rng, cf_case *c)
{
	if (variant >= NUM_TYPES * MAX_RANK)
		return generate_hard(variant - NUM_TYPES * MAX_RANK, rng, c);
	return generate(variant, rng, c);
}

const cf_generator cf_softmax_cases = {
	.op = OPVER_OP_SOFTMAX,
	.num_variants = NUM_TYPES * MAX_RANK + 2 * NUM_EDGES,
	.generate = generate_any,
};
