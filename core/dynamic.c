/*
 * dynamic.c - the set_output_dynamic service, and the storage of tensors
 * shaped at invoke (dynamic.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic.h"
#include "memory_budget.h"
#include "text.h"

bool opver__dynamic_is(const opver__session *session, int32_t t)
{
	return session->dynamic != NULL && t >= 0 &&
	       t < session->dynamic->num_tensors &&
	       session->dynamic->how[t] != OPVER__DYNAMIC_NO;
}

bool opver__dynamic_by_kernel(const opver__session *session, int32_t t)
{
	return opver__dynamic_is(session, t) &&
	       session->dynamic->how[t] == OPVER__DYNAMIC_BY_KERNEL;
}

bool opver__dynamic_reads(const opver__session *session,
			  const opver__graph_node *node)
{
	for (int32_t i = 0; i < node->num_inputs; i++)
		if (opver__dynamic_is(session, node->inputs[i]))
			return true;
	return false;
}

/* The session's table, created on first use. */
static opver__dynamic *table(opver__session *session)
{
	opver__dynamic *dynamic = session->dynamic;
	const size_t count = session->graph->num_tensors > 0 ?
				     (size_t)session->graph->num_tensors : 1;

	if (dynamic != NULL)
		return dynamic;
	dynamic = calloc(1, sizeof(*dynamic));
	if (dynamic == NULL)
		return NULL;
	dynamic->num_tensors = session->graph->num_tensors;
	dynamic->how = calloc(count, sizeof(*dynamic->how));
	dynamic->writers = calloc(count, sizeof(*dynamic->writers));
	dynamic->first_reader = malloc(count * sizeof(*dynamic->first_reader));
	dynamic->storage = calloc(count, sizeof(*dynamic->storage));
	if (dynamic->how == NULL || dynamic->writers == NULL ||
	    dynamic->first_reader == NULL || dynamic->storage == NULL) {
		opver__dynamic_free(dynamic);
		return NULL;
	}
	for (size_t t = 0; t < count; t++)
		dynamic->first_reader[t] = INT32_MAX;
	for (int32_t n = session->graph->num_nodes - 1; n >= 0; n--) {
		const opver__graph_node *node = &session->graph->nodes[n];

		for (int32_t o = 0; o < node->num_outputs; o++)
			if (dynamic->writers[node->outputs[o]] < 2)
				dynamic->writers[node->outputs[o]]++;
		for (int32_t i = 0; i < node->num_inputs; i++)
			if (node->inputs[i] >= 0)
				dynamic->first_reader[node->inputs[i]] = n;
	}
	session->dynamic = dynamic;
	return dynamic;
}

/* Marks tensor `t` `how`; it has no data until it is shaped at invoke.
 * A deferred node's output starts from the model's shape each time, so
 * that the resize check sees whether its kernel shaped it. */
static opver_status mark(opver__session *session, int32_t t, uint8_t how)
{
	opver__dynamic *dynamic = table(session);
	opver_tensor *tensor = &session->tensors[t];

	if (dynamic == NULL)
		return OPVER_ERROR_NOMEM;
	dynamic->how[t] = how;
	tensor->data = NULL;
	if (how == OPVER__DYNAMIC_BY_CORE) {
		tensor->rank = session->graph->tensors[t].rank;
		tensor->dims = session->graph->tensors[t].dims;
		tensor->bytes = session->graph->tensors[t].bytes;
	}
	return OPVER_OK;
}

/* Whether node outputs other than one are tensor `t` (another node
 * writes it, or the node lists it twice): such a tensor cannot take one
 * writer's shape at invoke, since the other writes it at the shape it was
 * prepared with, past a smaller buffer.  false, with no table, without
 * memory (mark() then fails). */
static bool written_twice(opver__session *session, int32_t t)
{
	const opver__dynamic *dynamic = table(session);

	return dynamic != NULL && dynamic->writers[t] > 1;
}

/* Whether tensor `t` is one of the graph's inputs. */
static bool graph_input(const opver__graph *graph, int32_t t)
{
	for (int32_t i = 0; i < graph->num_inputs; i++)
		if (graph->inputs[i] == t)
			return true;
	return false;
}

/* set_output_dynamic for output `output` (tensor t), which may not be
 * reshaped: a tensor a delegate partition reads keeps the model's shape
 * (OPVER_ERROR_UNSUPPORTED, said at info level, so the kernel checks the
 * values at invoke); anything else is refused. */
