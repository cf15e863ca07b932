/*
 * hard_swish.c - HARD_SWISH, x relu6(x + 3) / 6, computed as TensorFlow
 * Lite's kernels compute it.
 *
 *   float32  x min(6, max(0, x + 3)) / 6.
 *   int8, uint8
 *            TFLite's int16 fixed point: the input step, less its zero
 *            point, times 128 (the "hires" input); that value rescaled to
 *            the output scale (a Q0.15 multiplier and a right shift),
 *            and separately to a "reluish" value in [-1, 1] where 3.0 is
 *            32768 (a Q0.15 multiplier and a saturating shift either
 *            way), mapped to [0, 1]; their product (rounding down, which
 *            TFLite chose to cancel the bias of the rounding
 *            multiplications) shifted to the output, plus its zero point,
 *            clamped to the type.
 *
 * Version 1 only in TFLite's rules.
 */
#include "activation.h"
#include "kernels.h"
#include "quantization.h"

typedef struct hard_swish_float32_data {
	size_t count;
} hard_swish_float32_data;

typedef struct hard_swish_quantized_data {
	int32_t type;
	size_t count;
	int32_t input_zero;
	int32_t output_zero;
	int16_t output_multiplier; /* Q0.15 */
	int output_exponent;       /* <= 0: a right shift */
	int16_t reluish_multiplier; /* Q0.15 */
	int reluish_exponent;
} hard_swish_quantized_data;

static opver_status hard_swish_float32_prepare(const opver_context *ctx,
					       opver_node *node)
{
	hard_swish_float32_data *data = node->op_data;
	opver_status status;

	status = ref_activation_check(ctx, node, &ref_hard_swish_float32,
				      NULL);
	if (status == OPVER_OK)
		data->count = opver_tensor_elements(node->inputs[0]);
	return status;
}

static opver_status hard_swish_float32_invoke(const opver_context *ctx,
					      opver_node *node)
{
	const hard_swish_float32_data *data = node->op_data;
	const float *input = node->inputs[0]->data;
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++) {
		const float x = input[i];
		const float relu6 = x + 3.0f < 0.0f   ? 0.0f
				    : x + 3.0f > 6.0f ? 6.0f
						      : x + 3.0f;

		output[i] = x * relu6 / 6.0f;
	}
	return OPVER_OK;
}

/* A Q0.31 multiplier rounded to Q0.15, as TFLite's
 * DownScaleInt32ToInt16Multiplier. */
static int16_t hard_swish_q15(int32_t multiplier)
{
	if (multiplier >= INT32_MAX - (1 << 15))
		return INT16_MAX;
	return (int16_t)((multiplier + (1 << 15)) >> 16);
}

static opver_status hard_swish_quantized_prepare(const opver_context *ctx,
						 opver_node *node)
{
	hard_swish_quantized_data *d = node->op_data;
	ref_activation_quant q;
	float hires_scale;
	int32_t multiplier;
	opver_status status;

	status = ref_activation_check(ctx, node, &ref_hard_swish_quantized,
				      &q);
	if (status != OPVER_OK)
		return status;
	/* The scales in float, as TFLite computes them. */
	hires_scale = (1.0f / 128.0f) * q.input_scale;
	status = ref_quantize_rescale(ctx, (double)(hires_scale /
						    q.output_scale),
				      &multiplier, &d->output_exponent,
				      "input scale / 128 / output scale");
	if (status != OPVER_OK)
		return status;
	if (d->output_exponent > 0) {
		OPVER_REPORT(ctx,
			     "input scale %g is more than 128 x the output scale %g; quantized HARD_SWISH needs it at most that",
			     (double)q.input_scale, (double)q.output_scale);
		return OPVER_ERROR_INVALID_MODEL;
	}
	d->output_multiplier = hard_swish_q15(multiplier);
	status = ref_quantize_rescale(
		ctx, (double)(hires_scale / (3.0f / 32768.0f)), &multiplier,
		&d->reluish_exponent, "input scale / 128 / (3 / 32768)");
	if (status != OPVER_OK)
		return status;
	/* The reluish value is int16: a shift beyond 16 either way is
	 * saturation or zero, as TFLite's shifts make it. */
	if (d->reluish_exponent < -31) {
		OPVER_REPORT(ctx, "input scale %g is too small",
			     (double)q.input_scale);
		return OPVER_ERROR_INVALID_MODEL;
	}
	d->reluish_multiplier = hard_swish_q15(multiplier);
	d->type = node->inputs[0]->type;
	d->count = opver_tensor_elements(node->inputs[0]);
	d->input_zero = q.input_zero;
	d->output_zero = q.output_zero;
	return OPVER_OK;
}

