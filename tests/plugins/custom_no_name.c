/* custom_no_name.c - an unnamed CUSTOM kernel without a custom_name:
 * refused, and the message names the kernel by its index. */
#include "common.h"

static const opver_kernel valid = {
	TEST_KERNEL("valid", OPVER_OP_ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel nameless = {
	TEST_KERNEL(NULL, OPVER_OP_CUSTOM, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &valid, &nameless };

TEST_PLUGIN("custom_no_name", kernels)
