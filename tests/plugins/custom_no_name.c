/* custom_no_name.c - an unnamed CUSTOM kernel without a custom_name:
 * refused, and the message names the kernel by its index. */
#include "common.h"

static const opver_kernel valid = {
	OPVER_KERNEL("valid", ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel nameless = {
	OPVER_CUSTOM_KERNEL(NULL, NULL, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &valid, &nameless };

TEST_PLUGIN("custom_no_name", kernels)
