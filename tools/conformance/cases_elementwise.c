/*
 * cases_elementwise.c - the elementwise binary ops' cases: ADD, MUL, SUB,
 * DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD and POW,
 * two inputs broadcast to one output; and ADD_N's, two to four inputs of
 * one shape summed (float32 and int32, v1; at the end of this file).
 *
 * Variants cross the tensor types, with the quantization each op version
 * stands for, with five broadcast patterns and, for the ops that have one,
 * the clamp activations:
 *
 *   ADD  float32, int32, uint8 (v1); int8 (v2); int16 with power-of-two
 *        scales and pot_scale_int16 (v1); int16 with general scales and
 *        pot_scale_int16 false (v3); int64 (v4); int16 without
 *        quantization (v5)
 *   MUL  float32, int32 (v1); uint8 (v1); int8 with input scales / output
 *        scale below 1 (v2) and of 1 or more (v3); quantized int16 (v4);
 *        int64 (v5); int16 without quantization (v7)
 *   SUB  float32, int32, uint8 (v1); int8 (v2); int16 with power-of-two
 *        scales (v1); int64 (v4); int16 with general scales (v5)
 *   DIV  float32, int32, uint8 (v1)
 *   MAXIMUM, MINIMUM  float32, uint8, int32 (v1); int8 (v2); int16 (v4),
 *        the quantized types sharing one quantization
 *   SQUARED_DIFFERENCE  float32, int32 (v1); int8 (v2)
 *   FLOOR_DIV  int32 (v1); float32 (v2); int16, int8 without quantization
 *        (v3)
 *   FLOOR_MOD  float32, int32, int64 (v1); int16, int8 without
 *        quantization (v2)
 *   POW  float32, int32 (v1)
 * Broadcasting of rank 5 is the later version of SUB, DIV, MAXIMUM and
 * MINIMUM that the runner finds.
 *
 * Each case draws the shapes (rank 1 to 6), the quantization, whether the
 * second input is a constant, and the data.  Float cases of ops with an
 * activation reach past both bounds of every clamp activation.  Integer
 * values stay small enough that no result leaves its type (int16 sums and
 * products, int32 squares, powers); divisors are never zero, POW's
 * float bases are positive and its int32 exponents are not negative.
 * ADD, MUL and SUB end with hard variants (cases_hard.h): int8 and uint8,
 * every pattern with every clamp activation, the spots taking turns; then
 * ADD's and MUL's int16 ones (zero points 0; ADD's general scales), and
 * MUL's int8 and uint8 ones at the above-one spot, a left shift.
 */
#include "cases_hard.h"

/* What the inputs are and how they are quantized. */
typedef enum kind {
	FLOAT32,
	INT32,
	UINT8,
	INT8,
	INT8_RESCALE_1_OR_MORE, /* MUL: input scales / output scale >= 1 */
	INT16_POT,              /* ADD, SUB: power-of-two scales */
	INT16_GENERAL,          /* ADD, SUB: pot_scale_int16 false */
	INT16_QUANTIZED,        /* MUL: symmetric int16; MAXIMUM, MINIMUM */
	INT16_INTEGER,          /* no quantization at all */
	INT8_INTEGER,           /* no quantization at all */
	INT64
} kind;

/*
 * An op's kinds, and whether it has a fused activation.  The first
 * `crossed` kinds (ADD's and MUL's first ones) cross every pattern with
 * every clamp activation; the others cross every pattern, each pattern of
 * a kind taking the next activation, so that every kind and every pattern
 * still meets every activation in a quarter of the cases.  The crossed
 * variants come first, so that those the oracle's goldens were recorded
 * for keep their numbers.
 */
typedef struct op_kinds {
	int32_t op;
	int32_t count;
	int32_t crossed;
	kind kinds[8];
	bool activation;
	bool hard; /* ends with the hard variants */
} op_kinds;

