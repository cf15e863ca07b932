/*
 * test_op_version_movement.c - TensorFlow Lite's version rules for the
 * data-movement ops: RESHAPE, PAD, CONCATENATION, SPLIT, TRANSPOSE, SLICE,
 * GATHER, TILE, FILL, SPACE_TO_*, CAST and the like.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* ------------------------------------------------------------ RESHAPE */

Test(reshape, every_reshape_is_version_1)
{
	static const opver_reshape_params params = { .num_dims = 2,
						     .dims = { 1, 36 } };
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESHAPE, &params, sizeof(params), 2, 1), 1,
	       "RESHAPE a single version");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
	n.inputs[1] = TENSOR(INT32, vector_2);
	expect(build(&n, OPVER_OP_RESHAPE, &params, sizeof(params), 2, 1), 1,
	       "RESHAPE a single version");
	expect(build(&n, OPVER_OP_RESHAPE, NULL, 0, 0, 0), 1,
	       "RESHAPE a single version");
}

/* ------------------------------------------------ data-movement ops */

static const int32_t rank_5[] = { 1, 2, 1, 2, 2 };
static const int32_t rank_6[] = { 1, 2, 1, 2, 2, 1 };
static const int32_t rank_7[] = { 1, 2, 1, 2, 2, 1, 1 };

/*
 * A data-movement node: input `data` (at index data_at, the other inputs
 * INT32 vectors) of `type` and shape [1,4] unless `rank`/`dims` are given,
 * output of `output` type; asserts the version and the reason's `fact`.
 */
static void expect_move(int32_t op, const void *params, size_t params_size,
			int32_t num_inputs, int32_t data_at, int32_t type,
			int32_t output, int32_t rank, const int32_t *dims,
			int32_t version, const char *fact)
{
	test_node n;

	for (int32_t i = 0; i < num_inputs; i++)
		n.inputs[i] = TENSOR(INT32, vector_2);
	n.inputs[data_at] = dims != NULL ? tensor(type, rank, dims)
					 : tensor(type, COUNT(row_4), row_4);
	n.outputs[0] = tensor(output, COUNT(row_4), row_4);
	expect(build(&n, op, params, params_size, num_inputs, 1), version,
	       fact);
}

/* The common case: the data is input 0 and the output has its type. */
#define EXPECT_MOVE(op, inputs, type, version, fact)                        \
	expect_move(OPVER_OP_##op, NULL, 0, inputs, 0, OPVER_TYPE_##type,   \
		    OPVER_TYPE_##type, 0, NULL, version, fact)
#define EXPECT_MOVE_RANK(op, inputs, shape, version, fact)                  \
	expect_move(OPVER_OP_##op, NULL, 0, inputs, 0, OPVER_TYPE_FLOAT32,  \
		    OPVER_TYPE_FLOAT32, COUNT(shape), shape, version, fact)

Test(pad, versions_follow_type_and_rank)
{
	static const int32_t ops[] = { OPVER_OP_PAD, OPVER_OP_PADV2 };

	for (size_t i = 0; i < COUNT(ops); i++) {
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_BOOL,
			    OPVER_TYPE_BOOL, COUNT(rank_5), rank_5, 5,
			    "bool input");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_INT8,
			    OPVER_TYPE_INT8, COUNT(rank_5), rank_5, 4,
			    "more than 4 dimensions");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_INT16,
			    OPVER_TYPE_INT16, 0, NULL, 3, "int16 input");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_INT8,
			    OPVER_TYPE_INT8, 0, NULL, 2, "int8 input");
		expect_move(ops[i], NULL, 0, 2, 0, OPVER_TYPE_UINT8,
			    OPVER_TYPE_UINT8, COUNT(nhwc_4), nhwc_4, 1,
			    "uint8 and int32 tensors");
	}
}

Test(mirror_pad, versions_follow_the_input_type)
{
	EXPECT_MOVE(MIRROR_PAD, 2, INT16, 3, "int16 input");
	EXPECT_MOVE(MIRROR_PAD, 2, INT8, 2, "int8 input");
	EXPECT_MOVE(MIRROR_PAD, 2, FLOAT32, 1, "float32 and int32 tensors");
}

