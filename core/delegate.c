/* delegate.c - delegate claims and their validation, the execution plan
 * and its partitions, and buffer handles. */
#include <stdlib.h>
#include <string.h>

#include "delegate.h"
#include "kernel_match.h"
#include "resolver.h"
#include "text.h"

/* ---------------------------------------------------------------- claims */

/* Whether one of the delegate's typed claims covers the node at
 * `version`; otherwise appends why not to `why`. */
static bool claim_covers(const opver__plugin *plugin, const opver__graph *graph,
			 const opver__graph_node *node, int32_t version,
			 opver__text *why)
{
	bool declared = false;

	for (uint32_t i = 0; i < plugin->delegate.num_ops; i++) {
		const opver_delegate_op *op = &plugin->delegate_ops[i];

		if (!opver__same_op(op->op, op->custom_name, node->op,
				    node->custom_name))
			continue;
		if (version >= op->min_version && version <= op->max_version &&
		    opver__signatures_accept(op->signatures,
					     op->num_signatures, graph, node))
			return true;
		opver__text_append(why, "%s v%d-%d for ",
				   declared ? ";" : " but declares it only as",
				   op->min_version, op->max_version);
		opver__format_signatures(op->signatures, op->num_signatures,
					 why);
		declared = true;
	}
	if (!declared)
		opver__text_append(why, " but does not declare %s",
				   opver__node_label(node));
	return false;
}

/*
 * Keeps only the claims delegate `p` of `plugins` may make; reports the
 * others.  A node an earlier delegate took stays with it: delegates are
 * stacked in plugin order, so that is how a user ranks them, and only
 * --log-level info says so.
 */
static void validate_claims(const opver__plugin *const *plugins, size_t p,
			    const opver__graph *graph, bool strict_versions,
			    uint8_t *claimed, const int32_t *owner,
			    const opver__reporter *reporter)
{
	const opver__plugin *plugin = plugins[p];

	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver__graph_node *node = &graph->nodes[n];
		int32_t version = opver__resolution_version(node,
							    strict_versions);
		char reason[512];
		opver__text why;

		if (!claimed[n])
			continue;
		claimed[n] = 0;
		if (owner[n] >= 0) {
			opver__info(reporter,
				    "delegate '%s' of plugin '%s' also claimed node %d (%s v%d); it stays with delegate '%s' of plugin '%s', loaded before it",
				    plugin->delegate.name,
				    plugin->config_name, n,
				    opver__node_label(node), version,
				    plugins[owner[n]]->delegate.name,
				    plugins[owner[n]]->config_name);
			continue;
		}
		opver__text_init(&why, reason, sizeof(reason));
		if (claim_covers(plugin, graph, node, version, &why))
			claimed[n] = 1;
		if (!claimed[n])
			opver__warning(reporter,
				       "delegate '%s' of plugin '%s' claimed node %d (%s v%d)%s; claim rejected, the node runs on a kernel",
				       plugin->delegate.name,
				       plugin->config_name, n,
				       opver__node_label(node), version,
				       reason);
	}
}

/* ------------------------------------------------------------------ plan */

/* For each node, how many of its inputs are still to be produced, and the
 * nodes reading what it writes (readers[first[n] .. first[n + 1])). */
typedef struct dependencies {
	int32_t *pending;
	int32_t *first;
	int32_t *readers;
} dependencies;

static void dependencies_free(dependencies *d)
{
	free(d->pending);
	free(d->first);
	free(d->readers);
}

/* The producer of every tensor, or -1. */
static int32_t *producers(const opver__graph *graph)
{
	size_t count = graph->num_tensors > 0 ? (size_t)graph->num_tensors : 1;
	int32_t *producer = malloc(count * sizeof(*producer));

	if (producer == NULL)
		return NULL;
	for (int32_t t = 0; t < graph->num_tensors; t++)
		producer[t] = -1;
	for (int32_t n = 0; n < graph->num_nodes; n++)
		for (int32_t o = 0; o < graph->nodes[n].num_outputs; o++)
			producer[graph->nodes[n].outputs[o]] = n;
	return producer;
}

