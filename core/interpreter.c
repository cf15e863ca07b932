/* interpreter.c - resolution, planning, init and prepare of a model
 * (invoke: interpreter_invoke.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dynamic.h"
#include "interpreter.h"
#include "interpreter_state.h"
#include "kernel_match.h"
#include "planner.h"
#include "resource_variables.h"
#include "runtime.h"
#include "sized.h"
#include "thread_pool.h"

/* Tensors as kernels see them; activations get their data after planning. */
static opver_status build_tensors(opver_interpreter *it)
{
	const opver__graph *graph = it->graph;
	size_t count = graph->num_tensors > 0 ? (size_t)graph->num_tensors : 1;

	it->tensors = calloc(count, sizeof(*it->tensors));
	it->tensor_pointers = calloc(count, sizeof(*it->tensor_pointers));
	if (it->tensors == NULL || it->tensor_pointers == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t t = 0; t < graph->num_tensors; t++) {
		const opver__graph_tensor *source = &graph->tensors[t];
		opver_tensor *tensor = &it->tensors[t];

		tensor->struct_size = sizeof(*tensor);
		tensor->type = (int32_t)source->type;
		tensor->rank = source->rank;
		tensor->dims = source->dims;
		tensor->bytes = source->bytes;
		tensor->quant = source->quant;
		tensor->name = source->name;
		tensor->is_constant = source->constant_data != NULL;
		/* Kernels are told never to write constants (common.h). */
		tensor->data = (void *)source->constant_data;
		it->tensor_pointers[t] = tensor;
	}
	it->view.struct_size = sizeof(it->view);
	it->view.num_tensors = graph->num_tensors;
	it->view.tensors = it->tensor_pointers;
	return OPVER_OK;
}

/* The opver_node of every graph node, with input/output tensor arrays. */
static opver_status build_nodes(opver_interpreter *it)
{
	const opver__graph *graph = it->graph;
	size_t count = graph->num_nodes > 0 ? (size_t)graph->num_nodes : 1;
	size_t io = 0, inputs = 0, next_io = 0, next_type = 0;

	for (int32_t n = 0; n < graph->num_nodes; n++) {
		io += (size_t)graph->nodes[n].num_inputs +
		      (size_t)graph->nodes[n].num_outputs +
		      (size_t)graph->nodes[n].num_intermediates;
		inputs += (size_t)graph->nodes[n].num_inputs;
	}
	it->nodes = calloc(count, sizeof(*it->nodes));
	it->node_pointers = calloc(count, sizeof(*it->node_pointers));
	it->io_pool = calloc(io ? io : 1, sizeof(*it->io_pool));
	it->type_pool = calloc(inputs ? inputs : 1, sizeof(*it->type_pool));
	if (it->nodes == NULL || it->node_pointers == NULL ||
	    it->io_pool == NULL || it->type_pool == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver__graph_node *source = &graph->nodes[n];
		node_state *state = &it->nodes[n];
		opver_node *node = &state->node;

		node->struct_size = sizeof(*node);
		node->index = n;
		node->op = source->op;
		node->custom_name = source->custom_name;
		node->version = source->version;
		node->resolved_version = opver__resolution_version(
			source, it->runtime->strict_versions);
		node->params = source->params;
		node->params_size = source->params_size;
		node->custom_options = source->custom_options;
		node->custom_options_size = source->custom_options_size;
		node->num_inputs = source->num_inputs;
		node->inputs = &it->io_pool[next_io];
		state->input_types = &it->type_pool[next_type];
		for (int32_t i = 0; i < source->num_inputs; i++) {
			int32_t t = source->inputs[i];

			it->io_pool[next_io++] = t < 0 ? NULL : it->tensor_pointers[t];
			it->type_pool[next_type++] =
				t < 0 ? -1 : (int32_t)graph->tensors[t].type;
		}
		node->num_outputs = source->num_outputs;
		node->outputs = &it->io_pool[next_io];
		for (int32_t o = 0; o < source->num_outputs; o++)
			it->io_pool[next_io++] =
				it->tensor_pointers[source->outputs[o]];
		node->num_intermediates = source->num_intermediates;
		node->intermediates = &it->io_pool[next_io];
		for (int32_t i = 0; i < source->num_intermediates; i++) {
			int32_t t = source->intermediates[i];

			it->io_pool[next_io++] = t < 0 ? NULL : it->tensor_pointers[t];
		}
		state->partition = -1;
		it->node_pointers[n] = node;
	}
	it->view.num_nodes = graph->num_nodes;
	it->view.nodes = it->node_pointers;
	return OPVER_OK;
}

