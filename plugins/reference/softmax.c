/*
 * softmax.c - SOFTMAX along the last dimension, float32, int8, uint8 and
 * int16, computed as TensorFlow Lite's reference kernels compute it.
 *
 *   float32  exp(beta * (x - row max)) divided by the row's sum.
 *   int8, uint8, and int8 or uint8 to int16
 *            one implementation, gemmlowp fixed point: the difference
 *            from the row max, scaled by beta * input scale into Q5.26,
 *            exp() in Q0.31, the sum in Q12.19, its reciprocal, and a
 *            rounding shift to the output, whose quantization TFLite fixes
 *            at scale 1/256 (1/65536 for int16) and the output type's
 *            lowest value as zero point (-128, 0, -32768).  Differences
 *            too negative for Q5.26 give exp 0.  An 8-bit row max is at
 *            most 255 above any element, so prepare computes the exp of
 *            each of the 256 differences once: the same values, bit for
 *            bit, without the fixed-point exp per element and invoke.
 *   int16    two 513-entry lookup tables with linear interpolation, exp()
 *            over [-10, 0] and 1 / (1 + x) over [0, 1], built at prepare;
 *            input and output symmetric, output scale 1/32768.
 *
 * Version ranges (TFLite's op_version rules for SOFTMAX):
 *   1  float32, uint8 (to uint8 or int16)
 *   2  int8 (to int8 or int16)
 *   3  int16
 * A version adds only other input types, so every kernel covers 1..3.
 */
#include <float.h>
#include <math.h>

#include "fixed_point.h"
#include "kernels.h"
#include "lut.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"

typedef struct softmax_float32_data {
	ref_rows shape;
	float beta;
} softmax_float32_data;

/* Integer bits of the sum of exps (Q12.19), as TFLite's reference kernel;
 * the scaled differences are Q5.26 (ref_softmax_diff_scaling()). */
enum { SOFTMAX_SUM_INTEGER_BITS = 12 };

typedef struct softmax_quantized_data {
	ref_rows shape;
	/* beta * input scale in Q5.26 per input step: multiplier, left shift */
	int32_t diff_multiplier;
	int diff_shift;
	/* The most negative difference from the row max whose scaled value
	 * fits Q5.26; smaller ones count as exp 0. */
	int32_t diff_min;
	/* The output type's range; its lowest value is the zero point. */
	int32_t output_min;
	int32_t output_max;
	int output_bits; /* of the output type: steps of 1/2^output_bits */
	/* exp(beta * input scale * -d) in Q0.31 at index d, the distance
	 * below the row max; 0 below diff_min. */
	int32_t exp_below_max[256];
} softmax_quantized_data;

/* Entries of an int16 lookup table: 512 intervals and their end. */
enum { SOFTMAX_LUT_SIZE = REF_LUT16_SIZE };

typedef struct softmax_int16_data {
	ref_rows shape;
	/* beta * input scale per input step, in units of 10 / 65535 (the
	 * exp table's input step) */
	int32_t diff_multiplier;
	int diff_shift;
	/* Persistent memory of the node, SOFTMAX_LUT_SIZE entries each. */
	const int16_t *exp_table;
	const int16_t *reciprocal_table;
} softmax_int16_data;

/* Everything the kernels check: ref_check_rows() and a finite beta.
 * Fills the row shape. */
