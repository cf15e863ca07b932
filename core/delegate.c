/* delegate.c - delegate claims, their validation, and partitions. */
#include <stdlib.h>
#include <string.h>

#include "delegate.h"
#include "kernel_match.h"

/* The highest version the delegate declares for the node's op, or 0. */
static int32_t declared_max_version(const opver_delegate *delegate,
				    const opver__graph_node *node)
{
	int32_t best = 0;

	for (size_t i = 0; i < delegate->num_ops; i++) {
		const opver_delegate_op *op = &delegate->ops[i];

		if (opver__same_op(op->op, op->custom_name, node->op,
				   node->custom_name) &&
		    op->max_version > best)
			best = op->max_version;
	}
	return best;
}

/* Keeps only the claims the delegate may make; reports the others. */
static void validate_claims(const opver__plugin *plugin,
			    const opver__graph *graph, bool *claimed,
			    const int32_t *node_partition, opver__host *host)
{
	const opver_delegate *delegate = &plugin->delegate;

	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver__graph_node *node = &graph->nodes[n];
		int32_t max_version;

		if (!claimed[n])
			continue;
		if (node_partition[n] >= 0) {
			opver__warning(host->reporter,
				       "delegate '%s' of plugin '%s' claimed node %d (%s v%d), already taken by another delegate; claim rejected",
				       delegate->name, plugin->config_name, n,
				       opver__node_label(node), node->version);
			claimed[n] = false;
			continue;
		}
		max_version = declared_max_version(delegate, node);
		if (node->version <= max_version)
			continue;
		if (max_version == 0)
			opver__warning(host->reporter,
				       "delegate '%s' of plugin '%s' claimed node %d (%s v%d) but does not declare %s; claim rejected, the node runs on a kernel",
				       delegate->name, plugin->config_name, n,
				       opver__node_label(node), node->version,
				       opver__node_label(node));
		else
			opver__warning(host->reporter,
				       "delegate '%s' of plugin '%s' claimed node %d (%s v%d) but declares %s only up to v%d; claim rejected, the node runs on a kernel",
				       delegate->name, plugin->config_name, n,
				       opver__node_label(node), node->version,
				       opver__node_label(node), max_version);
		claimed[n] = false;
	}
}

static bool in_range(int32_t value, int32_t first, int32_t last)
{
	return value >= first && value <= last;
}

/* Whether tensor t is written by a node in [first, last]. */
static bool produced_inside(const opver__graph *graph, int32_t t,
			    int32_t first, int32_t last)
{
	for (int32_t n = first; n <= last; n++)
		for (int32_t o = 0; o < graph->nodes[n].num_outputs; o++)
			if (graph->nodes[n].outputs[o] == t)
				return true;
	return false;
}

/* Whether tensor t is read outside [first, last] or is a graph output. */
static bool read_outside(const opver__graph *graph, int32_t t, int32_t first,
			 int32_t last)
{
	for (int32_t i = 0; i < graph->num_outputs; i++)
		if (graph->outputs[i] == t)
			return true;
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		if (in_range(n, first, last))
			continue;
		for (int32_t i = 0; i < graph->nodes[n].num_inputs; i++)
			if (graph->nodes[n].inputs[i] == t)
				return true;
	}
	return false;
}

/* Appends t to list[*count] unless present. */
static void add_unique(opver_tensor **list, int32_t *count, opver_tensor *t)
{
	for (int32_t i = 0; i < *count; i++)
		if (list[i] == t)
			return;
	list[(*count)++] = t;
}

/* Fills partition's nodes and boundary tensors for nodes [first, last]. */
static opver_status form_partition(opver__partition *partition,
				   const opver__plugin *plugin,
				   const opver__graph *graph,
				   const opver_graph_view *view, int32_t first,
				   int32_t last)
{
	int32_t num_nodes = last - first + 1, max_in = 0, max_out = 0;

	for (int32_t n = first; n <= last; n++) {
		max_in += graph->nodes[n].num_inputs;
		max_out += graph->nodes[n].num_outputs;
	}
	partition->plugin = plugin;
	partition->nodes = malloc((size_t)num_nodes * sizeof(int32_t));
	partition->inputs = malloc((size_t)(max_in ? max_in : 1) * sizeof(opver_tensor *));
	partition->outputs = malloc((size_t)(max_out ? max_out : 1) * sizeof(opver_tensor *));
	if (partition->nodes == NULL || partition->inputs == NULL ||
	    partition->outputs == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t n = first; n <= last; n++) {
		const opver__graph_node *node = &graph->nodes[n];

		partition->nodes[n - first] = n;
		for (int32_t i = 0; i < node->num_inputs; i++) {
			int32_t t = node->inputs[i];

			if (t >= 0 && graph->tensors[t].constant_data == NULL &&
			    !produced_inside(graph, t, first, last))
				add_unique(partition->inputs,
					   &partition->view.num_inputs,
					   view->tensors[t]);
		}
		for (int32_t o = 0; o < node->num_outputs; o++) {
			int32_t t = node->outputs[o];

			if (read_outside(graph, t, first, last))
				add_unique(partition->outputs,
					   &partition->view.num_outputs,
					   view->tensors[t]);
		}
	}
	partition->view.num_nodes = num_nodes;
	partition->view.nodes = partition->nodes;
	partition->view.inputs = partition->inputs;
	partition->view.outputs = partition->outputs;
	partition->view.graph = view;
	return OPVER_OK;
}

