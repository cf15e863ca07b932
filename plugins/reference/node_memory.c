/* node_memory.c - the persistent memory and arena scratch of a node. */
#include <stdbool.h>

#include "node_memory.h"

/* count * size, or false when it overflows a size_t. */
static bool bytes_of(size_t count, size_t size, size_t *bytes)
{
	if (size != 0 && count > SIZE_MAX / size)
		return false;
	*bytes = count * size;
	return true;
}

void *ref_persistent(const opver_context *ctx, size_t count, size_t size,
		     const char *what)
{
	size_t bytes;
	void *memory = NULL;

	if (bytes_of(count, size, &bytes))
		memory = ctx->host->allocate_persistent(ctx, bytes);
	if (memory == NULL)
		OPVER_REPORT(ctx, "out of memory for %zu %s", count, what);
	return memory;
}

opver_status ref_request_scratch(const opver_context *ctx, size_t count,
				 size_t size, const char *what,
				 int32_t *index)
{
	size_t bytes;
	opver_status status = OPVER_ERROR_NOMEM;

	if (bytes_of(count, size, &bytes))
		status = ctx->host->request_scratch(ctx, bytes, index);
	if (status != OPVER_OK)
		OPVER_REPORT(ctx, "no scratch for %zu %s", count, what);
	return status;
}

void *ref_scratch(const opver_context *ctx, int32_t index)
{
	void *memory = ctx->host->scratch(ctx, index);

	if (memory == NULL)
		OPVER_REPORT(ctx, "the core has no scratch %d for this node",
			     (int)index);
	return memory;
}
