/*
 * thread_pool.c - parallel_for's workers: one job at a time.  Delegates
 * run many jobs of a few microseconds each (one per XNNPACK operator),
 * shorter than waking a sleeping thread, so the fast path takes no lock:
 * workers spin a while on the job's state before they sleep, and the
 * caller on the workers still inside the job.  A lock and condition
 * variables serve only a thread that stopped spinning, through a Dekker
 * handshake of sequentially consistent atomics (a waker reads the sleeper
 * flag or count after publishing; a sleeper rereads what it waits for
 * after announcing itself).
 *
 * The caller opens a job, runs tasks until none are left to take, closes
 * it and waits only for the workers that joined it: a worker the system
 * has not scheduled yet (other processes on its CPU) misses the job
 * instead of holding the caller up.  Each thread first takes the tasks of
 * its own contiguous share, from a counter on a cache line of its own,
 * then steals what is left of the others' shares: no line is fought over
 * while every thread has work of its own, and uneven tasks still balance.
 * When the interpreter traces (opver_interpreter_options.trace), a
 * parallel_for also times each thread's span of tasks and traces it.
 *
 * Creating the pool returns once every worker has run and sleeps.  A new
 * thread may start queued on its creator's CPU, where a caller busy with
 * jobs keeps it from running for milliseconds; asleep, the first job's
 * wake-up puts it on an idle CPU instead.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"
#include "session.h"
#include "thread_pool.h"

#define CACHE_LINE 64

/* One thread's share of a job: tasks [next, end), taken by its thread
 * first and stolen by the others once theirs are done. */
typedef struct share {
	_Alignas(CACHE_LINE) atomic_uint_least64_t next;
	uint64_t end;                   /* written before the job opens */
} share;

struct opver__pool {
	uint32_t threads;               /* workers + the caller */
	pthread_t *workers;             /* threads - 1 */
	uint32_t started;               /* workers running */
	uint32_t checked_in;            /* workers that slept once; lock */
	pthread_mutex_t lock;           /* for sleeping only */
	pthread_cond_t wake;            /* a job or stop for the workers */
	pthread_cond_t done;            /* the last worker left the job */
	share *shares;                  /* threads of them */
	/* Written by the caller, polled by the workers: a line of its own.
	 * state counts openings and closings of jobs: odd while one is open.
	 * The job is written before it opens and stays until it is closed
	 * and no worker is inside. */
	_Alignas(CACHE_LINE) atomic_uint_least64_t state;
	atomic_bool stopping;
	opver_task_fn fn;
	void *arg;
	/* Written by the workers, polled by the caller. */
	_Alignas(CACHE_LINE) atomic_uint inside; /* workers in the job */
	atomic_bool sleeping;           /* a worker waits on wake, unwoken */
	atomic_bool caller_sleeping;    /* the caller waits on done */
	/* For a traced job: each thread's first task start and last task
	 * end, 0 when it ran none; threads entries each, a thread writing
	 * only its own. */
	uint64_t *first_ns;
	uint64_t *last_ns;
};

/* Polls of a spin before sleeping: about 0.2 ms on the Zen 5 VM, whose
 * pause takes 50-60 ns. */
#define SPIN_POLLS 4000

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* Set on a thread while it runs tasks: parallel_for from a task runs
 * inline instead of waiting for itself. */
static _Thread_local bool in_task;

/* Takes tasks from its own share, then from the others', until none are
 * left. */
static void run_tasks(opver__pool *pool, uint32_t thread)
{
	in_task = true;
	for (uint32_t i = 0; i < pool->threads; i++) {
		share *s = &pool->shares[(thread + i) % pool->threads];
		uint64_t task;

		/* The load keeps an exhausted share's line unwritten. */
		while (atomic_load_explicit(&s->next, memory_order_relaxed) <
			       s->end &&
		       (task = atomic_fetch_add_explicit(&s->next, 1,
				memory_order_relaxed)) < s->end)
			pool->fn(pool->arg, (uint32_t)task, thread);
	}
	in_task = false;
}

/* Waits until the state moves past `seen` or the pool stops (spinning,
 * then sleeping on wake), and returns the state. */
