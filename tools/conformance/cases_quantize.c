/*
 * cases_quantize.c - QUANTIZE and DEQUANTIZE cases.
 *
 * QUANTIZE variants cross the conversions with whether values stay in
 * the output's range or saturate it:
 *   float32 -> int8 (v1) and int16 (v2), per tensor, or per channel (v3);
 *   requantizing int8 -> int8 and int16 -> int8 (v1), int8 -> int16 and
 *   int16 -> int16 (v2);
 *   uint8, TFLite's legacy quantization (v1): float32 -> uint8, uint8 ->
 *   uint8, uint8 -> int8 and int8 -> uint8;
 *   TFLite Micro's int32 pairs: int8 -> int32, int16 -> int32 and int32 ->
 *   int8 (v1), int32 -> int16 (v2)
 * then the hard variants (cases_hard.h): every requantizing pair of 8- and
 * 16-bit types at every spot.
 * DEQUANTIZE variants cross int8 per tensor (v2), int16 (v3), int8 per
 * channel (v5), uint8 (v1) and float16 (v3, finite values) with the
 * rank.
 *
 * Each case draws the shape (rank 1-4, dimensions 1-4, at least 2 along a
 * per-channel axis, which is drawn too), the quantization (int16 and int32
 * always symmetric, as TFLite requires of int16; uint8 zero points around
 * 128) and the data.
 */
#include "cases_hard.h"

#define MAX_RANK 4

/* A shape of `rank` with dimensions 1-4; *axis, when not NULL, gets a
 * random dimension of 2 or more, for per-channel quantization. */
static void draw_shape(cf_rng *rng, int32_t rank, int32_t *dims,
		       int32_t *axis)
{
	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 4);
	if (axis != NULL) {
		*axis = cf_rng_int(rng, 0, rank - 1);
		dims[*axis] = cf_rng_int(rng, 2, 4);
	}
}

/* A zero point for an asymmetric 8-bit tensor of `type`: around 0 for
 * int8, around 128 for uint8. */
static int64_t zero_point_8(cf_rng *rng, opver_type type)
{
	return cf_rng_int(rng, -20, 20) + (type == OPVER_TYPE_UINT8 ? 128 : 0);
}

/* Quantization of one side: int16 and int32 symmetric with a fine and a
 * finer scale (int32 as an accumulator's), int8 and uint8 asymmetric.
 * `coarse` multiplies the scale. */
static bool quantize_side(cf_case *c, cf_rng *rng, int32_t t, float coarse)
{
	opver_type type = c->tensors[t].type;
	bool wide = type == OPVER_TYPE_INT16 || type == OPVER_TYPE_INT32;
	/* Drawn one after the other: not as two arguments of one call. */
	const float scale =
		coarse * (type == OPVER_TYPE_INT32 ?
				  cf_rng_float(rng, 1e-7f, 1e-6f) :
			  type == OPVER_TYPE_INT16 ?
				  cf_rng_float(rng, 1e-4f, 1e-3f) :
				  cf_rng_float(rng, 0.01f, 0.1f));

	return cf_case_quantize(c, t, scale,
				wide ? 0 : zero_point_8(rng, type));
}

/* Uniform values over the whole range of t's integer type (uint8: random
 * bytes); int32 within +-10^6, which the int8 and int16 outputs' scales
 * reach or saturate on. */
static bool fill_full_range(cf_case *c, int32_t t, cf_rng *rng)
{
	switch (c->tensors[t].type) {
	case OPVER_TYPE_INT32:
		return cf_case_fill(c, t, rng, -1e6, 1e6, false);
	case OPVER_TYPE_INT16:
		return cf_case_fill(c, t, rng, -32768, 32767, false);
	default:
		return cf_case_fill(c, t, rng, -128, 127, false);
	}
}

/* ------------------------------------------------------------ QUANTIZE */

enum { F32_I8, F32_I8_PER_CHANNEL, F32_I16, F32_I16_PER_CHANNEL, I8_I8,
       I16_I8, I8_I16, I16_I16, F32_U8, U8_U8, U8_I8, I8_U8, I8_I32,
       I16_I32, I32_I8, I32_I16, NUM_CONVERSIONS };
