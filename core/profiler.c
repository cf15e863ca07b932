/* profiler.c - recording and totalling profile events. */
#include <stdlib.h>
#include <time.h>

#include "profiler.h"
#include "session.h"

uint64_t opver__now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* The event for (step, parent, name), appended when new; -1 when memory
 * runs out. */
static int32_t find_or_add(opver__profiler *profiler, const opver__call *call,
			   int32_t parent, const char *name)
{
	opver__profile_event *grown, *event;

	for (size_t i = profiler->num_events; i-- > 0;) {
		event = &profiler->events[i];
		if (event->step == call->step && event->parent == parent &&
		    event->name == name)
			return (int32_t)i;
	}
	if (profiler->num_events >= INT32_MAX)
		return -1;
	grown = realloc(profiler->events,
			(profiler->num_events + 1) * sizeof(*grown));
	if (grown == NULL)
		return -1;
	profiler->events = grown;
	event = &grown[profiler->num_events];
	event->step = call->step;
	event->node = call->node_index;
	event->partition = call->partition_index;
	event->parent = parent;
	event->depth = (int32_t)profiler->depth;
	event->name = name;
	event->total_ns = 0;
	event->count = 0;
	return (int32_t)profiler->num_events++;
}

uint32_t opver__service_profile_begin(const opver_context *ctx,
				      const char *name)
{
	const opver__session *session = opver__session_of(ctx);
	opver__profiler *profiler;
	int32_t parent, event;

	if (session == NULL || session->profiler == NULL ||
	    session->phase != OPVER__PHASE_INVOKE || name == NULL)
		return 0;
	profiler = session->profiler;
	if (profiler->depth == OPVER__PROFILE_MAX_DEPTH)
		return 0;
	parent = profiler->depth > 0 ? profiler->open[profiler->depth - 1] : -1;
	event = find_or_add(profiler, opver__call_of(ctx), parent, name);
	if (event < 0)
		return 0;
	profiler->open[profiler->depth] = event;
	profiler->started[profiler->depth] = opver__now_ns();
	profiler->depth++;
	/* The handle is the depth it opened at, 1-based. */
	return profiler->depth;
}

void opver__profiler_trace(const opver__profiler *profiler,
			   opver_trace_event *event)
{
	event->struct_size = sizeof(*event);
	profiler->trace(profiler->trace_user_data, event);
}

/* Ends the events open at depth `handle` and inside it. */
static void end_from(opver__profiler *profiler, uint32_t handle)
{
	uint64_t now = opver__now_ns();

	while (profiler->depth >= handle) {
		uint32_t top = profiler->depth - 1;
		opver__profile_event *event =
			&profiler->events[profiler->open[top]];

		event->total_ns += now - profiler->started[top];
		event->count++;
		profiler->depth--;
		if (profiler->trace != NULL)
			opver__profiler_trace(profiler, &(opver_trace_event){
				.kind = OPVER_TRACE_EVENT,
				.node = event->node,
				.partition = event->partition,
				.depth = event->depth,
				.start_ns = profiler->started[top],
				.duration_ns = now - profiler->started[top],
				.name = event->name,
			});
	}
}

void opver__service_profile_end(const opver_context *ctx, uint32_t handle)
{
	const opver__session *session = opver__session_of(ctx);

	if (handle == 0 || session == NULL || session->profiler == NULL ||
	    handle > session->profiler->depth)
		return;
	end_from(session->profiler, handle);
}

void opver__profiler_end_step(opver__profiler *profiler)
{
	if (profiler->depth > 0)
		end_from(profiler, 1);
}

void opver__profile_event_describe(const opver__profiler *profiler,
				   size_t index, opver_profile_event_info *info)
{
	const opver__profile_event *event = &profiler->events[index];

	info->node = event->node;
	info->partition = event->partition;
	info->depth = event->depth;
	info->total_ns = event->total_ns;
	info->count = event->count;
	info->name = event->name;
}

void opver__profiler_free(opver__profiler *profiler)
{
	free(profiler->events);
	profiler->events = NULL;
	profiler->num_events = 0;
}
