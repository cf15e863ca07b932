/*
 * test_services.c - the host services of plugin ABI 2.0, exercised by
 * the services test plugin: parallel_for on the interpreter's pool (its
 * size from the config, the options and opver-run), arena scratch, names,
 * persistent memory through a cached services table, and profile events;
 * plus plugins built against the frozen 2.0, 2.1 and 2.2 headers running a
 * model (2.2's reads its custom options through flex_map_find).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "plugins/services_stats.h"
#include "runtime_fixture.h"
#include "spawn.h"

#define SERVICES_SECTION \
	"[plugin.services]\nlibrary = " TEST_PLUGIN_DIR "/services.so\n"

static messages captured;

static void setup(void)
{
	messages_clear(&captured);
}

TestSuite(services, .init = setup);

/* An interpreter for triple_pair with these options; NULL for defaults. */
static opver_interpreter *triple_pair(opver_runtime *runtime,
				      opver_model **model,
				      const opver_interpreter_options *options)
{
	opver_interpreter *it;

	*model = fixture_model(runtime, "triple_pair");
	cr_assert_eq(opver_interpreter_create_with_options(runtime, *model,
							   options, &it),
		     OPVER_OK, "%s", captured.text);
	return it;
}

/* Invokes on x[i] = i - 50 and checks y = 9x (two TRIPLE nodes). */
static void run_and_check(opver_interpreter *it)
{
	float *x = opver_interpreter_input(it, 0)->data;
	const float *y;

	for (int i = 0; i < 100; i++)
		x[i] = (float)(i - 50);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 100; i++)
		cr_assert_float_eq(y[i], 9.0f * (float)(i - 50), 0,
				   "element %d", i);
}