static opver_status softmax_prepare_common(const opver_context *ctx,
					   const opver_node *node,
					   opver_type in, opver_type out,
					   float *beta, ref_rows *shape)
{
	opver_softmax_params params = OPVER_SOFTMAX_PARAMS_DEFAULTS;
	opver_status status;

	status = ref_check_rows(ctx, node, in, out, "SOFTMAX", shape);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	*beta = params.beta;
	if (!isfinite(*beta)) {
		OPVER_REPORT(ctx, "beta is %g; it must be finite",
			     (double)*beta);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* The output quantization TFLite fixes for quantized SOFTMAX: scale within
 * 0.1% of `scale`, zero point exactly `zero_point`. */
static opver_status softmax_check_output(const opver_context *ctx,
					 const opver_tensor *output,
					 double scale, int32_t zero_point,
					 const char *scale_text)
{
	float got_scale;
	int32_t got_zero;
	opver_status status;

	status = ref_per_tensor_quantization(ctx, "output", output,
					     &got_scale, &got_zero);
	if (status != OPVER_OK)
		return status;
	if (got_zero != zero_point ||
	    fabs((double)got_scale - scale) > 0.001 * scale) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g and zero point %d; %s SOFTMAX needs an output scale of %s and zero point %d",
			     output->name, (double)got_scale,
			     (int)got_zero, ctx->host->type_name(output->type),
			     scale_text, (int)zero_point);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- float32 */

static opver_status softmax_float32_prepare(const opver_context *ctx,
					    opver_node *node)
{
	softmax_float32_data *data = node->op_data;

	return softmax_prepare_common(ctx, node, OPVER_TYPE_FLOAT32,
				      OPVER_TYPE_FLOAT32, &data->beta,
				      &data->shape);
}

static opver_status softmax_float32_invoke(const opver_context *ctx,
					   opver_node *node)
{
	const softmax_float32_data *data = node->op_data;
	const size_t depth = data->shape.depth;
	const float beta = data->beta;
	const float *input = node->inputs[0]->data;
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t r = 0; r < data->shape.rows; r++) {
		const float *in = input + r * depth;
		float *out = output + r * depth;
		float max = -FLT_MAX, sum = 0.0f;

		/* Written as TFLite's std::max, so a NaN is passed over. */
		for (size_t c = 0; c < depth; c++)
			max = max < in[c] ? in[c] : max;
		for (size_t c = 0; c < depth; c++) {
			out[c] = expf((in[c] - max) * beta);
			sum += out[c];
		}
		for (size_t c = 0; c < depth; c++)
			out[c] = out[c] / sum;
	}
	return OPVER_OK;
}

/* ----------------------------------------------------------- int8, uint8 */

/* exp(beta * input scale * diff) in Q0.31 for diff_min <= diff <= 0.  The
 * left shift cannot overflow: |diff| * 2^shift <= 31 * 2^26 there. */
static int32_t softmax_quantized_exp(const softmax_quantized_data *data,
				     int32_t diff)
{
	const int32_t shifted =
		(int32_t)((int64_t)diff * (INT64_C(1) << data->diff_shift));

	return ref_exp_on_negative_q5_26(
		ref_saturating_rounding_doubling_high_mul(
			shifted, data->diff_multiplier));
}

/* The 8-bit-input kernels' prepare, from `in` to `out`. */
static opver_status softmax_quantized_prepare(const opver_context *ctx,
					      opver_node *node, opver_type in,
					      opver_type out)
{
	softmax_quantized_data *data = node->op_data;
	float beta, input_scale;
	int32_t input_zero;
	opver_status status;

	status = softmax_prepare_common(ctx, node, in, out, &beta,
					&data->shape);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "input",
						     node->inputs[0],
						     &input_scale, &input_zero);
	if (status != OPVER_OK)
		return status;
	/* Outputs in steps of 1/2^bits from the type's lowest value. */
	ref_type_range(out, &data->output_min, &data->output_max);
	data->output_bits = out == OPVER_TYPE_INT16 ? 16 : 8;
	status = softmax_check_output(ctx, node->outputs[0],
				      ldexp(1.0, -data->output_bits),
				      data->output_min,
				      data->output_bits == 16 ? "1/65536"
							      : "1/256");
	if (status != OPVER_OK)
		return status;

	if (!ref_softmax_diff_scaling((double)beta * (double)input_scale,
				      &data->diff_multiplier,
				      &data->diff_shift, &data->diff_min)) {
		OPVER_REPORT(ctx,
			     "beta %g x input scale %g is too small: %s SOFTMAX needs beta x input scale x 2^26 > 1",
			     (double)beta, (double)input_scale,
			     ctx->host->type_name(in));
		return OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t d = 0; d < 256; d++)
		data->exp_below_max[d] = -d >= data->diff_min ?
			softmax_quantized_exp(data, -d) : 0;
	return OPVER_OK;
}

/* The output of an element `below` steps under the row max: its exp
 * times the reciprocal of the row's sum, shifted down by `exponent` to
 * steps of 1/2^output_bits, offset by the output's zero point, its type's
 * lowest value.  An exp of 0 gives 0 here as in TFLite's skipped branch. */