static opver_status keep_shape(const opver__call *call, int32_t output,
			       int32_t t)
{
	const opver__session *session = call->session;
	const opver__graph_tensor *model = &session->graph->tensors[t];
	char who[320];

	if (session->tensors[t].is_constant || model->is_variable ||
	    model->initial_data != NULL || graph_input(session->graph, t)) {
		call->context.host->report_error(&call->context, "set_output_dynamic: output %d ('%s') is a constant, a model input or a variable, and keeps its shape",
						 (int)output,
						 session->tensors[t].name);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	opver__call_describe(call, who, sizeof(who));
	opver__info(call->reporter,
		    "%s: output %d ('%s') keeps the model's shape rather than taking one from values at invoke: a delegate partition reads it, and partitions are built from the model's shapes",
		    who, (int)output, session->tensors[t].name);
	return OPVER_ERROR_UNSUPPORTED;
}

opver_status opver__service_set_output_dynamic(const opver_context *ctx,
					       int32_t output)
{
	const opver__call *call = opver__call_of(ctx);
	opver__session *session = call->session;
	int32_t t;

	if (call->kind != OPVER__CALL_NODE || session == NULL ||
	    session->phase != OPVER__PHASE_PREPARE || session->graph == NULL) {
		ctx->host->report_error(ctx, "set_output_dynamic is only for a kernel's prepare");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (output < 0 || output >= call->node->num_outputs) {
		ctx->host->report_error(ctx, "set_output_dynamic: no output %d of %d",
					(int)output,
					(int)call->node->num_outputs);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	t = call->node->outputs[output];
	if (opver__dynamic_is(session, t))
		return mark(session, t, OPVER__DYNAMIC_BY_KERNEL);
	if (!session->resizable[t])
		return keep_shape(call, output, t);
	if (opver__resize_seen_before(session->graph, call->node_index, output,
				      t)) {
		ctx->host->report_error(ctx, "set_output_dynamic: output %d ('%s') is also an input of this node, or a tensor of a node prepared before, and keeps its shape",
					(int)output, session->tensors[t].name);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (written_twice(session, t)) {
		ctx->host->report_error(ctx, "set_output_dynamic: output %d ('%s') is an output of another node too (or twice of this one), which writes it at the shape it was prepared with, and keeps its shape",
					(int)output, session->tensors[t].name);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	return mark(session, t, OPVER__DYNAMIC_BY_KERNEL);
}

/* Gives `storage` a buffer of `bytes` when it has less, or more than
 * twice (what a smaller shape no longer needs is given back), charged to
 * the tree's budget in place of the old one. */
static opver_status grow(const opver_context *ctx, opver__session *session,
			 opver__dynamic_tensor *storage, const char *name,
			 size_t bytes)
{
	const opver__call *call = opver__call_of(ctx);
	char who[320], what[400];
	uint8_t *buffer;

	if (storage->buffer != NULL && bytes <= storage->capacity &&
	    bytes >= storage->capacity / 2)
		return OPVER_OK;
	if (bytes > SIZE_MAX - OPVER_TENSOR_READ_SLACK)
		return OPVER_ERROR_NOMEM;
	/* Within max_tensor_bytes (resize.c): allocated before it is
	 * charged, so that a failure leaves the old charge. */
	buffer = opver__aligned_zalloc(bytes + OPVER_TENSOR_READ_SLACK);
	if (buffer == NULL)
		return OPVER_ERROR_NOMEM;
	opver__call_describe(call, who, sizeof(who));
	snprintf(what, sizeof(what), "%s: output '%s' shaped at invoke", who,
		 name);
	if (opver__budget_charge(session->budget, bytes, storage->capacity,
				 call->reporter, what) != OPVER_OK) {
		free(buffer);
		return OPVER_ERROR_NOMEM;
	}
	free(storage->buffer);
	storage->buffer = buffer;
	session->dynamic->bytes += bytes - storage->capacity;
	storage->capacity = bytes;
	return OPVER_OK;
}

opver_status opver__dynamic_shape(const opver_context *ctx, int32_t t,
				  const int32_t *dims, int32_t rank,
				  size_t bytes)
{
	opver__session *session = opver__call_of(ctx)->session;
	opver__dynamic_tensor *storage = &session->dynamic->storage[t];
	opver_tensor *tensor = &session->tensors[t];
	opver_status status;

	if (rank > storage->dims_capacity) {
		int32_t *grown = realloc(storage->dims,
					 (size_t)rank * sizeof(*grown));

		if (grown == NULL)
			return OPVER_ERROR_NOMEM;
		storage->dims = grown;
		storage->dims_capacity = rank;
	}
	if (session->at_invoke) {
		status = grow(ctx, session, storage, tensor->name, bytes);
		if (status != OPVER_OK)
			return status;
	}
	if (rank > 0 && storage->dims != dims)
		memcpy(storage->dims, dims, (size_t)rank * sizeof(*dims));
	tensor->rank = rank;
	tensor->dims = storage->dims;
	tensor->bytes = bytes;
	tensor->data = session->at_invoke ? storage->buffer : NULL;
	return OPVER_OK;
}

opver_status opver__dynamic_defer(const opver__call *call, bool *deferred)
{
	opver__session *session = call->session;
	const opver__graph_node *node = call->node;
	opver_status status = OPVER_OK;

	*deferred = opver__dynamic_reads(session, node);
	/* Outputs that may not be reshaped (a variable, a delegate's) keep
	 * their place in the arena and the model's shape, which the
	 * kernel's prepare at invoke checks. */
	for (int32_t o = 0; *deferred && o < node->num_outputs &&
			    status == OPVER_OK; o++) {
		const int32_t t = node->outputs[o];
		char who[320];

		if (!session->resizable[t])
			continue;
		if (opver__dynamic_is(session, t))
			status = OPVER_OK;      /* checked when first marked */
		else if (written_twice(session, t)) {
			opver__call_describe(call, who, sizeof(who));
			opver__error(call->reporter,
				     "%s: reads a tensor shaped at invoke, so its output %d ('%s') would be too, but another node writes that tensor (or this one twice) at the shape it was prepared with; give each tensor one writer",
				     who, (int)o, session->tensors[t].name);
			return OPVER_ERROR_UNSUPPORTED;
		} else if (session->dynamic != NULL &&
			   session->dynamic->first_reader[t] <=
			   call->node_index) {
			opver__call_describe(call, who, sizeof(who));
			opver__error(call->reporter,
				     "%s: reads a tensor shaped at invoke, so its output %d ('%s') would be too, but node %d reads that tensor before this node writes it, and would find no data; give the model its nodes in the order they run",
				     who, (int)o, session->tensors[t].name,
				     (int)session->dynamic->first_reader[t]);
			return OPVER_ERROR_UNSUPPORTED;
		}
		status = mark(session, t, OPVER__DYNAMIC_BY_CORE);
	}
	return status;
}

/* The buffer a dynamic output of `call`'s node gets for the shape it
 * has: through the call's context, as resize_output would give it. */
static opver_status fill(const opver__call *call, int32_t o)
{
	const opver_tensor *tensor =
		&call->session->tensors[call->node->outputs[o]];

	return opver__dynamic_shape(&call->context, call->node->outputs[o],
				    tensor->dims, tensor->rank, tensor->bytes);
}

opver_status opver__dynamic_fill_outputs(const opver__call *call)
{
	const opver__session *session = call->session;
	opver_status status = OPVER_OK;

	for (int32_t o = 0; o < call->node->num_outputs && status == OPVER_OK;
	     o++) {
		const int32_t t = call->node->outputs[o];

		if (session->tensors[t].data == NULL &&
		    session->dynamic->how[t] == OPVER__DYNAMIC_BY_CORE)
			status = fill(call, o);
	}
	return status;
}

opver_status opver__dynamic_check_outputs(const opver__call *call)
{
	const opver__session *session = call->session;
	char who[320];

	for (int32_t o = 0; session->dynamic != NULL &&
			    o < call->node->num_outputs; o++) {
		const int32_t t = call->node->outputs[o];

		if (!opver__dynamic_is(session, t) ||
		    session->tensors[t].data != NULL)
			continue;
		opver__call_describe(call, who, sizeof(who));
		opver__error(call->reporter,
			     "%s: output %d ('%s') was marked dynamic (set_output_dynamic) and invoke gave it no shape (resize_output); a bug in the kernel",
			     who, (int)o, session->tensors[t].name);
		return OPVER_ERROR_PLUGIN;
	}
	return OPVER_OK;
}

opver_status opver__dynamic_refuse_outputs(const opver__session *session,
					   const opver__reporter *reporter,
					   int32_t subgraph)
{
	const opver__graph *graph = session->graph;

	for (int32_t i = 0; i < graph->num_outputs; i++) {
		if (!opver__dynamic_is(session, graph->outputs[i]))
			continue;
		opver__error(reporter,
			     "subgraph %d: output %d ('%s') is shaped at invoke (from values), and control flow passes values between subgraphs at one fixed shape; give the model constant shapes there",
			     (int)subgraph, (int)i,
			     session->tensors[graph->outputs[i]].name);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}

void opver__dynamic_begin_invoke(opver__session *session)
{
	for (int32_t t = 0; session->dynamic != NULL &&
			    t < session->dynamic->num_tensors; t++)
		if (session->dynamic->how[t] != OPVER__DYNAMIC_NO)
			session->tensors[t].data = NULL;
}

void opver__dynamic_free(opver__dynamic *dynamic)
{
	if (dynamic == NULL)
		return;
	for (int32_t t = 0; dynamic->storage != NULL &&
			    t < dynamic->num_tensors; t++) {
		free(dynamic->storage[t].dims);
		free(dynamic->storage[t].buffer);
	}
	free(dynamic->storage);
	free(dynamic->writers);
	free(dynamic->first_reader);
	free(dynamic->how);
	free(dynamic);
}
