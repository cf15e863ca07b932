/*
 * test_op_version_spatial.c - TensorFlow Lite's version rules for the pools
 * and the resize ops.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* -------------------------------------------------------------- pools */

static const opver_pool_params pool_params = {
	.stride_width = 1,
	.stride_height = 1,
	.filter_width = 2,
	.filter_height = 2,
};

static const int32_t pool_ops[] = { OPVER_OP_AVERAGE_POOL_2D,
				    OPVER_OP_MAX_POOL_2D };

/* Asserts the version of both pools for one input and output type. */
static void expect_pools(int32_t input, int32_t output, int32_t version,
			 const char *fact)
{
	test_node n;

	unary_tensors(&n, input, output);
	for (int32_t i = 0; i < COUNT(pool_ops); i++)
		expect(build(&n, pool_ops[i], &pool_params, sizeof(pool_params),
			     1, 1),
		       version, fact);
}

Test(pools, float_is_version_1)
{
	expect_pools(OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, 1,
		     "float32 tensors");
	expect_pools(OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, 1, "uint8 tensors");
}

Test(pools, int8_is_version_2)
{
	expect_pools(OPVER_TYPE_INT8, OPVER_TYPE_INT8, 2, "int8 input");
}

Test(pools, int16_is_version_3)
{
	expect_pools(OPVER_TYPE_INT16, OPVER_TYPE_INT16, 3,
		     "int16 input and output");
	/* Both must be int16. */
	expect_pools(OPVER_TYPE_INT16, OPVER_TYPE_INT8, 1,
		     "int16 and int8 tensors");
}

/* ------------------------------------------------------------- resize */

Test(resize_bilinear, versions_follow_type_and_half_pixel_centers)
{
	static const opver_resize_bilinear_params plain = { 0, 0 };
	static const opver_resize_bilinear_params corners = { 1, 0 };
	static const opver_resize_bilinear_params centers = { 0, 1 };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &plain, sizeof(plain), 2,
		     1),
	       1, "float32 and int32 tensors");
	/* align_corners predates versioning. */
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &corners, sizeof(corners),
		     2, 1),
	       1, "float32 and int32 tensors");
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(centers),
		     2, 1),
	       3, "half_pixel_centers");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &plain, sizeof(plain), 2,
		     1),
	       2, "int8 input");
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(centers),
		     2, 1),
	       3, "half_pixel_centers");
	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(centers),
		     2, 1),
	       4, "int16 input");
	/* uint8 is version 1's, as float32. */
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &plain, sizeof(plain), 2,
		     1),
	       1, "uint8 and int32 tensors");
	/* A struct too short for half_pixel_centers reads its default. */
	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	expect(build(&n, OPVER_OP_RESIZE_BILINEAR, &centers, sizeof(int32_t),
		     2, 1),
	       1, "float32 and int32 tensors");
}

Test(resize_nearest_neighbor, versions_follow_type_and_options)
{
	static const opver_resize_nearest_neighbor_params plain = { 0, 0 };
	static const opver_resize_nearest_neighbor_params corners = { 1, 0 };
	static const opver_resize_nearest_neighbor_params centers = { 0, 1 };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &plain,
		     sizeof(plain), 2, 1),
	       1, "float32 and int32 tensors");
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &corners,
		     sizeof(corners), 2, 1),
	       3, "align_corners");
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &centers,
		     sizeof(centers), 2, 1),
	       3, "half_pixel_centers");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &plain,
		     sizeof(plain), 2, 1),
	       2, "int8 input");
	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	expect(build(&n, OPVER_OP_RESIZE_NEAREST_NEIGHBOR, &corners,
		     sizeof(corners), 2, 1),
	       4, "int16 input");
}
