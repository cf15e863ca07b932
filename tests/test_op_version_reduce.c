/*
 * test_op_version_reduce.c - TensorFlow Lite's version rules for the reductions
 * and ARG_MAX, ARG_MIN.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* ---------------------------------------------- reductions and ARG_* */

/* A reduction node: input, a constant int32 axis tensor, output. */
static const opver__op_signature *reduction(test_node *n, int32_t op,
					    int32_t type, const void *params,
					    size_t params_size)
{
	unary_tensors(n, type, type);
	n->inputs[1] = TENSOR(INT32, vector_2);
	n->inputs[1].is_constant = true;
	return build(n, op, params, params_size, 2, 1);
}

/* MEAN, REDUCE_MAX and REDUCE_MIN: int16 3, int8 2, the rest 1. */
Test(reductions, mean_max_and_min_follow_the_input_type)
{
	static const opver_reducer_params keep = { .keep_dims = 1 };
	static const int32_t ops[] = { OPVER_OP_MEAN, OPVER_OP_REDUCE_MAX,
				       OPVER_OP_REDUCE_MIN };
	test_node n;

	for (int i = 0; i < COUNT(ops); i++) {
		expect(reduction(&n, ops[i], OPVER_TYPE_INT16, &keep,
				 sizeof(keep)),
		       3, "int16 input");
		expect(reduction(&n, ops[i], OPVER_TYPE_INT8, &keep,
				 sizeof(keep)),
		       2, "int8 input");
		expect(reduction(&n, ops[i], OPVER_TYPE_UINT8, NULL, 0), 1,
		       "uint8 and int32 tensors");
		expect(reduction(&n, ops[i], OPVER_TYPE_FLOAT32, &keep,
				 sizeof(keep)),
		       1, "float32 and int32 tensors");
		expect(build(&n, ops[i], NULL, 0, 0, 1), 1,
		       "needs 1 input(s)");
	}
}

/* SUM: int8 2; int16 (TFLite's rule has no int16 branch) 1. */
Test(reductions, sum_is_version_2_for_int8_only)
{
	test_node n;

	expect(reduction(&n, OPVER_OP_SUM, OPVER_TYPE_INT8, NULL, 0), 2,
	       "int8 input");
	expect(reduction(&n, OPVER_OP_SUM, OPVER_TYPE_INT16, NULL, 0), 1,
	       "int16 and int32 tensors");
	expect(reduction(&n, OPVER_OP_SUM, OPVER_TYPE_FLOAT32, NULL, 0), 1,
	       "float32 and int32 tensors");
}

/* REDUCE_PROD: int8 and int16 2. */
Test(reductions, reduce_prod_is_version_2_for_int8_and_int16)
{
	test_node n;

	expect(reduction(&n, OPVER_OP_REDUCE_PROD, OPVER_TYPE_INT8, NULL, 0),
	       2, "int8 input");
	expect(reduction(&n, OPVER_OP_REDUCE_PROD, OPVER_TYPE_INT16, NULL, 0),
	       2, "int16 input");
	expect(reduction(&n, OPVER_OP_REDUCE_PROD, OPVER_TYPE_INT32, NULL, 0),
	       1, "int32 tensors");
}

/* ARG_MAX and ARG_MIN: bool 3, int8 2, whatever the output type. */
Test(reductions, arg_max_and_min_follow_the_input_type)
{
	static const opver_arg_min_max_params int64_out = {
		.output_type = OPVER_TYPE_INT64
	};
	static const int32_t ops[] = { OPVER_OP_ARG_MAX, OPVER_OP_ARG_MIN };
	test_node n;

	for (int i = 0; i < COUNT(ops); i++) {
		unary_tensors(&n, OPVER_TYPE_BOOL, OPVER_TYPE_INT64);
		n.inputs[1] = TENSOR(INT32, vector_1);
		expect(build(&n, ops[i], &int64_out, sizeof(int64_out), 2, 1),
		       3, "bool input");
		n.inputs[0] = TENSOR(INT8, nhwc_4);
		expect(build(&n, ops[i], &int64_out, sizeof(int64_out), 2, 1),
		       2, "int8 input");
		n.inputs[0] = TENSOR(UINT8, nhwc_4);
		expect(build(&n, ops[i], &int64_out, sizeof(int64_out), 2, 1),
		       1, "uint8, int32 and int64 tensors");
		n.inputs[0] = TENSOR(FLOAT32, nhwc_4);
		n.outputs[0] = TENSOR(INT32, nhwc_2);
		expect(build(&n, ops[i], NULL, 0, 2, 1), 1,
		       "float32 and int32 tensors");
	}
}
