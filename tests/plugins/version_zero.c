/* version_zero.c - a kernel claiming op version 0 (versions start at 1). */
#include "common.h"

static const opver_kernel zero = {
	OPVER_KERNEL("zero", ADD, 0, 2),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &zero };

TEST_PLUGIN("version_zero", kernels)