static const struct {
	opver_type input, output;
	bool per_channel;
	const char *name;
} conversions[NUM_CONVERSIONS] = {
	{ OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, false, "per-tensor" },
	{ OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, true, "per-channel" },
	{ OPVER_TYPE_FLOAT32, OPVER_TYPE_INT16, false, "per-tensor" },
	{ OPVER_TYPE_FLOAT32, OPVER_TYPE_INT16, true, "per-channel" },
	{ OPVER_TYPE_INT8, OPVER_TYPE_INT8, false, "requantize" },
	{ OPVER_TYPE_INT16, OPVER_TYPE_INT8, false, "requantize" },
	{ OPVER_TYPE_INT8, OPVER_TYPE_INT16, false, "requantize" },
	{ OPVER_TYPE_INT16, OPVER_TYPE_INT16, false, "requantize" },
	{ OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, false, "per-tensor" },
	{ OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, false, "requantize" },
	{ OPVER_TYPE_UINT8, OPVER_TYPE_INT8, false, "requantize" },
	{ OPVER_TYPE_INT8, OPVER_TYPE_UINT8, false, "requantize" },
	{ OPVER_TYPE_INT8, OPVER_TYPE_INT32, false, "requantize" },
	{ OPVER_TYPE_INT16, OPVER_TYPE_INT32, false, "requantize" },
	{ OPVER_TYPE_INT32, OPVER_TYPE_INT8, false, "requantize" },
	{ OPVER_TYPE_INT32, OPVER_TYPE_INT16, false, "requantize" },
};

static bool generate_quantize(int32_t variant, cf_rng *rng, cf_case *c)
{
	int32_t k, saturate, rank, dims[MAX_RANK], axis = 0;
	int32_t input, output;
	float scales[4], widest = 0;

	/* uint8 came next to last and int32 last: the variants before each
	 * are as they were. */
	if (variant < I8_I32 * 2)
		cf_variant_split(variant, F32_U8, I8_I32, 2, &k, &saturate);
	else
		cf_variant_split(variant, I8_I32, NUM_CONVERSIONS, 2, &k,
				 &saturate);
	rank = cf_rng_int(rng, 1, MAX_RANK);
	draw_shape(rng, rank, dims, conversions[k].per_channel ? &axis : NULL);
	input = cf_case_tensor(c, conversions[k].input, rank, dims);
	output = cf_case_tensor(c, conversions[k].output, rank, dims);
	cf_case_input(c, input);
	c->output = output;
	if (conversions[k].input == OPVER_TYPE_FLOAT32) {
		opver_type out = conversions[k].output;
		bool int16 = out == OPVER_TYPE_INT16;
		int32_t n = conversions[k].per_channel ? dims[axis] : 1;
		/* The float span: inside the output's range, or 3x beyond. */
		float steps = (int16 ? 30000.0f : 100.0f) * (saturate ? 3 : 1);

		for (int32_t i = 0; i < n; i++) {
			scales[i] = int16 ? cf_rng_float(rng, 1e-4f, 1e-3f) :
					    cf_rng_float(rng, 0.01f, 0.1f);
			if (scales[i] > widest)
				widest = scales[i];
		}
		if (!(conversions[k].per_channel ?
			      cf_case_quantize_per_channel(c, output, axis,
							   scales) :
			      cf_case_quantize(c, output, scales[0],
					       int16 ? 0 : zero_point_8(rng, out))) ||
		    !cf_case_fill(c, input, rng, -steps * widest,
				  steps * widest, false))
			return false;
	} else if (!quantize_side(c, rng, input, 1) ||
		   /* A finer output scale pushes values out of range. */
		   !quantize_side(c, rng, output, saturate ? 0.2f : 2.0f) ||
		   !fill_full_range(c, input, rng)) {
		return false;
	}
	cf_case_param(c, "conversion=%s values=%s", conversions[k].name,
		      saturate ? "saturating" : "in-range");
	if (conversions[k].per_channel)
		cf_case_param(c, "axis=%d", axis);
	return true;
}

/* The requantizing pairs of 8- and 16-bit types, in hard variant order. */
static const int32_t hard_conversions[] = {
	I8_I8, I16_I8, I8_I16, I16_I16, U8_U8, U8_I8, I8_U8,
};
#define NUM_HARD_CONVERSIONS \
	(int32_t)(sizeof(hard_conversions) / sizeof(hard_conversions[0]))

