/*
 * trace_writer.h - opver-run --profile: a Chrome trace (the JSON "Trace
 * Event Format" that Perfetto and chrome://tracing open) of every invoke.
 * The library hands each node's, partition's, profile event's and
 * parallel_for thread's interval to trace_writer_event (the interpreter's
 * trace callback); each becomes one complete ("ph": "X") event, in
 * microseconds since the trace was opened, on the pool thread it ran on
 * (tid 0 the invoking thread, 1 and up the workers), with the node, the
 * partition and the invoke it belongs to in its args.
 */
#ifndef OPVER_TOOLS_TRACE_WRITER_H
#define OPVER_TOOLS_TRACE_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <opver/opver.h>

#include "json_writer.h"

typedef struct trace_writer {
	FILE *file;                     /* owned */
	const char *path;               /* borrowed */
	json_writer json;
	uint64_t origin_ns;             /* CLOCK_MONOTONIC at open */
	/* Each node's info, for its name; owned, the strings borrowed from
	 * the interpreter.  NULL until trace_writer_set_nodes. */
	opver_node_info *nodes;
	size_t num_nodes;
	/* The invoke running: 0 for the first. */
	uint64_t invoke;
	bool started;                   /* an invoke has begun */
} trace_writer;

/* Creates `path` (borrowed; must outlive the writer) and starts the
 * document.  false, with the reason on stderr, when it cannot. */
bool trace_writer_open(trace_writer *t, const char *path);

/* Reads the interpreter's nodes for the events' names; call after
 * creating it, before the first invoke.  false when memory runs out. */
bool trace_writer_set_nodes(trace_writer *t,
			    const opver_interpreter *interpreter);

/* Marks the start of the next invoke. */
void trace_writer_next_invoke(trace_writer *t);

/* The interpreter's opver_trace_fn; user_data is the trace_writer. */
void trace_writer_event(void *user_data, const opver_trace_event *event);

/* Ends the document and closes the file; false, with the reason on
 * stderr, when writing failed.  Frees what the writer owns. */
bool trace_writer_close(trace_writer *t);

/* Frees and closes without finishing the document (after a failure). */
void trace_writer_abandon(trace_writer *t);

#endif /* OPVER_TOOLS_TRACE_WRITER_H */
