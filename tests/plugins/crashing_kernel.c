/*
 * crashing_kernel.c - a vendor plugin whose kernels take down the process
 * running them, for opver-conformance's crash isolation: its float32
 * RESHAPE kernel writes through a NULL pointer when the input has rank 3,
 * and its int32 RESHAPE kernel loops for ever when the input has rank 4
 * and a first dimension of 1.  Every other case they copy the input's
 * bytes to the output, as RESHAPE does (opver fixes the output's shape
 * before running), so those cases pass.
 */
#include <stdint.h>
#include <string.h>

#include "common.h"

/* Read at run time, so that the compiler can neither see that the
 * address is NULL (and drop the store) nor end the loop. */
static volatile uintptr_t null_address = 0;
static volatile int forever = 1;

static opver_status copy(opver_node *node)
{
	const opver_tensor *in = node->inputs[0];
	opver_tensor *out = node->outputs[0];

	if (out->bytes != in->bytes)
		return OPVER_ERROR_INVALID_MODEL;
	memcpy(out->data, in->data, in->bytes);
	return OPVER_OK;
}

static opver_status invoke_float32(const opver_host *host, opver_node *node)
{
	(void)host;
	if (node->inputs[0]->rank == 3)
		*(volatile float *)null_address = 1;
	return copy(node);
}

static opver_status invoke_int32(const opver_host *host, opver_node *node)
{
	const opver_tensor *in = node->inputs[0];

	(void)host;
	while (in->rank == 4 && in->dims[0] == 1 && forever)
		;
	return copy(node);
}

static const opver_type_signature float32 = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		    OPVER_TYPE_BIT(OPVER_TYPE_INT32) | OPVER_TYPE_BIT_ABSENT },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
};

static const opver_type_signature int32 = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_INT32),
		    OPVER_TYPE_BIT(OPVER_TYPE_INT32) | OPVER_TYPE_BIT_ABSENT },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT32),
};

static const opver_kernel crashing = {
	TEST_KERNEL("crashing_reshape_float32", OPVER_OP_RESHAPE, 1, 1),
	.signatures = &float32,
	.num_signatures = 1,
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = test_prepare,
	.invoke = invoke_float32,
};

static const opver_kernel hanging = {
	TEST_KERNEL("hanging_reshape_int32", OPVER_OP_RESHAPE, 1, 1),
	.signatures = &int32,
	.num_signatures = 1,
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = test_prepare,
	.invoke = invoke_int32,
};

static const opver_kernel *const kernels[] = { &crashing, &hanging };

TEST_PLUGIN("crashing_kernel", kernels)