/*
 * Binds every node no delegate took and gives it its call record; reports
 * every failure before returning the first, the nodes no kernel handles
 * grouped by need at `unhandled_level`.  An unresolved node keeps a NULL
 * binding.
 */
opver_status opver__interpreter_resolve_nodes(opver_interpreter *it,
					      opver_log_level unhandled_level)
{
	const opver_runtime *runtime = it->runtime;
	opver_status result = OPVER_OK;
	bool *unhandled = calloc((size_t)it->graph->num_nodes + 1,
				 sizeof(*unhandled));

	if (unhandled == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t n = 0; n < it->graph->num_nodes; n++) {
		node_state *state = &it->nodes[n];
		const opver__plugin *plugin;
		opver_status status;

		state->partition = it->delegation.node_partition[n];
		if (state->partition >= 0)
			continue;
		if (opver__control_node(&it->graph->nodes[n])) {
			status = opver__control_check_version(
				&it->graph->nodes[n], state->node.resolved_version,
				n, it->subgraph, &runtime->reporter);
			if (result == OPVER_OK)
				result = status;
			continue;
		}
		status = opver__resolve_node(&runtime->registry, it->graph, n,
					     runtime->strict,
					     runtime->strict_versions,
					     &runtime->reporter,
					     &state->binding);
		if (status != OPVER_OK) {
			unhandled[n] = state->binding.unhandled;
			if (result == OPVER_OK)
				result = status;
			continue;
		}
		plugin = state->binding.chosen->plugin;
		opver__call_init(&state->call, OPVER__CALL_NODE,
				 &it->runtime->reporter, plugin->config_name,
				 state->binding.chosen->kernel->name,
				 plugin->call.context.plugin_data);
		state->call.node_index = n;
		state->call.node = &it->graph->nodes[n];
		state->call.step = it->delegation.node_step[n];
		state->call.session = &it->session;
	}
	opver__report_unresolved(&runtime->registry, it->graph, unhandled,
				 runtime->strict_versions, unhandled_level,
				 &runtime->reporter);
	free(unhandled);
	return result;
}

/* Reports the first tensor over it->max_tensor_bytes: shapes are fixed
 * by the model, so this is known before any kernel prepares. */
static opver_status check_tensor_sizes(opver_interpreter *it)
{
	const opver__graph *graph = it->graph;

	for (int32_t t = 0; t < graph->num_tensors; t++) {
		const opver__graph_tensor *tensor = &graph->tensors[t];

		if ((uint64_t)tensor->bytes <= it->max_tensor_bytes)
			continue;
		opver__error(&it->runtime->reporter,
			     "tensor %d '%s' takes %zu bytes; at most %" PRIu64 " bytes are allowed for one tensor (max_tensor_bytes in the config, opver-run --max-tensor)",
			     (int)t, tensor->name, tensor->bytes,
			     it->max_tensor_bytes);
		it->nomem_reported = true;
		return OPVER_ERROR_NOMEM;
	}
	return OPVER_OK;
}

/* Lends the session what resize_output needs: the graph, the tensors,
 * which of them a kernel's prepare may reshape, and the size limit. */
static opver_status mark_resizable(opver_interpreter *it)
{
	it->resizable = opver__resizable_tensors(it->graph, it->tensors,
						 it->delegation.node_partition);
	if (it->resizable == NULL)
		return OPVER_ERROR_NOMEM;
	it->session.graph = it->graph;
	it->session.tensors = it->tensors;
	it->session.resizable = it->resizable;
	it->session.max_tensor_bytes = it->max_tensor_bytes;
	return OPVER_OK;
}

