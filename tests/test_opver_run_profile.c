/*
 * test_opver_run_profile.c - opver-run --profile's Chrome trace, checked
 * as a parsed document: every event has the Trace Event Format's keys
 * and types, each node (or delegate partition) appears once per invoke,
 * node events keep their order per thread, and a node's profile events
 * and parallel_for spans lie inside it; --benchmark's summary by op type;
 * .npy inputs and outputs on corpus models.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_tree.h"
#include "opver_run_tool.h"

/* Rounding of the microsecond values the trace prints. */
#define EPSILON_US 0.002

/* A number member of `object`, asserting it is one. */
static double number(const json_value *object, const char *key)
{
	const json_value *value = json_tree_get(object, key);

	cr_assert(value != NULL && value->kind == JSON_NUMBER,
		  "event lacks number '%s'", key);
	return value->number;
}

static const char *string(const json_value *object, const char *key)
{
	const json_value *value = json_tree_get(object, key);

	cr_assert(value != NULL && value->kind == JSON_STRING,
		  "event lacks string '%s'", key);
	return value->string;
}

/* What a trace held, for the tests' own checks. */
struct trace_stats {
	size_t steps;           /* node and partition events */
	size_t inner;           /* profile events */
	size_t tasks;           /* parallel_for spans */
	size_t partitions;      /* partition events */
	unsigned threads;       /* a bit per tid seen */
	unsigned named_threads; /* a bit per tid named by metadata */
};

/* Whether inner lies inside outer. */
static bool inside(const json_value *inner, const json_value *outer)
{
	double ts = number(inner, "ts"), end = ts + number(inner, "dur");
	double outer_ts = number(outer, "ts");

	return ts >= outer_ts - EPSILON_US &&
	       end <= outer_ts + number(outer, "dur") + EPSILON_US;
}

/*
 * Checks the trace at `path` of `invokes` invokes of a model of `nodes`
 * nodes whose steps (nodes, or partitions standing for theirs, which
 * name their first node) are those with step[n] true; NULL takes the
 * steps of the first invoke, for the others to repeat.
 */
static struct trace_stats check_trace(const char *path, size_t invokes,
				      const bool *step, size_t nodes)
{
	struct trace_stats stats = { 0 };
	size_t size;
	char *text = (char *)read_file(path, &size);
	json_value *root;
	const json_value *events;
	const json_value **seen;
	double last_ts[64];

	text = realloc(text, size + 1);
	text[size] = '\0';
	root = json_tree_parse(text);
	cr_assert_not_null(root, "%s does not parse as JSON", path);
	events = json_tree_get(root, "traceEvents");
	cr_assert(events != NULL && events->kind == JSON_ARRAY);
	seen = calloc(invokes * nodes, sizeof(*seen));
	for (size_t i = 0; i < 64; i++)
		last_ts[i] = -1;
	for (size_t i = 0; i < events->count; i++) {
		const json_value *e = &events->items[i], *args;
		const char *cat;
		double tid, invoke, node;

		/* Metadata: the process's and each pool thread's name. */
		if (strcmp(string(e, "ph"), "M") == 0) {
			args = json_tree_get(e, "args");
			cr_assert(args != NULL && args->kind == JSON_OBJECT);
			string(args, "name");
			if (strcmp(string(e, "name"), "thread_name") == 0)
				stats.named_threads |=
					1u << (unsigned)number(e, "tid");
			else
				cr_assert_str_eq(string(e, "name"),
						 "process_name");
			continue;
		}
		cat = string(e, "cat");
		tid = number(e, "tid");
		string(e, "name");
		cr_assert_str_eq(string(e, "ph"), "X");
		cr_assert_geq(number(e, "ts"), 0);
		cr_assert_geq(number(e, "dur"), 0);
		number(e, "pid");
		cr_assert(tid >= 0 && tid < 64);
		stats.threads |= 1u << (unsigned)tid;
		args = json_tree_get(e, "args");
		cr_assert(args != NULL && args->kind == JSON_OBJECT);
		invoke = number(args, "invoke");
		node = number(args, "node");
		cr_assert(invoke >= 0 && invoke < (double)invokes);
		cr_assert(node >= 0 && node < (double)nodes);
		if (strcmp(cat, "node") == 0 || strcmp(cat, "partition") == 0) {
			size_t at = (size_t)invoke * nodes + (size_t)node;

			cr_assert(step == NULL || step[(size_t)node],
				  "node %g is no step", node);
			stats.partitions += strcmp(cat, "partition") == 0;
			cr_assert_null(seen[at], "node %g twice in invoke %g",
				       node, invoke);
			seen[at] = e;
			cr_assert_geq(number(e, "ts"), last_ts[(size_t)tid],
				      "node %g starts before the one before",
				      node);
			last_ts[(size_t)tid] = number(e, "ts");
			stats.steps++;
		} else {
			cr_assert(strcmp(cat, "event") == 0 ||
				  strcmp(cat, "parallel_for") == 0, "cat %s",
				  cat);
			if (strcmp(cat, "event") == 0)
				stats.inner++;
			else
				stats.tasks++;
		}
	}
	/* Every step once per invoke; the inner events inside theirs,
	 * which the library reports before it. */
	for (size_t at = 0; at < invokes * nodes; at++)
		cr_assert((step != NULL ? step[at % nodes] :
			   seen[at % nodes] != NULL) == (seen[at] != NULL),
			  "node %zu of invoke %zu: %s", at % nodes, at / nodes,
			  seen[at] != NULL ? "not a step" : "missing");
	for (size_t i = 0; i < events->count; i++) {
		const json_value *e = &events->items[i];
		const json_value *args = json_tree_get(e, "args");
		size_t at;

		if (strcmp(string(e, "ph"), "M") == 0)
			continue;
		at = (size_t)number(args, "invoke") * nodes +
		     (size_t)number(args, "node");
		cr_assert_not_null(seen[at]);
		cr_assert(inside(e, seen[at]), "event %zu (%s) outside node %g",
			  i, string(e, "name"), number(args, "node"));
	}
	free(seen);
	json_tree_free(root);
	free(text);
	return stats;
}

