/*
 * test_op_version_elementwise.c - TensorFlow Lite's version rules for the
 * element-wise ops: ADD, MUL, SUB, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* ---------------------------------------------------------------- ADD */

static const opver_add_params add_params = { .pot_scale_int16 = true };

#define ADD(n, params) \
	build((n), OPVER_OP_ADD, &(params), sizeof(params), 2, 1)

Test(add, float_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(ADD(&n, add_params), 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT32,
		       OPVER_TYPE_INT32);
	expect(ADD(&n, add_params), 1, "int32 tensors");
}

Test(add, int8_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(ADD(&n, add_params), 2, "int8 input");
}

Test(add, general_int16_scales_are_version_3)
{
	opver_add_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(ADD(&n, params), 3, "pot_scale_int16 false with int16 tensors");
}

Test(add, power_of_two_int16_scales_stay_version_1)
{
	opver_add_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(ADD(&n, add_params), 1, "pot_scale_int16 true");
	/* Absent or short structs read the default, true. */
	expect(build(&n, OPVER_OP_ADD, NULL, 0, 2, 1), 1,
	       "pot_scale_int16 true");
	expect(build(&n, OPVER_OP_ADD, &params,
		     offsetof(opver_add_params, pot_scale_int16), 2, 1),
	       1, "pot_scale_int16 true");
}

Test(add, empty_quantization_table_counts_as_quantized)
{
	opver_add_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	n.inputs[0].quant_count = 0;
	n.inputs[0].scale = NULL;
	expect(ADD(&n, params), 3, "pot_scale_int16 false");
}

Test(add, int64_is_version_4)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64,
		       OPVER_TYPE_INT64);
	expect(ADD(&n, add_params), 4, "int64 input");
}

Test(add, unquantized_int16_is_version_5)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	n.inputs[0] = unquantized(n.inputs[0]);
	expect(ADD(&n, add_params), 5, "int16 input without quantization");
}

Test(add, float16_is_version_6)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT16,
		       OPVER_TYPE_FLOAT16);
	expect(ADD(&n, add_params), 6, "float16 input");
}

/* ---------------------------------------------------------------- MUL */

static const opver_mul_params mul_params = { 0 };

#define MUL(n) build((n), OPVER_OP_MUL, &mul_params, sizeof(mul_params), 2, 1)

/* Int8 MUL tensors with the given first scales. */
static void mul_scales(test_node *n, int32_t type, const float *a,
		       const float *b, const float *output)
{
	binary_tensors(n, type, type, type);
	n->inputs[0] = scaled(n->inputs[0], 1, a, 0);
	n->inputs[1] = scaled(n->inputs[1], 1, b, 0);
	n->outputs[0] = scaled(n->outputs[0], 1, output, 0);
}

Test(mul, float_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(MUL(&n), 1, "float32 tensors");
}

Test(mul, int8_with_rescale_below_1_is_version_2)
{
	static const float a = 0.5f, b = 0.5f, out = 0.5f;
	test_node n;

	/* 0.5 * 0.5 / 0.5 = 0.5 */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &out);
	expect(MUL(&n), 2, "int8 input");
}

Test(mul, rescale_of_at_least_1_is_version_3)
{
	static const float a = 0.5f, b = 0.5f, out = 0.25f, out_small = 0.125f;
	test_node n;

	/* 0.5 * 0.5 / 0.25 = 1: exactly 1 counts. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &out);
	expect(MUL(&n), 3, "rescale input1 * input2 / output scale 1 >= 1");
	/* 0.5 * 0.5 / 0.125 = 2, and uint8 too. */
	mul_scales(&n, OPVER_TYPE_UINT8, &a, &b, &out_small);
	expect(MUL(&n), 3, "scale 2 >= 1");
}

Test(mul, rescale_needs_three_scales)
{
	static const float a = 1.0f, b = 1.0f, zero = 0.0f;
	test_node n;

	/* The output has no scales: no rescale, so int8 decides. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &a);
	n.outputs[0] = unquantized(n.outputs[0]);
	expect(MUL(&n), 2, "int8 input");
	/* A zero scale leaves the rescale unset as well. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &zero, &a);
	expect(MUL(&n), 2, "int8 input");
	/* Without a second input nothing is derived. */
	mul_scales(&n, OPVER_TYPE_INT8, &a, &b, &a);
	expect(build(&n, OPVER_OP_MUL, &mul_params, sizeof(mul_params), 1, 1),
	       2, "int8 input");
}

Test(mul, quantized_int16_is_version_4)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(MUL(&n), 4, "quantized int16 input");
	/* Either input's table makes it quantized. */
	n.inputs[0] = unquantized(n.inputs[0]);
	expect(MUL(&n), 4, "quantized int16 input");
}