/*
 * Gives every variable tensor TFLite's initial value (ResetVariableTensor):
 * the zero point of an int8 one, which is its real 0, zeros otherwise.  The
 * model reader refuses variables with data of their own, as TFLite does.
 */
static void reset_variables(opver_interpreter *it)
{
	for (int32_t t = 0; t < it->graph->num_tensors; t++) {
		const opver__graph_tensor *source = &it->graph->tensors[t];
		int value = 0;

		if (!source->is_variable || it->tensors[t].data == NULL)
			continue;
		if (source->type == OPVER_TYPE_INT8 && source->quant.count > 0)
			value = (int)source->quant.zero_point[0];
		memset(it->tensors[t].data, value, it->tensors[t].bytes);
	}
}

/*
 * Places the activations and every scratch request in one arena, after
 * prepare (which is when scratch is requested), within it->max_arena_bytes;
 * allocates it and points the tensors and scratch into it when `allocate`.
 */
opver_status opver__interpreter_plan_arena(opver_interpreter *it,
					   bool allocate,
					   bool preserve_intermediates)
{
	const opver__graph *graph = it->graph;
	opver__session *session = &it->session;
	size_t tensors = (size_t)graph->num_tensors;
	size_t count = tensors + session->num_scratch;
	opver__lifetime *lifetimes = calloc(count ? count : 1,
					    sizeof(*lifetimes));
	char what[96];
	size_t *offsets = calloc(count ? count : 1, sizeof(*offsets));
	opver_status status = OPVER_ERROR_NOMEM;

	if (lifetimes == NULL || offsets == NULL)
		goto out;
	opver__graph_lifetimes(graph, it->delegation.node_step,
			       it->delegation.num_steps, lifetimes);
	/* The sizes resize_output gave in prepare, and resized inputs';
	 * tensors shaped at invoke have buffers of their own. */
	for (size_t t = 0; t < tensors; t++)
		if (!it->tensors[t].is_constant && lifetimes[t].last >= 0)
			lifetimes[t].bytes =
				opver__dynamic_is(session, (int32_t)t) ?
					0 : it->tensors[t].bytes;
	if (preserve_intermediates)
		opver__preserve_lifetimes(lifetimes, tensors,
					  it->delegation.num_steps);
	for (size_t i = 0; i < session->num_scratch; i++) {
		lifetimes[tensors + i].bytes = session->scratch[i].bytes;
		lifetimes[tensors + i].first = session->scratch[i].step;
		lifetimes[tensors + i].last = session->scratch[i].step;
	}
	status = opver__plan_arena(lifetimes, count, offsets, &it->arena_bytes,
				   &it->naive_bytes);
	if (status != OPVER_OK) {
		opver__error(&it->runtime->reporter,
			     "the model's activation tensors and scratch need more memory than can be addressed");
		it->nomem_reported = true;
		goto out;
	}
	if ((uint64_t)it->arena_bytes > it->max_arena_bytes) {
		opver__error(&it->runtime->reporter,
			     "the model's activation tensors and scratch need an arena of %zu bytes; at most %" PRIu64 " bytes are allowed (max_arena_bytes in the config, opver-run --max-arena)",
			     it->arena_bytes, it->max_arena_bytes);
		it->nomem_reported = true;
		status = OPVER_ERROR_NOMEM;
		goto out;
	}
	/* Called subgraphs' arenas and more share it (memory_budget.h). */
	snprintf(what, sizeof(what),
		 "subgraph %d: the arena of its activation tensors and scratch",
		 (int)it->subgraph);
	status = opver__budget_charge(session->budget, it->arena_bytes,
				      session->arena_bytes,
				      &it->runtime->reporter, what);
	it->nomem_reported = status != OPVER_OK;
	if (status != OPVER_OK)
		goto out;
	session->arena_bytes = it->arena_bytes;
	opver__session_mark(session);
	if (!allocate)
		goto out;
	if (it->arena_bytes > SIZE_MAX - OPVER_TENSOR_READ_SLACK) {
		status = OPVER_ERROR_NOMEM;
		goto out;
	}
	it->arena = opver__aligned_zalloc(it->arena_bytes +
					  OPVER_TENSOR_READ_SLACK);
	if (it->arena == NULL) {
		status = OPVER_ERROR_NOMEM;
		goto out;
	}
	for (size_t t = 0; t < tensors; t++) {
		if (offsets[t] != SIZE_MAX)
			it->tensors[t].data = it->arena + offsets[t];
		else if (it->tensors[t].bytes == 0 &&
			 !it->tensors[t].is_constant &&
			 !opver__dynamic_is(session, (int32_t)t))
			it->tensors[t].data = opver__empty_data();
		/* resize_input keeps such an input at the model's size. */
		if (graph->tensors[t].initial_data != NULL &&
		    it->tensors[t].bytes == graph->tensors[t].bytes)
			memcpy(it->tensors[t].data,
			       graph->tensors[t].initial_data,
			       graph->tensors[t].bytes);
	}
	reset_variables(it);
	for (size_t i = 0; i < session->num_scratch; i++)
		if (offsets[tensors + i] != SIZE_MAX)
			session->scratch[i].memory = it->arena + offsets[tensors + i];
	opver__debug(&it->runtime->reporter,
		     "arena: %zu bytes planned, %zu bytes with one buffer each (%zu of them scratch requests)",
		     it->arena_bytes, it->naive_bytes, session->num_scratch);
out:
	free(lifetimes);
	free(offsets);
	return status;
}

