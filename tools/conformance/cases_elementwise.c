/*
 * cases_elementwise.c - ADD and MUL cases: two inputs broadcast to one
 * output.
 *
 * Variants cross the tensor types, with the quantization each op version
 * stands for, with five broadcast patterns and the clamp activations:
 *
 *   ADD  float32 (v1); int8 (v2); int16 with power-of-two scales and
 *        pot_scale_int16 (v1); int16 with general scales and
 *        pot_scale_int16 false (v3); int16 without quantization (v5)
 *   MUL  float32 (v1); int8 with input scales / output scale below 1 (v2)
 *        and of 1 or more (v3); quantized int16 (v4); int16 without
 *        quantization (v7)
 *
 * Each case draws the shapes (rank 1 to 6), the quantization, whether the
 * second input is a constant, and the data.  Float cases reach past both
 * bounds of every clamp activation.  Integer-only int16 values stay small
 * enough that neither the sum nor the product leaves int16.
 */
#include "cases.h"

enum { PATTERN_SAME, PATTERN_SCALAR, PATTERN_LAST, PATTERN_MUTUAL,
       PATTERN_FIRST_SMALL, NUM_PATTERNS };

static const char *const pattern_names[NUM_PATTERNS] = {
	"same", "scalar", "last-dim", "both-ways", "first-small",
};

/* What the inputs are and how they are quantized. */
typedef enum kind {
	FLOAT32,
	INT8,
	INT8_RESCALE_1_OR_MORE, /* MUL: input scales / output scale >= 1 */
	INT16_POT,              /* ADD: power-of-two scales, pot_scale_int16 */
	INT16_GENERAL,          /* ADD: any scales, pot_scale_int16 false */
	INT16_QUANTIZED,        /* MUL: symmetric int16 */
	INT16_INTEGER           /* no quantization at all */
} kind;

#define NUM_KINDS 5
static const kind add_kinds[NUM_KINDS] = {
	FLOAT32, INT8, INT16_POT, INT16_GENERAL, INT16_INTEGER,
};
static const kind mul_kinds[NUM_KINDS] = {
	FLOAT32, INT8, INT8_RESCALE_1_OR_MORE, INT16_QUANTIZED, INT16_INTEGER,
};

/* TFLite's ADD and MUL broadcast up to 6-D. */
#define MAX_RANK 6

typedef struct shapes {
	int32_t rank[3];        /* input 1, input 2, output */
	int32_t dims[3][MAX_RANK];
} shapes;

/* Shapes for a broadcast pattern, rank 1..6: dimensions 1..5 up to rank
 * 4, 1..3 above, so that a case stays small.  The last dimension is at
 * least 2, so the output has a first and a last element of its own
 * (see plant_extremes). */
static void draw_shapes(int32_t pattern, cf_rng *rng, shapes *s)
{
	int32_t rank = cf_rng_int(rng, 1, MAX_RANK);
	int32_t *a = s->dims[0], *b = s->dims[1], *out = s->dims[2];

	for (int32_t d = 0; d < rank; d++)
		out[d] = cf_rng_int(rng, d == rank - 1 ? 2 : 1,
				    rank > 4 ? 3 : 5);
	s->rank[0] = s->rank[1] = s->rank[2] = rank;
	for (int32_t d = 0; d < rank; d++)
		a[d] = b[d] = out[d];
	switch (pattern) {
	case PATTERN_SCALAR:
		s->rank[1] = 1;
		b[0] = 1;
		break;
	case PATTERN_LAST:
		s->rank[1] = 1;
		b[0] = out[rank - 1];
		break;
	case PATTERN_FIRST_SMALL:
		s->rank[0] = 1;
		a[0] = out[rank - 1];
		break;
	case PATTERN_MUTUAL:
		/* [N, 1, W, C] with [1, H, 1, C]: each input broadcasts the
		 * other along a different axis. */
		s->rank[0] = s->rank[1] = s->rank[2] = 4;
		for (int32_t d = 0; d < 4; d++)
			out[d] = cf_rng_int(rng, 2, 4);
		for (int32_t d = 0; d < 4; d++) {
			a[d] = d == 1 ? 1 : out[d];
			b[d] = d == 0 || d == 2 ? 1 : out[d];
		}
		break;
	default:
		break;
	}
}

/*
 * Sets the first and last elements of both float inputs so that the
 * output's first element is above 6 and its last below -1, whether added
 * or multiplied (5 and 2 make 7 and 10; -4 and 2 make -2 and -8): every
 * clamp activation then clamps on both sides.  Every input either ends in
 * the output's last dimension (at least 2) or is a single element, so the
 * output's first element comes from the inputs' first ones and its last
 * from their last ones, and they differ.
 */
static void plant_extremes(cf_case *c, const int32_t *t)
{
	for (int i = 0; i < 2; i++) {
		cf_tensor_desc *tensor = &c->tensors[t[i]];
		float *values = tensor->data != NULL ? (float *)tensor->data :
						      c->values[t[i]];
		size_t n = 1;

		for (int32_t d = 0; d < tensor->rank; d++)
			n *= (size_t)tensor->dims[d];
		values[0] = i == 0 ? 5 : 2;
		values[n - 1] = i == 0 ? -4 : 2;
	}
}

