/*
 * cases_svdf.c - SVDF cases, one invoke from the zero state (the state is
 * a variable tensor, no graph input).  Variants: float32 without a bias
 * and no activation, with a bias and RELU, RELU6, TANH or SIGN_BIT; full
 * integer int8 (int16 weights_time and state, int32 bias) with and
 * without a bias, RELU (the only activation TFLite's integer SVDF
 * takes); hybrid (float input, int8 weights_feature and weights_time)
 * with a bias and RELU or TANH, and with asymmetric_quantize_inputs, no
 * bias, and no activation or SIGN_BIT.
 * Each case draws the batch (1-2), input size (1-6), units (1-4), rank
 * (1-2), memory (1-5) and the data.  int8 scales keep the feature rescale
 * in (0.1, 0.5] and the time rescale near the sums' size, so that outputs
 * spread over the int8 range with some saturation; hybrid weight scales
 * are drawn from [0.002, 0.02).
 */
#include "cases.h"

/* A variant: its kernel, bias, activation and asymmetric inputs. */
enum { SVDF_FLOAT, SVDF_INT8, SVDF_HYBRID };

typedef struct svdf_variant {
	int kind;
	bool has_bias;
	int32_t activation;
	bool asymmetric;
} svdf_variant;

static const svdf_variant svdf_variants[] = {
	{ SVDF_FLOAT, false, OPVER_ACTIVATION_NONE, false },
	{ SVDF_FLOAT, true, OPVER_ACTIVATION_RELU, false },
	{ SVDF_FLOAT, true, OPVER_ACTIVATION_RELU6, false },
	{ SVDF_INT8, true, OPVER_ACTIVATION_RELU, false },
	{ SVDF_INT8, false, OPVER_ACTIVATION_RELU, false },
	{ SVDF_HYBRID, true, OPVER_ACTIVATION_RELU, false },
	{ SVDF_HYBRID, false, OPVER_ACTIVATION_NONE, true },
	{ SVDF_FLOAT, true, OPVER_ACTIVATION_TANH, false },
	{ SVDF_FLOAT, true, OPVER_ACTIVATION_SIGN_BIT, false },
	{ SVDF_HYBRID, true, OPVER_ACTIVATION_TANH, false },
	{ SVDF_HYBRID, false, OPVER_ACTIVATION_SIGN_BIT, true },
};
#define NUM_SVDF_VARIANTS \
	((int32_t)(sizeof(svdf_variants) / sizeof(svdf_variants[0])))

typedef struct svdf_shape {
	int32_t batch, input_size, filters, units, memory;
} svdf_shape;

/* The int8 variants' scales, drawn in a fixed order. */
static bool svdf_quantize(cf_case *c, cf_rng *rng, const int32_t t[6])
{
	const float input = cf_rng_float(rng, 0.01f, 0.05f);
	const int32_t input_zero = cf_rng_int(rng, -10, 10);
	const float feature = cf_rng_float(rng, 0.005f, 0.02f);
	const float state = input * feature * cf_rng_float(rng, 2, 10);
	const float time = cf_rng_float(rng, 0.0005f, 0.002f);
	const float output = state * time * cf_rng_float(rng, 2e4f, 2e5f);
	const int32_t output_zero = cf_rng_int(rng, -10, 10);

	return cf_case_quantize(c, t[0], input, input_zero) &&
	       cf_case_quantize(c, t[1], feature, 0) &&
	       cf_case_quantize(c, t[2], time, 0) &&
	       cf_case_quantize(c, t[4], state, 0) &&
	       cf_case_quantize(c, t[5], output, output_zero);
}

