/*
 * opver_run_benchmark.c - opver-run --benchmark: one warm-up run, then
 * timed runs; setup (interpreter creation, --input-shape's allocation,
 * the first run), latency, the
 * time per node and per profile event, and the summary by op type
 * (opver_run_op_summary.c), as text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "opver_run.h"

double run_now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Reads every node's profile counters.  Read after the warm-up and after
 * the timed runs, their difference covers the timed runs only. */
static int read_nodes(struct session *s, opver_node_info *nodes, size_t count)
{
	opver_status status;

	for (size_t i = 0; i < count; i++) {
		status = opver_interpreter_node_info(s->interpreter, i,
						     &nodes[i]);
		if (status != OPVER_OK)
			return run_fail(s, EXIT_RUN_FAILED, s->cmd.model,
					status);
	}
	return EXIT_SUCCESS;
}

/* Totals of one profile event after the warm-up run, to subtract. */
struct event_totals {
	uint64_t total_ns;
	uint64_t count;
};

/* The profile events kernels and delegates reported inside node `node`,
 * below its row: name, average ms per call over the timed runs. */
static void report_events(struct session *s, int32_t node,
			  const struct event_totals *before, size_t num_before)
{
	size_t count = opver_interpreter_profile_event_count(s->interpreter);
	json_writer *w = &s->json;
	opver_profile_event_info event;

	if (s->cmd.json) {
		json_key(w, "events");
		json_begin_array(w);
	}
	for (size_t i = 0; i < count; i++) {
		uint64_t calls, ns;

		if (opver_interpreter_profile_event_info(s->interpreter, i,
							 &event) != OPVER_OK ||
		    event.node != node)
			continue;
		calls = event.count - (i < num_before ? before[i].count : 0);
		ns = event.total_ns - (i < num_before ? before[i].total_ns : 0);
		if (s->cmd.json) {
			json_begin_object(w);
			json_key(w, "name");
			json_string(w, event.name);
			json_key(w, "depth");
			json_int(w, event.depth);
			json_key(w, "invocations");
			json_uint(w, calls);
			json_key(w, "average_ms");
			if (calls)
				json_double(w, (double)ns / (double)calls / 1e6);
			else
				json_null(w);
			json_end_object(w);
		} else if (calls) {
			printf("      %*s%-*s %.6f\n", 2 * event.depth, "",
			       22 - 2 * event.depth, event.name,
			       (double)ns / (double)calls / 1e6);
		}
	}
	if (s->cmd.json)
		json_end_array(w);
}