/* The node writing input i of node n when that is another node, else
 * -1. */
static int32_t input_producer(const opver__graph *graph,
			      const int32_t *producer, int32_t n, int32_t i)
{
	int32_t t = graph->nodes[n].inputs[i];
	int32_t p = t < 0 ? -1 : producer[t];

	return p == n ? -1 : p;
}

static opver_status dependencies_build(const opver__graph *graph,
				       dependencies *d)
{
	size_t nodes = (size_t)graph->num_nodes;
	int32_t *producer = producers(graph);
	int32_t *fill = NULL;
	size_t edges = 0;

	memset(d, 0, sizeof(*d));
	d->pending = calloc(nodes + 1, sizeof(int32_t));
	d->first = calloc(nodes + 1, sizeof(int32_t));
	fill = calloc(nodes + 1, sizeof(int32_t));
	if (producer == NULL || d->pending == NULL || d->first == NULL ||
	    fill == NULL)
		goto nomem;
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		for (int32_t i = 0; i < graph->nodes[n].num_inputs; i++) {
			int32_t p = input_producer(graph, producer, n, i);

			if (p < 0)
				continue;
			d->pending[n]++;
			d->first[p + 1]++;
			edges++;
		}
	}
	for (size_t n = 0; n < nodes; n++)
		d->first[n + 1] += d->first[n];
	d->readers = malloc((edges ? edges : 1) * sizeof(int32_t));
	if (d->readers == NULL)
		goto nomem;
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		for (int32_t i = 0; i < graph->nodes[n].num_inputs; i++) {
			int32_t p = input_producer(graph, producer, n, i);

			if (p >= 0)
				d->readers[d->first[p] + fill[p]++] = n;
		}
	}
	free(producer);
	free(fill);
	return OPVER_OK;
nomem:
	free(producer);
	free(fill);
	dependencies_free(d);
	return OPVER_ERROR_NOMEM;
}

/* The lowest untaken node whose inputs are all produced and whose owner
 * is `owner` (any owner when `any`), or -1. */
static int32_t next_ready(const opver__graph *graph, const dependencies *d,
			  const bool *taken, const int32_t *owner,
			  int32_t wanted, bool any)
{
	for (int32_t n = 0; n < graph->num_nodes; n++)
		if (!taken[n] && d->pending[n] == 0 &&
		    (any || owner[n] == wanted))
			return n;
	return -1;
}

/* The lowest untaken node: only a model whose nodes read what later nodes
 * write (a cycle) leaves no node ready; run it in file order. */
static int32_t lowest_untaken(const opver__graph *graph, const bool *taken)
{
	for (int32_t n = 0; n < graph->num_nodes; n++)
		if (!taken[n])
			return n;
	return -1;
}

/* Appends t to list[*count] (and its index) unless present. */
static void add_unique(opver_tensor **list, int32_t *indices, int32_t *count,
		       opver_tensor *tensor, int32_t index)
{
	for (int32_t i = 0; i < *count; i++)
		if (indices[i] == index)
			return;
	list[*count] = tensor;
	indices[(*count)++] = index;
}

/* Whether tensor t, written by node `writer` of partition `partition`, is
 * read outside it or is a graph output. */
static bool read_outside(const opver__delegation *delegation,
			 const dependencies *d, int32_t writer, int32_t t,
			 int32_t partition)
{
	const opver__graph *graph = delegation->graph;

	for (int32_t i = 0; i < graph->num_outputs; i++)
		if (graph->outputs[i] == t)
			return true;
	for (int32_t r = d->first[writer]; r < d->first[writer + 1]; r++) {
		const opver__graph_node *reader =
			&graph->nodes[d->readers[r]];

		if (delegation->node_partition[d->readers[r]] == partition)
			continue;
		for (int32_t i = 0; i < reader->num_inputs; i++)
			if (reader->inputs[i] == t)
				return true;
	}
	return false;
}

