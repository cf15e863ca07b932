/*
 * cases_activation.c - the one-input activations: RELU, RELU6,
 * RELU_N1_TO_1, RELU_0_TO_1, LOGISTIC, TANH, LEAKY_RELU, HARD_SWISH, ELU
 * and GELU; and PRELU (float32, int8, uint8), whose second input is a
 * constant alpha broadcast along the input: over its last dimension, all
 * but its first, or its whole shape.
 *
 * Variants cross each op's tensor types (float32 v1; int8, uint8 and int16
 * at the versions TFLite's rules give them) with the rank (1-4) and, for
 * GELU, approximate; int16 LOGISTIC and TANH, added after the others, take
 * by rank an input scale for each of TFLite's paths: 2^-12 (gemmlowp
 * fixed point), 2^-11 (TANH: fixed point on the doubled input; LOGISTIC:
 * its table), a drawn scale of about 1e-4 and one wide enough (about
 * 3e-3) to run past the table's end, with the input's first and last
 * values the int16 extremes; LEAKY_RELU draws alpha, slopes above 1 and below 0
 * included.  Each case draws the shape (dimensions 1-5), the quantization
 * and the data.  Float inputs reach past every clamp bound ([-8, 8]).
 * Output quantization is the one TFLite fixes where it fixes one:
 * LOGISTIC scale 1/256 (zero point -128 for int8, 0 for uint8), TANH
 * scale 1/128 (zero point 0 for int8, 128 for uint8), both 1/32768 for
 * int16; elsewhere it is
 * drawn, wide enough to hold most outputs and narrow enough that some
 * saturate.  HARD_SWISH's inputs of rank 3 and 4 are wider (scales 0.3 to
 * 1).  int16 tensors are symmetric.  RELU, RELU6, RELU_N1_TO_1,
 * RELU_0_TO_1, LEAKY_RELU and HARD_SWISH end with hard variants
 * (cases_hard.h): each quantized type at every spot.
 */
#include "cases_hard.h"

#define MAX_RANK 4
#define MAX_TYPES 4

/* The types an op takes, in variant order; the first `old_count` are
 * those it had before int16 was added (cf_variant_split). */
typedef struct activation_types {
	int32_t count;
	int32_t old_count;
	opver_type types[MAX_TYPES];
} activation_types;

static activation_types types_of(int32_t op)
{
	switch (op) {
	case OPVER_OP_RELU:
	case OPVER_OP_RELU6:
	case OPVER_OP_LEAKY_RELU:
		return (activation_types){ 4, 4, { OPVER_TYPE_FLOAT32,
						   OPVER_TYPE_INT8,
						   OPVER_TYPE_UINT8,
						   OPVER_TYPE_INT16 } };
	case OPVER_OP_LOGISTIC:
	case OPVER_OP_TANH:
		return (activation_types){ 4, 3, { OPVER_TYPE_FLOAT32,
						   OPVER_TYPE_INT8,
						   OPVER_TYPE_UINT8,
						   OPVER_TYPE_INT16 } };
	case OPVER_OP_ELU:
		return (activation_types){ 2, 2, { OPVER_TYPE_FLOAT32,
						   OPVER_TYPE_INT8 } };
	default:
		return (activation_types){ 3, 3, { OPVER_TYPE_FLOAT32,
						   OPVER_TYPE_INT8,
						   OPVER_TYPE_UINT8 } };
	}
}

/* A drawn per-tensor quantization for `type`: 8-bit values span about
 * +-2.5 to +-13 around a drawn zero point (`wide`: +-40 to +-130), int16
 * about +-3 to +-13. */
static bool quantize_drawn(cf_case *c, int32_t t, opver_type type,
			   bool wide, cf_rng *rng)
{
	const float scale = wide ? cf_rng_float(rng, 0.3f, 1.0f)
				 : cf_rng_float(rng, 0.02f, 0.1f);

	switch (type) {
	case OPVER_TYPE_INT8:
		return cf_case_quantize(c, t, scale, cf_rng_int(rng, -40, 40));
	case OPVER_TYPE_UINT8:
		return cf_case_quantize(c, t, scale, cf_rng_int(rng, 88, 168));
	default: /* INT16 */
		return cf_case_quantize(c, t, cf_rng_float(rng, 1e-4f, 4e-4f),
					0);
	}
}

/* The output quantization TFLite fixes for `op` on `type`; false when it
 * fixes none. */
static bool fixed_output(int32_t op, opver_type type, float *scale,
			 int32_t *zero_point)
{
	const bool uint8 = type == OPVER_TYPE_UINT8;

	if ((op == OPVER_OP_LOGISTIC || op == OPVER_OP_TANH) &&
	    type == OPVER_TYPE_INT16) {
		*scale = 1.0f / 32768;
		*zero_point = 0;
		return true;
	}
	switch (op) {
	case OPVER_OP_LOGISTIC:
		*scale = 1.0f / 256;
		*zero_point = uint8 ? 0 : -128;
		return true;
	case OPVER_OP_TANH:
		*scale = 1.0f / 128;
		*zero_point = uint8 ? 128 : 0;
		return true;
	default:
		return false;
	}
}

