/* node_checks.c - the node checks shared by every reference kernel. */
#include <stddef.h>
#include <stdio.h>

#include "kernels.h"
#include "node_checks.h"

opver_status ref_check_arity(const opver_context *ctx, const opver_node *node,
			     int32_t min_inputs, int32_t max_inputs,
			     int32_t num_outputs, const char *usage)
{
	if (node->num_inputs < min_inputs || node->num_inputs > max_inputs ||
	    node->num_outputs != num_outputs) {
		OPVER_REPORT(ctx,
			     "has %d inputs and %d outputs; %s",
			     (int)node->num_inputs,
			     (int)node->num_outputs, usage);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t i = 0; i < min_inputs; i++)
		if (node->inputs[i] == NULL) {
			OPVER_REPORT(ctx,
				     "input %d is omitted; %s", (int)i,
				     usage);
			return OPVER_ERROR_INVALID_MODEL;
		}
	for (int32_t i = 0; i < num_outputs; i++)
		if (node->outputs[i] == NULL) {
			OPVER_REPORT(ctx, "output %d is omitted", (int)i);
			return OPVER_ERROR_INVALID_MODEL;
		}
	return OPVER_OK;
}

opver_status ref_expect_type(const opver_context *ctx, const char *role,
			     const opver_tensor *tensor, int32_t type)
{
	return ref_expect_type_in(ctx, role, tensor, OPVER_TYPE_BIT(type));
}

/* The names of the types of `mask` ("INT8", "INT32 or INT64"), into
 * buffer. */
static const char *type_names(const opver_context *ctx, uint32_t mask,
			      char *buffer, size_t size)
{
	uint32_t left = mask & ~OPVER_TYPE_BIT_ABSENT;
	size_t used = 0;

	buffer[0] = '\0';
	for (int32_t type = 0; left != 0 && used < size; type++) {
		const char *separator;

		if ((left & OPVER_TYPE_BIT(type)) == 0)
			continue;
		left &= ~OPVER_TYPE_BIT(type);
		separator = used == 0 ? "" : left == 0 ? " or " : ", ";
		used += (size_t)snprintf(buffer + used, size - used, "%s%s",
					 separator, ctx->host->type_name(type));
	}
	return buffer;
}

opver_status ref_expect_type_in(const opver_context *ctx, const char *role,
				const opver_tensor *tensor, uint32_t mask)
{
	/* Bit 31 is OPVER_TYPE_BIT_ABSENT, never a type. */
	const bool known = tensor->type >= 0 && tensor->type < 31;
	char names[128];

	if (mask == 0 || (known && (mask & OPVER_TYPE_BIT(tensor->type))))
		return OPVER_OK;
	OPVER_REPORT(ctx, "%s '%s' has type %s; this kernel takes %s",
		     role, tensor->name, ctx->host->type_name(tensor->type),
		     type_names(ctx, mask, names, sizeof(names)));
	return OPVER_ERROR_UNSUPPORTED;
}

opver_status ref_expect_rank(const opver_context *ctx, const char *role,
			     const opver_tensor *tensor, int32_t rank)
{
	if (tensor->rank == rank)
		return OPVER_OK;
	OPVER_REPORT(ctx, "%s '%s' has rank %d; it must have rank %d",
		     role, tensor->name, (int)tensor->rank, (int)rank);
	return OPVER_ERROR_INVALID_MODEL;
}