/* Fills partition `index`'s nodes (`count` of them, from `group`) and
 * boundary tensors. */
static opver_status form_partition(opver__delegation *delegation,
				   const dependencies *d, int32_t index,
				   const int32_t *group, int32_t count)
{
	const opver__graph *graph = delegation->graph;
	opver__partition *partition = &delegation->partitions[index];
	opver_tensor *const *tensors = delegation->view->tensors;
	size_t max_in = 1, max_out = 1;

	for (int32_t k = 0; k < count; k++) {
		max_in += (size_t)graph->nodes[group[k]].num_inputs;
		max_out += (size_t)graph->nodes[group[k]].num_outputs;
	}
	partition->nodes = malloc((size_t)count * sizeof(int32_t));
	partition->inputs = malloc(max_in * sizeof(opver_tensor *));
	partition->input_indices = malloc(max_in * sizeof(int32_t));
	partition->outputs = malloc(max_out * sizeof(opver_tensor *));
	partition->output_indices = malloc(max_out * sizeof(int32_t));
	if (partition->nodes == NULL || partition->inputs == NULL ||
	    partition->input_indices == NULL || partition->outputs == NULL ||
	    partition->output_indices == NULL)
		return OPVER_ERROR_NOMEM;
	memcpy(partition->nodes, group, (size_t)count * sizeof(int32_t));
	for (int32_t k = 0; k < count; k++) {
		const opver__graph_node *node = &graph->nodes[group[k]];

		for (int32_t i = 0; i < node->num_inputs; i++) {
			int32_t t = node->inputs[i];
			bool inside = false;

			if (t < 0 || graph->tensors[t].constant_data != NULL)
				continue;
			for (int32_t j = 0; j < k && !inside; j++)
				for (int32_t o = 0; o < graph->nodes[group[j]].num_outputs; o++)
					inside |= graph->nodes[group[j]].outputs[o] == t;
			if (!inside)
				add_unique(partition->inputs,
					   partition->input_indices,
					   &partition->view.num_inputs,
					   tensors[t], t);
		}
		for (int32_t o = 0; o < node->num_outputs; o++) {
			int32_t t = node->outputs[o];

			if (read_outside(delegation, d, group[k], t, index))
				add_unique(partition->outputs,
					   partition->output_indices,
					   &partition->view.num_outputs,
					   tensors[t], t);
		}
	}
	partition->view.struct_size = sizeof(partition->view);
	partition->view.num_nodes = count;
	partition->view.nodes = partition->nodes;
	partition->view.inputs = partition->inputs;
	partition->view.input_indices = partition->input_indices;
	partition->view.outputs = partition->outputs;
	partition->view.output_indices = partition->output_indices;
	partition->view.graph = delegation->view;
	return OPVER_OK;
}

/* Appends a partition of plugin `plugin` over `group`, and its step. */
static opver_status add_partition(opver__delegation *delegation,
				  const dependencies *d,
				  const opver__plugin *plugin,
				  opver__session *session,
				  const int32_t *group, int32_t count)
{
	int32_t index = (int32_t)delegation->count;
	opver__partition *grown, *partition;

	grown = realloc(delegation->partitions,
			(delegation->count + 1) * sizeof(*grown));
	if (grown == NULL)
		return OPVER_ERROR_NOMEM;
	delegation->partitions = grown;
	partition = &grown[delegation->count++];
	memset(partition, 0, sizeof(*partition));
	partition->plugin = plugin;
	for (int32_t k = 0; k < count; k++) {
		delegation->node_partition[group[k]] = index;
		delegation->node_step[group[k]] = delegation->num_steps;
	}
	opver__call_init(&partition->call, OPVER__CALL_PARTITION,
			 plugin->call.reporter, plugin->config_name,
			 plugin->delegate.name, plugin->call.context.plugin_data);
	partition->call.node_index = group[0];
	partition->call.node = &delegation->graph->nodes[group[0]];
	partition->call.partition_index = index;
	partition->call.step = delegation->num_steps;
	partition->call.session = session;
	delegation->steps[delegation->num_steps].partition = index;
	delegation->steps[delegation->num_steps].node = group[0];
	delegation->num_steps++;
	return form_partition(delegation, d, index, group, count);
}

