/*
 * test_op_version_fc.c - TensorFlow Lite's version rules for FULLY_CONNECTED
 * and BATCH_MATMUL.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* ---------------------------------------------------- FULLY_CONNECTED */

static const opver_fully_connected_params fc_params = { 0 };

#define FC(n, params)                                                   \
	build((n), OPVER_OP_FULLY_CONNECTED, &(params), sizeof(params), 3, \
	      1)

Test(fully_connected, float_tensors_are_version_1)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, fc_params), 1, "float32 tensors");
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, NULL, 0, 3, 1), 1,
	       "float32 tensors");
}

/* TFLite's legacy int16 output of uint8: no rule looks at it. */
Test(fully_connected, uint8_with_int16_output_is_version_1)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 1, "uint8 and int16 tensors");
}

Test(fully_connected, shuffled_weights_are_version_2)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8;
	fc_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	expect(FC(&n, params), 2, "shuffled 4x16 int8 weights");
	/* A struct ending before weights_format reads the default. */
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params,
		     offsetof(opver_fully_connected_params, weights_format), 3,
		     1),
	       1, "uint8 tensors");
}

Test(fully_connected, hybrid_is_version_3)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, fc_params), 3,
	       "per-tensor int8 weights with float input (hybrid)");
}

Test(fully_connected, hybrid_with_shuffled_weights_is_version_3)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8;
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, params), 3, "hybrid");
}

Test(fully_connected, int8_is_version_4)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(FC(&n, fc_params), 4, "int8 input and weights, int8 output");
}

Test(fully_connected, keep_num_dims_is_version_5)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.keep_num_dims = true;
	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(FC(&n, params), 5, "keep_num_dims");
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params,
		     offsetof(opver_fully_connected_params, keep_num_dims), 3,
		     1),
	       4, "int8 input and weights");
}

Test(fully_connected, two_inputs_are_version_6)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &fc_params,
		     sizeof(fc_params), 2, 1),
	       6, "no bias input");
	/* It comes before keep_num_dims. */
	params.keep_num_dims = true;
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params, sizeof(params), 2,
		     1),
	       6, "no bias input");
}

Test(fully_connected, omitted_bias_entry_is_not_a_missing_bias)
{
	test_node n;

	/* TFLite counts the -1 entry: 3 inputs, so not version 6. */
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		   OPVER_TYPE_FLOAT32);
	n.inputs[2] = (opver__tensor_signature){ .type = -1 };
	expect(FC(&n, fc_params), 1, "float32 tensors");
}

Test(fully_connected, int16_is_version_7)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 7, "int16 input, weights and output");
}

Test(fully_connected, sparse_weights_are_version_8)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	n.inputs[1].is_sparse = true;
	expect(FC(&n, fc_params), 8, "sparse weights");
	/* Before the int16 kernel and the missing bias. */
	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	n.inputs[1].is_sparse = true;
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &fc_params,
		     sizeof(fc_params), 2, 1),
	       8, "sparse weights");
}

Test(fully_connected, asymmetric_hybrid_is_version_9)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.asymmetric_quantize_inputs = true;
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, params), 9, "asymmetric_quantize_inputs");
	/* Only hybrid nodes care. */
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		   OPVER_TYPE_FLOAT32);
	expect(FC(&n, params), 1, "float32 tensors");
}

Test(fully_connected, int4_weights_with_int8_are_version_10)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT4, OPVER_TYPE_INT8);
	expect(FC(&n, fc_params), 10, "int4 weights with int8 input");
}

Test(fully_connected, quantized_bias_type_with_16x8_is_version_11)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	params.quantized_bias_type = OPVER_TYPE_INT64;
	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(FC(&n, params), 11, "quantized_bias_type int64");
	/* Even without a bias: it comes first. */
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &params, sizeof(params), 2,
		     1),
	       11, "quantized_bias_type");
}

Test(fully_connected, plain_16x8_falls_through_to_version_1)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 1,
	       "without quantized_bias_type: TFLite's rules give such a FULLY_CONNECTED no later version");
}

Test(fully_connected, per_channel_hybrid_is_version_12)
{
	opver_fully_connected_params params = fc_params;
	test_node n;

	/* 2 scales for 2 units (weights dimension 0), even asymmetric. */
	params.asymmetric_quantize_inputs = true;
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	n.inputs[1] = scaled(n.inputs[1], 2, some_scales, 0);
	expect(FC(&n, params), 12,
	       "per-channel int8 weights with float input (hybrid)");
}

Test(fully_connected, one_scale_for_one_unit_is_not_per_channel)
{
	static const int32_t weights_1x4[] = { 1, 4 };
	test_node n;

	/* FULLY_CONNECTED asks for more than one scale. */
	fc_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		   OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(INT8, weights_1x4);
	expect(FC(&n, fc_params), 3, "per-tensor int8 weights");
}

Test(fully_connected, int4_weights_with_int16_are_version_13)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT4, OPVER_TYPE_INT16);
	expect(FC(&n, fc_params), 13, "int4 weights with int16 input");
}

Test(fully_connected, missing_weights_are_version_1_with_the_reason)
{
	test_node n;

	fc_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_FULLY_CONNECTED, &fc_params,
		     sizeof(fc_params), 1, 1),
	       1, "FULLY_CONNECTED needs 2 input(s)");
}

/* ------------------------------------------------------- BATCH_MATMUL */

Test(batch_matmul, versions_in_tflite_order)
{
	static const opver_batch_matmul_params plain = { 0, 0, 0 };
	static const opver_batch_matmul_params asymmetric = { 0, 0, 1 };
	test_node n;

	n.inputs[0] = TENSOR(FLOAT32, row_4);
	n.inputs[1] = TENSOR(FLOAT32, weights_2x4);
	n.outputs[0] = TENSOR(FLOAT32, row_2);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       1, "float32 tensors");
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &asymmetric,
		     sizeof(asymmetric), 2, 1),
	       1, "float32 tensors");
	n.inputs[1] = TENSOR(INT8, weights_2x4);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       1, "float32 and int8 tensors");
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &asymmetric,
		     sizeof(asymmetric), 2, 1),
	       4, "asymmetric_quantize_inputs");
	n.inputs[0] = TENSOR(INT8, row_4);
	n.outputs[0] = TENSOR(INT8, row_2);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       2, "int8 input");
	n.inputs[0] = TENSOR(INT16, row_4);
	n.inputs[1] = TENSOR(INT16, weights_2x4);
	n.outputs[0] = TENSOR(INT16, row_2);
	expect(build(&n, OPVER_OP_BATCH_MATMUL, &plain, sizeof(plain), 2, 1),
	       3, "int16 input");
}
