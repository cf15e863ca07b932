/* event_names.c - profile event names kept for the plugin's lifetime. */
#include <stdio.h>
#include <string.h>

#include "event_names.h"

/* "node 2147483647 " and the longest op name fit. */
#define NAME_BYTES 64

void xp_event_names_init(xp_event_names *names)
{
	pthread_mutex_init(&names->lock, NULL);
	names->names = NULL;
	names->count = 0;
	names->capacity = 0;
}

void xp_event_names_free(const opver_context *ctx, xp_event_names *names)
{
	for (size_t i = 0; i < names->count; i++)
		ctx->host->free_memory(ctx, names->names[i]);
	ctx->host->free_memory(ctx, names->names);
	pthread_mutex_destroy(&names->lock);
}

/* Appends `name` (owned) to the table; false when memory runs out. */
static bool append(const opver_context *ctx, xp_event_names *names,
		   char *name)
{
	if (names->count == names->capacity) {
		size_t capacity = names->capacity > 0 ? 2 * names->capacity : 64;
		char **grown = ctx->host->allocate(ctx, capacity *
							sizeof(*grown));

		if (grown == NULL)
			return false;
		if (names->count > 0)
			memcpy(grown, names->names,
			       names->count * sizeof(*grown));
		ctx->host->free_memory(ctx, names->names);
		names->names = grown;
		names->capacity = capacity;
	}
	names->names[names->count++] = name;
	return true;
}

const char *xp_event_name(const opver_context *ctx, xp_event_names *names,
			  const opver_node *node)
{
	char wanted[NAME_BYTES];
	char *name = NULL;

	(void)snprintf(wanted, sizeof(wanted), "node %d %s", (int)node->index,
		       ctx->host->op_name(node->op));
	pthread_mutex_lock(&names->lock);
	for (size_t i = 0; i < names->count && name == NULL; i++)
		if (strcmp(names->names[i], wanted) == 0)
			name = names->names[i];
	if (name == NULL) {
		name = ctx->host->allocate(ctx, strlen(wanted) + 1);
		if (name != NULL) {
			memcpy(name, wanted, strlen(wanted) + 1);
			if (!append(ctx, names, name)) {
				ctx->host->free_memory(ctx, name);
				name = NULL;
			}
		}
	}
	pthread_mutex_unlock(&names->lock);
	return name;
}
