/*
 * resize.c - the resize_output service, and which tensors it may reshape:
 * a kernel's prepare gives one of its node's outputs the shape its inputs
 * and options imply, as TFLite kernels call ResizeTensor in Prepare.  The
 * new dims live in the session's persistent memory (freed with the
 * interpreter, or when it re-prepares after an input was resized); the
 * arena is planned after every prepare, so it sees the new size.  An
 * output marked dynamic (dynamic.c) is shaped here in invoke too, into
 * storage of its own.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "dynamic.h"
#include "session.h"
#include "text.h"

bool opver__same_dims(int32_t rank_a, const int32_t *a, int32_t rank_b,
		      const int32_t *b)
{
	if (rank_a != rank_b)
		return false;
	for (int32_t i = 0; i < rank_a; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

bool opver__resize_seen_before(const opver__graph *graph, int32_t node,
			       int32_t output, int32_t index)
{
	for (int32_t n = 0; n <= node && n < graph->num_nodes; n++) {
		const opver__graph_node *other = &graph->nodes[n];

		for (int32_t i = 0; i < other->num_inputs; i++)
			if (other->inputs[i] == index)
				return true;
		for (int32_t o = 0; o < other->num_outputs; o++)
			if (other->outputs[o] == index &&
			    (n != node || o != output))
				return true;
	}
	return false;
}

/* In invoke, an output that is not dynamic keeps the shape prepare gave
 * it: the same shape is accepted, another refused. */
static opver_status fixed_at_invoke(const opver_context *ctx, int32_t output,
				    const opver_tensor *tensor,
				    const int32_t *dims, int32_t rank)
{
	char has[160], asked[160];
	opver__text text;

	if (opver__same_dims(rank, dims, tensor->rank, tensor->dims))
		return OPVER_OK;
	opver__text_init(&text, has, sizeof(has));
	opver__text_dims(&text, tensor->rank, tensor->dims);
	opver__text_init(&text, asked, sizeof(asked));
	opver__text_dims(&text, rank, dims);
	ctx->host->report_error(ctx, "resize_output in invoke: output %d ('%s') has had shape %s since prepare and is not dynamic (set_output_dynamic in prepare); it cannot become %s",
				(int)output, tensor->name, has, asked);
	return OPVER_ERROR_INVALID_ARGUMENT;
}

/* In prepare, for an output that is not dynamic: *unchanged when it
 * keeps the shape it has anyway; an error, reported, when it may not be
 * reshaped. */