/* The shared object of a stateless kernel, created on first use. */
static opver_status shared_kernel_data(opver_interpreter *it,
				       const opver__registered_kernel *entry,
				       void **data)
{
	shared_kernel *grown;
	opver__call call;
	opver_status status;

	for (size_t i = 0; i < it->num_shared; i++) {
		if (it->shared[i].kernel == entry->kernel) {
			*data = it->shared[i].data;
			return OPVER_OK;
		}
	}
	grown = realloc(it->shared, (it->num_shared + 1) * sizeof(*grown));
	if (grown == NULL)
		return OPVER_ERROR_NOMEM;
	it->shared = grown;
	*data = NULL;
	opver__call_init(&call, OPVER__CALL_KERNEL, &it->runtime->reporter,
			 entry->plugin->config_name, entry->kernel->name,
			 entry->plugin->call.context.plugin_data);
	status = entry->kernel->init(&call.context, data);
	if (status != OPVER_OK)
		return opver__call_failed(&call, "init", status);
	grown[it->num_shared].kernel = entry->kernel;
	grown[it->num_shared].plugin = entry->plugin;
	grown[it->num_shared].data = *data;
	it->num_shared++;
	return OPVER_OK;
}

/* The kernel's prepare of an initialized node, and the resize check. */
static opver_status run_prepare(node_state *state)
{
	opver_status status = state->binding.chosen->kernel->prepare(
		&state->call.context, &state->node);

	return status == OPVER_OK ? opver__resize_check_node(&state->call) :
		opver__call_prepare_failed(&state->call, status);
}

/* init (shared or per node), op_data, then prepare, unless the node
 * reads a tensor shaped at invoke (then prepared at each invoke). */
static opver_status prepare_node(opver_interpreter *it, node_state *state)
{
	const opver__registered_kernel *entry = state->binding.chosen;
	const opver_kernel *kernel = entry->kernel;
	opver_status status;

	if (kernel->init != NULL) {
		if (kernel->flags & OPVER_KERNEL_STATELESS) {
			status = shared_kernel_data(it, entry,
						    &state->kernel_data);
			if (status != OPVER_OK)
				return status;
		} else {
			status = kernel->init(&state->call.context,
					      &state->kernel_data);
			if (status != OPVER_OK)
				return opver__call_failed(&state->call, "init",
							  status);
			state->owns_kernel_data = true;
		}
		state->node.kernel_data = state->kernel_data;
	}
	if (kernel->op_data_size > 0) {
		state->op_data = opver__aligned_zalloc(kernel->op_data_size);
		if (state->op_data == NULL)
			return OPVER_ERROR_NOMEM;
		state->node.op_data = state->op_data;
	}
	status = opver__dynamic_defer(&state->call, &state->deferred);
	if (status != OPVER_OK || state->deferred)
		return status;
	return run_prepare(state);
}

