/*
 * broadcast_to.c - BROADCAST_TO: the input repeated along the dimensions
 * where it has size 1 (or which it lacks, aligned from the last) to the
 * shape the shape tensor gives.  Only data moves, so one kernel serves
 * every type, by element size.
 *
 * The shape (INT32 or INT64) gives the output's: prepare gives it when
 * constant; otherwise the output is dynamic and invoke gives it (hosts
 * before ABI 2.4: checks the model's).  As in TFLite the output has at
 * most 8 dimensions.
 *
 * Version range: 2-3 (version 1 was withdrawn from TFLite).
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

enum { BROADCAST_TO_INPUT = 0, BROADCAST_TO_SHAPE = 1 };

#define BROADCAST_TO_MAX_RANK 8

/* Every type of fixed size, as TFLite's kernel copies bytes. */
#define BROADCAST_TO_SIZED_TYPE(name, value, size) \
	| ((size) > 0 ? OPVER_T(name) : 0)
#define BROADCAST_TO_TYPES (0 OPVER_TYPE_MAP(BROADCAST_TO_SIZED_TYPE))

typedef struct broadcast_to_data {
	int32_t rank; /* the output's */
	int32_t out_dims[BROADCAST_TO_MAX_RANK];
	/* Bytes per step of each output dimension, in the input (0 where it
	 * repeats) and in the output. */
	size_t in_stride[BROADCAST_TO_MAX_RANK];
	size_t out_stride[BROADCAST_TO_MAX_RANK];
	size_t element_bytes;
} broadcast_to_data;

/* Writes the output block at dimension `dim` from the input at `in`. */
static void broadcast_dimension(const broadcast_to_data *d, int32_t dim,
				const unsigned char *in, unsigned char *out)
{
	if (dim == d->rank) {
		memcpy(out, in, d->element_bytes);
		return;
	}
	/* A dimension the input repeats: write the block once, copy it. */
	if (d->in_stride[dim] == 0 && d->out_dims[dim] > 0) {
		broadcast_dimension(d, dim + 1, in, out);
		for (int32_t i = 1; i < d->out_dims[dim]; i++)
			memcpy(out + (size_t)i * d->out_stride[dim], out,
			       d->out_stride[dim]);
		return;
	}
	for (int32_t i = 0; i < d->out_dims[dim]; i++)
		broadcast_dimension(d, dim + 1, in + (size_t)i * d->in_stride[dim],
				    out + (size_t)i * d->out_stride[dim]);
}

/* The walk over the output, from its shape (given by now): the input,
 * aligned from the last dimension, has each dimension equal or 1. */
static opver_status broadcast_to_plan(const opver_context *ctx,
				      const opver_node *node,
				      broadcast_to_data *data)
{
	const opver_tensor *input = node->inputs[BROADCAST_TO_INPUT];
	const opver_tensor *output = node->outputs[0];
	size_t in_stride, out_stride;
	int32_t lead;

	if (output->rank > BROADCAST_TO_MAX_RANK ||
	    input->rank > output->rank) {
		OPVER_REPORT(ctx,
			     "input '%s' of rank %d cannot broadcast to output '%s' of rank %d (at most %d)",
			     input->name, (int)input->rank, output->name,
			     (int)output->rank, BROADCAST_TO_MAX_RANK);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->rank = output->rank;
	data->element_bytes = ref_element_size(input->type);
	lead = output->rank - input->rank;
	in_stride = out_stride = data->element_bytes;
	for (int32_t d = output->rank - 1; d >= 0; d--) {
		const int32_t in = d >= lead ? input->dims[d - lead] : 1;

		if (in != output->dims[d] && in != 1) {
			OPVER_REPORT(ctx,
				     "input '%s' has %d where output '%s' has %d (dimension %d); only 1 broadcasts",
				     input->name, (int)in, output->name,
				     (int)output->dims[d], (int)d);
			return OPVER_ERROR_INVALID_MODEL;
		}
		data->out_dims[d] = output->dims[d];
		data->out_stride[d] = out_stride;
		data->in_stride[d] = in == 1 ? 0 : in_stride;
		out_stride *= (size_t)output->dims[d];
		in_stride *= (size_t)in;
	}
	return OPVER_OK;
}

static opver_status broadcast_to_prepare(const opver_context *ctx,
					 opver_node *node)
{
	const opver_tensor *input, *shape, *output;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "BROADCAST_TO takes an input, a shape and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[BROADCAST_TO_INPUT];
	shape = node->inputs[BROADCAST_TO_SHAPE];
	output = node->outputs[0];
	status = ref_expect_type_in(ctx, "input", input, BROADCAST_TO_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, input->type);
	if (status == OPVER_OK)
		status = ref_expect_vector(ctx, "shape", shape,
					   OPVER_T(INT32) | OPVER_T(INT64),
					   output->rank);
	if (status == OPVER_OK)
		status = ref_shape_from_values(ctx, node, shape, output->rank);
	if (status != OPVER_OK)
		return status;
	/* Values at invoke: the output is shaped, and walked, there. */
	if (!shape->is_constant)
		return ref_defer_output(ctx, 0, NULL);
	status = broadcast_to_plan(ctx, node, node->op_data);
	if (status != OPVER_OK)
		return status;
	return ref_expect_shape_values(ctx, "shape", shape, output->dims,
				       output->rank, output);
}

static opver_status broadcast_to_invoke(const opver_context *ctx,
					opver_node *node)
{
	broadcast_to_data *data = node->op_data;
	const opver_tensor *shape = node->inputs[BROADCAST_TO_SHAPE];
	const opver_tensor *output = node->outputs[0];
	opver_status status = OPVER_OK;

	if (!shape->is_constant)
		status = ref_shape_at_invoke(ctx, node, "shape", shape,
					     (int32_t)shape->dims[0]);
	if (status == OPVER_OK && !shape->is_constant)
		status = broadcast_to_plan(ctx, node, data);
	if (status == OPVER_OK && output->bytes > 0)
		broadcast_dimension(data, 0,
				    node->inputs[BROADCAST_TO_INPUT]->data,
				    output->data);
	return status;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_broadcast_to = {
	OPVER_KERNEL("broadcast_to", BROADCAST_TO, 2, 3),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(BROADCAST_TO_TYPES,
			     OPVER_T(INT32) | OPVER_T(INT64)),
		OPVER_OUTPUT(BROADCAST_TO_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(broadcast_to_data),
	.prepare = broadcast_to_prepare, .invoke = broadcast_to_invoke,
};
