/*
 * broadcast.c - checks that two inputs broadcast to an output and plans the
 * walk over it (see broadcast.h).
 */
#include <stdbool.h>
#include <stdio.h>

#include "broadcast.h"
#include "node_checks.h"

/* Which inputs span a dimension; a missing bit means that input repeats
 * along it (its size there is 1 while the output's is larger). */
enum { SPANS_INPUT1 = 1, SPANS_INPUT2 = 2 };

/* Size of dimension `d` of the output's `rank` dimensions, with `t`
 * right-aligned against them: 1 where t has no such dimension. */
static int32_t aligned_dim(const opver_tensor *t, int32_t rank, int32_t d)
{
	const int32_t skipped = rank - t->rank;

	return d < skipped ? 1 : t->dims[d - skipped];
}

/* "[1, 5, 64]" into buffer, for messages. */
static const char *shape_text(const opver_tensor *t, char *buffer,
			      size_t size)
{
	size_t used = 0;

	used += (size_t)snprintf(buffer, size, "[");
	for (int32_t d = 0; d < t->rank && used < size; d++)
		used += (size_t)snprintf(buffer + used, size - used, "%s%d",
					 d > 0 ? ", " : "", (int)t->dims[d]);
	if (used < size)
		snprintf(buffer + used, size - used, "]");
	return buffer;
}

static opver_status check_rank(const opver_context *ctx, const char *role,
			       const opver_tensor *t)
{
	if (t->rank > REF_BROADCAST_MAX_RANK) {
		OPVER_REPORT(ctx,
			     "%s '%s' has rank %d; broadcasting takes at most %d dimensions",
			     role, t->name, (int)t->rank,
			     REF_BROADCAST_MAX_RANK);
		return OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t d = 0; d < t->rank; d++)
		if (t->dims[d] < 0) {
			OPVER_REPORT(ctx,
				     "%s '%s' has dimension %d of size %d",
				     role, t->name, (int)d,
				     (int)t->dims[d]);
			return OPVER_ERROR_INVALID_MODEL;
		}
	return OPVER_OK;
}

/* Checks the shapes: inputs broadcastable, output exactly their broadcast
 * shape.  Reports the three shapes when not. */
