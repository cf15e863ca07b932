/* init_no_free.c - a kernel with init but no free: what init makes would
 * leak. */
#include "common.h"

static opver_status make_nothing(const opver_context *ctx,
				 void **kernel_data)
{
	(void)ctx;
	*kernel_data = NULL;
	return OPVER_OK;
}

static const opver_kernel leaky = {
	OPVER_KERNEL("leaky", ADD, 1, 1),
	TEST_CALLBACKS,
	.init = make_nothing,
};
static const opver_kernel *const kernels[] = { &leaky };

TEST_PLUGIN("init_no_free", kernels)
