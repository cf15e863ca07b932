/* bare.c - a valid plugin whose descriptor gives no name, vendor or
 * version: it loads, and is described by its config name and "". */
#include "common.h"

static const opver_kernel add = {
	TEST_KERNEL("add", OPVER_OP_ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	TEST_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
