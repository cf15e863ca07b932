/*
 * cases_fully_connected.c - FULLY_CONNECTED cases.
 *
 * Variants cross the kinds of node with how the bias is given, with
 * keep_num_dims (version 5) and the clamp activations:
 *
 *   kinds  float32 (v1); int8 with weights quantized per tensor or per
 *          unit (v4); uint8, TFLite's legacy asymmetric quantization,
 *          zero points near 128 everywhere and random bytes for data
 *          (v1); hybrid, float input and int8 weights, per tensor
 *          (v3), per tensor with asymmetric_quantize_inputs (v9) and per
 *          unit (v12); int16 activations with int8 weights per tensor or
 *          per unit and an int64 bias, zero points 0 (v1); uint8 input
 *          and weights with TFLite's legacy int16 output, zero point 0
 *          (v1); int16 activations with weights per unit, an int32 bias
 *          and quantized_bias_type INT32 (v11)
 *   bias   present; omitted (input index -1, still three inputs); absent
 *          (two inputs: version 6)
 *
 * Each case draws the units (2-8), the depth (1-8), the input's leading
 * dimensions (rank 2 or 3, 1-4 rows), the quantization and the data.
 * Cases with a float input reach past both bounds of every clamp
 * activation.  The hard variants come last: the kinds with an integer
 * input and output of one type, each at every spot of cases_hard.h, the
 * above-one spot last.
 */
#include <math.h>

#include "cases_hard.h"

/* uint8 came after the first six kinds, int16 after uint8, then uint8 to
 * int16 and the int32 bias of int16 (cf_variant_split). */
enum { FLOAT32, INT8_PER_TENSOR, INT8_PER_UNIT, HYBRID_PER_TENSOR,
       HYBRID_ASYMMETRIC, HYBRID_PER_UNIT, UINT8, INT16X8_PER_TENSOR,
       INT16X8_PER_UNIT, UINT8_INT16, INT16X8_INT32_BIAS, NUM_KINDS };
static const char *const kind_names[NUM_KINDS] = {
	"float32", "int8-per-tensor", "int8-per-unit", "hybrid-per-tensor",
	"hybrid-asymmetric", "hybrid-per-unit", "uint8", "int16x8-per-tensor",
	"int16x8-per-unit", "uint8-int16", "int16x8-int32-bias",
};

enum { BIAS_PRESENT, BIAS_OMITTED, BIAS_ABSENT, NUM_BIAS_MODES };
static const char *const bias_names[NUM_BIAS_MODES] = {
	"yes", "omitted", "absent",
};

/* Weights scales, one per unit or one for all, with zero point `zero`,
 * and the bias's (input scale x weights scale; 0 input scale for a float
 * bias). */
static bool quantize_weights(cf_case *c, cf_rng *rng, bool per_unit,
			     int32_t zero, int32_t weights, int32_t bias,
			     int32_t units, float input_scale, float *mean)
{
	float scales[8], bias_scales[8];
	int32_t n = per_unit ? units : 1;

	*mean = 0;
	for (int32_t i = 0; i < n; i++) {
		scales[i] = cf_rng_float(rng, 0.002f, 0.02f);
		bias_scales[i] = input_scale * scales[i];
		*mean += scales[i] / (float)n;
	}
	if (!(per_unit ? cf_case_quantize_per_channel(c, weights, 0, scales) :
			 cf_case_quantize(c, weights, scales[0], zero)))
		return false;
	if (bias < 0 || input_scale == 0)
		return true;
	return per_unit ? cf_case_quantize_per_channel(c, bias, 0, bias_scales) :
			  cf_case_quantize(c, bias, bias_scales[0], 0);
}

/*
 * For a float input (float32 and hybrid): sets weight [u][0] to the
 * largest value of its type, positive for the first unit and negative for
 * the last, and input element [0][0] (row 0, depth 0) so large that it
 * outweighs the other terms and the bias: row 0 then comes out above 7 at
 * the first unit and below -7 at the last (cf_dominant_input), past both
 * bounds of every clamp activation.
 */
static void plant_extremes(cf_case *c, int32_t input, int32_t weights,
			   int32_t bias, int32_t units, int32_t depth)
{
	cf_tensor_desc *w = &c->tensors[weights];
	bool hybrid = w->type == OPVER_TYPE_INT8;
	float *x = c->values[input];
	float x0 = 1;

	for (int32_t u = 0; u < units; u += units - 1) {
		size_t first = (size_t)u * (size_t)depth;
		float rest = 0, bias_size = 0;

		cf_set_lead_weight(w, first, u == 0);
		for (int32_t d = 1; d < depth; d++)
			rest += fabsf(cf_weight(w, first + (size_t)d, u));
		if (bias >= 0)
			bias_size = fabsf(
				((const float *)c->tensors[bias].data)[u]);
		x0 = fmaxf(x0, cf_dominant_input(fabsf(cf_weight(w, first, u)),
						 rest, bias_size, hybrid));
	}
	x[0] = x0;
}