/* A power of two, 2^exponent. */
static float pot(int32_t exponent)
{
	float value = 1;

	for (; exponent < 0; exponent++)
		value /= 2;
	return value;
}

/* Quantizes the inputs t[0], t[1] and the output t[2] as `k` says.
 * False when out of memory. */
static bool quantize(cf_case *c, cf_rng *rng, kind k, const int32_t *t)
{
	float s1, s2, out;
	int32_t e, finer;
	bool swap;

	switch (k) {
	case INT8:
	case INT8_RESCALE_1_OR_MORE:
		s1 = cf_rng_float(rng, 0.01f, 0.1f);
		s2 = cf_rng_float(rng, 0.01f, 0.1f);
		if (c->op == OPVER_OP_ADD)
			out = cf_rng_float(rng, 0.02f, 0.2f);
		else if (k == INT8)
			out = s1 * s2 * cf_rng_float(rng, 2.0f, 30.0f);
		else
			out = s1 * s2 / cf_rng_float(rng, 1.0f, 4.0f);
		return cf_case_quantize(c, t[0], s1, cf_rng_int(rng, -20, 20)) &&
		       cf_case_quantize(c, t[1], s2, cf_rng_int(rng, -20, 20)) &&
		       cf_case_quantize(c, t[2], out, cf_rng_int(rng, -20, 20));
	case INT16_POT:
		/* One input at the output's scale, the other as fine or
		 * finer, as the power-of-two path requires. */
		e = cf_rng_int(rng, -12, -6);
		finer = e - cf_rng_int(rng, 0, 3);
		swap = cf_rng_int(rng, 0, 1);
		return cf_case_quantize(c, t[0], pot(swap ? finer : e), 0) &&
		       cf_case_quantize(c, t[1], pot(swap ? e : finer), 0) &&
		       cf_case_quantize(c, t[2], pot(e), 0);
	case INT16_GENERAL:
	case INT16_QUANTIZED:
		s1 = cf_rng_float(rng, 1e-4f, 1e-3f);
		s2 = cf_rng_float(rng, 1e-4f, 1e-3f);
		out = k == INT16_GENERAL ?
			      cf_rng_float(rng, 2e-4f, 2e-3f) :
			      s1 * s2 * cf_rng_float(rng, 2000.0f, 30000.0f);
		return cf_case_quantize(c, t[0], s1, 0) &&
		       cf_case_quantize(c, t[1], s2, 0) &&
		       cf_case_quantize(c, t[2], out, 0);
	default: /* FLOAT32, INT16_INTEGER */
		return true;
	}
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	bool add = c->op == OPVER_OP_ADD;
	kind k = (add ? add_kinds : mul_kinds)[variant % NUM_KINDS];
	int32_t pattern = variant / NUM_KINDS % NUM_PATTERNS;
	opver_activation activation =
		cf_activation(variant / (NUM_KINDS * NUM_PATTERNS));
	bool constant = cf_rng_int(rng, 0, 3) == 0;
	opver_type type = k == FLOAT32 ? OPVER_TYPE_FLOAT32 :
			  k == INT8 || k == INT8_RESCALE_1_OR_MORE ?
						 OPVER_TYPE_INT8 :
						 OPVER_TYPE_INT16;
	double lo = -32768, hi = 32767;
	int32_t t[3];
	shapes s;

	draw_shapes(pattern, rng, &s);
	for (int i = 0; i < 3; i++)
		t[i] = cf_case_tensor(c, type, s.rank[i], s.dims[i]);
	cf_case_input(c, t[0]);
	cf_case_input(c, t[1]);
	c->output = t[2];
	c->has_params = true;
	if (add)
		c->params.add = (opver_add_params){
			.activation = activation,
			.pot_scale_int16 = k != INT16_GENERAL,
		};
	else
		c->params.mul = (opver_mul_params){ .activation = activation };
	if (!quantize(c, rng, k, t))
		return false;
	if (type == OPVER_TYPE_FLOAT32) {
		lo = -2;
		hi = 2;
	} else if (type == OPVER_TYPE_INT8) {
		lo = -128;
		hi = 127;
	} else if (k == INT16_INTEGER) {
		hi = add ? 10000 : 150;
		lo = -hi;
	}
	if (!cf_case_fill(c, t[0], rng, lo, hi, false) ||
	    !cf_case_fill(c, t[1], rng, lo, hi, constant))
		return false;
	if (type == OPVER_TYPE_FLOAT32)
		plant_extremes(c, t);
	cf_case_param(c, "broadcast=%s activation=%s", pattern_names[pattern],
		      cf_activation_name(activation));
	if (add && type == OPVER_TYPE_INT16 && k != INT16_INTEGER)
		cf_case_param(c, "pot_scale_int16=%s",
			      k == INT16_POT ? "true" : "false");
	if (k == INT16_INTEGER)
		cf_case_param(c, "quantization=none");
	cf_case_param(c, "second=%s", constant ? "constant" : "input");
	return true;
}

const cf_generator cf_add_cases = {
	.op = OPVER_OP_ADD,
	.num_variants = NUM_KINDS * NUM_PATTERNS * CF_NUM_ACTIVATIONS,
	.generate = generate,
};

const cf_generator cf_mul_cases = {
	.op = OPVER_OP_MUL,
	.num_variants = NUM_KINDS * NUM_PATTERNS * CF_NUM_ACTIVATIONS,
	.generate = generate,
};
