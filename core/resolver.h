/*
 * resolver.h - binds a node to the kernel that runs it.
 *
 * Among the kernels for the node's op that accept its tensor types, the
 * highest-priority one whose version range covers the node's version wins.
 * When the preferred (highest-priority) plugin's kernels do not cover the
 * version, a lower-priority kernel that does is used and the fallback is
 * reported; strict mode refuses it.  No kernel at all is reported with the
 * node, op, version, tensor types and what every loaded plugin handles.
 */
#ifndef OPVER_CORE_RESOLVER_H
#define OPVER_CORE_RESOLVER_H

#include <stdbool.h>

#include "graph.h"
#include "registry.h"

typedef struct opver__binding {
	/* The kernel that runs the node; NULL when unresolved.  Borrowed. */
	const opver__registered_kernel *chosen;
	/* Set when `chosen` is a fallback: the preferred kernel that lacks the
	 * node's version.  Borrowed. */
	const opver__registered_kernel *preferred;
} opver__binding;

/* The version a node resolves at: its stored version, or with
 * strict_versions the larger of that and its required version. */
int32_t opver__resolution_version(const opver__graph_node *node,
				  bool strict_versions);

/*
 * Resolves node `node_index` of `graph` at its stored version, or with
 * strict_versions at the larger of that and its required version.
 * OPVER_ERROR_UNRESOLVED, after one reported message, when no kernel
 * handles it or strict mode refuses the only fallback.
 */
opver_status opver__resolve_node(const opver__registry *registry,
				 const opver__graph *graph,
				 int32_t node_index, bool strict,
				 bool strict_versions,
				 const opver__reporter *reporter,
				 opver__binding *binding);

#endif /* OPVER_CORE_RESOLVER_H */
