/*
 * op_version.c - TensorFlow Lite's operator-version rules and its table of
 * first runtime releases, from tensorflow/compiler/mlir/lite/tools/
 * versioning: op_version.cc (GetBuiltinOperatorVersion), op_signature.cc
 * (the per-op facts the rules read: per-channel filters, grouped
 * convolution, input_quantized, MUL's scales) and runtime_version.cc.
 *
 * Each rule tests TFLite's branches in TFLite's order, because the order
 * settles overlaps (an int8 FULLY_CONNECTED without a bias is version 6,
 * not 4), and every return says what decided it.
 *
 * opver_type has INT4 but neither INT2 nor UINT4, so the branches on those
 * types can never match a node and are left out: FULLY_CONNECTED 14 (int2
 * weights), QUANTIZE 5 (uint4), DEQUANTIZE 7 (int2) and 8 (uint4) and
 * CAST 8 (int2 or uint4 input or output).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_version.h"

/* Where a rule writes why it chose its version. */
typedef struct reason_buffer {
	char *text;     /* borrowed; size bytes */
	size_t size;
} reason_buffer;

/* Writes the reason and returns `version`, so a rule ends in one line. */
static int32_t decided(const reason_buffer *why, int32_t version,
		       const char *format, ...) OPVER__PRINTF(3, 4);

static int32_t decided(const reason_buffer *why, int32_t version,
		       const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(why->text, why->size, format, args);
	va_end(args);
	return version;
}

/* A type as reasons spell it: "int8", "float32"; "absent" for an omitted
 * input.  Returned by value so one call can format several. */
typedef struct type_word {
	char text[16];
} type_word;

static type_word word(int32_t type)
{
	type_word w = { "absent" };
	const char *name;
	size_t i;

	if (type < 0)
		return w;
	name = opver_type_name(type);
	for (i = 0; name[i] != '\0' && i + 1 < sizeof(w.text); i++)
		w.text[i] = (char)tolower((unsigned char)name[i]);
	w.text[i] = '\0';
	return w;
}

/*
 * Whether the node has the inputs and outputs its rule reads.  When not,
 * the reason says so and the rule answers 1: TFLite's rules would read
 * past the end of the node's tensor list.
 */
static bool has_tensors(const opver__op_signature *sig, int32_t inputs,
			int32_t outputs, const reason_buffer *why)
{
	if (sig->num_inputs >= inputs && sig->num_outputs >= outputs)
		return true;
	decided(why, 1,
		"%s needs %d input(s) and %d output(s) to apply its rules; the node has %d and %d",
		opver_op_name(sig->op), inputs, outputs, sig->num_inputs,
		sig->num_outputs);
	return false;
}

/* The rules' recurring test: input 0, input 1 and output 0 have these
 * types.  Only after has_tensors(sig, 2, 1). */
static bool types_are(const opver__op_signature *sig, int32_t input,
		      int32_t second, int32_t output)
{
	return sig->inputs[0].type == input && sig->inputs[1].type == second &&
	       sig->outputs[0].type == output;
}

/*
 * The last return of a rule: no branch matched, so the version is 1 and
 * the reason names the distinct types of the tensors the rules read
 * (inputs 0 and 1, output 0), e.g. "float32 tensors".
 */
static int32_t base_version(const opver__op_signature *sig,
			    const reason_buffer *why)
{
	const opver__tensor_signature *looked_at[3];
	int32_t types[3];
	int num_looked_at = 0, count = 0;

	for (int32_t i = 0; i < sig->num_inputs && i < 2; i++)
		looked_at[num_looked_at++] = &sig->inputs[i];
	if (sig->num_outputs > 0)
		looked_at[num_looked_at++] = &sig->outputs[0];
	for (int i = 0; i < num_looked_at; i++) {
		bool seen = false;

		for (int j = 0; j < count; j++)
			seen = seen || types[j] == looked_at[i]->type;
		if (!seen)
			types[count++] = looked_at[i]->type;
	}
	switch (count) {
	case 0:
		return decided(why, 1, "no tensors to tell a later version");
	case 1:
		return decided(why, 1, "%s tensors", word(types[0]).text);
	case 2:
		return decided(why, 1, "%s and %s tensors",
			       word(types[0]).text, word(types[1]).text);
	default:
		return decided(why, 1, "%s, %s and %s tensors",
			       word(types[0]).text, word(types[1]).text,
			       word(types[2]).text);
	}
}

/* Whether the struct behind sig->params holds the bytes up to `end`. */
static bool params_cover(const opver__op_signature *sig, size_t end)
{
	return sig->params != NULL && sig->params_size >= end;
}

/* Field `field` of the node's `type` parameter struct, or `fallback` (the
 * schema's default) when the struct is absent or too short to hold it. */
#define PARAM(sig, type, field, fallback)                               \
	(params_cover((sig), offsetof(type, field) +                     \
				     sizeof(((const type *)0)->field))  \
		 ? ((const type *)(sig)->params)->field                  \
		 : (fallback))

/*
 * Whether `t` has one scale per slice along dimension `axis`, a nonzero
 * count: TFLite's per-channel test.  Unlike TFLite, an axis outside the
 * shape is an answer (no), not a read past the shape.
 */
static bool scale_per_slice(const opver__tensor_signature *t, int32_t axis)
{
	return axis >= 0 && axis < t->rank && t->dims[axis] > 0 &&
	       t->quant_count == t->dims[axis];
}

/*
 * CONV_2D's grouped convolution: the filter's input channels are not
 * the input's (each group sees a share of them).  TFLite compares dimension 3 of any input with a
 * shape; a tensor of rank below 4 is no convolution it could run, so it
 * counts as not grouped here rather than being read past its shape.
 */
static bool is_grouped_convolution(const opver__tensor_signature *input,
				   const opver__tensor_signature *filter)
{
	return input->rank >= 4 && filter->rank >= 4 &&
	       input->dims[3] != filter->dims[3];
}

/*
 * The int16 branches of CONV_2D and DEPTHWISE_CONV_2D compare outputs.at(1)
 * in TFLite's source although both ops have a single output; output 0 is
 * evidently what is meant, and is what these rules test.
 */
static int32_t conv_2d_version(const opver__op_signature *sig,
			       const reason_buffer *why)
{
	const opver__tensor_signature *input, *filter;
	bool is_16x8;
	opver_type bias_type;

	if (!has_tensors(sig, 2, 1, why))
		return 1;
	input = &sig->inputs[0];
	filter = &sig->inputs[1];
	is_16x8 = types_are(sig, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
			    OPVER_TYPE_INT16);
	bias_type = PARAM(sig, opver_conv_params, quantized_bias_type, 0);
	if (is_16x8 && bias_type != 0)
		return decided(why, 8,
			       "quantized_bias_type %s with int16 input, int8 filter and int16 output",
			       word(bias_type).text);
	if (is_grouped_convolution(input, filter))
		return decided(why, 6,
			       "grouped convolution: input has %d channels, filter %d",
			       input->dims[3], filter->dims[3]);
	if (types_are(sig, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		      OPVER_TYPE_INT16))
		return decided(why, 4, "int16 input, filter and output");
	if (types_are(sig, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8))
		return decided(why, 3, "int8 input and filter, int8 output");
	if (types_are(sig, OPVER_TYPE_INT8, OPVER_TYPE_INT4, OPVER_TYPE_INT8))
		return decided(why, 7, "int4 filter with int8 input and output");
	if (types_are(sig, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		      OPVER_TYPE_FLOAT32)) {
		if (scale_per_slice(filter, 0))
			return decided(why, 5,
				       "per-channel int8 filter with float input (hybrid)");
		return decided(why, 2,
			       "per-tensor int8 filter with float input (hybrid)");
	}
	if (is_16x8)
		return decided(why, 1,
			       "int16 input, int8 filter and int16 output without quantized_bias_type: TFLite's rules give such a CONV_2D no later version");
	return base_version(sig, why);
}

