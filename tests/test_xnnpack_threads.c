/*
 * test_xnnpack_threads.c - how the XNNPACK delegate runs: its operators on
 * the interpreter's threads (no thread of XNNPACK's own), each inside a
 * profile event named for its node, and on the calling thread when another
 * pthreadpool already serves XNNPACK in the process.  Through the public
 * API, on mlperf_ic_resnet_float, whose one partition is the whole model,
 * and on a test model whose two nodes XNNPACK fuses into one operator.
 * Every test skips when configure did not find XNNPACK.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime_fixture.h"
#include "tools/raw_io.h"

#define MODEL "mlperf_ic_resnet_float"
#define CASE "random_seed1"
/* test_xnnpack.c states why. */
#define RTOL 1e-5

static char path[4096];

static const char *corpus_path(const char *file)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");

	if (access(XNNPACK_PLUGIN, R_OK) != 0)
		cr_skip_test("the XNNPACK plugin was not built (configure found no XNNPACK)");
	if (dir == NULL || *dir == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return path;
}

/* Threads of this process. */
static int thread_count(void)
{
	DIR *tasks = opendir("/proc/self/task");
	struct dirent *entry;
	int count = 0;

	cr_assert_not_null(tasks);
	while ((entry = readdir(tasks)) != NULL)
		count += entry->d_name[0] != '.';
	closedir(tasks);
	return count;
}

typedef struct run {
	messages log;
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *it;
} run;

/* A runtime with the reference and XNNPACK plugins (with the XNNPACK
 * section's `options` lines) and an interpreter of `threads` threads, with
 * a profiler, over the corpus model, or the test model `test_model`. */
static void start_on(run *r, const char *options, uint32_t threads,
		     const char *test_model)
{
	char config[1024];
	opver_interpreter_options io;

	corpus_path(MODEL ".tflite");
	snprintf(config, sizeof(config),
		 "[opver]\nlog_level = info\n"
		 "[plugin.reference]\nlibrary = %s\n"
		 "[plugin.xnnpack]\nlibrary = %s\n%s",
		 REFERENCE_PLUGIN, XNNPACK_PLUGIN, options);
	r->runtime = fixture_runtime(config, &r->log);
	if (test_model != NULL)
		r->model = fixture_model(r->runtime, test_model);
	else
		cr_assert_eq(opver_model_open(r->runtime, path, &r->model),
			     OPVER_OK, "%s", r->log.text);
	opver_interpreter_options_init(&io);
	io.threads = threads;
	io.profile = 1;
	cr_assert_eq(opver_interpreter_create_with_options(r->runtime,
		     r->model, &io, &r->it), OPVER_OK, "%s", r->log.text);
}

static void start(run *r, const char *options, uint32_t threads)
{
	start_on(r, options, threads, NULL);
}

static void stop(run *r)
{
	opver_interpreter_destroy(r->it);
	opver_model_close(r->model);
	opver_runtime_destroy(r->runtime);
}

/* Invokes `times` times on the case's input and checks the output against
 * the case's golden. */
static void invoke_and_check(run *r, int times)
{
	opver_tensor expected = *opver_interpreter_output(r->it, 0);
	const opver_tensor *got = opver_interpreter_output(r->it, 0);
	float want[16];
	char error[256];

	cr_assert_eq(raw_read_tensor(corpus_path("cases/" MODEL "/" CASE
						 "/in0.raw"),
				     opver_interpreter_input(r->it, 0),
				     "input", error, sizeof(error)),
		     RAW_OK, "%s", error);
	for (int i = 0; i < times; i++)
		cr_assert_eq(opver_interpreter_invoke(r->it), OPVER_OK, "%s",
			     r->log.text);
	cr_assert_leq(got->bytes, sizeof(want));
	expected.data = want;
	cr_assert_eq(raw_read_tensor(corpus_path("cases/" MODEL "/" CASE
						 "/expected0.raw"),
				     &expected, "expected output", error,
				     sizeof(error)),
		     RAW_OK, "%s", error);
	for (size_t i = 0; i < got->bytes / sizeof(float); i++) {
		float g = ((const float *)got->data)[i];

		cr_assert(fabsf(g - want[i]) <=
				  RTOL * fmaxf(1.0f, fabsf(want[i])),
			  "output %zu: %g, expected %g", i, g, want[i]);
	}
}

