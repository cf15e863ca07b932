/*
 * movement.c - the index arithmetic of the data-movement kernels: axes,
 * index tensors, the gather plan and its run, rows for joins and splits.
 */
#include <stdio.h>
#include <string.h>

#include "movement.h"
#include "node_checks.h"

opver_status ref_move_axis(const opver_context *ctx, const char *what,
			   int64_t axis, int32_t rank, int32_t *out)
{
	const int64_t normal = axis < 0 ? axis + rank : axis;

	if (normal < 0 || normal >= rank) {
		OPVER_REPORT(ctx, "%s is %lld; a tensor of rank %d takes -%d to %d",
			     what, (long long)axis, (int)rank, (int)rank,
			     (int)rank - 1);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*out = (int32_t)normal;
	return OPVER_OK;
}

void ref_move_indices(const opver_tensor *tensor, int32_t count,
		      int64_t *values)
{
	for (int32_t i = 0; i < count; i++)
		values[i] = tensor->type == OPVER_TYPE_INT64
				    ? ((const int64_t *)tensor->data)[i]
				    : ((const int32_t *)tensor->data)[i];
}

opver_status ref_move_same_type(const opver_context *ctx, const char *role,
				const opver_tensor *tensor,
				const opver_tensor *input)
{
	if (tensor->type == input->type)
		return OPVER_OK;
	OPVER_REPORT(ctx, "%s '%s' has type %s; it must have the type of input '%s', %s",
		     role, tensor->name, ctx->host->type_name(tensor->type),
		     input->name, ctx->host->type_name(input->type));
	return OPVER_ERROR_INVALID_MODEL;
}

opver_status ref_move_index_tensor(const opver_context *ctx, const char *role,
				   const opver_tensor *tensor, size_t count)
{
	opver_status status = ref_expect_type_in(
		ctx, role, tensor, OPVER_T(INT32) | OPVER_T(INT64));

	if (status != OPVER_OK)
		return status;
	if (opver_tensor_elements(tensor) != count) {
		OPVER_REPORT(ctx, "%s '%s' has %zu elements; %zu expected",
			     role, tensor->name,
			     opver_tensor_elements(tensor), count);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

bool ref_move_all_constant(int32_t count, opver_tensor *const *tensors)
{
	for (int32_t i = 0; i < count; i++)
		if (tensors[i] != NULL && !tensors[i]->is_constant)
			return false;
	return true;
}

size_t ref_move_element_size(int32_t type)
{
	switch (type) {
#define REF_MOVE_SIZE(name, value, size) \
	case value:                      \
		return size;
		OPVER_TYPE_MAP(REF_MOVE_SIZE)
#undef REF_MOVE_SIZE
	default:
		return 0;
	}
}

opver_status ref_gather_identity(const opver_context *ctx,
				 const opver_tensor *input, ref_gather_plan *plan)
{
	int64_t stride = 1;

	if (input->rank > REF_MOVE_MAX_DIMS) {
		OPVER_REPORT(ctx,
			     "input '%s' has %d dimensions; this kernel handles up to %d",
			     input->name, (int)input->rank, REF_MOVE_MAX_DIMS);
		return OPVER_ERROR_UNSUPPORTED;
	}
	memset(plan, 0, sizeof(*plan));
	plan->rank = input->rank;
	plan->element = ref_move_element_size(input->type);
	for (int32_t d = input->rank - 1; d >= 0; d--) {
		plan->dims[d] = (ref_gather_dim){ .count = input->dims[d],
						  .start = 0,
						  .step = 1,
						  .size = input->dims[d],
						  .stride = stride };
		stride *= input->dims[d];
	}
	return OPVER_OK;
}

/* "[2, 3]" into buffer. */
static const char *shape_text(int32_t rank, const int32_t *dims, char *buffer,
			      size_t size)
{
	size_t used = (size_t)snprintf(buffer, size, "[");

	for (int32_t d = 0; d < rank && used < size; d++)
		used += (size_t)snprintf(buffer + used, size - used, "%s%d",
					 d > 0 ? ", " : "", (int)dims[d]);
	if (used < size)
		snprintf(buffer + used, size - used, "]");
	return buffer;
}

opver_status ref_move_expect_shape(const opver_context *ctx, const char *role,
				   const opver_tensor *tensor, int32_t rank,
				   const int32_t *dims, const char *source)
{
	char want[160], got[160];

	if (tensor->rank == rank &&
	    (rank == 0 ||
	     memcmp(tensor->dims, dims, (size_t)rank * sizeof(*dims)) == 0))
		return OPVER_OK;
	OPVER_REPORT(ctx, "%s %s; %s '%s' is %s", source,
		     shape_text(rank, dims, want, sizeof(want)), role,
		     tensor->name,
		     shape_text(tensor->rank, tensor->dims, got, sizeof(got)));
	return OPVER_ERROR_INVALID_MODEL;
}

opver_status ref_move_shape_output(const opver_context *ctx,
				   const opver_node *node, int32_t output,
				   int32_t rank, const int32_t *dims,
				   const char *source, bool at_invoke)
{
	char role[32];

	if (!at_invoke && OPVER_HOST_HAS(ctx->host, resize_output))
		return ref_shape_output(ctx, node, output, dims, rank, source);
	if (at_invoke && OPVER_HOST_HAS(ctx->host, set_output_dynamic))
		return ref_shape_output_at_invoke(ctx, node, output, dims,
						  rank, source);
	if (node->num_outputs == 1)
		snprintf(role, sizeof(role), "output");
	else
		snprintf(role, sizeof(role), "output %d", (int)output);
	return ref_move_expect_shape(ctx, role, node->outputs[output], rank,
				     dims, source);
}

opver_status ref_gather_check_output(const opver_context *ctx,
				     const ref_gather_plan *plan,
				     const opver_node *node, const char *op,
				     bool at_invoke)
{
	int32_t dims[REF_MOVE_MAX_DIMS];
	char source[64];

	for (int32_t d = 0; d < plan->rank; d++)
		dims[d] = plan->dims[d].count;
	snprintf(source, sizeof(source), "this %s gives", op);
	return ref_move_shape_output(ctx, node, 0, plan->rank, dims, source,
				     at_invoke);
}

/* Elements of the output block below dimension d. */
static size_t gather_block(const ref_gather_plan *plan, int32_t d)
{
	size_t n = 1;

	for (int32_t i = d; i < plan->rank; i++)
		n *= (size_t)plan->dims[i].count;
	return n;
}

/* The input index that output index i reads along `dim`, mirrored when
 * outside; -1 when it takes the pad value. */
static int64_t gather_index(const ref_gather_plan *plan, const ref_gather_dim *dim,
			    int32_t i)
{
	int64_t j = dim->start + (int64_t)i * dim->step;

	if (j >= 0 && j < dim->size)
		return j;
	switch (plan->outside) {
	case REF_GATHER_REFLECT:
		return j < 0 ? -j : 2 * (int64_t)dim->size - 2 - j;
	case REF_GATHER_SYMMETRIC:
		return j < 0 ? -j - 1 : 2 * (int64_t)dim->size - 1 - j;
	default:
		return -1;
	}
}

static unsigned char *gather_pad(const ref_gather_plan *plan, size_t elements,
				 unsigned char *out)
{
	for (size_t i = 0; i < elements; i++, out += plan->element)
		memcpy(out, plan->pad, plan->element);
	return out;
}

/* The innermost dimension read forward and contiguously (PAD, SLICE):
 * the pad before, one copy of the run inside the input, the pad after. */
static unsigned char *gather_run(const ref_gather_plan *plan,
				 const ref_gather_dim *dim,
				 const unsigned char *in, unsigned char *out)
{
	int64_t first = -(int64_t)dim->start, last = dim->size - dim->start;

	first = first < 0 ? 0 : first > dim->count ? dim->count : first;
	last = last < first ? first : last > dim->count ? dim->count : last;
	out = gather_pad(plan, (size_t)first, out);
	if (last > first) {
		const size_t bytes = (size_t)(last - first) * plan->element;

		memcpy(out, in + (size_t)(dim->start + first) * plan->element,
		       bytes);
		out += bytes;
	}
	return gather_pad(plan, (size_t)(dim->count - last), out);
}

/* Fills the output block of dimension d from `in`, the input at the
 * block's origin; returns the end of what it wrote. */
static unsigned char *gather_dim(const ref_gather_plan *plan, int32_t d,
				 const unsigned char *in, unsigned char *out)
{
	const ref_gather_dim *dim = &plan->dims[d];
	const size_t below = gather_block(plan, d + 1);
	const size_t step = plan->element * (size_t)dim->stride;

	if (d + 1 == plan->rank && dim->step == 1 && dim->stride == 1 &&
	    plan->outside == REF_GATHER_PAD)
		return gather_run(plan, dim, in, out);
	for (int32_t i = 0; i < dim->count; i++) {
		const int64_t j = gather_index(plan, dim, i);

		/* j < 0: outside the input, padded; no address is formed. */
		if (j < 0) {
			out = gather_pad(plan, below, out);
		} else if (d + 1 == plan->rank) {
			memcpy(out, in + (size_t)j * step, plan->element);
			out += plan->element;
		} else {
			out = gather_dim(plan, d + 1, in + (size_t)j * step,
					 out);
		}
	}
	return out;
}

/* Whether the input has no elements (a dimension of size 0). */
static bool gather_input_empty(const ref_gather_plan *plan)
{
	for (int32_t d = 0; d < plan->rank; d++)
		if (plan->dims[d].size == 0)
			return true;
	return false;
}

void ref_gather_run(const ref_gather_plan *plan, const void *input, void *output)
{
	const size_t elements = gather_block(plan, 0);

	/* No output element: nothing to walk, however long the output's
	 * other dimensions are. */
	if (elements == 0)
		return;
	/* An input of no elements has no index to read: every output
	 * element is the pad value (only PAD makes elements out of none;
	 * the other ops' outputs are empty). */
	if (gather_input_empty(plan)) {
		if (plan->outside == REF_GATHER_PAD)
			gather_pad(plan, elements, output);
		return;
	}
	if (plan->rank == 0)
		memcpy(output, input, plan->element);
	else
		gather_dim(plan, 0, input, output);
}

void ref_move_outer(const opver_tensor *t, int32_t axis, size_t *rows,
		    size_t *row_elements)
{
	*rows = 1;
	*row_elements = 1;
	for (int32_t d = 0; d < t->rank; d++) {
		if (d < axis)
			*rows *= (size_t)t->dims[d];
		else
			*row_elements *= (size_t)t->dims[d];
	}
}

bool ref_move_same_quantization(const opver_tensor *a, const opver_tensor *b)
{
	if (a->quant.count == 0 || b->quant.count == 0)
		return a->quant.count == b->quant.count;
	return a->quant.scale[0] == b->quant.scale[0] &&
	       a->quant.zero_point[0] == b->quant.zero_point[0];
}

/* Whether every part's row is empty: the whole is then empty too, and
 * its rows, however many, need no walk. */
static bool parts_empty(int32_t count, const size_t *part_bytes)
{
	for (int32_t k = 0; k < count; k++)
		if (part_bytes[k] > 0)
			return false;
	return true;
}

void ref_move_join(size_t rows, int32_t count, const size_t *part_bytes,
		   opver_tensor *const *parts, void *whole)
{
	unsigned char *out = whole;

	if (parts_empty(count, part_bytes))
		return;
	for (size_t r = 0; r < rows; r++)
		for (int32_t k = 0; k < count; k++) {
			const unsigned char *in = parts[k]->data;

			if (part_bytes[k] == 0)
				continue;
			memcpy(out, in + r * part_bytes[k], part_bytes[k]);
			out += part_bytes[k];
		}
}

void ref_move_split(size_t rows, int32_t count, const size_t *part_bytes,
		    const void *whole, opver_tensor *const *parts)
{
	const unsigned char *in = whole;

	if (parts_empty(count, part_bytes))
		return;
	for (size_t r = 0; r < rows; r++)
		for (int32_t k = 0; k < count; k++) {
			unsigned char *out = parts[k]->data;

			if (part_bytes[k] == 0)
				continue;
			memcpy(out + r * part_bytes[k], in, part_bytes[k]);
			in += part_bytes[k];
		}
}
