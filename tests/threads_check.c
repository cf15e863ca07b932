/*
 * threads_check.c - the thread pools under load, as a plain program rather
 * than a Criterion suite, so that it runs under ThreadSanitizer (whose
 * memory layout Criterion's process arena cannot share): interpreters with
 * pools of 2 and 4 threads run the services plugin's parallel_for kernel
 * and a delegate with buffer handles, alone and two at once on threads of
 * their own, and every output is checked; and the core's pool alone runs
 * thousands of short jobs whose tasks write plain memory the caller then
 * reads, pausing now and then so that the workers sleep and are woken.
 * Ends with "threads_check: N
 * passed, N failed" and exits 1 when a check failed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "opver/opver.h"
#include "thread_pool.h"

#define RUNS 200

static const char config_text[] =
	"[plugin.services]\nlibrary = " TEST_PLUGIN_DIR "/services.so\n"
	"[plugin.holding]\nlibrary = " TEST_PLUGIN_DIR "/holding_delegate.so\n"
	"[plugin.add_one]\nlibrary = " TEST_PLUGIN_DIR "/add_one.so\n";

static int passed, failed;

static void check(int ok, const char *what)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	fprintf(stderr, "threads_check: FAILED: %s\n", what);
}

/* A model of TEST_MODEL_DIR, and how to compute its output. */
typedef struct model_case {
	const char *name;
	float (*expected)(float x);
} model_case;

static float times_nine(float x)
{
	return 9.0f * x;
}

static float three_x_plus_two(float x)
{
	return 3.0f * x + 2.0f;
}

static const model_case triple_pair = { "triple_pair", times_nine };
static const model_case branches = { "delegate_branches", three_x_plus_two };

/* An interpreter for model `m` with a pool of `threads`, or NULL. */
static opver_interpreter *create(opver_runtime *runtime, const model_case *m,
				 uint32_t threads, opver_model **model)
{
	char path[512];
	opver_interpreter_options options;
	opver_interpreter *it = NULL;

	snprintf(path, sizeof(path), "%s/%s.tflite", TEST_MODEL_DIR, m->name);
	opver_interpreter_options_init(&options);
	options.threads = threads;
	options.profile = 1;
	*model = NULL;
	if (opver_model_open(runtime, path, model) != OPVER_OK ||
	    opver_interpreter_create_with_options(runtime, *model, &options,
						  &it) != OPVER_OK ||
	    opver_interpreter_threads(it) != threads) {
		opver_interpreter_destroy(it);
		return NULL;
	}
	return it;
}

/* RUNS invokes on fresh inputs; 1 when every output was right. */
static int run(opver_interpreter *it, const model_case *m)
{
	for (int r = 0; it != NULL && r < RUNS; r++) {
		opver_tensor *in = opver_interpreter_input(it, 0);
		float *x = in->data;
		const float *y;
		size_t count = in->bytes / sizeof(float);

		for (size_t i = 0; i < count; i++)
			x[i] = (float)((int)i - r);
		if (opver_interpreter_invoke(it) != OPVER_OK)
			return 0;
		y = opver_interpreter_output(it, 0)->data;
		for (size_t i = 0; i < count; i++)
			if (y[i] != m->expected(x[i]))
				return 0;
	}
	return it != NULL;
}

/* Creates, runs and destroys an interpreter on the calling thread. */
static int run_model(opver_runtime *runtime, const model_case *m,
		     uint32_t threads)
{
	opver_model *model;
	opver_interpreter *it = create(runtime, m, threads, &model);
	int ok = run(it, m);

	opver_interpreter_destroy(it);
	opver_model_close(model);
	return ok;
}

/* Runs an interpreter created on the main thread: opver.h promises that
 * interpreters of one runtime may run on different threads. */
typedef struct job {
	opver_interpreter *it;
	const model_case *model;
	int ok;
} job;

static void *run_job(void *argument)
{
	job *j = argument;

	j->ok = run(j->it, j->model);
	return NULL;
}

/* A pool job: task t writes values[t], plain memory. */
typedef struct pool_job {
	uint32_t values[64];
	uint32_t run;
} pool_job;

static void write_value(void *arg, uint32_t task, uint32_t thread)
{
	pool_job *j = arg;

	(void)thread;
	j->values[task] = j->run * 64 + task;
}

/* 3000 jobs of 2 to 64 tasks on a pool of `threads`, with a 1 ms pause
 * (longer than the workers spin) before every 100th; 1 when every job
 * wrote every value. */
static int run_pool(uint32_t threads)
{
	static pool_job j;
	opver__pool *pool;
	int ok = 1;

	if (opver__pool_create(threads, &pool) != OPVER_OK)
		return 0;
	for (uint32_t run = 0; run < 3000 && ok; run++) {
		uint32_t count = 2 + run % 63;

		if (run % 100 == 0)
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
		j.run = run;
		opver__pool_run(pool, write_value, &j, count);
		for (uint32_t t = 0; t < count; t++)
			ok &= j.values[t] == run * 64 + t;
	}
	opver__pool_destroy(pool);
	return ok;
}

/* The services kernel reports a misuse it makes on purpose each invoke
 * (tests/test_services.c checks the message); only failures count here. */
static void quiet(void *user_data, opver_log_level level, const char *message)
{
	(void)user_data;
	(void)level;
	(void)message;
}

int main(void)
{
	char path[] = "/tmp/opver-threads-XXXXXX.ini";
	opver_runtime_options options;
	opver_runtime *runtime;
	pthread_t threads[2];
	opver_model *models[2];
	job jobs[2];
	int fd = mkstemps(path, 4);
	FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (file == NULL || fputs(config_text, file) < 0) {
		perror("threads_check: writing the config");
		return 1;
	}
	fclose(file);
	opver_runtime_options_init(&options);
	options.config_path = path;
	options.log = quiet;
	if (opver_runtime_create(&options, &runtime) != OPVER_OK) {
		unlink(path);
		return 1;
	}
	unlink(path);

	check(run_pool(2), "the pool alone, 2 threads");
	check(run_pool(4), "the pool alone, 4 threads");
	check(run_model(runtime, &triple_pair, 2), "triple_pair, 2 threads");
	check(run_model(runtime, &triple_pair, 4), "triple_pair, 4 threads");
	check(run_model(runtime, &branches, 2), "delegate_branches, 2 threads");

	/* Two interpreters of one runtime at once, each with its pool. */
	for (int i = 0; i < 2; i++) {
		jobs[i].model = &triple_pair;
		jobs[i].it = create(runtime, &triple_pair, 2 + (uint32_t)i,
				    &models[i]);
		pthread_create(&threads[i], NULL, run_job, &jobs[i]);
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(threads[i], NULL);
		opver_interpreter_destroy(jobs[i].it);
		opver_model_close(models[i]);
	}
	check(jobs[0].ok && jobs[1].ok, "two interpreters on two threads");

	opver_runtime_destroy(runtime);
	printf("threads_check: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
