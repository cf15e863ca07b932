/* null_kernel.c - a NULL pointer in the kernel array. */
#include "common.h"

static const opver_kernel *const kernels[] = { NULL };

TEST_PLUGIN("null_kernel", kernels)
