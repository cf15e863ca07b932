/*
 * reshape.c - RESHAPE: the input's bytes, unchanged, under the output's
 * shape, for every element type of fixed size.
 *
 * The new shape comes, as in TFLite, from the optional second input when
 * it is a 1-D INT32 tensor, else from the new_shape option (where [0] is
 * TFLite's legacy spelling of a scalar), else, with neither, from the
 * output tensor itself.  One entry may be -1: it stands for what the
 * element count leaves.  Prepare gives the output that shape
 * (ref_shape_output()), so it follows a resized input.  A shape tensor
 * that is not constant has no values before invoke: the output is then
 * dynamic and invoke gives it their shape; an output that keeps its
 * shape (a delegate partition reads it; hosts before ABI 2.4) has its
 * element count checked against the input's in prepare, and in invoke
 * the shape the values give checked against its own.
 *
 * Version range: TFLite has only RESHAPE version 1.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"
#include "node_checks.h"

enum { RESHAPE_INPUT = 0, RESHAPE_SHAPE = 1 };

typedef struct reshape_data {
	size_t bytes; /* of the input and of the output */
	bool dynamic; /* the output is shaped at invoke, from the shape tensor */
	/* The shape tensor has values only at invoke, and the output keeps
	 * its shape (a delegate reads it): invoke checks they agree. */
	bool check_values;
} reshape_data;

/* A new shape of `count` dimensions, from `what`, has the output's rank. */
static opver_status reshape_check_rank(const opver_context *ctx, int32_t count,
				       const char *what,
				       const opver_tensor *output)
{
	if (count == output->rank)
		return OPVER_OK;
	OPVER_REPORT(ctx, "%s has %d dimensions; output '%s' has rank %d",
		     what, (int)count, output->name, (int)output->rank);
	return OPVER_ERROR_INVALID_MODEL;
}

/* The shape `dims` (count entries, from `what`) asks for, into want[]:
 * at most one -1, which takes what the other entries leave of `elements`
 * (with no element, the output's own size there), and no other negative
 * entry. */
