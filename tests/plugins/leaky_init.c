/*
 * leaky_init.c - a valid plugin whose init mallocs 4 KiB on every load and
 * which has no fini to free it: each load leaks the block.
 */
#include <stdlib.h>

#include "common.h"

#define LEAKED_BYTES 4096

static opver_status leaky_init(const opver_context *ctx,
			       const opver_option *options,
			       uint32_t num_options, void **plugin_data)
{
	(void)ctx;
	(void)options;
	(void)num_options;
	*plugin_data = malloc(LEAKED_BYTES);
	return *plugin_data != NULL ? OPVER_OK : OPVER_ERROR_NOMEM;
}

static const opver_kernel add = {
	OPVER_KERNEL("add", ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "leaky_init",
	.vendor = "opver tests",
	.version = "1",
	.init = leaky_init,
	OPVER_PLUGIN_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
