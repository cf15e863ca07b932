/*
 * div.c - DIV, float32, int32 and uint8 (the types TFLite's DIV takes),
 * broadcasting as TFLite does (broadcast.h), computed as TensorFlow Lite's
 * reference kernels compute it:
 *
 *   float32  a / b, clamped to the fused activation's range (the float
 *            range for NONE, so a zero divisor gives the largest float,
 *            as in TFLite, or NaN for 0 / 0).
 *   int32    a / b truncated toward zero, clamped to the activation's
 *            integer range.  INT32_MIN / -1 wraps to INT32_MIN (undefined
 *            in TFLite).
 *   uint8    n = a - zero point 1 and d = b - zero point 2 (signs moved so
 *            that d > 0); 1 / d as TFLite's GetReciprocal computes it in
 *            fixed point; n, shifted left by its headroom, times that; the
 *            result rescaled by input 1 scale / (input 2 scale x output
 *            scale) and the shifts, the output zero point added, clamped.
 *
 * A zero divisor in int32 or uint8 (b equal to input 2's zero point) makes
 * invoke report and fail; TFLite logs it and computes on, undefined.  Where
 * TFLite's uint8 rescale shifts right by more than 31 bits (undefined in
 * C++), the kernel computes what TFLite computes on x86 and WebAssembly
 * (div_shift_past_31).
 *
 * Version ranges (TFLite's op_version rules for DIV):
 *   1  float32, int32, uint8
 *   2  broadcasting with an input of more than 4 dimensions: implemented
 *      (up to 6) by every kernel
 * so all three kernels cover 1..2.
 */
#include <stdio.h>

#include "arithmetic.h"
#include "fixed_point.h"
#include "kernels.h"
#include "quantization.h"

/* The largest output shift the uint8 path takes: n's headroom is at least
 * 23 bits (|n| <= 255), so the quotient's total shift stays a right shift,
 * as TFLite's arithmetic assumes. */
#define DIV_UINT8_MAX_OUTPUT_SHIFT 23

typedef struct div_uint8_data {
	ref_broadcast plan;
	int32_t input1_offset; /* minus the input zero points */
	int32_t input2_offset;
	int32_t output_offset; /* the output zero point */
	int32_t output_multiplier; /* input 1 scale / (input 2 x output) */
	int output_shift;
	int32_t activation_min;
	int32_t activation_max;
} div_uint8_data;

/* The node's fused activation. */
static int32_t div_activation(const opver_node *node)
{
	opver_div_params params = OPVER_DIV_PARAMS_DEFAULTS;

	opver_read_params(node, &params, sizeof(params));
	return params.activation;
}

/* ------------------------------------------------------------- float32 */

static inline float div_float32_element(float a, float b,
					const ref_arithmetic_float32 *data)
{
	return ref_clamp_float(a / b, data->activation_min,
			       data->activation_max);
}

REF_BROADCAST_DEFINE(div_float32_apply, float, ref_arithmetic_float32,
		     div_float32_element)
REF_BROADCAST_INVOKE(div_float32_invoke, div_float32_apply,
		     ref_arithmetic_float32, data)

static opver_status div_float32_prepare(const opver_context *ctx,
					opver_node *node)
{
	return ref_arithmetic_float32_prepare(ctx, node, "DIV",
					      div_activation(node),
					      node->op_data);
}

/* --------------------------------------------------------------- int32 */

static inline int32_t div_int32_element(int32_t a, int32_t b,
					const ref_arithmetic_int32 *data)
{
	/* -a computed unsigned: INT32_MIN / -1 wraps, as the hardware's
	 * division would if it did not trap. */
	const int32_t quotient =
		b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b;

	return ref_clamp_int32(quotient, data->activation_min,
			       data->activation_max);
}

REF_BROADCAST_DEFINE(div_int32_apply, int32_t, ref_arithmetic_int32,
		     div_int32_element)

static opver_status div_int32_prepare(const opver_context *ctx,
				      opver_node *node)
{
	return ref_arithmetic_int32_prepare(ctx, node, "DIV",
					    div_activation(node),
					    node->op_data);
}

static opver_status div_int32_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const ref_arithmetic_int32 *data = node->op_data;
	const int32_t *divisors = node->inputs[1]->data;
	const size_t n = opver_tensor_elements(node->inputs[1]);

	for (size_t i = 0; i < n; i++)
		if (divisors[i] == 0)
			return ref_report_zero_divisor(ctx, node, "DIV",
						       i);
	div_int32_apply(&data->plan, node->inputs[0]->data, divisors,
			node->outputs[0]->data, data);
	return OPVER_OK;
}

/* --------------------------------------------------------------- uint8 */

/* TFLite's CountLeadingSignBits: the bits below the sign bit that repeat
 * it; 31 for 0 and -1. */
static inline int div_leading_sign_bits(int32_t x)
{
	return ref_count_leading_zeros(x >= 0 ? (uint32_t)x : ~(uint32_t)x) -
	       1;
}

