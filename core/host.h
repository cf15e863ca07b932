/*
 * host.h - the services table the core lends plugins (opver_host), and the
 * context it prefixes to what a plugin reports.
 */
#ifndef OPVER_CORE_HOST_H
#define OPVER_CORE_HOST_H

#include "graph.h"
#include "opver/plugin.h"
#include "report.h"

typedef struct opver__host {
	opver_host services;            /* what plugins are given */
	const opver__reporter *reporter; /* borrowed */
	/* What the core is calling into, prefixed to what the plugin
	 * reports: a node when `node` is set (formatted only when a message
	 * is reported, so invoke does no string work), else `context`.  The
	 * node comes from the core's graph, never from the opver_node a
	 * plugin can write to. */
	const opver__graph_node *node;
	int32_t node_index;
	const char *node_runner;        /* "kernel 'fc' of plugin 'x'" */
	/* Where allocate_persistent links its blocks; NULL outside prepare. */
	struct opver__persistent_block **persistent;
	char context[256];
} opver__host;

/* Fills the services table.  `reporter` is borrowed and must outlive it. */
void opver__host_init(opver__host *host, const opver__reporter *reporter);

/* Sets the prefix of messages a plugin reports until the next call. */
void opver__host_set_context(opver__host *host, const char *format, ...)
	OPVER__PRINTF(2, 3);

/* Makes node `index` the context: "node 3 (FULLY_CONNECTED v4, RUNNER)".
 * Both pointers are borrowed until the next set call. */
static inline void opver__host_set_node(opver__host *host, int32_t index,
					const opver__graph_node *node,
					const char *runner)
{
	host->node = node;
	host->node_index = index;
	host->node_runner = runner;
}

/* Frees every block allocate_persistent linked into *blocks. */
void opver__host_free_persistent(struct opver__persistent_block **blocks);

#endif /* OPVER_CORE_HOST_H */
