/* trace_writer.c - a Chrome trace of every invoke, written as it runs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "opver_run.h"
#include "trace_writer.h"

/* What each kind of interval is called in the trace's "cat". */
static const char *const categories[] = {
	[OPVER_TRACE_NODE] = "node",
	[OPVER_TRACE_PARTITION] = "partition",
	[OPVER_TRACE_EVENT] = "event",
	[OPVER_TRACE_TASKS] = "parallel_for",
};

bool trace_writer_open(trace_writer *t, const char *path)
{
	struct timespec now;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->file = fopen(path, "w");
	if (t->file == NULL) {
		fprintf(stderr, "opver-run: cannot create %s: %s\n", path,
			strerror(errno));
		return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	t->origin_ns = (uint64_t)now.tv_sec * 1000000000u +
		       (uint64_t)now.tv_nsec;
	json_init(&t->json, t->file);
	json_begin_object(&t->json);
	json_key(&t->json, "displayTimeUnit");
	json_string(&t->json, "ms");
	json_key(&t->json, "traceEvents");
	json_begin_array(&t->json);
	return true;
}

/* A metadata event naming thread `tid` (or, with tid -1, the process) in
 * Perfetto's and chrome://tracing's track list. */
static void name_track(trace_writer *t, const char *what, int64_t tid,
		       const char *name)
{
	json_writer *w = &t->json;

	json_begin_object(w);
	json_key(w, "name");
	json_string(w, what);
	json_key(w, "ph");
	json_string(w, "M");
	json_key(w, "pid");
	json_int(w, 1);
	if (tid >= 0) {
		json_key(w, "tid");
		json_int(w, tid);
	}
	json_key(w, "args");
	json_begin_object(w);
	json_key(w, "name");
	json_string(w, name);
	json_end_object(w);
	json_end_object(w);
}

bool trace_writer_set_nodes(trace_writer *t,
			    const opver_interpreter *interpreter)
{
	uint32_t threads = opver_interpreter_threads(interpreter);
	char name[48];

	name_track(t, "process_name", -1, "opver-run");
	name_track(t, "thread_name", 0, "invoke (calling thread)");
	for (uint32_t tid = 1; tid < threads; tid++) {
		snprintf(name, sizeof(name), "pool worker %u", tid);
		name_track(t, "thread_name", tid, name);
	}
	t->num_nodes = opver_interpreter_node_count(interpreter);
	t->nodes = calloc(t->num_nodes + 1, sizeof(*t->nodes));
	if (t->nodes == NULL) {
		fputs("opver-run: out of memory for the trace\n", stderr);
		return false;
	}
	for (size_t i = 0; i < t->num_nodes; i++)
		if (opver_interpreter_node_info(interpreter, i,
						&t->nodes[i]) != OPVER_OK)
			return false;
	return true;
}

void trace_writer_next_invoke(trace_writer *t)
{
	if (t->started)
		t->invoke++;
	t->started = true;
}

/* The event's name: the node's op, "DELEGATE(name)" for a partition,
 * the plugin's name for a profile event, "parallel_for" for a thread's
 * tasks. */
static const char *event_name(const trace_writer *t,
			      const opver_trace_event *event, char *text,
			      size_t text_size)
{
	const opver_node_info *node =
		event->node >= 0 && (size_t)event->node < t->num_nodes ?
			&t->nodes[event->node] : NULL;

	if (event->kind == OPVER_TRACE_EVENT)
		return event->name != NULL ? event->name : "";
	if (event->kind == OPVER_TRACE_TASKS)
		return "parallel_for";
	if (node == NULL)
		return "";
	if (event->kind == OPVER_TRACE_PARTITION)
		snprintf(text, text_size, "DELEGATE(%s)",
			 node->delegate != NULL ? node->delegate : "");
	else
		run_format_op(node->op, node->custom_name, text, text_size);
	return text;
}

void trace_writer_event(void *user_data, const opver_trace_event *event)
{
	trace_writer *t = user_data;
	json_writer *w = &t->json;
	char name[128];

	if (event->kind < 0 || event->kind > OPVER_TRACE_TASKS)
		return;
	json_begin_object(w);
	json_key(w, "name");
	json_string(w, event_name(t, event, name, sizeof(name)));
	json_key(w, "cat");
	json_string(w, categories[event->kind]);
	json_key(w, "ph");
	json_string(w, "X");
	json_key(w, "ts");
	json_double(w, (double)(event->start_ns - t->origin_ns) / 1e3);
	json_key(w, "dur");
	json_double(w, (double)event->duration_ns / 1e3);
	json_key(w, "pid");
	json_int(w, 1);
	json_key(w, "tid");
	json_uint(w, event->thread);
	json_key(w, "args");
	json_begin_object(w);
	json_key(w, "invoke");
	json_uint(w, t->invoke);
	json_key(w, "node");
	json_int(w, event->node);
	if (event->partition >= 0) {
		json_key(w, "partition");
		json_int(w, event->partition);
	}
	if (event->kind == OPVER_TRACE_EVENT) {
		json_key(w, "depth");
		json_int(w, event->depth);
	}
	json_end_object(w);
	json_end_object(w);
}

void trace_writer_abandon(trace_writer *t)
{
	if (t->file != NULL)
		fclose(t->file);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

bool trace_writer_close(trace_writer *t)
{
	bool ok;

	json_end_array(&t->json);
	json_end_object(&t->json);
	json_finish(&t->json);
	ok = !ferror(t->file);
	if (fclose(t->file) != 0)
		ok = false;
	t->file = NULL;
	if (!ok)
		fprintf(stderr, "opver-run: cannot write %s: %s\n", t->path,
			strerror(errno));
	trace_writer_abandon(t);
	return ok;
}
