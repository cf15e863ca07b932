/*
 * test_op_version_unary.c - TensorFlow Lite's version rules for the
 * one-input math ops: ABS, NEG, SQRT, RSQRT, SQUARE, EXP, LOG, SIN, COS,
 * FLOOR, CEIL, ROUND and SIGN.
 */
#include <criterion/criterion.h>

#include "op_version_nodes.h"

/* Asserts that a node of `op` from an `in` to an `out` tensor needs
 * `version`, for a reason that mentions `fact`. */
static void unary_expect(int32_t op, int32_t in, int32_t out,
			 int32_t version, const char *fact)
{
	test_node n;

	unary_tensors(&n, in, out);
	expect(build(&n, op, NULL, 0, 1, 1), version, fact);
}

#define expect_unary(op, in, out, version, fact) \
	unary_expect(OPVER_OP_##op, OPVER_TYPE_##in, OPVER_TYPE_##out, \
		     version, fact)

Test(unary, abs_rows_in_tflite_order)
{
	test_node n;

	expect_unary(ABS, FLOAT32, FLOAT32, 1, "float32 tensors");
	expect_unary(ABS, INT32, INT32, 5, "int32 input");
	expect_unary(ABS, INT16, INT16, 3, "quantized int16 input");
	expect_unary(ABS, INT8, INT8, 2, "int8 input");
	expect_unary(ABS, UINT8, UINT8, 2, "uint8 input");
	/* input_quantized is the input having a quantization table. */
	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	n.inputs[0] = unquantized(n.inputs[0]);
	expect(build(&n, OPVER_OP_ABS, NULL, 0, 1, 1), 4,
	       "int16 input without quantization");
	expect(build(&n, OPVER_OP_ABS, NULL, 0, 0, 1), 1,
	       "ABS needs 1 input(s)");
}

Test(unary, sign_int32_is_version_2)
{
	expect_unary(SIGN, FLOAT32, FLOAT32, 1, "float32 tensors");
	expect_unary(SIGN, INT32, INT32, 2, "int32 input");
}

Test(unary, rsqrt_int16_and_int8_rows)
{
	expect_unary(RSQRT, FLOAT32, FLOAT32, 1, "float32 tensors");
	expect_unary(RSQRT, INT16, INT16, 3, "int16 input");
	expect_unary(RSQRT, INT8, INT8, 2, "int8 input");
}

Test(unary, exp_log_and_sqrt_are_version_2_on_int8_and_int16)
{
	static const int32_t ops[] = { OPVER_OP_EXP, OPVER_OP_LOG,
				       OPVER_OP_SQRT };

	for (int i = 0; i < COUNT(ops); i++) {
		unary_expect(ops[i], OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, 1,
			     "float32 tensors");
		unary_expect(ops[i], OPVER_TYPE_INT8, OPVER_TYPE_INT8, 2,
			     "int8 input");
		unary_expect(ops[i], OPVER_TYPE_INT16, OPVER_TYPE_INT16, 2,
			     "int16 input");
	}
}

/* TFLite has no rule for these: every node is version 1. */
Test(unary, ops_without_rules_are_version_1)
{
	static const int32_t ops[] = {
		OPVER_OP_NEG,   OPVER_OP_SQUARE, OPVER_OP_SIN, OPVER_OP_COS,
		OPVER_OP_FLOOR, OPVER_OP_CEIL,   OPVER_OP_ROUND,
	};

	for (int i = 0; i < COUNT(ops); i++)
		unary_expect(ops[i], OPVER_TYPE_INT32, OPVER_TYPE_INT32, 1,
			     "");
}
