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
	/* No kernel accepts the node's types at its version: the node is left
	 * for opver__report_unresolved() to report with its like. */
	bool unhandled;
} opver__binding;

/* The version a node resolves at: its stored version, or with
 * strict_versions the larger of that and its required version. */
int32_t opver__resolution_version(const opver__graph_node *node,
				  bool strict_versions);

/*
 * Resolves node `node_index` of `graph` at its stored version, or with
 * strict_versions at the larger of that and its required version.
 * OPVER_ERROR_UNRESOLVED when strict mode refuses the only fallback (after
 * reporting it) or when no kernel handles the node: then
 * binding->unhandled is set and nothing is reported yet.
 */
opver_status opver__resolve_node(const opver__registry *registry,
				 const opver__graph *graph,
				 int32_t node_index, bool strict,
				 bool strict_versions,
				 const opver__reporter *reporter,
				 opver__binding *binding);

/*
 * Reports the nodes flagged in unresolved[graph->num_nodes] (cleared as
 * they are reported): one message at `level` per group of nodes with the
 * same op, versions and tensor types, naming the nodes and what each
 * loaded plugin offers; and each node's own message at debug level.
 */
void opver__report_unresolved(const opver__registry *registry,
			      const opver__graph *graph, bool *unresolved,
			      bool strict_versions, opver_log_level level,
			      const opver__reporter *reporter);

#endif /* OPVER_CORE_RESOLVER_H */
