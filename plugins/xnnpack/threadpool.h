/*
 * threadpool.h - XNNPACK's thread pool, served by the interpreter's.
 *
 * This XNNPACK runs every operator through pthreadpool_parallelize_*().
 * The plugin defines those functions itself (threadpool.c): loaded with
 * dlopen, it comes before libpthreadpool in libXNNPACK's lookup scope, so
 * XNNPACK's calls land there and run on the core's threads (parallel_for),
 * each operator inside a profile event.  No second pool competes with the
 * core's.  Were pthreadpool already loaded globally in the process (an
 * application linking it), XNNPACK would bind to that one instead:
 * xp_pool_serves_xnnpack() finds out by running one operator, and the
 * partitions then run on the calling thread.
 */
#ifndef OPVER_XNNPACK_THREADPOOL_H
#define OPVER_XNNPACK_THREADPOOL_H

#include <stdbool.h>
#include <stdint.h>

#include <pthreadpool.h>

#include <opver/plugin.h>

/* What a partition hands XNNPACK as its pool; XNNPACK passes it back to
 * every pthreadpool call of the runtime. */
struct pthreadpool {
	/* The partition's callback in progress, NULL outside one; borrowed. */
	const opver_context *ctx;
	/* Threads the operators use: the delegate's `threads` option capped
	 * by the interpreter's threads. */
	uint32_t threads;
	/* Profile event names, one per XNNPACK operator in the order the
	 * runtime runs them (num_names; none, no events); operators past
	 * the end share the last name.  Borrowed from the partition. */
	const char *const *names;
	uint32_t num_names;
	/* Operators run so far in the current invoke. */
	uint32_t operator;
};

/* Whether XNNPACK's pthreadpool calls reach threadpool.c in this process
 * (checked once). */
bool xp_pool_serves_xnnpack(void);

#endif /* OPVER_XNNPACK_THREADPOOL_H */
