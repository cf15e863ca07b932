/* kernel_small.c - a kernel whose struct_size stops before prepare and
 * invoke, fields of ABI 2.0: refused, though the callbacks are there. */
#include "common.h"

static const opver_kernel short_kernel = {
	.struct_size = offsetof(opver_kernel, prepare),
	.name = "short",
	.op = OPVER_OP_ADD,
	.min_version = 1,
	.max_version = 1,
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &short_kernel };

TEST_PLUGIN("kernel_small", kernels)
