/*
 * op_version.c - TensorFlow Lite's operator-version rules, from
 * tensorflow/compiler/mlir/lite/tools/versioning: op_version.cc
 * (GetBuiltinOperatorVersion) and op_signature.cc (the per-op facts the
 * rules read: per-channel filters, grouped convolution, input_quantized,
 * MUL's scales).  The rules that are plain lists of tests are data in
 * op_version_rows.c; the release table is op_releases.c.
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
#include "op_version_rows.h"

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
	const rule_row *const all_end = opver__rule_rows + opver__num_rule_rows;
	int32_t inputs = 0, outputs = 0;

	for (const rule_row *row = opver__rule_rows; row < all_end; row++) {
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
	case OPVER_OP_IF:
	case OPVER_OP_WHILE:
	case OPVER_OP_CALL_ONCE:
	case OPVER_OP_VAR_HANDLE:
	case OPVER_OP_READ_VARIABLE:
	case OPVER_OP_ASSIGN_VARIABLE:
		return decided(&why, 1, "TFLite's rules give %s a single version",
			       opver_op_name(sig->op));
	default:
		version = rows_version(sig, &why);
		if (version > 0)
			return version;
		return decided(&why, 1,
			       "no version rule for %s here; 1 is TFLite's default",
			       opver_op_name(sig->op));
	}
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