/* Hard variant v: a pair at a spot; the rescale input scale / output
 * scale, as cf_hard_unary_op() draws it. */
static bool generate_quantize_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const int32_t k = hard_conversions[v % NUM_HARD_CONVERSIONS];
	int32_t rank = cf_rng_int(rng, 1, MAX_RANK), dims[MAX_RANK], t[2];
	cf_hard hard;

	cf_hard_draw(&hard, v / NUM_HARD_CONVERSIONS, rng);
	draw_shape(rng, rank, dims, NULL);
	t[0] = cf_case_tensor(c, conversions[k].input, rank, dims);
	t[1] = cf_case_tensor(c, conversions[k].output, rank, dims);
	cf_case_input(c, t[0]);
	c->output = t[1];
	cf_case_param(c, "conversion=requantize");
	return cf_hard_unary_op(c, &hard, rng, t);
}

static bool generate_quantize_any(int32_t variant, cf_rng *rng, cf_case *c)
{
	if (variant >= NUM_CONVERSIONS * 2)
		return generate_quantize_hard(variant - NUM_CONVERSIONS * 2,
					      rng, c);
	return generate_quantize(variant, rng, c);
}

const cf_generator cf_quantize_cases = {
	.op = OPVER_OP_QUANTIZE,
	.num_variants = NUM_CONVERSIONS * 2 +
			NUM_HARD_CONVERSIONS * CF_NUM_SPOTS,
	.generate = generate_quantize_any,
};

/* ---------------------------------------------------------- DEQUANTIZE */

enum { DQ_INT8, DQ_INT16, DQ_INT8_PER_CHANNEL, DQ_UINT8, DQ_FLOAT16,
       NUM_DQ_KINDS };
static const opver_type dq_types[NUM_DQ_KINDS] = {
	OPVER_TYPE_INT8, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_UINT8,
	OPVER_TYPE_FLOAT16,
};

/* Random float16 bits made finite: an all-ones exponent (infinity, NaN)
 * loses its top bit. */
static bool fill_float16(cf_case *c, int32_t t, cf_rng *rng)
{
	uint16_t *bits;
	size_t count = 1;

	if (!cf_case_fill(c, t, rng, 0, 0, false))
		return false;
	bits = c->values[t];
	for (int32_t d = 0; d < c->tensors[t].rank; d++)
		count *= (size_t)c->tensors[t].dims[d];
	for (size_t i = 0; i < count; i++)
		if ((bits[i] & 0x7c00u) == 0x7c00u)
			bits[i] &= (uint16_t)~0x4000u;
	return true;
}

static bool generate_dequantize(int32_t variant, cf_rng *rng, cf_case *c)
{
	int32_t k, rank, dims[MAX_RANK], axis = 0, input, output;
	float scales[4];

	/* uint8 and float16 came last: the variants before them are as they
	 * were. */
	cf_variant_split(variant, DQ_UINT8, NUM_DQ_KINDS, MAX_RANK, &k, &rank);
	rank = rank % MAX_RANK + 1;
	draw_shape(rng, rank, dims, k == DQ_INT8_PER_CHANNEL ? &axis : NULL);
	input = cf_case_tensor(c, dq_types[k], rank, dims);
	output = cf_case_tensor(c, OPVER_TYPE_FLOAT32, rank, dims);
	cf_case_input(c, input);
	c->output = output;
	if (k == DQ_FLOAT16) {
		cf_case_param(c, "float16");
		return fill_float16(c, input, rng);
	}
	if (k == DQ_INT8_PER_CHANNEL) {
		for (int32_t i = 0; i < dims[axis]; i++)
			scales[i] = cf_rng_float(rng, 0.01f, 0.1f);
		if (!cf_case_quantize_per_channel(c, input, axis, scales))
			return false;
		cf_case_param(c, "quantization=per-channel axis=%d", axis);
	} else {
		if (!quantize_side(c, rng, input, 1))
			return false;
		cf_case_param(c, "quantization=per-tensor");
	}
	return fill_full_range(c, input, rng);
}

const cf_generator cf_dequantize_cases = {
	.op = OPVER_OP_DEQUANTIZE,
	.num_variants = NUM_DQ_KINDS * MAX_RANK,
	.generate = generate_dequantize,
};
