/*
 * call.h - the context behind every opver_context a plugin is given: what
 * the core is calling (a plugin, a stateless kernel, a node's kernel, a
 * delegate partition) and the interpreter state its services act on.
 *
 * The core keeps one record per thing it calls, for as long as that thing
 * lives (a plugin's from load to unload, a node's and a partition's for the
 * interpreter's life), and passes its `context` member.  Nothing is written
 * into a shared struct before a call: the record itself says who is being
 * called, so services reached through a cached table, or on another
 * interpreter's thread, still act on the right node.
 */
#ifndef OPVER_CORE_CALL_H
#define OPVER_CORE_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "opver/plugin.h"
#include "report.h"

struct opver__session;

typedef enum opver__call_kind {
	OPVER__CALL_PLUGIN,     /* plugin init/fini, delegate claim */
	OPVER__CALL_KERNEL,     /* a stateless kernel's init/free */
	OPVER__CALL_NODE,       /* a node's kernel */
	OPVER__CALL_PARTITION   /* a delegate partition */
} opver__call_kind;

typedef struct opver__call {
	opver_context context;          /* first: what the plugin is given */
	opver__call_kind kind;
	const opver__reporter *reporter; /* borrowed */
	const char *plugin;             /* config name; borrowed */
	/* The kernel's or delegate's name; borrowed, NULL for PLUGIN. */
	const char *runner;
	/* NODE: the node's index; PARTITION: its first node's.  -1
	 * otherwise. */
	int32_t node_index;
	/* PARTITION: the partition's index; -1 otherwise. */
	int32_t partition_index;
	/* The core's node at node_index (never the opver_node a plugin may
	 * write to); borrowed, NULL without one. */
	const opver__graph_node *node;
	/* The step of the interpreter's plan that runs it (NODE,
	 * PARTITION), else -1. */
	int32_t step;
	/* The interpreter state scratch, threads and profiling act on;
	 * NULL for PLUGIN and KERNEL calls. */
	struct opver__session *session;
	/* PARTITION: the core's partition (delegate.h); NULL otherwise. */
	struct opver__partition *partition;
} opver__call;

/* The record behind a context the core created. */
static inline opver__call *opver__call_of(const opver_context *ctx)
{
	return (opver__call *)(void *)ctx;
}

/*
 * A record of `kind` for `plugin` (its config name, borrowed) and
 * `runner` (borrowed, may be NULL), with `plugin_data` for
 * ctx->plugin_data; indices and step -1, no node or session.
 */
void opver__call_init(opver__call *call, opver__call_kind kind,
		      const opver__reporter *reporter, const char *plugin,
		      const char *runner, void *plugin_data);

/*
 * What messages about the call start with: "plugin 'x'", "kernel 'k' of
 * plugin 'x'", "node 3 (FULLY_CONNECTED v4, kernel 'k' of plugin 'x')",
 * "partition 0 (from node 2) of delegate 'd' of plugin 'x'".
 */
void opver__call_describe(const opver__call *call, char *buffer,
			  size_t size);

/*
 * Reports "PREFIX: CALLBACK failed (STATUS)" and returns
 * OPVER_ERROR_PLUGIN, so a plugin cannot make its failure look like, say,
 * a missing op version.
 */
opver_status opver__call_failed(const opver__call *call, const char *callback,
				opver_status status);

/*
 * opver__call_failed() for a kernel's or delegate partition's prepare,
 * where one status keeps its meaning: OPVER_ERROR_INVALID_MODEL is
 * reported as "PREFIX: prepare rejected the model as invalid" and returns
 * OPVER_ERROR_MODEL_REJECTED, so that callers (and opver-run's exit status
 * 3) can tell a model a kernel found invalid from a plugin that failed.
 */
opver_status opver__call_prepare_failed(const opver__call *call,
					opver_status status);

/* Alignment of host allocations and arena buffers: a cache line, enough
 * for any SIMD load. */
#define OPVER__HOST_ALIGNMENT 64

/* Zeroed memory aligned to OPVER__HOST_ALIGNMENT, or NULL; release with
 * free(). */
void *opver__aligned_zalloc(size_t bytes);

/* The data of every tensor of 0 bytes, so that no kernel sees NULL (nor
 * does arithmetic on it): aligned to OPVER__HOST_ALIGNMENT, readable for
 * OPVER_TENSOR_READ_SLACK bytes, never to be written.  Static. */
void *opver__empty_data(void);

/* The one services table every context points to. */
extern const opver_host opver__host_services;

#endif /* OPVER_CORE_CALL_H */
