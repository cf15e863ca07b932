/* event_names.c - profile event names kept for the plugin's lifetime,
 * found by node index so that naming a model's nodes is linear. */
#include <stdio.h>
#include <string.h>

#include "event_names.h"

/* "node 2147483647 " and the longest op name fit. */
#define NAME_BYTES 64

struct xp_named_node {
	int32_t op;
	struct xp_named_node *next;     /* another op at this node index */
	char name[NAME_BYTES];
};

void xp_event_names_init(xp_event_names *names)
{
	pthread_mutex_init(&names->lock, NULL);
	names->by_node = NULL;
	names->capacity = 0;
}

void xp_event_names_free(const opver_context *ctx, xp_event_names *names)
{
	for (size_t i = 0; i < names->capacity; i++) {
		xp_named_node *entry = names->by_node[i];

		while (entry != NULL) {
			xp_named_node *next = entry->next;

			ctx->host->free_memory(ctx, entry);
			entry = next;
		}
	}
	ctx->host->free_memory(ctx, names->by_node);
	pthread_mutex_destroy(&names->lock);
}

/* Makes room for node index `index`; false when memory runs out. */
static bool reach(const opver_context *ctx, xp_event_names *names,
		  size_t index)
{
	size_t capacity = names->capacity > 0 ? names->capacity : 64;
	xp_named_node **grown;

	if (index < names->capacity)
		return true;
	while (capacity <= index)
		capacity *= 2;
	grown = ctx->host->allocate(ctx, capacity * sizeof(*grown));
	if (grown == NULL)
		return false;
	memset(grown, 0, capacity * sizeof(*grown));
	if (names->capacity > 0)
		memcpy(grown, names->by_node,
		       names->capacity * sizeof(*grown));
	ctx->host->free_memory(ctx, names->by_node);
	names->by_node = grown;
	names->capacity = capacity;
	return true;
}

const char *xp_event_name(const opver_context *ctx, xp_event_names *names,
			  const opver_node *node)
{
	size_t index = (size_t)node->index;
	xp_named_node *entry = NULL;

	pthread_mutex_lock(&names->lock);
	if (reach(ctx, names, index)) {
		entry = names->by_node[index];
		while (entry != NULL && entry->op != node->op)
			entry = entry->next;
	}
	if (entry == NULL && index < names->capacity) {
		entry = ctx->host->allocate(ctx, sizeof(*entry));
		if (entry != NULL) {
			entry->op = node->op;
			(void)snprintf(entry->name, sizeof(entry->name),
				       "node %d %s", (int)node->index,
				       ctx->host->op_name(node->op));
			entry->next = names->by_node[index];
			names->by_node[index] = entry;
		}
	}
	pthread_mutex_unlock(&names->lock);
	return entry != NULL ? entry->name : NULL;
}
