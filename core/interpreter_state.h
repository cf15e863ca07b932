/*
 * interpreter_state.h - the state of an opver_interpreter, shared by the
 * files that create and run it (interpreter.c), answer queries about it
 * (interpreter_query.c) and resize its inputs and re-prepare
 * (interpreter_resize.c, interpreter_redelegate.c).  Internal to the core.
 */
#ifndef OPVER_CORE_INTERPRETER_STATE_H
#define OPVER_CORE_INTERPRETER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control_flow.h"
#include "delegate.h"
#include "memory_budget.h"
#include "profiler.h"
#include "resolver.h"
#include "session.h"
#include "thread_pool.h"

/* The kernel object of a stateless kernel, shared by all its nodes. */
typedef struct shared_kernel {
	const opver_kernel *kernel;
	const opver__plugin *plugin;
	void *data;
} shared_kernel;

typedef struct node_state {
	opver_node node;                        /* what the kernel sees */
	opver__binding binding;                 /* chosen kernel, fallback */
	opver__call call;                       /* its kernel's context */
	int32_t partition;                      /* -1: runs on its kernel */
	bool owns_kernel_data;                  /* per-node init was called */
	/* Reads a tensor shaped at invoke: prepared at each invoke. */
	bool deferred;
	/* The core's own copies of what node.kernel_data and node.op_data
	 * were set to: a kernel may write to its opver_node, so teardown
	 * never reads them back from there. */
	void *kernel_data;
	void *op_data;
	int32_t *input_types;                   /* into the interpreter pool */
	uint64_t total_ns;
	uint64_t invocations;
} node_state;

struct opver_interpreter {
	opver_runtime *runtime;                 /* borrowed */
	const opver__graph *graph;              /* borrowed from the model */
	opver_tensor *tensors;                  /* owned; graph->num_tensors */
	opver_tensor **tensor_pointers;         /* owned; &tensors[i] */
	opver_tensor **io_pool;                 /* owned; backs node in/outputs
	                                         * and intermediates */
	int32_t *type_pool;                     /* owned; backs input_types */
	const opver_node **node_pointers;       /* owned; for the graph view */
	opver_graph_view view;
	node_state *nodes;                      /* owned; graph->num_nodes */
	shared_kernel *shared;                  /* owned; num_shared */
	size_t num_shared;
	opver__delegation delegation;
	/* What services act on: phase, persistent memory, scratch, and
	 * pointers to the pool and (when attached) the profiler below. */
	opver__session session;
	opver__pool *pool;                      /* owned */
	uint8_t *resizable;                     /* owned; per tensor */
	opver__profiler profiler;
	uint8_t *arena;                         /* owned */
	size_t arena_bytes;
	size_t naive_bytes;
	/* Created with inspect_only (nodes bound or not, nothing prepared)
	 * or prepare_only (prepared and planned, no arena): cannot invoke. */
	bool inspect_only;
	/* The arena's and any one tensor's limits in bytes
	 * (opver_interpreter_options). */
	uint64_t max_arena_bytes;
	uint64_t max_tensor_bytes;
	/* The application's interpreter: the tree's max_arena_bytes, which
	 * session.budget points to in every interpreter of the tree. */
	opver__budget budget;
	/* A limit check or plan_arena reported why creation failed. */
	bool nomem_reported;
	/* The graph's subgraph index, and its control-flow nodes' state
	 * (control_flow.h; owned); a callee's pool is the root's. */
	int32_t subgraph;
	opver__control *control;
	bool borrows_pool;
	/* Kept from the options, for a re-planned arena. */
	bool preserve_intermediates;
	/* Per model input, the dims resize_input gave it, or NULL (owned;
	 * NULL until an input is resized). */
	int32_t **input_dims;
	/* Per tensor, the shape kernels gave it for the delegates'
	 * partitions after a resize (interpreter_redelegate.c), or NULL
	 * (owned; NULL until then). */
	int32_t **kept_dims;
	/* An input was resized since the last prepare: invoke refuses
	 * until opver_interpreter_allocate_tensors() re-prepares. */
	bool needs_allocate;
};

/* interpreter.c: what creation does, for a re-prepare. */
opver_status opver__interpreter_prepare_all(opver_interpreter *it);
opver_status opver__interpreter_plan_arena(opver_interpreter *it,
					   bool allocate,
					   bool preserve_intermediates);
/* A node reading a tensor shaped at invoke: its prepare, at invoke,
 * after its producers ran (op_data zeroed, the node's pointers the
 * core's); its outputs get their shapes and buffers. */
opver_status opver__interpreter_prepare_deferred(opver_interpreter *it,
						 node_state *state);
/* Frees what init and prepare gave each node, leaving it unprepared. */
void opver__interpreter_release_nodes(opver_interpreter *it);
/* Binds every node no partition takes to its kernel and gives it its
 * call record; reports the nodes no kernel handles at `unhandled_level`
 * and returns the first failure. */
opver_status opver__interpreter_resolve_nodes(opver_interpreter *it,
					      opver_log_level unhandled_level);

/*
 * interpreter_redelegate.c: after an input resize (with the nodes
 * unprepared), frees the delegates' partitions and, when inputs have new
 * shapes, gives every tensor the shape its kernel's prepare gives; then
 * runs the claims again and builds new partitions, to be prepared by
 * opver__interpreter_prepare_all().  Nothing to do without delegates.
 * A delegated node no kernel handles is refused, naming its delegate.
 */
opver_status opver__interpreter_redelegate(opver_interpreter *it);
/* Frees kept_dims (the tensors may still point into it: for destroy). */
void opver__interpreter_free_kept_shapes(opver_interpreter *it);

/* interpreter_resize.c: frees input_dims and kept_dims. */
void opver__interpreter_free_resized(opver_interpreter *it);
/* OPVER_OK when invoke may run; otherwise reports why not. */
opver_status opver__interpreter_check_allocated(const opver_interpreter *it);

#endif /* OPVER_CORE_INTERPRETER_STATE_H */