/* The variant's parameters as the case's text. */
static void describe(cf_case *c, int32_t kind, int32_t bias_mode, bool keep,
		     opver_activation activation)
{
	cf_case_param(c, "kind=%s bias=%s keep_num_dims=%s activation=%s",
		      kind_names[kind], bias_names[bias_mode],
		      keep ? "true" : "false", cf_activation_name(activation));
	if (kind >= HYBRID_PER_TENSOR && kind <= HYBRID_PER_UNIT)
		cf_case_param(c, "asymmetric_quantize_inputs=%s",
			      kind == HYBRID_ASYMMETRIC ? "true" : "false");
	if (kind == INT16X8_INT32_BIAS)
		cf_case_param(c, "quantized_bias_type=INT32");
}

/* The case of `kind` and the rest of its variant; `hard` (NULL but for
 * the hard variants) quantizes and fills it at its spot. */
static bool generate_kind(int32_t kind, int32_t rest, const cf_hard *hard,
			  cf_rng *rng, cf_case *c)
{
	int32_t bias_mode = rest % NUM_BIAS_MODES;
	bool keep = rest / NUM_BIAS_MODES % 2;
	opver_activation activation = cf_activation(rest / (NUM_BIAS_MODES * 2));
	/* int16: int16 activations, int8 weights and an int64 (or int32)
	 * bias, zero points 0; int8: integer activations, int8, uint8 or
	 * int16 */
	bool int16 = kind == INT16X8_PER_TENSOR || kind == INT16X8_PER_UNIT ||
		     kind == INT16X8_INT32_BIAS;
	bool uint8 = kind == UINT8 || kind == UINT8_INT16;
	bool int8 = kind == INT8_PER_TENSOR || kind == INT8_PER_UNIT || uint8 ||
		    int16;
	bool hybrid = kind >= HYBRID_PER_TENSOR && kind <= HYBRID_PER_UNIT;
	bool per_unit = kind == INT8_PER_UNIT || kind == HYBRID_PER_UNIT ||
			kind == INT16X8_PER_UNIT || kind == INT16X8_INT32_BIAS;
	int32_t zero = uint8 ? 128 : 0;
	opver_type data = uint8 ? OPVER_TYPE_UINT8 :
			  int16 ? OPVER_TYPE_INT16 :
			  int8	? OPVER_TYPE_INT8 :
				  OPVER_TYPE_FLOAT32;
	/* The int16 output of uint8 has zero point 0 and a scale for its
	 * range, 256 times finer than uint8's. */
	bool int16_output = kind == UINT8_INT16;
	opver_type out_type = int16_output ? OPVER_TYPE_INT16 : data;
	/* A hard case plants its first and last units: at least one more
	 * is left to land on ties. */
	int32_t units = cf_rng_int(rng, hard != NULL ? 3 : 2, 8);
	int32_t depth = cf_rng_int(rng, 1, 8);
	int32_t in_rank = cf_rng_int(rng, 2, 3), in_dims[3], out_dims[3];
	int32_t out_rank, rows = 1, weights_dims[2] = { units, depth };
	int32_t input, weights, bias = -1, output;
	float input_scale = 0, mean = 0;

	for (int32_t d = 0; d + 1 < in_rank; d++) {
		in_dims[d] = cf_rng_int(rng, 1, 2);
		rows *= in_dims[d];
	}
	in_dims[in_rank - 1] = depth;
	if (keep) {
		out_rank = in_rank;
		for (int32_t d = 0; d + 1 < in_rank; d++)
			out_dims[d] = in_dims[d];
	} else {
		out_rank = 2;
		out_dims[0] = rows;
	}
	out_dims[out_rank - 1] = units;

	c->has_params = true;
	c->params.fully_connected = (opver_fully_connected_params){
		.activation = activation,
		.keep_num_dims = keep,
		.asymmetric_quantize_inputs = kind == HYBRID_ASYMMETRIC,
		.quantized_bias_type = kind == INT16X8_INT32_BIAS ?
					       OPVER_TYPE_INT32 :
					       OPVER_TYPE_FLOAT32,
	};
	input = cf_case_tensor(c, data, in_rank, in_dims);
	weights = cf_case_tensor(c, hybrid || int16 ? OPVER_TYPE_INT8 : data,
				 2, weights_dims);
	if (bias_mode == BIAS_PRESENT)
		bias = cf_case_tensor(c,
				      kind == INT16X8_INT32_BIAS ?
					      OPVER_TYPE_INT32 :
				      int16 ? OPVER_TYPE_INT64 :
				      int8  ? OPVER_TYPE_INT32 :
					      data,
				      1, &units);
	output = cf_case_tensor(c, out_type, out_rank, out_dims);
	cf_case_input(c, input);
	cf_case_input(c, weights);
	if (bias_mode != BIAS_ABSENT)
		cf_case_input(c, bias);
	c->output = output;

	if (hard != NULL) {
		const int32_t t[4] = { input, weights, bias, output };

		describe(c, kind, bias_mode, keep, activation);
		return cf_hard_filter_op(c, hard, rng, t, per_unit, 0, units,
					 depth);
	}
	if (int8) {
		input_scale = int16 ? cf_rng_float(rng, 1e-4f, 1e-3f) :
				      cf_rng_float(rng, 0.005f, 0.05f);
		if (!cf_case_quantize(c, input, input_scale,
				      int16 ? 0 :
					      cf_rng_int(rng, -10, 10) + zero))
			return false;
	}
	if ((int8 || hybrid) &&
	    !quantize_weights(c, rng, per_unit,
			      zero != 0 ? cf_rng_int(rng, -10, 10) + zero : 0,
			      weights, bias, units, input_scale, &mean))
		return false;
	if (int8 &&
	    !cf_case_quantize(c, output,
			      input_scale * mean * sqrtf((float)depth) *
				      (int16	    ? 460.0f :
				       int16_output ? 135.0f / 256 :
						      135.0f),
			      int16 || int16_output ?
				      0 :
				      cf_rng_int(rng, -10, 10) + zero))
		return false;
	if (int8) {
		if (!cf_case_fill(c, input, rng, int16 ? -32768 : -128,
				  int16 ? 32767 : 127, false) ||
		    !cf_case_fill(c, weights, rng, -127, 127, true) ||
		    (bias >= 0 && !cf_case_fill(c, bias, rng, -4000, 4000, true)))
			return false;
	} else if (!cf_case_fill(c, input, rng, -1, 1, false) ||
		   (hybrid ? !cf_case_fill(c, weights, rng, -127, 127, true) :
			     !cf_case_fill(c, weights, rng, -1, 1, true)) ||
		   (bias >= 0 && !cf_case_fill(c, bias, rng, -1, 1, true))) {
		return false;
	}
	if (!int8)
		plant_extremes(c, input, weights, bias, units, depth);
	describe(c, kind, bias_mode, keep, activation);
	return true;
}

