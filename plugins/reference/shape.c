/*
 * shape.c - SHAPE: the input's dimensions as a 1-D INT32 or INT64 tensor
 * (out_type).  The input's type and values do not matter, only its shape,
 * which opver fixes before running.
 *
 * Version range: TFLite has only SHAPE version 1.
 */
#include "kernels.h"
#include "node_checks.h"

static opver_status shape_prepare(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *input, *output;
	opver_shape_params params = OPVER_SHAPE_PARAMS_DEFAULTS;
	opver_status status;

	status = ref_check_arity(ctx, node, 1, 1, 1,
				 "SHAPE takes one input and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	output = node->outputs[0];
	status = ref_expect_type_in(ctx, "output", output,
				    OPVER_T(INT32) | OPVER_T(INT64));
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", output, 1);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	if (params.out_type != output->type) {
		OPVER_REPORT(ctx,
			     "out_type is %s; output '%s' has type %s",
			     ctx->host->type_name(params.out_type),
			     output->name, ctx->host->type_name(output->type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	return ref_shape_output(ctx, node, 0, (const int32_t[]){ input->rank },
				1, "an entry per dimension of the input gives");
}

static opver_status shape_invoke(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *input = node->inputs[0];
	opver_tensor *output = node->outputs[0];

	(void)ctx;
	for (int32_t d = 0; d < input->rank; d++)
		if (output->type == OPVER_TYPE_INT32)
			((int32_t *)output->data)[d] = input->dims[d];
		else
			((int64_t *)output->data)[d] = input->dims[d];
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_shape = {
	OPVER_KERNEL("shape", SHAPE, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(0), OPVER_OUTPUT(OPVER_T(INT32) | OPVER_T(INT64)))),
	REF_KERNEL_TRAITS,
	.prepare = shape_prepare, .invoke = shape_invoke,
};