/* Turns one delegate's accepted claims into partitions of consecutive
 * nodes. */
static opver_status add_partitions(opver__delegation *delegation,
				   const opver__plugin *plugin,
				   const opver__graph *graph,
				   const opver_graph_view *view,
				   const bool *claimed)
{
	for (int32_t n = 0; n < graph->num_nodes;) {
		opver__partition *grown;
		int32_t last = n;
		opver_status status;

		if (!claimed[n]) {
			n++;
			continue;
		}
		while (last + 1 < graph->num_nodes && claimed[last + 1])
			last++;
		grown = realloc(delegation->partitions,
				(delegation->count + 1) * sizeof(*grown));
		if (grown == NULL)
			return OPVER_ERROR_NOMEM;
		delegation->partitions = grown;
		memset(&grown[delegation->count], 0, sizeof(*grown));
		status = form_partition(&grown[delegation->count], plugin,
					graph, view, n, last);
		delegation->count++;
		if (status != OPVER_OK)
			return status;
		for (int32_t i = n; i <= last; i++)
			delegation->node_partition[i] =
				(int32_t)delegation->count - 1;
		n = last + 1;
	}
	return OPVER_OK;
}

opver_status opver__delegation_build(const opver__plugin *plugins,
				     size_t num_plugins,
				     const opver__graph *graph,
				     const opver_graph_view *view,
				     opver__host *host,
				     opver__delegation *delegation)
{
	size_t nodes = graph->num_nodes > 0 ? (size_t)graph->num_nodes : 1;
	opver_status status = OPVER_OK;
	bool *claimed;

	memset(delegation, 0, sizeof(*delegation));
	delegation->node_partition = malloc(nodes * sizeof(int32_t));
	claimed = malloc(nodes * sizeof(bool));
	if (delegation->node_partition == NULL || claimed == NULL) {
		status = OPVER_ERROR_NOMEM;
		goto out;
	}
	for (int32_t n = 0; n < graph->num_nodes; n++)
		delegation->node_partition[n] = -1;
	for (size_t p = 0; p < num_plugins && status == OPVER_OK; p++) {
		const opver__plugin *plugin = &plugins[p];

		if (!plugin->has_delegate)
			continue;
		memset(claimed, 0, nodes * sizeof(bool));
		opver__host_set_context(host, "delegate '%s' of plugin '%s'",
					plugin->delegate.name,
					plugin->config_name);
		status = plugin->delegate.claim(&host->services,
						plugin->plugin_data, view,
						claimed);
		if (status != OPVER_OK) {
			opver__error(host->reporter,
				     "delegate '%s' of plugin '%s': claiming nodes failed (%s)",
				     plugin->delegate.name, plugin->config_name,
				     opver_status_name(status));
			status = OPVER_ERROR_PLUGIN;
			break;
		}
		validate_claims(plugin, graph, claimed,
				delegation->node_partition, host);
		status = add_partitions(delegation, plugin, graph, view,
					claimed);
	}
out:
	free(claimed);
	return status;
}

opver_status opver__delegation_prepare(opver__delegation *delegation,
				       opver__host *host)
{
	for (size_t i = 0; i < delegation->count; i++) {
		opver__partition *partition = &delegation->partitions[i];
		const opver_delegate *delegate = &partition->plugin->delegate;
		opver_status status;

		opver__host_set_context(host,
					"partition %zu (nodes %d-%d) of delegate '%s'",
					i, partition->nodes[0],
					partition->nodes[partition->view.num_nodes - 1],
					delegate->name);
		status = delegate->init(&host->services,
					partition->plugin->plugin_data,
					&partition->view, &partition->data);
		if (status != OPVER_OK)
			return status;
		partition->initialized = true;
		if (delegate->prepare != NULL) {
			status = delegate->prepare(&host->services,
						   partition->data,
						   &partition->view);
			if (status != OPVER_OK)
				return status;
		}
	}
	return OPVER_OK;
}

opver_status opver__partition_invoke(opver__partition *partition,
				     opver__host *host)
{
	const opver_delegate *delegate = &partition->plugin->delegate;
	const opver_partition *view = &partition->view;
	opver_status status;

	if (delegate->copy_to_device != NULL)
		for (int32_t i = 0; i < view->num_inputs; i++) {
			status = delegate->copy_to_device(&host->services,
							  partition->data,
							  view->inputs[i]);
			if (status != OPVER_OK)
				return status;
		}
	status = delegate->invoke(&host->services, partition->data, view);
	if (status != OPVER_OK || delegate->copy_from_device == NULL)
		return status;
	for (int32_t i = 0; i < view->num_outputs; i++) {
		status = delegate->copy_from_device(&host->services,
						    partition->data,
						    view->outputs[i]);
		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

void opver__delegation_free(opver__delegation *delegation, opver__host *host)
{
	for (size_t i = 0; i < delegation->count; i++) {
		opver__partition *partition = &delegation->partitions[i];

		if (partition->initialized &&
		    partition->plugin->delegate.free != NULL)
			partition->plugin->delegate.free(&host->services,
							 partition->data);
		free(partition->nodes);
		free(partition->inputs);
		free(partition->outputs);
	}
	free(delegation->partitions);
	free(delegation->node_partition);
	memset(delegation, 0, sizeof(*delegation));
}
