/*
 * add_n.c - ADD_N, float32 and int32: the element-wise sum of two or more
 * inputs of one shape, as TensorFlow Lite's kernel computes it: each
 * output element adds the inputs' elements in input order (float32 in
 * float; int32 wrapping, as TFLite's int arithmetic does, computed
 * unsigned here).  No broadcasting: TFLite requires equal shapes.
 *
 * Version range (TFLite has no op_version rule for ADD_N): 1.
 */
#include <stdint.h>
#include <stdio.h>

#include "kernels.h"
#include "node_checks.h"

/* The inputs' type signature: the first four of any number. */
#define ADD_N_SIGNATURE(TYPE)                                               \
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(TYPE), OPVER_T(TYPE),          \
				     OPVER_T(TYPE) | OPVER_TYPE_BIT_ABSENT, \
				     OPVER_T(TYPE) | OPVER_TYPE_BIT_ABSENT), \
			OPVER_OUTPUT(OPVER_T(TYPE)))

/* Two or more present inputs and the output, all of `type` and of input
 * 1's shape. */
static opver_status add_n_prepare(const opver_context *ctx,
				  const opver_node *node, opver_type type)
{
	opver_status status =
		ref_check_arity(ctx, node, 2, INT32_MAX, 1,
				"ADD_N takes two or more inputs and one output");
	char role[32];

	for (int32_t i = 0; i < node->num_inputs && status == OPVER_OK; i++) {
		snprintf(role, sizeof(role), "input %d", (int)i + 1);
		if (node->inputs[i] == NULL) {
			OPVER_REPORT(ctx, "ADD_N's %s is omitted", role);
			return OPVER_ERROR_INVALID_MODEL;
		}
		status = ref_expect_type(ctx, role, node->inputs[i], type);
		if (status == OPVER_OK &&
		    !ref_same_shape(node->inputs[i], node->inputs[0])) {
			OPVER_REPORT(ctx,
				     "ADD_N's %s '%s' differs in shape from input 1 '%s'; ADD_N does not broadcast",
				     role, node->inputs[i]->name,
				     node->inputs[0]->name);
			status = OPVER_ERROR_INVALID_MODEL;
		}
	}
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", node->outputs[0], type);
	if (status == OPVER_OK)
		status = ref_shape_like(ctx, node, 0, node->inputs[0]);
	return status;
}

static opver_status add_n_float32_prepare(const opver_context *ctx,
					  opver_node *node)
{
	return add_n_prepare(ctx, node, OPVER_TYPE_FLOAT32);
}

static opver_status add_n_int32_prepare(const opver_context *ctx,
					opver_node *node)
{
	return add_n_prepare(ctx, node, OPVER_TYPE_INT32);
}

static opver_status add_n_float32_invoke(const opver_context *ctx,
					 opver_node *node)
{
	const size_t n = opver_tensor_elements(node->outputs[0]);
	float *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t e = 0; e < n; e++) {
		float sum = 0;

		for (int32_t i = 0; i < node->num_inputs; i++)
			sum += ((const float *)node->inputs[i]->data)[e];
		out[e] = sum;
	}
	return OPVER_OK;
}

static opver_status add_n_int32_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const size_t n = opver_tensor_elements(node->outputs[0]);
	int32_t *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t e = 0; e < n; e++) {
		uint32_t sum = 0;

		for (int32_t i = 0; i < node->num_inputs; i++)
			sum += (uint32_t)((const int32_t *)
						  node->inputs[i]->data)[e];
		out[e] = (int32_t)sum;
	}
	return OPVER_OK;
}

const opver_kernel ref_add_n_float32 = {
	OPVER_KERNEL("add_n_float32", ADD_N, 1, 1),
	REF_SIGNATURES(ADD_N_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.prepare = add_n_float32_prepare, .invoke = add_n_float32_invoke,
};

const opver_kernel ref_add_n_int32 = {
	OPVER_KERNEL("add_n_int32", ADD_N, 1, 1),
	REF_SIGNATURES(ADD_N_SIGNATURE(INT32)),
	REF_KERNEL_TRAITS,
	.prepare = add_n_int32_prepare, .invoke = add_n_int32_invoke,
};
