/*
 * common.h - what the test plugins share: callbacks that succeed, the
 * identity fields of a kernel, the standard descriptor and the entry point.
 * Each loader test plugin differs from a valid one in the single way its
 * file's comment names.
 */
#ifndef OPVER_TEST_PLUGIN_COMMON_H
#define OPVER_TEST_PLUGIN_COMMON_H

#include <opver/plugin.h>

/* The size of each struct in ABI 1.0, written out here rather than taken
 * from the core, so the tests do not just mirror the loader. */
#define TEST_PLUGIN_SIZE_1_0 \
	(offsetof(opver_plugin, delegate) + sizeof(const opver_delegate *))
#define TEST_KERNEL_SIZE_1_0 \
	(offsetof(opver_kernel, invoke) + sizeof(void (*)(void)))

static inline opver_status test_prepare(const opver_host *host,
					opver_node *node)
{
	(void)host;
	(void)node;
	return OPVER_OK;
}

static inline opver_status test_invoke(const opver_host *host,
				       opver_node *node)
{
	(void)host;
	(void)node;
	return OPVER_OK;
}

/* A kernel's struct_size, name, op and version range min..max. */
#define TEST_KERNEL(kernel_name, kernel_op, min, max)                  \
	.struct_size = sizeof(opver_kernel), .name = (kernel_name),    \
	.op = (kernel_op), .min_version = (min), .max_version = (max)

/* prepare and invoke that do nothing and succeed. */
#define TEST_CALLBACKS .prepare = test_prepare, .invoke = test_invoke

/* The descriptor's manifest: a static array of kernel pointers. */
#define TEST_KERNELS(array) \
	.kernels = (array), .num_kernels = sizeof(array) / sizeof((array)[0])

/* The entry point, returning the descriptor `descriptor`. */
#define TEST_PLUGIN_ENTRY(descriptor) \
	OPVER_PLUGIN_ENTRY            \
	{                             \
		return &(descriptor); \
	}

/* A current-ABI descriptor named test_plugin with these kernels and no
 * init, fini or delegate, and its entry point. */
#define TEST_PLUGIN(plugin_name, kernel_array)          \
	static const opver_plugin test_plugin = {       \
		OPVER_PLUGIN_HEADER,                    \
		.name = (plugin_name),                  \
		.vendor = "opver tests",                \
		.version = "1",                         \
		TEST_KERNELS(kernel_array),             \
	};                                              \
	TEST_PLUGIN_ENTRY(test_plugin)

#endif /* OPVER_TEST_PLUGIN_COMMON_H */
