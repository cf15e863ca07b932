/*
 * quantize.c - QUANTIZE, computed as TensorFlow Lite's reference kernels
 * compute it:
 *
 *   float32 -> int8, uint8, int16 (AffineQuantize): x / scale in float,
 *       rounded half away from zero, plus the zero point, clamped to the
 *       output type; one scale per tensor or one per channel.
 *   int8, uint8, int16, int32 -> int8, uint8, int16, int32 (Requantize),
 *       for the pairs TFLite and TFLite Micro have (from uint8, to int8 or
 *       uint8; to uint8, from int8 or uint8; among int8, int16 and int32
 *       all but int32 -> int32, TFLite Micro's set, of which TFLite's
 *       builtin kernel lacks int8 -> int16 and int32): (x - input zero
 *       point) rescaled by input scale / output scale with TFLite's
 *       multiplier and shift, plus the output zero point, clamped to the
 *       output type.
 *
 * Version ranges (TFLite's op_version rules for QUANTIZE):
 *   1  float32 -> int8 or uint8, and requantizing
 *   2  int16 output (int32 output stays version 1: TFLite's rules have
 *      no branch for it)
 *   3  per-channel output
 *   4  int4, 5 uint4: not these kernels' types
 * The float32 kernels quantize per channel, so cover 1..5.  Requantizing
 * takes one output scale, as in TFLite, so those kernels cover 1..2.
 */
#include <math.h>

#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

#define QUANTIZE_USAGE "QUANTIZE takes one input and one output"

typedef struct quantize_float32_data {
	ref_channel_quantization layout; /* of the output */
	float type_min;                  /* the output type's range */
	float type_max;
} quantize_float32_data;

typedef struct requantize_data {
	size_t count;
	int32_t input_zero_point;
	int32_t output_zero_point;
	int32_t multiplier; /* input scale / output scale */
	int shift;
	int32_t type_min; /* the output type's range */
	int32_t type_max;
} requantize_data;

/* ------------------------------------------------------ float32 -> int */

/*
 * zero point + round(x / scale), clamped.  Clamped in float, before any
 * conversion: TFLite converts to int32 first, which is undefined for values
 * beyond it, so those saturate here; a NaN gives type_min.  Below 2^24 the
 * float sum is exact, and beyond it the value clamps either way.
 */
static inline float quantize_value(float x, float scale, float zero_point,
				   float type_min, float type_max)
{
	const float q = roundf(x / scale) + zero_point;

	return fminf(fmaxf(q, type_min), type_max);
}

static opver_status quantize_float32_prepare(const opver_context *ctx,
					     opver_node *node,
					     opver_type out)
{
	quantize_float32_data *data = node->op_data;
	int32_t min, max;
	opver_status status;

	status = ref_check_unary(ctx, node, OPVER_TYPE_FLOAT32, out,
				 QUANTIZE_USAGE);
	if (status == OPVER_OK)
		status = ref_channel_quantization_get(ctx, "output",
						      node->outputs[0], true,
						      &data->layout);
	if (status != OPVER_OK)
		return status;
	ref_type_range(out, &min, &max);
	data->type_min = (float)min;
	data->type_max = (float)max;
	return OPVER_OK;
}

/*
 * Defines name_prepare and name_invoke, the callbacks of the kernel that
 * quantizes float32 to `out_type` (opver type `out`), walking the output's
 * channels.
 */
#define QUANTIZE_FLOAT32_DEFINE(name, out_type, out)                         \
	static opver_status name##_prepare(const opver_context *ctx,            \
					   opver_node *node)                  \
	{                                                                     \
		return quantize_float32_prepare(ctx, node, out);             \
	}                                                                     \
                                                                              \
	static opver_status name##_invoke(const opver_context *ctx,             \
					  opver_node *node)                   \
	{                                                                     \
		const quantize_float32_data *data = node->op_data;            \
		const ref_channel_quantization *q = &data->layout;            \
		const float *in = node->inputs[0]->data;                      \
		out_type *o = node->outputs[0]->data;                         \
                                                                              \
		(void)ctx;                                                   \
		for (size_t n = 0; n < q->outer; n++)                         \
			for (size_t c = 0; c < q->channels; c++) {            \
				const float scale = q->scales[c];             \
				const float zero = (float)q->zero_points[c];  \
                                                                              \
				for (size_t i = 0; i < q->inner; i++)         \
					o[i] = (out_type)quantize_value(      \
						in[i], scale, zero,           \
						data->type_min,               \
						data->type_max);              \
				in += q->inner;                               \
				o += q->inner;                                \
			}                                                     \
		return OPVER_OK;                                              \
	}

