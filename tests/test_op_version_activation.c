/*
 * test_op_version_activation.c - TensorFlow Lite's version rules for
 * SOFTMAX, the activations and L2_NORMALIZATION.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* ------------------------------------------------------------ SOFTMAX */

Test(softmax, versions_follow_the_input_type)
{
	static const opver_softmax_params params = { .beta = 1.0f };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 1,
	       "float32 tensors");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 1,
	       "uint8 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 2,
	       "int8 input");
	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 3,
	       "int16 input");
	/* An int16 output of an 8-bit input adds no version: the input's
	 * type decides. */
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 2,
	       "int8 input");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 1, 1), 1,
	       "uint8 and int16 tensors");
	expect(build(&n, OPVER_OP_SOFTMAX, &params, sizeof(params), 0, 1), 1,
	       "SOFTMAX needs 1 input(s)");
}

/* --------------------------------------------------------- activations */

/* Asserts that a one-input activation node of `op` on `in` to `out`
 * tensors needs `version`, for a reason that mentions `fact`. */
static void activation_expect(int32_t op, int32_t in, int32_t out,
			      int32_t version, const char *fact)
{
	static const opver_leaky_relu_params leaky = { .alpha = 0.2f };
	static const opver_gelu_params gelu = { .approximate = 1 };
	const void *params = NULL;
	size_t size = 0;
	test_node n;

	if (op == OPVER_OP_LEAKY_RELU) {
		params = &leaky;
		size = sizeof(leaky);
	} else if (op == OPVER_OP_GELU) {
		params = &gelu;
		size = sizeof(gelu);
	}
	unary_tensors(&n, in, out);
	expect(build(&n, op, params, size, 1, 1), version, fact);
}

#define expect_activation(op, in, out, version, fact)                 \
	activation_expect(op, OPVER_TYPE_##in, OPVER_TYPE_##out, version, \
			  fact)

Test(activations, relu_int16_int8_and_uint8_rows)
{
	expect_activation(OPVER_OP_RELU, FLOAT32, FLOAT32, 1, "float32 tensors");
	expect_activation(OPVER_OP_RELU, INT16, INT16, 3, "int16 input");
	expect_activation(OPVER_OP_RELU, INT8, INT8, 2, "int8 input");
	expect_activation(OPVER_OP_RELU, UINT8, UINT8, 2, "uint8 input");
}

Test(activations, relu6_int16_and_int8_rows)
{
	expect_activation(OPVER_OP_RELU6, FLOAT32, FLOAT32, 1,
			  "float32 tensors");
	expect_activation(OPVER_OP_RELU6, INT16, INT16, 3, "int16 input");
	expect_activation(OPVER_OP_RELU6, INT8, INT8, 2, "int8 input");
	/* TFLite's RELU6 rule names no uint8 branch. */
	expect_activation(OPVER_OP_RELU6, UINT8, UINT8, 1, "uint8 tensors");
}

Test(activations, logistic_and_tanh_need_int16_on_both_sides_for_3)
{
	static const int32_t ops[] = { OPVER_OP_LOGISTIC, OPVER_OP_TANH };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		expect_activation(ops[i], FLOAT32, FLOAT32, 1,
				  "float32 tensors");
		expect_activation(ops[i], INT16, INT16, 3,
				  "int16 input and output");
		/* int16 in, another type out: not the int16 row. */
		expect_activation(ops[i], INT16, FLOAT32, 1, "int16");
		expect_activation(ops[i], INT8, INT8, 2, "int8 input");
		expect_activation(ops[i], UINT8, UINT8, 1, "uint8 tensors");
	}
}

Test(activations, leaky_relu_int16_row)
{
	expect_activation(OPVER_OP_LEAKY_RELU, INT16, INT16, 2, "int16 input");
	expect_activation(OPVER_OP_LEAKY_RELU, INT8, INT8, 1, "int8 tensors");
	expect_activation(OPVER_OP_LEAKY_RELU, UINT8, UINT8, 1,
			  "uint8 tensors");
}

Test(activations, log_softmax_int8_row)
{
	expect_activation(OPVER_OP_LOG_SOFTMAX, FLOAT32, FLOAT32, 1,
			  "float32 tensors");
	expect_activation(OPVER_OP_LOG_SOFTMAX, INT8, INT8, 2, "int8 input");
	expect_activation(OPVER_OP_LOG_SOFTMAX, UINT8, UINT8, 1,
			  "uint8 tensors");
}

Test(activations, gelu_int8_and_uint8_rows)
{
	expect_activation(OPVER_OP_GELU, FLOAT32, FLOAT32, 1,
			  "float32 tensors");
	expect_activation(OPVER_OP_GELU, INT8, INT8, 2, "int8 input");
	expect_activation(OPVER_OP_GELU, UINT8, UINT8, 2, "uint8 input");
}

Test(activations, ops_without_rules_are_version_1)
{
	static const int32_t ops[] = {
		OPVER_OP_RELU_N1_TO_1, OPVER_OP_RELU_0_TO_1, OPVER_OP_ELU,
		OPVER_OP_HARD_SWISH,
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		expect_activation(ops[i], INT8, INT8, 1, "no version rule");
}

Test(l2_normalization, int8_output_is_version_2)
{
	static const opver_l2_norm_params params = { 0 };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_L2_NORMALIZATION, &params, sizeof(params),
		     1, 1),
	       1, "float32 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_L2_NORMALIZATION, &params, sizeof(params),
		     1, 1),
	       2, "int8 output");
	expect(build(&n, OPVER_OP_L2_NORMALIZATION, &params, sizeof(params),
		     1, 0),
	       1, "L2_NORMALIZATION needs 0 input(s) and 1 output(s)");
}