/*
 * TFLite's rounding divide of x by 2^exponent for exponent 32 to 62, which
 * it reaches for small numerators over large divisors: its int32 shift by
 * 32 or more is undefined in C++, and x86 and WebAssembly (the platforms
 * TFLite's results come from) take the count modulo 32, while its rounding
 * mask is all ones.  So x >= 0 gives (x >> (exponent - 32)) + 1 and x < 0
 * gives x >> (exponent - 32).  Computed here as TFLite computes it, not as
 * the 0 the division means, so that outputs match TFLite's.
 */
static inline int32_t div_shift_past_31(int32_t x, int exponent)
{
	return (x >> (exponent - 32)) + (x >= 0 ? 1 : 0);
}

static inline uint8_t div_uint8_element(uint8_t a, uint8_t b,
					const div_uint8_data *data)
{
	int32_t numerator = a + data->input1_offset;
	int32_t denominator = b + data->input2_offset;
	int reciprocal_shift, headroom, total_shift;
	int32_t reciprocal, quotient, result;

	/* The reciprocal is a positive multiplier: move d's sign to n. */
	if (denominator < 0) {
		numerator = -numerator;
		denominator = -denominator;
	}
	reciprocal = ref_reciprocal(denominator, 31, &reciprocal_shift);
	headroom = div_leading_sign_bits(numerator);
	/* n * 2^headroom (up to 31 bits: no rescale helper's shift) times
	 * the reciprocal. */
	quotient = ref_saturating_rounding_doubling_high_mul(
		(int32_t)((uint32_t)numerator << headroom), reciprocal);
	total_shift = data->output_shift - reciprocal_shift - headroom;
	result = total_shift < -31 ?
			 div_shift_past_31(ref_saturating_rounding_doubling_high_mul(
						   quotient,
						   data->output_multiplier),
					   -total_shift) :
			 ref_multiply_by_quantized_multiplier(
				 quotient, data->output_multiplier,
				 total_shift);
	return (uint8_t)ref_clamp_int32(result + data->output_offset,
					data->activation_min,
					data->activation_max);
}

REF_BROADCAST_DEFINE(div_uint8_apply, uint8_t, div_uint8_data,
		     div_uint8_element)

static opver_status div_uint8_prepare(const opver_context *ctx,
				      opver_node *node)
{
	static const char *const roles[3] = { "input 1", "input 2", "output" };
	div_uint8_data *data = node->op_data;
	const opver_tensor *tensors[3] = { node->inputs[0], node->inputs[1],
					   node->outputs[0] };
	const int32_t activation = div_activation(node);
	float scales[3];
	int32_t zero_points[3];
	opver_status status;

	status = ref_arithmetic_prepare(ctx, node, OPVER_TYPE_UINT8, "DIV",
					activation, &data->plan);
	for (int i = 0; i < 3 && status == OPVER_OK; i++)
		status = ref_per_tensor_quantization(ctx, roles[i],
						     tensors[i], &scales[i],
						     &zero_points[i]);
	/* In float, as TFLite computes it, then widened. */
	if (status == OPVER_OK)
		status = ref_quantize_rescale(
			ctx, (double)(scales[0] / (scales[1] * scales[2])),
			&data->output_multiplier, &data->output_shift,
			"input 1 scale / (input 2 scale x output scale)");
	if (status != OPVER_OK)
		return status;
	if (data->output_shift > DIV_UINT8_MAX_OUTPUT_SHIFT) {
		OPVER_REPORT(ctx,
			     "input 1 scale %g / (input 2 scale %g x output scale %g) is 2^%d or more; TFLite's uint8 DIV needs it below 2^%d",
			     (double)scales[0], (double)scales[1],
			     (double)scales[2], DIV_UINT8_MAX_OUTPUT_SHIFT,
			     DIV_UINT8_MAX_OUTPUT_SHIFT);
		return OPVER_ERROR_UNSUPPORTED;
	}
	data->input1_offset = -zero_points[0];
	data->input2_offset = -zero_points[1];
	data->output_offset = zero_points[2];
	return ref_output_activation_range(ctx, activation, tensors[2],
					   scales[2], zero_points[2],
					   &data->activation_min,
					   &data->activation_max);
}

static opver_status div_uint8_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const div_uint8_data *data = node->op_data;
	const uint8_t *divisors = node->inputs[1]->data;
	const size_t n = opver_tensor_elements(node->inputs[1]);

	for (size_t i = 0; i < n; i++)
		if (divisors[i] + data->input2_offset == 0)
			return ref_report_zero_divisor(ctx, node, "DIV",
						       i);
	div_uint8_apply(&data->plan, node->inputs[0]->data, divisors,
			node->outputs[0]->data, data);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_div_float32 = {
	OPVER_KERNEL("div_float32", DIV, 1, 2),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(ref_arithmetic_float32),
	.prepare = div_float32_prepare, .invoke = div_float32_invoke,
};

const opver_kernel ref_div_int32 = {
	OPVER_KERNEL("div_int32", DIV, 1, 2),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(ref_arithmetic_int32),
	.prepare = div_int32_prepare, .invoke = div_int32_invoke,
};

const opver_kernel ref_div_uint8 = {
	OPVER_KERNEL("div_uint8", DIV, 1, 2),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(div_uint8_data),
	.prepare = div_uint8_prepare, .invoke = div_uint8_invoke,
};