QUANTIZE_FLOAT32_DEFINE(quantize_float32_int8, int8_t, OPVER_TYPE_INT8)
QUANTIZE_FLOAT32_DEFINE(quantize_float32_int16, int16_t, OPVER_TYPE_INT16)
QUANTIZE_FLOAT32_DEFINE(quantize_float32_uint8, uint8_t, OPVER_TYPE_UINT8)

/* ---------------------------------------------------------- requantize */

/* The difference from the input zero point wraps modulo 2^32, as TFLite's
 * int32 subtraction does, for int32 inputs near their limits.  The sum is
 * taken in 64 bits: a rescale of 1 or more can bring the int32 rescaled
 * value next to its limits, where adding the zero point would overflow. */
static inline int32_t requantize_value(int32_t x, const requantize_data *d)
{
	const int32_t diff =
		(int32_t)((uint32_t)x - (uint32_t)d->input_zero_point);
	const int64_t q = (int64_t)ref_multiply_by_quantized_multiplier(
				  diff, d->multiplier, d->shift) +
			  d->output_zero_point;

	return q < d->type_min ? d->type_min :
	       q > d->type_max ? d->type_max :
				 (int32_t)q;
}

static opver_status requantize_prepare(const opver_context *ctx,
				       opver_node *node, opver_type in,
				       opver_type out)
{
	requantize_data *data = node->op_data;
	const opver_tensor *input, *output;
	float input_scale, output_scale;
	double rescale;
	opver_status status;

	status = ref_check_unary(ctx, node, in, out,
				 QUANTIZE_USAGE);
	if (status != OPVER_OK)
		return status;
	/* Only now known to be there. */
	input = node->inputs[0];
	output = node->outputs[0];
	status = ref_per_tensor_quantization(ctx, "input", input, &input_scale,
					     &data->input_zero_point);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output", output,
						     &output_scale,
						     &data->output_zero_point);
	if (status != OPVER_OK)
		return status;
	if (in == OPVER_TYPE_INT16 && out == OPVER_TYPE_INT16 &&
	    (data->input_zero_point != 0 || data->output_zero_point != 0)) {
		OPVER_REPORT(ctx,
			     "input '%s' and output '%s' have zero points %d and %d; int16 to int16 needs both 0, as in TFLite",
			     input->name, output->name,
			     (int)data->input_zero_point,
			     (int)data->output_zero_point);
		return OPVER_ERROR_INVALID_MODEL;
	}
	rescale = (double)input_scale / (double)output_scale;
	status = ref_quantize_rescale(ctx, rescale, &data->multiplier,
				      &data->shift,
				      "input scale / output scale");
	if (status != OPVER_OK)
		return status;
	data->count = opver_tensor_elements(input);
	ref_type_range(out, &data->type_min, &data->type_max);
	return OPVER_OK;
}

/*
 * Defines name_prepare and name_invoke, the callbacks of the kernel that
 * requantizes `in_type` (opver type `in`) to `out_type` (opver type `out`).
 */
#define REQUANTIZE_DEFINE(name, in_type, in, out_type, out)                 \
	static opver_status name##_prepare(const opver_context *ctx,           \
					   opver_node *node)                 \
	{                                                                    \
		return requantize_prepare(ctx, node, in, out);              \
	}                                                                    \
                                                                             \
	static opver_status name##_invoke(const opver_context *ctx,            \
					  opver_node *node)                  \
	{                                                                    \
		const requantize_data *data = node->op_data;                 \
		const in_type *x = node->inputs[0]->data;                    \
		out_type *y = node->outputs[0]->data;                        \
                                                                             \
		(void)ctx;                                                  \
		for (size_t i = 0; i < data->count; i++)                     \
			y[i] = (out_type)requantize_value(x[i], data);       \
		return OPVER_OK;                                             \
	}

REQUANTIZE_DEFINE(requantize_int8_int8, int8_t, OPVER_TYPE_INT8, int8_t,
		  OPVER_TYPE_INT8)
REQUANTIZE_DEFINE(requantize_int16_int8, int16_t, OPVER_TYPE_INT16, int8_t,
		  OPVER_TYPE_INT8)
REQUANTIZE_DEFINE(requantize_int8_int16, int8_t, OPVER_TYPE_INT8, int16_t,
		  OPVER_TYPE_INT16)
REQUANTIZE_DEFINE(requantize_int16_int16, int16_t, OPVER_TYPE_INT16, int16_t,
		  OPVER_TYPE_INT16)
REQUANTIZE_DEFINE(requantize_uint8_uint8, uint8_t, OPVER_TYPE_UINT8, uint8_t,
		  OPVER_TYPE_UINT8)
