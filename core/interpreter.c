/* interpreter.c - resolution, planning, init/prepare/invoke of a model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "delegate.h"
#include "interpreter.h"
#include "kernel_match.h"
#include "planner.h"
#include "resolver.h"
#include "runtime.h"

/* The kernel object of a stateless kernel, shared by all its nodes. */
typedef struct shared_kernel {
	const opver_kernel *kernel;
	const opver__plugin *plugin;
	void *data;
} shared_kernel;

typedef struct node_state {
	opver_node node;                        /* what the kernel sees */
	opver__binding binding;                 /* chosen kernel, fallback */
	int32_t partition;                      /* -1: runs on its kernel */
	bool owns_kernel_data;                  /* per-node init was called */
	/* The core's own copies of what node.kernel_data and node.op_data
	 * were set to: a kernel may write to its opver_node, so teardown
	 * never reads them back from there. */
	void *kernel_data;
	void *op_data;
	char runner[160];                       /* "kernel 'x' of plugin 'y'" */
	int32_t *input_types;                   /* into the interpreter pool */
	uint64_t total_ns;
	uint64_t invocations;
} node_state;

struct opver_interpreter {
	opver_runtime *runtime;                 /* borrowed */
	/* This interpreter's services and call context, so interpreters of
	 * one runtime can run on different threads. */
	opver__host host;
	const opver__graph *graph;              /* borrowed from the model */
	opver_tensor *tensors;                  /* owned; graph->num_tensors */
	opver_tensor **tensor_pointers;         /* owned; &tensors[i] */
	opver_tensor **io_pool;                 /* owned; backs node in/outputs */
	int32_t *type_pool;                     /* owned; backs input_types */
	const opver_node **node_pointers;       /* owned; for the graph view */
	opver_graph_view view;
	node_state *nodes;                      /* owned; graph->num_nodes */
	shared_kernel *shared;                  /* owned; num_shared */
	size_t num_shared;
	opver__delegation delegation;
	/* Kernels' allocate_persistent blocks, freed with the interpreter. */
	struct opver__persistent_block *persistent;
	uint8_t *arena;                         /* owned */
	size_t arena_bytes;
	size_t naive_bytes;
	/* Created with inspect_only: nodes bound (or not), nothing prepared. */
	bool inspect_only;
};

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

		tensor->type = source->type;
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
		      (size_t)graph->nodes[n].num_outputs;
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
		state->partition = -1;
		it->node_pointers[n] = node;
	}
	it->view.num_nodes = graph->num_nodes;
	it->view.nodes = it->node_pointers;
	return OPVER_OK;
}

/* Binds every node no delegate took; reports every failure before
 * returning the first.  An unresolved node keeps a NULL binding. */
static opver_status resolve_nodes(opver_interpreter *it)
{
	opver_status result = OPVER_OK;

	for (int32_t n = 0; n < it->graph->num_nodes; n++) {
		node_state *state = &it->nodes[n];
		opver_status status;

		state->partition = it->delegation.node_partition[n];
		if (state->partition >= 0) {
			const opver__partition *partition =
				&it->delegation.partitions[state->partition];

			snprintf(state->runner, sizeof(state->runner),
				 "delegate '%s' of plugin '%s'",
				 partition->plugin->delegate.name,
				 partition->plugin->config_name);
			continue;
		}
		status = opver__resolve_node(&it->runtime->registry, it->graph,
					     n, it->runtime->strict,
					     it->runtime->strict_versions,
					     &it->runtime->reporter,
					     &state->binding);
		if (status != OPVER_OK) {
			if (result == OPVER_OK)
				result = status;
			continue;
		}
		snprintf(state->runner, sizeof(state->runner),
			 "kernel '%s' of plugin '%s'",
			 state->binding.chosen->kernel->name,
			 state->binding.chosen->plugin->config_name);
	}
	return result;
}

