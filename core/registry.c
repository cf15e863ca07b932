/* registry.c - the table of kernels the resolver chooses from. */
#include <stdlib.h>
#include <string.h>

#include "kernel_match.h"
#include "registry.h"

int32_t opver__effective_priority(const opver__plugin *plugin,
				  const opver_kernel *kernel)
{
	return plugin->has_priority ? plugin->priority : kernel->priority;
}

/* Resolution order: op, custom name, priority descending, load order,
 * manifest order. */
static int compare_kernels(const void *pa, const void *pb)
{
	const opver__registered_kernel *a = pa, *b = pb;
	int order;

	if (a->kernel->op != b->kernel->op)
		return a->kernel->op < b->kernel->op ? -1 : 1;
	if (a->kernel->op == OPVER_OP_CUSTOM) {
		order = strcmp(a->kernel->custom_name, b->kernel->custom_name);
		if (order != 0)
			return order;
	}
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (a->plugin_index != b->plugin_index)
		return a->plugin_index < b->plugin_index ? -1 : 1;
	/* Same plugin: manifest order (one array, so pointers compare). */
	return (a->kernel > b->kernel) - (a->kernel < b->kernel);
}

/* Reports each pair of kernels from different plugins that could claim the
 * same node: the first (in resolution order) wins. */
static void report_overlaps(const opver__registry *registry,
			    const opver__reporter *reporter)
{
	for (size_t i = 0; i < registry->count; i++) {
		const opver__registered_kernel *winner = &registry->kernels[i];
		const char *op = opver__op_label(winner->kernel->op,
						 winner->kernel->custom_name);

		for (size_t j = i + 1; j < registry->count; j++) {
			const opver__registered_kernel *other =
				&registry->kernels[j];

			if (!opver__same_op(winner->kernel->op,
					    winner->kernel->custom_name,
					    other->kernel->op,
					    other->kernel->custom_name))
				break;
			if (other->plugin == winner->plugin ||
			    !opver__kernels_overlap(winner->kernel,
						    other->kernel))
				continue;
			opver__report(reporter,
				      winner->priority == other->priority ?
					      OPVER_LOG_WARNING : OPVER_LOG_INFO,
				      "%s: kernel '%s' of plugin '%s' (versions %d-%d, priority %d) "
				      "takes precedence over kernel '%s' of plugin '%s' (versions %d-%d, priority %d)%s",
				      op,
				      winner->kernel->name,
				      winner->plugin->config_name,
				      winner->kernel->min_version,
				      winner->kernel->max_version,
				      winner->priority, other->kernel->name,
				      other->plugin->config_name,
				      other->kernel->min_version,
				      other->kernel->max_version,
				      other->priority,
				      winner->priority == other->priority ?
					      "; equal priorities, tie broken by load order" :
					      "");
		}
	}
}

opver_status opver__registry_build(opver__plugin *const *plugins,
				   size_t num_plugins,
				   const opver__reporter *reporter,
				   opver__registry *registry)
{
	size_t total = 0, next = 0;

	memset(registry, 0, sizeof(*registry));
	registry->plugins = calloc(num_plugins ? num_plugins : 1,
				   sizeof(*registry->plugins));
	if (registry->plugins == NULL)
		return OPVER_ERROR_NOMEM;
	registry->num_plugins = num_plugins;
	for (size_t p = 0; p < num_plugins; p++) {
		registry->plugins[p] = plugins[p];
		total += plugins[p]->descriptor.num_kernels;
	}
	if (total == 0)
		return OPVER_OK;
	registry->kernels = calloc(total, sizeof(*registry->kernels));
	if (registry->kernels == NULL) {
		opver__registry_free(registry);
		return OPVER_ERROR_NOMEM;
	}
	for (size_t p = 0; p < num_plugins; p++) {
		const opver__plugin *plugin = plugins[p];

		for (size_t k = 0; k < plugin->descriptor.num_kernels; k++) {
			opver__registered_kernel *entry =
				&registry->kernels[next++];

			entry->kernel = &plugin->kernels[k];
			entry->plugin = plugin;
			entry->plugin_index = p;
			entry->priority = opver__effective_priority(
				plugin, entry->kernel);
		}
	}
	registry->count = total;
	qsort(registry->kernels, total, sizeof(*registry->kernels),
	      compare_kernels);
	report_overlaps(registry, reporter);
	return OPVER_OK;
}

void opver__registry_free(opver__registry *registry)
{
	free(registry->kernels);
	free(registry->plugins);
	memset(registry, 0, sizeof(*registry));
}
