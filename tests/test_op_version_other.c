/*
 * test_op_version_other.c - TensorFlow Lite's version rules for the
 * "other" ops of issue 11: REVERSE_V2, CUMSUM, DYNAMIC_UPDATE_SLICE,
 * EMBEDDING_LOOKUP, BROADCAST_ARGS and SVDF (op_version.cc's branches, and its
 * op_signature.cc's per-channel test for EMBEDDING_LOOKUP's table); and
 * TOPK_V2's, ONE_HOT's, RANK's, ATAN2's, LOCAL_RESPONSE_NORMALIZATION's and
 * UNIDIRECTIONAL_SEQUENCE_RNN's and _LSTM's.
 */
#include <criterion/criterion.h>

#include "op_version_nodes.h"

static const int32_t axis_1[1] = { 1 };
static const int32_t table_3x2[2] = { 3, 2 };
static const int32_t ids_2[1] = { 2 };
static const int32_t rows_2x2[2] = { 2, 2 };

/* REVERSE_V2: input 0 of `type`, an INT32 axis. */
static const opver__op_signature *reverse(test_node *n, int32_t type)
{
	n->inputs[0] = tensor(type, 2, rows_2x2);
	n->inputs[1] = TENSOR(INT32, axis_1);
	n->outputs[0] = tensor(type, 2, rows_2x2);
	return build(n, OPVER_OP_REVERSE_V2, NULL, 0, 2, 1);
}

Test(reverse_v2, bool_is_2_and_int8_3)
{
	test_node n;

	expect(reverse(&n, OPVER_TYPE_FLOAT32), 1,
	       "float32 and int32 tensors");
	expect(reverse(&n, OPVER_TYPE_INT16), 1, "int16 and int32 tensors");
	expect(reverse(&n, OPVER_TYPE_UINT8), 1, "uint8 and int32 tensors");
	expect(reverse(&n, OPVER_TYPE_BOOL), 2, "bool input");
	expect(reverse(&n, OPVER_TYPE_INT8), 3, "int8 input");
}

/* DYNAMIC_UPDATE_SLICE: operand and update of `type`, start indices of
 * `index`. */
static const opver__op_signature *update_slice(test_node *n, int32_t type,
					       int32_t index)
{
	n->inputs[0] = tensor(type, 2, rows_2x2);
	n->inputs[1] = tensor(type, 2, rows_2x2);
	n->inputs[2] = tensor(index, 1, vector_2);
	n->outputs[0] = tensor(type, 2, rows_2x2);
	return build(n, OPVER_OP_DYNAMIC_UPDATE_SLICE, NULL, 0, 3, 1);
}

Test(dynamic_update_slice, each_type_and_int64_indices)
{
	test_node n;

	expect(update_slice(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT32), 1,
	       "float32 tensors");
	expect(update_slice(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT32), 1,
	       "int8 tensors");
	expect(update_slice(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT64), 2,
	       "int64 start indices");
	expect(update_slice(&n, OPVER_TYPE_FLOAT16, OPVER_TYPE_INT32), 3,
	       "float16 operand");
	expect(update_slice(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT64), 4,
	       "int16 operand");
	expect(update_slice(&n, OPVER_TYPE_INT4, OPVER_TYPE_INT32), 5,
	       "int4 operand");
	expect(update_slice(&n, OPVER_TYPE_BFLOAT16, OPVER_TYPE_INT64), 6,
	       "bfloat16 operand");
}

/* EMBEDDING_LOOKUP: INT32 ids, a [3, 2] table of `type`, a float32
 * output. */
static const opver__op_signature *lookup(test_node *n, int32_t type,
					 int32_t output)
{
	n->inputs[0] = TENSOR(INT32, ids_2);
	n->inputs[1] = tensor(type, 2, table_3x2);
	n->outputs[0] = tensor(output, 2, rows_2x2);
	return build(n, OPVER_OP_EMBEDDING_LOOKUP, NULL, 0, 2, 1);
}

Test(embedding_lookup, per_row_scales_and_int4_are_4)
{
	test_node n;

	expect(lookup(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32), 1,
	       "int32 and float32 tensors");
	lookup(&n, OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 1, some_scales, 0);
	expect(&n.sig, 1, "int32, int8 and float32 tensors");
	lookup(&n, OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 3, some_scales, 0);
	expect(&n.sig, 4, "table quantized per row: 3 scales");
	lookup(&n, OPVER_TYPE_UINT8, OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 3, some_scales, 0);
	expect(&n.sig, 4, "per row");
	expect(lookup(&n, OPVER_TYPE_INT4, OPVER_TYPE_FLOAT32), 4,
	       "int4 table");
}

/* TFLite's per-channel test counts the scales against dimension 0 only,
 * and needs more than one. */