/* gemmlowp's int16 SaturatingRoundingDoublingHighMul. */
static inline int16_t q15_rounding_mul(int16_t a, int16_t b)
{
	const int32_t product = (int32_t)a * b;
	const int32_t nudge = product >= 0 ? (1 << 14) : 1 - (1 << 14);

	if (a == INT16_MIN && b == INT16_MIN)
		return INT16_MAX;
	return (int16_t)((product + nudge) / (1 << 15));
}

/* The same without rounding (toward zero): TFLite's
 * SaturatingDoublingHighMul. */
static inline int16_t q15_mul(int16_t a, int16_t b)
{
	if (a == INT16_MIN && b == INT16_MIN)
		return INT16_MAX;
	return (int16_t)(((int32_t)a * b) / (1 << 15));
}

/* x * 2^amount saturated to int16, amount in [0, 31]. */
static inline int16_t q15_saturating_shift_left(int16_t x, int amount)
{
	const int64_t shifted = (int64_t)x * (INT64_C(1) << amount);

	return (int16_t)(shifted > INT16_MAX   ? INT16_MAX
			 : shifted < INT16_MIN ? INT16_MIN
					       : shifted);
}

/*
 * gemmlowp's RoundingDivideByPOT on int16, which TFLite's HARD_SWISH
 * calls with the output exponent: its mask, (1 << exponent) - 1, is
 * truncated to int16, and from exponent 16 on it is all ones, so that
 * every x >= 0 gives 1 and every x < 0 gives -1 (with an output scale
 * over 2^16 / 128 times the input's, TFLite's outputs are the zero point
 * plus or minus one, never the zero point itself).  Below 16 this is the
 * usual rounding half away from zero.
 */
static inline int32_t q15_rounding_divide_by_pot(int16_t x, int exponent)
{
	if (exponent < 16)
		return ref_rounding_divide_by_pot(x, exponent);
	return x >= 0 ? 1 : -1;
}

static REF_ALWAYS_INLINE int32_t
hard_swish_quantized(const hard_swish_quantized_data *d, int32_t q)
{
	const int16_t hires = (int16_t)((q - d->input_zero) * 128);
	const int16_t preshift = q15_rounding_mul(hires, d->output_multiplier);
	int16_t reluish = hires;
	int32_t out;

	if (d->reluish_exponent > 0)
		reluish = q15_saturating_shift_left(reluish,
						    d->reluish_exponent - 1);
	reluish = q15_rounding_mul(reluish, d->reluish_multiplier);
	if (d->reluish_exponent > 0)
		reluish = q15_saturating_shift_left(reluish, 1);
	if (d->reluish_exponent < 0)
		reluish = (int16_t)ref_rounding_divide_by_pot(
			reluish, -d->reluish_exponent);
	/* From [-1, 1] to [0, 1]. */
	reluish = (int16_t)((reluish + (1 << 15)) >> 1);
	out = q15_rounding_divide_by_pot(q15_mul(reluish, preshift),
					 -d->output_exponent) +
	      d->output_zero;
	return out;
}

static opver_status hard_swish_quantized_invoke(const opver_context *ctx,
						opver_node *node)
{
	const hard_swish_quantized_data *d = node->op_data;
	const void *input = node->inputs[0]->data;
	void *output = node->outputs[0]->data;

	(void)ctx;
	if (d->type == OPVER_TYPE_INT8) {
		for (size_t i = 0; i < d->count; i++)
			((int8_t *)output)[i] = (int8_t)ref_clamp_int32(
				hard_swish_quantized(
					d, ((const int8_t *)input)[i]),
				INT8_MIN, INT8_MAX);
	} else {
		for (size_t i = 0; i < d->count; i++)
			((uint8_t *)output)[i] = (uint8_t)ref_clamp_int32(
				hard_swish_quantized(
					d, ((const uint8_t *)input)[i]),
				0, UINT8_MAX);
	}
	return OPVER_OK;
}

const opver_kernel ref_hard_swish_float32 = {
	OPVER_KERNEL("hard_swish_float32", HARD_SWISH, 1, 1),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(FLOAT32, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(hard_swish_float32_data),
	.prepare = hard_swish_float32_prepare,
	.invoke = hard_swish_float32_invoke,
};

#define HARD_SWISH_TYPES (OPVER_T(INT8) | OPVER_T(UINT8))

const opver_kernel ref_hard_swish_quantized = {
	OPVER_KERNEL("hard_swish_quantized", HARD_SWISH, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(HARD_SWISH_TYPES),
				       OPVER_OUTPUT(HARD_SWISH_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(hard_swish_quantized_data),
	.prepare = hard_swish_quantized_prepare,
	.invoke = hard_swish_quantized_invoke,
};