static void all_steps(bool *step, size_t nodes)
{
	for (size_t i = 0; i < nodes; i++)
		step[i] = true;
}

Test(opver_run, profile_traces_each_node_once_per_invoke)
{
	char model[4096], trace[128];
	bool step[64];
	struct trace_stats stats;
	spawn_result r;

	corpus_file(model, sizeof(model), "mlperf_kws_ref_model_int8.tflite");
	in_workdir(trace, sizeof(trace), "trace.json");
	/* One warm-up and two timed invokes. */
	run_tool(&r, "--config", config, "--benchmark", "2", "--profile",
		 trace, model, NULL);
	assert_status(&r, 0);
	all_steps(step, 13);
	stats = check_trace(trace, 3, step, 13);
	cr_assert_eq(stats.steps, 3 * 13);
	cr_assert_eq(stats.partitions, 0);
	spawn_free(&r);
}

Test(opver_run, profile_of_a_plain_run_is_one_invoke)
{
	char model[4096], input[4096], trace[128];
	bool step[3];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	corpus_file(input, sizeof(input), "cases/hello_world_float/x1/in0.raw");
	in_workdir(trace, sizeof(trace), "plain.json");
	run_tool(&r, "--config", config, "--profile", trace, "-i", input,
		 model, NULL);
	assert_status(&r, 0);
	all_steps(step, 3);
	cr_assert_eq(check_trace(trace, 1, step, 3).steps, 3);
	spawn_free(&r);
}

Test(opver_run, profile_shows_plugin_events_and_worker_threads)
{
	char model[512], trace[128], services[256];
	bool step[2] = { true, true };
	struct trace_stats stats;
	spawn_result r;
	FILE *file;

	in_workdir(services, sizeof(services), "services.ini");
	file = fopen(services, "w");
	cr_assert_not_null(file);
	fprintf(file, "[plugin.services]\nlibrary = %s/services.so\n",
		TEST_PLUGIN_DIR);
	cr_assert_eq(fclose(file), 0);
	snprintf(model, sizeof(model), "%s/triple_pair.tflite", TEST_MODEL_DIR);
	in_workdir(trace, sizeof(trace), "services.json");
	/* A worker that is not running when a job starts leaves its tasks
	 * to the caller (a CPU busy with other processes, as when the suite
	 * runs in parallel): some runs of 42 jobs of 100 tasks may find it
	 * off its CPU throughout. */
	for (int attempt = 0; attempt < 20; attempt++) {
		run_tool(&r, "--config", services, "--threads", "2",
			 "--benchmark", "20", "--profile", trace, model, NULL);
		assert_status(&r, 0);
		spawn_free(&r);
		stats = check_trace(trace, 21, step, 2);
		/* "triple" and "scratch" per node and invoke. */
		cr_assert_eq(stats.inner, 2 * 2 * 21);
		cr_assert_geq(stats.tasks, 2 * 21);
		cr_assert_eq(stats.named_threads, 3u, "tids 0 and 1 named");
		if (stats.threads & 2u)
			break;
	}
	cr_assert(stats.threads & 2u, "no event on the worker's tid 1");
}

