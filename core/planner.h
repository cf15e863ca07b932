/*
 * planner.h - places every activation tensor in one arena.
 *
 * A tensor lives from the step that writes it to the last step that
 * reads it (a step runs a node, or a delegate partition of several); graph outputs to the end; graph inputs and variable tensors over the
 * whole run (inputs stay intact for the next invoke).  A kernel's scratch
 * lives for its node's step.  Two buffers may share bytes when their
 * lifetimes do not meet.
 * Placement is greedy: largest first, each at the lowest aligned offset
 * that overlaps no placed tensor alive at the same time.
 */
#ifndef OPVER_CORE_PLANNER_H
#define OPVER_CORE_PLANNER_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/* Arena offsets are multiples of this: a cache line, enough for SIMD. */
#define OPVER__ARENA_ALIGNMENT 64

typedef struct opver__lifetime {
	size_t bytes;    /* 0: the tensor takes no arena space */
	int32_t first;   /* first step it must hold data */
	int32_t last;    /* last step it must hold data (inclusive) */
} opver__lifetime;

/*
 * Fills lifetimes[num_tensors] for `graph` run in `num_steps` steps, node n
 * at step node_step[n] (several nodes of a delegate partition share one
 * step, so everything they touch is live over all of it), or at step n
 * when node_step is NULL.  Constant tensors and tensors no node touches get
 * bytes 0.
 */
void opver__graph_lifetimes(const opver__graph *graph,
			    const int32_t *node_step, int32_t num_steps,
			    opver__lifetime *lifetimes);

/*
 * For preserve_intermediates: every tensor of lifetimes[count] that some
 * step touches lives to the last of `num_steps` steps, so that no tensor
 * takes bytes another has written.
 */
void opver__preserve_lifetimes(opver__lifetime *lifetimes, size_t count,
			       int32_t num_steps);

/*
 * Computes offsets[count] (SIZE_MAX for tensors of 0 bytes) and the arena
 * size.  *naive_bytes is the sum of the aligned sizes, for comparison.
 * OPVER_ERROR_NOMEM when scratch memory runs out or the sizes add up to
 * more than memory can address.
 */
opver_status opver__plan_arena(const opver__lifetime *lifetimes, size_t count,
			       size_t *offsets, size_t *arena_bytes,
			       size_t *naive_bytes);

#endif /* OPVER_CORE_PLANNER_H */