Test(concatenation, versions_follow_the_input_type)
{
	EXPECT_MOVE(CONCATENATION, 1, INT4, 5, "int4 input");
	EXPECT_MOVE(CONCATENATION, 1, UINT32, 4, "uint32 input");
	EXPECT_MOVE(CONCATENATION, 1, INT16, 3, "int16 input");
	EXPECT_MOVE(CONCATENATION, 1, INT8, 2, "int8 input");
	EXPECT_MOVE(CONCATENATION, 1, UINT8, 1, "uint8 tensors");
}

Test(split, versions_follow_the_data_input_not_the_axis)
{
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_INT16,
		    OPVER_TYPE_INT16, 0, NULL, 4, "int16 input");
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_INT32,
		    OPVER_TYPE_INT32, 0, NULL, 3, "int32 input");
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_INT8,
		    OPVER_TYPE_INT8, 0, NULL, 2, "int8 input");
	expect_move(OPVER_OP_SPLIT, NULL, 0, 2, 1, OPVER_TYPE_FLOAT32,
		    OPVER_TYPE_FLOAT32, 0, NULL, 1,
		    "int32 and float32 tensors");
	EXPECT_MOVE(SPLIT_V, 3, INT8, 2, "int8 input");
	EXPECT_MOVE(SPLIT_V, 3, INT16, 1, "int16 and int32 tensors");
}

Test(pack, versions_follow_the_input_type)
{
	EXPECT_MOVE(PACK, 2, INT8, 2, "int8 input");
	EXPECT_MOVE(PACK, 2, INT16, 3, "int16 input and output");
	expect_move(OPVER_OP_PACK, NULL, 0, 2, 0, OPVER_TYPE_INT16,
		    OPVER_TYPE_INT8, 0, NULL, 1, "int16, int32 and int8");
	EXPECT_MOVE(PACK, 2, UINT32, 4, "uint32 input");
	EXPECT_MOVE(UNPACK, 1, INT8, 2, "int8 input");
	EXPECT_MOVE(UNPACK, 1, UINT8, 2, "uint8 input");
	EXPECT_MOVE(UNPACK, 1, BOOL, 3, "bool input");
	EXPECT_MOVE(UNPACK, 1, INT16, 4, "int16 input and output");
	EXPECT_MOVE(UNPACK, 1, FLOAT16, 5, "float16 input");
	EXPECT_MOVE(UNPACK, 1, BFLOAT16, 5, "bfloat16 input");
	EXPECT_MOVE(UNPACK, 1, FLOAT32, 1, "float32 tensors");
}

Test(squeeze, only_strings_need_version_2)
{
	EXPECT_MOVE(SQUEEZE, 1, STRING, 2, "string input");
	EXPECT_MOVE(SQUEEZE, 1, INT8, 1, "int8 tensors");
	EXPECT_MOVE(EXPAND_DIMS, 2, INT8, 1, "no version rule for EXPAND_DIMS");
}

Test(transpose, versions_follow_type_and_rank)
{
	EXPECT_MOVE_RANK(TRANSPOSE, 2, rank_7, 8, "more than 6 dimensions");
	EXPECT_MOVE(TRANSPOSE, 2, BFLOAT16, 8, "bfloat16 input");
	EXPECT_MOVE(TRANSPOSE, 2, INT4, 7, "int4 input");
	EXPECT_MOVE_RANK(TRANSPOSE, 2, rank_6, 6, "6 dimensions");
	EXPECT_MOVE(TRANSPOSE, 2, INT16, 5, "int16 input");
	EXPECT_MOVE_RANK(TRANSPOSE, 2, rank_5, 4, "5 dimensions");
	EXPECT_MOVE(TRANSPOSE, 2, BOOL, 3, "bool input");
	EXPECT_MOVE(TRANSPOSE, 2, INT8, 2, "int8 input");
	EXPECT_MOVE(TRANSPOSE, 2, UINT8, 1, "uint8 and int32 tensors");
}

