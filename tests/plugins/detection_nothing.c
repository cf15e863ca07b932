/*
 * detection_nothing.c - a deliberately wrong vendor plugin for
 * opver-conformance: its TFLite_Detection_PostProcess (the custom op,
 * version 1, float32, uint8 and int8 inputs) detects nothing: every
 * output is zeros, the count 0.  Only a case where no score passes the
 * threshold agrees with the reference; opver-conformance must run the
 * custom op's cases on it and fail the others.
 */
#include <string.h>

#include "common.h"

#define ANY_INPUT (OPVER_T(FLOAT32) | OPVER_T(UINT8) | OPVER_T(INT8))

static const opver_type_signature inputs[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(ANY_INPUT, ANY_INPUT, ANY_INPUT),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	if (node->num_inputs != 3 || node->num_outputs != 4) {
		OPVER_REPORT(ctx, "detection_nothing: unexpected node");
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status invoke(const opver_context *ctx, opver_node *node)
{
	(void)ctx;
	for (int32_t i = 0; i < node->num_outputs; i++)
		memset(node->outputs[i]->data, 0, node->outputs[i]->bytes);
	return OPVER_OK;
}

static const opver_kernel detection = {
	OPVER_CUSTOM_KERNEL("detection_nothing",
			    "TFLite_Detection_PostProcess", 1, 1),
	OPVER_KERNEL_SIGNATURES(inputs),
	.flags = OPVER_KERNEL_STATELESS,
	.prepare = prepare,
	.invoke = invoke,
};

static const opver_kernel *const kernels[] = { &detection };

TEST_PLUGIN("detection_nothing", kernels)