bool ref_same_shape(const opver_tensor *a, const opver_tensor *b)
{
	if (a->rank != b->rank)
		return false;
	for (int32_t i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

/* "[d0, d1, ...]" into buffer, cut when it does not fit. */
static void format_dims(char *buffer, size_t size, int32_t rank,
			const int32_t *dims)
{
	size_t used = 0;

	buffer[0] = '\0';
	for (int32_t i = 0; i <= rank; i++) {
		int n = i == rank ?
			snprintf(buffer + used, size - used, "%s]",
				 rank == 0 ? "[" : "") :
			snprintf(buffer + used, size - used, "%s%d",
				 i == 0 ? "[" : ", ", (int)dims[i]);

		if (n < 0 || (size_t)n >= size - used)
			return;
		used += (size_t)n;
	}
}

opver_status ref_shape_output(const opver_context *ctx,
			      const opver_node *node,
			      int32_t output, const int32_t *dims,
			      int32_t rank, const char *source)
{
	if (OPVER_HOST_HAS(ctx->host, resize_output))
		return ctx->host->resize_output(ctx, output, dims, rank);
	return ref_expect_shape(ctx, node->outputs[output], dims, rank,
				source);
}

opver_status ref_defer_output(const opver_context *ctx, int32_t output,
			      bool *deferred)
{
	opver_status status = OPVER_ERROR_UNSUPPORTED;

	if (OPVER_HOST_HAS(ctx->host, set_output_dynamic))
		status = ctx->host->set_output_dynamic(ctx, output);
	if (deferred != NULL)
		*deferred = status == OPVER_OK;
	/* Unsupported: the output keeps the model's shape (a delegate's),
	 * checked at invoke. */
	return status == OPVER_ERROR_UNSUPPORTED ? OPVER_OK : status;
}

opver_status ref_shape_output_at_invoke(const opver_context *ctx,
					const opver_node *node,
					int32_t output, const int32_t *dims,
					int32_t rank, const char *source)
{
	if (OPVER_HOST_HAS(ctx->host, set_output_dynamic))
		return ctx->host->resize_output(ctx, output, dims, rank);
	return ref_expect_shape(ctx, node->outputs[output], dims, rank,
				source);
}

opver_status ref_expect_shape(const opver_context *ctx,
			      const opver_tensor *tensor, const int32_t *dims,
			      int32_t rank, const char *source)
{
	char got[128], want[128];

	if (tensor->rank == rank) {
		int32_t i = 0;

		while (i < rank && tensor->dims[i] == dims[i])
			i++;
		if (i == rank)
			return OPVER_OK;
	}
	format_dims(got, sizeof(got), tensor->rank, tensor->dims);
	format_dims(want, sizeof(want), rank, dims);
	OPVER_REPORT(ctx, "output '%s' has shape %s; %s %s", tensor->name, got,
		     source, want);
	return OPVER_ERROR_INVALID_MODEL;
}

void ref_dims_push(ref_dims *shape, int32_t size)
{
	if (shape->rank == REF_DIMS_MAX) {
		shape->too_long = true;
		return;
	}
	shape->dims[shape->rank++] = size;
}

void ref_dims_append(ref_dims *shape, const opver_tensor *tensor,
		     int32_t begin, int32_t end)
{
	for (int32_t d = begin; d < end; d++)
		ref_dims_push(shape, tensor->dims[d]);
}

/* A shape longer than REF_DIMS_MAX is reported. */
static opver_status check_length(const opver_context *ctx,
				 const opver_node *node, int32_t output,
				 const ref_dims *shape, const char *source)
{
	if (!shape->too_long)
		return OPVER_OK;
	OPVER_REPORT(ctx, "output '%s': %s more than %d dimensions, which this kernel does not compute",
		     node->outputs[output]->name, source, REF_DIMS_MAX);
	return OPVER_ERROR_UNSUPPORTED;
}

opver_status ref_shape_dims(const opver_context *ctx, const opver_node *node,
			    int32_t output, const ref_dims *shape,
			    const char *source)
{
	opver_status status = check_length(ctx, node, output, shape, source);

	return status != OPVER_OK ? status :
		ref_shape_output(ctx, node, output, shape->dims, shape->rank,
				 source);
}

opver_status ref_shape_dims_at_invoke(const opver_context *ctx,
				      const opver_node *node, int32_t output,
				      const ref_dims *shape, const char *source)
{
	opver_status status = check_length(ctx, node, output, shape, source);

	return status != OPVER_OK ? status :
		ref_shape_output_at_invoke(ctx, node, output, shape->dims,
					   shape->rank, source);
}

opver_status ref_shape_like(const opver_context *ctx,
			    const opver_node *node,
			    int32_t output, const opver_tensor *like)
{
	if (OPVER_HOST_HAS(ctx->host, resize_output))
		return ctx->host->resize_output(ctx, output, like->dims,
						like->rank);
	if (ref_same_shape(node->outputs[output], like))
		return OPVER_OK;
	OPVER_REPORT(ctx, "output '%s' must have the shape of input '%s'",
		     node->outputs[output]->name, like->name);
	return OPVER_ERROR_INVALID_MODEL;
}

opver_status ref_check_unary(const opver_context *ctx, const opver_node *node,
			     int32_t in, int32_t out, const char *usage)
{
	opver_status status;

	status = ref_check_arity(ctx, node, 1, 1, 1, usage);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "input", node->inputs[0], in);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", node->outputs[0], out);
	if (status == OPVER_OK)
		status = ref_shape_like(ctx, node, 0, node->inputs[0]);
	return status;
}

opver_status ref_check_rows(const opver_context *ctx, const opver_node *node,
			    int32_t in, int32_t out, const char *op,
			    ref_rows *rows)
{
	const opver_tensor *input;
	char usage[64];
	opver_status status;

	snprintf(usage, sizeof(usage), "%s takes one input and one output",
		 op);
	status = ref_check_unary(ctx, node, in, out, usage);
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	if (input->rank < 1) {
		OPVER_REPORT(ctx, "input '%s' is a scalar; %s needs rank 1 or more",
			     input->name, op);
		return OPVER_ERROR_INVALID_MODEL;
	}
	rows->rows = 1;
	for (int32_t i = 0; i + 1 < input->rank; i++)
		rows->rows *= (size_t)input->dims[i];
	rows->depth = (size_t)input->dims[input->rank - 1];
	return OPVER_OK;
}

/* One window of ref_windows_compute(); `what` names its dimension. */
static opver_status window_compute(const opver_context *ctx,
				   const char *what, int32_t padding,
				   ref_window *w)
{
	int64_t effective, out, total_pad;

	if (w->in <= 0 || w->filter <= 0 || w->stride <= 0 ||
	    w->dilation <= 0) {
		OPVER_REPORT(ctx,
			     "%s: input %d, filter %d, stride %d and dilation %d must all be positive",
			     what, (int)w->in, (int)w->filter,
			     (int)w->stride, (int)w->dilation);
		return OPVER_ERROR_INVALID_MODEL;
	}
	effective = ((int64_t)w->filter - 1) * w->dilation + 1;
	/* Kernels index the input with int32 window offsets. */
	if (effective > INT32_MAX) {
		OPVER_REPORT(ctx,
			     "%s: a filter of %d with dilation %d spans %lld elements, more than an int32 can index",
			     what, (int)w->filter, (int)w->dilation,
			     (long long)effective);
		return OPVER_ERROR_INVALID_MODEL;
	}
	switch (padding) {
	case OPVER_PADDING_SAME:
		out = ((int64_t)w->in + w->stride - 1) / w->stride;
		break;
	case OPVER_PADDING_VALID:
		out = ((int64_t)w->in - effective + w->stride) / w->stride;
		break;
	default:
		OPVER_REPORT(ctx, "padding %d is neither SAME nor VALID",
			     (int)padding);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (out <= 0) {
		OPVER_REPORT(ctx,
			     "%s: a filter spanning %lld elements does not fit the input's %d with VALID padding",
			     what, (long long)effective, (int)w->in);
		return OPVER_ERROR_INVALID_MODEL;
	}
	total_pad = (out - 1) * w->stride + effective - w->in;
	w->out = (int32_t)out;
	w->pad = total_pad > 0 ? (int32_t)(total_pad / 2) : 0;
	return OPVER_OK;
}

opver_status ref_windows_compute(const opver_context *ctx, int32_t padding,
				 ref_window *height, ref_window *width)
{
	opver_status status;

	status = window_compute(ctx, "height", padding, height);
	if (status == OPVER_OK)
		status = window_compute(ctx, "width", padding, width);
	return status;
}
