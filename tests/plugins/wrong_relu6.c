/*
 * wrong_relu6.c - a deliberately wrong vendor plugin for
 * opver-conformance: its float32 ADD kernel (version 1) broadcasts up to
 * 6-D and applies every clamp activation as TFLite does, except that
 * RELU6 clamps at 5 instead of 6.  Only a case whose sum exceeds 5 shows
 * it, so opver-conformance catches it only when its float cases reach
 * past RELU6's upper bound.
 */
#include <math.h>
#include <stddef.h>

#include "broadcast.h"
#include "common.h"

/* The fused activation's clamp, worked out in prepare. */
typedef struct clamp {
	float min, max;
} clamp;

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	opver_add_params params = OPVER_ADD_PARAMS_DEFAULTS;
	clamp *c = node->op_data;

	if (node->params == NULL || node->num_inputs != 2 ||
	    node->num_outputs != 1 || node->outputs[0]->rank > TEST_MAX_RANK ||
	    node->inputs[0]->rank > node->outputs[0]->rank ||
	    node->inputs[1]->rank > node->outputs[0]->rank) {
		OPVER_REPORT(ctx, "wrong_relu6: unexpected node");
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	c->min = -INFINITY;
	c->max = INFINITY;
	if (params.activation == OPVER_ACTIVATION_RELU ||
	    params.activation == OPVER_ACTIVATION_RELU6)
		c->min = 0;
	/* The bug: RELU6's upper bound. */
	if (params.activation == OPVER_ACTIVATION_RELU6)
		c->max = 5;
	if (params.activation == OPVER_ACTIVATION_RELU_N1_TO_1) {
		c->min = -1;
		c->max = 1;
	}
	return OPVER_OK;
}

static opver_status invoke(const opver_context *ctx, opver_node *node)
{
	const clamp *c = node->op_data;
	const opver_tensor *out = node->outputs[0];
	const float *a = node->inputs[0]->data, *b = node->inputs[1]->data;
	float *y = out->data;
	size_t a_strides[TEST_MAX_RANK], b_strides[TEST_MAX_RANK];
	int32_t index[TEST_MAX_RANK] = { 0 };
	size_t count = opver_tensor_elements(out);

	(void)ctx;
	broadcast_strides(node->inputs[0], out->rank, a_strides);
	broadcast_strides(node->inputs[1], out->rank, b_strides);
	for (size_t i = 0; i < count; i++) {
		y[i] = fminf(fmaxf(a[broadcast_offset(index, a_strides,
						      out->rank)] +
					   b[broadcast_offset(index, b_strides,
							      out->rank)],
				   c->min),
			     c->max);
		broadcast_next(index, out);
	}
	return OPVER_OK;
}

static const opver_type_signature float32[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel add = {
	OPVER_KERNEL("wrong_relu6_float32", ADD, 1, 1),
	OPVER_KERNEL_SIGNATURES(float32),
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(clamp),
	.prepare = prepare,
	.invoke = invoke,
};

static const opver_kernel *const kernels[] = { &add };

TEST_PLUGIN("wrong_relu6", kernels)
