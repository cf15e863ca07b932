/* bad_range.c - a kernel whose min_version is above its max_version. */
#include "common.h"

static const opver_kernel backwards = {
	OPVER_KERNEL("backwards", ADD, 3, 2),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &backwards };

TEST_PLUGIN("bad_range", kernels)
