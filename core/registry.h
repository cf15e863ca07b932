/*
 * registry.h - every kernel of every loaded plugin, with its effective
 * priority, ordered for resolution: by op, then priority (highest first),
 * then plugin load order.  Building it reports every overlap between
 * plugins: which kernel takes precedence, and ties broken by load order.
 */
#ifndef OPVER_CORE_REGISTRY_H
#define OPVER_CORE_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "plugin_loader.h"
#include "report.h"

typedef struct opver__registered_kernel {
	const opver_kernel *kernel;     /* borrowed from the plugin's copies */
	const opver__plugin *plugin;    /* borrowed */
	size_t plugin_index;            /* load order */
	int32_t priority;               /* config priority, else manifest's */
} opver__registered_kernel;

typedef struct opver__registry {
	opver__registered_kernel *kernels;  /* owned */
	size_t count;
	/* Owned array of borrowed pointers: every loaded plugin, in load
	 * order. */
	const opver__plugin **plugins;
	size_t num_plugins;
} opver__registry;

/* The priority a kernel gets: its plugin's configured one, else its own. */
int32_t opver__effective_priority(const opver__plugin *plugin,
				  const opver_kernel *kernel);

/*
 * Registers every kernel of the `num_plugins` plugins `plugins` points to,
 * in load order.  The array is copied; the plugins are borrowed and must
 * neither move nor go before the registry.  Caller owns *registry; release
 * with opver__registry_free().
 */
opver_status opver__registry_build(opver__plugin *const *plugins,
				   size_t num_plugins,
				   const opver__reporter *reporter,
				   opver__registry *registry);

void opver__registry_free(opver__registry *registry);

#endif /* OPVER_CORE_REGISTRY_H */