static opver_status reshape_infer(const opver_context *ctx,
				  const int32_t *dims, int32_t count,
				  const char *what, size_t elements,
				  const opver_tensor *output, int32_t *want)
{
	int32_t stretch = -1;
	size_t known = 1;

	if (count > OPVER_RESHAPE_MAX_DIMS) {
		OPVER_REPORT(ctx, "%s has %d dimensions; at most %d are supported",
			     what, (int)count, OPVER_RESHAPE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t i = 0; i < count; i++) {
		want[i] = dims[i];
		if (dims[i] >= 0) {
			known *= (size_t)dims[i];
		} else if (dims[i] == -1 && stretch < 0) {
			stretch = i;
		} else {
			OPVER_REPORT(ctx,
				     "%s has dimension %d of %d; only one dimension may be -1 (inferred) and none otherwise negative",
				     what, (int)i, (int)dims[i]);
			return OPVER_ERROR_INVALID_MODEL;
		}
	}
	if (stretch < 0)
		return OPVER_OK;
	if (known != 0 && elements % known != 0) {
		OPVER_REPORT(ctx,
			     "%s leaves %zu elements of input for its -1 (dimension %d) with %zu elements in the others; no whole size fits",
			     what, elements, (int)stretch, known);
		return OPVER_ERROR_INVALID_MODEL;
	}
	want[stretch] = known != 0 ? (int32_t)(elements / known)
			: output->rank == count ? output->dims[stretch] : 0;
	return OPVER_OK;
}

/* Gives the output the shape the node asks for, from a constant shape
 * tensor or the option; with neither, or a shape tensor whose values
 * come only at invoke, the output's own shape stands (a shape tensor's
 * length must still be its rank). */
static opver_status reshape_shape_output(const opver_context *ctx,
					 const opver_node *node,
					 size_t elements, bool at_invoke)
{
	reshape_data *data = node->op_data;
	const opver_tensor *output = node->outputs[0];
	const opver_tensor *shape = node->num_inputs > RESHAPE_SHAPE
					    ? node->inputs[RESHAPE_SHAPE]
					    : NULL;
	opver_reshape_params params = OPVER_RESHAPE_PARAMS_DEFAULTS;
	int32_t want[OPVER_RESHAPE_MAX_DIMS];
	const int32_t *dims;
	char what[80], source[96];
	int32_t count;
	opver_status status;

	/* TFLite reads a shape tensor only when it is 1-D. */
	if (shape != NULL && shape->rank == 1) {
		status = ref_expect_type(ctx, "shape", shape, OPVER_TYPE_INT32);
		if (status != OPVER_OK)
			return status;
		snprintf(what, sizeof(what), "shape tensor '%s'", shape->name);
		/* Not constant: its values exist only at invoke, where a
		 * dynamic output gets the shape they give. */
		if (!shape->is_constant && !at_invoke) {
			status = ref_defer_output(ctx, 0, &data->dynamic);
			data->check_values = !data->dynamic;
			return status != OPVER_OK || data->dynamic ? status :
				reshape_check_rank(ctx, shape->dims[0], what,
						   output);
		}
		dims = shape->data;
		count = shape->dims[0];
	} else {
		opver_read_params(node, &params, sizeof(params));
		if (params.num_dims == 0)
			return OPVER_OK;
		snprintf(what, sizeof(what), "option new_shape");
		dims = params.dims;
		count = params.num_dims;
		if (count == 1 && params.dims[0] == 0)
			count = 0;
	}
	status = reshape_infer(ctx, dims, count, what, elements, output, want);
	if (status != OPVER_OK)
		return status;
	snprintf(source, sizeof(source), "%s gives", what);
	return at_invoke ? ref_shape_output_at_invoke(ctx, node, 0, want,
						      count, source) :
		ref_shape_output(ctx, node, 0, want, count, source);
}

/* The output has the input's element count (what RESHAPE copies). */
static opver_status reshape_check_elements(const opver_context *ctx,
					   const opver_node *node)
{
	const opver_tensor *input = node->inputs[RESHAPE_INPUT];
	const opver_tensor *output = node->outputs[0];

	if (opver_tensor_elements(output) == opver_tensor_elements(input))
		return OPVER_OK;
	OPVER_REPORT(ctx, "output '%s' has %zu elements; input '%s' has %zu",
		     output->name, opver_tensor_elements(output), input->name,
		     opver_tensor_elements(input));
	return OPVER_ERROR_INVALID_MODEL;
}

static opver_status reshape_prepare(const opver_context *ctx, opver_node *node)
{
	reshape_data *data = node->op_data;
	const opver_tensor *input, *output;
	size_t elements;
	opver_status status;

	status = ref_check_arity(ctx, node, 1, 2, 1,
				 "RESHAPE takes an input, an optional shape tensor and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[RESHAPE_INPUT];
	output = node->outputs[0];
	if (output->type != input->type) {
		OPVER_REPORT(ctx,
			     "output '%s' has type %s; RESHAPE keeps the type of input '%s', %s",
			     output->name, ctx->host->type_name(output->type),
			     input->name, ctx->host->type_name(input->type));
		return OPVER_ERROR_INVALID_MODEL;
	}
	elements = opver_tensor_elements(input);
	data->dynamic = false;
	data->check_values = false;
	status = reshape_shape_output(ctx, node, elements, false);
	if (status != OPVER_OK || data->dynamic)
		return status;
	status = reshape_check_elements(ctx, node);
	data->bytes = output->bytes;
	return status;
}

static opver_status reshape_invoke(const opver_context *ctx, opver_node *node)
{
	const reshape_data *data = node->op_data;
	const opver_tensor *input = node->inputs[RESHAPE_INPUT];
	size_t bytes = data->bytes;
	opver_status status;

	if (data->dynamic) {
		status = reshape_shape_output(
			ctx, node, opver_tensor_elements(input), true);
		if (status == OPVER_OK)
			status = reshape_check_elements(ctx, node);
		if (status != OPVER_OK)
			return status;
		bytes = input->bytes;
	} else if (data->check_values) {
		status = reshape_shape_output(
			ctx, node, opver_tensor_elements(input), true);
		if (status != OPVER_OK)
			return status;
	}
	/* The planner may give the output the input's memory. */
	if (bytes > 0 && node->outputs[0]->data != input->data)
		memmove(node->outputs[0]->data, input->data, bytes);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

/* Every type whose elements have a fixed size. */
#define RESHAPE_SIZED_TYPE(name, value, size) \
	| ((size) > 0 ? OPVER_T(name) : 0)
#define RESHAPE_SIZED_TYPES (0 OPVER_TYPE_MAP(RESHAPE_SIZED_TYPE))

const opver_kernel ref_reshape = {
	OPVER_KERNEL("reshape", RESHAPE, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(RESHAPE_SIZED_TYPES,
			     OPVER_T(INT32) | OPVER_TYPE_BIT_ABSENT),
		OPVER_OUTPUT(RESHAPE_SIZED_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(reshape_data),
	.prepare = reshape_prepare, .invoke = reshape_invoke,
};