static const op_kinds ops[] = {
	{ OPVER_OP_ADD, 8, 5, { FLOAT32, INT8, INT16_POT, INT16_GENERAL,
				INT16_INTEGER, UINT8, INT32, INT64 }, true, true },
	{ OPVER_OP_MUL, 8, 5, { FLOAT32, INT8, INT8_RESCALE_1_OR_MORE,
				INT16_QUANTIZED, INT16_INTEGER, UINT8, INT32,
				INT64 }, true, true },
	{ OPVER_OP_SUB, 7, 0, { FLOAT32, INT32, UINT8, INT8, INT16_POT,
				INT16_GENERAL, INT64 }, true, true },
	{ OPVER_OP_DIV, 3, 0, { FLOAT32, INT32, UINT8 }, true, false },
	{ OPVER_OP_MAXIMUM, 5, 0, { FLOAT32, INT32, UINT8, INT8,
				    INT16_QUANTIZED }, false, false },
	{ OPVER_OP_MINIMUM, 5, 0, { FLOAT32, INT32, UINT8, INT8,
				    INT16_QUANTIZED }, false, false },
	{ OPVER_OP_SQUARED_DIFFERENCE, 3, 0, { FLOAT32, INT32, INT8 }, false,
	  false },
	{ OPVER_OP_FLOOR_DIV, 4, 0, { FLOAT32, INT32, INT16_INTEGER,
				      INT8_INTEGER }, false, false },
	{ OPVER_OP_FLOOR_MOD, 5, 0, { FLOAT32, INT32, INT64, INT16_INTEGER,
				      INT8_INTEGER }, false, false },
	{ OPVER_OP_POW, 2, 0, { FLOAT32, INT32 }, false, false },
};

/* The variants of the crossed kinds. */
static int32_t crossed_variants(const op_kinds *o)
{
	return o->crossed * CF_NUM_PATTERNS * CF_NUM_ACTIVATIONS;
}

static const op_kinds *kinds_of(int32_t op)
{
	size_t i = 0;

	while (ops[i].op != op)
		i++;
	return &ops[i];
}

/* The most dimensions a case has: TFLite broadcasts ADD and MUL up to
 * 6-D, SUB, DIV, MAXIMUM and MINIMUM up to 5-D and SQUARED_DIFFERENCE,
 * FLOOR_DIV, FLOOR_MOD and POW up to 4-D (opver's kernels take 6-D for
 * all). */
static int32_t max_rank(int32_t op)
{
	switch (op) {
	case OPVER_OP_ADD:
	case OPVER_OP_MUL:
		return 6;
	case OPVER_OP_SQUARED_DIFFERENCE:
	case OPVER_OP_FLOOR_DIV:
	case OPVER_OP_FLOOR_MOD:
	case OPVER_OP_POW:
		return 4;
	default:
		return 5;
	}
}

/*
 * Sets the first and last elements of both float inputs so that the
 * output's first element is above 6 and its last below -1, whether added,
 * subtracted, multiplied or divided (9 and 1 make 10, 8, 9 and 9; -4 and
 * 1 make -3, -5, -4 and -4): every clamp activation then clamps on both
 * sides.  Every input either ends in the output's last dimension (at
 * least 2) or is a single element, so the output's first element comes
 * from the inputs' first ones and its last from their last ones, and they
 * differ.
 */
static void plant_extremes(cf_case *c, const int32_t *t)
{
	/* ADD's and MUL's cases were recorded with 5 and 2, -4 and 2, which
	 * make 7 and 10, -2 and -8: enough for them. */
	const bool first_ops = c->op == OPVER_OP_ADD || c->op == OPVER_OP_MUL;

	for (int i = 0; i < 2; i++) {
		float *values = cf_case_values(c, t[i]);
		size_t n = cf_tensor_elements(&c->tensors[t[i]]);

		values[0] = i == 0 ? (first_ops ? 5 : 9) : (first_ops ? 2 : 1);
		values[n - 1] = i == 0 ? -4 : (first_ops ? 2 : 1);
	}
}

/* Replaces every divisor that stands for 0 (`zero`: the zero point, or 0)
 * with the next value up. */