Test(mul, int64_is_version_5)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64,
		       OPVER_TYPE_INT64);
	expect(MUL(&n), 5, "int64 input");
}

Test(mul, complex64_is_version_6)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_COMPLEX64, OPVER_TYPE_COMPLEX64,
		       OPVER_TYPE_COMPLEX64);
	expect(MUL(&n), 6, "complex64 input");
}

Test(mul, unquantized_int16_and_uint32_are_version_7)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	n.inputs[0] = unquantized(n.inputs[0]);
	n.inputs[1] = unquantized(n.inputs[1]);
	expect(MUL(&n), 7, "int16 inputs without quantization");
	binary_tensors(&n, OPVER_TYPE_UINT32, OPVER_TYPE_UINT32,
		       OPVER_TYPE_UINT32);
	expect(MUL(&n), 7, "uint32 input");
}

Test(mul, float16_is_version_8)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT16,
		       OPVER_TYPE_FLOAT16);
	expect(MUL(&n), 8, "float16 input");
}

/* ------------------------------ SUB, DIV, MAXIMUM, MINIMUM, SQUARED_DIFF */

static const opver_sub_params sub_params = { .pot_scale_int16 = true };
static const opver_div_params div_params = { 0 };

/* Rank-5 inputs [1,1,1,1,4] and [1,1,1,1,1]: broadcasting, and more than 4
 * dimensions. */
static const int32_t rank5_4[] = { 1, 1, 1, 1, 4 };
static const int32_t rank5_1[] = { 1, 1, 1, 1, 1 };

#define SUB(n, params) \
	build((n), OPVER_OP_SUB, &(params), sizeof(params), 2, 1)

/* Input 1 of n broadcast against input 0 from rank 5 (inputs [1,1,1,1,4]
 * and [1,1,1,1,1]), or, when `broadcast` is false, the same shapes as
 * each other but of rank 5 (no broadcast). */
static void rank5_tensors(test_node *n, int32_t type, bool broadcast)
{
	n->inputs[0] = tensor(type, COUNT(rank5_4), rank5_4);
	n->inputs[1] = broadcast ? tensor(type, COUNT(rank5_1), rank5_1) :
				   tensor(type, COUNT(rank5_4), rank5_4);
	n->outputs[0] = tensor(type, COUNT(rank5_4), rank5_4);
}

Test(sub, float_uint8_and_int32_are_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(SUB(&n, sub_params), 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		       OPVER_TYPE_UINT8);
	expect(SUB(&n, sub_params), 1, "uint8 tensors");
	binary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT32,
		       OPVER_TYPE_INT32);
	expect(SUB(&n, sub_params), 1, "int32 tensors");
}

Test(sub, int8_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(SUB(&n, sub_params), 2, "int8 input");
}

Test(sub, broadcasting_above_rank_4_is_version_3)
{
	test_node n;

	rank5_tensors(&n, OPVER_TYPE_FLOAT32, true);
	expect(SUB(&n, sub_params), 3, "more than 4 dimensions");
	/* Before int8's row, as in TFLite. */
	rank5_tensors(&n, OPVER_TYPE_INT8, true);
	expect(SUB(&n, sub_params), 3, "more than 4 dimensions");
	/* Rank 5 without broadcasting, or broadcasting at rank 4, is not. */
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, false);
	expect(SUB(&n, sub_params), 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(FLOAT32, vector_1);
	expect(SUB(&n, sub_params), 1, "float32 tensors");
	/* Only one input: nothing to broadcast. */
	expect(build(&n, OPVER_OP_SUB, &sub_params, sizeof(sub_params), 1, 1),
	       1, "SUB needs 2 input(s)");
}

Test(sub, int64_is_version_4)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64,
		       OPVER_TYPE_INT64);
	expect(SUB(&n, sub_params), 4, "int64 input");
}

Test(sub, general_int16_scales_are_version_5)
{
	opver_sub_params params = { .pot_scale_int16 = false };
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(SUB(&n, params), 5, "pot_scale_int16 false with int16 tensors");
	/* pot_scale_int16 true: no later version than broadcasting's. */
	expect(SUB(&n, sub_params), 1, "int16 tensors");
	rank5_tensors(&n, OPVER_TYPE_INT16, true);
	expect(SUB(&n, sub_params), 3, "more than 4 dimensions");
	/* Absent or short structs read the default, true. */
	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SUB, NULL, 0, 2, 1), 1, "int16 tensors");
	expect(build(&n, OPVER_OP_SUB, &params,
		     offsetof(opver_sub_params, pot_scale_int16), 2, 1),
	       1, "int16 tensors");
}

