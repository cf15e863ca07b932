/*
 * space_batch.c - SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND, one permutation
 * and its inverse.  SPACE_TO_BATCH_ND pads the spatial dimensions of an
 * [N, H, W, C] (or [N, H, C]) input, cuts them into blocks of
 * block_shape, and makes each position within a block a batch of its
 * own: output batch (by * block_w + bx) * N + n holds the pixels at
 * (y * block_h + by, x * block_w + bx) of padded input batch n.
 * BATCH_TO_SPACE_ND puts them back and crops.  Only data moves, so one
 * kernel per op serves every type, by element size; padding holds the
 * output's zero point (0 unquantized).
 *
 * block_shape and the paddings or crops are INT32 tensors ([M] and
 * [M, 2], M = 2 spatial dimensions, or 1 for rank 3): prepare computes the
 * geometry and shapes the output when they are constant; otherwise the
 * output is dynamic and invoke does both (hosts before ABI 2.4: checks
 * the model's shape).  Rank 3 is rank 4 with width 1.
 *
 * Version range: 1-4 each (2 adds int8, 3 rank 3, 4 int16).
 */
#include <string.h>

#include "elements.h"
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { SB_INPUT = 0, SB_BLOCK = 1, SB_PADDINGS = 2 };

typedef struct space_batch_geometry {
	int32_t block[2];  /* height, width */
	int32_t before[2]; /* padding (or crop) before, height and width */
	/* The batch side [N, H, W] and the space side [N, H, W] as four-
	 * dimensional shapes; the channels are common. */
	int32_t batch[3], space[3];
} space_batch_geometry;

typedef struct space_batch_data {
	space_batch_geometry g;
	size_t pixel_bytes;
	int64_t pad_value; /* the output's zero point */
} space_batch_data;

/* TFLite's types for both ops. */
#define SPACE_BATCH_TYPES                                              \
	(OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8) |           \
	 OPVER_T(INT16) | OPVER_T(INT32) | OPVER_T(INT64))

/* Dimension d of `t` as a rank-4 tensor: rank 3 has width 1. */
static int32_t dim4(const opver_tensor *t, int32_t d)
{
	if (t->rank == 4)
		return t->dims[d];
	return d < 2 ? t->dims[d] : d == 2 ? 1 : t->dims[2];
}

/*
 * The geometry the block and paddings (crops) values give, checked: block
 * entries positive, paddings or crops not negative, spatial sizes that
 * divide (SPACE_TO_BATCH_ND) and batches that divide (BATCH_TO_SPACE_ND),
 * and the output given the shape they imply (checked against it at
 * invoke, for values known then).
 */
