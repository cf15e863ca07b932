/*
 * overlap.c - two kernels of one plugin that both take an ADD version 3
 * node with FLOAT32 tensors: one is constrained to FLOAT32 inputs for
 * versions 1..3, the other takes any types for versions 3..4.
 */
#include "common.h"

static const opver_type_signature float_types = {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		    OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) },
};

static const opver_kernel add_float = {
	TEST_KERNEL("add_float", OPVER_OP_ADD, 1, 3),
	TEST_CALLBACKS,
	.signatures = &float_types,
	.num_signatures = 1,
};
static const opver_kernel add_any = {
	TEST_KERNEL("add_any", OPVER_OP_ADD, 3, 4),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add_float, &add_any };

TEST_PLUGIN("overlap", kernels)