Test(opver_run, profile_nests_delegate_events_in_their_partition)
{
	char model[4096], trace[128], xnnpack[256];
	struct trace_stats stats;
	spawn_result r;
	FILE *file;

	if (access(XNNPACK_PLUGIN, R_OK) != 0)
		cr_skip_test("the XNNPACK plugin was not built");
	corpus_file(model, sizeof(model), "mlperf_kws_ref_model_float32.tflite");
	in_workdir(xnnpack, sizeof(xnnpack), "xnnpack.ini");
	file = fopen(xnnpack, "w");
	cr_assert_not_null(file);
	fprintf(file, "[plugin.reference]\nlibrary = %s\n"
		      "[plugin.xnnpack]\nlibrary = %s\n",
		REFERENCE_PLUGIN, XNNPACK_PLUGIN);
	cr_assert_eq(fclose(file), 0);
	in_workdir(trace, sizeof(trace), "xnnpack.json");
	run_tool(&r, "--config", xnnpack, "--threads", "2", "--benchmark",
		 "2", "--profile", trace, model, NULL);
	assert_status(&r, 0);
	/* The delegate takes all but the convolutions, in partitions. */
	stats = check_trace(trace, 3, NULL, 13);
	cr_assert_gt(stats.partitions, 0);
	cr_assert_eq(stats.partitions % 3, 0);
	cr_assert_geq(stats.inner, stats.partitions,
		      "the delegate reports its operators");
	spawn_free(&r);
}

Test(opver_run, profile_needs_a_run)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	run_tool(&r, "--config", config, "--check", "--profile", "/dev/null",
		 model, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	spawn_free(&r);
	run_tool(&r, "--config", config, "--explain", "--profile",
		 "/dev/null", model, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	spawn_free(&r);
}

Test(opver_run, benchmark_summarises_by_op_type)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	run_tool(&r, "--config", config, "--benchmark", "2", model, NULL);
	assert_status(&r, 0);
	cr_assert_not_null(strstr(r.out, "\nop type "), "%s", r.out);
	/* Three FULLY_CONNECTED nodes are one row with all the time. */
	cr_assert_not_null(strstr(r.out, "\nFULLY_CONNECTED               3 "),
			   "%s", r.out);
	cr_assert_not_null(strstr(r.out, "100.00\n"), "%s", r.out);
	spawn_free(&r);

	run_tool(&r, "--config", config, "--benchmark", "2", "--json", model,
		 NULL);
	assert_status(&r, 0);
	{
		json_value *root = json_tree_parse(r.out);
		const json_value *types, *row;

		cr_assert_not_null(root, "%s", r.out);
		types = json_tree_get(json_tree_get(root, "benchmark"),
				      "op_types");
		cr_assert(types != NULL && types->kind == JSON_ARRAY &&
			  types->count == 1, "%s", r.out);
		row = &types->items[0];
		cr_assert_str_eq(string(row, "op"), "FULLY_CONNECTED");
		cr_assert_eq(number(row, "nodes"), 3);
		cr_assert_geq(number(row, "average_ms"), 0);
		cr_assert_float_eq(number(row, "cumulative_percent"), 100,
				   1e-9);
		/* The existing keys stay. */
		cr_assert_not_null(json_tree_get(json_tree_get(root,
							       "benchmark"),
						 "nodes"));
		json_tree_free(root);
	}
	spawn_free(&r);
}

