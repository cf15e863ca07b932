/*
 * subgraph.h - one partition as one XNNPACK runtime: the subgraph is
 * defined and the runtime created in prepare; invoke points the runtime at
 * the partition's boundary tensors (again only when their addresses have
 * changed) and runs it.
 */
#ifndef OPVER_XNNPACK_SUBGRAPH_H
#define OPVER_XNNPACK_SUBGRAPH_H

#include <xnnpack.h>

#include <opver/plugin.h>

#include "event_names.h"
#include "threadpool.h"

typedef struct xp_partition {
	xnn_runtime_t runtime;
	/* Boundary tensors: the partition's inputs, then its outputs;
	 * external value i is tensor i.  Both arrays owned. */
	uint32_t num_external;
	opver_tensor **tensors;
	struct xnn_external_value *external;
	/* Whether external[] holds the tensors' current addresses. */
	bool set_up;
	/* The runtime's pool: the interpreter's threads and the profile
	 * events of its operators, named once the first invoke has counted
	 * the operators. */
	struct pthreadpool pool;
	/* A profile event name per node (num_nodes): persistent memory,
	 * naming strings of the plugin's event names. */
	uint32_t num_nodes;
	const char *const *node_names;
} xp_partition;

/* Defines the partition's subgraph and creates its runtime, whose
 * operators use up to `threads` of the interpreter's threads (0: all) and
 * report profile events named from `names`. */
opver_status xp_partition_prepare(const opver_context *ctx, xp_partition *xp,
				  const opver_partition *partition,
				  uint32_t threads, xp_event_names *names);
opver_status xp_partition_invoke(const opver_context *ctx, xp_partition *xp);
/* Releases what prepare created; xp itself stays the caller's. */
void xp_partition_release(const opver_context *ctx, xp_partition *xp);

#endif /* OPVER_XNNPACK_SUBGRAPH_H */
