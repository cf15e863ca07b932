/* null_invoke.c - a kernel without the required invoke callback. */
#include "common.h"

static const opver_kernel no_invoke = {
	OPVER_KERNEL("no_invoke", ADD, 1, 1),
	.prepare = test_prepare,
};
static const opver_kernel *const kernels[] = { &no_invoke };

TEST_PLUGIN("null_invoke", kernels)
