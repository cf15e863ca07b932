/* duplicate_names.c - two kernels, for different ops, with one name:
 * refused, since a name must say which kernel ran a node. */
#include "common.h"

static const opver_kernel add = {
	OPVER_KERNEL("same", ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel mul = {
	OPVER_KERNEL("same", MUL, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add, &mul };

TEST_PLUGIN("duplicate_names", kernels)
