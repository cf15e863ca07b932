/*
 * test_thread_pool.c - the interpreter's pool alone (core/thread_pool.c):
 * every task of every run exactly once, on a thread the pool has, however
 * uneven the tasks; and a run that a worker does not start on (held in a
 * signal handler here, as a CPU busy elsewhere would hold it) finishes on
 * the calling thread instead of waiting for that worker.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "thread_pool.h"

#define MAX_TASKS 100

static void pause_us(long us)
{
	struct timespec wait = { .tv_sec = 0, .tv_nsec = us * 1000 };

	nanosleep(&wait, NULL);
}

/* What the tasks of one run did. */
typedef struct record {
	atomic_int runs[MAX_TASKS];     /* per task */
	atomic_int on_thread[8];        /* tasks per thread index */
	atomic_int bad_thread;          /* tasks given an index >= 8 */
	long task_us;                   /* each task sleeps this long */
	atomic_bool worker_known;
	pthread_t worker;               /* a thread that ran index 1 */
} record;

static void record_task(void *arg, uint32_t task, uint32_t thread)
{
	record *r = arg;

	atomic_fetch_add(&r->runs[task], 1);
	if (thread < 8)
		atomic_fetch_add(&r->on_thread[thread], 1);
	else
		atomic_fetch_add(&r->bad_thread, 1);
	/* Uneven: every seventh task is long. */
	if (r->task_us > 0 || task % 7 == 0)
		pause_us(r->task_us > 0 ? r->task_us : 20);
	if (thread == 1 && !atomic_load(&r->worker_known)) {
		r->worker = pthread_self();
		atomic_store(&r->worker_known, true);
	}
}

static void clear(record *r, long task_us)
{
	memset(r, 0, sizeof(*r));
	r->task_us = task_us;
}

static void assert_each_task_once(record *r, uint32_t count,
				  uint32_t threads)
{
	for (uint32_t t = 0; t < count; t++)
		cr_assert_eq(atomic_load(&r->runs[t]), 1, "task %u ran %d times",
			     t, atomic_load(&r->runs[t]));
	for (uint32_t t = count; t < MAX_TASKS; t++)
		cr_assert_eq(atomic_load(&r->runs[t]), 0, "task %u", t);
	for (uint32_t t = threads; t < 8; t++)
		cr_assert_eq(atomic_load(&r->on_thread[t]), 0, "thread %u", t);
	cr_assert_eq(atomic_load(&r->bad_thread), 0);
}

Test(thread_pool, every_task_runs_once_on_a_pool_thread_in_every_run)
{
	static record r;
	opver__pool *pool;

	cr_assert_eq(opver__pool_create(3, &pool), OPVER_OK);
	cr_assert_eq(opver__pool_threads(pool), 3);
	for (uint32_t run = 0; run < 2000; run++) {
		uint32_t count = 2 + run % (MAX_TASKS - 1);

		clear(&r, 0);
		opver__pool_run(pool, record_task, &r, count);
		assert_each_task_once(&r, count, 3);
	}
	opver__pool_destroy(pool);
}

/* The worker, parked in a signal handler until released. */
static atomic_bool parked, released;

static void park(int signal)
{
	(void)signal;
	atomic_store(&parked, true);
	while (!atomic_load(&released))
		pause_us(100);
}

Test(thread_pool, a_run_finishes_without_a_worker_that_did_not_start,
     .timeout = 20)
{
	static record r;
	struct sigaction action = { .sa_handler = park };
	opver__pool *pool;
	bool rejoined = false;

	cr_assert_eq(sigaction(SIGUSR1, &action, NULL), 0);
	cr_assert_eq(opver__pool_create(2, &pool), OPVER_OK);
	/* Tasks long enough that the worker takes some: it is known. */
	for (int run = 0; run < 1000 && !atomic_load(&r.worker_known); run++) {
		clear(&r, 1000);
		opver__pool_run(pool, record_task, &r, 8);
	}
	cr_assert(atomic_load(&r.worker_known), "the worker never ran a task");
	/* Idle long enough for it to stop spinning, then held. */
	pause_us(50000);
	cr_assert_eq(pthread_kill(r.worker, SIGUSR1), 0);
	while (!atomic_load(&parked))
		pause_us(100);
	for (int run = 0; run < 200; run++) {
		clear(&r, 0);
		opver__pool_run(pool, record_task, &r, 16);
		assert_each_task_once(&r, 16, 1);
	}
	atomic_store(&released, true);
	/* Released, the worker takes part again. */
	for (int run = 0; run < 1000 && !rejoined; run++) {
		clear(&r, 1000);
		opver__pool_run(pool, record_task, &r, 8);
		assert_each_task_once(&r, 8, 2);
		rejoined = atomic_load(&r.on_thread[1]) > 0;
	}
	cr_assert(rejoined, "the worker did not take part after its release");
	opver__pool_destroy(pool);
}
