/* version_zero.c - a kernel claiming op version 0 (versions start at 1). */
#include "common.h"

static const opver_kernel zero = {
	TEST_KERNEL("zero", OPVER_OP_ADD, 0, 2),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &zero };

TEST_PLUGIN("version_zero", kernels)
