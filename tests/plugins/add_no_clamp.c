/*
 * add_no_clamp.c - a deliberately wrong vendor plugin for
 * opver-conformance: its int8 ADD (versions 1-6, broadcasting up to 6-D)
 * requantizes as TFLite does, except that when the inputs' shapes differ
 * (broadcasting) it skips the fused RELU's clamp, saturating to int8
 * only.  Only a broadcast RELU case with a sum below the output's zero
 * point shows it.
 */
#include <stdbool.h>

#include "broadcast.h"
#include "common.h"
#include "tools/conformance/requant.h"

/* TFLite's int8 ADD works on inputs shifted left by 20 bits. */
#define LEFT_SHIFT 20

typedef struct add {
	int32_t multiplier[3];
	int shift[3];
	int32_t offset[3];
	int32_t min, max;
	bool skip_clamp;
} add;

static bool same_shape(const opver_tensor *a, const opver_tensor *b)
{
	if (a->rank != b->rank)
		return false;
	for (int32_t d = 0; d < a->rank; d++)
		if (a->dims[d] != b->dims[d])
			return false;
	return true;
}

static opver_status prepare(const opver_context *ctx, opver_node *node)
{
	opver_add_params params = OPVER_ADD_PARAMS_DEFAULTS;
	const opver_tensor *out = node->outputs[0];
	add *a = node->op_data;
	double twice_max, scales[3];

	if (node->params == NULL || node->num_inputs != 2 ||
	    out->rank > TEST_MAX_RANK || node->inputs[0]->quant.count != 1 ||
	    node->inputs[1]->quant.count != 1 || out->quant.count != 1) {
		OPVER_REPORT(ctx, "add_no_clamp: unexpected node");
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	for (int i = 0; i < 3; i++) {
		const opver_tensor *t = i < 2 ? node->inputs[i] : out;

		scales[i] = t->quant.scale[0];
		a->offset[i] = (int32_t)t->quant.zero_point[0] * (i < 2 ? -1 : 1);
	}
	twice_max = 2 * (scales[0] > scales[1] ? scales[0] : scales[1]);
	rq_quantize(scales[0] / twice_max, &a->multiplier[0], &a->shift[0]);
	rq_quantize(scales[1] / twice_max, &a->multiplier[1], &a->shift[1]);
	rq_quantize(twice_max / ((1 << LEFT_SHIFT) * scales[2]),
		    &a->multiplier[2], &a->shift[2]);
	rq_activation(params.activation, out->quant.scale[0], a->offset[2],
		      INT8_MIN, INT8_MAX, &a->min, &a->max);
	/* The bug. */
	a->skip_clamp = params.activation == OPVER_ACTIVATION_RELU &&
			!same_shape(node->inputs[0], node->inputs[1]);
	return OPVER_OK;
}

static opver_status invoke(const opver_context *ctx, opver_node *node)
{
	const add *a = node->op_data;
	const opver_tensor *out = node->outputs[0];
	const int8_t *x[2] = { node->inputs[0]->data, node->inputs[1]->data };
	int8_t *y = out->data;
	size_t strides[2][TEST_MAX_RANK];
	int32_t index[TEST_MAX_RANK] = { 0 };
	const size_t count = opver_tensor_elements(out);

	(void)ctx;
	for (int i = 0; i < 2; i++)
		broadcast_strides(node->inputs[i], out->rank, strides[i]);
	for (size_t e = 0; e < count; e++) {
		int32_t sum = 0, result;

		for (int i = 0; i < 2; i++) {
			const int32_t v =
				x[i][broadcast_offset(index, strides[i],
						      out->rank)] +
				a->offset[i];

			sum += rq_rescale(v * (1 << LEFT_SHIFT),
					  a->multiplier[i], a->shift[i], false);
		}
		result = rq_rescale(sum, a->multiplier[2], a->shift[2], false) +
			 a->offset[2];
		y[e] = (int8_t)(a->skip_clamp ?
					rq_clamp(result, INT8_MIN, INT8_MAX) :
					rq_clamp(result, a->min, a->max));
		broadcast_next(index, out);
	}
	return OPVER_OK;
}

static const opver_type_signature int8_add[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT8), OPVER_T(INT8)),
			OPVER_OUTPUT(OPVER_T(INT8))),
};

static const opver_kernel add_int8 = {
	OPVER_KERNEL("add_no_clamp_int8", ADD, 1, 6),
	OPVER_KERNEL_SIGNATURES(int8_add),
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(add),
	.prepare = prepare,
	.invoke = invoke,
};

static const opver_kernel *const kernels[] = { &add_int8 };

TEST_PLUGIN("add_no_clamp", kernels)