Test(div, broadcasting_above_rank_4_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		       OPVER_TYPE_UINT8);
	expect(build(&n, OPVER_OP_DIV, &div_params, sizeof(div_params), 2, 1),
	       1, "uint8 tensors");
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, true);
	expect(build(&n, OPVER_OP_DIV, &div_params, sizeof(div_params), 2, 1),
	       2, "more than 4 dimensions");
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, false);
	expect(build(&n, OPVER_OP_DIV, &div_params, sizeof(div_params), 2, 1),
	       1, "float32 tensors");
}

static const int32_t maximum_minimum_ops[] = { OPVER_OP_MAXIMUM,
					       OPVER_OP_MINIMUM };

/* Expects MAXIMUM and MINIMUM alike to need `version` for n's tensors. */
static void expect_maximum_minimum(test_node *n, int32_t version,
				   const char *fact)
{
	for (int32_t i = 0; i < COUNT(maximum_minimum_ops); i++)
		expect(build(n, maximum_minimum_ops[i], NULL, 0, 2, 1), version,
		       fact);
}

Test(maximum_minimum, versions_follow_type_and_broadcast_rank)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect_maximum_minimum(&n, 1, "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		       OPVER_TYPE_UINT8);
	expect_maximum_minimum(&n, 1, "uint8 tensors");
	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect_maximum_minimum(&n, 2, "int8 input");
	rank5_tensors(&n, OPVER_TYPE_INT8, true);
	expect_maximum_minimum(&n, 3, "more than 4 dimensions");
	rank5_tensors(&n, OPVER_TYPE_INT8, false);
	expect_maximum_minimum(&n, 2, "int8 input");
	/* int16 comes first, before broadcasting. */
	rank5_tensors(&n, OPVER_TYPE_INT16, true);
	expect_maximum_minimum(&n, 4, "int16 input and output");
	/* int16 input with another output type is not int16's row. */
	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT32);
	expect_maximum_minimum(&n, 1, "int16 and int32 tensors");
}

Test(squared_difference, int8_is_version_2)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_SQUARED_DIFFERENCE, NULL, 0, 2, 1), 1,
	       "float32 tensors");
	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_SQUARED_DIFFERENCE, NULL, 0, 2, 1), 2,
	       "int8 input");
	/* Broadcasting at rank 5 adds no version here. */
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, true);
	expect(build(&n, OPVER_OP_SQUARED_DIFFERENCE, NULL, 0, 2, 1), 1,
	       "float32 tensors");
}

/* ----------------------------------------------- FLOOR_DIV, FLOOR_MOD */

Test(floor_div, int16_and_int8_are_3_float32_2_int32_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT32,
		       OPVER_TYPE_INT32);
	expect(build(&n, OPVER_OP_FLOOR_DIV, NULL, 0, 2, 1), 1,
	       "int32 tensors");
	binary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		       OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_FLOOR_DIV, NULL, 0, 2, 1), 2,
	       "float32 input");
	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_FLOOR_DIV, NULL, 0, 2, 1), 3,
	       "int16 input");
	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_FLOOR_DIV, NULL, 0, 2, 1), 3,
	       "int8 input");
	/* Broadcasting at rank 5 adds no version here. */
	rank5_tensors(&n, OPVER_TYPE_INT32, true);
	expect(build(&n, OPVER_OP_FLOOR_DIV, NULL, 0, 2, 1), 1,
	       "int32 tensors");
}

Test(floor_mod, int16_and_int8_are_version_2)
{
	static const opver_type version_1[] = { OPVER_TYPE_INT32,
						 OPVER_TYPE_INT64,
						 OPVER_TYPE_FLOAT32 };
	static const char *const reasons[] = { "int32 tensors",
					       "int64 tensors",
					       "float32 tensors" };
	test_node n;

	for (size_t i = 0; i < COUNT(version_1); i++) {
		binary_tensors(&n, version_1[i], version_1[i], version_1[i]);
		expect(build(&n, OPVER_OP_FLOOR_MOD, NULL, 0, 2, 1), 1,
		       reasons[i]);
	}
	binary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16,
		       OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_FLOOR_MOD, NULL, 0, 2, 1), 2,
	       "int16 input");
	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_FLOOR_MOD, NULL, 0, 2, 1), 2,
	       "int8 input");
}

/* Neither POW nor ADD_N has a rule in TFLite: version 1 whatever the
 * types and shapes. */
Test(pow, has_no_rule_so_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT32,
		       OPVER_TYPE_INT32);
	expect(build(&n, OPVER_OP_POW, NULL, 0, 2, 1), 1, "no version rule");
	rank5_tensors(&n, OPVER_TYPE_FLOAT32, true);
	expect(build(&n, OPVER_OP_POW, NULL, 0, 2, 1), 1, "no version rule");
}

Test(add_n, has_no_rule_so_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT32,
		       OPVER_TYPE_INT32);
	expect(build(&n, OPVER_OP_ADD_N, NULL, 0, 2, 1), 1,
	       "no version rule");
}
