/* node_checks.c - the node checks shared by every reference kernel. */
#include <stddef.h>

#include "kernels.h"
#include "node_checks.h"

opver_status ref_check_arity(const opver_host *host, const opver_node *node,
			     int32_t min_inputs, int32_t max_inputs,
			     int32_t num_outputs, const char *usage)
{
	if (node->num_inputs < min_inputs || node->num_inputs > max_inputs ||
	    node->num_outputs != num_outputs) {
		host->report_error(host,
				   "has %d inputs and %d outputs; %s",
				   (int)node->num_inputs,
				   (int)node->num_outputs, usage);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t i = 0; i < min_inputs; i++)
		if (node->inputs[i] == NULL) {
			host->report_error(host,
					   "input %d is omitted; %s", (int)i,
					   usage);
			return OPVER_ERROR_INVALID_MODEL;
		}
	for (int32_t i = 0; i < num_outputs; i++)
		if (node->outputs[i] == NULL) {
			host->report_error(host, "output %d is omitted", (int)i);
			return OPVER_ERROR_INVALID_MODEL;
		}
	return OPVER_OK;
}

opver_status ref_expect_type(const opver_host *host, const char *role,
			     const opver_tensor *tensor, opver_type type)
{
	if (tensor->type == type)
		return OPVER_OK;
	host->report_error(host, "%s '%s' has type %s; this kernel takes %s",
			   role, tensor->name, ref_type_name(tensor->type),
			   ref_type_name(type));
	return OPVER_ERROR_UNSUPPORTED;
}

opver_status ref_expect_rank(const opver_host *host, const char *role,
			     const opver_tensor *tensor, int32_t rank)
{
	if (tensor->rank == rank)
		return OPVER_OK;
	host->report_error(host, "%s '%s' has rank %d; it must have rank %d",
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

opver_status ref_check_unary(const opver_host *host, const opver_node *node,
			     opver_type in, opver_type out, const char *usage)
{
	opver_status status;

	status = ref_check_arity(host, node, 1, 1, 1, usage);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "input", node->inputs[0], in);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "output", node->outputs[0], out);
	if (status == OPVER_OK &&
	    !ref_same_shape(node->inputs[0], node->outputs[0])) {
		host->report_error(host,
				   "output '%s' must have the shape of input '%s'",
				   node->outputs[0]->name,
				   node->inputs[0]->name);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	return status;
}

opver_status ref_window_compute(const opver_host *host, const char *what,
				opver_padding padding, ref_window *w)
{
	int64_t effective, out, total_pad;

	if (w->in <= 0 || w->filter <= 0 || w->stride <= 0 ||
	    w->dilation <= 0) {
		host->report_error(host,
				   "%s: input %d, filter %d, stride %d and dilation %d must all be positive",
				   what, (int)w->in, (int)w->filter,
				   (int)w->stride, (int)w->dilation);
		return OPVER_ERROR_INVALID_MODEL;
	}
	effective = ((int64_t)w->filter - 1) * w->dilation + 1;
	/* Kernels index the input with int32 window offsets. */
	if (effective > INT32_MAX) {
		host->report_error(host,
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
		host->report_error(host, "padding %d is neither SAME nor VALID",
				   (int)padding);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (out <= 0) {
		host->report_error(host,
				   "%s: a filter spanning %lld elements does not fit the input's %d with VALID padding",
				   what, (long long)effective, (int)w->in);
		return OPVER_ERROR_INVALID_MODEL;
	}
	total_pad = (out - 1) * w->stride + effective - w->in;
	w->out = (int32_t)out;
	w->pad = total_pad > 0 ? (int32_t)(total_pad / 2) : 0;
	return OPVER_OK;
}