static int report_benchmark(struct session *s, double first_ms,
			     const double *sorted_ms,
			     const opver_node_info *before,
			     const opver_node_info *after, size_t nodes,
			     const struct event_totals *events_before,
			     size_t num_events_before)
{
	size_t runs = s->cmd.benchmark_runs;
	double median = runs % 2 ? sorted_ms[runs / 2] :
			(sorted_ms[runs / 2 - 1] + sorted_ms[runs / 2]) / 2;
	bool zero_filled = s->cmd.num_inputs == 0 &&
			   opver_interpreter_input_count(s->interpreter) > 0;
	uint32_t threads = opver_interpreter_threads(s->interpreter);
	json_writer *w = &s->json;
	char op[96];
	int status;

	if (s->cmd.json) {
		json_key(w, "benchmark");
		json_begin_object(w);
		json_key(w, "runs");
		json_uint(w, runs);
		json_key(w, "warmup_runs");
		json_int(w, 1);
		json_key(w, "zero_filled_inputs");
		json_bool(w, zero_filled);
		json_key(w, "threads");
		json_uint(w, threads);
		/* Setup, delegates' included: creating the interpreter
		 * (partitions prepared), then the warm-up run. */
		json_key(w, "interpreter_create_ms");
		json_double(w, s->create_ms);
		/* --input-shape's re-prepare, partitions re-created. */
		if (s->allocate_ms >= 0) {
			json_key(w, "allocate_tensors_ms");
			json_double(w, s->allocate_ms);
		}
		json_key(w, "first_invoke_ms");
		json_double(w, first_ms);
		json_key(w, "latency_ms");
		json_begin_object(w);
		json_key(w, "median");
		json_double(w, median);
		json_key(w, "min");
		json_double(w, sorted_ms[0]);
		json_key(w, "max");
		json_double(w, sorted_ms[runs - 1]);
		json_end_object(w);
		json_key(w, "nodes");
		json_begin_array(w);
	} else {
		printf("benchmark: %zu run%s after 1 warm-up%s; %u thread%s\n"
		       "setup: interpreter creation %.6f ms, ",
		       runs, runs == 1 ? "" : "s",
		       zero_filled ? ", inputs zero-filled" : "",
		       (unsigned)threads, threads == 1 ? "" : "s",
		       s->create_ms);
		if (s->allocate_ms >= 0)
			printf("allocate_tensors after --input-shape %.6f ms, ",
			       s->allocate_ms);
		printf("first invoke %.6f ms\n"
		       "latency: median %.6f ms, min %.6f ms, max %.6f ms\n"
		       "node  %-24s average ms\n",
		       first_ms, median, sorted_ms[0], sorted_ms[runs - 1],
		       "op");
	}
	for (size_t i = 0; i < nodes; i++) {
		const opver_node_info *node = &after[i];
		uint64_t calls = node->invocations - before[i].invocations;
		double average = calls ? (double)(node->total_ns -
						  before[i].total_ns) /
						 (double)calls / 1e6 : 0;

		if (s->cmd.json) {
			json_begin_object(w);
			json_key(w, "index");
			json_int(w, node->index);
			json_key(w, "op");
			json_string(w, opver_op_name(node->op));
			json_key(w, "custom_name");
			json_string(w, node->custom_name);
			json_key(w, "invocations");
			json_uint(w, calls);
			/* null for a node without its own profile. */
			json_key(w, "average_ms");
			if (calls)
				json_double(w, average);
			else
				json_null(w);
			report_events(s, node->index, events_before,
				      num_events_before);
			json_end_object(w);
		} else {
			run_format_op(node->op, node->custom_name, op,
				      sizeof(op));
			if (calls)
				printf("%4d  %-24s %.6f\n", node->index, op,
				       average);
			else
				printf("%4d  %-24s -\n", node->index, op);
			report_events(s, node->index, events_before,
				      num_events_before);
		}
	}
	if (s->cmd.json)
		json_end_array(w);
	else
		putchar('\n');
	status = run_op_summary(s, before, after, nodes);
	if (s->cmd.json)
		json_end_object(w);
	return status;
}

/* Snapshots the profile events' totals into a new array; NULL (and 0)
 * when there are none or memory runs out, which shows warm-up time. */
static struct event_totals *read_events(struct session *s, size_t *count)
{
	struct event_totals *totals;
	opver_profile_event_info event;

	*count = opver_interpreter_profile_event_count(s->interpreter);
	totals = calloc(*count + 1, sizeof(*totals));
	if (totals == NULL) {
		*count = 0;
		return NULL;
	}
	for (size_t i = 0; i < *count; i++) {
		if (opver_interpreter_profile_event_info(s->interpreter, i,
							 &event) != OPVER_OK)
			continue;
		totals[i].total_ns = event.total_ns;
		totals[i].count = event.count;
	}
	return totals;
}

int run_benchmark(struct session *s)
{
	size_t runs = s->cmd.benchmark_runs;
	size_t nodes = opver_interpreter_node_count(s->interpreter);
	opver_node_info *before, *after;
	struct event_totals *events_before = NULL;
	size_t num_events_before = 0;
	double start, first_ms = 0, *ms;
	int status;

	ms = malloc(runs * sizeof(*ms));
	before = calloc(nodes + 1, sizeof(*before));
	after = calloc(nodes + 1, sizeof(*after));
	if (ms == NULL || before == NULL || after == NULL) {
		fputs("opver-run: out of memory for the benchmark\n", stderr);
		status = EXIT_RUN_FAILED;
		goto out;
	}
	start = run_now_ms();
	status = run_invoke(s);
	first_ms = run_now_ms() - start;
	if (status == EXIT_SUCCESS) {
		status = read_nodes(s, before, nodes);
		events_before = read_events(s, &num_events_before);
	}
	for (size_t i = 0; i < runs && status == EXIT_SUCCESS; i++) {
		start = run_now_ms();
		status = run_invoke(s);
		ms[i] = run_now_ms() - start;
	}
	if (status == EXIT_SUCCESS)
		status = read_nodes(s, after, nodes);
	if (status == EXIT_SUCCESS) {
		qsort(ms, runs, sizeof(*ms), compare_doubles);
		status = report_benchmark(s, first_ms, ms, before, after,
					  nodes, events_before,
					  num_events_before);
	}
out:
	free(events_before);
	free(ms);
	free(before);
	free(after);
	return status;
}
