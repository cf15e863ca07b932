/*
 * mul.c - MUL, float32, int32, int64, uint8, int8 and int16, broadcasting
 * as TFLite does (broadcast.h), computed as TensorFlow Lite's reference
 * kernels compute it:
 *
 *   float32  a * b, clamped to the fused activation's range.
 *   int32, int64  a * b wrapping as TFLite's int arithmetic does (computed
 *            unsigned here), clamped to the activation's integer range.
 *   uint8 (TFLite's legacy asymmetric scheme), int8, and quantized int16
 *            (zero points 0, as TFLite requires):
 *            (a - zero point 1) * (b - zero point 2) in int32, rescaled by
 *            input 1 scale x input 2 scale / output scale (which may be 1
 *            or more), the output zero point added, clamped.
 *   int16 without quantization: a * b wrapped to int16 (TFLite multiplies
 *            modulo 2^16), clamped to the activation's integer range.
 *
 * Version ranges (TFLite's op_version rules for MUL):
 *   1  float32, int32, uint8
 *   2  int8
 *   3  a rescale factor of 1 or more (int8, uint8): implemented
 *   4  quantized int16
 *   5  int64
 *   6  complex64: not these kernels' types
 *   7  int16 without quantization (and uint32)
 *   8  float16: not these kernels' types
 * Every kernel implements every feature of its type, and mul_int16 both
 * int16 forms, so all cover 1..8.
 */
#include <math.h>

#include "arithmetic.h"
#include "kernels.h"
#include "quantization.h"

/* The quantized path, uint8, int8 and int16. */
typedef struct mul_rescale {
	int32_t input1_offset; /* minus the input zero points */
	int32_t input2_offset;
	int32_t output_offset; /* the output zero point */
	int32_t multiplier;    /* input scales' product / output scale */
	int shift;
	int32_t activation_min;
	int32_t activation_max;
} mul_rescale;

/* int8 and uint8. */
typedef struct mul_8bit_data {
	ref_broadcast plan;
	mul_rescale rescale;
} mul_8bit_data;

typedef struct mul_int16_data {
	ref_broadcast plan;
	bool quantized;
	/* Quantized; without quantization only the activation range. */
	mul_rescale rescale;
} mul_int16_data;

/* The node's fused activation. */
static int32_t mul_activation(const opver_node *node)
{
	opver_mul_params params = OPVER_MUL_PARAMS_DEFAULTS;

	opver_read_params(node, &params, sizeof(params));
	return params.activation;
}

/* ------------------------------------------------------------- float32 */

static inline float mul_float32_element(float a, float b,
					const ref_arithmetic_float32 *data)
{
	return ref_clamp_float(a * b, data->activation_min,
			       data->activation_max);
}

REF_BROADCAST_DEFINE(mul_float32_apply, float, ref_arithmetic_float32,
		     mul_float32_element)
REF_BROADCAST_INVOKE(mul_float32_invoke, mul_float32_apply,
		     ref_arithmetic_float32, data)

static opver_status mul_float32_prepare(const opver_context *ctx,
					opver_node *node)
{
	return ref_arithmetic_float32_prepare(ctx, node, "MUL",
					      mul_activation(node),
					      node->op_data);
}

/* -------------------------------------------------------- int32, int64 */

static inline int32_t mul_int32_element(int32_t a, int32_t b,
					const ref_arithmetic_int32 *data)
{
	return ref_clamp_int32((int32_t)((uint32_t)a * (uint32_t)b),
			       data->activation_min, data->activation_max);
}

static inline int64_t mul_int64_element(int64_t a, int64_t b,
					const ref_arithmetic_int64 *data)
{
	return ref_clamp_int64((int64_t)((uint64_t)a * (uint64_t)b),
			       data->activation_min, data->activation_max);
}

REF_BROADCAST_DEFINE(mul_int32_apply, int32_t, ref_arithmetic_int32,
		     mul_int32_element)
REF_BROADCAST_INVOKE(mul_int32_invoke, mul_int32_apply,
		     ref_arithmetic_int32, data)
REF_BROADCAST_DEFINE(mul_int64_apply, int64_t, ref_arithmetic_int64,
		     mul_int64_element)
REF_BROADCAST_INVOKE(mul_int64_invoke, mul_int64_apply,
		     ref_arithmetic_int64, data)

