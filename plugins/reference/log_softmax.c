/*
 * log_softmax.c - LOG_SOFTMAX along the last dimension, float32, int8 and
 * uint8, computed as TensorFlow Lite's reference kernels compute it.
 *
 *   float32  x - row max - log(sum of exp(x - row max)).
 *   int8, uint8
 *            one implementation, gemmlowp fixed point (the int8 kernel of
 *            TFLite's reference_integer_ops and TFLite Micro, which the
 *            uint8 one repeats with another zero point): the differences
 *            from the row max scaled by the input scale into Q5.26 (beta
 *            is 1: LOG_SOFTMAX has no options), the sum of their exps in
 *            Q12.19, its log in Q5.26, and each scaled difference minus
 *            that log shifted to the output, whose quantization TFLite
 *            fixes at scale 16/256 and the type's highest value as zero
 *            point (127, 255): outputs span [-255/16, 0].  Differences
 *            below diff_min (too negative for Q5.26) count as exp 0 in the
 *            sum; they, and those whose Q5.26 value minus the log would
 *            overflow int32, give the type's lowest value.
 *
 * Version ranges (TFLite's op_version rules for LOG_SOFTMAX):
 *   1  float32, uint8
 *   2  int8
 * A version adds only another tensor type, so every kernel covers 1..2.
 */
#include <float.h>
#include <math.h>

#include "fixed_point.h"
#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

/* Integer bits of the sum of exps (Q12.19); fractional bits of the output
 * before its zero point (steps of 16/256). */
enum { LOG_SOFTMAX_SUM_INTEGER_BITS = 12, LOG_SOFTMAX_OUTPUT_STEP_BITS = 4 };

typedef struct log_softmax_quantized_data {
	ref_rows shape;
	/* The input scale in Q5.26 per input step: multiplier, left shift */
	int32_t diff_multiplier;
	int diff_shift;
	/* Its inverse, below 1: multiplier and (non-positive) shift */
	int32_t reverse_multiplier;
	int reverse_shift;
	/* The most negative difference from the row max whose scaled value
	 * fits Q5.26; smaller ones count as exp 0. */
	int32_t diff_min;
	/* The output type's range; its highest value is the zero point. */
	int32_t output_min;
	int32_t output_max;
} log_softmax_quantized_data;

/* ------------------------------------------------------------- float32 */

static opver_status log_softmax_float32_prepare(const opver_context *ctx,
						opver_node *node)
{
	ref_rows *shape = node->op_data;

	return ref_check_rows(ctx, node, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
			      "LOG_SOFTMAX", shape);
}