static opver_status check_reshapable(const opver_context *ctx, int32_t output,
				     const int32_t *dims, int32_t rank,
				     bool *unchanged)
{
	const opver__call *call = opver__call_of(ctx);
	const opver__session *session = call->session;
	const int32_t index = call->node->outputs[output];
	const opver_tensor *tensor = &session->tensors[index];
	const bool seen = opver__resize_seen_before(
		session->graph, call->node_index, output, index);

	/* Asking for the shape a fixed tensor has changes nothing. */
	if ((!session->resizable[index] || seen) &&
	    opver__same_dims(rank, dims, tensor->rank, tensor->dims)) {
		*unchanged = true;
		return OPVER_OK;
	}
	if (!session->resizable[index]) {
		ctx->host->report_error(ctx, "resize_output: output %d ('%s') is a constant, a model input or a delegate's, and keeps its shape",
					(int)output, tensor->name);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (seen) {
		ctx->host->report_error(ctx, "resize_output: output %d ('%s') is also an input of this node, or a tensor of a node prepared before, and keeps its shape",
					(int)output, tensor->name);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	return OPVER_OK;
}

opver_status opver__service_resize_output(const opver_context *ctx,
					  int32_t output, const int32_t *dims,
					  int32_t rank)
{
	const opver__call *call = opver__call_of(ctx);
	opver__session *session = call->session;
	opver_tensor *tensor;
	int32_t *copy;
	uint64_t elements = 1;
	size_t type_size;
	int32_t index;
	bool dynamic;

	if (call->kind != OPVER__CALL_NODE || session == NULL ||
	    session->phase == OPVER__PHASE_IDLE || session->tensors == NULL ||
	    session->graph == NULL) {
		ctx->host->report_error(ctx, "resize_output is only for a kernel's prepare or invoke");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (output < 0 || output >= call->node->num_outputs || rank < 0 ||
	    (rank > 0 && dims == NULL)) {
		ctx->host->report_error(ctx, "resize_output: no output %d of %d, or no dims for rank %d",
					(int)output, (int)call->node->num_outputs,
					(int)rank);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	index = call->node->outputs[output];
	tensor = &session->tensors[index];
	dynamic = opver__dynamic_is(session, index);
	if (session->phase == OPVER__PHASE_INVOKE && !dynamic)
		return fixed_at_invoke(ctx, output, tensor, dims, rank);
	if (!dynamic) {
		bool unchanged = false;
		opver_status status = check_reshapable(ctx, output, dims, rank,
						       &unchanged);

		if (status != OPVER_OK || unchanged)
			return status;
	}
	type_size = opver__element_size(tensor->type);
	for (int32_t i = 0; i < rank; i++) {
		if (dims[i] < 0) {
			ctx->host->report_error(ctx, "resize_output: dimension %d of output %d is %d",
						(int)i, (int)output, (int)dims[i]);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
		/* Saturates once past any limit. */
		elements = dims[i] == 0 || elements <= UINT64_MAX / (uint64_t)dims[i] ?
			   elements * (uint64_t)dims[i] : UINT64_MAX;
	}
	if (elements > session->max_tensor_bytes / (type_size ? type_size : 1)) {
		ctx->host->report_error(ctx, "resize_output: output %d ('%s') would take more than the %" PRIu64 " bytes allowed for one tensor",
					(int)output, tensor->name,
					session->max_tensor_bytes);
		return OPVER_ERROR_NOMEM;
	}
	if (dynamic)
		return opver__dynamic_shape(ctx, index, dims, rank,
					    (size_t)elements * type_size);
	copy = opver__service_allocate_persistent(
		ctx, (size_t)(rank > 0 ? rank : 1) * sizeof(*copy));
	if (copy == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t i = 0; i < rank; i++)
		copy[i] = dims[i];
	tensor->rank = rank;
	tensor->dims = copy;
	tensor->bytes = (size_t)elements * type_size;
	return OPVER_OK;
}

uint8_t *opver__resizable_tensors(const opver__graph *graph,
				  const opver_tensor *tensors,
				  const int32_t *node_partition)
{
	uint8_t *resizable = calloc(graph->num_tensors > 0 ?
					    (size_t)graph->num_tensors : 1, 1);

	if (resizable == NULL)
		return NULL;
	for (int32_t t = 0; t < graph->num_tensors; t++)
		resizable[t] = !tensors[t].is_constant &&
			       !graph->tensors[t].is_variable &&
			       graph->tensors[t].initial_data == NULL;
	for (int32_t i = 0; i < graph->num_inputs; i++)
		resizable[graph->inputs[i]] = 0;
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver__graph_node *node = &graph->nodes[n];

		if (node_partition[n] < 0)
			continue;
		for (int32_t i = 0; i < node->num_inputs; i++)
			if (node->inputs[i] >= 0)
				resizable[node->inputs[i]] = 0;
		for (int32_t o = 0; o < node->num_outputs; o++)
			resizable[node->outputs[o]] = 0;
	}
	return resizable;
}

/* Appends " input I ('name') has shape [...] (the model gives [...])" for
 * the first input of `node` whose shape is not the model's; false when
 * every input has the model's shape. */
static bool describe_resized_input(const opver__session *session,
				   const opver__graph_node *node,
				   opver__text *text)
{
	for (int32_t i = 0; i < node->num_inputs; i++) {
		int32_t t = node->inputs[i];
		const opver__graph_tensor *model;
		const opver_tensor *now;

		if (t < 0)
			continue;
		model = &session->graph->tensors[t];
		now = &session->tensors[t];
		if (opver__same_dims(now->rank, now->dims, model->rank, model->dims))
			continue;
		opver__text_append(text, "input %d ('%s') has shape ", (int)i,
				   now->name);
		opver__text_dims(text, now->rank, now->dims);
		opver__text_append(text, " (the model gives ");
		opver__text_dims(text, model->rank, model->dims);
		opver__text_append(text, ")");
		return true;
	}
	return false;
}

opver_status opver__resize_check_node(const opver__call *call)
{
	const opver__session *session = call->session;
	const opver__graph_node *node = call->node;
	char who[320], why[512];
	opver__text text;

	/* At invoke, a deferred node's inputs have shapes of their own. */
	if (session == NULL || (!session->inputs_resized && !session->at_invoke))
		return OPVER_OK;
	for (int32_t o = 0; o < node->num_outputs; o++) {
		int32_t t = node->outputs[o];

		/* resize_output gives a copy; the model's dims mean the
		 * kernel kept the output as the model states it, unless its
		 * kernel marked it dynamic, to shape it in invoke. */
		if (session->tensors[t].dims != session->graph->tensors[t].dims ||
		    opver__dynamic_by_kernel(session, t))
			continue;
		opver__text_init(&text, why, sizeof(why));
		if (!describe_resized_input(session, node, &text))
			return OPVER_OK;
		opver__call_describe(call, who, sizeof(who));
		opver__error(call->reporter,
			     "%s: %s, and this kernel does not shape its output %d ('%s') from its inputs (resize_output), so it cannot run on resized inputs; resize the inputs back to the model's shapes",
			     who, why, (int)o, session->tensors[t].name);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}