/*
 * Takes every node in dependency order (owner[n]: the index in `plugins`
 * of the delegate that runs it, or -1) into the plan, grouping each run of
 * one delegate's nodes into a partition.
 */
static opver_status build_plan(opver__delegation *delegation,
			       const opver__plugin *const *plugins,
			       const int32_t *owner, opver__session *session)
{
	const opver__graph *graph = delegation->graph;
	size_t nodes = graph->num_nodes > 0 ? (size_t)graph->num_nodes : 1;
	bool *taken = calloc(nodes, sizeof(bool));
	int32_t *group = malloc(nodes * sizeof(int32_t));
	/* The owner of the group being taken; none before the first node. */
	int32_t grouped = 0, current = -2;
	opver_status status = OPVER_ERROR_NOMEM;
	dependencies d;

	if (taken == NULL || group == NULL ||
	    dependencies_build(graph, &d) != OPVER_OK) {
		free(taken);
		free(group);
		return OPVER_ERROR_NOMEM;
	}
	status = OPVER_OK;
	for (int32_t left = graph->num_nodes; left > 0 && status == OPVER_OK;
	     left--) {
		int32_t n = next_ready(graph, &d, taken, owner, current, false);

		if (n < 0) {
			n = next_ready(graph, &d, taken, owner, current, true);
			if (n < 0)
				n = lowest_untaken(graph, taken);
			if (grouped > 0)
				status = add_partition(delegation, &d,
						       plugins[current],
						       session, group, grouped);
			grouped = 0;
			current = owner[n];
		}
		taken[n] = true;
		for (int32_t r = d.first[n]; r < d.first[n + 1]; r++)
			d.pending[d.readers[r]]--;
		if (owner[n] >= 0) {
			group[grouped++] = n;
			continue;
		}
		delegation->node_step[n] = delegation->num_steps;
		delegation->steps[delegation->num_steps].partition = -1;
		delegation->steps[delegation->num_steps++].node = n;
	}
	if (status == OPVER_OK && grouped > 0)
		status = add_partition(delegation, &d, plugins[current],
				       session, group, grouped);
	dependencies_free(&d);
	free(taken);
	free(group);
	return status;
}

opver_status opver__delegation_build(const opver__plugin *const *plugins,
				     size_t num_plugins,
				     const opver__graph *graph,
				     const opver_graph_view *view,
				     bool strict_versions,
				     opver__session *session,
				     const opver__reporter *reporter,
				     opver__delegation *delegation)
{
	size_t nodes = graph->num_nodes > 0 ? (size_t)graph->num_nodes : 1;
	opver_status status = OPVER_OK;
	uint8_t *claimed;
	int32_t *owner;

	memset(delegation, 0, sizeof(*delegation));
	delegation->graph = graph;
	delegation->view = view;
	delegation->node_partition = malloc(nodes * sizeof(int32_t));
	delegation->node_step = malloc(nodes * sizeof(int32_t));
	delegation->steps = malloc(nodes * sizeof(opver__step));
	claimed = malloc(nodes);
	owner = malloc(nodes * sizeof(int32_t));
	if (delegation->node_partition == NULL ||
	    delegation->node_step == NULL || delegation->steps == NULL ||
	    claimed == NULL || owner == NULL) {
		status = OPVER_ERROR_NOMEM;
		goto out;
	}
	for (int32_t n = 0; n < graph->num_nodes; n++)
		delegation->node_partition[n] = owner[n] = -1;
	for (size_t p = 0; p < num_plugins; p++) {
		const opver__plugin *plugin = plugins[p];

		if (!plugin->has_delegate)
			continue;
		memset(claimed, 0, nodes);
		status = plugin->delegate.claim(&plugin->call.context, view,
						claimed);
		if (status != OPVER_OK) {
			opver__error(reporter,
				     "delegate '%s' of plugin '%s': claiming nodes failed (%s)",
				     plugin->delegate.name, plugin->config_name,
				     opver_status_name(status));
			status = OPVER_ERROR_PLUGIN;
			goto out;
		}
		validate_claims(plugins, p, graph, strict_versions, claimed,
				owner, reporter);
		for (int32_t n = 0; n < graph->num_nodes; n++)
			if (claimed[n])
				owner[n] = (int32_t)p;
	}
	status = build_plan(delegation, plugins, owner, session);
	/* The array has stopped moving: point the records back at it. */
	for (size_t i = 0; i < delegation->count; i++) {
		delegation->partitions[i].delegation = delegation;
		delegation->partitions[i].call.partition =
			&delegation->partitions[i];
	}
out:
	free(claimed);
	free(owner);
	return status;
}