/* A deferred node's prepare, at invoke: after its producers ran, its
 * inputs have their shapes; its outputs get theirs and their buffers.
 * The kernel gets what a first prepare gets: op_data zeroed, and the
 * node's pointers the core's (its last invoke may have written them). */
opver_status opver__interpreter_prepare_deferred(opver_interpreter *it,
						 node_state *state)
{
	const opver_kernel *kernel = state->binding.chosen->kernel;
	bool deferred;
	opver_status status = opver__dynamic_defer(&state->call, &deferred);

	if (state->op_data != NULL)
		memset(state->op_data, 0, kernel->op_data_size);
	state->node.op_data = state->op_data;
	state->node.kernel_data = state->kernel_data;
	it->session.phase = OPVER__PHASE_PREPARE;
	if (status == OPVER_OK)
		status = run_prepare(state);
	if (status == OPVER_OK)
		status = opver__dynamic_fill_outputs(&state->call);
	it->session.phase = OPVER__PHASE_INVOKE;
	return status;
}

/* A control-flow node, which passes tensors of the shapes its subgraphs
 * were prepared with, or a variable node, whose variable keeps one
 * shape: so none shaped at invoke. */
static opver_status prepare_control(opver_interpreter *it, int32_t n)
{
	const opver__graph_node *node = &it->graph->nodes[n];

	if (opver__dynamic_reads(&it->session, node)) {
		opver__error(&it->runtime->reporter,
			     "node %d (%s) of subgraph %d reads a tensor shaped at invoke (from values), which %s; give the model constant shapes there",
			     (int)n, opver_op_name(node->op), (int)it->subgraph,
			     opver__variable_node(node) ?
				     "a resource variable does not take: it holds values of one fixed shape" :
				     "control flow does not pass to its subgraphs");
		return OPVER_ERROR_UNSUPPORTED;
	}
	return opver__control_prepare(it->control, n, &it->nodes[n].node);
}

/* Prepares every partition, then every node on a kernel.  Activations
 * have no data yet: the arena is planned afterwards, with the scratch
 * prepare asks for. */
opver_status opver__interpreter_prepare_all(opver_interpreter *it)
{
	opver_status status;

	it->session.phase = OPVER__PHASE_PREPARE;
	status = opver__delegation_prepare(&it->delegation);
	for (int32_t n = 0; n < it->graph->num_nodes && status == OPVER_OK; n++)
		if (it->nodes[n].partition < 0)
			status = opver__control_node(&it->graph->nodes[n])
				 ? prepare_control(it, n)
				 : prepare_node(it, &it->nodes[n]);
	it->session.phase = OPVER__PHASE_IDLE;
	return status;
}

/* The pool's size: the caller's choice, else the runtime's, at most
 * OPVER__MAX_THREADS. */
static uint32_t pool_threads(const opver_interpreter *it,
			     const opver_interpreter_options *options)
{
	uint32_t threads = options->threads > 0 ? options->threads :
						   it->runtime->threads;

	if (threads == 0)
		return 1;
	return threads < OPVER__MAX_THREADS ? threads : OPVER__MAX_THREADS;
}

OPVER_API void opver_interpreter_options_init_sized(
	opver_interpreter_options *options, size_t size)
{
	opver_interpreter_options defaults = {
		.struct_size = sizeof(defaults),
	};

	opver__copy_sized(options, &defaults, size, sizeof(defaults));
}

OPVER_API opver_status opver_interpreter_create(opver_runtime *runtime,
						const opver_model *model,
						opver_interpreter **out)
{
	return opver_interpreter_create_with_options(runtime, model, NULL, out);
}

