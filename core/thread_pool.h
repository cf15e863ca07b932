/*
 * thread_pool.h - an interpreter's threads for parallel_for.
 *
 * A pool of N threads is the calling thread plus N - 1 workers, started
 * when the interpreter is created and joined when it is destroyed; invoke
 * never creates a thread.  A run gives each thread a contiguous share of
 * the tasks, taken one at a time, and lets a thread that finished its
 * share take what is left of the others', so uneven tasks balance
 * themselves; it returns when every task has finished.  Workers that
 * have not started on a run by then (their CPU busy elsewhere) skip it.
 * One run at a time: an interpreter runs on one thread at a time
 * (opver.h).
 */
#ifndef OPVER_CORE_THREAD_POOL_H
#define OPVER_CORE_THREAD_POOL_H

#include <stdint.h>

#include "opver/plugin.h"

typedef struct opver__pool opver__pool;

/* Starts threads - 1 workers.  Caller owns *pool; release with
 * opver__pool_destroy().  OPVER_ERROR_NOMEM when memory or threads run
 * out. */
opver_status opver__pool_create(uint32_t threads, opver__pool **pool);

/* Stops and joins the workers.  NULL is ok. */
void opver__pool_destroy(opver__pool *pool);

/* The pool's threads, the calling thread included; 1 for NULL. */
uint32_t opver__pool_threads(const opver__pool *pool);

/* Runs fn(arg, task, thread) for task in [0, count) and waits for all.
 * From inside a task (or with a NULL pool) the tasks run on the calling
 * thread, in order. */
void opver__pool_run(opver__pool *pool, opver_task_fn fn, void *arg,
		     uint32_t count);

/* The services of opver_host this module implements. */
uint32_t opver__service_thread_count(const opver_context *ctx);
void opver__service_parallel_for(const opver_context *ctx, opver_task_fn fn,
				 void *arg, uint32_t count);

#endif /* OPVER_CORE_THREAD_POOL_H */
