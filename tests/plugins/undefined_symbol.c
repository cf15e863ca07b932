/*
 * undefined_symbol.c - calls a function no library defines, so dlopen
 * with RTLD_NOW fails at load, with dlerror() naming the symbol.  Built
 * without -no-undefined.
 */
#include "common.h"

void opver_test_function_nobody_defines(void);

static opver_status call_missing(const opver_context *ctx, opver_node *node)
{
	(void)ctx;
	(void)node;
	opver_test_function_nobody_defines();
	return OPVER_OK;
}

static const opver_kernel kernel = {
	OPVER_KERNEL("missing", ADD, 1, 1),
	.prepare = test_prepare,
	.invoke = call_missing,
};
static const opver_kernel *const kernels[] = { &kernel };

TEST_PLUGIN("undefined_symbol", kernels)
