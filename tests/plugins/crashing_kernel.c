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

static opver_status same_size(const opver_context *ctx, opver_node *node)
{
	if (node->outputs[0]->bytes != node->inputs[0]->bytes) {
		OPVER_REPORT(ctx, "RESHAPE keeps the bytes of its input");
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static void copy(opver_node *node)
{
	memcpy(node->outputs[0]->data, node->inputs[0]->data,
	       node->inputs[0]->bytes);
}

static opver_status invoke_float32(const opver_context *ctx, opver_node *node)
{
	(void)ctx;
	if (node->inputs[0]->rank == 3)
		*(volatile float *)null_address = 1;
	copy(node);
	return OPVER_OK;
}

static opver_status invoke_int32(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *in = node->inputs[0];

	(void)ctx;
	while (in->rank == 4 && in->dims[0] == 1 && forever)
		;
	copy(node);
	return OPVER_OK;
}

static const opver_type_signature float32[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32),
				     OPVER_T(INT32) | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_type_signature int32[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT32),
				     OPVER_T(INT32) | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(OPVER_T(INT32))),
};

static const opver_kernel crashing = {
	OPVER_KERNEL("crashing_reshape_float32", RESHAPE, 1, 1),
	OPVER_KERNEL_SIGNATURES(float32),
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = same_size,
	.invoke = invoke_float32,
};

static const opver_kernel hanging = {
	OPVER_KERNEL("hanging_reshape_int32", RESHAPE, 1, 1),
	OPVER_KERNEL_SIGNATURES(int32),
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = same_size,
	.invoke = invoke_int32,
};

static const opver_kernel *const kernels[] = { &crashing, &hanging };

TEST_PLUGIN("crashing_kernel", kernels)