static bool generate_svdf(int32_t variant, cf_rng *rng, cf_case *c)
{
	const svdf_variant *v = &svdf_variants[variant];
	const bool is_int8 = v->kind == SVDF_INT8;
	const bool hybrid = v->kind == SVDF_HYBRID;
	const bool has_bias = v->has_bias;
	const opver_type weights = is_int8 || hybrid ? OPVER_TYPE_INT8
						     : OPVER_TYPE_FLOAT32;
	const int32_t rank = cf_rng_int(rng, 1, 2);
	svdf_shape s;
	int32_t t[6]; /* input, feature, time, bias, state, output */
	bool ok;

	s.batch = cf_rng_int(rng, 1, 2);
	s.input_size = cf_rng_int(rng, 1, 6);
	s.units = cf_rng_int(rng, 1, 4);
	s.memory = cf_rng_int(rng, 1, 5);
	s.filters = s.units * rank;
	t[0] = cf_case_tensor(c, is_int8 ? OPVER_TYPE_INT8 : OPVER_TYPE_FLOAT32,
			      2, (const int32_t[]){ s.batch, s.input_size });
	t[1] = cf_case_tensor(c, weights, 2,
			      (const int32_t[]){ s.filters, s.input_size });
	t[2] = cf_case_tensor(c, is_int8 ? OPVER_TYPE_INT16 : weights, 2,
			      (const int32_t[]){ s.filters, s.memory });
	t[3] = has_bias ? cf_case_tensor(c, is_int8 ? OPVER_TYPE_INT32
						   : OPVER_TYPE_FLOAT32,
					 1, (const int32_t[]){ s.units })
			: -1;
	t[4] = cf_case_tensor(c, is_int8 ? OPVER_TYPE_INT16 : OPVER_TYPE_FLOAT32,
			      2, (const int32_t[]){ s.batch,
						   s.memory * s.filters });
	t[5] = cf_case_tensor(c, is_int8 ? OPVER_TYPE_INT8 : OPVER_TYPE_FLOAT32,
			      2, (const int32_t[]){ s.batch, s.units });
	c->tensors[t[4]].is_variable = true;
	for (int i = 0; i < 5; i++)
		cf_case_input(c, t[i]);
	c->output = t[5];
	if (is_int8)
		ok = cf_case_fill(c, t[0], rng, -128, 127, false) &&
		     cf_case_fill(c, t[1], rng, -127, 127, true) &&
		     cf_case_fill(c, t[2], rng, -1000, 1000, true) &&
		     (!has_bias ||
		      cf_case_fill(c, t[3], rng, -100000, 100000, true)) &&
		     svdf_quantize(c, rng, t);
	else if (hybrid)
		ok = cf_case_fill(c, t[0], rng, -1, 1, false) &&
		     cf_case_fill(c, t[1], rng, -127, 127, true) &&
		     cf_case_fill(c, t[2], rng, -127, 127, true) &&
		     (!has_bias || cf_case_fill(c, t[3], rng, -1, 1, true)) &&
		     cf_case_quantize_random(c, t[1], rng, 0.002f, 0.02f, 0, 0) &&
		     cf_case_quantize_random(c, t[2], rng, 0.002f, 0.02f, 0, 0);
	else
		ok = cf_case_fill(c, t[0], rng, -1, 1, false) &&
		     cf_case_fill(c, t[1], rng, -1, 1, true) &&
		     cf_case_fill(c, t[2], rng, -1, 1, true) &&
		     (!has_bias || cf_case_fill(c, t[3], rng, -1, 1, true));
	c->has_params = true;
	c->params.svdf.rank = rank;
	c->params.svdf.activation = v->activation;
	c->params.svdf.asymmetric_quantize_inputs = v->asymmetric;
	cf_case_param(c, "batch=%d input=%d units=%d rank=%d memory=%d bias=%d activation=%d asymmetric=%d",
		      (int)s.batch, (int)s.input_size, (int)s.units, (int)rank,
		      (int)s.memory, (int)has_bias,
		      (int)c->params.svdf.activation,
		      (int)c->params.svdf.asymmetric_quantize_inputs);
	return ok;
}

const cf_generator cf_svdf_cases = {
	.op = OPVER_OP_SVDF,
	.num_variants = NUM_SVDF_VARIANTS,
	.generate = generate_svdf,
};
