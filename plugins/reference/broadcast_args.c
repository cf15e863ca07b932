/*
 * broadcast_args.c - BROADCAST_ARGS: the shape two shapes broadcast to, as
 * TFLite's broadcast_args.cc computes it.  Both inputs and the output are
 * 1-D, of one type, INT32 or INT64; the output has as many elements as the
 * longer input, so its shape is static even when the inputs' values come
 * at invoke.  Aligned at the end, each pair of dimensions is equal, or one
 * of them is 1 and the other is taken; any other pair fails the invoke, as
 * in TFLite, naming the two.
 *
 * Version range 1 (TFLite has one version).
 */
#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

/* The most dimensions a shape may have here (TFLite sets no limit; no
 * tensor has this many). */
#define BROADCAST_ARGS_MAX 64

/* The broadcast of a and b (counts na and nb) into out (the longer
 * count); false, with the position, when they do not broadcast. */
static bool broadcast_shapes(const int64_t *a, int32_t na, const int64_t *b,
			     int32_t nb, int64_t *out, int32_t *failed)
{
	const int32_t n = na > nb ? na : nb;

	for (int32_t i = 0; i < n; i++) {
		const int64_t x = i < na ? a[na - 1 - i] : 1;
		const int64_t y = i < nb ? b[nb - 1 - i] : 1;

		if (x != y && x != 1 && y != 1) {
			*failed = i;
			return false;
		}
		out[n - 1 - i] = x == 1 ? y : x;
	}
	return true;
}

static opver_status broadcast_args_prepare(const opver_context *ctx,
					   opver_node *node)
{
	const opver_tensor *s0, *s1, *out;
	opver_status status;
	size_t longer;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "BROADCAST_ARGS takes two shapes and one output");
	if (status != OPVER_OK)
		return status;
	s0 = node->inputs[0];
	s1 = node->inputs[1];
	out = node->outputs[0];
	status = ref_expect_rank(ctx, "shape 1", s0, 1);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "shape 2", s1, 1);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", out, 1);
	if (status == OPVER_OK)
		status = ref_move_same_type(ctx, "shape 2", s1, s0);
	if (status == OPVER_OK)
		status = ref_move_same_type(ctx, "output", out, s0);
	if (status != OPVER_OK)
		return status;
	if (s0->dims[0] > BROADCAST_ARGS_MAX ||
	    s1->dims[0] > BROADCAST_ARGS_MAX) {
		OPVER_REPORT(ctx, "shapes of %d and %d dimensions; BROADCAST_ARGS takes up to %d",
			     (int)s0->dims[0], (int)s1->dims[0],
			     BROADCAST_ARGS_MAX);
		return OPVER_ERROR_UNSUPPORTED;
	}
	longer = (size_t)(s0->dims[0] > s1->dims[0] ? s0->dims[0]
						    : s1->dims[0]);
	return ref_shape_output(ctx, node, 0, (const int32_t[]){ (int32_t)longer },
				1, "the longer of the two shapes gives");
}

static opver_status broadcast_args_invoke(const opver_context *ctx,
					  opver_node *node)
{
	const opver_tensor *s0 = node->inputs[0], *s1 = node->inputs[1];
	opver_tensor *out = node->outputs[0];
	int64_t a[BROADCAST_ARGS_MAX], b[BROADCAST_ARGS_MAX];
	int64_t result[BROADCAST_ARGS_MAX];
	int32_t failed = 0;

	ref_move_indices(s0, s0->dims[0], a);
	ref_move_indices(s1, s1->dims[0], b);
	if (!broadcast_shapes(a, s0->dims[0], b, s1->dims[0], result,
			      &failed)) {
		OPVER_REPORT(ctx, "the shapes do not broadcast: %lld and %lld, %d from the end",
			     (long long)a[s0->dims[0] - 1 - failed],
			     (long long)b[s1->dims[0] - 1 - failed],
			     (int)failed + 1);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	for (int32_t i = 0; i < out->dims[0]; i++) {
		if (out->type == OPVER_TYPE_INT64)
			((int64_t *)out->data)[i] = result[i];
		else
			((int32_t *)out->data)[i] = (int32_t)result[i];
	}
	return OPVER_OK;
}

#define BROADCAST_ARGS_TYPES (OPVER_T(INT32) | OPVER_T(INT64))

const opver_kernel ref_broadcast_args = {
	OPVER_KERNEL("broadcast_args", BROADCAST_ARGS, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(BROADCAST_ARGS_TYPES, BROADCAST_ARGS_TYPES),
		OPVER_OUTPUT(BROADCAST_ARGS_TYPES))),
	REF_KERNEL_TRAITS,
	.prepare = broadcast_args_prepare, .invoke = broadcast_args_invoke,
};