static inline int32_t softmax_quantized_output(const softmax_quantized_data *data,
					       int32_t below,
					       int32_t reciprocal,
					       int exponent)
{
	int32_t q = 0;

	if (exponent <= 31)
		q = ref_rounding_divide_by_pot(
			ref_saturating_rounding_doubling_high_mul(
				reciprocal, data->exp_below_max[below]),
			exponent);
	return ref_clamp_int32(q + data->output_min, data->output_min,
			       data->output_max);
}

/*
 * Defines `name`, the softmax of one row of `in_type` elements (int8_t,
 * uint8_t) into `out_type` ones (the same or int16_t).
 */
#define SOFTMAX_QUANTIZED_ROW_DEFINE(name, in_type, out_type)                 \
	static void name(const softmax_quantized_data *data,                  \
			 const in_type *in, out_type *out)                    \
	{                                                                     \
		const size_t depth = data->shape.depth;                       \
		int32_t max = INT32_MIN, reciprocal;                          \
		int64_t sum = 0;                                              \
		int bits_over_unit, exponent;                                 \
                                                                              \
		for (size_t c = 0; c < depth; c++)                            \
			max = in[c] > max ? in[c] : max;                      \
		/* In Q12.19: each Q0.31 exp divided by 2^12.  TFLite's      \
		 * int32 sum would overflow past 4095 exps of 1; saturated,  \
		 * it gives outputs of step 0, as they should be (each       \
		 * probability is below 1/4096). */                          \
		for (size_t c = 0; c < depth; c++)                            \
			sum += ref_rounding_divide_by_pot(                    \
				data->exp_below_max[max - in[c]],             \
				SOFTMAX_SUM_INTEGER_BITS);                    \
		reciprocal = ref_reciprocal(sum < INT32_MAX ? (int32_t)sum    \
							    : INT32_MAX,      \
					    SOFTMAX_SUM_INTEGER_BITS,         \
					    &bits_over_unit);                 \
		/* From Q0.31 to steps of 1/2^output_bits.  The row max      \
		 * gives exp 1, so the sum is at least 1 and bits_over_unit  \
		 * >= 0.  For 8 bits, a sum of 512 or more (exponent > 31, a \
		 * shift TFLite does not support) leaves every probability   \
		 * at most 1/512, which rounds to step 0; the sum stays      \
		 * below 4096, so 16 bits never get there. */                \
		exponent = bits_over_unit + 31 - data->output_bits;           \
		for (size_t c = 0; c < depth; c++)                            \
			out[c] = (out_type)softmax_quantized_output(          \
				data, max - in[c], reciprocal, exponent);     \
	}

/*
 * Defines name_prepare and name_invoke, the callbacks of the kernel from
 * `in_type` (opver type `in`) to `out_type` (opver type `out`).
 */
#define SOFTMAX_QUANTIZED_DEFINE(name, in_type, in, out_type, out)           \
	static opver_status name##_prepare(const opver_context *ctx,           \
					   opver_node *node)                 \
	{                                                                    \
		return softmax_quantized_prepare(ctx, node, in, out);        \
	}                                                                    \
                                                                             \
	static opver_status name##_invoke(const opver_context *ctx,            \
					  opver_node *node)                  \
	{                                                                    \
		const softmax_quantized_data *data = node->op_data;          \
		const size_t depth = data->shape.depth;                      \
		const in_type *input = node->inputs[0]->data;                \
		out_type *output = node->outputs[0]->data;                   \
                                                                             \
		(void)ctx;                                                  \
		for (size_t r = 0; r < data->shape.rows; r++)                \
			name##_row(data, input + r * depth,                  \
				   output + r * depth);                      \
		return OPVER_OK;                                             \
	}

