/* abi_minor.c - built for a newer ABI minor than the core: refused. */
#include "common.h"

static const opver_plugin plugin = {
	.abi_major = OPVER_ABI_MAJOR,
	.abi_minor = OPVER_ABI_MINOR + 1,
	.struct_size = sizeof(opver_plugin),
	.name = "abi_minor",
};

TEST_PLUGIN_ENTRY(plugin)
