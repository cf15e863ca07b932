/*
 * cases_softmax.c - SOFTMAX cases.
 *
 * Variants cross the types (float32 v1, int8 v2, int16 v3, uint8 v1, int8
 * to int16 v2, uint8 to int16 v1) with the rank (1-4).  Each case draws
 * the shape (last dimension 1-8, the others 1-3), beta (0.3-2), the input
 * quantization and the data.  The output quantization is the one TFLite
 * fixes: scale 1/256 and zero point -128 for int8 (0 for uint8), scale
 * 1/32768 and zero point 0 for int16, and scale 1/65536 and zero point
 * -32768 for an int16 output of an 8-bit input.
 */
#include "cases.h"

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

const cf_generator cf_softmax_cases = {
	.op = OPVER_OP_SOFTMAX,
	.num_variants = NUM_TYPES * MAX_RANK,
	.generate = generate,
};