/* Everything up to the arena: tensors, nodes, delegation, resolution.  An
 * inspect-only interpreter reports the nodes no kernel handles at info
 * level: for it they are a finding, not a failure. */
static opver_status bind(opver_interpreter *it, bool inspect_only)
{
	opver_status status = build_tensors(it);

	if (status == OPVER_OK)
		status = build_nodes(it);
	if (status == OPVER_OK)
		status = opver__delegation_build(
			it->runtime->registry.plugins,
			it->runtime->registry.num_plugins,
			it->graph, &it->view, it->runtime->strict_versions,
			&it->session, &it->runtime->reporter, &it->delegation);
	if (status == OPVER_OK)
		status = opver__interpreter_resolve_nodes(
			it, inspect_only ? OPVER_LOG_INFO : OPVER_LOG_ERROR);
	return status;
}

/* An interpreter of `given.subgraph`: the application's when `callees` is
 * NULL, else a callee sharing the root's table and pool. */
static opver_status create(opver_runtime *runtime, const opver_model *model,
			   opver_interpreter_options given,
			   struct opver__callees *callees,
			   struct opver__pool *pool, opver__budget *budget,
			   opver_interpreter **out)
{
	opver_interpreter *it;
	opver_status status;

	*out = NULL;
	if (opver__graph_subgraph(opver__model_graph(model),
				  given.subgraph >= 0 &&
					  given.subgraph < INT32_MAX ?
				  (int32_t)given.subgraph : -1) == NULL) {
		opver__error(&runtime->reporter,
			     "subgraph %" PRId64 " asked for; the model has subgraphs 0 to %d",
			     given.subgraph,
			     opver__model_graph(model)->num_subgraphs - 1);
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	it = calloc(1, sizeof(*it));
	if (it == NULL)
		return OPVER_ERROR_NOMEM;
	it->runtime = runtime;
	runtime->num_interpreters++;
	it->subgraph = (int32_t)given.subgraph;
	it->graph = opver__graph_subgraph(opver__model_graph(model),
					  it->subgraph);

	it->max_arena_bytes = given.max_arena_bytes > 0 ? given.max_arena_bytes
			    : runtime->config.max_arena_bytes > 0
				    ? runtime->config.max_arena_bytes
				    : OPVER_DEFAULT_MAX_ARENA_BYTES;
	it->max_tensor_bytes =
		given.max_tensor_bytes > 0 ? given.max_tensor_bytes
		: runtime->config.max_tensor_bytes > 0
			? runtime->config.max_tensor_bytes
			: OPVER_DEFAULT_MAX_TENSOR_BYTES;
	it->budget.limit = it->max_arena_bytes;
	it->session.budget = budget != NULL ? budget : &it->budget;

	status = bind(it, given.inspect_only);
	if (given.inspect_only &&
	    (status == OPVER_OK || status == OPVER_ERROR_UNRESOLVED)) {
		it->inspect_only = true;
		*out = it;
		return OPVER_OK;
	}
	if (status == OPVER_OK)
		status = check_tensor_sizes(it);
	if (status == OPVER_OK)
		status = mark_resizable(it);
	it->borrows_pool = pool != NULL;
	it->pool = pool;
	if (status == OPVER_OK && pool == NULL)
		status = opver__pool_create(pool_threads(it, &given), &it->pool);
	it->session.pool = it->pool;
	/* Called subgraphs share this interpreter's arena limit. */
	given.max_arena_bytes = it->max_arena_bytes;
	if (status == OPVER_OK)
		status = opver__control_create(runtime, model, &given,
					       it->graph, it->subgraph,
					       callees, it->pool,
					       it->session.budget,
					       &it->control);
	it->profiler.trace = given.trace;
	it->profiler.trace_user_data = given.trace_user_data;
	if (given.profile || given.trace != NULL)
		it->session.profiler = &it->profiler;
	if (status == OPVER_OK)
		status = opver__interpreter_prepare_all(it);
	if (status == OPVER_OK && callees != NULL)
		status = opver__dynamic_refuse_outputs(
			&it->session, &it->runtime->reporter, it->subgraph);
	if (status == OPVER_OK)
		status = opver__interpreter_plan_arena(
			it, !given.prepare_only,
			given.preserve_intermediates != 0);
	if (status == OPVER_OK && !given.prepare_only)
		status = opver__delegation_bind_memory(&it->delegation);
	if (status != OPVER_OK) {
		if (status == OPVER_ERROR_NOMEM && !it->nomem_reported)
			opver__error(&runtime->reporter,
				     "out of memory while preparing the model");
		opver_interpreter_destroy(it);
		return status;
	}
	it->inspect_only = given.prepare_only != 0;
	it->preserve_intermediates = given.preserve_intermediates != 0;
	*out = it;
	return OPVER_OK;
}

void opver__interpreter_release_nodes(opver_interpreter *it)
{
	for (int32_t n = 0; it->nodes != NULL && n < it->graph->num_nodes; n++) {
		node_state *state = &it->nodes[n];

		if (state->owns_kernel_data)
			state->binding.chosen->kernel->free(&state->call.context,
							    state->kernel_data);
		free(state->op_data);
		state->owns_kernel_data = false;
		state->kernel_data = NULL;
		state->op_data = NULL;
		state->node.kernel_data = NULL;
		state->node.op_data = NULL;
	}
}

OPVER_API opver_status opver_interpreter_create_with_options(
	opver_runtime *runtime, const opver_model *model,
	const opver_interpreter_options *options, opver_interpreter **out)
{
	opver_interpreter_options given;

	/* Fields past the caller's struct_size keep their defaults. */
	opver_interpreter_options_init(&given);
	if (options != NULL)
		opver__read_sized(&given, sizeof(given), options,
				  options->struct_size);
	return create(runtime, model, given, NULL, NULL, NULL, out);
}

opver_status opver__interpreter_create_callee(
	opver_runtime *runtime, const opver_model *model,
	const opver_interpreter_options *options, int32_t subgraph,
	struct opver__callees *callees, struct opver__pool *pool,
	opver__budget *budget, opver_interpreter **out)
{
	opver_interpreter_options given = *options;

	given.subgraph = subgraph;
	return create(runtime, model, given, callees, pool, budget, out);
}

OPVER_API void opver_interpreter_destroy(opver_interpreter *it)
{
	if (it == NULL)
		return;
	it->session.phase = OPVER__PHASE_IDLE;
	opver__delegation_free(&it->delegation);
	opver__interpreter_release_nodes(it);
	for (size_t i = 0; i < it->num_shared; i++) {
		const shared_kernel *shared = &it->shared[i];
		opver__call call;

		opver__call_init(&call, OPVER__CALL_KERNEL,
				 &it->runtime->reporter,
				 shared->plugin->config_name,
				 shared->kernel->name,
				 shared->plugin->call.context.plugin_data);
		shared->kernel->free(&call.context, shared->data);
	}
	/* Callees first: they run on this interpreter's pool. */
	opver__control_free(it->control);
	opver__session_free(&it->session);
	if (!it->borrows_pool)
		opver__pool_destroy(it->pool);
	opver__profiler_free(&it->profiler);
	free(it->arena);
	free(it->shared);
	free(it->nodes);
	free(it->node_pointers);
	free(it->io_pool);
	free(it->type_pool);
	free(it->tensor_pointers);
	free(it->tensors);
	free(it->resizable);
	opver__interpreter_free_resized(it);
	it->runtime->num_interpreters--;
	free(it);
}

OPVER_API opver_status opver_interpreter_reset_variables(opver_interpreter *it)
{
	if (it->inspect_only) {
		opver__error(&it->runtime->reporter,
			     "this interpreter was created for inspection only (inspect_only or prepare_only) and has no variable tensors to reset");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	reset_variables(it);
	opver__control_reset_variables(it->control);
	return OPVER_OK;
}