static opver_status plan_arena(opver_interpreter *it)
{
	const opver__graph *graph = it->graph;
	size_t count = graph->num_tensors > 0 ? (size_t)graph->num_tensors : 1;
	opver__lifetime *lifetimes = calloc(count, sizeof(*lifetimes));
	size_t *offsets = calloc(count, sizeof(*offsets));
	opver_status status = OPVER_ERROR_NOMEM;

	if (lifetimes == NULL || offsets == NULL)
		goto out;
	opver__graph_lifetimes(graph, lifetimes);
	for (size_t i = 0; i < it->delegation.count; i++) {
		const opver__partition *partition = &it->delegation.partitions[i];

		opver__extend_lifetimes(graph, partition->nodes[0],
					partition->nodes[partition->view.num_nodes - 1],
					lifetimes);
	}
	status = opver__plan_arena(lifetimes, (size_t)graph->num_tensors,
				   offsets, &it->arena_bytes, &it->naive_bytes);
	if (status != OPVER_OK) {
		opver__error(&it->runtime->reporter,
			     "the model's activation tensors need more memory than can be addressed");
		goto out;
	}
	it->arena = it->host.services.allocate(
		&it->host.services, it->arena_bytes);
	if (it->arena == NULL) {
		status = OPVER_ERROR_NOMEM;
		goto out;
	}
	for (int32_t t = 0; t < graph->num_tensors; t++) {
		if (offsets[t] != SIZE_MAX)
			it->tensors[t].data = it->arena + offsets[t];
		if (graph->tensors[t].initial_data != NULL)
			memcpy(it->tensors[t].data,
			       graph->tensors[t].initial_data,
			       graph->tensors[t].bytes);
	}
	opver__debug(&it->runtime->reporter,
		     "arena: %zu bytes planned, %zu bytes with one buffer per tensor",
		     it->arena_bytes, it->naive_bytes);
out:
	free(lifetimes);
	free(offsets);
	return status;
}

/*
 * A plugin callback failed: say which, with the status it returned, and
 * turn that status into OPVER_ERROR_PLUGIN so a plugin cannot make the
 * failure look like, say, a missing op version.
 */
static opver_status plugin_failed(opver__host *host, const char *callback,
				  opver_status status)
{
	if (host->node != NULL)
		opver__error(host->reporter, "node %d (%s v%d, %s): %s failed (%s)",
			     host->node_index, opver__node_label(host->node),
			     host->node->version, host->node_runner, callback,
			     opver_status_name(status));
	else
		opver__error(host->reporter, "%s: %s failed (%s)",
			     host->context, callback, opver_status_name(status));
	return OPVER_ERROR_PLUGIN;
}

/* The shared object of a stateless kernel, created on first use. */
static opver_status shared_kernel_data(opver_interpreter *it,
				       const opver__registered_kernel *entry,
				       void **data)
{
	opver__host *host = &it->host;
	shared_kernel *grown;
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
	opver__host_set_context(host, "kernel '%s' of plugin '%s'",
				entry->kernel->name, entry->plugin->config_name);
	status = entry->kernel->init(&host->services, entry->plugin->plugin_data,
				     data);
	if (status != OPVER_OK)
		return plugin_failed(host, "init", status);
	grown[it->num_shared].kernel = entry->kernel;
	grown[it->num_shared].plugin = entry->plugin;
	grown[it->num_shared].data = *data;
	it->num_shared++;
	return OPVER_OK;
}

/* init (shared or per node), op_data, then prepare. */
static opver_status prepare_node(opver_interpreter *it, node_state *state)
{
	const opver__registered_kernel *entry = state->binding.chosen;
	const opver_kernel *kernel = entry->kernel;
	opver__host *host = &it->host;
	opver_status status;

	if (kernel->init != NULL) {
		if (kernel->flags & OPVER_KERNEL_STATELESS) {
			status = shared_kernel_data(it, entry,
						    &state->kernel_data);
		} else {
			opver__host_set_node(host, state->node.index,
					     &it->graph->nodes[state->node.index],
					     state->runner);
			status = kernel->init(&host->services,
					      entry->plugin->plugin_data,
					      &state->kernel_data);
			state->owns_kernel_data = status == OPVER_OK;
		}
		if (status != OPVER_OK)
			return plugin_failed(host, "init", status);
		state->node.kernel_data = state->kernel_data;
	}
	if (kernel->op_data_size > 0) {
		state->op_data = host->services.allocate(&host->services,
							 kernel->op_data_size);
		if (state->op_data == NULL)
			return OPVER_ERROR_NOMEM;
		state->node.op_data = state->op_data;
	}
	opver__host_set_node(host, state->node.index,
			     &it->graph->nodes[state->node.index], state->runner);
	status = kernel->prepare(&host->services, &state->node);
	return status == OPVER_OK ? OPVER_OK :
				    plugin_failed(host, "prepare", status);
}

