/*
 * old_fc.c - a plugin written before FULLY_CONNECTED version 4: its int8
 * kernel claims versions 1-3 only, and computes nothing.  A model storing
 * version 3 for an int8 node (which TFLite's rules say needs 4) binds to it
 * at the stored version, and not with strict_versions.
 */
#include "common.h"

static const opver_type_signature int8_fc[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT8), OPVER_T(INT8),
				     OPVER_T(INT32) | OPVER_TYPE_BIT_ABSENT),
			OPVER_OUTPUT(OPVER_T(INT8))),
};

static const opver_kernel old_fc = {
	OPVER_KERNEL("old_fc_int8", FULLY_CONNECTED, 1, 3),
	OPVER_KERNEL_SIGNATURES(int8_fc),
	.flags = OPVER_KERNEL_STATELESS,
	TEST_CALLBACKS,
};

static const opver_kernel *const kernels[] = { &old_fc };

TEST_PLUGIN("old_fc", kernels)