static bool fill_input(cf_case *c, int32_t t, opver_type type, cf_rng *rng)
{
	switch (type) {
	case OPVER_TYPE_FLOAT32:
		return cf_case_fill(c, t, rng, -8, 8, false);
	case OPVER_TYPE_INT8:
		return cf_case_fill(c, t, rng, -128, 127, false);
	case OPVER_TYPE_UINT8:
		return cf_case_fill(c, t, rng, 0, 255, false);
	default:
		return cf_case_fill(c, t, rng, -32768, 32767, false);
	}
}

/* The input quantization of int16 LOGISTIC and TANH case `kind` (0-3),
 * one of TFLite's paths each (see the top of the file). */
static bool quantize_int16_sigmoid(cf_case *c, int32_t t, int32_t kind,
				   cf_rng *rng)
{
	static const float lo[] = { 0x1p-12f, 0x1p-11f, 1e-4f, 2e-3f };
	static const float hi[] = { 0x1p-12f, 0x1p-11f, 4e-4f, 4e-3f };

	return cf_case_quantize(c, t, cf_rng_float(rng, lo[kind], hi[kind]),
				0);
}

/* The int16 extremes as the first and last values of input `t`. */
static void set_extremes(cf_case *c, int32_t t)
{
	/* The case allocated the values (cf_case_fill): they are its to
	 * change. */
	int16_t *data = c->values[t];
	size_t n = 1;

	for (int32_t d = 0; d < c->tensors[t].rank; d++)
		n *= (size_t)c->tensors[t].dims[d];
	data[0] = INT16_MIN;
	if (n > 1)
		data[n - 1] = INT16_MAX;
}

/* The ops with hard variants: the clamps and LEAKY_RELU, whose outputs
 * are one rescale (two for LEAKY_RELU) of the input, and HARD_SWISH, whose
 * input and output scales both enter its fixed point. */
static bool has_hard(int32_t op)
{
	return op == OPVER_OP_RELU || op == OPVER_OP_RELU6 ||
	       op == OPVER_OP_RELU_N1_TO_1 || op == OPVER_OP_RELU_0_TO_1 ||
	       op == OPVER_OP_LEAKY_RELU || op == OPVER_OP_HARD_SWISH;
}

static void draw_alpha(cf_case *c, cf_rng *rng)
{
	c->has_params = true;
	c->params.leaky_relu.alpha = cf_rng_float(rng, -0.5f, 2.0f);
	cf_case_param(c, "alpha=%.9g", (double)c->params.leaky_relu.alpha);
}

/* Hard variant v: the quantized types (all but float32, the first) at
 * every spot, the rank taking turns. */
static bool generate_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const activation_types types = types_of(c->op);
	const int32_t quantized = types.count - 1;
	const opver_type type = types.types[1 + v % quantized];
	const int32_t rank = v % MAX_RANK + 1;
	int32_t dims[MAX_RANK] = { 0 }, t[2];
	cf_hard hard;

	cf_hard_draw(&hard, v / quantized, rng);
	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 5);
	t[0] = cf_case_tensor(c, type, rank, dims);
	t[1] = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, t[0]);
	c->output = t[1];
	if (c->op == OPVER_OP_LEAKY_RELU)
		draw_alpha(c, rng);
	return cf_hard_unary_op(c, &hard, rng, t);
}

/* Variant: type, then rank, then (GELU) approximate; then the hard
 * ones. */
static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	const activation_types types = types_of(c->op);
	int32_t kind, rest, rank, input, output, zero_point;
	int32_t dims[MAX_RANK] = { 0 };
	opver_type type;
	bool sigmoid16, ok = true;
	float scale;

	if (has_hard(c->op) && variant >= types.count * MAX_RANK)
		return generate_hard(variant - types.count * MAX_RANK, rng,
				     c);
	if (types.old_count < types.count) {
		/* LOGISTIC and TANH: MAX_RANK variants per type. */
		cf_variant_split(variant, types.old_count, types.count,
				 MAX_RANK, &kind, &rest);
	} else {
		kind = variant % types.count;
		rest = variant / types.count;
	}
	type = types.types[kind];
	rank = rest % MAX_RANK + 1;
	sigmoid16 = type == OPVER_TYPE_INT16 &&
		    (c->op == OPVER_OP_LOGISTIC || c->op == OPVER_OP_TANH);

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 5);
	input = cf_case_tensor(c, type, rank, dims);
	output = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, input);
	c->output = output;
	/* HARD_SWISH's wide inputs (rank 3 and 4) take the left-shift
	 * branch of its fixed point. */
	if (sigmoid16) {
		ok = quantize_int16_sigmoid(c, input, rank - 1, rng) &&
		     fixed_output(c->op, type, &scale, &zero_point) &&
		     cf_case_quantize(c, output, scale, zero_point);
	} else if (type != OPVER_TYPE_FLOAT32) {
		ok = quantize_drawn(c, input, type,
				    c->op == OPVER_OP_HARD_SWISH && rank > 2,
				    rng) &&
		     (fixed_output(c->op, type, &scale, &zero_point)
			      ? cf_case_quantize(c, output, scale, zero_point)
			      : quantize_drawn(c, output, type, false, rng));
	}
	ok = ok && fill_input(c, input, type, rng);
	if (ok && sigmoid16)
		set_extremes(c, input);
	if (c->op == OPVER_OP_LEAKY_RELU) {
		draw_alpha(c, rng);
	} else if (c->op == OPVER_OP_GELU) {
		c->has_params = true;
		c->params.gelu.approximate = rest / MAX_RANK % 2;
		cf_case_param(c, "approximate=%d",
			      (int)c->params.gelu.approximate);
	}
	return ok;
}