Test(embedding_lookup, scales_per_column_or_one_row_stay_1)
{
	static const int32_t table_1x2[2] = { 1, 2 };
	test_node n;

	lookup(&n, OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 2, some_scales, 1);
	expect(&n.sig, 1, "int32, int8 and float32 tensors");
	lookup(&n, OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(tensor(OPVER_TYPE_INT8, 2, table_1x2), 1,
			     some_scales, 0);
	expect(&n.sig, 1, "int32, int8 and float32 tensors");
}

Test(embedding_lookup, a_node_without_a_table_is_version_1)
{
	test_node n;

	lookup(&n, OPVER_TYPE_INT4, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_EMBEDDING_LOOKUP, NULL, 0, 1, 1), 1,
	       "needs");
}

/* TFLite has no rule for CUMSUM or BROADCAST_ARGS: 1 for every type. */
Test(cumsum_and_broadcast_args, every_node_is_version_1)
{
	static const int32_t ops[] = { OPVER_OP_CUMSUM,
				       OPVER_OP_BROADCAST_ARGS };
	static const int32_t types[] = { OPVER_TYPE_INT64, OPVER_TYPE_INT32,
					 OPVER_TYPE_FLOAT32 };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++)
		for (int32_t t = 0; t < COUNT(types); t++) {
			binary_tensors(&n, types[t], OPVER_TYPE_INT32,
				       types[t]);
			expect(build(&n, ops[i], NULL, 0, 2, 1), 1,
			       "1 is TFLite's default");
		}
}

/* SVDF: input, weights_feature and output of these types (the rules read
 * no further; weights_time and bias are left float32), with
 * asymmetric_quantize_inputs as given. */
static const opver__op_signature *svdf(test_node *n, int32_t input,
				       int32_t feature, int32_t output,
				       const opver_svdf_params *params)
{
	n->inputs[0] = tensor(input, 2, rows_2x2);
	n->inputs[1] = tensor(feature, 2, rows_2x2);
	n->inputs[2] = tensor(OPVER_TYPE_FLOAT32, 2, rows_2x2);
	n->inputs[3] = tensor(OPVER_TYPE_FLOAT32, 1, vector_2);
	n->outputs[0] = tensor(output, 2, rows_2x2);
	return build(n, OPVER_OP_SVDF, params,
		     params != NULL ? sizeof(*params) : 0, 4, 1);
}

Test(svdf, int8_is_3_and_hybrid_2_or_4)
{
	const opver_svdf_params asymmetric = { 1, OPVER_ACTIVATION_NONE, 1 };
	const opver_svdf_params symmetric = { 1, OPVER_ACTIVATION_NONE, 0 };
	test_node n;

	expect(svdf(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		    OPVER_TYPE_FLOAT32, NULL), 1, "float32 tensors");
	expect(svdf(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8,
		    &symmetric), 3, "int8 input (full integer)");
	expect(svdf(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		    OPVER_TYPE_FLOAT32, &symmetric), 2,
	       "int8 weights_feature with float input (hybrid)");
	expect(svdf(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		    OPVER_TYPE_FLOAT32, &asymmetric), 4,
	       "asymmetric_quantize_inputs with int8 weights_feature and float input (hybrid)");
	/* No parameters: asymmetric_quantize_inputs reads as false. */
	expect(svdf(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		    OPVER_TYPE_FLOAT32, NULL), 2,
	       "int8 weights_feature with float input (hybrid)");
}

/* TOPK_V2: input of `type`, k of `k`, values and indices of `indices`. */
static const opver__op_signature *topk(test_node *n, int32_t type, int32_t k,
				       int32_t indices)
{
	n->inputs[0] = tensor(type, 2, rows_2x2);
	n->inputs[1] = tensor(k, 1, vector_1);
	n->outputs[0] = tensor(type, 2, rows_2x2);
	n->outputs[1] = tensor(indices, 2, rows_2x2);
	return build(n, OPVER_OP_TOPK_V2, NULL, 0, 2, 2);
}

Test(topk_v2, int8_is_2_and_any_int16_3)
{
	test_node n;

	expect(topk(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT32,
		    OPVER_TYPE_INT32), 1, "float32 and int32 tensors");
	expect(topk(&n, OPVER_TYPE_UINT8, OPVER_TYPE_INT32, OPVER_TYPE_INT32),
	       1, "uint8 and int32 tensors");
	expect(topk(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT32, OPVER_TYPE_INT32),
	       2, "int8 input");
	expect(topk(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT32, OPVER_TYPE_INT32),
	       3, "int16 input");
	expect(topk(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT16, OPVER_TYPE_INT32),
	       3, "int16 k");
	expect(topk(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT32,
		    OPVER_TYPE_INT16), 3, "int16 indices");
}

/* TFLite has no rule for ONE_HOT: 1 for every output type. */
Test(one_hot, every_node_is_version_1)
{
	static const int32_t types[] = { OPVER_TYPE_FLOAT32, OPVER_TYPE_INT64,
					 OPVER_TYPE_BOOL, OPVER_TYPE_INT8 };
	test_node n;

	for (int32_t t = 0; t < COUNT(types); t++) {
		n.inputs[0] = TENSOR(INT64, vector_2);
		n.inputs[1] = TENSOR(INT32, vector_1);
		n.inputs[2] = tensor(types[t], 0, NULL);
		n.inputs[3] = tensor(types[t], 0, NULL);
		n.outputs[0] = tensor(types[t], 2, rows_2x2);
		expect(build(&n, OPVER_OP_ONE_HOT, NULL, 0, 4, 1), 1,
		       "1 is TFLite's default");
	}
}

