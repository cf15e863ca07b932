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

#include "common.h"

#define MAX_RANK 6

/* The element strides of `t` against an output of rank `rank`: 0 along a
 * broadcast axis (size 1, or missing in front). */
static void broadcast_strides(const opver_tensor *t, int32_t rank,
			      size_t *strides)
{
	size_t stride = 1;

	for (int32_t d = rank - 1; d >= 0; d--) {
		int32_t own = d - (rank - t->rank);
		int32_t size = own >= 0 ? t->dims[own] : 1;

		strides[d] = size == 1 ? 0 : stride;
		stride *= (size_t)size;
	}
}

/* The fused activation's clamp, worked out in prepare. */
typedef struct clamp {
	float min, max;
} clamp;

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	opver_add_params params = OPVER_ADD_PARAMS_DEFAULTS;
	clamp *c = node->op_data;

	if (node->params == NULL || node->num_inputs != 2 ||
	    node->num_outputs != 1 || node->outputs[0]->rank > MAX_RANK ||
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
	size_t a_strides[MAX_RANK], b_strides[MAX_RANK];
	int32_t index[MAX_RANK] = { 0 };
	size_t count = opver_tensor_elements(out);

	(void)ctx;
	broadcast_strides(node->inputs[0], out->rank, a_strides);
	broadcast_strides(node->inputs[1], out->rank, b_strides);
	for (size_t i = 0; i < count; i++) {
		size_t ai = 0, bi = 0;

		for (int32_t d = 0; d < out->rank; d++) {
			ai += (size_t)index[d] * a_strides[d];
			bi += (size_t)index[d] * b_strides[d];
		}
		y[i] = fminf(fmaxf(a[ai] + b[bi], c->min), c->max);
		/* The next output index, last axis fastest. */
		for (int32_t d = out->rank - 1; d >= 0; d--) {
			if (++index[d] < out->dims[d])
				break;
			index[d] = 0;
		}
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
