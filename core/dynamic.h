/*
 * dynamic.h - tensors whose shape follows from input values, known only
 * at invoke, as TFLite's dynamic tensors.  A kernel's prepare marks such
 * an output (set_output_dynamic, ABI 2.4); the planner gives it no arena
 * bytes; resize_output in the kernel's invoke gives it its shape and a
 * buffer of its own, kept for the next invoke and grown when too small.
 * A node reading a dynamic tensor is deferred: prepared at every invoke
 * just before it runs, and its outputs are dynamic too.  Internal to the
 * core.
 */
#ifndef OPVER_CORE_DYNAMIC_H
#define OPVER_CORE_DYNAMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"

/* How a tensor came to be dynamic. */
enum {
	OPVER__DYNAMIC_NO = 0,
	OPVER__DYNAMIC_BY_CORE,   /* an output of a deferred node */
	OPVER__DYNAMIC_BY_KERNEL  /* set_output_dynamic */
};

/* One dynamic tensor's storage: its dims and its buffer (aligned, with
 * OPVER_TENSOR_READ_SLACK bytes past `capacity`). */
typedef struct opver__dynamic_tensor {
	int32_t *dims;
	int32_t dims_capacity;
	uint8_t *buffer;
	size_t capacity;
} opver__dynamic_tensor;

typedef struct opver__dynamic {
	int32_t num_tensors;
	uint8_t *how;                    /* per tensor: OPVER__DYNAMIC_* */
	/* Per tensor: the node outputs that are it, 2 for two or more. */
	uint8_t *writers;
	/* Per tensor: the first node reading it, or INT32_MAX. */
	int32_t *first_reader;
	opver__dynamic_tensor *storage;  /* per tensor */
	uint64_t bytes;                  /* the buffers' capacities, charged */
} opver__dynamic;

/* Whether tensor `t` of the session is dynamic. */
bool opver__dynamic_is(const opver__session *session, int32_t t);

/* Whether tensor `t` was marked by its kernel (set_output_dynamic), whose
 * invoke gives it its shape. */
bool opver__dynamic_by_kernel(const opver__session *session, int32_t t);

/* Whether `node` reads a dynamic tensor. */
bool opver__dynamic_reads(const opver__session *session,
			  const opver__graph_node *node);

/* The set_output_dynamic service. */
opver_status opver__service_set_output_dynamic(const opver_context *ctx,
					       int32_t output);

/*
 * For resize_output on dynamic tensor `t`: gives it dims[0, rank)
 * (copied) and `bytes`, and inside invoke a buffer of at least `bytes`,
 * charged to the session's budget, the tree's max_arena_bytes
 * (OPVER_ERROR_NOMEM, reported, past it).
 */
opver_status opver__dynamic_shape(const opver_context *ctx, int32_t t,
				  const int32_t *dims, int32_t rank,
				  size_t bytes);

/*
 * In prepare, before a node's kernel prepares: whether the node reads a
 * dynamic tensor (*deferred); if so its outputs become dynamic, but for
 * those that may not be reshaped (a variable, a delegate's), which keep
 * the model's shape.  An output another node writes too, or that this
 * node or one before it reads, is refused (reported,
 * OPVER_ERROR_UNSUPPORTED): the other writer writes it at the shape it
 * was prepared with, whatever buffer this one's gets, and a reader
 * before it would find no data.
 */
opver_status opver__dynamic_defer(const opver__call *call, bool *deferred);

/*
 * After a deferred node's prepare at invoke: outputs its kernel gave no
 * shape to and did not mark dynamic get a buffer for the shape they have.
 */
opver_status opver__dynamic_fill_outputs(const opver__call *call);

/*
 * After a node's invoke: every dynamic output has a buffer, else the
 * kernel marked it and gave no shape (reported, OPVER_ERROR_PLUGIN).
 */
opver_status opver__dynamic_check_outputs(const opver__call *call);

/*
 * For a subgraph that control flow calls, after its prepare: none of its
 * outputs is dynamic, since values pass between subgraphs at one fixed
 * shape; else reported (naming `subgraph`), OPVER_ERROR_UNSUPPORTED.
 */
opver_status opver__dynamic_refuse_outputs(const opver__session *session,
					   const opver__reporter *reporter,
					   int32_t subgraph);

/* At the start of each invoke: dynamic tensors have no data until
 * their producers give them a shape again. */
void opver__dynamic_begin_invoke(opver__session *session);

/* Frees everything; NULL is ignored. */
void opver__dynamic_free(opver__dynamic *dynamic);

#endif /* OPVER_CORE_DYNAMIC_H */