/* --------------------------------------------------------------- running */

opver_status opver__delegation_prepare(opver__delegation *delegation)
{
	for (size_t i = 0; i < delegation->count; i++) {
		opver__partition *partition = &delegation->partitions[i];
		const opver_delegate *delegate = &partition->plugin->delegate;
		opver_status status;

		status = delegate->init(&partition->call.context,
					&partition->view, &partition->data);
		if (status != OPVER_OK)
			return opver__call_failed(&partition->call, "init",
						  status);
		partition->initialized = true;
		if (delegate->prepare == NULL)
			continue;
		status = delegate->prepare(&partition->call.context,
					   partition->data, &partition->view);
		if (status != OPVER_OK)
			return opver__call_prepare_failed(&partition->call,
							  status);
	}
	return OPVER_OK;
}

opver_status opver__delegation_bind_memory(opver__delegation *delegation)
{
	for (size_t i = 0; i < delegation->count; i++) {
		opver__partition *partition = &delegation->partitions[i];
		const opver_delegate *delegate = &partition->plugin->delegate;
		opver_status status;

		if (delegate->bind_memory == NULL)
			continue;
		status = delegate->bind_memory(&partition->call.context,
					       partition->data,
					       &partition->view);
		if (status != OPVER_OK)
			return opver__call_failed(&partition->call,
						  "bind_memory", status);
	}
	return OPVER_OK;
}

opver_status opver__delegation_fetch(opver__delegation *delegation,
				     int32_t tensor,
				     const opver__plugin *reader)
{
	opver__held_tensor *held;
	opver__partition *holder;
	opver_status status;

	if (delegation->held == NULL)
		return OPVER_OK;
	held = &delegation->held[tensor];
	if (held->partition < 0 || !held->stale)
		return OPVER_OK;
	holder = &delegation->partitions[held->partition];
	if (holder->plugin == reader)
		return OPVER_OK;
	status = holder->plugin->delegate.copy_from_handle(
		&holder->call.context, holder->data, held->handle,
		delegation->view->tensors[tensor]);
	if (status != OPVER_OK)
		return opver__call_failed(&holder->call, "copy_from_handle",
					  status);
	held->stale = false;
	return OPVER_OK;
}

opver_status opver__partition_invoke(opver__delegation *delegation,
				     int32_t index)
{
	opver__partition *partition = &delegation->partitions[index];
	const opver_delegate *delegate = &partition->plugin->delegate;
	const opver_partition *view = &partition->view;
	const opver_context *ctx = &partition->call.context;
	opver_status status;

	for (int32_t i = 0; i < view->num_inputs; i++) {
		int32_t t = view->input_indices[i];
		const opver__held_tensor *held =
			delegation->held != NULL ? &delegation->held[t] : NULL;

		status = opver__delegation_fetch(delegation, t,
						 partition->plugin);
		if (status != OPVER_OK)
			return status;
		/* Its own delegate's tensors are on the device already. */
		if (delegate->copy_to_device == NULL ||
		    (held != NULL && held->partition >= 0 &&
		     delegation->partitions[held->partition].plugin ==
			     partition->plugin))
			continue;
		status = delegate->copy_to_device(ctx, partition->data,
						  view->inputs[i]);
		if (status != OPVER_OK)
			return opver__call_failed(&partition->call,
						  "copy_to_device", status);
	}
	status = delegate->invoke(ctx, partition->data, view);
	if (status != OPVER_OK)
		return opver__call_failed(&partition->call, "invoke", status);
	for (int32_t o = 0; delegation->held != NULL && o < view->num_outputs;
	     o++) {
		opver__held_tensor *held =
			&delegation->held[view->output_indices[o]];

		if (held->partition == index)
			held->stale = true;
	}
	return OPVER_OK;
}

