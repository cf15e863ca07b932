/* resolver.c - chooses each node's kernel and explains when none fits. */
#include <stdio.h>
#include <string.h>

#include "kernel_match.h"
#include "resolver.h"
#include "text.h"

/* "(INT8,INT8,INT32 -> INT8)"; "absent" for an omitted input. */
static void format_node_types(opver__text *text, const opver__graph *graph,
			      const opver__graph_node *node)
{
	opver__text_append(text, "(");
	for (int32_t i = 0; i < node->num_inputs; i++) {
		int32_t tensor = node->inputs[i];

		opver__text_append(text, "%s%s", i ? "," : "",
				   tensor < 0 ? "absent" :
				   opver_type_name(graph->tensors[tensor].type));
	}
	opver__text_append(text, " -> ");
	for (int32_t i = 0; i < node->num_outputs; i++)
		opver__text_append(text, "%s%s", i ? "," : "",
				   opver_type_name(
					   graph->tensors[node->outputs[i]].type));
	opver__text_append(text, ")");
}

/* Appends what `plugin` offers for the node's op: "plugin 'x' handles
 * FULLY_CONNECTED versions 1-4 for (INT8,... -> INT8)" or "has no ... kernel". */
static void describe_plugin_offer(opver__text *text,
				  const opver__registry *registry,
				  const opver__plugin *plugin,
				  const opver__graph_node *node)
{
	bool any = false;

	opver__text_append(text, " Plugin '%s'", plugin->config_name);
	for (size_t i = 0; i < registry->count; i++) {
		const opver__registered_kernel *entry = &registry->kernels[i];

		if (entry->plugin != plugin ||
		    !opver__same_op(entry->kernel->op, entry->kernel->custom_name,
				    node->op, node->custom_name))
			continue;
		opver__text_append(text, "%s versions %d-%d for ",
				   any ? ";" : " handles",
				   entry->kernel->min_version,
				   entry->kernel->max_version);
		opver__format_signatures(entry->kernel->signatures,
					 entry->kernel->num_signatures, text);
		any = true;
	}
	if (any)
		opver__text_append(text, ".");
	else if (plugin->kernels_chosen_at != NULL)
		opver__text_append(text, " has no %s kernel among those kernels = keeps (%s).",
				   opver__node_label(node),
				   plugin->kernels_chosen_at);
	else
		opver__text_append(text, " has no %s kernel.",
				   opver__node_label(node));
}

int32_t opver__resolution_version(const opver__graph_node *node,
				  bool strict_versions)
{
	if (strict_versions && node->required_version > node->version)
		return node->required_version;
	return node->version;
}

/* The message of one unresolved node, or of several that share its op,
 * versions and tensor types: `label` names them ("node 4" or
 * "nodes 0, 1, 3").  Everything after the label is the same for each. */
static void report_unresolved_nodes(const opver__registry *registry,
				    const opver__graph *graph,
				    const opver__graph_node *node,
				    int32_t version, const char *label,
				    opver_log_level level,
				    const opver__reporter *reporter)
{
	char buffer[1024];
	opver__text text;

	opver__text_init(&text, buffer, sizeof(buffer));
	opver__text_append(&text, "%s (%s): the model needs %s version %d",
			   label, opver__node_label(node),
			   opver__node_label(node), version);
	if (version != node->version)
		opver__text_append(&text,
				   " (stored as %d; strict_versions uses the version TFLite's rules require: %s)",
				   node->version, node->version_reason);
	opver__text_append(&text, " for tensor types ");
	format_node_types(&text, graph, node);
	opver__text_append(&text, ", and no loaded kernel handles it.");
	for (size_t p = 0; p < registry->num_plugins; p++)
		describe_plugin_offer(&text, registry, registry->plugins[p],
				      node);
	opver__text_append(&text,
			   " Install or enable a plugin whose %s kernel handles version %d.",
			   opver__node_label(node), version);
	opver__report(reporter, level, "%s", buffer);
}

/* Whether two nodes would get the same message: same op, stored and
 * resolution versions and tensor types. */
static bool same_need(const opver__graph *graph, const opver__graph_node *a,
		      const opver__graph_node *b, bool strict_versions)
{
	if (!opver__same_op(a->op, a->custom_name, b->op, b->custom_name) ||
	    a->version != b->version ||
	    opver__resolution_version(a, strict_versions) !=
		    opver__resolution_version(b, strict_versions) ||
	    a->num_inputs != b->num_inputs || a->num_outputs != b->num_outputs)
		return false;
	for (int32_t i = 0; i < a->num_inputs; i++) {
		int32_t ta = a->inputs[i], tb = b->inputs[i];

		if ((ta < 0) != (tb < 0) ||
		    (ta >= 0 && graph->tensors[ta].type != graph->tensors[tb].type))
			return false;
	}
	for (int32_t i = 0; i < a->num_outputs; i++)
		if (graph->tensors[a->outputs[i]].type !=
		    graph->tensors[b->outputs[i]].type)
			return false;
	return true;
}

