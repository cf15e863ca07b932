/*
 * opver_import.c - calls libopver's opver_status_name() instead of going
 * through the host table, as a plugin linked against libopver would.
 * Built without -no-undefined, so the symbol stays an undefined import.
 */
#include "common.h"

/* Declared here, as the plugin header has no host API. */
const char *opver_status_name(opver_status status);

static opver_status log_status(const opver_context *ctx, opver_node *node)
{
	(void)node;
	OPVER_LOG(ctx, OPVER_LOG_DEBUG, "%s", opver_status_name(OPVER_OK));
	return OPVER_OK;
}

static const opver_kernel add = {
	OPVER_KERNEL("add", ADD, 1, 1),
	.prepare = log_status,
	.invoke = test_invoke,
};
static const opver_kernel *const kernels[] = { &add };

TEST_PLUGIN("opver_import", kernels)
