/* abi_major.c - built for the next ABI major: refused, naming both ABIs. */
#include "common.h"

static const opver_plugin plugin = {
	.abi_major = OPVER_ABI_MAJOR + 1,
	.abi_minor = 0,
	.struct_size = sizeof(opver_plugin),
	.name = "abi_major",
};

TEST_PLUGIN_ENTRY(plugin)
