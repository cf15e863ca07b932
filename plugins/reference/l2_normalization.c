/*
 * l2_normalization.c - L2_NORMALIZATION, float32, int8 and uint8, computed
 * as TensorFlow Lite's reference kernels compute it: each row along the
 * last dimension divided by its L2 norm.
 *
 *   float32  x / max(sqrt(sum x^2), 1e-6), the sum in row order
 *   int8     the output is in units of 1/128 with zero point 0 (TFLite
 *            requires that quantization); each (x - zero point) is
 *            multiplied by 1/sqrt(sum (x - zero point)^2), found as a
 *            multiplier and shift by gemmlowp's fixed-point Newton-
 *            Raphson iteration, and clamped to [-128, 127]
 *   uint8    likewise with output zero point 128: 128 + the rescaled
 *            128 * (x - zero point), clamped to [0, 255]
 *
 * Version ranges (TFLite's op_version rules): 1 float32, uint8; 2 an int8
 * output.  Each kernel covers the versions of its type and up to 2.
 */
#include <math.h>
#include <stdint.h>

#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

typedef struct l2_data {
	size_t rows;
	size_t depth;
	int32_t input_zero_point;
} l2_data;

static opver_status l2_prepare_common(const opver_context *ctx,
				      opver_node *node, int32_t type)
{
	l2_data *data = node->op_data;
	const opver_tensor *input;
	opver_l2_norm_params params = OPVER_L2_NORM_PARAMS_DEFAULTS;
	opver_status status;

	status = ref_check_unary(ctx, node, type, type,
				 "L2_NORMALIZATION takes one input and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	if (input->rank < 1 || input->rank > 4) {
		OPVER_REPORT(ctx,
			     "input '%s' has rank %d; L2_NORMALIZATION takes rank 1 to 4",
			     input->name, (int)input->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	opver_read_params(node, &params, sizeof(params));
	/* TFLite's kernels fuse no activation. */
	if (params.activation != OPVER_ACTIVATION_NONE) {
		OPVER_REPORT(ctx,
			     "fused activation %d is not supported; TFLite's L2_NORMALIZATION takes none",
			     (int)params.activation);
		return OPVER_ERROR_UNSUPPORTED;
	}
	data->depth = (size_t)input->dims[input->rank - 1];
	data->rows = data->depth > 0 ? opver_tensor_elements(input) /
					       data->depth
				     : 0;
	return OPVER_OK;
}

/* ------------------------------------------------------------- float32 */

static opver_status l2_float32_prepare(const opver_context *ctx,
				       opver_node *node)
{
	return l2_prepare_common(ctx, node, OPVER_TYPE_FLOAT32);
}

static opver_status l2_float32_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const l2_data *d = node->op_data;
	const float *in = node->inputs[0]->data;
	float *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t r = 0; r < d->rows; r++, in += d->depth, out += d->depth) {
		float squares = 0.0f, norm;

		for (size_t c = 0; c < d->depth; c++)
			squares += in[c] * in[c];
		norm = sqrtf(squares);
		norm = norm < 1e-6f ? 1e-6f : norm;
		for (size_t c = 0; c < d->depth; c++)
			out[c] = in[c] / norm;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------- int8, uint8 */

/* The output quantization TFLite requires: scale 1/128 and the zero
 * point `zero_point`. */
static opver_status l2_quantized_prepare(const opver_context *ctx,
					 opver_node *node, int32_t type,
					 int32_t zero_point)
{
	l2_data *data = node->op_data;
	float scale;
	int32_t input_zero, output_zero;
	opver_status status;

	status = l2_prepare_common(ctx, node, type);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "input",
						     node->inputs[0], &scale,
						     &input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output",
						     node->outputs[0], &scale,
						     &output_zero);
	if (status != OPVER_OK)
		return status;
	if (scale != 1.0f / 128 || output_zero != zero_point) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g and zero point %d; L2_NORMALIZATION's output must have scale 1/128 and zero point %d",
			     node->outputs[0]->name, (double)scale,
			     (int)output_zero, (int)zero_point);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->input_zero_point = input_zero;
	return OPVER_OK;
}

