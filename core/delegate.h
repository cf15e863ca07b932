/*
 * delegate.h - hands node subsets to plugins' hardware delegates.
 *
 * Each plugin with a delegate, in load order, is shown the graph and claims
 * nodes.  A claim on a node its delegate did not declare, or whose version
 * is above the declared maximum, is rejected and reported (as TFLite
 * requires of every delegate's Prepare); so is a claim on a node an earlier
 * delegate took.  Consecutive accepted nodes of one delegate form a
 * partition, which the delegate then initializes, prepares and invokes as
 * one unit.  Every node left over runs on kernels.
 */
#ifndef OPVER_CORE_DELEGATE_H
#define OPVER_CORE_DELEGATE_H

#include <stdint.h>

#include "graph.h"
#include "host.h"
#include "plugin_loader.h"

typedef struct opver__partition {
	opver_partition view;            /* what the delegate is given */
	int32_t *nodes;                  /* owned; backs view.nodes */
	opver_tensor **inputs;           /* owned array; backs view.inputs */
	opver_tensor **outputs;          /* owned array; backs view.outputs */
	const opver__plugin *plugin;     /* borrowed */
	void *data;                      /* from the delegate's init */
	bool initialized;
	uint64_t total_ns;
	uint64_t invocations;
} opver__partition;

typedef struct opver__delegation {
	opver__partition *partitions;    /* owned; count entries */
	size_t count;
	int32_t *node_partition;         /* owned; per node, -1 = kernels */
} opver__delegation;

/*
 * Runs the claims of every delegate among `plugins` over `view` (whose
 * tensors back the partitions' boundary arrays) and forms the partitions.
 * Only OPVER_ERROR_NOMEM and a delegate's failing claim callback fail it.
 * Caller owns *delegation; release with opver__delegation_free().
 */
opver_status opver__delegation_build(const opver__plugin *plugins,
				     size_t num_plugins,
				     const opver__graph *graph,
				     const opver_graph_view *view,
				     opver__host *host,
				     opver__delegation *delegation);

/* Calls init then prepare of every partition's delegate. */
opver_status opver__delegation_prepare(opver__delegation *delegation,
				       opver__host *host);

/* Runs one partition: copies its inputs to the device, invokes, copies its
 * outputs back (when the delegate has copy hooks). */
opver_status opver__partition_invoke(opver__partition *partition,
				     opver__host *host);

/* Frees what each initialized partition's delegate created, then the
 * arrays.  Safe on a zeroed delegation. */
void opver__delegation_free(opver__delegation *delegation, opver__host *host);

#endif /* OPVER_CORE_DELEGATE_H */