/* TFLite has no rule for RANK: 1 for every input type. */
Test(rank, every_node_is_version_1)
{
	static const int32_t types[] = { OPVER_TYPE_INT8, OPVER_TYPE_INT16,
					 OPVER_TYPE_BOOL };
	test_node n;

	for (int32_t t = 0; t < COUNT(types); t++) {
		unary_tensors(&n, types[t], OPVER_TYPE_INT32);
		expect(build(&n, OPVER_OP_RANK, NULL, 0, 1, 1), 1,
		       "1 is TFLite's default");
	}
}

/* TFLite has no rule for ATAN2: 1 for float32 and float64. */
Test(atan2, every_node_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_ATAN2, NULL, 0, 2, 1), 1,
	       "1 is TFLite's default");
	binary_tensors(&n, OPVER_TYPE_FLOAT64, OPVER_TYPE_FLOAT64,
		       OPVER_TYPE_FLOAT64);
	expect(build(&n, OPVER_OP_ATAN2, NULL, 0, 2, 1), 1,
	       "1 is TFLite's default");
}

/* TFLite has no rule for LOCAL_RESPONSE_NORMALIZATION: 1. */
Test(local_response_norm, every_node_is_version_1)
{
	const opver_local_response_norm_params p = { 2, 1.0f, 1.0f, 0.75f };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_LOCAL_RESPONSE_NORMALIZATION, &p, sizeof(p),
		     1, 1),
	       1, "1 is TFLite's default");
}

/* UNIDIRECTIONAL_SEQUENCE_RNN: input, weights and output of these types
 * (the rules read no further), with `params`. */
static const opver__op_signature *sequence_rnn(
	test_node *n, int32_t input, int32_t weights, int32_t output,
	const opver_sequence_rnn_params *params)
{
	n->inputs[0] = tensor(input, 2, rows_2x2);
	n->inputs[1] = tensor(weights, 2, rows_2x2);
	n->outputs[0] = tensor(output, 2, rows_2x2);
	return build(n, OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN, params,
		     params != NULL ? sizeof(*params) : 0, 2, 1);
}

Test(sequence_rnn, hybrid_is_2_or_3_with_asymmetric_inputs)
{
	const opver_sequence_rnn_params asymmetric = {
		0, OPVER_ACTIVATION_TANH, 1 };
	test_node n;

	expect(sequence_rnn(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			    OPVER_TYPE_FLOAT32, &asymmetric),
	       1, "float32 tensors");
	expect(sequence_rnn(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			    OPVER_TYPE_FLOAT32, NULL),
	       2, "int8 weights with float output (hybrid)");
	expect(sequence_rnn(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			    OPVER_TYPE_FLOAT32, &asymmetric),
	       3, "asymmetric_quantize_inputs with int8 weights and float output (hybrid)");
}

/* UNIDIRECTIONAL_SEQUENCE_LSTM: input, input_to_forget weights (input 2)
 * and output of these types (input 1 is left absent, as with CIFG), with
 * `params`. */
static const opver__op_signature *sequence_lstm(
	test_node *n, int32_t input, int32_t weights, int32_t output,
	const opver_sequence_lstm_params *params)
{
	n->inputs[0] = tensor(input, 2, rows_2x2);
	n->inputs[1] = tensor(-1, 0, NULL);
	n->inputs[2] = tensor(weights, 2, rows_2x2);
	n->outputs[0] = tensor(output, 2, rows_2x2);
	return build(n, OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, params,
		     params != NULL ? sizeof(*params) : 0, 3, 1);
}

Test(sequence_lstm, hybrid_2_or_3_diagonal_4_and_16x8_5)
{
	opver_sequence_lstm_params p = OPVER_SEQUENCE_LSTM_PARAMS_DEFAULTS;
	test_node n;

	expect(sequence_lstm(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			     OPVER_TYPE_FLOAT32, NULL),
	       1, "float32 and absent tensors");
	/* Full integer int8 has no rule of its own: version 1. */
	expect(sequence_lstm(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8,
			     OPVER_TYPE_INT8, &p), 1, "int8 and absent tensors");
	expect(sequence_lstm(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			     OPVER_TYPE_FLOAT32, &p),
	       2, "float input and output with int8 input_to_forget weights (hybrid)");
	p.asymmetric_quantize_inputs = 1;
	expect(sequence_lstm(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			     OPVER_TYPE_FLOAT32, &p),
	       3, "asymmetric_quantize_inputs with float input and output and int8 input_to_forget weights (hybrid)");
	/* diagonal_recurrent_tensors comes before the hybrid rows. */
	p.diagonal_recurrent_tensors = 1;
	expect(sequence_lstm(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			     OPVER_TYPE_FLOAT32, &p),
	       4, "diagonal_recurrent_tensors");
	expect(sequence_lstm(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
			     OPVER_TYPE_INT16, &p),
	       5, "int16 input and output with int8 input_to_forget weights");
}
