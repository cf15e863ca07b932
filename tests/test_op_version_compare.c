/*
 * test_op_version_compare.c - TensorFlow Lite's version rules for the
 * comparison, logic and selection ops: EQUAL, NOT_EQUAL, LESS, LESS_EQUAL,
 * GREATER, GREATER_EQUAL, LOGICAL_AND/OR/NOT, SELECT, SELECT_V2,
 * REDUCE_ANY and REDUCE_ALL.
 */
#include <criterion/criterion.h>

#include "op_version_nodes.h"

/* A comparison's node: inputs of `type`, a BOOL output. */
static const opver__op_signature *comparison(test_node *n, int32_t op,
					     int32_t type)
{
	binary_tensors(n, type, type, OPVER_TYPE_BOOL);
	return build(n, op, NULL, 0, 2, 1);
}

Test(comparison, equal_int8_string_and_int16)
{
	test_node n;

	expect(comparison(&n, OPVER_OP_EQUAL, OPVER_TYPE_FLOAT32), 1,
	       "float32 and bool tensors");
	expect(comparison(&n, OPVER_OP_EQUAL, OPVER_TYPE_BOOL), 1,
	       "bool tensors");
	expect(comparison(&n, OPVER_OP_EQUAL, OPVER_TYPE_INT8), 2,
	       "int8 input");
	expect(comparison(&n, OPVER_OP_EQUAL, OPVER_TYPE_STRING), 3,
	       "string input");
	expect(comparison(&n, OPVER_OP_EQUAL, OPVER_TYPE_INT16), 5,
	       "int16 input");
}

Test(comparison, not_equal_int8_string_and_int16)
{
	test_node n;

	expect(comparison(&n, OPVER_OP_NOT_EQUAL, OPVER_TYPE_UINT8), 1,
	       "uint8 and bool tensors");
	expect(comparison(&n, OPVER_OP_NOT_EQUAL, OPVER_TYPE_INT8), 2,
	       "int8 input");
	expect(comparison(&n, OPVER_OP_NOT_EQUAL, OPVER_TYPE_STRING), 3,
	       "string input");
	expect(comparison(&n, OPVER_OP_NOT_EQUAL, OPVER_TYPE_INT16), 4,
	       "int16 input");
}

Test(comparison, less_and_greater_equal_int8_and_int16)
{
	static const int32_t ops[] = { OPVER_OP_LESS,
				       OPVER_OP_GREATER_EQUAL };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++) {
		expect(comparison(&n, ops[i], OPVER_TYPE_INT64), 1,
		       "int64 and bool tensors");
		expect(comparison(&n, ops[i], OPVER_TYPE_INT8), 2,
		       "int8 input");
		expect(comparison(&n, ops[i], OPVER_TYPE_INT16), 3,
		       "int16 input");
	}
}

Test(comparison, greater_and_less_equal_int8_only)
{
	static const int32_t ops[] = { OPVER_OP_GREATER,
				       OPVER_OP_LESS_EQUAL };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++) {
		expect(comparison(&n, ops[i], OPVER_TYPE_INT32), 1,
		       "int32 and bool tensors");
		expect(comparison(&n, ops[i], OPVER_TYPE_INT8), 2,
		       "int8 input");
		/* No int16 row: TFLite has no int16 kernel for these. */
		expect(comparison(&n, ops[i], OPVER_TYPE_INT16), 1,
		       "int16 and bool tensors");
	}
}

Test(comparison, a_node_without_inputs_is_version_1)
{
	test_node n;

	binary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_BOOL);
	expect(build(&n, OPVER_OP_EQUAL, NULL, 0, 0, 1), 1, "needs");
}

/* SELECT's condition, then its two data inputs, of rank `rank`. */
static const opver__op_signature *select_node(test_node *n, int32_t op,
					      int32_t condition,
					      int32_t data, int32_t rank,
					      int32_t ranked_input)
{
	static const int32_t dims5[5] = { 1, 1, 1, 2, 2 };
	static const int32_t dims4[4] = { 1, 1, 2, 2 };

	for (int32_t i = 0; i < 3; i++)
		n->inputs[i] = i == ranked_input && rank == 5 ?
				       tensor(i == 0 ? condition : data, 5,
					      dims5) :
				       tensor(i == 0 ? condition : data, 4,
					      dims4);
	n->outputs[0] = tensor(data, 4, dims4);
	return build(n, op, NULL, 0, 3, 1);
}

Test(select, rank_5_inputs_are_version_3)
{
	test_node n;

	expect(select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_BOOL,
			   OPVER_TYPE_FLOAT32, 4, 0),
	       1, "bool and float32 tensors");
	expect(select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_BOOL,
			   OPVER_TYPE_INT8, 5, 0),
	       3, "condition of 5 dimensions");
	expect(select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_BOOL,
			   OPVER_TYPE_INT8, 5, 1),
	       3, "input 2 of 5 dimensions");
	expect(select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_BOOL,
			   OPVER_TYPE_INT8, 5, 2),
	       3, "input 3 of 5 dimensions");
	/* Exactly 5: TFLite's rule is dims.size() == 5. */
	select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_BOOL, OPVER_TYPE_INT8, 4,
		    0);
	n.inputs[0] = tensor(OPVER_TYPE_BOOL, 6,
			     (const int32_t[]){ 1, 1, 1, 1, 2, 2 });
	expect(build(&n, OPVER_OP_SELECT, NULL, 0, 3, 1), 1,
	       "bool and int8 tensors");
}

/* TFLite tests input 0, the condition, for uint32 and int8. */
Test(select, uint32_and_int8_condition_rows_as_published)
{
	test_node n;

	expect(select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_INT8,
			   OPVER_TYPE_INT8, 4, 0),
	       2, "int8 input 0");
	expect(select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_UINT32,
			   OPVER_TYPE_INT8, 5, 0),
	       4, "uint32 input 0");
	/* int8 data under a BOOL condition stays version 1. */
	expect(select_node(&n, OPVER_OP_SELECT, OPVER_TYPE_BOOL,
			   OPVER_TYPE_INT8, 4, 0),
	       1, "bool and int8 tensors");
}

Test(select_v2, uint32_condition_only)
{
	test_node n;

	expect(select_node(&n, OPVER_OP_SELECT_V2, OPVER_TYPE_BOOL,
			   OPVER_TYPE_INT8, 5, 1),
	       1, "bool and int8 tensors");
	expect(select_node(&n, OPVER_OP_SELECT_V2, OPVER_TYPE_UINT32,
			   OPVER_TYPE_INT8, 4, 0),
	       2, "uint32 input 0");
}

/* TFLite has no rule for LOGICAL_*, REDUCE_ANY or REDUCE_ALL: 1. */
Test(logical, every_op_is_version_1)
{
	static const int32_t ops[] = { OPVER_OP_LOGICAL_AND,
				       OPVER_OP_LOGICAL_OR,
				       OPVER_OP_LOGICAL_NOT,
				       OPVER_OP_REDUCE_ANY,
				       OPVER_OP_REDUCE_ALL };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++) {
		binary_tensors(&n, OPVER_TYPE_BOOL, OPVER_TYPE_BOOL,
			       OPVER_TYPE_BOOL);
		expect(build(&n, ops[i], NULL, 0, 2, 1), 1,
		       "1 is TFLite's default");
	}
}