opver_status opver__service_set_buffer_handle(const opver_context *ctx,
					      const opver_tensor *tensor,
					      uint64_t handle)
{
	const opver__call *call = opver__call_of(ctx);
	opver__partition *partition = call->partition;
	opver__delegation *delegation;
	int32_t index = -1;

	if (call->kind != OPVER__CALL_PARTITION || call->session == NULL ||
	    call->session->phase != OPVER__PHASE_PREPARE) {
		ctx->host->report_error(ctx, "set_buffer_handle is for a delegate partition's prepare");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (partition->plugin->delegate.copy_from_handle == NULL) {
		ctx->host->report_error(ctx, "set_buffer_handle needs the delegate's copy_from_handle");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	for (int32_t o = 0; o < partition->view.num_outputs; o++)
		if (partition->outputs[o] == tensor)
			index = partition->output_indices[o];
	if (index < 0) {
		ctx->host->report_error(ctx, "set_buffer_handle on a tensor that is not one of the partition's outputs");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	delegation = partition->delegation;
	if (delegation->held == NULL) {
		size_t count = (size_t)delegation->graph->num_tensors;

		delegation->held = calloc(count, sizeof(*delegation->held));
		if (delegation->held == NULL)
			return OPVER_ERROR_NOMEM;
		for (size_t t = 0; t < count; t++)
			delegation->held[t].partition = -1;
	}
	delegation->held[index].partition = call->partition_index;
	delegation->held[index].handle = handle;
	delegation->held[index].stale = false;
	return OPVER_OK;
}

int32_t opver__service_buffer_handle(const opver_context *ctx,
				     const opver_tensor *tensor,
				     uint64_t *handle)
{
	const opver__call *call = opver__call_of(ctx);
	const opver__delegation *delegation;
	const opver__held_tensor *held;
	int32_t index;

	if (call->kind != OPVER__CALL_PARTITION || tensor == NULL)
		return 0;
	delegation = call->partition->delegation;
	index = (int32_t)(tensor - delegation->view->tensors[0]);
	if (delegation->held == NULL || index < 0 ||
	    index >= delegation->graph->num_tensors ||
	    delegation->view->tensors[index] != tensor)
		return 0;
	held = &delegation->held[index];
	if (held->partition < 0 ||
	    delegation->partitions[held->partition].plugin !=
		    call->partition->plugin)
		return 0;
	if (handle != NULL)
		*handle = held->handle;
	return 1;
}

void opver__delegation_release(opver__delegation *delegation)
{
	for (size_t i = 0; i < delegation->count; i++) {
		opver__partition *partition = &delegation->partitions[i];

		if (partition->initialized)
			partition->plugin->delegate.free(
				&partition->call.context, partition->data);
		partition->initialized = false;
		partition->data = NULL;
	}
	free(delegation->held);
	delegation->held = NULL;
}

void opver__delegation_free(opver__delegation *delegation)
{
	opver__delegation_release(delegation);
	for (size_t i = 0; i < delegation->count; i++) {
		opver__partition *partition = &delegation->partitions[i];

		free(partition->nodes);
		free(partition->inputs);
		free(partition->input_indices);
		free(partition->outputs);
		free(partition->output_indices);
	}
	free(delegation->partitions);
	free(delegation->node_partition);
	free(delegation->node_step);
	free(delegation->steps);
	memset(delegation, 0, sizeof(*delegation));
}
