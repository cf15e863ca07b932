/*
 * subgraph.h - one partition as one XNNPACK runtime: the subgraph is
 * defined and the runtime created in prepare, the runtime is pointed at the
 * partition's boundary tensors once the core has placed them (bind_memory),
 * and invoke only runs it.
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
	/* The runtime's pool: the interpreter's threads and the profile
	 * events of its operators, named once the first invoke has counted
	 * the operators. */
	struct pthreadpool pool;
	/* Whether the pool's event names are chosen (after the first
	 * invoke). */
	bool events_named;
	/* A profile event name per node (num_nodes): persistent memory,
	 * naming strings of the plugin's event names. */
	uint32_t num_nodes;
	const char *const *node_names;
} xp_partition;

/*
 * The profile event name of each node's operator, in the partition's
 * order, as XNNPACK runs them when it fuses none; before prepare, for a
 * runtime on the partition's own pool.
 */
opver_status xp_partition_name_events(const opver_context *ctx,
				      xp_partition *xp,
				      const opver_partition *partition,
				      xp_event_names *names);
/* Defines the partition's subgraph and creates its runtime on `pool`:
 * &xp->pool (the interpreter's threads, threadpool.h), a pthreadpool, or
 * NULL for the calling thread. */
opver_status xp_partition_prepare(const opver_context *ctx, xp_partition *xp,
				  const opver_partition *partition,
				  pthreadpool_t pool);
/* Sets the runtime up on the boundary tensors' current memory. */
opver_status xp_partition_bind(const opver_context *ctx, xp_partition *xp);
/* Runs the runtime as xp_partition_bind last set it up. */
opver_status xp_partition_invoke(const opver_context *ctx, xp_partition *xp);
/* Releases what prepare created; xp itself stays the caller's. */
void xp_partition_release(const opver_context *ctx, xp_partition *xp);

#endif /* OPVER_XNNPACK_SUBGRAPH_H */
