/* unnamed_kernel.c - a builtin kernel without a name: refused, since
 * names identify kernels in messages and --explain. */
#include "common.h"

static const opver_kernel unnamed = {
	OPVER_KERNEL(NULL, ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &unnamed };

TEST_PLUGIN("unnamed_kernel", kernels)
