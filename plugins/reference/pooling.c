/*
 * pooling.c - AVERAGE_POOL_2D and MAX_POOL_2D, float32, int8, uint8 and
 * int16, computed as TensorFlow Lite's reference kernels compute them.  Each
 * output element [n, y, x, c] is the average or the maximum of channel c
 * over the input window of output pixel (y, x), clamped to the fused
 * activation's range.  A window hanging over the input's edge (SAME
 * pooling.c - AVERAGE_POOL_2D and MAX_POOL_2D, float32, int8 and int16,
 * and L2_POOL_2D, float32, computed as TensorFlow Lite's reference kernels
 * compute them.  Each output element [n, y, x, c] is the average, the
 * maximum or the root mean square of channel c over the input window of
 * output pixel (y, x), clamped to the fused activation's range.  A window hanging over the input's edge (SAME
 * padding) covers padding, which is left out of the maximum, the sum and
 * the count alike: it averages only the input elements it covers.
 *
 * Quantized pooling needs input and output to share scale and zero point,
 * so it works on the stored integers: the maximum directly, the average as
 * an int32 sum divided by the count, rounded half away from zero (uint8
 * sums are never negative, so that is TFLite's uint8 rounding, half up,
 * too): one implementation for the three integer types.
 *
 * Version ranges (TFLite's op_version rules, the same for both ops):
 *   1  float32, uint8
 *   2  int8
 *   3  int16
 * A version adds only other tensor types, so every kernel covers 1..3.
 * L2_POOL_2D has no version rule in TFLite: version 1 only.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"

typedef struct pool_data {
	int32_t batches;
	int32_t channels;
	ref_window height; /* in, filter, stride, out and pad of dimension 1 */
	ref_window width;  /* of dimension 2 */
	size_t element_size;
	int32_t type; /* of input and output, for the integer kernels */
	/* float32 kernels: the activation's clamp */
	float float_min;
	float float_max;
	/* integer kernels: the activation's clamp, the type's lowest
	 * value (where a maximum starts), and the scratch of one int32 per
	 * channel that invoke works in */
	int32_t quantized_min;
	int32_t quantized_max;
	int32_t lowest;
	int32_t work;
} pool_data;

/* Checks the node's tensors and geometry and fills data's shape: one
 * input [N, H, W, C] and one output [N, OH, OW, C] of `type`, OH and OW
 * as TFLite computes them from the padding, filter and strides. */
