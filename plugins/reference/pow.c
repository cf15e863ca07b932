/*
 * pow.c - POW, float32 and int32, broadcasting as TFLite does
 * (broadcast.h), computed as TensorFlow Lite's kernel computes it:
 *
 *   float32  powf(a, b).
 *   int32    pow(a, b) in double, truncated to int32.  A negative exponent
 *            makes invoke report and fail, as TFLite's kernel does.  A
 *            power outside int32 (undefined in TFLite's C++) is INT32_MIN,
 *            as x86's and WebAssembly's conversions give it.
 *
 * Version range (TFLite has no op_version rule for POW): 1.
 */
#include <math.h>

#include "arithmetic.h"
#include "kernels.h"

typedef struct pow_data {
	ref_broadcast plan;
} pow_data;

static inline float pow_float32_element(float a, float b,
					const pow_data *data)
{
	(void)data;
	return powf(a, b);
}

static inline int32_t pow_int32_element(int32_t a, int32_t b,
					const pow_data *data)
{
	const double power = pow(a, b);

	(void)data;
	return power > -2147483649.0 && power < 2147483648.0 ?
		       (int32_t)power :
		       INT32_MIN;
}

REF_BROADCAST_DEFINE(pow_float32_apply, float, pow_data, pow_float32_element)
REF_BROADCAST_DEFINE(pow_int32_apply, int32_t, pow_data, pow_int32_element)
REF_BROADCAST_INVOKE(pow_float32_invoke, pow_float32_apply, pow_data, data)

static opver_status pow_float32_prepare(const opver_context *ctx,
					opver_node *node)
{
	pow_data *data = node->op_data;

	return ref_binary_prepare(ctx, node, OPVER_TYPE_FLOAT32, "POW",
				  &data->plan);
}

static opver_status pow_int32_prepare(const opver_context *ctx,
				      opver_node *node)
{
	pow_data *data = node->op_data;

	return ref_binary_prepare(ctx, node, OPVER_TYPE_INT32, "POW",
				  &data->plan);
}

static opver_status pow_int32_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const pow_data *data = node->op_data;
	const int32_t *exponents = node->inputs[1]->data;
	const size_t n = opver_tensor_elements(node->inputs[1]);

	for (size_t i = 0; i < n; i++) {
		if (exponents[i] < 0) {
			OPVER_REPORT(ctx,
				     "input 2 '%s' element %zu is %d: int32 POW takes no negative exponent",
				     node->inputs[1]->name, i,
				     (int)exponents[i]);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
	}
	pow_int32_apply(&data->plan, node->inputs[0]->data, exponents,
			node->outputs[0]->data, data);
	return OPVER_OK;
}

const opver_kernel ref_pow_float32 = {
	OPVER_KERNEL("pow_float32", POW, 1, 1),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(pow_data),
	.prepare = pow_float32_prepare, .invoke = pow_float32_invoke,
};

const opver_kernel ref_pow_int32 = {
	OPVER_KERNEL("pow_int32", POW, 1, 1),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(pow_data),
	.prepare = pow_int32_prepare, .invoke = pow_int32_invoke,
};
