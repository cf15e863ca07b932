/*
 * subgraph.h - one partition as one XNNPACK runtime: the subgraph is
 * defined and the runtime created in prepare; invoke points the runtime at
 * the partition's boundary tensors (again only when their addresses have
 * changed) and runs it.
 */
#ifndef OPVER_XNNPACK_SUBGRAPH_H
#define OPVER_XNNPACK_SUBGRAPH_H

#include <pthreadpool.h>
#include <xnnpack.h>

#include <opver/plugin.h>

typedef struct xp_partition {
	xnn_runtime_t runtime;
	/* Boundary tensors: the partition's inputs, then its outputs;
	 * external value i is tensor i.  Both arrays owned. */
	uint32_t num_external;
	opver_tensor **tensors;
	struct xnn_external_value *external;
	/* Whether external[] holds the tensors' current addresses. */
	bool set_up;
} xp_partition;

/* Defines the partition's subgraph and creates its runtime on `pool`
 * (NULL: the calling thread). */
opver_status xp_partition_prepare(const opver_context *ctx, xp_partition *xp,
				  const opver_partition *partition,
				  pthreadpool_t pool);
opver_status xp_partition_invoke(const opver_context *ctx, xp_partition *xp);
/* Releases what prepare created; xp itself stays the caller's. */
void xp_partition_release(const opver_context *ctx, xp_partition *xp);

#endif /* OPVER_XNNPACK_SUBGRAPH_H */