static uint64_t await_change(opver__pool *pool, uint64_t seen, bool first)
{
	uint64_t state;

	for (int poll = 0; !first && poll < SPIN_POLLS; poll++) {
		state = atomic_load(&pool->state);
		if (state != seen || atomic_load(&pool->stopping))
			return state;
		cpu_relax();
	}
	pthread_mutex_lock(&pool->lock);
	if (first) {
		/* opver__pool_create goes on once the lock is free, inside
		 * the wait below: the worker asleep, so the first job wakes
		 * it onto an idle CPU. */
		pool->checked_in++;
		pthread_cond_signal(&pool->done);
	}
	for (;;) {
		/* Announced before each look: the waker clears it. */
		atomic_store(&pool->sleeping, true);
		state = atomic_load(&pool->state);
		if (state != seen || atomic_load(&pool->stopping))
			break;
		pthread_cond_wait(&pool->wake, &pool->lock);
	}
	pthread_mutex_unlock(&pool->lock);
	return state;
}

typedef struct worker_start {
	opver__pool *pool;
	uint32_t thread;
} worker_start;

static void *worker_main(void *argument)
{
	worker_start *start = argument;
	opver__pool *pool = start->pool;
	uint32_t thread = start->thread;
	uint64_t seen = 0;

	free(start);
	for (bool first = true;; first = false) {
		seen = await_change(pool, seen, first);
		if (atomic_load(&pool->stopping))
			return NULL;
		if (seen % 2 == 0)
			continue;
		/* Inside only if the job is still the one seen open: the
		 * caller counts on this worker from here on. */
		atomic_fetch_add(&pool->inside, 1);
		if (atomic_load(&pool->state) == seen)
			run_tasks(pool, thread);
		/* The last one out wakes a caller that stopped spinning. */
		if (atomic_fetch_sub(&pool->inside, 1) == 1 &&
		    atomic_load(&pool->caller_sleeping)) {
			pthread_mutex_lock(&pool->lock);
			pthread_cond_signal(&pool->done);
			pthread_mutex_unlock(&pool->lock);
		}
	}
}

opver_status opver__pool_create(uint32_t threads, opver__pool **out)
{
	opver__pool *pool;

	*out = NULL;
	pool = aligned_alloc(CACHE_LINE, sizeof(*pool));
	if (pool == NULL)
		return OPVER_ERROR_NOMEM;
	memset(pool, 0, sizeof(*pool));
	pool->threads = threads > 0 ? threads : 1;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->wake, NULL);
	pthread_cond_init(&pool->done, NULL);
	pool->first_ns = calloc(pool->threads, sizeof(*pool->first_ns));
	pool->last_ns = calloc(pool->threads, sizeof(*pool->last_ns));
	pool->shares = aligned_alloc(CACHE_LINE,
				     pool->threads * sizeof(*pool->shares));
	if (pool->first_ns == NULL || pool->last_ns == NULL ||
	    pool->shares == NULL)
		goto fail;
	memset(pool->shares, 0, pool->threads * sizeof(*pool->shares));
	if (pool->threads > 1) {
		pool->workers = calloc(pool->threads - 1,
				       sizeof(*pool->workers));
		if (pool->workers == NULL)
			goto fail;
	}
	for (uint32_t i = 0; i + 1 < pool->threads; i++) {
		worker_start *start = malloc(sizeof(*start));

		if (start == NULL)
			goto fail;
		start->pool = pool;
		start->thread = i + 1;
		if (pthread_create(&pool->workers[i], NULL, worker_main,
				   start) != 0) {
			free(start);
			goto fail;
		}
		pool->started++;
	}
	pthread_mutex_lock(&pool->lock);
	while (pool->checked_in < pool->started)
		pthread_cond_wait(&pool->done, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
	*out = pool;
	return OPVER_OK;
fail:
	opver__pool_destroy(pool);
	return OPVER_ERROR_NOMEM;
}

void opver__pool_destroy(opver__pool *pool)
{
	if (pool == NULL)
		return;
	pthread_mutex_lock(&pool->lock);
	atomic_store(&pool->stopping, true);
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);
	for (uint32_t i = 0; i < pool->started; i++)
		pthread_join(pool->workers[i], NULL);
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->wake);
	pthread_mutex_destroy(&pool->lock);
	free(pool->workers);
	free(pool->shares);
	free(pool->first_ns);
	free(pool->last_ns);
	free(pool);
}

