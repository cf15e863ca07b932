/* abi_minor.c - built against the next ABI minor and needing it
 * (min_abi_minor above the core's minor): refused, naming both versions.
 * Everything else is valid. */
#include "common.h"

static const opver_kernel add = {
	OPVER_KERNEL("add", ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add };

static const opver_plugin plugin = {
	.abi_major = OPVER_ABI_MAJOR,
	.abi_minor = OPVER_ABI_MINOR + 1,
	.min_abi_minor = OPVER_ABI_MINOR + 1,
	.struct_size = sizeof(opver_plugin),
	.name = "abi_minor",
	OPVER_PLUGIN_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