Test(services, parallel_for_runs_every_task_once_on_one_thread_by_default)
{
	opver_runtime *runtime = fixture_runtime(SERVICES_SECTION, &captured);
	services_counters *stats = fixture_symbol("services", SERVICES_STATS_SYMBOL);
	opver_model *model;
	opver_interpreter *it = triple_pair(runtime, &model, NULL);

	run_and_check(it);
	cr_assert_eq(opver_interpreter_threads(it), 1);
	cr_assert_eq(stats->thread_count, 1);
	cr_assert_eq(stats->tasks_run, 100);
	cr_assert_eq(stats->threads_used[0], 1);
	cr_assert_eq(stats->threads_used[1], 0);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(services, parallel_for_uses_the_threads_the_config_asks_for)
{
	opver_runtime *runtime = fixture_runtime(
		"[opver]\nthreads = 3\n" SERVICES_SECTION, &captured);
	services_counters *stats = fixture_symbol("services", SERVICES_STATS_SYMBOL);
	opver_model *model;
	opver_interpreter *it = triple_pair(runtime, &model, NULL);

	cr_assert_eq(opver_interpreter_threads(it), 3);
	/* Every invoke runs each task once, on a thread the pool has; which
	 * threads take tasks is the scheduler's choice. */
	for (int run = 0; run < 50; run++) {
		run_and_check(it);
		cr_assert_eq(stats->thread_count, 3);
		cr_assert_eq(stats->tasks_run, 100);
		for (int t = 3; t < SERVICES_MAX_THREADS; t++)
			cr_assert_eq(stats->threads_used[t], 0, "thread %d", t);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(services, interpreter_options_override_the_config_threads)
{
	opver_runtime *runtime = fixture_runtime(
		"[opver]\nthreads = 3\n" SERVICES_SECTION, &captured);
	opver_interpreter_options options;
	opver_model *model;
	opver_interpreter *it;

	opver_interpreter_options_init(&options);
	options.threads = 2;
	it = triple_pair(runtime, &model, &options);
	cr_assert_eq(opver_interpreter_threads(it), 2);
	run_and_check(it);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(services, scratch_is_planned_in_the_arena_and_only_requested_in_prepare)
{
	opver_runtime *runtime = fixture_runtime(SERVICES_SECTION, &captured);
	services_counters *stats = fixture_symbol("services", SERVICES_STATS_SYMBOL);
	opver_model *model;
	opver_interpreter *it = triple_pair(runtime, &model, NULL);
	size_t arena, naive;

	run_and_check(it);
	/* Three 400-byte tensors and, per node, 1000 + 100 bytes of scratch
	 * (each rounded up to 64): one buffer each would be 3 * 448 + 2 *
	 * (1024 + 128).  The nodes run at different steps, so their scratch
	 * shares bytes. */
	opver_interpreter_memory(it, &arena, &naive);
	cr_assert_eq(naive, 3 * 448 + 2 * (1024 + 128));
	cr_assert_lt(arena, naive);
	cr_assert_geq(arena, 1024 + 128 + 2 * 448, "the scratch of a node and its two tensors");
	cr_assert_eq(stats->late_request_status, OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "error:", "node 1 (TRIPLE v1, kernel 'triple' of plugin 'services')",
				    "request_scratch called outside prepare", NULL),
		  "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(services, profile_events_are_recorded_only_with_a_profiler)
{
	opver_runtime *runtime = fixture_runtime(SERVICES_SECTION, &captured);
	opver_interpreter_options options;
	opver_profile_event_info event;
	opver_model *model;
	opver_interpreter *it = triple_pair(runtime, &model, NULL);

	run_and_check(it);
	cr_assert_eq(opver_interpreter_profile_event_count(it), 0);
	opver_interpreter_destroy(it);
	opver_model_close(model);

	opver_interpreter_options_init(&options);
	options.profile = 1;
	it = triple_pair(runtime, &model, &options);
	run_and_check(it);
	run_and_check(it);
	/* Per node: "triple" and inside it "scratch", each once per invoke. */
	cr_assert_eq(opver_interpreter_profile_event_count(it), 4);
	for (size_t i = 0; i < 4; i++) {
		cr_assert_eq(opver_interpreter_profile_event_info(it, i, &event),
			     OPVER_OK);
		cr_assert_eq(event.struct_size, sizeof(event));
		cr_assert_eq(event.node, (int32_t)(i / 2));
		cr_assert_eq(event.partition, -1);
		cr_assert_str_eq(event.name, i % 2 ? "scratch" : "triple");
		cr_assert_eq(event.depth, (int32_t)(i % 2));
		cr_assert_eq(event.count, 2);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* What a trace callback received, in order. */
typedef struct trace_log {
	opver_trace_event events[64];
	size_t count;
} trace_log;

static void record_trace(void *user_data, const opver_trace_event *event)
{
	trace_log *log = user_data;

	cr_assert_lt(log->count, 64);
	log->events[log->count++] = *event;
}

/* Whether a's interval lies inside b's. */
static bool inside(const opver_trace_event *a, const opver_trace_event *b)
{
	return a->start_ns >= b->start_ns &&
	       a->start_ns + a->duration_ns <= b->start_ns + b->duration_ns;
}

Test(services, trace_gets_every_interval_of_each_invoke_as_it_ends)
{
	opver_runtime *runtime = fixture_runtime(
		"[opver]\nthreads = 2\n" SERVICES_SECTION, &captured);
	opver_interpreter_options options;
	opver_model *model;
	opver_interpreter *it;
	trace_log log = { .count = 0 };

	opver_interpreter_options_init(&options);
	options.trace = record_trace;
	options.trace_user_data = &log;
	it = triple_pair(runtime, &model, &options);
	for (int run = 0; run < 2; run++) {
		size_t first = log.count, node = first, tasks = 0;
		uint32_t threads_seen = 0;

		run_and_check(it);
		/* Per node: "scratch", then a span per thread that ran tasks,
		 * then "triple", then the node; nodes in order. */
		for (int32_t n = 0; n < 2; n++) {
			const opver_trace_event *e = &log.events[node];

			cr_assert_eq(e->kind, OPVER_TRACE_EVENT);
			cr_assert_str_eq(e->name, "scratch");
			cr_assert_eq(e->depth, 1);
			while (log.events[++node].kind == OPVER_TRACE_TASKS) {
				cr_assert_eq(log.events[node].node, n);
				cr_assert_lt(log.events[node].thread, 2);
				threads_seen |= 1u << log.events[node].thread;
				tasks++;
			}
			cr_assert_eq(log.events[node].kind, OPVER_TRACE_EVENT);
			cr_assert_str_eq(log.events[node].name, "triple");
			cr_assert(inside(e, &log.events[node]));
			cr_assert_eq(log.events[++node].kind, OPVER_TRACE_NODE);
			cr_assert_eq(log.events[node].node, n);
			cr_assert_eq(log.events[node].partition, -1);
			cr_assert_eq(log.events[node].thread, 0);
			cr_assert_null(log.events[node].name);
			cr_assert_eq(log.events[node].struct_size,
				     sizeof(opver_trace_event));
			for (size_t i = first; i < node; i++)
				if (log.events[i].node == n)
					cr_assert(inside(&log.events[i],
							 &log.events[node]));
			node++;
		}
		/* Either thread may have taken every task of a node. */
		cr_assert_eq(node, log.count);
		cr_assert_geq(tasks, 2);
		cr_assert_neq(threads_seen, 0);
	}
	/* The trace attaches a profiler: the totals are kept too. */
	cr_assert_eq(opver_interpreter_profile_event_count(it), 4);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(services, benchmark_shows_profile_events_under_their_node)
{
	char config[] = "/tmp/opver-services-XXXXXX.ini";
	char model[512];
	spawn_result r;
	int fd = mkstemps(config, 4);

	cr_assert_geq(fd, 0);
	cr_assert_gt(dprintf(fd, "%s", SERVICES_SECTION), 0);
	close(fd);
	snprintf(model, sizeof(model), "%s/triple_pair.tflite", TEST_MODEL_DIR);
	spawn_run(&r, (const char *const[]){ OPVER_RUN, "--config", config,
					     "--threads", "2", "--benchmark",
					     "3", model, NULL });
	unlink(config);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "   0  CUSTOM(TRIPLE)"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\n      triple "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\n        scratch "), "%s", r.out);
	spawn_free(&r);
}

/* The 2.1 delegate computes from the memory bind_memory showed it: four
 * ADD_ONE nodes, one partition, so y = x + 4 only if the core bound it
 * to the memory it then reads and writes. */
Test(services, frozen_abi_2_1_delegate_runs_a_model_on_bound_memory)
{
	opver_runtime *runtime = fixture_runtime(
		"[plugin.frozen]\nlibrary = " TEST_PLUGIN_DIR "/frozen_abi21.so\n",
		&captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;
	opver_node_info info;
	float *x;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	x = opver_interpreter_input(it, 0)->data;
	for (int run = 1; run <= 2; run++) {
		for (int i = 0; i < 4; i++)
			x[i] = (float)(i * run) * 0.5f;
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
			     captured.text);
		y = opver_interpreter_output(it, 0)->data;
		for (int i = 0; i < 4; i++)
			cr_assert_float_eq(y[i], (float)(i * run) * 0.5f + 4.0f,
					   0, "run %d, element %d", run, i);
	}
	for (size_t n = 0; n < 4; n++) {
		cr_assert_eq(opver_interpreter_node_info(it, n, &info), OPVER_OK);
		cr_assert_str_eq(info.delegate, "bound_2_1", "node %zu", n);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* The 2.2 kernel adds the k its options hold ({"k": 2.5}), read through
 * the host's flex_map_find. */
Test(services, frozen_abi_2_2_kernel_reads_its_options_through_the_host)
{
	opver_runtime *runtime = fixture_runtime(
		"[plugin.frozen]\nlibrary = " TEST_PLUGIN_DIR "/frozen_abi22.so\n",
		&captured);
	opver_model *model = fixture_model(runtime, "add_k");
	opver_interpreter *it;
	float *x;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	x = opver_interpreter_input(it, 0)->data;
	for (int i = 0; i < 4; i++)
		x[i] = (float)i - 1.0f;
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_assert_float_eq(y[i], (float)i + 1.5f, 0, "element %d", i);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* The 2.3 kernel shapes its output like its input in prepare, as 2.3
 * requires after a resize: the model's [1, 4] input resized to [3, 2]
 * gives a [3, 2] output holding x + 2.5. */
Test(services, frozen_abi_2_3_kernel_shapes_its_output_after_a_resize)
{
	static const int32_t dims[] = { 3, 2 };
	opver_runtime *runtime = fixture_runtime(
		"[plugin.frozen]\nlibrary = " TEST_PLUGIN_DIR "/frozen_abi23.so\n",
		&captured);
	opver_model *model = fixture_model(runtime, "add_k");
	opver_interpreter *it;
	const opver_tensor *y;
	float *x;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_resize_input(it, 0, dims, 2), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	x = opver_interpreter_input(it, 0)->data;
	for (int i = 0; i < 6; i++)
		x[i] = (float)i - 1.0f;
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0);
	cr_assert_eq(y->rank, 2);
	cr_assert_eq(y->dims[0], 3);
	cr_assert_eq(y->dims[1], 2);
	for (int i = 0; i < 6; i++)
		cr_assert_float_eq(((const float *)y->data)[i], (float)i + 1.5f,
				   0, "element %d", i);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* Hostile options (a map claiming 200 values in 24 bytes) are refused at
 * prepare, with the reader's reason under the node's prefix. */
Test(services, flex_map_find_refuses_hostile_options_naming_the_node)
{
	opver_runtime *runtime = fixture_runtime(
		"[plugin.frozen]\nlibrary = " TEST_PLUGIN_DIR "/frozen_abi22.so\n",
		&captured);
	opver_model *model = fixture_model(runtime, "add_k_bad_options");
	opver_interpreter *it = NULL;

	cr_assert_neq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert_null(it);
	cr_assert(strstr(captured.text, "node 0") != NULL, "%s", captured.text);
	cr_assert(strstr(captured.text,
			 "custom options (24 bytes), looking up \"k\": a map of 200 values") != NULL,
		  "%s", captured.text);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(services, frozen_abi_2_0_plugin_runs_a_model)
{
	opver_runtime *runtime = fixture_runtime(
		"[plugin.frozen]\nlibrary = " TEST_PLUGIN_DIR "/frozen_abi20.so\n",
		&captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;
	opver_node_info info;
	float *x;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	x = opver_interpreter_input(it, 0)->data;
	for (int i = 0; i < 4; i++)
		x[i] = (float)i * 0.5f;
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_assert_float_eq(y[i], (float)i * 0.5f + 4.0f, 0, "element %d", i);
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_assert_str_eq(info.kernel, "add_one_2_0");
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}