static opver_status log_softmax_float32_invoke(const opver_context *ctx,
					       opver_node *node)
{
	const ref_rows *shape = node->op_data;
	const size_t depth = shape->depth;
	const float *input = node->inputs[0]->data;
	float *output = node->outputs[0]->data;

	(void)ctx;
	/* Rows of no elements: no data to point into (it may be NULL). */
	if (depth == 0)
		return OPVER_OK;
	for (size_t r = 0; r < shape->rows; r++) {
		const float *in = input + r * depth;
		float *out = output + r * depth;
		float max = -FLT_MAX, sum = 0.0f, log_sum;

		/* Written as TFLite's std::max, so a NaN is passed over. */
		for (size_t c = 0; c < depth; c++)
			max = max < in[c] ? in[c] : max;
		for (size_t c = 0; c < depth; c++)
			sum += expf(in[c] - max);
		log_sum = logf(sum);
		for (size_t c = 0; c < depth; c++)
			out[c] = in[c] - max - log_sum;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------ quantized */

/* The int8 and uint8 kernels' prepare, for tensors of `type`. */
static opver_status log_softmax_quantized_prepare(const opver_context *ctx,
						  opver_node *node,
						  opver_type type)
{
	log_softmax_quantized_data *data = node->op_data;
	const opver_tensor *output;
	float input_scale, output_scale;
	int32_t input_zero, output_zero;
	double reverse;
	opver_status status;

	status = ref_check_rows(ctx, node, type, type, "LOG_SOFTMAX",
				&data->shape);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "input",
						     node->inputs[0],
						     &input_scale, &input_zero);
	output = node->outputs[0];
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output", output,
						     &output_scale,
						     &output_zero);
	if (status != OPVER_OK)
		return status;
	ref_type_range(type, &data->output_min, &data->output_max);
	/* Exactly, as TFLite compares them. */
	if (output_scale != 16.0f / 256.0f ||
	    output_zero != data->output_max) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g and zero point %d; %s LOG_SOFTMAX needs an output scale of 16/256 and zero point %d",
			     output->name, (double)output_scale,
			     (int)output_zero, ctx->host->type_name(type),
			     (int)data->output_max);
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* TFLite's PreprocessLogSoftmaxScalingExp with beta 1: the scaling
	 * of SOFTMAX, and its inverse 2^(31 - shift) / multiplier as a
	 * multiplier below 1.  A factor just above 1 gives an inverse of 1,
	 * which TFLite's check rejects too. */
	if (!ref_softmax_diff_scaling((double)input_scale,
				      &data->diff_multiplier,
				      &data->diff_shift, &data->diff_min) ||
	    !((reverse = ldexp(1.0, 31 - data->diff_shift) /
			 (double)data->diff_multiplier) < 1.0)) {
		OPVER_REPORT(ctx,
			     "input scale %g is too small: %s LOG_SOFTMAX needs input scale x 2^26 > 1",
			     (double)input_scale, ctx->host->type_name(type));
		return OPVER_ERROR_UNSUPPORTED;
	}
	ref_quantize_multiplier(reverse, &data->reverse_multiplier,
				&data->reverse_shift);
	return OPVER_OK;
}

/* A difference from the row max in Q5.26 for diff_min <= diff <= 0
 * (TFLite's MultiplyByQuantizedMultiplierGreaterThanOne).  The left shift
 * cannot overflow: |diff| * 2^shift <= 31 * 2^26 there. */
static inline int32_t log_softmax_scaled(const log_softmax_quantized_data *data,
					 int32_t diff)
{
	return ref_saturating_rounding_doubling_high_mul(
		(int32_t)((int64_t)diff * (INT64_C(1) << data->diff_shift)),
		data->diff_multiplier);
}

/* A difference's share of the sum of exps in Q12.19: its Q0.31 exp divided
 * by 2^12, or 0 below diff_min. */
static inline int32_t log_softmax_exp(const log_softmax_quantized_data *data,
				      int32_t diff)
{
	if (diff < data->diff_min)
		return 0;
	return ref_rounding_divide_by_pot(
		ref_exp_on_negative_q5_26(log_softmax_scaled(data, diff)),
		LOG_SOFTMAX_SUM_INTEGER_BITS);
}

/*
 * From a row's sum of exps (at least 1: the row max's exp) to its log in
 * Q5.26, *log_sum, and the cut-off below which outputs are the lowest
 * value: diff_min - 1, since the sum left out what is below diff_min, or
 * where the scaled difference minus the log would leave int32, that is
 * (INT32_MIN + log) over the input multiplier, rounded as TFLite's
 * MultiplyByQuantizedMultiplierSmallerThanOneExp, if that is higher.
 * TFLite's int32 sum would overflow past 4095 exps of 1; here it
 * saturates.
 */
static inline int32_t log_softmax_cutoff(const log_softmax_quantized_data *data,
					 int64_t sum, int32_t *log_sum)
{
	int32_t reversed;

	*log_sum = ref_log_at_least_one(sum < INT32_MAX ? (int32_t)sum
						       : INT32_MAX,
					LOG_SOFTMAX_SUM_INTEGER_BITS);
	reversed = ref_rounding_divide_by_pot(
		ref_saturating_rounding_doubling_high_mul(
			INT32_MIN + *log_sum, data->reverse_multiplier),
		-data->reverse_shift);
	return data->diff_min - 1 > reversed ? data->diff_min - 1 : reversed;
}

