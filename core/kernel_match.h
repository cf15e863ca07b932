/*
 * kernel_match.h - whether a kernel's manifest entry accepts a node, and
 * whether two entries could both claim one node.  Used by the loader (two
 * kernels of one plugin must not overlap) and the registry and resolver.
 */
#ifndef OPVER_CORE_KERNEL_MATCH_H
#define OPVER_CORE_KERNEL_MATCH_H

#include <stdbool.h>

#include "graph.h"
#include "opver/plugin.h"
#include "text.h"

/* What messages call an op: its custom name for CUSTOM, else the builtin's
 * name.  Borrowed: static, or the custom name passed in. */
const char *opver__op_label(int32_t op, const char *custom_name);
/* The same for a node of a graph. */
const char *opver__node_label(const opver__graph_node *node);

/* Same builtin op, or both CUSTOM with the same custom name. */
bool opver__same_op(int32_t op_a, const char *custom_a, int32_t op_b,
		    const char *custom_b);

/* One of `count` signatures accepts the node's tensor types (any do when
 * count is 0). */
bool opver__signatures_accept(const opver_type_signature *signatures,
			      uint32_t count, const opver__graph *graph,
			      const opver__graph_node *node);

/* The kernel is for the node's op and accepts its tensor types (the version
 * is not looked at). */
bool opver__kernel_accepts_types(const opver_kernel *kernel,
				 const opver__graph *graph,
				 const opver__graph_node *node);

/* Same op, intersecting version ranges, and a tensor-type combination both
 * accept. */
bool opver__kernels_overlap(const opver_kernel *a, const opver_kernel *b);

/* Appends the types signatures accept: "(INT8,INT8,INT32|absent -> INT8)"
 * per signature, or "any types" when count is 0. */
void opver__format_signatures(const opver_type_signature *signatures,
			      uint32_t count, opver__text *text);

#endif /* OPVER_CORE_KERNEL_MATCH_H */
