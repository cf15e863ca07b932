/*
 * atan2.c - ATAN2: the angle of the point (x, y), atan2(y, x) in [-pi, pi],
 * of inputs (y, x) element by element, as TFLite's atan2.cc computes it
 * with the C library's atan2; float32 and float64.  Inputs and output
 * have one type and one shape: TFLite does not broadcast ATAN2.
 *
 * Version range: TFLite has only ATAN2 version 1.
 */
#include <math.h>

#include "kernels.h"
#include "movement.h"
#include "node_checks.h"

enum { ATAN2_Y = 0, ATAN2_X = 1 };

static opver_status atan2_prepare(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *y, *x, *out;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "ATAN2 takes y, x and one output");
	if (status != OPVER_OK)
		return status;
	y = node->inputs[ATAN2_Y];
	x = node->inputs[ATAN2_X];
	out = node->outputs[0];
	status = ref_expect_type_in(ctx, "y", y,
				    OPVER_T(FLOAT32) | OPVER_T(FLOAT64));
	if (status == OPVER_OK)
		status = ref_move_same_type(ctx, "x", x, y);
	if (status == OPVER_OK)
		status = ref_move_same_type(ctx, "output", out, y);
	if (status != OPVER_OK)
		return status;
	if (!ref_same_shape(y, x)) {
		OPVER_REPORT(ctx, "ATAN2 takes y '%s', x '%s' and output '%s' of one shape (TFLite does not broadcast it)",
			     y->name, x->name, out->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return ref_shape_like(ctx, node, 0, y);
}

static opver_status atan2_invoke(const opver_context *ctx, opver_node *node)
{
	const opver_tensor *y = node->inputs[ATAN2_Y];
	const opver_tensor *x = node->inputs[ATAN2_X];
	const size_t n = opver_tensor_elements(y);

	(void)ctx;
	if (y->type == OPVER_TYPE_FLOAT64) {
		const double *yv = y->data, *xv = x->data;
		double *out = node->outputs[0]->data;

		for (size_t i = 0; i < n; i++)
			out[i] = atan2(yv[i], xv[i]);
	} else {
		const float *yv = y->data, *xv = x->data;
		float *out = node->outputs[0]->data;

		for (size_t i = 0; i < n; i++)
			out[i] = atan2f(yv[i], xv[i]);
	}
	return OPVER_OK;
}

#define ATAN2_TYPES (OPVER_T(FLOAT32) | OPVER_T(FLOAT64))

const opver_kernel ref_atan2 = {
	OPVER_KERNEL("atan2", ATAN2, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(ATAN2_TYPES, ATAN2_TYPES),
				       OPVER_OUTPUT(ATAN2_TYPES))),
	REF_KERNEL_TRAITS,
	.prepare = atan2_prepare, .invoke = atan2_invoke,
};
