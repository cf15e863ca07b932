/*
 * test_op_version_releases.c - ops without a version rule, and TensorFlow
 * Lite's first-release table with its release comparison.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* ------------------------------------------------------- other ops */

Test(other_ops, are_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_CUSTOM, NULL, 0, 1, 1), 1,
	       "custom ops are not versioned");
	/* TFLite has no rule for L2_POOL_2D: its one version. */
	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_L2_POOL_2D, NULL, 0, 1, 1), 1,
	       "no version rule for L2_POOL_2D here");
}

/* ------------------------------------------------ runtime releases */

Test(runtime_version, samples_of_tflites_table)
{
	static const struct {
		int32_t op;
		int32_t version;
		const char *release;
	} samples[] = {
		{ OPVER_OP_CONV_2D, 1, "1.5.0" },
		{ OPVER_OP_CONV_2D, 8, "2.15.0" },
		{ OPVER_OP_DEPTHWISE_CONV_2D, 2, "1.12.0" },
		{ OPVER_OP_DEPTHWISE_CONV_2D, 7, "2.11.0" },
		{ OPVER_OP_FULLY_CONNECTED, 6, "2.1.0" },
		{ OPVER_OP_FULLY_CONNECTED, 14, "2.21.0" },
		{ OPVER_OP_AVERAGE_POOL_2D, 3, "2.3.0" },
		{ OPVER_OP_MAX_POOL_2D, 2, "1.14.0" },
		{ OPVER_OP_RESHAPE, 1, "1.5.0" },
		{ OPVER_OP_SOFTMAX, 2, "1.14.0" },
		{ OPVER_OP_ADD, 3, "2.4.0" },
		{ OPVER_OP_ADD, 6, "2.23.0" },
		{ OPVER_OP_MUL, 3, "1.15.0" },
		{ OPVER_OP_MUL, 8, "2.23.0" },
		{ OPVER_OP_QUANTIZE, 3, "2.7.0" },
		{ OPVER_OP_DEQUANTIZE, 1, "1.13.1" },
		{ OPVER_OP_DEQUANTIZE, 5, "2.7.0" },
		{ OPVER_OP_TRANSPOSE, 7, "2.14.4" },
		{ OPVER_OP_TILE, 1, "1.10.1" },
		{ OPVER_OP_BROADCAST_TO, 2, "2.5.0" },
		{ OPVER_OP_STABLEHLO_COMPOSITE, 1, "2.17.0" },
	};

	for (int32_t i = 0; i < COUNT(samples); i++) {
		const char *got = opver__op_runtime_version(samples[i].op,
							    samples[i].version);

		cr_assert_not_null(got, "%s v%d: no release",
				   opver_op_name(samples[i].op),
				   samples[i].version);
		cr_assert_str_eq(got, samples[i].release, "%s v%d",
				 opver_op_name(samples[i].op),
				 samples[i].version);
	}
}

Test(runtime_version, pairs_outside_the_table_have_none)
{
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CONV_2D, 9));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_RESHAPE, 2));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CONV_2D, 0));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CONV_2D, -1));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_FULLY_CONNECTED,
						 15));
	/* BROADCAST_TO's version 1 was withdrawn. */
	cr_assert_null(opver__op_runtime_version(OPVER_OP_BROADCAST_TO, 1));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_CUSTOM, 1));
	cr_assert_null(opver__op_runtime_version(OPVER_OP_DELEGATE, 1));
	cr_assert_null(opver__op_runtime_version(1000, 1));
}

Test(runtime_version, every_version_the_rules_give_has_a_release)
{
	/* The highest version of each rule, read off op_version.cc. */
	static const struct {
		int32_t op;
		int32_t highest;
	} rules[] = {
		{ OPVER_OP_CONV_2D, 8 },
		{ OPVER_OP_DEPTHWISE_CONV_2D, 7 },
		{ OPVER_OP_FULLY_CONNECTED, 14 },
		{ OPVER_OP_AVERAGE_POOL_2D, 3 },
		{ OPVER_OP_MAX_POOL_2D, 3 },
		{ OPVER_OP_RESHAPE, 1 },
		{ OPVER_OP_SOFTMAX, 3 },
		{ OPVER_OP_ADD, 6 },
		{ OPVER_OP_MUL, 8 },
		{ OPVER_OP_SUB, 5 },
		{ OPVER_OP_DIV, 2 },
		{ OPVER_OP_MAXIMUM, 4 },
		{ OPVER_OP_MINIMUM, 4 },
		{ OPVER_OP_SQUARED_DIFFERENCE, 2 },
		{ OPVER_OP_FLOOR_DIV, 3 },
		{ OPVER_OP_FLOOR_MOD, 2 },
		{ OPVER_OP_POW, 1 },
		{ OPVER_OP_ADD_N, 1 },
		{ OPVER_OP_QUANTIZE, 5 },
		{ OPVER_OP_DEQUANTIZE, 8 },
		{ OPVER_OP_GATHER, 7 },
		{ OPVER_OP_GATHER_ND, 5 },
		{ OPVER_OP_TILE, 3 },
		{ OPVER_OP_FILL, 4 },
		{ OPVER_OP_CAST, 8 },
		{ OPVER_OP_SPACE_TO_DEPTH, 2 },
		{ OPVER_OP_DEPTH_TO_SPACE, 2 },
		{ OPVER_OP_SPACE_TO_BATCH_ND, 4 },
		{ OPVER_OP_BATCH_TO_SPACE_ND, 4 },
		{ OPVER_OP_SHAPE, 1 },
		{ OPVER_OP_ZEROS_LIKE, 1 },
	};

	for (int32_t i = 0; i < COUNT(rules); i++)
		for (int32_t v = 1; v <= rules[i].highest; v++)
			cr_assert_not_null(
				opver__op_runtime_version(rules[i].op, v),
				"%s v%d", opver_op_name(rules[i].op), v);
}

Test(runtime_version, comparison_is_numeric_per_component)
{
	cr_assert_gt(opver__compare_runtime_versions("1.14.0", "1.5.0"), 0);
	cr_assert_lt(opver__compare_runtime_versions("1.5.0", "1.14.0"), 0);
	cr_assert_gt(opver__compare_runtime_versions("10.0.0", "9.9.9"), 0);
	cr_assert_lt(opver__compare_runtime_versions("2.3.0", "2.14.4"), 0);
	cr_assert_eq(opver__compare_runtime_versions("2.3.0", "2.3.0"), 0);
}

Test(runtime_version, a_missing_component_is_smaller)
{
	cr_assert_gt(opver__compare_runtime_versions("2.3.0", "2.3"), 0);
	cr_assert_lt(opver__compare_runtime_versions("2.3", "2.3.0"), 0);
	cr_assert_lt(opver__compare_runtime_versions("", "1.5.0"), 0);
	cr_assert_eq(opver__compare_runtime_versions("", ""), 0);
}

Test(runtime_version, non_numeric_components_are_skipped_as_tflite_does)
{
	cr_assert_eq(opver__compare_runtime_versions("2.3.0-rc1", "2.3.0"), 0);
	cr_assert_eq(opver__compare_runtime_versions("2.x.0", "2.9.0"), 0);
	cr_assert_lt(opver__compare_runtime_versions("2.x.0", "2.9.1"), 0);
}