Test(slice, versions_follow_type_and_rank)
{
	EXPECT_MOVE(SLICE, 3, INT4, 7, "int4 input");
	EXPECT_MOVE(SLICE, 3, UINT32, 6, "uint32 input");
	EXPECT_MOVE_RANK(SLICE, 3, rank_5, 5, "more than 4 dimensions");
	EXPECT_MOVE(SLICE, 3, INT16, 4, "int16 input");
	EXPECT_MOVE(SLICE, 3, STRING, 3, "string input");
	EXPECT_MOVE(SLICE, 3, INT8, 2, "int8 input");
	EXPECT_MOVE(SLICE, 3, INT64, 1, "int64 and int32 tensors");
}

Test(strided_slice, versions_follow_masks_type_and_rank)
{
	static const opver_strided_slice_params offset = { .offset = 1 };
	static const opver_strided_slice_params ellipsis = {
		.ellipsis_mask = 2
	};
	static const opver_strided_slice_params new_axis = {
		.new_axis_mask = 1, .shrink_axis_mask = 2
	};
	static const opver_strided_slice_params plain = {
		.begin_mask = 3, .end_mask = 1, .shrink_axis_mask = 1
	};

	expect_move(OPVER_OP_STRIDED_SLICE, &offset, sizeof(offset), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 8, "offset");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_UINT32, OPVER_TYPE_UINT32, 0, NULL, 7,
		    "uint32 input");
	expect_move(OPVER_OP_STRIDED_SLICE, &ellipsis, sizeof(ellipsis), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 6,
		    "ellipsis_mask");
	expect_move(OPVER_OP_STRIDED_SLICE, &new_axis, sizeof(new_axis), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 6,
		    "new_axis_mask");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_STRING, OPVER_TYPE_STRING, 0, NULL, 5,
		    "string input");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_BOOL, OPVER_TYPE_BOOL, COUNT(rank_5), rank_5, 4,
		    "more than 4 dimensions");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_BOOL, OPVER_TYPE_BOOL, 0, NULL, 3, "bool input");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_INT8, OPVER_TYPE_INT8, 0, NULL, 2, "int8 input");
	expect_move(OPVER_OP_STRIDED_SLICE, &plain, sizeof(plain), 3, 0,
		    OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, 0, NULL, 1,
		    "float32 and int32 tensors");
}

/* ------------------------------------- data movement: GATHER to CAST */

static const int32_t matrix_2x3[] = { 2, 3 };
static const int32_t nhw_3[] = { 1, 4, 4 };

/* A two-input node: input 0 of `input`'s type and shape [1,3,3,4], input
 * 1 of `second` as a vector of 2, the output of `output`. */
static const opver__op_signature *two_inputs(test_node *n, int32_t op,
					     int32_t input, int32_t second,
					     int32_t output,
					     const void *params,
					     size_t params_size)
{
	n->inputs[0] = tensor(input, COUNT(nhwc_4), nhwc_4);
	n->inputs[1] = tensor(second, COUNT(vector_2), vector_2);
	n->outputs[0] = tensor(output, COUNT(nhwc_4), nhwc_4);
	return build(n, op, params, params_size, 2, 1);
}

#define GATHER_NODE(n, input, positions, params)                      \
	two_inputs((n), OPVER_OP_GATHER, OPVER_TYPE_##input,            \
		   OPVER_TYPE_##positions, OPVER_TYPE_##input, &(params), \
		   sizeof(params))

