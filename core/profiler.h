/*
 * profiler.h - the profile events kernels and delegates report inside
 * their node or partition (profile_begin/profile_end).
 *
 * Attached to an interpreter only when its options ask for a profiler or
 * a trace; without one the services return at once.  Events are totalled
 * per (plan step, enclosing event, name), in the order first reported, so
 * an event always follows the one enclosing it.  With a trace callback,
 * each event's interval is also passed to it as it ends.
 */
#ifndef OPVER_CORE_PROFILER_H
#define OPVER_CORE_PROFILER_H

#include <stddef.h>
#include <stdint.h>

#include "opver/opver.h"
#include "opver/plugin.h"

/* How deeply events may nest; deeper ones are not recorded. */
#define OPVER__PROFILE_MAX_DEPTH 16

typedef struct opver__profile_event {
	int32_t step;
	int32_t node;           /* the node, or the partition's first node */
	int32_t partition;      /* -1 for a kernel's event */
	int32_t parent;         /* enclosing event, or -1 */
	int32_t depth;
	const char *name;       /* borrowed from the plugin */
	uint64_t total_ns;
	uint64_t count;
} opver__profile_event;

typedef struct opver__profiler {
	opver__profile_event *events;   /* owned; num_events */
	size_t num_events;
	/* The events open now, innermost last, with their start times. */
	int32_t open[OPVER__PROFILE_MAX_DEPTH];
	uint64_t started[OPVER__PROFILE_MAX_DEPTH];
	uint32_t depth;
	/* opver_interpreter_options.trace and its user data; trace is NULL
	 * when no trace is asked for. */
	opver_trace_fn trace;
	void *trace_user_data;
} opver__profiler;

/* Passes *event, struct_size set here, to the profiler's trace callback,
 * which must be set. */
void opver__profiler_trace(const opver__profiler *profiler,
			   opver_trace_event *event);

/* The services of opver_host this module implements. */
uint32_t opver__service_profile_begin(const opver_context *ctx,
				      const char *name);
void opver__service_profile_end(const opver_context *ctx, uint32_t handle);

/* Ends what a plugin left open when its node or partition returns. */
void opver__profiler_end_step(opver__profiler *profiler);

/* Describes event `index` into *info (the fields of the public struct). */
void opver__profile_event_describe(const opver__profiler *profiler,
				   size_t index, opver_profile_event_info *info);

/* Frees the events.  Safe on a zeroed profiler. */
void opver__profiler_free(opver__profiler *profiler);

/* Nanoseconds of a monotonic clock. */
uint64_t opver__now_ns(void);

#endif /* OPVER_CORE_PROFILER_H */