#define VARIANTS_PER_KIND (NUM_BIAS_MODES * 2 * CF_NUM_ACTIVATIONS)

/* The hard variants (cases_hard.h) after all others: each quantized kind
 * with an int8, uint8 or int16 output at every spot, with a bias, the
 * activations and keep_num_dims taking turns. */
static const int32_t hard_kinds[] = {
	INT8_PER_TENSOR, INT8_PER_UNIT, UINT8, INT16X8_PER_TENSOR,
	INT16X8_PER_UNIT, INT16X8_INT32_BIAS,
};
#define NUM_HARD_KINDS ((int32_t)(sizeof(hard_kinds) / sizeof(hard_kinds[0])))

static bool generate_hard(int32_t variant, cf_rng *rng, cf_case *c)
{
	const int32_t kind = hard_kinds[variant % NUM_HARD_KINDS];
	const int32_t spot = variant / NUM_HARD_KINDS;
	const int32_t turn = variant % NUM_HARD_KINDS + spot;
	cf_hard hard;

	cf_hard_draw(&hard, spot, rng);
	return generate_kind(kind,
			     BIAS_PRESENT + NUM_BIAS_MODES *
						    (turn % 2 + 2 * (turn % CF_NUM_ACTIVATIONS)),
			     &hard, rng, c);
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	int32_t kind, rest;

	if (variant >= NUM_KINDS * VARIANTS_PER_KIND)
		return generate_hard(variant - NUM_KINDS * VARIANTS_PER_KIND,
				     rng, c);
	if (variant < INT16X8_PER_TENSOR * VARIANTS_PER_KIND)
		cf_variant_split(variant, UINT8, INT16X8_PER_TENSOR,
				 VARIANTS_PER_KIND, &kind, &rest);
	else if (variant < UINT8_INT16 * VARIANTS_PER_KIND)
		cf_variant_split(variant, INT16X8_PER_TENSOR, UINT8_INT16,
				 VARIANTS_PER_KIND, &kind, &rest);
	else
		cf_variant_split(variant, UINT8_INT16, NUM_KINDS,
				 VARIANTS_PER_KIND, &kind, &rest);
	return generate_kind(kind, rest, NULL, rng, c);
}

const cf_generator cf_fully_connected_cases = {
	.op = OPVER_OP_FULLY_CONNECTED,
	/* The hard variants' last spot is CF_SPOT_ABOVE_ONE: TFLite lets the
	 * rescale exceed 1, a left shift. */
	.num_variants = NUM_KINDS * VARIANTS_PER_KIND +
			NUM_HARD_KINDS * (CF_NUM_SPOTS + 1),
	.generate = generate,
};