Test(xnnpack_threads, operators_run_on_the_interpreters_threads)
{
	int before;
	run r;

	corpus_path(MODEL ".tflite");
	before = thread_count();
	/* The option asks for as many threads as the interpreter has: a
	 * pool of XNNPACK's own would start a thread more. */
	start(&r, "threads = 2\n", 2);
	invoke_and_check(&r, 3);
	cr_assert_eq(thread_count() - before, 1,
		     "threads started: %d, the interpreter's worker only",
		     thread_count() - before);
	stop(&r);
}

Test(xnnpack_threads, each_operator_is_a_profile_event_named_for_its_node)
{
	size_t events, nodes;
	run r;

	start(&r, "", 1);
	invoke_and_check(&r, 3);
	nodes = opver_interpreter_node_count(r.it);
	events = opver_interpreter_profile_event_count(r.it);
	/* One partition of every node; its first invoke counted the
	 * operators, the two others are in the events. */
	cr_assert_eq(events, nodes);
	for (size_t e = 0; e < events; e++) {
		opver_profile_event_info event;
		opver_node_info node;
		char name[64];

		cr_assert_eq(opver_interpreter_profile_event_info(r.it, e,
								  &event),
			     OPVER_OK);
		cr_assert_eq(opver_interpreter_node_info(r.it, e, &node),
			     OPVER_OK);
		snprintf(name, sizeof(name), "node %zu %s", e,
			 opver_op_name(node.op));
		cr_assert_str_eq(event.name, name);
		cr_assert_eq(event.partition, 0);
		cr_assert_eq(event.depth, 0);
		cr_assert_eq(event.count, 2, "%s: %llu", name,
			     (unsigned long long)event.count);
	}
	stop(&r);
}

Test(xnnpack_threads, another_pthreadpool_leaves_xnnpack_on_the_calling_thread)
{
	int before;
	run r;

	corpus_path(MODEL ".tflite");
	/* An application linking pthreadpool: XNNPACK binds to it. */
	cr_assert_not_null(dlopen("libpthreadpool.so.0",
				  RTLD_NOW | RTLD_GLOBAL), "%s", dlerror());
	before = thread_count();
	start(&r, "", 2);
	cr_assert(messages_line_has(&r.log, "XNNPACK binds to another pthreadpool in this process: its operators run on the calling thread", NULL),
		  "%s", r.log.text);
	invoke_and_check(&r, 2);
	cr_assert_eq(thread_count() - before, 1);
	cr_assert_eq(opver_interpreter_profile_event_count(r.it), 0);
	stop(&r);
}

Test(xnnpack_threads, fused_operators_share_one_event)
{
	opver_profile_event_info event;
	const opver_tensor *out;
	opver_tensor *in;
	run r;

	start_on(&r, "", 1, "fc_then_relu");
	in = opver_interpreter_input(r.it, 0);
	memcpy(in->data, (const float[]){ 2.0f, 0.0f, 1.0f }, in->bytes);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(opver_interpreter_invoke(r.it), OPVER_OK, "%s",
			     r.log.text);
	/* By hand: relu(2 + 0 + 0.5 + 0.25) and relu(-2 + 0 + 2 - 0.75). */
	out = opver_interpreter_output(r.it, 0);
	cr_assert_float_eq(((const float *)out->data)[0], 2.75f, 1e-6f);
	cr_assert_float_eq(((const float *)out->data)[1], 0.0f, 1e-6f);
	/* Two nodes, one operator: per node names would be wrong. */
	cr_assert_eq(opver_interpreter_profile_event_count(r.it), 1);
	cr_assert_eq(opver_interpreter_profile_event_info(r.it, 0, &event),
		     OPVER_OK);
	cr_assert_str_eq(event.name, "XNNPACK operators");
	cr_assert_eq(event.count, 2);
	stop(&r);
}