static opver_status mul_int32_prepare(const opver_context *ctx,
				      opver_node *node)
{
	return ref_arithmetic_int32_prepare(ctx, node, "MUL",
					    mul_activation(node),
					    node->op_data);
}

static opver_status mul_int64_prepare(const opver_context *ctx,
				      opver_node *node)
{
	return ref_arithmetic_int64_prepare(ctx, node, "MUL",
					    mul_activation(node),
					    node->op_data);
}

/* ------------------------------------------------------ quantized path */

/* One output of the quantized path, before narrowing to the output type.
 * The product of two offset int8s, or of two int16s, fits an int32. */
static REF_ALWAYS_INLINE int32_t mul_rescaled(int32_t a, int32_t b,
				   const mul_rescale *r)
{
	const int32_t product = (a + r->input1_offset) * (b + r->input2_offset);
	const int32_t result = ref_multiply_by_quantized_multiplier(
				       product, r->multiplier, r->shift) +
			       r->output_offset;

	return ref_clamp_int32(result, r->activation_min, r->activation_max);
}

/*
 * The quantized path's offsets, multiplier and clamp (over the output
 * type's range).  `symmetric` requires zero points of 0 (int16, whose
 * offset products would overflow an int32 otherwise, as TFLite requires).
 */
static opver_status mul_rescale_prepare(const opver_context *ctx,
					const opver_node *node,
					int32_t activation,
					bool symmetric, mul_rescale *r)
{
	static const char *const roles[3] = { "input 1", "input 2", "output" };
	const opver_tensor *tensors[3] = { node->inputs[0], node->inputs[1],
					   node->outputs[0] };
	float scales[3], product;
	double rescale;
	int32_t zero_points[3];
	opver_status status = OPVER_OK;

	for (int i = 0; i < 3 && status == OPVER_OK; i++) {
		status = ref_per_tensor_quantization(ctx, roles[i],
						     tensors[i], &scales[i],
						     &zero_points[i]);
		if (status == OPVER_OK && symmetric && zero_points[i] != 0) {
			OPVER_REPORT(ctx,
				     "%s '%s' has zero point %d; int16 MUL needs symmetric quantization (zero point 0)",
				     roles[i], tensors[i]->name,
				     (int)zero_points[i]);
			status = OPVER_ERROR_INVALID_MODEL;
		}
	}
	if (status != OPVER_OK)
		return status;

	/* As TFLite: the product and the quotient are rounded to float, and
	 * only then widened to double.  Where that overflows (TFLite's result
	 * is then undefined) or gives NaN, the factor is computed in double,
	 * where it is finite, and checked. */
	product = scales[0] * scales[1];
	rescale = isfinite(product / scales[2])
			  ? (double)(product / scales[2])
			  : (double)scales[0] * (double)scales[1] /
				    (double)scales[2];
	status = ref_quantize_rescale(
		ctx, rescale, &r->multiplier, &r->shift,
		"input 1 scale x input 2 scale / output scale");
	if (status != OPVER_OK)
		return status;
	r->input1_offset = -zero_points[0];
	r->input2_offset = -zero_points[1];
	r->output_offset = zero_points[2];
	return ref_output_activation_range(ctx, activation, tensors[2],
					   scales[2], zero_points[2],
					   &r->activation_min,
					   &r->activation_max);
}

/* -------------------------------------------------------- int8, uint8 */

static inline int8_t mul_int8_element(int8_t a, int8_t b,
				      const mul_rescale *r)
{
	return (int8_t)mul_rescaled(a, b, r);
}

static inline uint8_t mul_uint8_element(uint8_t a, uint8_t b,
					const mul_rescale *r)
{
	return (uint8_t)mul_rescaled(a, b, r);
}

REF_BROADCAST_DEFINE(mul_int8_apply, int8_t, mul_rescale, mul_int8_element)
REF_BROADCAST_DEFINE(mul_uint8_apply, uint8_t, mul_rescale, mul_uint8_element)
REF_BROADCAST_INVOKE(mul_int8_invoke, mul_int8_apply, mul_8bit_data,
		     &data->rescale)
REF_BROADCAST_INVOKE(mul_uint8_invoke, mul_uint8_apply, mul_8bit_data,
		     &data->rescale)

