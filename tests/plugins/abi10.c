/*
 * abi10.c - a plugin as built against ABI 1.0: abi_minor 0 and every
 * struct_size the size of the 1.0 struct, which a 1.x core keeps loading.
 */
#include "common.h"

static const opver_kernel relu = {
	.struct_size = TEST_KERNEL_SIZE_1_0,
	.name = "relu",
	.op = OPVER_OP_RELU,
	.min_version = 1,
	.max_version = 2,
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &relu };

static const opver_plugin plugin = {
	.abi_major = 1,
	.abi_minor = 0,
	.struct_size = TEST_PLUGIN_SIZE_1_0,
	.name = "abi10",
	TEST_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