static opver_status l2_int8_prepare(const opver_context *ctx,
				    opver_node *node)
{
	return l2_quantized_prepare(ctx, node, OPVER_TYPE_INT8, 0);
}

static opver_status l2_uint8_prepare(const opver_context *ctx,
				     opver_node *node)
{
	return l2_quantized_prepare(ctx, node, OPVER_TYPE_UINT8, 128);
}

/* Each row's multiplier and shift, then its elements rescaled. */
static opver_status l2_int8_invoke(const opver_context *ctx, opver_node *node)
{
	const l2_data *d = node->op_data;
	const int8_t *in = node->inputs[0]->data;
	int8_t *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t r = 0; r < d->rows; r++, in += d->depth, out += d->depth) {
		int32_t squares = 0, multiplier;
		int shift;

		/* At most 255^2 a term: int32 holds 2^15 of them, and TFLite
		 * adds in int32 too. */
		for (size_t c = 0; c < d->depth; c++) {
			const int32_t v = in[c] - d->input_zero_point;

			squares = (int32_t)((uint32_t)squares +
					    (uint32_t)(v * v));
		}
		ref_inv_sqrt_multiplier(squares, &multiplier, &shift);
		for (size_t c = 0; c < d->depth; c++)
			out[c] = (int8_t)ref_clamp_int32(
				ref_multiply_by_quantized_multiplier(
					in[c] - d->input_zero_point,
					multiplier, shift + 7),
				INT8_MIN, INT8_MAX);
	}
	return OPVER_OK;
}

static opver_status l2_uint8_invoke(const opver_context *ctx,
				    opver_node *node)
{
	const l2_data *d = node->op_data;
	const uint8_t *in = node->inputs[0]->data;
	uint8_t *out = node->outputs[0]->data;

	(void)ctx;
	for (size_t r = 0; r < d->rows; r++, in += d->depth, out += d->depth) {
		int32_t squares = 0, multiplier;
		int shift;

		for (size_t c = 0; c < d->depth; c++) {
			const int32_t v = in[c] - d->input_zero_point;

			squares = (int32_t)((uint32_t)squares +
					    (uint32_t)(v * v));
		}
		ref_inv_sqrt_multiplier(squares, &multiplier, &shift);
		/* TFLite's MultiplyByQuantizedMultiplierSmallerThanOneExp:
		 * the shift is never positive here. */
		for (size_t c = 0; c < d->depth; c++)
			out[c] = (uint8_t)ref_clamp_int32(
				128 + ref_rounding_divide_by_pot(
					      ref_saturating_rounding_doubling_high_mul(
						      128 * (in[c] -
							     d->input_zero_point),
						      multiplier),
					      -shift),
				0, UINT8_MAX);
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define L2_KERNEL(kernel_name, min, type, prepare_fn, invoke_fn)     \
	{                                                             \
		OPVER_KERNEL(kernel_name, L2_NORMALIZATION, min, 2),  \
		REF_SIGNATURES(REF_UNARY_SIGNATURE(type, type)),      \
		REF_KERNEL_TRAITS,                                    \
		.op_data_size = sizeof(l2_data),                      \
		.prepare = prepare_fn, .invoke = invoke_fn,           \
	}

const opver_kernel ref_l2_normalization_float32 =
	L2_KERNEL("l2_normalization_float32", 1, FLOAT32, l2_float32_prepare,
		  l2_float32_invoke);
const opver_kernel ref_l2_normalization_uint8 =
	L2_KERNEL("l2_normalization_uint8", 1, UINT8, l2_uint8_prepare,
		  l2_uint8_invoke);
const opver_kernel ref_l2_normalization_int8 =
	L2_KERNEL("l2_normalization_int8", 2, INT8, l2_int8_prepare,
		  l2_int8_invoke);
