/*
 * event_names.h - names of the profile events of XNNPACK's operators
 * ("node 12 CONV_2D").  opver.h lets an application read an event's name
 * until the runtime is destroyed, so they live as long as the plugin: one
 * string per (node index, op) ever named, shared by every interpreter.
 */
#ifndef OPVER_XNNPACK_EVENT_NAMES_H
#define OPVER_XNNPACK_EVENT_NAMES_H

#include <pthread.h>
#include <stddef.h>

#include <opver/plugin.h>

typedef struct xp_named_node xp_named_node;

typedef struct xp_event_names {
	pthread_mutex_t lock;
	/* By node index: the names given to that index, one per op (models
	 * differ), each entry owned (allocate); an owned array of
	 * `capacity` list heads. */
	xp_named_node **by_node;
	size_t capacity;
} xp_event_names;

void xp_event_names_init(xp_event_names *names);
/* Frees every string; names are unusable afterwards. */
void xp_event_names_free(const opver_context *ctx, xp_event_names *names);

/* The name of `node`'s operator, or NULL when memory runs out.  Borrowed:
 * valid until xp_event_names_free.  Any thread. */
const char *xp_event_name(const opver_context *ctx, xp_event_names *names,
			  const opver_node *node);

#endif /* OPVER_XNNPACK_EVENT_NAMES_H */