/* How many node indices a grouped message lists before "and N more". */
#define LISTED_NODES 16

void opver__report_unresolved(const opver__registry *registry,
			      const opver__graph *graph, bool *unresolved,
			      bool strict_versions, opver_log_level level,
			      const opver__reporter *reporter)
{
	bool any = false;

	for (int32_t n = 0; n < graph->num_nodes; n++)
		any = any || unresolved[n];
	if (any && registry->num_plugins == 0)
		opver__report(reporter, level,
			      "No plugin is loaded: check plugin_path and the [plugin.*] sections of the config.");
	for (int32_t first = 0; first < graph->num_nodes; first++) {
		const opver__graph_node *node = &graph->nodes[first];
		int32_t version = opver__resolution_version(node,
							    strict_versions);
		int32_t count = 0, listed = 0;
		char label[192];
		opver__text text;

		if (!unresolved[first])
			continue;
		for (int32_t n = first; n < graph->num_nodes; n++)
			count += unresolved[n] &&
				 same_need(graph, node, &graph->nodes[n],
					   strict_versions);
		opver__text_init(&text, label, sizeof(label));
		opver__text_append(&text, count > 1 ? "nodes " : "node ");
		for (int32_t n = first; listed < count; n++) {
			char one[32];

			if (!unresolved[n] ||
			    !same_need(graph, node, &graph->nodes[n],
				       strict_versions))
				continue;
			unresolved[n] = false;
			if (listed < LISTED_NODES)
				opver__text_append(&text, "%s%d",
						   listed ? ", " : "", (int)n);
			listed++;
			/* --log-level debug shows each node on its own. */
			snprintf(one, sizeof(one), "node %d", (int)n);
			report_unresolved_nodes(registry, graph,
						&graph->nodes[n], version, one,
						OPVER_LOG_DEBUG, reporter);
		}
		if (count > LISTED_NODES)
			opver__text_append(&text,
					   " and %d more (--log-level debug lists each)",
					   (int)(count - LISTED_NODES));
		report_unresolved_nodes(registry, graph, node, version, label,
					level, reporter);
	}
}

static void report_fallback(const opver__graph *graph, int32_t node_index,
			    int32_t version, const opver__binding *binding,
			    bool strict, const opver__reporter *reporter)
{
	const opver__graph_node *node = &graph->nodes[node_index];
	const opver__registered_kernel *preferred = binding->preferred;
	const opver__registered_kernel *chosen = binding->chosen;

	opver__report(reporter, strict ? OPVER_LOG_ERROR : OPVER_LOG_WARNING,
		      "node %d (%s v%d): preferred plugin '%s' (priority %d) handles %s versions %d-%d only; %s kernel '%s' of plugin '%s' (priority %d)",
		      node_index, opver__node_label(node), version,
		      preferred->plugin->config_name, preferred->priority,
		      opver__node_label(node), preferred->kernel->min_version,
		      preferred->kernel->max_version,
		      strict ? "strict mode refuses to fall back to" :
			       "falling back to",
		      chosen->kernel->name, chosen->plugin->config_name,
		      chosen->priority);
}

opver_status opver__resolve_node(const opver__registry *registry,
				 const opver__graph *graph,
				 int32_t node_index, bool strict,
				 bool strict_versions,
				 const opver__reporter *reporter,
				 opver__binding *binding)
{
	const opver__graph_node *node = &graph->nodes[node_index];
	const int32_t version = opver__resolution_version(node,
							  strict_versions);
	const opver__registered_kernel *preferred = NULL;

	memset(binding, 0, sizeof(*binding));
	/* The registry is in resolution order: the first kernel that accepts
	 * the types is the preferred one, the first that also covers the
	 * version is the one to use. */
	for (size_t i = 0; i < registry->count; i++) {
		const opver__registered_kernel *entry = &registry->kernels[i];

		if (!opver__kernel_accepts_types(entry->kernel, graph, node))
			continue;
		if (preferred == NULL)
			preferred = entry;
		if (version >= entry->kernel->min_version &&
		    version <= entry->kernel->max_version) {
			binding->chosen = entry;
			break;
		}
	}
	if (binding->chosen == NULL) {
		binding->unhandled = true;
		return OPVER_ERROR_UNRESOLVED;
	}
	if (binding->chosen->plugin != preferred->plugin) {
		binding->preferred = preferred;
		report_fallback(graph, node_index, version, binding, strict,
				reporter);
		if (strict) {
			memset(binding, 0, sizeof(*binding));
			return OPVER_ERROR_UNRESOLVED;
		}
	}
	return OPVER_OK;
}
