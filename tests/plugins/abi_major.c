/* abi_major.c - a descriptor for the next ABI major (3, against a 2.x
 * core), through the 2.x entry point: refused, naming both ABIs. */
#include "common.h"

static const opver_plugin plugin = {
	.abi_major = OPVER_ABI_MAJOR + 1,
	.abi_minor = 0,
	.min_abi_minor = 0,
	.struct_size = sizeof(opver_plugin),
	.name = "abi_major",
};

TEST_PLUGIN_ENTRY(plugin)