static opver_status space_batch_compute(const opver_context *ctx,
					const opver_node *node, bool to_batch,
					bool at_invoke,
					space_batch_geometry *g)
{
	const opver_tensor *input = node->inputs[SB_INPUT];
	const opver_tensor *output = node->outputs[0];
	const int32_t *block = node->inputs[SB_BLOCK]->data;
	const int32_t *pads = node->inputs[SB_PADDINGS]->data;
	const int32_t spatial = input->rank - 2;
	const opver_tensor *space = to_batch ? input : output;
	const opver_tensor *batch = to_batch ? output : input;
	int64_t blocks = 1;
	int32_t want[4];
	opver_status status;

	for (int32_t d = 0; d < 2; d++) {
		const int32_t b = d < spatial ? block[d] : 1;
		const int32_t before = d < spatial ? pads[2 * d] : 0;
		const int32_t after = d < spatial ? pads[2 * d + 1] : 0;
		const int64_t in = dim4(input, d + 1);
		int64_t out;

		if (b < 1 || before < 0 || after < 0) {
			OPVER_REPORT(ctx,
				     "dimension %d: block %d must be positive, %s %d and %d not negative",
				     (int)(d + 1), (int)b,
				     to_batch ? "paddings" : "crops",
				     (int)before, (int)after);
			return OPVER_ERROR_INVALID_MODEL;
		}
		out = to_batch ? in + before + after : in * b - before - after;
		if (to_batch ? out % b != 0 : out < 0) {
			OPVER_REPORT(ctx,
				     "dimension %d: %lld %s block %d",
				     (int)(d + 1), (long long)out,
				     to_batch ? "padded does not divide by"
					      : "cropped is negative with",
				     (int)b);
			return OPVER_ERROR_INVALID_MODEL;
		}
		want[d + 1] = (int32_t)(to_batch ? out / b : out);
		g->block[d] = b;
		g->before[d] = before;
		blocks *= b;
	}
	if (!to_batch && input->dims[0] % blocks != 0) {
		OPVER_REPORT(ctx,
			     "input '%s' has %d batches; they must divide by the %lld positions of a block",
			     input->name, (int)input->dims[0],
			     (long long)blocks);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (to_batch && input->dims[0] * blocks > INT32_MAX) {
		OPVER_REPORT(ctx,
			     "input '%s' has %d batches; with %lld positions a block, the output would have more than a dimension holds",
			     input->name, (int)input->dims[0],
			     (long long)blocks);
		return OPVER_ERROR_INVALID_MODEL;
	}
	want[0] = (int32_t)(to_batch ? input->dims[0] * blocks
				     : input->dims[0] / blocks);
	want[3] = dim4(input, 3);
	/* Rank 3 has no width: [batch, height, depth]. */
	if (input->rank == 3)
		want[2] = want[3];
	status = ref_move_shape_output(ctx, node, 0, input->rank, want,
				       to_batch ? "the block and paddings give" :
						  "the block and crops give",
				       at_invoke);
	if (status != OPVER_OK)
		return status;
	for (int32_t d = 0; d < 3; d++) {
		g->batch[d] = dim4(batch, d);
		g->space[d] = dim4(space, d);
	}
	return OPVER_OK;
}

static opver_status space_batch_prepare(const opver_context *ctx,
					opver_node *node, bool to_batch)
{
	space_batch_data *data = node->op_data;
	const opver_tensor *input, *output;
	int32_t spatial;
	opver_status status;

	status = ref_check_arity(ctx, node, 3, 3, 1,
				 to_batch ? "SPACE_TO_BATCH_ND takes an input, block_shape, paddings and one output"
					  : "BATCH_TO_SPACE_ND takes an input, block_shape, crops and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[SB_INPUT];
	output = node->outputs[0];
	spatial = input->rank - 2;
	status = ref_expect_type_in(ctx, "input", input, SPACE_BATCH_TYPES);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, input->type);
	if (status == OPVER_OK && (input->rank < 3 || input->rank > 4)) {
		OPVER_REPORT(ctx, "input '%s' has rank %d; it must be 3 or 4",
			     input->name, (int)input->rank);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", output, input->rank);
	if (status == OPVER_OK)
		status = ref_expect_vector(ctx, "block_shape",
					   node->inputs[SB_BLOCK],
					   OPVER_T(INT32), spatial);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, to_batch ? "paddings" : "crops",
					 node->inputs[SB_PADDINGS],
					 OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, to_batch ? "paddings" : "crops",
					 node->inputs[SB_PADDINGS], 2);
	if (status != OPVER_OK)
		return status;
	if (node->inputs[SB_PADDINGS]->dims[0] != spatial ||
	    node->inputs[SB_PADDINGS]->dims[1] != 2) {
		OPVER_REPORT(ctx, "%s '%s' must have shape [%d, 2]",
			     to_batch ? "paddings" : "crops",
			     node->inputs[SB_PADDINGS]->name, (int)spatial);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->pixel_bytes = (size_t)dim4(input, 3) *
			    ref_element_size(input->type);
	/* Only 8- and 16-bit types are quantized with a zero point. */
	data->pad_value = output->quant.count > 0 &&
					  ref_element_size(output->type) <= 2
				  ? output->quant.zero_point[0]
				  : 0;
	if (!node->inputs[SB_BLOCK]->is_constant ||
	    !node->inputs[SB_PADDINGS]->is_constant)
		return ref_defer_output(ctx, 0, NULL);
	return space_batch_compute(ctx, node, to_batch, false, &data->g);
}

/* Fills one pixel of padding with the pad value. */
static void space_batch_pad(const opver_tensor *output, size_t at,
			    size_t bytes, int64_t value)
{
	unsigned char *out = (unsigned char *)output->data + at;
	const size_t size = ref_element_size(output->type);

	if (value == 0) {
		memset(out, 0, bytes);
		return;
	}
	/* Only quantized 8- and 16-bit types have a nonzero zero point. */
	for (size_t i = 0; i < bytes; i += size)
		if (size == 1)
			out[i] = (unsigned char)value;
		else
			*(int16_t *)(void *)(out + i) = (int16_t)value;
}

static opver_status space_batch_invoke(const opver_context *ctx,
				       opver_node *node, bool to_batch)
{
	space_batch_data *data = node->op_data;
	const space_batch_geometry *g = &data->g;
	const unsigned char *in = node->inputs[SB_INPUT]->data;
	unsigned char *out;
	const size_t pixel = data->pixel_bytes;

	if (!node->inputs[SB_BLOCK]->is_constant ||
	    !node->inputs[SB_PADDINGS]->is_constant) {
		opver_status status =
			space_batch_compute(ctx, node, to_batch, true,
					    &data->g);

		if (status != OPVER_OK)
			return status;
	}
	/* After a dynamic output got its buffer. */
	out = node->outputs[0]->data;
	/* Walks the batch side; each pixel maps to one of the space side or,
	 * past its edges, to padding (cropped away). */
	for (int32_t b = 0; b < g->batch[0]; b++) {
		const int32_t n = b % g->space[0];
		const int32_t slot = b / g->space[0];
		const int32_t by = slot / g->block[1], bx = slot % g->block[1];

		for (int32_t y = 0; y < g->batch[1]; y++) {
			const int64_t sy = (int64_t)y * g->block[0] + by -
					   g->before[0];

			for (int32_t x = 0; x < g->batch[2]; x++) {
				const int64_t sx = (int64_t)x * g->block[1] +
						   bx - g->before[1];
				const size_t batch_at =
					(((size_t)b * (size_t)g->batch[1] +
					  (size_t)y) * (size_t)g->batch[2] +
					 (size_t)x) * pixel;
				const bool inside = sy >= 0 &&
						    sy < g->space[1] &&
						    sx >= 0 &&
						    sx < g->space[2];
				const size_t space_at =
					inside ? (((size_t)n * (size_t)g->space[1] +
						   (size_t)sy) *
							  (size_t)g->space[2] +
						  (size_t)sx) * pixel
					       : 0;

				if (to_batch && inside)
					memcpy(out + batch_at, in + space_at,
					       pixel);
				else if (to_batch)
					space_batch_pad(node->outputs[0],
							batch_at, pixel,
							data->pad_value);
				else if (inside)
					memcpy(out + space_at, in + batch_at,
					       pixel);
			}
		}
	}
	return OPVER_OK;
}

static opver_status space_to_batch_prepare(const opver_context *ctx,
					   opver_node *node)
{
	return space_batch_prepare(ctx, node, true);
}

static opver_status batch_to_space_prepare(const opver_context *ctx,
					   opver_node *node)
{
	return space_batch_prepare(ctx, node, false);
}

static opver_status space_to_batch_invoke(const opver_context *ctx,
					  opver_node *node)
{
	return space_batch_invoke(ctx, node, true);
}

static opver_status batch_to_space_invoke(const opver_context *ctx,
					  opver_node *node)
{
	return space_batch_invoke(ctx, node, false);
}

/* ------------------------------------------------------------- manifest */

#define SPACE_BATCH_SIGNATURE                                          \
	OPVER_SIGNATURE(OPVER_INPUTS(SPACE_BATCH_TYPES, OPVER_T(INT32), \
				     OPVER_T(INT32)),                  \
			OPVER_OUTPUT(SPACE_BATCH_TYPES))

const opver_kernel ref_space_to_batch_nd = {
	OPVER_KERNEL("space_to_batch_nd", SPACE_TO_BATCH_ND, 1, 4),
	REF_SIGNATURES(SPACE_BATCH_SIGNATURE),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(space_batch_data),
	.prepare = space_to_batch_prepare, .invoke = space_to_batch_invoke,
};

const opver_kernel ref_batch_to_space_nd = {
	OPVER_KERNEL("batch_to_space_nd", BATCH_TO_SPACE_ND, 1, 4),
	REF_SIGNATURES(SPACE_BATCH_SIGNATURE),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(space_batch_data),
	.prepare = batch_to_space_prepare, .invoke = batch_to_space_invoke,
};