static int32_t depthwise_conv_2d_version(const opver__op_signature *sig,
					 const reason_buffer *why)
{
	int32_t dilation_width, dilation_height;

	if (!has_tensors(sig, 2, 1, why))
		return 1;
	/* output 0 for TFLite's outputs.at(1): see conv_2d_version(). */
	if (types_are(sig, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		      OPVER_TYPE_INT16))
		return decided(why, 5, "int16 input, filter and output");
	if (types_are(sig, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		      OPVER_TYPE_FLOAT32)) {
		if (scale_per_slice(&sig->inputs[1], 3))
			return decided(why, 6,
				       "per-channel int8 filter with float input (hybrid)");
		return decided(why, 4,
			       "per-tensor int8 filter with float input (hybrid)");
	}
	if (types_are(sig, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8))
		return decided(why, 3, "int8 input and filter, int8 output");
	if (types_are(sig, OPVER_TYPE_INT8, OPVER_TYPE_INT4, OPVER_TYPE_INT8))
		return decided(why, 7, "int4 filter with int8 input and output");
	dilation_width = PARAM(sig, opver_depthwise_conv_params,
			       dilation_width, 1);
	dilation_height = PARAM(sig, opver_depthwise_conv_params,
				dilation_height, 1);
	if (dilation_width != 1 || dilation_height != 1)
		return decided(why, 2, "dilation %dx%d (width x height)",
			       dilation_width, dilation_height);
	return base_version(sig, why);
}

/*
 * EMBEDDING_LOOKUP's table is input 1; TFLite's "per-channel" table has
 * more than one scale, one per row (dimension 0).  Version 5 (int2 table)
 * has no opver type.
 */
static int32_t embedding_lookup_version(const opver__op_signature *sig,
					const reason_buffer *why)
{
	const opver__tensor_signature *table;

	if (!has_tensors(sig, 2, 0, why))
		return 1;
	table = &sig->inputs[1];
	if (table->type == OPVER_TYPE_INT4)
		return decided(why, 4, "int4 table");
	if (table->quant_count > 1 && scale_per_slice(table, 0))
		return decided(why, 4, "table quantized per row: %d scales",
			       table->quant_count);
	return base_version(sig, why);
}

/*
 * "No bias" is TFLite's inputs.size() == 2: an omitted bias written as
 * index -1 is still an entry of the node's input list (TFLite gives it
 * type kTfLiteNoType), so such a node stays below version 6 as in TFLite.
 */
static int32_t fully_connected_version(const opver__op_signature *sig,
				       const reason_buffer *why)
{
	const opver__tensor_signature *weights;
	bool is_16x8;
	opver_type bias_type;

	if (!has_tensors(sig, 2, 1, why))
		return 1;
	weights = &sig->inputs[1];
	is_16x8 = types_are(sig, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
			    OPVER_TYPE_INT16);
	bias_type = PARAM(sig, opver_fully_connected_params,
			  quantized_bias_type, 0);
	if (types_are(sig, OPVER_TYPE_INT16, OPVER_TYPE_INT4,
		      OPVER_TYPE_INT16))
		return decided(why, 13,
			       "int4 weights with int16 input and output");
	/* More than one scale, as tensorflow/lite/tools/versioning asks; the
	 * copy under compiler/mlir drops that test, which would call the
	 * single scale of a one-unit layer per-channel. */
	if (types_are(sig, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		      OPVER_TYPE_FLOAT32) &&
	    weights->quant_count > 1 && scale_per_slice(weights, 0))
		return decided(why, 12,
			       "per-channel int8 weights with float input (hybrid)");
	if (is_16x8 && bias_type != 0)
		return decided(why, 11,
			       "quantized_bias_type %s with int16 input, int8 weights and int16 output",
			       word(bias_type).text);
	if (weights->is_sparse)
		return decided(why, 8, "sparse weights");
	if (types_are(sig, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		      OPVER_TYPE_INT16))
		return decided(why, 7, "int16 input, weights and output");
	if (sig->num_inputs == 2)
		return decided(why, 6, "no bias input");
	if (PARAM(sig, opver_fully_connected_params, keep_num_dims, false))
		return decided(why, 5, "keep_num_dims");
	if (types_are(sig, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8))
		return decided(why, 4, "int8 input and weights, int8 output");
	if (types_are(sig, OPVER_TYPE_INT8, OPVER_TYPE_INT4, OPVER_TYPE_INT8))
		return decided(why, 10,
			       "int4 weights with int8 input and output");
	if (types_are(sig, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		      OPVER_TYPE_FLOAT32)) {
		if (PARAM(sig, opver_fully_connected_params,
			  asymmetric_quantize_inputs, false))
			return decided(why, 9,
				       "asymmetric_quantize_inputs with int8 weights and float input (hybrid)");
		return decided(why, 3,
			       "per-tensor int8 weights with float input (hybrid)");
	}
	if (PARAM(sig, opver_fully_connected_params, weights_format,
		  OPVER_FC_WEIGHTS_DEFAULT) ==
	    OPVER_FC_WEIGHTS_SHUFFLED4x16INT8)
		return decided(why, 2, "shuffled 4x16 int8 weights format");
	if (is_16x8)
		return decided(why, 1,
			       "int16 input, int8 weights and int16 output without quantized_bias_type: TFLite's rules give such a FULLY_CONNECTED no later version");
	return base_version(sig, why);
}

/*
 * TFLite's input_quantized is input 0 having a quantization table at all:
 * an int16 ADD without one is plain integer addition (version 5).
 */
static int32_t add_version(const opver__op_signature *sig,
			   const reason_buffer *why)
{
	const opver__tensor_signature *input;

	if (!has_tensors(sig, 1, 1, why))
		return 1;
	input = &sig->inputs[0];
	if (input->type == OPVER_TYPE_FLOAT16)
		return decided(why, 6, "float16 input");
	if (input->type == OPVER_TYPE_INT16 && !input->has_quantization)
		return decided(why, 5,
			       "int16 input without quantization (integer add)");
	if (input->type == OPVER_TYPE_INT64)
		return decided(why, 4, "int64 input");
	if (input->type == OPVER_TYPE_INT16 &&
	    sig->outputs[0].type == OPVER_TYPE_INT16) {
		if (!PARAM(sig, opver_add_params, pot_scale_int16, true))
			return decided(why, 3,
				       "pot_scale_int16 false with int16 tensors");
		return decided(why, 1,
			       "pot_scale_int16 true with quantized int16 tensors: TFLite's rules give no later version");
	}
	if (input->type == OPVER_TYPE_INT8)
		return decided(why, 2, "int8 input");
	return base_version(sig, why);
}

/*
 * MUL's facts, as TFLite's op signature derives them only for a node with
 * two inputs and an output: whether either input has a quantization table,
 * and input1 scale * input2 scale / output scale from their first scales,
 * 0 when one of them has none (or a zero scale).
 */
static bool mul_input_quantized(const opver__op_signature *sig)
{
	return sig->num_inputs >= 2 && sig->num_outputs >= 1 &&
	       (sig->inputs[0].has_quantization ||
		sig->inputs[1].has_quantization);
}

static float mul_rescale(const opver__op_signature *sig)
{
	const opver__tensor_signature *a, *b, *out;

	if (sig->num_inputs < 2 || sig->num_outputs < 1)
		return 0;
	a = &sig->inputs[0];
	b = &sig->inputs[1];
	out = &sig->outputs[0];
	if (a->quant_count == 0 || b->quant_count == 0 ||
	    out->quant_count == 0 || a->scale[0] == 0 || b->scale[0] == 0 ||
	    out->scale[0] == 0)
		return 0;
	/* In float, as TFLite computes it. */
	return a->scale[0] * b->scale[0] / out->scale[0];
}

static int32_t mul_version(const opver__op_signature *sig,
			   const reason_buffer *why)
{
	int32_t type;
	float rescale;

	if (!has_tensors(sig, 1, 0, why))
		return 1;
	type = sig->inputs[0].type;
	if (type == OPVER_TYPE_FLOAT16)
		return decided(why, 8, "float16 input");
	if (type == OPVER_TYPE_INT16 && !mul_input_quantized(sig))
		return decided(why, 7,
			       "int16 inputs without quantization (integer multiply)");
	if (type == OPVER_TYPE_UINT32)
		return decided(why, 7, "uint32 input");
	if (type == OPVER_TYPE_COMPLEX64)
		return decided(why, 6, "complex64 input");
	if (type == OPVER_TYPE_INT64)
		return decided(why, 5, "int64 input");
	if (type == OPVER_TYPE_INT16)
		return decided(why, 4, "quantized int16 input");
	rescale = mul_rescale(sig);
	if (rescale >= 1.0f)
		return decided(why, 3,
			       "rescale input1 * input2 / output scale %g >= 1",
			       (double)rescale);
	if (type == OPVER_TYPE_INT8)
		return decided(why, 2, "int8 input");
	return base_version(sig, why);
}