static opver_status prepare_all(opver_interpreter *it)
{
	opver__host *host = &it->host;
	opver_status status = OPVER_OK;

	status = opver__delegation_prepare(&it->delegation, host);
	if (status != OPVER_OK)
		return plugin_failed(host, "init or prepare", status);
	host->persistent = &it->persistent;
	for (int32_t n = 0; n < it->graph->num_nodes && status == OPVER_OK; n++)
		if (it->nodes[n].partition < 0)
			status = prepare_node(it, &it->nodes[n]);
	host->persistent = NULL;
	return status;
}

OPVER_API void opver_interpreter_options_init(opver_interpreter_options *options)
{
	memset(options, 0, sizeof(*options));
	options->struct_size = sizeof(*options);
}

OPVER_API opver_status opver_interpreter_create(opver_runtime *runtime,
						const opver_model *model,
						opver_interpreter **out)
{
	return opver_interpreter_create_with_options(runtime, model, NULL, out);
}

OPVER_API opver_status opver_interpreter_create_with_options(
	opver_runtime *runtime, const opver_model *model,
	const opver_interpreter_options *options, opver_interpreter **out)
{
	opver_interpreter_options given;
	opver_interpreter *it;
	opver_status status;

	*out = NULL;
	/* Fields past the caller's struct_size keep their defaults. */
	opver_interpreter_options_init(&given);
	if (options != NULL)
		memcpy(&given, options,
		       options->struct_size < sizeof(given) ?
			       options->struct_size :
			       sizeof(given));
	it = calloc(1, sizeof(*it));
	if (it == NULL)
		return OPVER_ERROR_NOMEM;
	it->runtime = runtime;
	it->graph = opver__model_graph(model);
	opver__host_init(&it->host, &runtime->reporter);

	status = build_tensors(it);
	if (status == OPVER_OK)
		status = build_nodes(it);
	if (status == OPVER_OK)
		status = opver__delegation_build(runtime->plugins,
						 runtime->num_plugins,
						 it->graph, &it->view,
						 &it->host, &it->delegation);
	if (status == OPVER_OK)
		status = resolve_nodes(it);
	if (given.inspect_only &&
	    (status == OPVER_OK || status == OPVER_ERROR_UNRESOLVED)) {
		it->inspect_only = true;
		*out = it;
		return OPVER_OK;
	}
	if (status == OPVER_OK)
		status = plan_arena(it);
	if (status == OPVER_OK)
		status = prepare_all(it);
	if (status != OPVER_OK) {
		if (status == OPVER_ERROR_NOMEM)
			opver__error(&runtime->reporter,
				     "out of memory while preparing the model");
		opver_interpreter_destroy(it);
		return status;
	}
	it->host.node = NULL;
	*out = it;
	return OPVER_OK;
}

OPVER_API void opver_interpreter_destroy(opver_interpreter *it)
{
	const opver_host *services;

	if (it == NULL)
		return;
	services = &it->host.services;
	opver__host_set_context(&it->host, "freeing the interpreter");
	opver__delegation_free(&it->delegation, &it->host);
	for (int32_t n = 0; it->nodes != NULL && n < it->graph->num_nodes; n++) {
		node_state *state = &it->nodes[n];

		if (state->owns_kernel_data &&
		    state->binding.chosen->kernel->free != NULL)
			state->binding.chosen->kernel->free(services,
							    state->kernel_data);
		services->free_memory(services, state->op_data);
	}
	for (size_t i = 0; i < it->num_shared; i++)
		if (it->shared[i].kernel->free != NULL)
			it->shared[i].kernel->free(services, it->shared[i].data);
	opver__host_free_persistent(&it->persistent);
	services->free_memory(services, it->arena);
	free(it->shared);
	free(it->nodes);
	free(it->node_pointers);
	free(it->io_pool);
	free(it->type_pool);
	free(it->tensor_pointers);
	free(it->tensors);
	free(it);
}