static opver_status pool_prepare_common(const opver_context *ctx,
					const opver_node *node,
					opver_type type,
					opver_pool_params *params,
					pool_data *data)
{
	const opver_tensor *input, *output;
	opver_status status;

	status = ref_check_arity(ctx, node, 1, 1, 1,
				 node->op == OPVER_OP_MAX_POOL_2D
					 ? "MAX_POOL_2D takes one input and one output"
				 : node->op == OPVER_OP_L2_POOL_2D
					 ? "L2_POOL_2D takes one input and one output"
					 : "AVERAGE_POOL_2D takes one input and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	output = node->outputs[0];
	status = ref_expect_type(ctx, "input", input, type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, type);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "input", input, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", output, 4);
	if (status != OPVER_OK)
		return status;

	/* Sizes the core did not fill stay 0, which the window rejects. */
	*params = (opver_pool_params)OPVER_POOL_PARAMS_DEFAULTS;
	opver_read_params(node, params, sizeof(*params));
	status = ref_expect_clamp_activation(ctx, params->activation);
	if (status != OPVER_OK)
		return status;
	data->height = (ref_window){ .in = input->dims[1],
				     .filter = params->filter_height,
				     .stride = params->stride_height,
				     .dilation = 1 };
	data->width = (ref_window){ .in = input->dims[2],
				    .filter = params->filter_width,
				    .stride = params->stride_width,
				    .dilation = 1 };
	status = ref_windows_compute(ctx, params->padding, &data->height,
				     &data->width);
	if (status != OPVER_OK)
		return status;
	data->batches = input->dims[0];
	data->channels = input->dims[3];
	return ref_shape_output(ctx, node, 0,
				(const int32_t[4]){ data->batches,
						    data->height.out,
						    data->width.out,
						    data->channels },
				4, "the input and window give");
}

/* --------------------------------------------------------- the windows */

/* Input rows (or columns) [start, end) under one output row (or column);
 * never empty, since TFLite's padding keeps every window on the input. */
typedef struct pool_span {
	int32_t start;
	int32_t end;
} pool_span;

static pool_span pool_span_of(const ref_window *w, int32_t out)
{
	const int64_t origin = (int64_t)out * w->stride - w->pad;
	const int64_t end = origin + w->filter;

	return (pool_span){ .start = origin < 0 ? 0 : (int32_t)origin,
			    .end = end < w->in ? (int32_t)end : w->in };
}

/* Computes one output pixel (all channels) into `out` from the input
 * image (one batch) at `image`, over input rows `rows` and columns
 * `cols`; `work` is the integer kernels' scratch, NULL for float. */
typedef void (*pool_pixel_fn)(const pool_data *data, int32_t *work,
			      const void *image, pool_span rows,
			      pool_span cols, void *out);

/* The first channel of input pixel (y, x) of an image. */
static const void *pool_input_pixel(const pool_data *data, const void *image,
				    int32_t y, int32_t x)
{
	const size_t index = ((size_t)y * (size_t)data->width.in + (size_t)x) *
			     (size_t)data->channels;

	return (const unsigned char *)image + index * data->element_size;
}

/* Runs `pixel` for every output pixel, in output order. */
static void pool_run(const opver_node *node, pool_pixel_fn pixel,
		     int32_t *work)
{
	const pool_data *data = node->op_data;
	const size_t pixel_bytes = (size_t)data->channels * data->element_size;
	const size_t image_bytes = (size_t)data->height.in *
				   (size_t)data->width.in * pixel_bytes;
	const unsigned char *input = node->inputs[0]->data;
	unsigned char *out = node->outputs[0]->data;

	for (int32_t n = 0; n < data->batches; n++) {
		const unsigned char *image = input + (size_t)n * image_bytes;

		for (int32_t y = 0; y < data->height.out; y++) {
			const pool_span rows = pool_span_of(&data->height, y);

			for (int32_t x = 0; x < data->width.out; x++) {
				pixel(data, work, image, rows,
				      pool_span_of(&data->width, x), out);
				out += pixel_bytes;
			}
		}
	}
}

/* ------------------------------------------------------------- float32 */

static opver_status pool_float32_prepare(const opver_context *ctx,
					 opver_node *node)
{
	pool_data *data = node->op_data;
	opver_pool_params params;
	opver_status status;

	status = pool_prepare_common(ctx, node, OPVER_TYPE_FLOAT32, &params,
				     data);
	if (status != OPVER_OK)
		return status;
	data->element_size = sizeof(float);
	ref_activation_range_float(params.activation, &data->float_min,
				   &data->float_max);
	return OPVER_OK;
}

/* The sum is taken in the output row, window row by window row as TFLite
 * adds, then divided by the count in float: bit for bit TFLite's. */
static void average_float32_pixel(const pool_data *data, int32_t *work,
				  const void *image, pool_span rows,
				  pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	const float count = (float)((rows.end - rows.start) *
				    (cols.end - cols.start));
	float *sums = out;
	(void)work;

	for (size_t c = 0; c < channels; c++)
		sums[c] = 0.0f;
	for (int32_t y = rows.start; y < rows.end; y++) {
		for (int32_t x = cols.start; x < cols.end; x++) {
			const float *in = pool_input_pixel(data, image, y, x);

			for (size_t c = 0; c < channels; c++)
				sums[c] += in[c];
		}
	}
	for (size_t c = 0; c < channels; c++)
		sums[c] = ref_clamp_float(sums[c] / count, data->float_min,
					  data->float_max);
}

/* As TFLite's std::max from the lowest float: a NaN is passed over. */
static void max_float32_pixel(const pool_data *data, int32_t *work,
			      const void *image, pool_span rows,
			      pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	float *maxima = out;
	(void)work;

	for (size_t c = 0; c < channels; c++)
		maxima[c] = -FLT_MAX;
	for (int32_t y = rows.start; y < rows.end; y++) {
		for (int32_t x = cols.start; x < cols.end; x++) {
			const float *in = pool_input_pixel(data, image, y, x);

			for (size_t c = 0; c < channels; c++)
				maxima[c] = maxima[c] < in[c] ? in[c]
							      : maxima[c];
		}
	}
	for (size_t c = 0; c < channels; c++)
		maxima[c] = ref_clamp_float(maxima[c], data->float_min,
					    data->float_max);
}

/* sqrt(sum of squares / count), the squares added as TFLite adds them. */
static void l2_float32_pixel(const pool_data *data, int32_t *work,
			     const void *image, pool_span rows,
			     pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	const float count = (float)((rows.end - rows.start) *
				    (cols.end - cols.start));
	float *sums = out;
	(void)work;

	for (size_t c = 0; c < channels; c++)
		sums[c] = 0.0f;
	for (int32_t y = rows.start; y < rows.end; y++) {
		for (int32_t x = cols.start; x < cols.end; x++) {
			const float *in = pool_input_pixel(data, image, y, x);

			for (size_t c = 0; c < channels; c++)
				sums[c] += in[c] * in[c];
		}
	}
	for (size_t c = 0; c < channels; c++)
		sums[c] = ref_clamp_float(sqrtf(sums[c] / count),
					  data->float_min, data->float_max);
}

static opver_status l2_float32_invoke(const opver_context *ctx,
				      opver_node *node)
{
	(void)ctx;
	pool_run(node, l2_float32_pixel, NULL);
	return OPVER_OK;
}

static opver_status average_float32_invoke(const opver_context *ctx,
					   opver_node *node)
{
	(void)ctx;
	pool_run(node, average_float32_pixel, NULL);
	return OPVER_OK;
}

static opver_status max_float32_invoke(const opver_context *ctx,
				       opver_node *node)
{
	(void)ctx;
	pool_run(node, max_float32_pixel, NULL);
	return OPVER_OK;
}

/* -------------------------------------------------- int8, uint8, int16 */

/*
 * Input and output must share the quantization: TFLite pools the stored
 * integers.  The scales may differ by float noise (one part in a
 * million); the zero points must be equal.
 */
static opver_status pool_check_same_quantization(const opver_context *ctx,
						 const opver_tensor *input,
						 const opver_tensor *output,
						 float *scale,
						 int32_t *zero_point)
{
	float input_scale;
	int32_t input_zero;
	opver_status status;

	status = ref_per_tensor_quantization(ctx, "input", input,
					     &input_scale, &input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output", output,
						     scale, zero_point);
	if (status != OPVER_OK)
		return status;
	if (input_zero != *zero_point ||
	    fabs((double)input_scale - (double)*scale) >
		    1e-6 * (double)*scale) {
		OPVER_REPORT(ctx,
			     "input '%s' has scale %g and zero point %d, output '%s' scale %g and zero point %d; quantized pooling needs them equal",
			     input->name, (double)input_scale,
			     (int)input_zero, output->name,
			     (double)*scale, (int)*zero_point);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status pool_integer_prepare(const opver_context *ctx,
					 opver_node *node, opver_type type)
{
	pool_data *data = node->op_data;
	opver_pool_params params;
	float scale;
	int32_t zero_point, type_min, type_max;
	int64_t largest_window;
	opver_status status;

	status = pool_prepare_common(ctx, node, type, &params, data);
	if (status == OPVER_OK)
		status = pool_check_same_quantization(ctx, node->inputs[0],
						      node->outputs[0], &scale,
						      &zero_point);
	if (status == OPVER_OK)
		status = ref_output_activation_range(ctx, params.activation,
						     node->outputs[0], scale,
						     zero_point,
						     &data->quantized_min,
						     &data->quantized_max);
	if (status != OPVER_OK)
		return status;
	ref_type_range(type, &type_min, &type_max);
	/* The average's int32 sum, and the half count its rounding adds,
	 * would overflow (in TFLite too) on a window this large. */
	largest_window = (int64_t)(data->height.filter < data->height.in
					   ? data->height.filter
					   : data->height.in) *
			 (data->width.filter < data->width.in
				  ? data->width.filter
				  : data->width.in);
	if (node->op == OPVER_OP_AVERAGE_POOL_2D &&
	    largest_window * (type_max > -type_min ? type_max : -type_min) +
			    largest_window / 2 >
		    INT32_MAX) {
		OPVER_REPORT(ctx,
			     "a window of %lld %s elements could overflow the int32 sum",
			     (long long)largest_window,
			     ctx->host->type_name(type));
		return OPVER_ERROR_UNSUPPORTED;
	}
	data->type = type;
	data->element_size = type == OPVER_TYPE_INT16 ? sizeof(int16_t)
						      : sizeof(int8_t);
	data->lowest = type_min;
	return ref_request_scratch(ctx, (size_t)data->channels,
				   sizeof(int32_t), "channel sums", &data->work);
}

static opver_status pool_int8_prepare(const opver_context *ctx,
				      opver_node *node)
{
	return pool_integer_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status pool_int16_prepare(const opver_context *ctx,
				       opver_node *node)
{
	return pool_integer_prepare(ctx, node, OPVER_TYPE_INT16);
}

static opver_status pool_uint8_prepare(const opver_context *ctx,
				       opver_node *node)
{
	return pool_integer_prepare(ctx, node, OPVER_TYPE_UINT8);
}

/*
 * Runs the statements after `T` with T the C type of the integer elements
 * of opver type `type` (int8, uint8, int16).  The row helpers below branch
 * on it once per row, so each loop stays a plain vectorizable one.
 */
#define POOL_FOR_TYPE(type, T, ...)                  \
	switch (type) {                              \
	case OPVER_TYPE_INT8: {                      \
		typedef int8_t T;                    \
		__VA_ARGS__;                         \
		break;                               \
	}                                            \
	case OPVER_TYPE_UINT8: {                     \
		typedef uint8_t T;                   \
		__VA_ARGS__;                         \
		break;                               \
	}                                            \
	default: {                                   \
		typedef int16_t T;                   \
		__VA_ARGS__;                         \
		break;                               \
	}                                            \
	}

/* sums[c] += in[c] */
static inline void add_row(int32_t *sums, const void *in, size_t count,
			   int32_t type)
{
	POOL_FOR_TYPE(type, T, const T *values = in;
		      for (size_t c = 0; c < count; c++) sums[c] += values[c])
}

/* maxima[c] = max(maxima[c], in[c]) */
static inline void max_row(int32_t *maxima, const void *in, size_t count,
			   int32_t type)
{
	POOL_FOR_TYPE(type, T, const T *values = in;
		      for (size_t c = 0; c < count; c++) maxima[c] =
			      values[c] > maxima[c] ? values[c] : maxima[c])
}

/* out[c] = values[c], each already in the output type's range. */
static inline void store_row(void *out, const int32_t *values, size_t count,
			     int32_t type)
{
	POOL_FOR_TYPE(type, T, T *o = out;
		      for (size_t c = 0; c < count; c++) o[c] = (T)values[c])
}

static void average_integer_pixel(const pool_data *data, int32_t *work,
				  const void *image, pool_span rows,
				  pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	const int32_t count = (rows.end - rows.start) * (cols.end - cols.start);
	int32_t *sums = work;

	for (size_t c = 0; c < channels; c++)
		sums[c] = 0;
	for (int32_t y = rows.start; y < rows.end; y++)
		for (int32_t x = cols.start; x < cols.end; x++)
			add_row(sums, pool_input_pixel(data, image, y, x),
				channels, data->type);
	for (size_t c = 0; c < channels; c++) {
		/* Rounded half away from zero; C division truncates. */
		const int32_t average =
			sums[c] > 0 ? (sums[c] + count / 2) / count
				    : (sums[c] - count / 2) / count;

		sums[c] = ref_clamp_int32(average, data->quantized_min,
					  data->quantized_max);
	}
	store_row(out, sums, channels, data->type);
}

static void max_integer_pixel(const pool_data *data, int32_t *work,
			      const void *image, pool_span rows,
			      pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	int32_t *maxima = work;

	for (size_t c = 0; c < channels; c++)
		maxima[c] = data->lowest;
	for (int32_t y = rows.start; y < rows.end; y++)
		for (int32_t x = cols.start; x < cols.end; x++)
			max_row(maxima, pool_input_pixel(data, image, y, x),
				channels, data->type);
	for (size_t c = 0; c < channels; c++)
		maxima[c] = ref_clamp_int32(maxima[c], data->quantized_min,
					    data->quantized_max);
	store_row(out, maxima, channels, data->type);
}

static opver_status average_integer_invoke(const opver_context *ctx,
					   opver_node *node)
{
	const pool_data *data = node->op_data;
	int32_t *work = ref_scratch(ctx, data->work);

	if (work == NULL)
		return OPVER_ERROR;
	pool_run(node, average_integer_pixel, work);
	return OPVER_OK;
}

static opver_status max_integer_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const pool_data *data = node->op_data;
	int32_t *work = ref_scratch(ctx, data->work);

	if (work == NULL)
		return OPVER_ERROR;
	pool_run(node, max_integer_pixel, work);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

/* A kernel of this file: name, op, its newest version, the type of input
 * and output, prepare and invoke. */
#define POOL_KERNEL(kernel_name, op, max, type, prepare_fn, invoke_fn) \
	{                                                           \
		OPVER_KERNEL(kernel_name, op, 1, max),              \
		REF_SIGNATURES(REF_UNARY_SIGNATURE(type, type)),    \
		REF_KERNEL_TRAITS,                                  \
		.op_data_size = sizeof(pool_data),                  \
		.prepare = prepare_fn, .invoke = invoke_fn,         \
	}

const opver_kernel ref_average_pool_2d_float32 =
	POOL_KERNEL("average_pool_2d_float32", AVERAGE_POOL_2D, 3, FLOAT32,
		    pool_float32_prepare, average_float32_invoke);
const opver_kernel ref_average_pool_2d_int8 =
	POOL_KERNEL("average_pool_2d_int8", AVERAGE_POOL_2D, 3, INT8,
		    pool_int8_prepare, average_integer_invoke);
const opver_kernel ref_average_pool_2d_int16 =
	POOL_KERNEL("average_pool_2d_int16", AVERAGE_POOL_2D, 3, INT16,
		    pool_int16_prepare, average_integer_invoke);
const opver_kernel ref_average_pool_2d_uint8 =
	POOL_KERNEL("average_pool_2d_uint8", AVERAGE_POOL_2D, 3, UINT8,
		    pool_uint8_prepare, average_integer_invoke);
const opver_kernel ref_max_pool_2d_float32 =
	POOL_KERNEL("max_pool_2d_float32", MAX_POOL_2D, 3, FLOAT32,
		    pool_float32_prepare, max_float32_invoke);
const opver_kernel ref_max_pool_2d_int8 =
	POOL_KERNEL("max_pool_2d_int8", MAX_POOL_2D, 3, INT8,
		    pool_int8_prepare, max_integer_invoke);
const opver_kernel ref_max_pool_2d_int16 =
	POOL_KERNEL("max_pool_2d_int16", MAX_POOL_2D, 3, INT16,
		    pool_int16_prepare, max_integer_invoke);
const opver_kernel ref_max_pool_2d_uint8 =
	POOL_KERNEL("max_pool_2d_uint8", MAX_POOL_2D, 3, UINT8,
		    pool_uint8_prepare, max_integer_invoke);
const opver_kernel ref_l2_pool_2d_float32 =
	POOL_KERNEL("l2_pool_2d_float32", L2_POOL_2D, 1, FLOAT32,
		    pool_float32_prepare, l2_float32_invoke);