#define SOFTMAX_QUANTIZED_KERNEL(name, in_type, in, out_type, out)  \
	SOFTMAX_QUANTIZED_ROW_DEFINE(name##_row, in_type, out_type) \
	SOFTMAX_QUANTIZED_DEFINE(name, in_type, in, out_type, out)

SOFTMAX_QUANTIZED_KERNEL(softmax_int8, int8_t, OPVER_TYPE_INT8, int8_t,
			 OPVER_TYPE_INT8)
SOFTMAX_QUANTIZED_KERNEL(softmax_uint8, uint8_t, OPVER_TYPE_UINT8, uint8_t,
			 OPVER_TYPE_UINT8)
SOFTMAX_QUANTIZED_KERNEL(softmax_int8_int16, int8_t, OPVER_TYPE_INT8,
			 int16_t, OPVER_TYPE_INT16)
SOFTMAX_QUANTIZED_KERNEL(softmax_uint8_int16, uint8_t, OPVER_TYPE_UINT8,
			 int16_t, OPVER_TYPE_INT16)

/* ---------------------------------------------------------------- int16 */

static double one_over_one_plus(double x)
{
	return 1.0 / (1.0 + x);
}

static int16_t lut_entry(double value)
{
	return (int16_t)fmin(fmax(value, -32768.0), 32767.0);
}

/*
 * Samples f over [min, max] into SOFTMAX_LUT_SIZE Q0.15 entries, as
 * TFLite's gen_lut: each sample but the last is lowered by half the error
 * that linear interpolation makes at its interval's midpoint, so that
 * interpolation errs evenly above and below f.
 */
static void lut_fill(double (*f)(double), double min, double max,
		     int16_t *table)
{
	const double step = (max - min) / (SOFTMAX_LUT_SIZE - 1);

	for (int i = 0; i < SOFTMAX_LUT_SIZE - 1; i++) {
		const double sample = round(f(min + i * step) * 32768.0);
		const double next = f(min + (i + 1) * step) * 32768.0;
		const double midpoint =
			round(f(min + i * step + step / 2.0) * 32768.0);
		const double interpolated = round((next + sample) / 2.0);

		table[i] = lut_entry(sample -
				     round((interpolated - midpoint) / 2.0));
	}
	table[SOFTMAX_LUT_SIZE - 1] = lut_entry(round(f(max) * 32768.0));
}

static opver_status softmax_int16_prepare(const opver_context *ctx,
					  opver_node *node)
{
	softmax_int16_data *data = node->op_data;
	const opver_tensor *input;
	float beta, input_scale;
	int32_t input_zero;
	double rescale;
	int16_t *tables;
	opver_status status;

	status = softmax_prepare_common(ctx, node, OPVER_TYPE_INT16,
					OPVER_TYPE_INT16, &beta,
					&data->shape);
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	status = ref_per_tensor_quantization(ctx, "input", input,
					     &input_scale, &input_zero);
	if (status == OPVER_OK && input_zero != 0) {
		OPVER_REPORT(ctx,
			     "input '%s' has zero point %d; int16 SOFTMAX takes a symmetric input (zero point 0)",
			     input->name, (int)input_zero);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	if (status == OPVER_OK)
		status = softmax_check_output(ctx, node->outputs[0],
					      1.0 / 32768.0, 0, "1/32768");
	if (status != OPVER_OK)
		return status;

	/* Differences scaled so that -65535 is -10, the exp table's lower
	 * end.  As TFLite: scale x beta rounded to float, divided in
	 * double. */
	rescale = (isfinite(input_scale * beta)
			   ? (double)(input_scale * beta)
			   : (double)input_scale * (double)beta) /
		  (10.0 / 65535.0);
	status = ref_quantize_rescale(ctx, rescale, &data->diff_multiplier,
				      &data->diff_shift,
				      "beta x input scale / (10 / 65535)");
	if (status != OPVER_OK)
		return status;

	tables = ref_persistent(ctx, 2 * SOFTMAX_LUT_SIZE, sizeof(*tables),
				"exp and reciprocal table entries");
	if (tables == NULL)
		return OPVER_ERROR_NOMEM;
	/* exp over [-10, 0]: lower differences are clamped to -10, whose exp
	 * is 1.5 steps of 1/32768, as in TFLite. */
	lut_fill(exp, -10.0, 0.0, tables);
	lut_fill(one_over_one_plus, 0.0, 1.0, tables + SOFTMAX_LUT_SIZE);
	data->exp_table = tables;
	data->reciprocal_table = tables + SOFTMAX_LUT_SIZE;
	return OPVER_OK;
}

/* exp(beta * input scale * diff) in Q0.15 for diff <= 0: the scaled
 * difference recentred from [-65535, 0] onto the int16 range.  In int64
 * because a negative beta makes the scaled difference positive, where
 * recentring could overflow int32. */
static inline int16_t softmax_int16_exp(const softmax_int16_data *data,
					int32_t diff)
{
	const int64_t recentred =
		(int64_t)ref_multiply_by_quantized_multiplier(
			diff, data->diff_multiplier, data->diff_shift) +
		32767;

	return ref_lut16_lookup((int16_t)(recentred < INT16_MIN   ? INT16_MIN
				    : recentred > INT16_MAX ? INT16_MAX
							    : recentred),
			  data->exp_table);
}

static opver_status softmax_int16_invoke(const opver_context *ctx,
					 opver_node *node)
{
	const softmax_int16_data *data = node->op_data;
	const size_t depth = data->shape.depth;
	const int16_t *input = node->inputs[0]->data;
	int16_t *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t r = 0; r < data->shape.rows; r++) {
		const int16_t *in = input + r * depth;
		int16_t *out = output + r * depth;
		int32_t max = INT16_MIN, sum, shifted_sum, reciprocal;
		int64_t total = 0;
		int headroom_plus_one, right_shift;

		for (size_t c = 0; c < depth; c++)
			max = in[c] > max ? in[c] : max;
		/* The exps go to the output first, as in TFLite: the row is
		 * read before its element is written, so in place works. */
		for (size_t c = 0; c < depth; c++) {
			out[c] = softmax_int16_exp(data, in[c] - max);
			total += out[c];
		}
		/* In Q16.15.  TFLite's int32 sum would overflow only past
		 * 65536 elements, where every output is ~0 anyway; here it
		 * saturates. */
		sum = total < INT32_MAX ? (int32_t)total : INT32_MAX;
		/* The sum scaled by a power of two into [1, 2), with 16
		 * fractional bits; its fraction above 1, recentred onto
		 * int16, is the x of the 1 / (1 + x) table.  The row max's
		 * exp makes the sum at least 2^14, so every shift below is
		 * in range.  TFLite rounds its shifts by adding half and
		 * shifting; on the non-negative values here that is
		 * ref_rounding_divide_by_pot(). */
		headroom_plus_one = ref_count_leading_zeros((uint32_t)sum);
		shifted_sum = ref_rounding_divide_by_pot(
			(int32_t)((uint32_t)sum << (headroom_plus_one - 1)), 14);
		/* 98304 is 1 (65536) plus the recentring 32768. */
		reciprocal = ref_lut16_lookup(
			(int16_t)ref_clamp_int32(shifted_sum - 98304,
						 INT16_MIN, INT16_MAX),
			data->reciprocal_table);
		/* Both int16: the product fits an int32. */
		right_shift = 31 - headroom_plus_one;
		for (size_t c = 0; c < depth; c++)
			out[c] = (int16_t)ref_clamp_int32(
				ref_rounding_divide_by_pot(out[c] * reciprocal,
							   right_shift),
				0, INT16_MAX);
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_softmax_float32 = {
	OPVER_KERNEL("softmax_float32", SOFTMAX, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(FLOAT32, FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(softmax_float32_data),
	.prepare = softmax_float32_prepare, .invoke = softmax_float32_invoke,
};

const opver_kernel ref_softmax_int8 = {
	OPVER_KERNEL("softmax_int8", SOFTMAX, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(INT8, INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(softmax_quantized_data),
	.prepare = softmax_int8_prepare, .invoke = softmax_int8_invoke,
};

const opver_kernel ref_softmax_uint8 = {
	OPVER_KERNEL("softmax_uint8", SOFTMAX, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(UINT8, UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(softmax_quantized_data),
	.prepare = softmax_uint8_prepare, .invoke = softmax_uint8_invoke,
};

const opver_kernel ref_softmax_int16 = {
	OPVER_KERNEL("softmax_int16", SOFTMAX, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(INT16, INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(softmax_int16_data),
	.prepare = softmax_int16_prepare, .invoke = softmax_int16_invoke,
};

const opver_kernel ref_softmax_int8_int16 = {
	OPVER_KERNEL("softmax_int8_int16", SOFTMAX, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(INT8, INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(softmax_quantized_data),
	.prepare = softmax_int8_int16_prepare,
	.invoke = softmax_int8_int16_invoke,
};

const opver_kernel ref_softmax_uint8_int16 = {
	OPVER_KERNEL("softmax_uint8_int16", SOFTMAX, 1, 3),
	REF_SIGNATURES(REF_UNARY_SIGNATURE(UINT8, INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(softmax_quantized_data),
	.prepare = softmax_uint8_int16_prepare,
	.invoke = softmax_uint8_int16_invoke,
};