/* ---------------------------------------------------------------- .npy */

/* Writes `data` as a version 1.0 .npy file of dtype `descr` and `shape`
 * ("(1, 96, 96, 1)"), padded as numpy pads. */
static void write_npy(const char *path, const char *descr, const char *shape,
		      const void *data, size_t bytes)
{
	char header[256];
	int length = snprintf(header, sizeof(header),
			      "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
			      descr, shape);
	unsigned char *file = malloc(256 + bytes);
	size_t at = 10;

	while ((10 + (size_t)length + 1) % 64 != 0)
		header[length++] = ' ';
	header[length++] = '\n';
	memcpy(file, "\x93NUMPY\x01\x00", 8);
	file[8] = (unsigned char)length;
	file[9] = 0;
	memcpy(file + at, header, (size_t)length);
	at += (size_t)length;
	memcpy(file + at, data, bytes);
	write_file(path, file, at + bytes);
	free(file);
}

Test(opver_run, npy_input_gives_the_raw_inputs_output)
{
	char model[4096], input[4096], npy[128], raw_out[128], npy_out[128];
	unsigned char *in, *a, *b;
	size_t in_size, a_size, b_size;
	spawn_result r;

	corpus_file(model, sizeof(model), "person_detect.tflite");
	corpus_file(input, sizeof(input), "cases/person_detect/person/in0.raw");
	in = read_file(input, &in_size);
	cr_assert_eq(in_size, 96 * 96);
	in_workdir(npy, sizeof(npy), "person.npy");
	write_npy(npy, "|i1", "(1, 96, 96, 1)", in, in_size);
	in_workdir(raw_out, sizeof(raw_out), "raw_out.raw");
	in_workdir(npy_out, sizeof(npy_out), "npy_out.npy");
	run_tool(&r, "--config", config, model, "-i", input, "-o", raw_out,
		 NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	run_tool(&r, "--config", config, model, "-i", npy, "-o", npy_out,
		 NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	a = read_file(raw_out, &a_size);
	b = read_file(npy_out, &b_size);
	/* The .npy output: numpy's header for (1, 2) int8, then the same
	 * two bytes. */
	cr_assert_eq(a_size, 2);
	cr_assert_eq(b_size, 128 + 2);
	cr_assert_eq(memcmp(b, "\x93NUMPY\x01\x00", 8), 0);
	cr_assert_not_null(memmem(b, 128, "'descr': '|i1'", 14));
	cr_assert_not_null(memmem(b, 128, "'shape': (1, 2)", 15));
	cr_assert_eq(memcmp(a, b + 128, 2), 0);
	free(b);

	/* The magic alone marks a file named without .npy. */
	in_workdir(npy, sizeof(npy), "person.bin");
	write_npy(npy, "|i1", "(1, 96, 96, 1)", in, in_size);
	in_workdir(npy_out, sizeof(npy_out), "magic_out.raw");
	run_tool(&r, "--config", config, model, "-i", npy, "-o", npy_out,
		 NULL);
	assert_status(&r, 0);
	b = read_file(npy_out, &b_size);
	cr_assert_eq(b_size, 2);
	cr_assert_eq(memcmp(a, b, 2), 0);
	free(a);
	free(b);
	free(in);
	spawn_free(&r);
}

Test(opver_run, npy_of_the_wrong_shape_or_dtype_exits_2)
{
	char model[4096], npy[128];
	float zeros[96 * 96] = { 0 };
	spawn_result r;

	corpus_file(model, sizeof(model), "person_detect.tflite");
	in_workdir(npy, sizeof(npy), "wrong.npy");
	write_npy(npy, "<f4", "(1, 96, 96)", zeros, sizeof(zeros));
	run_tool(&r, "--config", config, model, "-i", npy, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert_not_null(strstr(r.err, "wrong.npy has dtype '<f4' and shape (1, 96, 96);"),
			   "%s", r.err);
	cr_assert_not_null(strstr(r.err, "needs dtype '|i1' and shape (1, 96, 96, 1)"),
			   "%s", r.err);
	spawn_free(&r);

	write_npy(npy, "<f4", "(2, 2), 'extra': (", zeros, 16);
	run_tool(&r, "--config", config, model, "-i", npy, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	spawn_free(&r);
}