/* QUANTIZE is per-channel when its output has more than one scale, one
 * per slice along its quantized dimension. */
static int32_t quantize_version(const opver__op_signature *sig,
				const reason_buffer *why)
{
	const opver__tensor_signature *output;

	if (!has_tensors(sig, 1, 1, why))
		return 1;
	output = &sig->outputs[0];
	if (sig->inputs[0].type == OPVER_TYPE_INT4)
		return decided(why, 4, "int4 input");
	if (output->type == OPVER_TYPE_INT4)
		return decided(why, 4, "int4 output");
	if (output->quant_count > 1 &&
	    scale_per_slice(output, output->quant_axis))
		return decided(why, 3,
			       "per-channel output: %d scales along dimension %d",
			       output->quant_count, output->quant_axis);
	if (output->type == OPVER_TYPE_INT16)
		return decided(why, 2, "int16 output");
	return base_version(sig, why);
}

/* DEQUANTIZE's per-channel test is QUANTIZE's, on its input. */
static int32_t dequantize_version(const opver__op_signature *sig,
				  const reason_buffer *why)
{
	const opver__tensor_signature *input;

	if (!has_tensors(sig, 1, 0, why))
		return 1;
	input = &sig->inputs[0];
	if (input->type == OPVER_TYPE_INT4)
		return decided(why, 6, "int4 input");
	if (input->type == OPVER_TYPE_INT16 ||
	    input->type == OPVER_TYPE_FLOAT16)
		return decided(why, 3, "%s input", word(input->type).text);
	if (input->type == OPVER_TYPE_INT8) {
		if (input->quant_count > 1 &&
		    scale_per_slice(input, input->quant_axis))
			return decided(why, 5,
				       "per-channel int8 input: %d scales along dimension %d",
				       input->quant_count, input->quant_axis);
		return decided(why, 2, "per-tensor int8 input");
	}
	return base_version(sig, why);
}

/*
 * Most of TFLite's rules are a list of tests in a fixed order, the first
 * branch whose tests all hold deciding the version.  Those rules are data
 * here: one row per branch, in TFLite's order, with the reason the row
 * gives.  An op with rows and no row that holds is version 1.  Rules that
 * derive facts (scales, per-channel filters, grouped convolution) are the
 * functions above.
 */
typedef enum rule_fact {
	FACT_NONE,        /* ends a row's tests */
	FACT_INPUT_TYPE,  /* input `index` has type `value` */
	FACT_OUTPUT_TYPE, /* output `index` has type `value` */
	FACT_INPUT_RANK_ABOVE, /* input `index` has more than `value` dims */
	FACT_INPUT_RANK_NOT,   /* input `index` has other than `value` dims */
	FACT_INPUT_RANK_IS,    /* input `index` has exactly `value` dims */
	FACT_ANY_RANK_ABOVE,   /* some input has more than `value` dims */
	FACT_INPUT_PRESENT,    /* optional input `index` is given */
	FACT_BROADCAST,   /* inputs 0 and 1 differ in shape */
	FACT_PARAM_SET,   /* the int32 parameter at byte `value` is nonzero */
	FACT_PARAM_CLEAR, /* the parameter struct is there and that int32 is
			   * 0: TFLite's "params && !params->field" */
	FACT_INPUT_QUANTIZED, /* input `index` has a quantization table,
			       * even an empty one: TFLite's input_quantized */
} rule_fact;

typedef struct rule_test {
	uint8_t fact;  /* a rule_fact */
	uint8_t index;
	int16_t value;
} rule_test;

#define RULE_MAX_TESTS 4

typedef struct rule_row {
	int16_t op;
	int16_t version;
	rule_test tests[RULE_MAX_TESTS];
	const char *reason;
} rule_row;

#define IN(i, type) { FACT_INPUT_TYPE, i, OPVER_TYPE_##type }
#define OUT(type) { FACT_OUTPUT_TYPE, 0, OPVER_TYPE_##type }
#define RANK_ABOVE(i, n) { FACT_INPUT_RANK_ABOVE, i, n }
#define RANK_NOT(i, n) { FACT_INPUT_RANK_NOT, i, n }
#define RANK_IS(i, n) { FACT_INPUT_RANK_IS, i, n }
#define ANY_RANK_ABOVE(n) { FACT_ANY_RANK_ABOVE, 0, n }
#define PRESENT(i) { FACT_INPUT_PRESENT, i, 0 }
#define QUANTIZED(i) { FACT_INPUT_QUANTIZED, i, 0 }
#define BROADCAST { FACT_BROADCAST, 0, 0 }
#define SET(params, field) { FACT_PARAM_SET, 0, offsetof(params, field) }
#define CLEAR(params, field) \
	{ FACT_PARAM_CLEAR, 0, offsetof(params, field) }