static opver_status check_shapes(const opver_context *ctx,
				 const opver_tensor *in1,
				 const opver_tensor *in2,
				 const opver_tensor *out)
{
	const int32_t rank = in1->rank > in2->rank ? in1->rank : in2->rank;
	char s1[96], s2[96], so[96];
	bool broadcastable = true, matches = out->rank == rank;

	for (int32_t d = 0; d < rank; d++) {
		const int32_t a = aligned_dim(in1, rank, d);
		const int32_t b = aligned_dim(in2, rank, d);

		if (a != b && a != 1 && b != 1)
			broadcastable = false;
		else if (matches && out->dims[d] != (a == 1 ? b : a))
			matches = false;
	}
	if (!broadcastable) {
		OPVER_REPORT(ctx,
			     "inputs '%s' %s and '%s' %s do not broadcast: each dimension must be equal or 1",
			     in1->name, shape_text(in1, s1, sizeof(s1)),
			     in2->name, shape_text(in2, s2, sizeof(s2)));
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!matches) {
		OPVER_REPORT(ctx,
			     "output '%s' has shape %s; inputs %s and %s broadcast to a different shape",
			     out->name, shape_text(out, so, sizeof(so)),
			     shape_text(in1, s1, sizeof(s1)),
			     shape_text(in2, s2, sizeof(s2)));
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

opver_status ref_broadcast_plan(const opver_context *ctx,
				const opver_tensor *in1,
				const opver_tensor *in2,
				const opver_tensor *out, ref_broadcast *plan)
{
	const int32_t rank = out->rank;
	size_t size[REF_BROADCAST_MAX_RANK];
	int spans[REF_BROADCAST_MAX_RANK];
	size_t extent1 = 1, extent2 = 1;
	int32_t merged = 0;
	opver_status status;

	status = check_rank(ctx, "input 1", in1);
	if (status == OPVER_OK)
		status = check_rank(ctx, "input 2", in2);
	if (status == OPVER_OK)
		status = check_rank(ctx, "output", out);
	if (status == OPVER_OK)
		status = check_shapes(ctx, in1, in2, out);
	if (status != OPVER_OK)
		return status;

	*plan = (ref_broadcast){ .runs = 0, .run_length = 1 };
	if (opver_tensor_elements(out) == 0)
		return OPVER_OK;
	/* Merge the dimensions that matter (output size above 1), each
	 * with the previous one when the same inputs span both. */
	for (int32_t d = 0; d < rank; d++) {
		const int32_t n = out->dims[d];
		const int pattern =
			(aligned_dim(in1, rank, d) == n ? SPANS_INPUT1 : 0) |
			(aligned_dim(in2, rank, d) == n ? SPANS_INPUT2 : 0);

		if (n == 1)
			continue;
		if (merged > 0 && spans[merged - 1] == pattern) {
			size[merged - 1] *= (size_t)n;
			continue;
		}
		size[merged] = (size_t)n;
		spans[merged] = pattern;
		merged++;
	}
	/* A single element: one run of one. */
	if (merged == 0) {
		plan->runs = 1;
		return OPVER_OK;
	}
	/* The innermost merged dimension is the run; the output dimension
	 * exceeds 1 there, so at least one input spans it. */
	merged--;
	plan->run_length = size[merged];
	plan->kind = spans[merged] == (SPANS_INPUT1 | SPANS_INPUT2) ?
			     REF_RUN_ELEMENTWISE :
		     spans[merged] == SPANS_INPUT2 ? REF_RUN_INPUT1_REPEATS :
						     REF_RUN_INPUT2_REPEATS;
	extent1 = spans[merged] & SPANS_INPUT1 ? size[merged] : 1;
	extent2 = spans[merged] & SPANS_INPUT2 ? size[merged] : 1;
	plan->runs = 1;
	plan->outer_rank = merged;
	for (int32_t d = merged - 1; d >= 0; d--) {
		plan->outer_size[d] = size[d];
		plan->stride1[d] = spans[d] & SPANS_INPUT1 ? extent1 : 0;
		plan->stride2[d] = spans[d] & SPANS_INPUT2 ? extent2 : 0;
		if (spans[d] & SPANS_INPUT1)
			extent1 *= size[d];
		if (spans[d] & SPANS_INPUT2)
			extent2 *= size[d];
		plan->runs *= size[d];
	}
	return OPVER_OK;
}

opver_status ref_broadcast_shape_output(const opver_context *ctx,
					const opver_tensor *const *inputs,
					int32_t count)
{
	int32_t dims[REF_BROADCAST_MAX_RANK], rank = 0;

	if (!OPVER_HOST_HAS(ctx->host, resize_output))
		return OPVER_OK;
	for (int32_t i = 0; i < count; i++)
		if (inputs[i]->rank > rank)
			rank = inputs[i]->rank;
	if (rank > REF_BROADCAST_MAX_RANK)
		return OPVER_OK;
	for (int32_t d = 0; d < rank; d++) {
		dims[d] = 1;
		for (int32_t i = 0; i < count; i++) {
			const int32_t n = aligned_dim(inputs[i], rank, d);

			if (n != 1 && dims[d] != 1 && n != dims[d])
				return OPVER_OK;
			if (n != 1)
				dims[d] = n;
		}
	}
	return ctx->host->resize_output(ctx, 0, dims, rank);
}

opver_status ref_binary_prepare(const opver_context *ctx,
				const opver_node *node, opver_type type,
				const char *op, ref_broadcast *plan)
{
	char usage[64];
	opver_status status;

	snprintf(usage, sizeof(usage), "%s takes two inputs and one output",
		 op);
	status = ref_check_arity(ctx, node, 2, 2, 1, usage);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "input 1", node->inputs[0], type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "input 2", node->inputs[1], type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", node->outputs[0], type);
	if (status == OPVER_OK)
		status = ref_broadcast_shape_output(
			ctx, (const opver_tensor *const *)node->inputs, 2);
	if (status == OPVER_OK)
		status = ref_broadcast_plan(ctx, node->inputs[0],
					    node->inputs[1], node->outputs[0],
					    plan);
	return status;
}
