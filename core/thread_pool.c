/*
 * thread_pool.c - parallel_for's workers: one job at a time, tasks taken
 * from an atomic counter, a generation number to wake workers for each
 * job.  Delegates run many jobs of a few microseconds each (one per XNNPACK
 * operator), shorter than waking a sleeping thread: workers spin a while on
 * the generation before they sleep, and the caller on the finished count.
 * When the interpreter traces (opver_interpreter_options.trace), a
 * parallel_for also times each thread's span of tasks and traces it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "profiler.h"
#include "session.h"
#include "thread_pool.h"

struct opver__pool {
	uint32_t threads;               /* workers + the caller */
	pthread_t *workers;             /* threads - 1 */
	uint32_t started;               /* workers running */
	pthread_mutex_t lock;
	pthread_cond_t wake;            /* a job or stop for the workers */
	pthread_cond_t done;            /* a worker finished the job */
	/* Written under lock; read by spinning threads without it. */
	atomic_uint_least64_t generation;       /* bumped for every job */
	atomic_uint finished;                   /* workers done with this job */
	atomic_bool stopping;
	/* The current job; written before the generation is bumped. */
	opver_task_fn fn;
	void *arg;
	uint32_t count;
	atomic_uint next_task;
	/* For a traced job: each thread's first task start and last task
	 * end, 0 when it ran none; threads entries each, a thread writing
	 * only its own. */
	uint64_t *first_ns;
	uint64_t *last_ns;
};

/* Polls of a spin before sleeping: some tens of microseconds. */
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

/* Takes tasks until none are left. */
static void run_tasks(opver__pool *pool, uint32_t thread)
{
	uint32_t task;

	in_task = true;
	while ((task = atomic_fetch_add(&pool->next_task, 1)) < pool->count)
		pool->fn(pool->arg, task, thread);
	in_task = false;
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
	for (;;) {
		for (int poll = 0; poll < SPIN_POLLS &&
				   atomic_load(&pool->generation) == seen &&
				   !atomic_load(&pool->stopping);
		     poll++)
			cpu_relax();
		pthread_mutex_lock(&pool->lock);
		while (!pool->stopping && pool->generation == seen)
			pthread_cond_wait(&pool->wake, &pool->lock);
		if (pool->stopping)
			break;
		seen = pool->generation;
		pthread_mutex_unlock(&pool->lock);
		run_tasks(pool, thread);
		/* The last one wakes a caller that stopped spinning. */
		if (atomic_fetch_add(&pool->finished, 1) + 1 == pool->started) {
			pthread_mutex_lock(&pool->lock);
			pthread_cond_signal(&pool->done);
			pthread_mutex_unlock(&pool->lock);
		}
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

opver_status opver__pool_create(uint32_t threads, opver__pool **out)
{
	opver__pool *pool;

	*out = NULL;
	pool = calloc(1, sizeof(*pool));
	if (pool == NULL)
		return OPVER_ERROR_NOMEM;
	pool->threads = threads > 0 ? threads : 1;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->wake, NULL);
	pthread_cond_init(&pool->done, NULL);
	pool->first_ns = calloc(pool->threads, sizeof(*pool->first_ns));
	pool->last_ns = calloc(pool->threads, sizeof(*pool->last_ns));
	if (pool->first_ns == NULL || pool->last_ns == NULL)
		goto fail;
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
	pool->stopping = true;
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);
	for (uint32_t i = 0; i < pool->started; i++)
		pthread_join(pool->workers[i], NULL);
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->wake);
	pthread_mutex_destroy(&pool->lock);
	free(pool->workers);
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
	pthread_mutex_lock(&pool->lock);
	pool->fn = fn;
	pool->arg = arg;
	pool->count = count;
	atomic_store(&pool->next_task, 0);
	pool->finished = 0;
	pool->generation++;
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);

	run_tasks(pool, 0);

	for (int poll = 0; poll < SPIN_POLLS &&
			   atomic_load(&pool->finished) < pool->started;
	     poll++)
		cpu_relax();
	pthread_mutex_lock(&pool->lock);
	while (pool->finished < pool->started)
		pthread_cond_wait(&pool->done, &pool->lock);
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