/* A row without tests: what an op is when no row above it holds. */
#define ALWAYS { FACT_NONE, 0, 0 }
#define ROW(op, version, reason, ...) \
	{ OPVER_OP_##op, version, { __VA_ARGS__ }, reason }

static const rule_row rule_rows[] = {
	ROW(AVERAGE_POOL_2D, 3, "int16 input and output", IN(0, INT16),
	    OUT(INT16)),
	ROW(AVERAGE_POOL_2D, 2, "int8 input", IN(0, INT8)),
	ROW(MAX_POOL_2D, 3, "int16 input and output", IN(0, INT16),
	    OUT(INT16)),
	ROW(MAX_POOL_2D, 2, "int8 input", IN(0, INT8)),
	ROW(SOFTMAX, 3, "int16 input", IN(0, INT16)),
	ROW(SOFTMAX, 2, "int8 input", IN(0, INT8)),
	ROW(SUB, 5, "pot_scale_int16 false with int16 tensors", IN(0, INT16),
	    OUT(INT16), CLEAR(opver_sub_params, pot_scale_int16)),
	ROW(SUB, 4, "int64 input", IN(0, INT64)),
	ROW(SUB, 3, "broadcasting with an input of more than 4 dimensions",
	    BROADCAST, ANY_RANK_ABOVE(4)),
	ROW(SUB, 2, "int8 input", IN(0, INT8)),
	ROW(DIV, 2, "broadcasting with an input of more than 4 dimensions",
	    BROADCAST, ANY_RANK_ABOVE(4)),
	ROW(MAXIMUM, 4, "int16 input and output", IN(0, INT16), OUT(INT16)),
	ROW(MAXIMUM, 3, "broadcasting with an input of more than 4 dimensions",
	    BROADCAST, ANY_RANK_ABOVE(4)),
	ROW(MAXIMUM, 2, "int8 input", IN(0, INT8)),
	ROW(MINIMUM, 4, "int16 input and output", IN(0, INT16), OUT(INT16)),
	ROW(MINIMUM, 3, "broadcasting with an input of more than 4 dimensions",
	    BROADCAST, ANY_RANK_ABOVE(4)),
	ROW(MINIMUM, 2, "int8 input", IN(0, INT8)),
	ROW(SQUARED_DIFFERENCE, 2, "int8 input", IN(0, INT8)),
	ROW(RELU, 3, "int16 input", IN(0, INT16)),
	ROW(RELU, 2, "int8 input", IN(0, INT8)),
	ROW(RELU, 2, "uint8 input", IN(0, UINT8)),
	ROW(TANH, 3, "int16 input and output", IN(0, INT16), OUT(INT16)),
	ROW(TANH, 2, "int8 input", IN(0, INT8)),
	ROW(LOGISTIC, 3, "int16 input and output", IN(0, INT16), OUT(INT16)),
	ROW(LOGISTIC, 2, "int8 input", IN(0, INT8)),
	ROW(LEAKY_RELU, 2, "int16 input", IN(0, INT16)),
	ROW(RELU6, 3, "int16 input", IN(0, INT16)),
	ROW(RELU6, 2, "int8 input", IN(0, INT8)),
	ROW(LOG_SOFTMAX, 2, "int8 input", IN(0, INT8)),
	ROW(GELU, 2, "int8 input", IN(0, INT8)),
	ROW(GELU, 2, "uint8 input", IN(0, UINT8)),
	ROW(MEAN, 3, "int16 input", IN(0, INT16)),
	ROW(MEAN, 2, "int8 input", IN(0, INT8)),
	ROW(REDUCE_MAX, 3, "int16 input", IN(0, INT16)),
	ROW(REDUCE_MAX, 2, "int8 input", IN(0, INT8)),
	ROW(REDUCE_MIN, 3, "int16 input", IN(0, INT16)),
	ROW(REDUCE_MIN, 2, "int8 input", IN(0, INT8)),
	ROW(ARG_MAX, 3, "bool input", IN(0, BOOL)),
	ROW(ARG_MAX, 2, "int8 input", IN(0, INT8)),
	ROW(ARG_MIN, 3, "bool input", IN(0, BOOL)),
	ROW(ARG_MIN, 2, "int8 input", IN(0, INT8)),
	ROW(SUM, 2, "int8 input", IN(0, INT8)),
	ROW(REDUCE_PROD, 2, "int8 input", IN(0, INT8)),
	ROW(REDUCE_PROD, 2, "int16 input", IN(0, INT16)),
	ROW(GATHER, 7, "int4 input", IN(0, INT4)),
	ROW(GATHER, 6, "int16 positions", IN(1, INT16)),
	ROW(GATHER, 5, "batch_dims is not 0",
	    SET(opver_gather_params, batch_dims)),
	ROW(GATHER, 4, "int16 input", IN(0, INT16)),
	ROW(GATHER, 3, "bool input", IN(0, BOOL)),
	ROW(GATHER, 2, "int8 input", IN(0, INT8)),
	ROW(TILE, 3, "int8 input", IN(0, INT8)),
	ROW(TILE, 2, "string input", IN(0, STRING)),
	ROW(SPACE_TO_BATCH_ND, 4, "int16 input", IN(0, INT16)),
	ROW(SPACE_TO_BATCH_ND, 3, "input of rank other than 4",
	    RANK_NOT(0, 4)),
	ROW(SPACE_TO_BATCH_ND, 2, "int8 input", IN(0, INT8)),
	ROW(BATCH_TO_SPACE_ND, 4, "int16 input", IN(0, INT16)),
	ROW(BATCH_TO_SPACE_ND, 3, "input of rank other than 4",
	    RANK_NOT(0, 4)),
	ROW(BATCH_TO_SPACE_ND, 2, "int8 input", IN(0, INT8)),
	ROW(GATHER_ND, 5, "bool params", IN(0, BOOL)),
	ROW(GATHER_ND, 4, "int16 indices", IN(1, INT16)),
	ROW(GATHER_ND, 3, "int16 params", IN(0, INT16)),
	ROW(GATHER_ND, 2, "string params", IN(0, STRING)),
	/* TFLite reads FILL's value only when the node has it; FILL takes
	 * it always, so a node without it is version 1 here too. */
	ROW(FILL, 4, "float16 value", IN(1, FLOAT16)),
	ROW(FILL, 3, "int8 value", IN(1, INT8)),
	ROW(FILL, 3, "int16 value", IN(1, INT16)),
	ROW(FILL, 2, "bool value", IN(1, BOOL)),
	ROW(FILL, 2, "string value", IN(1, STRING)),
	ROW(EQUAL, 5, "int16 input", IN(0, INT16)),
	ROW(EQUAL, 3, "string input", IN(0, STRING)),
	ROW(EQUAL, 2, "int8 input", IN(0, INT8)),
	ROW(NOT_EQUAL, 4, "int16 input", IN(0, INT16)),
	ROW(NOT_EQUAL, 3, "string input", IN(0, STRING)),
	ROW(NOT_EQUAL, 2, "int8 input", IN(0, INT8)),
	ROW(SPACE_TO_DEPTH, 2, "int8 input", IN(0, INT8)),
	ROW(DEPTH_TO_SPACE, 2, "int8 input", IN(0, INT8)),
	ROW(LESS, 3, "int16 input", IN(0, INT16)),
	ROW(LESS, 2, "int8 input", IN(0, INT8)),
	ROW(GREATER_EQUAL, 3, "int16 input", IN(0, INT16)),
	ROW(GREATER_EQUAL, 2, "int8 input", IN(0, INT8)),
	ROW(GREATER, 2, "int8 input", IN(0, INT8)),
	ROW(LESS_EQUAL, 2, "int8 input", IN(0, INT8)),
	/* Version 1 was withdrawn, so every BROADCAST_TO is at least 2. */
	ROW(BROADCAST_TO, 3, "int8 input", IN(0, INT8)),
	ROW(BROADCAST_TO, 3, "int16 input", IN(0, INT16)),
	ROW(BROADCAST_TO, 2,
	    "BROADCAST_TO starts at version 2 (version 1 was withdrawn)",
	    ALWAYS),
	ROW(CAST, 7, "bfloat16 input", IN(0, BFLOAT16)),
	ROW(CAST, 7, "bfloat16 output", OUT(BFLOAT16)),
	ROW(CAST, 6, "int4 input and float32 output", IN(0, INT4),
	    OUT(FLOAT32)),
	ROW(CAST, 5, "float64 input", IN(0, FLOAT64)),
	ROW(CAST, 5, "float64 output", OUT(FLOAT64)),
	ROW(CAST, 5, "float16 input", IN(0, FLOAT16)),
	ROW(CAST, 5, "float16 output", OUT(FLOAT16)),
	ROW(CAST, 4, "uint16 input", IN(0, UINT16)),
	ROW(CAST, 4, "uint16 output", OUT(UINT16)),
	ROW(CAST, 3, "int8 input", IN(0, INT8)),
	ROW(CAST, 3, "int8 output", OUT(INT8)),
	ROW(CAST, 2, "uint32 input", IN(0, UINT32)),
	ROW(CAST, 2, "uint32 output", OUT(UINT32)),
	ROW(TRANSPOSE, 8, "input of more than 6 dimensions",
	    RANK_ABOVE(0, 6)),
	ROW(TRANSPOSE, 8, "bfloat16 input", IN(0, BFLOAT16)),
	ROW(TRANSPOSE, 7, "int4 input", IN(0, INT4)),
	ROW(TRANSPOSE, 6, "input of 6 dimensions", RANK_ABOVE(0, 5)),
	ROW(TRANSPOSE, 5, "int16 input", IN(0, INT16)),
	ROW(TRANSPOSE, 4, "input of 5 dimensions", RANK_ABOVE(0, 4)),
	ROW(TRANSPOSE, 3, "bool input", IN(0, BOOL)),
	ROW(TRANSPOSE, 2, "int8 input", IN(0, INT8)),
	/* SPLIT's data is input 1; input 0 is the axis. */
	ROW(SPLIT, 4, "int16 input", IN(1, INT16)),
	ROW(SPLIT, 3, "int32 input", IN(1, INT32)),
	ROW(SPLIT, 2, "int8 input", IN(1, INT8)),
	ROW(SLICE, 7, "int4 input", IN(0, INT4)),
	ROW(SLICE, 6, "uint32 input", IN(0, UINT32)),
	ROW(SLICE, 5, "input of more than 4 dimensions", RANK_ABOVE(0, 4)),
	ROW(SLICE, 4, "int16 input", IN(0, INT16)),
	ROW(SLICE, 3, "string input", IN(0, STRING)),
	ROW(SLICE, 2, "int8 input", IN(0, INT8)),
	ROW(UNPACK, 2, "int8 input", IN(0, INT8)),
	ROW(UNPACK, 2, "uint8 input", IN(0, UINT8)),
	ROW(UNPACK, 3, "bool input", IN(0, BOOL)),
	ROW(UNPACK, 4, "int16 input and output", IN(0, INT16), OUT(INT16)),
	ROW(UNPACK, 5, "float16 input", IN(0, FLOAT16)),
	ROW(UNPACK, 5, "bfloat16 input", IN(0, BFLOAT16)),
	ROW(STRIDED_SLICE, 8, "offset: end counts from begin",
	    SET(opver_strided_slice_params, offset)),
	ROW(STRIDED_SLICE, 7, "uint32 input", IN(0, UINT32)),
	ROW(STRIDED_SLICE, 6, "ellipsis_mask set",
	    SET(opver_strided_slice_params, ellipsis_mask)),
	ROW(STRIDED_SLICE, 6, "new_axis_mask set",
	    SET(opver_strided_slice_params, new_axis_mask)),
	ROW(STRIDED_SLICE, 5, "string input", IN(0, STRING)),
	ROW(STRIDED_SLICE, 4, "input of more than 4 dimensions",
	    RANK_ABOVE(0, 4)),
	ROW(STRIDED_SLICE, 3, "bool input", IN(0, BOOL)),
	ROW(STRIDED_SLICE, 2, "int8 input", IN(0, INT8)),
	ROW(REVERSE_V2, 3, "int8 input", IN(0, INT8)),
	ROW(REVERSE_V2, 2, "bool input", IN(0, BOOL)),
	ROW(PACK, 2, "int8 input", IN(0, INT8)),
	ROW(PACK, 3, "int16 input and output", IN(0, INT16), OUT(INT16)),
	ROW(PACK, 4, "uint32 input", IN(0, UINT32)),
	ROW(SQUEEZE, 2, "string input", IN(0, STRING)),
	ROW(PAD, 5, "bool input", IN(0, BOOL)),
	ROW(PAD, 4, "input of more than 4 dimensions", RANK_ABOVE(0, 4)),
	ROW(PAD, 3, "int16 input", IN(0, INT16)),
	ROW(PAD, 2, "int8 input", IN(0, INT8)),
	ROW(PADV2, 5, "bool input", IN(0, BOOL)),
	ROW(PADV2, 4, "input of more than 4 dimensions", RANK_ABOVE(0, 4)),
	ROW(PADV2, 3, "int16 input", IN(0, INT16)),
	ROW(PADV2, 2, "int8 input", IN(0, INT8)),
	ROW(CONCATENATION, 5, "int4 input", IN(0, INT4)),
	ROW(CONCATENATION, 4, "uint32 input", IN(0, UINT32)),
	ROW(CONCATENATION, 3, "int16 input", IN(0, INT16)),
	ROW(CONCATENATION, 2, "int8 input", IN(0, INT8)),
	ROW(MIRROR_PAD, 3, "int16 input", IN(0, INT16)),
	ROW(MIRROR_PAD, 2, "int8 input", IN(0, INT8)),
	ROW(SPLIT_V, 2, "int8 input", IN(0, INT8)),
	ROW(FLOOR_DIV, 3, "int16 input", IN(0, INT16)),
	ROW(FLOOR_DIV, 3, "int8 input", IN(0, INT8)),
	ROW(FLOOR_DIV, 2, "float32 input", IN(0, FLOAT32)),
	ROW(FLOOR_MOD, 2, "int16 input", IN(0, INT16)),
	ROW(FLOOR_MOD, 2, "int8 input", IN(0, INT8)),
	ROW(L2_NORMALIZATION, 2, "int8 output", OUT(INT8)),
	ROW(RESIZE_BILINEAR, 4, "int16 input", IN(0, INT16)),
	ROW(RESIZE_BILINEAR, 3, "half_pixel_centers",
	    SET(opver_resize_bilinear_params, half_pixel_centers)),
	ROW(RESIZE_BILINEAR, 2, "int8 input", IN(0, INT8)),
	ROW(RESIZE_NEAREST_NEIGHBOR, 4, "int16 input", IN(0, INT16)),
	ROW(RESIZE_NEAREST_NEIGHBOR, 3, "half_pixel_centers",
	    SET(opver_resize_nearest_neighbor_params, half_pixel_centers)),
	ROW(RESIZE_NEAREST_NEIGHBOR, 3, "align_corners",
	    SET(opver_resize_nearest_neighbor_params, align_corners)),
	ROW(RESIZE_NEAREST_NEIGHBOR, 2, "int8 input", IN(0, INT8)),
	/* TFLite tests input 0, the int32 output_shape tensor, for int16:
	 * as published, version 5 needs a node no TRANSPOSE_CONV kernel
	 * accepts. */
	ROW(TRANSPOSE_CONV, 5,
	    "quantized_bias_type with int16 input 0, int8 filter and int16 output",
	    IN(0, INT16), IN(1, INT8), OUT(INT16),
	    SET(opver_transpose_conv_params, quantized_bias_type)),
	ROW(TRANSPOSE_CONV, 4, "fused activation",
	    SET(opver_transpose_conv_params, activation)),
	ROW(TRANSPOSE_CONV, 3, "bias input", PRESENT(3)),
	ROW(TRANSPOSE_CONV, 2, "int8 filter", IN(1, INT8)),
	/* TFLite tests SELECT's input 0, the BOOL condition, for uint32 and
	 * int8: as published, versions 4 and 2 need a node no SELECT kernel
	 * accepts (the data's types are evidently what is meant). */
	ROW(SELECT, 4, "uint32 input 0", IN(0, UINT32)),
	ROW(SELECT, 3, "condition of 5 dimensions", RANK_IS(0, 5)),
	ROW(SELECT, 3, "input 2 of 5 dimensions", RANK_IS(1, 5)),
	ROW(SELECT, 3, "input 3 of 5 dimensions", RANK_IS(2, 5)),
	ROW(SELECT, 2, "int8 input 0", IN(0, INT8)),
	/* As for SELECT: input 0 is the condition. */
	ROW(SELECT_V2, 2, "uint32 input 0", IN(0, UINT32)),
	ROW(BATCH_MATMUL, 3, "int16 input", IN(0, INT16)),
	ROW(BATCH_MATMUL, 2, "int8 input", IN(0, INT8)),
	ROW(BATCH_MATMUL, 4,
	    "asymmetric_quantize_inputs with int8 y and float x (hybrid)",
	    IN(0, FLOAT32), IN(1, INT8), OUT(FLOAT32),
	    SET(opver_batch_matmul_params, asymmetric_quantize_inputs)),
	ROW(SIGN, 2, "int32 input", IN(0, INT32)),
	/* TFLite reads ABS's input_quantized only for int16. */
	ROW(ABS, 5, "int32 input", IN(0, INT32)),
	ROW(ABS, 3, "quantized int16 input", IN(0, INT16), QUANTIZED(0)),
	ROW(ABS, 4, "int16 input without quantization (integer abs)",
	    IN(0, INT16)),
	ROW(ABS, 2, "int8 input", IN(0, INT8)),
	ROW(ABS, 2, "uint8 input", IN(0, UINT8)),
	ROW(RSQRT, 3, "int16 input", IN(0, INT16)),
	ROW(RSQRT, 2, "int8 input", IN(0, INT8)),
	ROW(EXP, 2, "int8 input", IN(0, INT8)),
	ROW(EXP, 2, "int16 input", IN(0, INT16)),
	ROW(LOG, 2, "int8 input", IN(0, INT8)),
	ROW(LOG, 2, "int16 input", IN(0, INT16)),
	ROW(SQRT, 2, "int8 input", IN(0, INT8)),
	ROW(SQRT, 2, "int16 input", IN(0, INT16)),
	ROW(DYNAMIC_UPDATE_SLICE, 6, "bfloat16 operand", IN(0, BFLOAT16)),
	ROW(DYNAMIC_UPDATE_SLICE, 5, "int4 operand", IN(0, INT4)),
	ROW(DYNAMIC_UPDATE_SLICE, 4, "int16 operand", IN(0, INT16)),
	ROW(DYNAMIC_UPDATE_SLICE, 3, "float16 operand", IN(0, FLOAT16)),
	ROW(DYNAMIC_UPDATE_SLICE, 2, "int64 start indices", IN(2, INT64)),
};
#define RULE_ROWS_END (rule_rows + sizeof(rule_rows) / sizeof(rule_rows[0]))

static bool same_shape(const opver__tensor_signature *a,
		       const opver__tensor_signature *b)
{
	return a->rank == b->rank &&
	       (a->rank == 0 ||
		memcmp(a->dims, b->dims, (size_t)a->rank * sizeof(int32_t)) ==
			0);
}

/* Whether `test` holds; the node has every tensor it names but an
 * optional one. */
static bool test_holds(const opver__op_signature *sig, const rule_test *test)
{
	const opver__tensor_signature *in = &sig->inputs[0];

	switch (test->fact) {
	case FACT_INPUT_TYPE:
		return sig->inputs[test->index].type == test->value;
	case FACT_OUTPUT_TYPE:
		return sig->outputs[test->index].type == test->value;
	case FACT_INPUT_RANK_ABOVE:
		return sig->inputs[test->index].rank > test->value;
	case FACT_INPUT_RANK_NOT:
		return sig->inputs[test->index].rank != test->value;
	case FACT_INPUT_RANK_IS:
		return sig->inputs[test->index].rank == test->value;
	case FACT_ANY_RANK_ABOVE:
		for (int32_t i = 0; i < sig->num_inputs; i++)
			if (in[i].type >= 0 && in[i].rank > test->value)
				return true;
		return false;
	case FACT_INPUT_PRESENT:
		return test->index < sig->num_inputs &&
		       sig->inputs[test->index].type >= 0;
	case FACT_BROADCAST:
		return !same_shape(&in[0], &in[1]);
	case FACT_INPUT_QUANTIZED:
		return sig->inputs[test->index].has_quantization;
	case FACT_PARAM_SET:
	case FACT_PARAM_CLEAR:
		return params_cover(sig, (size_t)test->value + sizeof(int32_t)) &&
		       (*(const int32_t *)((const char *)sig->params +
					   test->value) != 0) ==
			       (test->fact == FACT_PARAM_SET);
	default:
		return false;
	}
}

/* Raises *inputs and *outputs to the tensors `test` reads; optional
 * inputs and whole-node facts read none that must be there. */
static void tensors_read(const rule_test *test, int32_t *inputs,
			 int32_t *outputs)
{
	int32_t *count = NULL, needed = test->index + 1;

	switch (test->fact) {
	case FACT_INPUT_TYPE:
	case FACT_INPUT_RANK_ABOVE:
	case FACT_INPUT_RANK_NOT:
	case FACT_INPUT_RANK_IS:
	case FACT_INPUT_QUANTIZED:
		count = inputs;
		break;
	case FACT_BROADCAST:
		count = inputs;
		needed = 2;
		break;
	case FACT_OUTPUT_TYPE:
		count = outputs;
		break;
	}
	if (count != NULL && *count < needed)
		*count = needed;
}

/* The version the rows of sig->op give, or -1 when the op has none.  A
 * node missing a tensor that a row reads is version 1, as has_tensors()
 * says. */
static int32_t rows_version(const opver__op_signature *sig,
			    const reason_buffer *why)
{
	const rule_row *first = NULL, *end = NULL;
	int32_t inputs = 0, outputs = 0;

	for (const rule_row *row = rule_rows; row < RULE_ROWS_END; row++) {
		if (row->op != sig->op)
			continue;
		if (first == NULL)
			first = row;
		end = row + 1;
		for (int t = 0; t < RULE_MAX_TESTS; t++)
			tensors_read(&row->tests[t], &inputs, &outputs);
	}
	if (first == NULL)
		return -1;
	if (!has_tensors(sig, inputs, outputs, why))
		return 1;
	for (const rule_row *row = first; row < end; row++) {
		bool holds = row->op == sig->op;

		for (int t = 0; t < RULE_MAX_TESTS && holds &&
				row->tests[t].fact != FACT_NONE;
		     t++)
			holds = test_holds(sig, &row->tests[t]);
		if (holds)
			return decided(why, row->version, "%s", row->reason);
	}
	return base_version(sig, why);
}

int32_t opver__op_required_version(const opver__op_signature *sig,
				   char *reason, size_t reason_size)
{
	const reason_buffer why = { reason, reason_size };
	int32_t version;

	switch (sig->op) {
	case OPVER_OP_CONV_2D:
		return conv_2d_version(sig, &why);
	case OPVER_OP_DEPTHWISE_CONV_2D:
		return depthwise_conv_2d_version(sig, &why);
	case OPVER_OP_EMBEDDING_LOOKUP:
		return embedding_lookup_version(sig, &why);
	case OPVER_OP_FULLY_CONNECTED:
		return fully_connected_version(sig, &why);
	case OPVER_OP_ADD:
		return add_version(sig, &why);
	case OPVER_OP_MUL:
		return mul_version(sig, &why);
	case OPVER_OP_QUANTIZE:
		return quantize_version(sig, &why);
	case OPVER_OP_DEQUANTIZE:
		return dequantize_version(sig, &why);
	case OPVER_OP_RESHAPE:
		return decided(&why, 1,
			       "TFLite's rules give RESHAPE a single version");
	case OPVER_OP_CUSTOM:
		return decided(&why, 1,
			       "custom ops are not versioned by TFLite's rules");
	default:
		version = rows_version(sig, &why);
		if (version > 0)
			return version;
		return decided(&why, 1,
			       "no version rule for %s here; 1 is TFLite's default",
			       opver_op_name(sig->op));
	}
}

/* The highest version runtime_version.cc lists for any op. */
#define RUNTIME_TABLE_VERSIONS 14

/*
 * TFLite's FindMinimumRuntimeVersionForOp table, one row per op by code:
 * entry v - 1 is the first release that runs version v, NULL where TFLite
 * lists none (BROADCAST_TO's version 1 was withdrawn).  TFLite's rows for
 * STABLEHLO_SHIFT_LEFT, STABLEHLO_CBRT and STABLEHLO_CASE are left out:
 * their codes are beyond opver_op.
 */
static const struct runtime_row {
	int32_t op;
	const char *first_release[RUNTIME_TABLE_VERSIONS];
} runtime_table[] = {
	{ OPVER_OP_ADD,
	  { "1.5.0", "1.14.0", "2.4.0", "2.6.0", "2.13.0", "2.23.0" } },
	{ OPVER_OP_AVERAGE_POOL_2D, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_CONCATENATION,
	  { "1.5.0", "1.14.0", "2.3.0", "2.14.0", "2.21.0" } },
	{ OPVER_OP_CONV_2D,
	  { "1.5.0", "1.14.0", "1.14.0", "2.3.0", "2.4.0", "2.9.0", "2.11.0",
	    "2.15.0" } },
	{ OPVER_OP_DEPTHWISE_CONV_2D,
	  { "1.5.0", "1.12.0", "1.14.0", "2.2.0", "2.3.0", "2.3.0",
	    "2.11.0" } },
	{ OPVER_OP_DEPTH_TO_SPACE, { "2.1.0", "2.5.0" } },
	{ OPVER_OP_DEQUANTIZE,
	  { "1.13.1", "1.14.0", "1.15.0", "2.2.0", "2.7.0", "2.18.0", "2.21.0",
	    "2.22.0" } },
	{ OPVER_OP_EMBEDDING_LOOKUP,
	  { "1.13.0", "1.14.0", "1.14.0", "2.18.0", "2.21.0" } },
	{ OPVER_OP_FLOOR, { "1.9.0" } },
	{ OPVER_OP_FULLY_CONNECTED,
	  { "1.5.0", "1.10.0", "1.14.0", "1.14.0", "2.0.0", "2.1.0", "2.3.0",
	    "2.3.0", "2.3.0", "2.11.0", "2.15.0", "2.17.0", "2.18.0",
	    "2.21.0" } },
	{ OPVER_OP_HASHTABLE_LOOKUP, { "1.5.0" } },
	{ OPVER_OP_L2_NORMALIZATION, { "1.5.0", "1.14.0" } },
	{ OPVER_OP_L2_POOL_2D, { "1.5.0" } },
	{ OPVER_OP_LOCAL_RESPONSE_NORMALIZATION, { "1.5.0" } },
	{ OPVER_OP_LOGISTIC, { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_LSH_PROJECTION, { "1.5.0" } },
	{ OPVER_OP_LSTM, { "1.7.0", "1.10.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_MAX_POOL_2D, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_MUL,
	  { "1.5.0", "1.14.0", "1.15.0", "2.3.0", "2.6.0", "2.11.0", "2.13.0",
	    "2.23.0" } },
	{ OPVER_OP_RELU, { "1.5.0", "2.1.0", "2.5.0" } },
	{ OPVER_OP_RELU_N1_TO_1, { "1.5.0" } },
	{ OPVER_OP_RELU6, { "1.5.0", "1.14.0", "2.5.0" } },
	{ OPVER_OP_RESHAPE, { "1.5.0" } },
	{ OPVER_OP_RESIZE_BILINEAR, { "1.7.0", "1.14.0", "2.2.0", "2.5.0" } },
	{ OPVER_OP_RNN, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_SOFTMAX, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_SPACE_TO_DEPTH, { "1.5.0", "1.14.0" } },
	{ OPVER_OP_SVDF, { "1.5.0", "1.14.0", "2.2.0", "2.3.0" } },
	{ OPVER_OP_TANH, { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_SKIP_GRAM, { "1.5.0" } },
	{ OPVER_OP_EMBEDDING_LOOKUP_SPARSE, { "1.5.0" } },
	{ OPVER_OP_PAD, { "1.5.0", "1.14.0", "2.4.0", "2.6.0", "2.20.0" } },
	{ OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN,
	  { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_GATHER,
	  { "1.6.0", "1.14.0", "1.15.0", "2.4.0", "2.5.0", "2.13.0",
	    "2.15.0" } },
	{ OPVER_OP_BATCH_TO_SPACE_ND,
	  { "1.6.0", "1.14.0", "2.3.0", "2.12.0" } },
	{ OPVER_OP_SPACE_TO_BATCH_ND,
	  { "1.6.0", "1.14.0", "2.3.0", "2.12.0" } },
	{ OPVER_OP_TRANSPOSE,
	  { "1.6.0", "1.14.0", "1.15.0", "2.3.0", "2.4.0", "2.12.0", "2.14.4",
	    "2.22.0" } },
	{ OPVER_OP_MEAN, { "1.6.0", "1.14.0", "2.4.0" } },
	{ OPVER_OP_SUB, { "1.6.0", "1.14.0", "2.3.0", "2.4.0", "2.4.0" } },
	{ OPVER_OP_DIV, { "1.6.0", "2.3.0" } },
	{ OPVER_OP_SQUEEZE, { "1.6.0", "2.5.0" } },
	{ OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
	  { "1.13.1", "1.14.0", "2.3.0", "2.12.0" } },
	{ OPVER_OP_STRIDED_SLICE,
	  { "1.6.0", "1.14.0", "2.1.0", "2.2.0", "2.5.0", "2.6.0", "2.14.0",
	    "2.14.0" } },
	{ OPVER_OP_BIDIRECTIONAL_SEQUENCE_RNN,
	  { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_EXP, { "1.7.0", "2.12.0" } },
	{ OPVER_OP_TOPK_V2, { "1.7.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_SPLIT, { "1.5.0", "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_LOG_SOFTMAX, { "1.14.0", "1.14.0" } },
	{ OPVER_OP_BIDIRECTIONAL_SEQUENCE_LSTM,
	  { "1.14.0", "1.14.0", "1.14.0" } },
	{ OPVER_OP_CAST,
	  { "1.5.0", "2.7.0", "2.8.0", "2.9.0", "2.12.0", "2.15.0", "2.17.0",
	    "2.21.0" } },
	{ OPVER_OP_PRELU, { "1.8.0" } },
	{ OPVER_OP_MAXIMUM, { "1.14.0", "1.14.0", "2.3.0", "2.3.0" } },
	{ OPVER_OP_ARG_MAX, { "1.9.0", "1.14.0", "2.9.0" } },
	{ OPVER_OP_MINIMUM, { "1.14.0", "1.14.0", "2.3.0", "2.3.0" } },
	{ OPVER_OP_LESS, { "1.14.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_NEG, { "1.9.0" } },
	{ OPVER_OP_PADV2, { "1.9.0", "1.14.0", "2.4.0", "2.6.0", "2.20.0" } },
	{ OPVER_OP_GREATER, { "1.14.0", "1.14.0" } },
	{ OPVER_OP_GREATER_EQUAL, { "1.14.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_LESS_EQUAL, { "1.14.0", "1.14.0" } },
	{ OPVER_OP_SELECT, { "1.14.0", "1.14.0", "2.12.0", "2.12.0" } },
	{ OPVER_OP_SLICE,
	  { "1.14.0", "1.14.0", "1.14.0", "2.4.0", "2.5.0", "2.14.0",
	    "2.21.0" } },
	{ OPVER_OP_SIN, { "1.9.0" } },
	{ OPVER_OP_TRANSPOSE_CONV,
	  { "1.9.0", "2.2.0", "2.3.0", "2.13.0", "2.15.0" } },
	{ OPVER_OP_SPARSE_TO_DENSE, { "1.9.0", "1.14.0", "1.15.0" } },
	{ OPVER_OP_TILE, { "1.10.1", "2.2.0", "2.8.0" } },
	{ OPVER_OP_EXPAND_DIMS, { "1.10.0" } },
	{ OPVER_OP_EQUAL, { "1.14.0", "1.14.0", "2.3.0", "2.13.0", "2.21.0" } },
	{ OPVER_OP_NOT_EQUAL, { "1.14.0", "1.14.0", "2.3.0", "2.21.0" } },
	{ OPVER_OP_LOG, { "1.14.0", "2.15.0" } },
	{ OPVER_OP_SUM, { "1.10.0", "1.15.0" } },
	{ OPVER_OP_SQRT, { "1.10.0", "2.21.0" } },
	{ OPVER_OP_RSQRT, { "1.10.0", "2.5.0", "2.15.0" } },
	{ OPVER_OP_SHAPE, { "1.10.0" } },
	{ OPVER_OP_POW, { "1.10.0" } },
	{ OPVER_OP_ARG_MIN, { "1.9.0", "1.14.0", "2.9.0" } },
	{ OPVER_OP_FAKE_QUANT, { "1.5.0", "1.10.0" } },
	{ OPVER_OP_REDUCE_PROD, { "1.11.0", "2.6.0" } },
	{ OPVER_OP_REDUCE_MAX, { "1.11.0", "1.14.0", "2.5.0" } },
	{ OPVER_OP_PACK, { "1.11.0", "1.14.0", "2.3.0", "2.13.0" } },
	{ OPVER_OP_LOGICAL_OR, { "1.11.0" } },
	{ OPVER_OP_ONE_HOT, { "1.11.0" } },
	{ OPVER_OP_LOGICAL_AND, { "1.11.0" } },
	{ OPVER_OP_LOGICAL_NOT, { "1.11.0" } },
	{ OPVER_OP_UNPACK, { "1.11.0", "1.14.0", "2.2.0", "2.3.0", "2.22.0" } },
	{ OPVER_OP_REDUCE_MIN, { "1.11.0", "1.14.0", "2.5.0" } },
	{ OPVER_OP_FLOOR_DIV, { "1.14.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_REDUCE_ANY, { "1.11.0" } },
	{ OPVER_OP_SQUARE, { "1.12.0" } },
	{ OPVER_OP_ZEROS_LIKE, { "1.12.0" } },
	{ OPVER_OP_FILL, { "1.13.0", "2.3.0", "2.5.0", "2.12.0" } },
	{ OPVER_OP_FLOOR_MOD, { "1.13.0", "2.13.0" } },
	{ OPVER_OP_RANGE, { "1.13.0", "2.14.0" } },
	{ OPVER_OP_RESIZE_NEAREST_NEIGHBOR,
	  { "1.13.1", "1.14.0", "2.3.0", "2.4.0" } },
	{ OPVER_OP_LEAKY_RELU, { "1.13.1", "2.3.0" } },
	{ OPVER_OP_SQUARED_DIFFERENCE, { "1.13.1", "2.5.0" } },
	{ OPVER_OP_MIRROR_PAD, { "1.13.1", "2.3.0", "2.12.0" } },
	{ OPVER_OP_ABS, { "1.13.0", "2.4.0", "2.5.0", "2.6.0", "2.12.0" } },
	{ OPVER_OP_SPLIT_V, { "1.13.1", "2.3.0" } },
	{ OPVER_OP_UNIQUE, { "1.14.0" } },
	{ OPVER_OP_CEIL, { "1.14.0" } },
	{ OPVER_OP_REVERSE_V2, { "1.14.0", "2.2.0", "2.5.0" } },
	{ OPVER_OP_ADD_N, { "1.14.0" } },
	{ OPVER_OP_GATHER_ND,
	  { "1.14.0", "2.3.0", "2.5.0", "2.13.0", "2.16.0" } },
	{ OPVER_OP_COS, { "1.14.0" } },
	{ OPVER_OP_WHERE, { "1.14.0", "2.8.0" } },
	{ OPVER_OP_RANK, { "1.14.0" } },
	{ OPVER_OP_ELU, { "1.14.0" } },
	{ OPVER_OP_REVERSE_SEQUENCE, { "1.14.0" } },
	{ OPVER_OP_MATRIX_DIAG, { "1.14.0" } },
	{ OPVER_OP_QUANTIZE,
	  { "1.14.0", "1.15.0", "2.7.0", "2.21.0", "2.21.0", "2.21.0" } },
	{ OPVER_OP_MATRIX_SET_DIAG, { "1.14.0" } },
	{ OPVER_OP_ROUND, { "1.14.0" } },
	{ OPVER_OP_HARD_SWISH, { "1.15.0" } },
	{ OPVER_OP_IF, { "1.15.0" } },
	{ OPVER_OP_WHILE, { "1.15.0" } },
	{ OPVER_OP_NON_MAX_SUPPRESSION_V4, { "2.1.0" } },
	{ OPVER_OP_NON_MAX_SUPPRESSION_V5, { "2.1.0" } },
	{ OPVER_OP_SCATTER_ND, { "2.1.0" } },
	{ OPVER_OP_SELECT_V2, { "2.2.0", "2.12.0" } },
	{ OPVER_OP_DENSIFY, { "2.2.0" } },
	{ OPVER_OP_SEGMENT_SUM, { "2.2.0" } },
	{ OPVER_OP_BATCH_MATMUL, { "2.3.0", "2.3.0", "2.4.0", "2.5.0" } },
	{ OPVER_OP_CUMSUM, { "2.4.0" } },
	{ OPVER_OP_CALL_ONCE, { "2.5.0" } },
	{ OPVER_OP_BROADCAST_TO, { NULL, "2.5.0", "2.5.0" } },
	{ OPVER_OP_RFFT2D, { "2.5.0" } },
	{ OPVER_OP_CONV_3D, { "2.5.0" } },
	{ OPVER_OP_IMAG, { "2.5.0" } },
	{ OPVER_OP_REAL, { "2.5.0" } },
	{ OPVER_OP_COMPLEX_ABS, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE_FIND, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE_IMPORT, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE_SIZE, { "2.5.0" } },
	{ OPVER_OP_REDUCE_ALL, { "2.6.0" } },
	{ OPVER_OP_CONV_3D_TRANSPOSE, { "2.6.0" } },
	{ OPVER_OP_VAR_HANDLE, { "2.6.0" } },
	{ OPVER_OP_READ_VARIABLE, { "2.6.0" } },
	{ OPVER_OP_ASSIGN_VARIABLE, { "2.6.0" } },
	{ OPVER_OP_BROADCAST_ARGS, { "2.6.0" } },
	{ OPVER_OP_RANDOM_STANDARD_NORMAL, { "2.8.0" } },
	{ OPVER_OP_BUCKETIZE, { "2.8.0" } },
	{ OPVER_OP_RANDOM_UNIFORM, { "2.8.0" } },
	{ OPVER_OP_MULTINOMIAL, { "2.8.0" } },
	{ OPVER_OP_GELU, { "2.9.0", "2.9.0" } },
	{ OPVER_OP_DYNAMIC_UPDATE_SLICE,
	  { "2.9.0", "2.17.0", "2.19.0", "2.20.0", "2.21.0", "2.22.0" } },
	{ OPVER_OP_RELU_0_TO_1, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_PROD, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_MAX, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_SUM, { "2.10.0" } },
	{ OPVER_OP_ATAN2, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_MIN, { "2.11.0" } },
	{ OPVER_OP_SIGN, { "2.11.0", "2.12.0" } },
	{ OPVER_OP_BITCAST, { "2.13.0" } },
	{ OPVER_OP_BITWISE_XOR, { "2.13.0" } },
	{ OPVER_OP_RIGHT_SHIFT, { "2.13.0" } },
	{ OPVER_OP_STABLEHLO_ADD, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_MULTIPLY, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_MAXIMUM, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_AND, { "2.17.0" } },
	{ OPVER_OP_STABLEHLO_MINIMUM, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_SCATTER, { "2.15.0" } },
	{ OPVER_OP_STABLEHLO_PAD, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_REDUCE_WINDOW, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_GATHER, { "2.16.0" } },
	{ OPVER_OP_DILATE, { "2.15.0" } },
	{ OPVER_OP_STABLEHLO_RNG_BIT_GENERATOR, { "2.15.0" } },
	{ OPVER_OP_REDUCE_WINDOW, { "2.15.0" } },
	{ OPVER_OP_STABLEHLO_COMPOSITE, { "2.17.0" } },
};

const char *opver__op_runtime_version(int32_t op, int32_t version)
{
	if (version < 1 || version > RUNTIME_TABLE_VERSIONS)
		return NULL;
	for (size_t i = 0; i < sizeof(runtime_table) / sizeof(runtime_table[0]);
	     i++)
		if (runtime_table[i].op == op)
			return runtime_table[i].first_release[version - 1];
	return NULL;
}

/*
 * Reads the component of a release string at *s ("14" of "1.14.0") and
 * moves *s to the next one, or to NULL after the last.  False when the
 * component is not a plain number ("0-rc1"): TFLite skips such
 * components in comparisons.
 */
static bool read_component(const char **s, long *value)
{
	const char *start = *s;
	const char *end = start + strcspn(start, ".");
	char *number_end;

	*value = strtol(start, &number_end, 10);
	*s = *end == '.' ? end + 1 : NULL;
	return end > start && isdigit((unsigned char)*start) &&
	       number_end == end;
}

/*
 * As TFLite's CompareRuntimeVersion: component by component while both
 * strings have one, skipping a pair that is not two numbers; then the
 * string with components left is the larger ("2.3" < "2.3.0").
 */
int opver__compare_runtime_versions(const char *a, const char *b)
{
	while (a != NULL && b != NULL) {
		long x, y;
		bool a_numeric = read_component(&a, &x);
		bool b_numeric = read_component(&b, &y);

		if (a_numeric && b_numeric && x != y)
			return x < y ? -1 : 1;
	}
	return (a != NULL) - (b != NULL);
}

/*
 * Graph tensors carry no sparsity: the model reader rejects sparse
 * tensors, so is_sparse is always false here.
 */
void opver__op_signature_from_graph(const opver__graph *graph,
				    int32_t node_index,
				    opver__op_signature *sig,
				    opver__tensor_signature *tensors)
{
	const opver__graph_node *node = &graph->nodes[node_index];

	for (int32_t i = 0; i < node->num_inputs + node->num_outputs; i++) {
		int32_t index = i < node->num_inputs
					? node->inputs[i]
					: node->outputs[i - node->num_inputs];
		const opver__graph_tensor *t;

		if (index < 0) {
			tensors[i] = (opver__tensor_signature){ .type = -1 };
			continue;
		}
		t = &graph->tensors[index];
		tensors[i] = (opver__tensor_signature){
			.type = t->type,
			.rank = t->rank,
			.dims = t->dims,
			.has_quantization = t->has_quantization,
			.quant_count = t->quant.count,
			.scale = t->quant.scale,
			.quant_axis = t->quant.axis,
			.is_sparse = false,
			.is_constant = t->constant_data != NULL,
		};
	}
	*sig = (opver__op_signature){
		.op = node->op,
		.params = node->params,
		.params_size = node->params_size,
		.num_inputs = node->num_inputs,
		.inputs = tensors,
		.num_outputs = node->num_outputs,
		.outputs = tensors + node->num_inputs,
	};
}
