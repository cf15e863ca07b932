/* bare.c - a valid plugin whose descriptor gives no name, vendor or
 * version: it loads, and is described by its config name and "". */
#include "common.h"

static const opver_kernel add = {
	OPVER_KERNEL("add", ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	OPVER_PLUGIN_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