uint32_t opver__pool_threads(const opver__pool *pool)
{
	return pool != NULL ? pool->threads : 1;
}

void opver__pool_run(opver__pool *pool, opver_task_fn fn, void *arg,
		     uint32_t count)
{
	if (pool == NULL || pool->started == 0 || count <= 1 || in_task) {
		for (uint32_t task = 0; task < count; task++)
			fn(arg, task, 0);
		return;
	}
	/* The last job is closed and no worker is inside: nothing reads
	 * these now. */
	pool->fn = fn;
	pool->arg = arg;
	for (uint32_t t = 0; t < pool->threads; t++) {
		atomic_store_explicit(&pool->shares[t].next,
				      (uint64_t)count * t / pool->threads,
				      memory_order_relaxed);
		pool->shares[t].end = (uint64_t)count * (t + 1) / pool->threads;
	}
	atomic_fetch_add(&pool->state, 1);
	/* Woken once, not on every job until they run. */
	if (atomic_load(&pool->sleeping)) {
		pthread_mutex_lock(&pool->lock);
		atomic_store(&pool->sleeping, false);
		pthread_cond_broadcast(&pool->wake);
		pthread_mutex_unlock(&pool->lock);
	}

	run_tasks(pool, 0);

	/* Every task is taken: close, then wait for those still running. */
	atomic_fetch_add(&pool->state, 1);
	for (int poll = 0; poll < SPIN_POLLS; poll++) {
		if (atomic_load(&pool->inside) == 0)
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&pool->lock);
	atomic_store(&pool->caller_sleeping, true);
	while (atomic_load(&pool->inside) > 0)
		pthread_cond_wait(&pool->done, &pool->lock);
	atomic_store(&pool->caller_sleeping, false);
	pthread_mutex_unlock(&pool->lock);
}

uint32_t opver__service_thread_count(const opver_context *ctx)
{
	const opver__session *session = opver__session_of(ctx);

	return opver__pool_threads(session != NULL ? session->pool : NULL);
}

/* A job of a traced parallel_for, run through traced_task. */
typedef struct traced_job {
	opver__pool *pool;
	opver_task_fn fn;
	void *arg;
} traced_job;

static void traced_task(void *arg, uint32_t task, uint32_t thread)
{
	const traced_job *job = arg;
	uint64_t start = opver__now_ns();

	job->fn(job->arg, task, thread);
	if (job->pool->first_ns[thread] == 0)
		job->pool->first_ns[thread] = start;
	job->pool->last_ns[thread] = opver__now_ns();
}

/* Runs the job, then traces each thread's span of tasks. */
static void run_traced(opver__pool *pool, const opver__profiler *profiler,
		       const opver__call *call, opver_task_fn fn, void *arg,
		       uint32_t count)
{
	traced_job job = { .pool = pool, .fn = fn, .arg = arg };

	for (uint32_t t = 0; t < pool->threads; t++)
		pool->first_ns[t] = 0;
	opver__pool_run(pool, traced_task, &job, count);
	for (uint32_t t = 0; t < pool->threads; t++)
		if (pool->first_ns[t] != 0)
			opver__profiler_trace(profiler, &(opver_trace_event){
				.kind = OPVER_TRACE_TASKS,
				.node = call->node_index,
				.partition = call->partition_index,
				.thread = t,
				.start_ns = pool->first_ns[t],
				.duration_ns = pool->last_ns[t] -
					       pool->first_ns[t],
			});
}

void opver__service_parallel_for(const opver_context *ctx, opver_task_fn fn,
				 void *arg, uint32_t count)
{
	const opver__session *session = opver__session_of(ctx);

	if (session != NULL && session->profiler != NULL &&
	    session->profiler->trace != NULL && session->pool != NULL &&
	    session->phase == OPVER__PHASE_INVOKE && !in_task) {
		run_traced(session->pool, session->profiler,
			   opver__call_of(ctx), fn, arg, count);
		return;
	}
	opver__pool_run(session != NULL ? session->pool : NULL, fn, arg,
			count);
}
