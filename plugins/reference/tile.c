/*
 * tile.c - TILE: the input repeated multiples[d] times along each
 * dimension d.  Only data moves, so one kernel serves every type, by
 * element size.
 *
 * The multiples (INT32 or INT64, one per input dimension) give the output
 * shape: prepare gives it when they are constant; otherwise the output is
 * dynamic and invoke gives it (hosts before ABI 2.4: checks the model's).
 * The copy works from the innermost
 * dimension out: each block is written once and then duplicated whole.
 *
 * Version range: 1-3.  Version 2 (string input) has no kernel here: no
 * STRING signature matches.
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

enum { TILE_INPUT = 0, TILE_MULTIPLES = 1 };

/* TFLite's types of fixed size. */
#define TILE_TYPES                                                     \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) |           \
	 OPVER_T(INT16) | OPVER_T(INT32) | OPVER_T(INT64) | OPVER_T(BOOL))

/* The most dimensions TILE takes here. */
#define TILE_MAX_RANK 8

typedef struct tile_data {
	int32_t rank;
	int32_t multiples[TILE_MAX_RANK];  /* output.dims / input.dims */
	int32_t in_dims[TILE_MAX_RANK];
	size_t in_stride[TILE_MAX_RANK];   /* bytes per step of each input dim */
	size_t element_bytes;
} tile_data;

/* Writes the tiling of the input block at dimension `dim` (at `in`) to
 * `out` and returns the bytes written. */
static size_t tile_dimension(const tile_data *d, int32_t dim,
			     const unsigned char *in, unsigned char *out)
{
	size_t block = 0;

	if (dim == d->rank - 1) {
		block = (size_t)d->in_dims[dim] * d->element_bytes;
		if (block > 0)
			memcpy(out, in, block);
	} else {
		for (int32_t i = 0; i < d->in_dims[dim]; i++)
			block += tile_dimension(d, dim + 1,
						in + (size_t)i *
							     d->in_stride[dim],
						out + block);
	}
	for (int32_t m = 1; m < d->multiples[dim]; m++)
		memcpy(out + (size_t)m * block, out, block);
	return block * (size_t)d->multiples[dim];
}

/* The output's shape, input * multiples: given in prepare for constant
 * multiples; `at_invoke` for run-time ones (a dynamic output). */
static opver_status tile_shape_output(const opver_context *ctx,
				      const opver_node *node, bool at_invoke)
{
	const opver_tensor *input = node->inputs[TILE_INPUT];
	const opver_tensor *multiples = node->inputs[TILE_MULTIPLES];
	ref_dims shape = { 0 };

	for (int32_t d = 0; d < input->rank; d++) {
		const int64_t value = ref_integer_at(multiples, (size_t)d);
		const int64_t out = value * input->dims[d];

		if (value < 0 || value > INT32_MAX || out > INT32_MAX) {
			OPVER_REPORT(ctx,
				     "multiples '%s' gives %lld at entry %d, which tiles input '%s''s %d to no size a dimension can have",
				     multiples->name, (long long)value, (int)d,
				     input->name, (int)input->dims[d]);
			return OPVER_ERROR_INVALID_MODEL;
		}
		ref_dims_push(&shape, (int32_t)out);
	}
	return at_invoke ?
		ref_shape_dims_at_invoke(ctx, node, 0, &shape, "this TILE gives") :
		ref_shape_dims(ctx, node, 0, &shape, "this TILE gives");
}

/* The walk over the output, from its shape (given by now). */
static opver_status tile_plan(const opver_context *ctx, const opver_node *node,
			      tile_data *data)
{
	const opver_tensor *input = node->inputs[TILE_INPUT];
	const opver_tensor *output = node->outputs[0];
	size_t stride;
	opver_status status = ref_expect_rank(ctx, "output", output,
					      input->rank);

	if (status != OPVER_OK)
		return status;
	data->rank = input->rank;
	data->element_bytes = ref_element_size(input->type);
	stride = data->element_bytes;
	for (int32_t d = input->rank - 1; d >= 0; d--) {
		const int32_t in = input->dims[d], out = output->dims[d];

		/* An empty input dimension tiles to an empty one at any
		 * multiple; its multiple here only has to be one that fits. */
		if (in == 0 ? out != 0 : out % in != 0) {
			OPVER_REPORT(ctx,
				     "output '%s' has dimension %d of %d; no multiple of input '%s''s %d gives it",
				     output->name, (int)d, (int)out,
				     input->name, (int)in);
			return OPVER_ERROR_INVALID_MODEL;
		}
		data->multiples[d] = in == 0 ? 0 : out / in;
		data->in_dims[d] = in;
		data->in_stride[d] = stride;
		stride *= (size_t)in;
	}
	return OPVER_OK;
}

static opver_status tile_prepare(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *input, *multiples, *output;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "TILE takes an input, multiples and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[TILE_INPUT];
	multiples = node->inputs[TILE_MULTIPLES];
	output = node->outputs[0];
	status = ref_expect_type_in(ctx, "input", input, TILE_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, input->type);
	if (status == OPVER_OK)
		status = ref_expect_vector(ctx, "multiples", multiples,
					   OPVER_T(INT32) | OPVER_T(INT64),
					   input->rank);
	if (status == OPVER_OK && input->rank > TILE_MAX_RANK) {
		OPVER_REPORT(ctx, "input '%s' has rank %d; at most %d is supported",
			     input->name, (int)input->rank, TILE_MAX_RANK);
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (status != OPVER_OK)
		return status;
	/* Multiples at invoke: the output is shaped, and walked, there. */
	if (!multiples->is_constant)
		return ref_defer_output(ctx, 0, NULL);
	status = tile_shape_output(ctx, node, false);
	return status == OPVER_OK ? tile_plan(ctx, node, node->op_data)
				  : status;
}

static opver_status tile_invoke(const opver_context *ctx, opver_node *node)
{
	tile_data *data = node->op_data;
	opver_status status = OPVER_OK;

	if (!node->inputs[TILE_MULTIPLES]->is_constant) {
		status = tile_shape_output(ctx, node, true);
		if (status == OPVER_OK)
			status = tile_plan(ctx, node, data);
	}
	if (status != OPVER_OK || node->outputs[0]->bytes == 0)
		return status;
	if (data->rank == 0)
		memcpy(node->outputs[0]->data, node->inputs[TILE_INPUT]->data,
		       data->element_bytes);
	else
		tile_dimension(data, 0, node->inputs[TILE_INPUT]->data,
			       node->outputs[0]->data);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_tile = {
	OPVER_KERNEL("tile", TILE, 1, 3),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(TILE_TYPES, OPVER_T(INT32) | OPVER_T(INT64)),
		OPVER_OUTPUT(TILE_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(tile_data),
	.prepare = tile_prepare, .invoke = tile_invoke,
};