/* PRELU's alpha shapes: the input's last dimension, its dimensions but
 * the first, or its whole shape. */
enum { ALPHA_CHANNELS, ALPHA_INNER, ALPHA_FULL, NUM_ALPHA_SHAPES };

/* Variant: type (float32, int8, uint8), then rank, then alpha's shape.
 * Alpha is a constant, drawn about [-1, 1]. */
static bool generate_prelu(int32_t variant, cf_rng *rng, cf_case *c)
{
	static const opver_type types[3] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_UINT8,
	};
	static const char *const shape_names[NUM_ALPHA_SHAPES] = {
		"channels", "inner", "full",
	};
	const opver_type type = types[variant % 3];
	const int32_t rank = variant / 3 % MAX_RANK + 1;
	const int32_t shape = variant / (3 * MAX_RANK) % NUM_ALPHA_SHAPES;
	int32_t dims[MAX_RANK], input, alpha, output, alpha_rank;
	bool ok = true;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 5);
	alpha_rank = shape == ALPHA_CHANNELS ? 1
		     : shape == ALPHA_INNER && rank > 1 ? rank - 1
							: rank;
	input = cf_case_tensor(c, type, rank, dims);
	alpha = cf_case_tensor(c, type, alpha_rank,
			       dims + (rank - alpha_rank));
	output = cf_case_tensor(c, type, rank, dims);
	cf_case_input(c, input);
	cf_case_input(c, alpha);
	c->output = output;
	if (type == OPVER_TYPE_FLOAT32) {
		ok = cf_case_fill(c, alpha, rng, -1, 1, true);
	} else {
		const bool uint8 = type == OPVER_TYPE_UINT8;

		ok = quantize_drawn(c, input, type, false, rng) &&
		     quantize_drawn(c, output, type, false, rng) &&
		     cf_case_quantize_random(c, alpha, rng, 0.004f, 0.01f,
					     uint8 ? 108 : -20,
					     uint8 ? 148 : 20) &&
		     cf_case_fill(c, alpha, rng, uint8 ? 0 : -128,
				  uint8 ? 255 : 127, true);
	}
	ok = ok && fill_input(c, input, type, rng);
	cf_case_param(c, "alpha=%s", shape_names[shape]);
	return ok;
}

const cf_generator cf_prelu_cases = {
	.op = OPVER_OP_PRELU,
	.num_variants = 3 * MAX_RANK * NUM_ALPHA_SHAPES,
	.generate = generate_prelu,
};

#define ACTIVATION_CASES(name, op_name, variants) \
	const cf_generator name = {              \
		.op = OPVER_OP_##op_name,        \
		.num_variants = (variants),      \
		.generate = generate,            \
	}

/* Plain variants of `types` types, and hard ones for every quantized
 * type at every spot. */
#define WITH_HARD(types) ((types) * MAX_RANK + ((types) - 1) * CF_NUM_SPOTS)

ACTIVATION_CASES(cf_relu_cases, RELU, WITH_HARD(4));
ACTIVATION_CASES(cf_relu6_cases, RELU6, WITH_HARD(4));
ACTIVATION_CASES(cf_relu_n1_to_1_cases, RELU_N1_TO_1, WITH_HARD(3));
ACTIVATION_CASES(cf_relu_0_to_1_cases, RELU_0_TO_1, WITH_HARD(3));
ACTIVATION_CASES(cf_logistic_cases, LOGISTIC, 4 * MAX_RANK);
ACTIVATION_CASES(cf_tanh_cases, TANH, 4 * MAX_RANK);
ACTIVATION_CASES(cf_elu_cases, ELU, 2 * MAX_RANK);
ACTIVATION_CASES(cf_gelu_cases, GELU, 3 * MAX_RANK * 2);
ACTIVATION_CASES(cf_leaky_relu_cases, LEAKY_RELU, WITH_HARD(4));
ACTIVATION_CASES(cf_hard_swish_cases, HARD_SWISH, WITH_HARD(3));
