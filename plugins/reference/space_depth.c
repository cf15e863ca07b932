/*
 * space_depth.c - SPACE_TO_DEPTH and DEPTH_TO_SPACE, one permutation and
 * its inverse: each block_size x block_size square of pixels of an NHWC
 * tensor is one pixel of block_size^2 times the channels, the square's rows
 * outermost, then its columns, then the channels.  Only data moves, so one
 * kernel per op serves every type, by element size (quantized values are
 * copied as they are, as TFLite copies them).
 *
 * Version range: 1-2 each (2 adds int8).
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "node_checks.h"

typedef struct space_depth_data {
	int32_t block;
	/* The shape of the spatial side: [N, H, W, C] with H and W the
	 * multiples of the block, C the channels of one pixel there. */
	int32_t batches, height, width, channels;
	size_t element_bytes;
} space_depth_data;

/* TFLite's types for both ops. */
#define SPACE_DEPTH_TYPES                                              \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) |           \
	 OPVER_T(INT32) | OPVER_T(INT64))

/* Checks the node of either op; `space` is its input for SPACE_TO_DEPTH
 * and its output for DEPTH_TO_SPACE, `depth` the other. */
static opver_status space_depth_prepare(const opver_context *ctx,
					opver_node *node, bool to_depth)
{
	space_depth_data *data = node->op_data;
	opver_space_depth_params params = OPVER_SPACE_DEPTH_PARAMS_DEFAULTS;
	const opver_tensor *input, *output, *space, *depth;
	int32_t want[4];
	int32_t b;
	opver_status status;

	status = ref_check_arity(ctx, node, 1, 1, 1,
				 to_depth ? "SPACE_TO_DEPTH takes one input and one output"
					  : "DEPTH_TO_SPACE takes one input and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	output = node->outputs[0];
	status = ref_expect_type_in(ctx, "input", input, SPACE_DEPTH_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, input->type);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "input", input, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", output, 4);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	b = params.block_size;
	space = to_depth ? input : output;
	depth = to_depth ? output : input;
	if (b < 1 || (to_depth && (space->dims[1] % b != 0 ||
				   space->dims[2] % b != 0)) ||
	    (!to_depth && depth->dims[3] % (b * b) != 0)) {
		OPVER_REPORT(ctx,
			     "block_size %d must be positive and divide %s",
			     (int)b,
			     to_depth ? "the input's height and width"
				      : "the input's channels twice");
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (to_depth) {
		want[0] = input->dims[0];
		want[1] = input->dims[1] / b;
		want[2] = input->dims[2] / b;
		want[3] = input->dims[3] * b * b;
	} else {
		want[0] = input->dims[0];
		want[1] = input->dims[1] * b;
		want[2] = input->dims[2] * b;
		want[3] = input->dims[3] / (b * b);
	}
	status = ref_shape_output(ctx, node, 0, want, 4,
				  to_depth ? "SPACE_TO_DEPTH gives"
					   : "DEPTH_TO_SPACE gives");
	if (status != OPVER_OK)
		return status;
	data->block = b;
	data->batches = space->dims[0];
	data->height = space->dims[1];
	data->width = space->dims[2];
	data->channels = space->dims[3];
	data->element_bytes = ref_element_size(input->type);
	return OPVER_OK;
}

/* Moves every pixel between the spatial and the depth layout. */
static void space_depth_move(const space_depth_data *d, bool to_depth,
			     const unsigned char *in, unsigned char *out)
{
	const size_t pixel = (size_t)d->channels * d->element_bytes;

	for (int32_t n = 0; n < d->batches; n++)
		for (int32_t y = 0; y < d->height; y++)
			for (int32_t x = 0; x < d->width; x++) {
				const size_t space_at =
					(((size_t)n * (size_t)d->height +
					  (size_t)y) * (size_t)d->width +
					 (size_t)x) * pixel;
				/* Pixel (y / b, x / b) of the depth side,
				 * slot (y % b, x % b) of its square. */
				const size_t depth_at =
					((((size_t)n * (size_t)(d->height /
								d->block) +
					   (size_t)(y / d->block)) *
						  (size_t)(d->width / d->block) +
					  (size_t)(x / d->block)) *
						 (size_t)(d->block * d->block) +
					 (size_t)(y % d->block * d->block +
						  x % d->block)) * pixel;

				if (to_depth)
					memcpy(out + depth_at, in + space_at,
					       pixel);
				else
					memcpy(out + space_at, in + depth_at,
					       pixel);
			}
}

static opver_status space_to_depth_prepare(const opver_context *ctx,
					   opver_node *node)
{
	return space_depth_prepare(ctx, node, true);
}

static opver_status depth_to_space_prepare(const opver_context *ctx,
					   opver_node *node)
{
	return space_depth_prepare(ctx, node, false);
}

static opver_status space_to_depth_invoke(const opver_context *ctx,
					  opver_node *node)
{
	(void)ctx;
	space_depth_move(node->op_data, true, node->inputs[0]->data,
			 node->outputs[0]->data);
	return OPVER_OK;
}

static opver_status depth_to_space_invoke(const opver_context *ctx,
					  opver_node *node)
{
	(void)ctx;
	space_depth_move(node->op_data, false, node->inputs[0]->data,
			 node->outputs[0]->data);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_space_to_depth = {
	OPVER_KERNEL("space_to_depth", SPACE_TO_DEPTH, 1, 2),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(SPACE_DEPTH_TYPES),
				       OPVER_OUTPUT(SPACE_DEPTH_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(space_depth_data),
	.prepare = space_to_depth_prepare, .invoke = space_to_depth_invoke,
};

const opver_kernel ref_depth_to_space = {
	OPVER_KERNEL("depth_to_space", DEPTH_TO_SPACE, 1, 2),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(SPACE_DEPTH_TYPES),
				       OPVER_OUTPUT(SPACE_DEPTH_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(space_depth_data),
	.prepare = depth_to_space_prepare, .invoke = depth_to_space_invoke,
};
