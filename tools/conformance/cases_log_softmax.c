/*
 * cases_log_softmax.c - LOG_SOFTMAX cases.
 *
 * Variants cross the types (float32 v1, int8 v2, uint8 v1) with six
 * shapes: rank 1 to 4 (last dimension 1-10, the others 1-3), a long last
 * axis (one or two rows of 256-1500), and rows made to reach the
 * quantized kernels' diff_min cut-off.  The output quantization is the one
 * TFLite fixes: scale 16/256, zero point 127 (int8) or 255 (uint8).
 * Quantized inputs take every value of their type, at a drawn scale
 * (0.02-0.3) that puts the cut-off (between 15.5 and 31 below the row max
 * in real terms) within reach of most rows; the cut-off shape uses the
 * power-of-two scales 1/16, 1/8 and 1/4, for which it lies exactly 15.5
 * below the row max, where outputs are still above the type's lowest
 * value.  Float inputs span [-20, 20] ([-40, 40] in the cut-off shape).
 * Then the hard variants (issue 16), int8 and uint8, at the edges of
 * TFLite's Q5.26 multiplier that the cut-off shape's powers of two leave:
 * input scale x 2^26 just above 1 (1 + 2^-20, the smallest whose inverse
 * stays below 1) and past 2^31 - 1 (capped: scales 32-64); zero points at
 * the type's ends or middle, data over the whole type.
 */
#include "cases_hard.h"

enum { FLOAT32, INT8, UINT8, NUM_TYPES };
enum { RANK_1, RANK_2, RANK_3, RANK_4, LONG_AXIS, CUTOFF, NUM_SHAPES };
#define MAX_RANK 4

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	static const opver_type types[NUM_TYPES] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_UINT8,
	};
	static const char *const shape_names[NUM_SHAPES] = {
		"rank1", "rank2", "rank3", "rank4", "long-axis", "cut-off",
	};
	const int32_t kind = variant % NUM_TYPES;
	const int32_t shape = variant / NUM_TYPES;
	const bool cutoff = shape == CUTOFF;
	int32_t rank, dims[MAX_RANK];
	int32_t input, output, zero_point;
	float scale, bound;

	switch (shape) {
	case LONG_AXIS:
		rank = 2;
		dims[0] = cf_rng_int(rng, 1, 2);
		dims[1] = cf_rng_int(rng, 256, 1500);
		break;
	case CUTOFF:
		rank = 2;
		dims[0] = cf_rng_int(rng, 1, 3);
		dims[1] = cf_rng_int(rng, 8, 40);
		break;
	default:
		rank = shape + 1;
		for (int32_t d = 0; d + 1 < rank; d++)
			dims[d] = cf_rng_int(rng, 1, 3);
		dims[rank - 1] = cf_rng_int(rng, 1, 10);
		break;
	}
	input = cf_case_tensor(c, types[kind], rank, dims);
	output = cf_case_tensor(c, types[kind], rank, dims);
	cf_case_input(c, input);
	c->output = output;
	cf_case_param(c, "shape=%s", shape_names[shape]);
	if (kind == FLOAT32) {
		bound = cutoff ? 40.0f : 20.0f;
		return cf_case_fill(c, input, rng, -bound, bound, false);
	}
	scale = cutoff ? 1.0f / (float)(16 >> cf_rng_int(rng, 0, 2))
		       : cf_rng_float(rng, 0.02f, 0.3f);
	zero_point = kind == INT8 ? cf_rng_int(rng, -20, 20)
				  : cf_rng_int(rng, 108, 148);
	if (!cf_case_quantize(c, input, scale, zero_point) ||
	    !cf_case_quantize(c, output, 16.0f / 256, kind == INT8 ? 127 : 255))
		return false;
	/* Random bytes: every value of the type. */
	return kind == INT8 ? cf_case_fill(c, input, rng, -128, 127, false)
			    : cf_case_fill(c, input, rng, 0, 255, false);
}

/* Hard variant v: int8 or uint8, the smallest or a capped scale. */
static bool generate_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const opver_type type = v % 2 ? OPVER_TYPE_UINT8 : OPVER_TYPE_INT8;
	const bool capped = v / 2 % 2;
	const int32_t rows = cf_rng_int(rng, 1, 3);
	const int32_t dims[2] = { rows, cf_rng_int(rng, 2, 10) };
	const float scale = capped ? cf_rng_float(rng, 32, 64) :
				     0x1p-26f * (1 + 0x1p-20f);
	int32_t input, output;
	cf_hard hard;

	cf_hard_draw(&hard, CF_SPOT_TIES, rng);
	input = cf_case_tensor(c, type, 2, dims);
	output = cf_case_tensor(c, type, 2, dims);
	cf_case_input(c, input);
	c->output = output;
	cf_case_param(c, "shape=rank2 edge=%s zero_point=%s",
		      capped ? "capped" : "smallest",
		      cf_hard_side_name(&hard, CF_HARD_INPUT));
	return cf_case_quantize(c, input, scale,
				cf_hard_zero_point(&hard, CF_HARD_INPUT, type,
						   rng)) &&
	       cf_case_quantize(c, output, 16.0f / 256,
				type == OPVER_TYPE_INT8 ? 127 : 255) &&
	       cf_hard_fill(c, input, rng, UINT8_MAX, false);
}

static bool generate_any(int32_t variant, cf_rng *rng, cf_case *c)
{
	if (variant >= NUM_TYPES * NUM_SHAPES)
		return generate_hard(variant - NUM_TYPES * NUM_SHAPES, rng, c);
	return generate(variant, rng, c);
}

const cf_generator cf_log_softmax_cases = {
	.op = OPVER_OP_LOG_SOFTMAX,
	.num_variants = NUM_TYPES * NUM_SHAPES + 4,
	.generate = generate_any,
};
