/*
 * overlap.c - two kernels of one plugin that both take an ADD version 3
 * node with FLOAT32 tensors: one is constrained to FLOAT32 inputs for
 * versions 1..3, the other takes any types for versions 3..4.
 */
#include "common.h"

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
			OPVER_OUTPUT(0)),
};

static const opver_kernel add_float = {
	OPVER_KERNEL("add_float", ADD, 1, 3),
	OPVER_KERNEL_SIGNATURES(float_types),
	TEST_CALLBACKS,
};
static const opver_kernel add_any = {
	OPVER_KERNEL("add_any", ADD, 3, 4),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add_float, &add_any };

TEST_PLUGIN("overlap", kernels)
