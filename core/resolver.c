/* resolver.c - chooses each node's kernel and explains when none fits. */
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
	opver__text_append(text, any ? "." : " has no %s kernel.",
			   opver__node_label(node));
}

int32_t opver__resolution_version(const opver__graph_node *node,
				  bool strict_versions)
{
	if (strict_versions && node->required_version > node->version)
		return node->required_version;
	return node->version;
}

static void report_unresolved(const opver__registry *registry,
			      const opver__graph *graph, int32_t node_index,
			      int32_t version, const opver__reporter *reporter)
{
	const opver__graph_node *node = &graph->nodes[node_index];
	char buffer[1024];
	opver__text text;

	opver__text_init(&text, buffer, sizeof(buffer));
	opver__text_append(&text,
			   "node %d (%s): the model needs %s version %d",
			   node_index, opver__node_label(node),
			   opver__node_label(node), version);
	if (version != node->version)
		opver__text_append(&text,
				   " (stored as %d; strict_versions uses the version TFLite's rules require: %s)",
				   node->version, node->version_reason);
	opver__text_append(&text, " for tensor types ");
	format_node_types(&text, graph, node);
	opver__text_append(&text, ", and no loaded kernel handles it.");
	if (registry->num_plugins == 0)
		opver__text_append(&text, " No plugin is loaded: check plugin_path and the [plugin.*] sections of the config.");
	for (size_t p = 0; p < registry->num_plugins; p++)
		describe_plugin_offer(&text, registry, registry->plugins[p],
				      node);
	opver__text_append(&text,
			   " Install or enable a plugin whose %s kernel handles version %d.",
			   opver__node_label(node), version);
	opver__error(reporter, "%s", buffer);
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
		report_unresolved(registry, graph, node_index, version,
				  reporter);
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