Test(gather, versions_follow_types_and_batch_dims)
{
	static const opver_gather_params plain = { .axis = 1 };
	static const opver_gather_params batched = { .axis = 1,
						     .batch_dims = 1 };
	test_node n;

	expect(GATHER_NODE(&n, FLOAT32, INT32, plain), 1, "float32");
	expect(GATHER_NODE(&n, UINT8, INT64, plain), 1, "uint8");
	expect(GATHER_NODE(&n, INT8, INT32, plain), 2, "int8 input");
	expect(GATHER_NODE(&n, BOOL, INT32, plain), 3, "bool input");
	expect(GATHER_NODE(&n, INT16, INT32, plain), 4, "int16 input");
	expect(GATHER_NODE(&n, INT8, INT32, batched), 5, "batch_dims");
	expect(GATHER_NODE(&n, FLOAT32, INT16, batched), 6,
	       "int16 positions");
	expect(GATHER_NODE(&n, INT4, INT16, batched), 7, "int4 input");
	/* Without options batch_dims is 0. */
	expect(two_inputs(&n, OPVER_OP_GATHER, OPVER_TYPE_FLOAT32,
			  OPVER_TYPE_INT32, OPVER_TYPE_FLOAT32, NULL, 0),
	       1, "float32");
	expect(build(&n, OPVER_OP_GATHER, &plain, sizeof(plain), 1, 1), 1,
	       "GATHER needs 2 input(s)");
}

Test(gather_nd, versions_follow_params_and_indices)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_INT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_INT8, NULL, 0),
	       1, "int8");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_STRING,
			  OPVER_TYPE_INT32, OPVER_TYPE_STRING, NULL, 0),
	       2, "string params");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_INT16,
			  OPVER_TYPE_INT64, OPVER_TYPE_INT16, NULL, 0),
	       3, "int16 params");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_INT16,
			  OPVER_TYPE_INT16, OPVER_TYPE_INT16, NULL, 0),
	       4, "int16 indices");
	expect(two_inputs(&n, OPVER_OP_GATHER_ND, OPVER_TYPE_BOOL,
			  OPVER_TYPE_INT16, OPVER_TYPE_BOOL, NULL, 0),
	       5, "bool params");
}

Test(tile, versions_follow_the_input_type)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_TILE, OPVER_TYPE_UINT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_UINT8, NULL, 0),
	       1, "uint8");
	expect(two_inputs(&n, OPVER_OP_TILE, OPVER_TYPE_STRING,
			  OPVER_TYPE_INT64, OPVER_TYPE_STRING, NULL, 0),
	       2, "string input");
	expect(two_inputs(&n, OPVER_OP_TILE, OPVER_TYPE_INT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_INT8, NULL, 0),
	       3, "int8 input");
}

Test(broadcast_to, starts_at_version_2)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_BROADCAST_TO, OPVER_TYPE_FLOAT32,
			  OPVER_TYPE_INT32, OPVER_TYPE_FLOAT32, NULL, 0),
	       2, "version 1 was withdrawn");
	expect(two_inputs(&n, OPVER_OP_BROADCAST_TO, OPVER_TYPE_INT8,
			  OPVER_TYPE_INT32, OPVER_TYPE_INT8, NULL, 0),
	       3, "int8 input");
	expect(two_inputs(&n, OPVER_OP_BROADCAST_TO, OPVER_TYPE_INT16,
			  OPVER_TYPE_INT64, OPVER_TYPE_INT16, NULL, 0),
	       3, "int16 input");
}

Test(fill, versions_follow_the_value_type)
{
	test_node n;

	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, NULL, 0),
	       1, "float32");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT64,
			  OPVER_TYPE_BOOL, OPVER_TYPE_BOOL, NULL, 0),
	       2, "bool value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_STRING, OPVER_TYPE_STRING, NULL, 0),
	       2, "string value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_INT8, OPVER_TYPE_INT8, NULL, 0),
	       3, "int8 value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT32,
			  OPVER_TYPE_INT16, OPVER_TYPE_INT16, NULL, 0),
	       3, "int16 value");
	expect(two_inputs(&n, OPVER_OP_FILL, OPVER_TYPE_INT64,
			  OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT16, NULL, 0),
	       4, "float16 value");
	expect(build(&n, OPVER_OP_FILL, NULL, 0, 1, 1), 1,
	       "FILL needs 2 input(s)");
}