/* int8 and uint8 compute alike. */
static opver_status mul_8bit_prepare(const opver_context *ctx,
				     opver_node *node, opver_type type)
{
	mul_8bit_data *data = node->op_data;
	const int32_t activation = mul_activation(node);
	opver_status status;

	status = ref_arithmetic_prepare(ctx, node, type, "MUL", activation,
					&data->plan);
	if (status != OPVER_OK)
		return status;
	return mul_rescale_prepare(ctx, node, activation, false,
				   &data->rescale);
}

static opver_status mul_int8_prepare(const opver_context *ctx, opver_node *node)
{
	return mul_8bit_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status mul_uint8_prepare(const opver_context *ctx,
				      opver_node *node)
{
	return mul_8bit_prepare(ctx, node, OPVER_TYPE_UINT8);
}

/* --------------------------------------------------------------- int16 */

static inline int16_t mul_int16_quantized_element(int16_t a, int16_t b,
						  const mul_rescale *r)
{
	return (int16_t)mul_rescaled(a, b, r);
}

static inline int16_t mul_int16_unquantized_element(int16_t a, int16_t b,
						    const mul_rescale *r)
{
	/* Modulo 2^16, computed unsigned as TFLite's wrapping multiply. */
	const int16_t product = (int16_t)(uint16_t)((uint32_t)(uint16_t)a *
						    (uint32_t)(uint16_t)b);

	return (int16_t)ref_clamp_int32(product, r->activation_min,
					r->activation_max);
}

REF_BROADCAST_DEFINE(mul_int16_quantized_apply, int16_t, mul_rescale,
		     mul_int16_quantized_element)
REF_BROADCAST_DEFINE(mul_int16_unquantized_apply, int16_t, mul_rescale,
		     mul_int16_unquantized_element)

static opver_status mul_int16_prepare(const opver_context *ctx,
				      opver_node *node)
{
	mul_int16_data *data = node->op_data;
	const int32_t activation = mul_activation(node);
	opver_status status;

	status = ref_arithmetic_prepare(ctx, node, OPVER_TYPE_INT16, "MUL",
					activation, &data->plan);
	if (status != OPVER_OK)
		return status;
	data->quantized = ref_is_quantized(node->inputs[0]) ||
			  ref_is_quantized(node->inputs[1]) ||
			  ref_is_quantized(node->outputs[0]);
	if (data->quantized)
		return mul_rescale_prepare(ctx, node, activation, true,
					   &data->rescale);
	/* Plain integers clamp like a quantization of scale 1 and zero
	 * point 0. */
	return ref_output_activation_range(ctx, activation,
					   node->outputs[0], 1.0f, 0,
					   &data->rescale.activation_min,
					   &data->rescale.activation_max);
}

static opver_status mul_int16_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const mul_int16_data *data = node->op_data;
	const int16_t *in1 = node->inputs[0]->data;
	const int16_t *in2 = node->inputs[1]->data;
	int16_t *out = node->outputs[0]->data;

	(void)ctx;
	if (data->quantized)
		mul_int16_quantized_apply(&data->plan, in1, in2, out,
					  &data->rescale);
	else
		mul_int16_unquantized_apply(&data->plan, in1, in2, out,
					    &data->rescale);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_mul_float32 = {
	OPVER_KERNEL("mul_float32", MUL, 1, 8),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(ref_arithmetic_float32),
	.prepare = mul_float32_prepare, .invoke = mul_float32_invoke,
};

const opver_kernel ref_mul_int32 = {
	OPVER_KERNEL("mul_int32", MUL, 1, 8),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(ref_arithmetic_int32),
	.prepare = mul_int32_prepare, .invoke = mul_int32_invoke,
};

const opver_kernel ref_mul_int64 = {
	OPVER_KERNEL("mul_int64", MUL, 1, 8),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT64)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(ref_arithmetic_int64),
	.prepare = mul_int64_prepare, .invoke = mul_int64_invoke,
};

const opver_kernel ref_mul_uint8 = {
	OPVER_KERNEL("mul_uint8", MUL, 1, 8),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(mul_8bit_data),
	.prepare = mul_uint8_prepare, .invoke = mul_uint8_invoke,
};

const opver_kernel ref_mul_int8 = {
	OPVER_KERNEL("mul_int8", MUL, 1, 8),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(mul_8bit_data),
	.prepare = mul_int8_prepare, .invoke = mul_int8_invoke,
};

const opver_kernel ref_mul_int16 = {
	OPVER_KERNEL("mul_int16", MUL, 1, 8),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(mul_int16_data),
	.prepare = mul_int16_prepare, .invoke = mul_int16_invoke,
};
