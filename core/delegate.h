/*
 * delegate.h - hands node subsets to plugins' hardware delegates, and the
 * execution plan that interleaves them with kernels.
 *
 * Each plugin with a delegate, in load order, is shown the graph and claims
 * nodes.  A claim is accepted when one of the delegate's typed claims
 * covers the node's op, the version the resolver uses for it and its
 * tensor types; any other claim, or one on a node an earlier delegate
 * took, is rejected and reported (as TFLite requires of every delegate's
 * Prepare) and the node runs on a kernel.
 *
 * The plan is built as TFLite partitions a graph: nodes are taken in
 * dependency order, lowest index first among those whose inputs are all
 * produced, and a run of one delegate's claimed nodes taken one after the
 * other forms one partition, so a partition need not be consecutive and
 * every tensor it reads from outside is produced before it runs.  With no
 * delegate the plan is the model's own order.
 *
 * Buffer handles: a partition may keep an output in its delegate's memory
 * (set_buffer_handle).  The value is copied to the tensor's data (the
 * delegate's copy_from_handle) only when something other than that
 * delegate reads it: a kernel, another plugin's partition, or the
 * application after invoke.
 */
#ifndef OPVER_CORE_DELEGATE_H
#define OPVER_CORE_DELEGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "call.h"
#include "graph.h"
#include "plugin_loader.h"
#include "session.h"

typedef struct opver__partition {
	opver_partition view;            /* what the delegate is given */
	int32_t *nodes;                  /* owned; backs view.nodes */
	opver_tensor **inputs;           /* owned arrays backing the view's */
	int32_t *input_indices;
	opver_tensor **outputs;
	int32_t *output_indices;
	const opver__plugin *plugin;     /* borrowed */
	struct opver__delegation *delegation; /* the one it belongs to */
	opver__call call;                /* the context of its callbacks */
	void *data;                      /* from the delegate's init */
	bool initialized;
	uint64_t total_ns;
	uint64_t invocations;
} opver__partition;

/* One step of the plan: a partition, or a node on its kernel. */
typedef struct opver__step {
	int32_t partition;               /* -1 for a kernel step */
	int32_t node;                    /* the node (a kernel step), or the
					  * partition's first node */
} opver__step;

/* A tensor a delegate keeps under a buffer handle. */
typedef struct opver__held_tensor {
	int32_t partition;               /* -1: not held */
	uint64_t handle;
	bool stale;                      /* tensor data is older */
} opver__held_tensor;

typedef struct opver__delegation {
	opver__partition *partitions;    /* owned; count entries */
	size_t count;
	int32_t *node_partition;         /* owned; per node, -1 = kernels */
	opver__step *steps;              /* owned; the execution plan */
	int32_t num_steps;
	int32_t *node_step;              /* owned; per node, its step */
	/* Owned; per tensor once a handle is set, else NULL. */
	opver__held_tensor *held;
	const opver__graph *graph;       /* borrowed */
	const opver_graph_view *view;    /* borrowed */
} opver__delegation;

/*
 * Runs the claims of every delegate among `plugins` over `view` (whose
 * tensors back the partitions' boundary arrays), forms the partitions and
 * the plan.  Claims are checked at the version the resolver uses
 * (strict_versions).  Partition calls act on `session`.  Only
 * OPVER_ERROR_NOMEM and a delegate's failing claim callback fail it.
 * Caller owns *delegation; release with opver__delegation_free().  `graph`,
 * `view` and `session` are borrowed and must outlive it.
 */
opver_status opver__delegation_build(const opver__plugin *const *plugins,
				     size_t num_plugins,
				     const opver__graph *graph,
				     const opver_graph_view *view,
				     bool strict_versions,
				     opver__session *session,
				     const opver__reporter *reporter,
				     opver__delegation *delegation);

/* Calls init then prepare of every partition's delegate; a failure is
 * reported and returned as OPVER_ERROR_PLUGIN. */
opver_status opver__delegation_prepare(opver__delegation *delegation);

/* Calls bind_memory of every partition whose delegate has it, once the
 * tensors have their memory; a failure is reported as for prepare. */
opver_status opver__delegation_bind_memory(opver__delegation *delegation);

/*
 * Makes tensor `tensor`'s data current for a reader: a kernel or the
 * application (`reader` NULL) or a partition of plugin `reader`.  Copies
 * from a buffer handle when another plugin's delegate holds it stale.
 */
opver_status opver__delegation_fetch(opver__delegation *delegation,
				     int32_t tensor,
				     const opver__plugin *reader);

/* Runs partition `index`: fetches and copies its inputs to the device,
 * invokes it, marks the outputs it holds stale. */
opver_status opver__partition_invoke(opver__delegation *delegation,
				     int32_t index);

/* The set_buffer_handle and buffer_handle services of opver_host. */
opver_status opver__service_set_buffer_handle(const opver_context *ctx,
					      const opver_tensor *tensor,
					      uint64_t handle);
int32_t opver__service_buffer_handle(const opver_context *ctx,
				     const opver_tensor *tensor,
				     uint64_t *handle);

/* Calls each initialized partition's delegate free, leaving the plan
 * and the partitions' views (for queries) but no partition data and no
 * buffer handles.  Before the session (persistent memory) and arena the
 * partitions used are freed, which their free may still read.  Safe on a
 * zeroed delegation, and twice. */
void opver__delegation_release(opver__delegation *delegation);

/* Frees what each initialized partition's delegate created, then the
 * arrays.  Safe on a zeroed delegation. */
void opver__delegation_free(opver__delegation *delegation);

#endif /* OPVER_CORE_DELEGATE_H */
