/*
 * common.h - what the test plugins share: callbacks that succeed, a
 * delegate claim's identity fields, the standard descriptor and the entry
 * point.  Kernels are declared with plugin.h's own OPVER_KERNEL and
 * OPVER_KERNEL_SIGNATURES, as a vendor would.  Each loader test plugin
 * differs from a valid one in the single way its file's comment names.
 */
#ifndef OPVER_TEST_PLUGIN_COMMON_H
#define OPVER_TEST_PLUGIN_COMMON_H

#include <opver/plugin.h>

/* The size of each struct in ABI 2.0, written out here rather than taken
 * from the core, so the tests do not just mirror the loader. */
#define TEST_PLUGIN_SIZE_2_0 \
	(offsetof(opver_plugin, delegate) + sizeof(const opver_delegate *))
#define TEST_KERNEL_SIZE_2_0 \
	(offsetof(opver_kernel, invoke) + sizeof(void (*)(void)))

static inline opver_status test_prepare(const opver_context *ctx,
					opver_node *node)
{
	(void)ctx;
	(void)node;
	return OPVER_OK;
}

static inline opver_status test_invoke(const opver_context *ctx,
				       opver_node *node)
{
	(void)ctx;
	(void)node;
	return OPVER_OK;
}

/* prepare and invoke that do nothing and succeed. */
#define TEST_CALLBACKS .prepare = test_prepare, .invoke = test_invoke

/* A delegate's typed claim: struct_size, op and version range min..max,
 * as OPVER_KERNEL gives a kernel's (plugin.h has no such macro). */
#define TEST_DELEGATE_OP(op_name, min, max)                               \
	.struct_size = sizeof(opver_delegate_op), .op = OPVER_OP_##op_name, \
	.min_version = (min), .max_version = (max)

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
		OPVER_PLUGIN_KERNELS(kernel_array),     \
	};                                              \
	TEST_PLUGIN_ENTRY(test_plugin)

#endif /* OPVER_TEST_PLUGIN_COMMON_H */
