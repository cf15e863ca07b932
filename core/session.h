/*
 * session.h - the interpreter state that plugin services act on: which
 * phase the interpreter is in, the persistent memory kernels allocated,
 * the scratch they requested and where the planner put it, the thread
 * pool, the profiler, and the tensors kernels may reshape in prepare.  One per interpreter, reached from each node's
 * and partition's call record (call.h).
 */
#ifndef OPVER_CORE_SESSION_H
#define OPVER_CORE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "call.h"

struct opver__budget;
struct opver__pool;
struct opver__profiler;

typedef enum opver__phase {
	OPVER__PHASE_IDLE,      /* creating, between invokes, destroying */
	OPVER__PHASE_PREPARE,   /* nodes and partitions being prepared */
	OPVER__PHASE_INVOKE
} opver__phase;

/* One request_scratch. */
typedef struct opver__scratch {
	int32_t step;           /* the plan step that asked for it */
	size_t bytes;
	uint8_t *memory;        /* into the arena, once planned */
	bool own_memory;        /* requested at invoke: memory is owned */
} opver__scratch;

typedef struct opver__session {
	opver__phase phase;
	/* allocate_persistent's blocks, freed with the session. */
	struct opver__persistent_block *persistent;
	opver__scratch *scratch;        /* owned; num_scratch requests */
	size_t num_scratch;
	struct opver__pool *pool;       /* owned by the interpreter */
	/* Owned by the interpreter; NULL when no profiler is attached. */
	struct opver__profiler *profiler;
	/*
	 * For resize_output (resize.c): the graph and the interpreter's
	 * tensors (borrowed), which of them a kernel's prepare may reshape
	 * (1 for a non-constant tensor that is no model input and that no
	 * partition touches; owned by the interpreter), and the most bytes
	 * one tensor may take.
	 */
	const opver__graph *graph;
	opver_tensor *tensors;
	const uint8_t *resizable;
	uint64_t max_tensor_bytes;
	/* A model input has a shape of its own (resize_input): nodes
	 * whose inputs changed must shape their outputs. */
	bool inputs_resized;
	/* Tensors shaped at invoke (dynamic.h; owned, NULL until one is). */
	struct opver__dynamic *dynamic;
	/* The tree's max_arena_bytes (memory_budget.h; borrowed, the root
	 * interpreter's), charged with the arena's size once planned
	 * (arena_bytes), the dynamic tensors' buffers and what prepares
	 * at invoke ask for; each is released when freed. */
	struct opver__budget *budget;
	size_t arena_bytes;
	/* Inside opver_interpreter_invoke(), the prepares of nodes reading
	 * dynamic tensors included. */
	bool at_invoke;
	/* What allocate_tensors left (opver__session_mark()): each invoke
	 * frees what deferred prepares allocated after it. */
	struct opver__persistent_block *marked_persistent;
	size_t marked_scratch;
} opver__session;

/* The session of a node or partition call, or NULL. */
static inline opver__session *opver__session_of(const opver_context *ctx)
{
	return opver__call_of(ctx)->session;
}

/* The services of opver_host this module implements. */
void *opver__service_allocate_persistent(const opver_context *ctx,
					 size_t bytes);
opver_status opver__service_request_scratch(const opver_context *ctx,
					    size_t bytes, int32_t *index);
void *opver__service_scratch(const opver_context *ctx, int32_t index);
/* resize.c */
opver_status opver__service_resize_output(const opver_context *ctx,
					  int32_t output, const int32_t *dims,
					  int32_t rank);
/*
 * Whether tensor `index`, output `output` of node `node`, is already known
 * with its shape elsewhere: an input of that node (checked against the old
 * shape), another of its outputs, or an input or output of a node before
 * it, all prepared with the old shape.
 */
bool opver__resize_seen_before(const opver__graph *graph, int32_t node,
			       int32_t output, int32_t index);
/* Whether two shapes are the same: rank and every dimension. */
bool opver__same_dims(int32_t rank_a, const int32_t *a, int32_t rank_b,
		      const int32_t *b);
/*
 * After a node's prepare succeeded: when inputs were resized and one of
 * the node's inputs no longer has the model's shape, every output must
 * have been shaped through resize_output; otherwise the kernel checked
 * or computed with the model's output shape, and the node is refused
 * (OPVER_ERROR_UNSUPPORTED, reported naming the node, kernel and tensor).
 */
opver_status opver__resize_check_node(const opver__call *call);
/*
 * Which of graph's tensors a kernel's prepare may reshape (1 per tensor):
 * none that holds data before any node runs (constants, model inputs,
 * initial values), no variable (its state outlives an invoke) and none a
 * partition reads or writes (node_partition[n] >= 0), since partitions
 * are prepared first.  The caller frees it; NULL when memory runs out.
 */
uint8_t *opver__resizable_tensors(const opver__graph *graph,
				  const opver_tensor *tensors,
				  const int32_t *node_partition);

/* Frees the persistent blocks, the scratch list and the dynamic tensors'
 * buffers (not the pool or profiler), and releases them and the arena's
 * charge from the budget.  Safe on a zeroed session. */
void opver__session_free(opver__session *session);

/* After planning: what exists now stays until the session is freed. */
void opver__session_mark(opver__session *session);

/* At each invoke: frees the persistent blocks and scratch that prepares
 * run at invoke (nodes reading dynamic tensors) allocated since the mark
 * or the previous invoke. */
void opver__session_rewind(opver__session *session);

#endif /* OPVER_CORE_SESSION_H */
