/* small_struct.c - a descriptor whose struct_size stops before the 2.0
 * fields end (before the manifest): refused without reading past it. */
#include "common.h"

static const opver_plugin plugin = {
	.abi_major = OPVER_ABI_MAJOR,
	.abi_minor = OPVER_ABI_MINOR,
	.min_abi_minor = OPVER_ABI_MINOR,
	.struct_size = offsetof(opver_plugin, kernels),
	.name = "small_struct",
};

TEST_PLUGIN_ENTRY(plugin)
