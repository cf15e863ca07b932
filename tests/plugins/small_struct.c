/* small_struct.c - a descriptor whose struct_size stops before the 1.0
 * fields end: refused without reading past it. */
#include "common.h"

static const opver_plugin plugin = {
	.abi_major = OPVER_ABI_MAJOR,
	.abi_minor = 0,
	.struct_size = offsetof(opver_plugin, kernels),
	.name = "small_struct",
};

TEST_PLUGIN_ENTRY(plugin)