static uint64_t now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

OPVER_API opver_status opver_interpreter_invoke(opver_interpreter *it)
{
	opver__host *host = &it->host;
	opver_status status = OPVER_OK;

	if (it->inspect_only) {
		opver__error(&it->runtime->reporter,
			     "this interpreter was created for inspection only; create another to run the model");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	for (int32_t n = 0; n < it->graph->num_nodes && status == OPVER_OK; n++) {
		node_state *state = &it->nodes[n];
		uint64_t start = now_ns();

		opver__host_set_node(host, n, &it->graph->nodes[n], state->runner);
		if (state->partition >= 0) {
			opver__partition *partition =
				&it->delegation.partitions[state->partition];

			status = opver__partition_invoke(partition, host);
			partition->total_ns += now_ns() - start;
			partition->invocations++;
			/* The partition ran as one step: skip its other nodes. */
			n += partition->view.num_nodes - 1;
		} else {
			status = state->binding.chosen->kernel->invoke(
				&host->services, &state->node);
			state->total_ns += now_ns() - start;
			state->invocations++;
		}
		if (status != OPVER_OK)
			status = plugin_failed(host, "invoke", status);
	}
	host->node = NULL;
	return status;
}

OPVER_API size_t opver_interpreter_input_count(const opver_interpreter *it)
{
	return (size_t)it->graph->num_inputs;
}

OPVER_API size_t opver_interpreter_output_count(const opver_interpreter *it)
{
	return (size_t)it->graph->num_outputs;
}

OPVER_API opver_tensor *opver_interpreter_input(opver_interpreter *it,
						size_t index)
{
	if (index >= (size_t)it->graph->num_inputs)
		return NULL;
	return &it->tensors[it->graph->inputs[index]];
}

OPVER_API const opver_tensor *opver_interpreter_output(const opver_interpreter *it,
						       size_t index)
{
	if (index >= (size_t)it->graph->num_outputs)
		return NULL;
	return &it->tensors[it->graph->outputs[index]];
}

OPVER_API size_t opver_interpreter_node_count(const opver_interpreter *it)
{
	return (size_t)it->graph->num_nodes;
}

OPVER_API opver_status opver_interpreter_node_info(const opver_interpreter *it,
						   size_t index,
						   opver_node_info *info)
{
	const node_state *state;

	if (index >= (size_t)it->graph->num_nodes)
		return OPVER_ERROR_INVALID_ARGUMENT;
	state = &it->nodes[index];
	memset(info, 0, sizeof(*info));
	info->index = (int32_t)index;
	info->op = state->node.op;
	info->custom_name = state->node.custom_name;
	info->version = state->node.version;
	info->required_version = it->graph->nodes[index].required_version;
	info->version_reason = it->graph->nodes[index].version_reason;
	info->resolved_version = opver__resolution_version(
		&it->graph->nodes[index], it->runtime->strict_versions);
	info->num_inputs = it->graph->nodes[index].num_inputs;
	info->input_types = state->input_types;
	if (state->partition >= 0) {
		const opver__partition *partition =
			&it->delegation.partitions[state->partition];

		info->plugin = partition->plugin->config_name;
		info->delegate = partition->plugin->delegate.name;
		info->total_ns = partition->total_ns;
		info->invocations = partition->invocations;
	} else if (state->binding.chosen != NULL) {
		info->plugin = state->binding.chosen->plugin->config_name;
		info->kernel = state->binding.chosen->kernel->name;
		info->fallback = state->binding.preferred != NULL;
		info->total_ns = state->total_ns;
		info->invocations = state->invocations;
	}
	return OPVER_OK;
}

OPVER_API void opver_interpreter_memory(const opver_interpreter *it,
					size_t *arena_bytes,
					size_t *naive_bytes)
{
	if (arena_bytes != NULL)
		*arena_bytes = it->arena_bytes;
	if (naive_bytes != NULL)
		*naive_bytes = it->naive_bytes;
}