REQUANTIZE_DEFINE(requantize_uint8_int8, uint8_t, OPVER_TYPE_UINT8, int8_t,
		  OPVER_TYPE_INT8)
REQUANTIZE_DEFINE(requantize_int8_uint8, int8_t, OPVER_TYPE_INT8, uint8_t,
		  OPVER_TYPE_UINT8)
REQUANTIZE_DEFINE(requantize_int8_int32, int8_t, OPVER_TYPE_INT8, int32_t,
		  OPVER_TYPE_INT32)
REQUANTIZE_DEFINE(requantize_int16_int32, int16_t, OPVER_TYPE_INT16, int32_t,
		  OPVER_TYPE_INT32)
REQUANTIZE_DEFINE(requantize_int32_int8, int32_t, OPVER_TYPE_INT32, int8_t,
		  OPVER_TYPE_INT8)
REQUANTIZE_DEFINE(requantize_int32_int16, int32_t, OPVER_TYPE_INT32, int16_t,
		  OPVER_TYPE_INT16)

/* ------------------------------------------------------------- manifest */

/* A kernel of this file: from type `in` to `out`, versions 1 to `max`, the
 * op_data type, and the callbacks impl_prepare and impl_invoke above. */
#define QUANTIZE_KERNEL(kernel_name, in, out, max, data_type, impl) \
	{                                                            \
		OPVER_KERNEL(kernel_name, QUANTIZE, 1, max),         \
		REF_SIGNATURES(REF_UNARY_SIGNATURE(in, out)),        \
		REF_KERNEL_TRAITS,                                   \
		.op_data_size = sizeof(data_type),                   \
		.prepare = impl##_prepare, .invoke = impl##_invoke,  \
	}

const opver_kernel ref_quantize_float32_int8 =
	QUANTIZE_KERNEL("quantize_float32_int8", FLOAT32, INT8, 5,
			quantize_float32_data, quantize_float32_int8);
const opver_kernel ref_quantize_float32_int16 =
	QUANTIZE_KERNEL("quantize_float32_int16", FLOAT32, INT16, 5,
			quantize_float32_data, quantize_float32_int16);
const opver_kernel ref_quantize_int8_int8 =
	QUANTIZE_KERNEL("quantize_int8_int8", INT8, INT8, 2, requantize_data,
			requantize_int8_int8);
const opver_kernel ref_quantize_int16_int8 =
	QUANTIZE_KERNEL("quantize_int16_int8", INT16, INT8, 2, requantize_data,
			requantize_int16_int8);
const opver_kernel ref_quantize_int8_int16 =
	QUANTIZE_KERNEL("quantize_int8_int16", INT8, INT16, 2, requantize_data,
			requantize_int8_int16);
const opver_kernel ref_quantize_int16_int16 =
	QUANTIZE_KERNEL("quantize_int16_int16", INT16, INT16, 2,
			requantize_data, requantize_int16_int16);
const opver_kernel ref_quantize_float32_uint8 =
	QUANTIZE_KERNEL("quantize_float32_uint8", FLOAT32, UINT8, 5,
			quantize_float32_data, quantize_float32_uint8);
const opver_kernel ref_quantize_uint8_uint8 =
	QUANTIZE_KERNEL("quantize_uint8_uint8", UINT8, UINT8, 2,
			requantize_data, requantize_uint8_uint8);
const opver_kernel ref_quantize_uint8_int8 =
	QUANTIZE_KERNEL("quantize_uint8_int8", UINT8, INT8, 2,
			requantize_data, requantize_uint8_int8);
const opver_kernel ref_quantize_int8_uint8 =
	QUANTIZE_KERNEL("quantize_int8_uint8", INT8, UINT8, 2,
			requantize_data, requantize_int8_uint8);
const opver_kernel ref_quantize_int8_int32 =
	QUANTIZE_KERNEL("quantize_int8_int32", INT8, INT32, 2,
			requantize_data, requantize_int8_int32);
const opver_kernel ref_quantize_int16_int32 =
	QUANTIZE_KERNEL("quantize_int16_int32", INT16, INT32, 2,
			requantize_data, requantize_int16_int32);
const opver_kernel ref_quantize_int32_int8 =
	QUANTIZE_KERNEL("quantize_int32_int8", INT32, INT8, 2,
			requantize_data, requantize_int32_int8);
const opver_kernel ref_quantize_int32_int16 =
	QUANTIZE_KERNEL("quantize_int32_int16", INT32, INT16, 2,
			requantize_data, requantize_int32_int16);