static void avoid_zero_divisors(cf_case *c, int32_t t, int32_t zero)
{
	const size_t n = cf_tensor_elements(&c->tensors[t]);
	void *values = cf_case_values(c, t);

	for (size_t i = 0; i < n; i++) {
		switch (c->tensors[t].type) {
		case OPVER_TYPE_UINT8:
			if (((uint8_t *)values)[i] == zero)
				((uint8_t *)values)[i] = (uint8_t)(zero + 1);
			break;
		case OPVER_TYPE_INT8:
			if (((int8_t *)values)[i] == 0)
				((int8_t *)values)[i] = 1;
			break;
		case OPVER_TYPE_INT16:
			if (((int16_t *)values)[i] == 0)
				((int16_t *)values)[i] = 1;
			break;
		case OPVER_TYPE_INT64:
			if (((int64_t *)values)[i] == 0)
				((int64_t *)values)[i] = 1;
			break;
		case OPVER_TYPE_FLOAT32:
			if (((float *)values)[i] == 0)
				((float *)values)[i] = 1;
			break;
		default:
			if (((int32_t *)values)[i] == 0)
				((int32_t *)values)[i] = 1;
			break;
		}
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

/* The scale of an 8-bit output of `op` for input scales s1 and s2, for
 * kind `k`. */
static float output_scale_8bit(int32_t op, kind k, float s1, float s2,
			       cf_rng *rng)
{
	const float larger = s1 > s2 ? s1 : s2;

	switch (op) {
	case OPVER_OP_MUL:
		return k == INT8_RESCALE_1_OR_MORE ?
			       s1 * s2 / cf_rng_float(rng, 1.0f, 4.0f) :
			       s1 * s2 * cf_rng_float(rng, 2.0f, 30.0f);
	case OPVER_OP_DIV:
		/* Quotients of a few tens of steps. */
		return s1 / s2 * cf_rng_float(rng, 0.02f, 0.2f);
	case OPVER_OP_SQUARED_DIFFERENCE:
		/* Squares of differences up to 255 steps. */
		return larger * larger * cf_rng_float(rng, 20.0f, 300.0f);
	default: /* ADD, SUB */
		return cf_rng_float(rng, 0.02f, 0.2f);
	}
}

/* Quantizes the inputs t[0], t[1] and the output t[2] as `k` says.
 * False when out of memory. */
static bool quantize(cf_case *c, cf_rng *rng, kind k, const int32_t *t)
{
	bool shared = c->op == OPVER_OP_MAXIMUM || c->op == OPVER_OP_MINIMUM;
	float s1, s2, out;
	int32_t e, finer, z0 = 0, z1, z2;
	bool swap;

	switch (k) {
	case UINT8:
	case INT8:
	case INT8_RESCALE_1_OR_MORE:
		if (k == UINT8)
			z0 = 128;
		s1 = cf_rng_float(rng, 0.01f, 0.1f);
		s2 = shared ? s1 : cf_rng_float(rng, 0.01f, 0.1f);
		out = shared ? s1 : output_scale_8bit(c->op, k, s1, s2, rng);
		z1 = z0 + cf_rng_int(rng, -20, 20);
		z2 = shared ? z1 : z0 + cf_rng_int(rng, -20, 20);
		return cf_case_quantize(c, t[0], s1, z1) &&
		       cf_case_quantize(c, t[1], s2, z2) &&
		       cf_case_quantize(c, t[2], out,
					shared ? z1 :
					c->op == OPVER_OP_SQUARED_DIFFERENCE ?
						 -120 :
						 z0 + cf_rng_int(rng, -20, 20));
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
		s2 = shared ? s1 : cf_rng_float(rng, 1e-4f, 1e-3f);
		out = shared ? s1 :
		      k == INT16_GENERAL ?
			       cf_rng_float(rng, 2e-4f, 2e-3f) :
			       s1 * s2 * cf_rng_float(rng, 2000.0f, 30000.0f);
		return cf_case_quantize(c, t[0], s1, 0) &&
		       cf_case_quantize(c, t[1], s2, 0) &&
		       cf_case_quantize(c, t[2], out, 0);
	default: /* FLOAT32, INT32, INT16_INTEGER */
		return true;
	}
}

/* The range of the inputs' values for kind `k` of `op`. */
static void value_range(int32_t op, kind k, double *lo, double *hi)
{
	switch (k) {
	case FLOAT32:
		*hi = 2;
		break;
	case INT32:
		/* Squares, products and differences stay inside int32. */
		*hi = op == OPVER_OP_SQUARED_DIFFERENCE ? 20000 :
		      op == OPVER_OP_MUL                ? 40000 :
							  1000000;
		break;
	case UINT8:
		*lo = 0;
		*hi = 255;
		return;
	case INT8:
	case INT8_RESCALE_1_OR_MORE:
		*lo = -128;
		*hi = 127;
		return;
	case INT16_INTEGER:
		if (op == OPVER_OP_FLOOR_DIV || op == OPVER_OP_FLOOR_MOD) {
			*lo = -32768;
			*hi = 32767;
			return;
		}
		*hi = op == OPVER_OP_ADD ? 10000 : 150;
		break;
	case INT8_INTEGER:
		*lo = -128;
		*hi = 127;
		return;
	case INT64:
		/* cf_case_fill draws int64 values from int32's range; their
		 * products stay inside int64. */
		*hi = 1e9;
		break;
	default:
		*lo = -32768;
		*hi = 32767;
		return;
	}
	*lo = -*hi;
}

static opver_type type_of(kind k)
{
	switch (k) {
	case FLOAT32:
		return OPVER_TYPE_FLOAT32;
	case INT32:
		return OPVER_TYPE_INT32;
	case UINT8:
		return OPVER_TYPE_UINT8;
	case INT8:
	case INT8_RESCALE_1_OR_MORE:
	case INT8_INTEGER:
		return OPVER_TYPE_INT8;
	case INT64:
		return OPVER_TYPE_INT64;
	default:
		return OPVER_TYPE_INT16;
	}
}

/* The op's parameter struct, for the variant's activation and kind. */
static void set_params(cf_case *c, kind k, opver_activation activation)
{
	c->has_params = true;
	switch (c->op) {
	case OPVER_OP_ADD:
		c->params.add = (opver_add_params){
			.activation = activation,
			.pot_scale_int16 = k != INT16_GENERAL,
		};
		break;
	case OPVER_OP_SUB:
		c->params.sub = (opver_sub_params){
			.activation = activation,
			.pot_scale_int16 = k != INT16_GENERAL,
		};
		break;
	case OPVER_OP_MUL:
		c->params.mul = (opver_mul_params){ .activation = activation };
		break;
	case OPVER_OP_DIV:
		c->params.div = (opver_div_params){ .activation = activation };
		break;
	case OPVER_OP_FLOOR_DIV:
	case OPVER_OP_FLOOR_MOD:
	case OPVER_OP_POW:
		/* No options: TFLite's tables for them are empty. */
		c->has_params = false;
		break;
	default:
		/* Written as the op's empty options table. */
		break;
	}
}

/* POW's operands: float bases in [0.1, 2] and exponents in [-3, 3];
 * int32 bases in [-12, 12] and exponents in [0, 8], whose powers fit. */
static void pow_operands(cf_case *c, opver_type type, const int32_t *t,
			 cf_rng *rng)
{
	for (int i = 0; i < 2; i++) {
		const size_t n = cf_tensor_elements(&c->tensors[t[i]]);
		void *values = cf_case_values(c, t[i]);

		for (size_t j = 0; j < n; j++) {
			if (type == OPVER_TYPE_FLOAT32)
				((float *)values)[j] =
					i == 0 ? cf_rng_float(rng, 0.1f, 2.0f) :
						 cf_rng_float(rng, -3.0f, 3.0f);
			else
				((int32_t *)values)[j] =
					i == 0 ? cf_rng_int(rng, -12, 12) :
						 cf_rng_int(rng, 0, 8);
		}
	}
}

/* The variants before the hard ones. */
static int32_t plain_variants(const op_kinds *o)
{
	return crossed_variants(o) + (o->count - o->crossed) * CF_NUM_PATTERNS;
}

/* The hard variants of ADD, MUL and SUB: two kinds, every pattern with every
 * clamp activation. */
#define HARD_VARIANTS (2 * CF_NUM_PATTERNS * CF_NUM_ACTIVATIONS)
/* Then ADD's and MUL's int16 ones, every pattern with every activation
 * (ADD's with general scales, pot_scale_int16 false)... */
#define HARD16_VARIANTS (CF_NUM_PATTERNS * CF_NUM_ACTIVATIONS)
/* ...and MUL's int8 and uint8 ones above one (a left shift), every
 * pattern, the activations taking turns.  int16 has none: the planted
 * extremes' product, 2^30, would overflow TFLite's left shift. */
#define ABOVE_ONE_VARIANTS (2 * CF_NUM_PATTERNS)

/* Decodes hard variant v (counted from the first hard one) into its kind,
 * pattern and activation, and draws its spot. */
static void decode_hard(int32_t op, int32_t v, cf_rng *rng, kind *k,
			int32_t *pattern, opver_activation *activation,
			cf_hard *hard)
{
	int32_t spot;

	if (v < HARD_VARIANTS) {
		*k = v % 2 ? UINT8 : INT8;
		*pattern = v / 2 % CF_NUM_PATTERNS;
		spot = v / (2 * CF_NUM_PATTERNS);
	} else if (v < HARD_VARIANTS + HARD16_VARIANTS) {
		v -= HARD_VARIANTS;
		*k = op == OPVER_OP_ADD ? INT16_GENERAL : INT16_QUANTIZED;
		*pattern = v % CF_NUM_PATTERNS;
		spot = v / CF_NUM_PATTERNS;
	} else {
		v -= HARD_VARIANTS + HARD16_VARIANTS;
		*k = v % 2 ? UINT8 : INT8_RESCALE_1_OR_MORE;
		*pattern = v / 2;
		*activation = cf_activation(v % CF_NUM_ACTIVATIONS);
		cf_hard_draw(hard, CF_SPOT_ABOVE_ONE, rng);
		return;
	}
	/* spot: the activation's index, which the spot follows. */
	*activation = cf_activation(spot);
	cf_hard_draw(hard, (*pattern + spot) % CF_NUM_SPOTS, rng);
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const op_kinds *o = kinds_of(c->op);
	int32_t first = 0, count = o->count, index;
	kind k;
	opver_activation activation = OPVER_ACTIVATION_NONE;
	int32_t pattern;
	bool constant;
	opver_type type;
	double lo, hi;
	int32_t t[3];
	cf_binary_shapes s;
	cf_hard hard;
	bool is_hard = o->hard && variant >= plain_variants(o);
	/* Dimensions 1..5 up to rank 4, 1..3 above: a case stays small. */
	const cf_shape_limits limits = { max_rank(c->op), 5, 3, 4 };

	if (is_hard) {
		decode_hard(c->op, variant - plain_variants(o), rng, &k,
			    &pattern, &activation, &hard);
	} else if (variant >= crossed_variants(o)) {
		/* The variants of the later kinds follow all of the first
		 * ones. */
		variant -= crossed_variants(o);
		first = o->crossed;
		count = o->count - o->crossed;
	} else if (o->crossed > 0) {
		count = o->crossed;
	}
	if (!is_hard) {
		index = variant % count;
		k = o->kinds[first + index];
		pattern = variant / count % CF_NUM_PATTERNS;
		if (first < o->crossed)
			activation = cf_activation(variant /
						   (count * CF_NUM_PATTERNS));
		else if (o->activation)
			activation = cf_activation(index + pattern);
	}
	constant = cf_rng_int(rng, 0, 3) == 0;
	type = type_of(k);

	cf_draw_binary_shapes(pattern, &limits, rng, &s);
	for (int i = 0; i < 3; i++)
		t[i] = cf_case_tensor(c, type, s.rank[i], s.dims[i]);
	cf_case_input(c, t[0]);
	cf_case_input(c, t[1]);
	c->output = t[2];
	set_params(c, k, activation);
	if (is_hard) {
		if (!cf_hard_binary_op(c, &hard, rng, t,
				       c->op == OPVER_OP_MUL, constant))
			return false;
	} else if (!quantize(c, rng, k, t)) {
		return false;
	}
	value_range(c->op, k, &lo, &hi);
	if (!is_hard && (!cf_case_fill(c, t[0], rng, lo, hi, false) ||
			 !cf_case_fill(c, t[1], rng, lo, hi, constant)))
		return false;
	if (type == OPVER_TYPE_FLOAT32 && o->activation)
		plant_extremes(c, t);
	if (c->op == OPVER_OP_POW)
		pow_operands(c, type, t, rng);
	if (c->op == OPVER_OP_FLOOR_DIV || c->op == OPVER_OP_FLOOR_MOD)
		avoid_zero_divisors(c, t[1], 0);
	if (c->op == OPVER_OP_DIV && type != OPVER_TYPE_FLOAT32)
		avoid_zero_divisors(c, t[1],
				    type == OPVER_TYPE_UINT8 ?
					    (int32_t)c->tensors[t[1]]
						    .zero_points[0] :
					    0);
	cf_case_param(c, "broadcast=%s", cf_pattern_names[pattern]);
	if (o->activation)
		cf_case_param(c, "activation=%s",
			      cf_activation_name(activation));
	if ((c->op == OPVER_OP_ADD || c->op == OPVER_OP_SUB) &&
	    type == OPVER_TYPE_INT16 && k != INT16_INTEGER)
		cf_case_param(c, "pot_scale_int16=%s",
			      k == INT16_POT ? "true" : "false");
	if (k == INT16_INTEGER || k == INT8_INTEGER)
		cf_case_param(c, "quantization=none");
	cf_case_param(c, "second=%s", constant ? "constant" : "input");
	return true;
}

/* Each op: its crossed kinds' variants (crossed_variants()), then one
 * per pattern for each of its other kinds, then ADD's, MUL's and SUB's
 * hard ones. */
const cf_generator cf_add_cases = {
	.op = OPVER_OP_ADD,
	.num_variants = 5 * CF_NUM_PATTERNS * CF_NUM_ACTIVATIONS +
			3 * CF_NUM_PATTERNS +
			HARD_VARIANTS + HARD16_VARIANTS,
	.generate = generate,
};

const cf_generator cf_mul_cases = {
	.op = OPVER_OP_MUL,
	.num_variants = 5 * CF_NUM_PATTERNS * CF_NUM_ACTIVATIONS +
			3 * CF_NUM_PATTERNS +
			HARD_VARIANTS + HARD16_VARIANTS + ABOVE_ONE_VARIANTS,
	.generate = generate,
};

const cf_generator cf_sub_cases = {
	.op = OPVER_OP_SUB,
	.num_variants = 7 * CF_NUM_PATTERNS + HARD_VARIANTS,
	.generate = generate,
};

const cf_generator cf_div_cases = {
	.op = OPVER_OP_DIV,
	.num_variants = 3 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_maximum_cases = {
	.op = OPVER_OP_MAXIMUM,
	.num_variants = 5 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_minimum_cases = {
	.op = OPVER_OP_MINIMUM,
	.num_variants = 5 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_squared_difference_cases = {
	.op = OPVER_OP_SQUARED_DIFFERENCE,
	.num_variants = 3 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_floor_div_cases = {
	.op = OPVER_OP_FLOOR_DIV,
	.num_variants = 4 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_floor_mod_cases = {
	.op = OPVER_OP_FLOOR_MOD,
	.num_variants = 5 * CF_NUM_PATTERNS,
	.generate = generate,
};

const cf_generator cf_pow_cases = {
	.op = OPVER_OP_POW,
	.num_variants = 2 * CF_NUM_PATTERNS,
	.generate = generate,
};

/* ADD_N: variants cross float32 and int32 with 2, 3 and 4 inputs; each
 * case draws a shape of rank 1 to 4 (dimensions 1 to 5) and the data, as
 * graph inputs or, for the last input, a constant. */
static bool generate_add_n(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = variant % 2 == 0 ? OPVER_TYPE_FLOAT32 :
						   OPVER_TYPE_INT32;
	const int32_t count = 2 + variant / 2;
	const int32_t rank = cf_rng_int(rng, 1, 4);
	const bool constant = cf_rng_int(rng, 0, 3) == 0;
	const double hi = type == OPVER_TYPE_FLOAT32 ? 2 : 1000000;
	int32_t dims[4], t;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 5);
	for (int32_t i = 0; i < count; i++) {
		t = cf_case_tensor(c, type, rank, dims);
		cf_case_input(c, t);
		if (!cf_case_fill(c, t, rng, -hi, hi,
				  constant && i == count - 1))
			return false;
	}
	c->output = cf_case_tensor(c, type, rank, dims);
	cf_case_param(c, "inputs=%d", (int)count);
	cf_case_param(c, "last=%s", constant ? "constant" : "input");
	return true;
}

const cf_generator cf_add_n_cases = {
	.op = OPVER_OP_ADD_N,
	.num_variants = 6,
	.generate = generate_add_n,
};