Test(space_depth, int8_is_version_2)
{
	static const opver_space_depth_params params = { .block_size = 2 };
	static const int32_t ops[] = { OPVER_OP_SPACE_TO_DEPTH,
				       OPVER_OP_DEPTH_TO_SPACE };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++) {
		unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8);
		expect(build(&n, ops[i], &params, sizeof(params), 1, 1), 1,
		       "uint8");
		unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
		expect(build(&n, ops[i], &params, sizeof(params), 1, 1), 2,
		       "int8 input");
	}
}

Test(space_batch, versions_follow_type_and_rank)
{
	static const int32_t ops[] = { OPVER_OP_SPACE_TO_BATCH_ND,
				       OPVER_OP_BATCH_TO_SPACE_ND };
	test_node n;

	for (int32_t i = 0; i < COUNT(ops); i++) {
		n.inputs[1] = TENSOR(INT32, vector_2);
		n.inputs[2] = TENSOR(INT32, matrix_2x3);
		unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 1, "float32");
		unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT8);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 2, "int8 input");
		n.inputs[0] = TENSOR(INT8, nhw_3);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 3,
		       "rank other than 4");
		n.inputs[0] = TENSOR(FLOAT32, nhw_3);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 3,
		       "rank other than 4");
		unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT16);
		expect(build(&n, ops[i], NULL, 0, 3, 1), 4, "int16 input");
	}
}

Test(cast, versions_follow_either_type)
{
	static const struct {
		int32_t in, out, version;
		const char *fact;
	} pairs[] = {
		{ OPVER_TYPE_FLOAT32, OPVER_TYPE_INT32, 1, "float32 and int32" },
		{ OPVER_TYPE_UINT8, OPVER_TYPE_BOOL, 1, "uint8 and bool" },
		{ OPVER_TYPE_UINT32, OPVER_TYPE_INT64, 2, "uint32 input" },
		{ OPVER_TYPE_INT32, OPVER_TYPE_UINT32, 2, "uint32 output" },
		{ OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32, 3, "int8 input" },
		{ OPVER_TYPE_UINT32, OPVER_TYPE_INT8, 3, "int8 output" },
		{ OPVER_TYPE_UINT16, OPVER_TYPE_INT8, 4, "uint16 input" },
		{ OPVER_TYPE_INT8, OPVER_TYPE_UINT16, 4, "uint16 output" },
		{ OPVER_TYPE_FLOAT64, OPVER_TYPE_UINT16, 5, "float64 input" },
		{ OPVER_TYPE_INT32, OPVER_TYPE_FLOAT64, 5, "float64 output" },
		{ OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT32, 5, "float16 input" },
		{ OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT16, 5, "float16 output" },
		{ OPVER_TYPE_INT4, OPVER_TYPE_FLOAT32, 6,
		  "int4 input and float32 output" },
		/* int4 to anything else is no version-6 cast. */
		{ OPVER_TYPE_INT4, OPVER_TYPE_INT8, 3, "int8 output" },
		{ OPVER_TYPE_BFLOAT16, OPVER_TYPE_FLOAT64, 7, "bfloat16 input" },
		{ OPVER_TYPE_FLOAT32, OPVER_TYPE_BFLOAT16, 7,
		  "bfloat16 output" },
	};
	test_node n;

	for (int32_t i = 0; i < COUNT(pairs); i++) {
		unary_tensors(&n, pairs[i].in, pairs[i].out);
		expect(build(&n, OPVER_OP_CAST, NULL, 0, 1, 1),
		       pairs[i].version, pairs[i].fact);
	}
}

Test(shape_and_zeros_like, have_no_rule_and_are_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT64);
	expect(build(&n, OPVER_OP_SHAPE, NULL, 0, 1, 1), 1,
	       "no version rule for SHAPE");
	unary_tensors(&n, OPVER_TYPE_INT64, OPVER_TYPE_INT64);
	expect(build(&n, OPVER_OP_ZEROS_LIKE, NULL, 0, 1, 1), 1,
	       "no version rule for ZEROS_LIKE");
}
