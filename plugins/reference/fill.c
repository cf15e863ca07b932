/*
 * fill.c - tensors of one value: FILL (the scalar `value` at every element
 * of the shape `dims` gives) and ZEROS_LIKE (zeros of the input's shape and
 * type).  Only data moves, so FILL is written once, by element size.
 *
 * FILL's dims (INT32 or INT64) give the output's shape: prepare gives it
 * when they are constant; otherwise the output is dynamic and invoke
 * gives it (hosts before ABI 2.4: checks the model's).
 *
 * Version ranges: FILL 1-4 (2 adds bool, 3 int8 and int16, 4 float16; 2's
 * strings are not computed here); ZEROS_LIKE has only version 1.
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

enum { FILL_DIMS = 0, FILL_VALUE = 1 };

/* TFLite's value types of fixed size. */
#define FILL_TYPES                                                     \
	(OPVER_T(FLOAT32) | OPVER_T(FLOAT16) | OPVER_T(INT8) |         \
	 OPVER_T(INT16) | OPVER_T(INT32) | OPVER_T(INT64) | OPVER_T(BOOL))

static opver_status fill_prepare(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *dims, *value, *output;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "FILL takes dims, a value and one output");
	if (status != OPVER_OK)
		return status;
	dims = node->inputs[FILL_DIMS];
	value = node->inputs[FILL_VALUE];
	output = node->outputs[0];
	status = ref_expect_vector(ctx, "dims", dims,
				   OPVER_T(INT32) | OPVER_T(INT64),
				   output->rank);
	if (status == OPVER_OK)
		status = ref_expect_type_in(ctx, "value", value, FILL_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "value", value, 0);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, value->type);
	if (status == OPVER_OK)
		status = ref_shape_from_values(ctx, node, dims, output->rank);
	if (status != OPVER_OK)
		return status;
	if (!dims->is_constant)
		return ref_defer_output(ctx, 0, NULL);
	return ref_expect_shape_values(ctx, "dims", dims, output->dims,
				       output->rank, output);
}

static opver_status fill_invoke(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *dims = node->inputs[FILL_DIMS];
	const opver_tensor *value = node->inputs[FILL_VALUE];
	opver_tensor *output = node->outputs[0];
	unsigned char *out;

	if (!dims->is_constant) {
		opver_status status = ref_shape_at_invoke(
			ctx, node, "dims", dims, (int32_t)dims->dims[0]);

		if (status != OPVER_OK)
			return status;
	}
	out = output->data;
	for (size_t at = 0; at < output->bytes; at += value->bytes)
		memcpy(out + at, value->data, value->bytes);
	return OPVER_OK;
}

static opver_status zeros_like_prepare(const opver_context *ctx,
				       opver_node *node)
{
	static const char usage[] = "ZEROS_LIKE takes one input and one output";
	opver_status status = ref_check_arity(ctx, node, 1, 1, 1, usage);

	if (status != OPVER_OK)
		return status;
	return ref_check_unary(ctx, node, node->inputs[0]->type,
			       node->inputs[0]->type, usage);
}

/* Zero bits are zero in every type ZEROS_LIKE takes, 0.0f included. */
static opver_status zeros_like_invoke(const opver_context *ctx,
				      opver_node *node)
{
	opver_tensor *output = node->outputs[0];

	(void)ctx;
	if (output->bytes > 0)
		memset(output->data, 0, output->bytes);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_fill = {
	OPVER_KERNEL("fill", FILL, 1, 4),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(INT32) | OPVER_T(INT64), FILL_TYPES),
		OPVER_OUTPUT(FILL_TYPES))),
	REF_KERNEL_TRAITS,
	.prepare = fill_prepare, .invoke = fill_invoke,
};

/* TFLite's ZEROS_LIKE takes these three types. */
#define ZEROS_LIKE_TYPES \
	(OPVER_T(FLOAT32) | OPVER_T(INT32) | OPVER_T(INT64))

const opver_kernel ref_zeros_like = {
	OPVER_KERNEL("zeros_like", ZEROS_LIKE, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(ZEROS_LIKE_TYPES),
				       OPVER_OUTPUT(ZEROS_LIKE_TYPES))),
	REF_KERNEL_TRAITS,
	.prepare = zeros_like_prepare, .invoke = zeros_like_invoke,
};