/* The output of a difference above the cut-off: its scaled value minus the
 * log, from Q5.26 to steps of 1/16, offset by the zero point (the type's
 * highest value).  The subtraction wraps as TFLite's int32 one would, in
 * the rounding of the cut-off's last step. */
static inline int32_t log_softmax_output(const log_softmax_quantized_data *data,
					 int32_t diff, int32_t log_sum)
{
	const int32_t log_probability = (int32_t)(
		(uint32_t)log_softmax_scaled(data, diff) - (uint32_t)log_sum);

	return ref_clamp_int32(
		ref_rounding_divide_by_pot(log_probability,
					   REF_Q5_26_FRACTIONAL_BITS -
						   LOG_SOFTMAX_OUTPUT_STEP_BITS) +
			data->output_max,
		data->output_min, data->output_max);
}

/*
 * Defines name_prepare and name_invoke, the callbacks of the kernel whose
 * input and output are `type` (int8_t, uint8_t), opver type `opver`.
 */
#define LOG_SOFTMAX_QUANTIZED_KERNEL(name, type, opver)                       \
	static opver_status name##_prepare(const opver_context *ctx,          \
					   opver_node *node)                  \
	{                                                                     \
		return log_softmax_quantized_prepare(ctx, node, opver);       \
	}                                                                     \
                                                                              \
	static opver_status name##_invoke(const opver_context *ctx,           \
					  opver_node *node)                   \
	{                                                                     \
		const log_softmax_quantized_data *data = node->op_data;       \
		const size_t depth = data->shape.depth;                       \
                                                                              \
		(void)ctx;                                                    \
		if (depth == 0) /* no data to point into */                   \
			return OPVER_OK;                                      \
		for (size_t r = 0; r < data->shape.rows; r++) {               \
			const type *in =                                      \
				(const type *)node->inputs[0]->data +         \
				r * depth;                                    \
			type *out = (type *)node->outputs[0]->data +          \
				    r * depth;                                \
			int32_t max = data->output_min, log_sum, cutoff;      \
			int64_t sum = 0;                                      \
                                                                              \
			for (size_t c = 0; c < depth; c++)                    \
				max = in[c] > max ? in[c] : max;              \
			for (size_t c = 0; c < depth; c++)                    \
				sum += log_softmax_exp(data, in[c] - max);    \
			cutoff = log_softmax_cutoff(data, sum, &log_sum);     \
			for (size_t c = 0; c < depth; c++)                    \
				out[c] = (type)(in[c] - max > cutoff          \
					? log_softmax_output(data, in[c] - max,\
							     log_sum)         \
					: data->output_min);                  \
		}                                                             \
		return OPVER_OK;                                              \
	}

LOG_SOFTMAX_QUANTIZED_KERNEL(log_softmax_int8, int8_t, OPVER_TYPE_INT8)
LOG_SOFTMAX_QUANTIZED_KERNEL(log_softmax_uint8, uint8_t, OPVER_TYPE_UINT8)

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_log_softmax_float32 = {
	OPVER_KERNEL("log_softmax_float32", LOG_SOFTMAX, 1, 2),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(FLOAT32, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(ref_rows),
	.prepare = log_softmax_float32_prepare,
	.invoke = log_softmax_float32_invoke,
};

const opver_kernel ref_log_softmax_int8 = {
	OPVER_KERNEL("log_softmax_int8", LOG_SOFTMAX, 1, 2),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(INT8, INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(log_softmax_quantized_data),
	.prepare = log_softmax_int8_prepare, .invoke = log_softmax_int8_invoke,
};

const opver_kernel ref_log_softmax_uint8 = {
	OPVER_KERNEL("log_softmax_uint8", LOG_SOFTMAX, 1, 2),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(UINT8, UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(log_softmax_quantized_data),
	.prepare = log_softmax_uint8_prepare,
	.invoke = log_softmax_uint8_invoke,
};
