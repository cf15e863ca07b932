/*
 * pooling.c - AVERAGE_POOL_2D and MAX_POOL_2D, float32, int8 and int16,
 * computed as TensorFlow Lite's reference kernels compute them.  Each
 * output element [n, y, x, c] is the average or the maximum of channel c
 * over the input window of output pixel (y, x), clamped to the fused
 * activation's range.  A window hanging over the input's edge (SAME
 * padding) covers padding, which is left out of the maximum, the sum and
 * the count alike: it averages only the input elements it covers.
 *
 * Quantized pooling needs input and output to share scale and zero point,
 * so it works on the stored integers: the maximum directly, the average as
 * an int32 sum divided by the count, rounded half away from zero.
 *
 * Version ranges (TFLite's op_version rules, the same for both ops):
 *   1  float32, uint8
 *   2  int8
 *   3  int16
 * A version adds only other tensor types, so every kernel covers 1..3.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

typedef struct pool_data {
	int32_t batches;
	int32_t channels;
	ref_window height; /* in, filter, stride, out and pad of dimension 1 */
	ref_window width;  /* of dimension 2 */
	size_t element_size;
	/* float32 kernels: the activation's clamp */
	float float_min;
	float float_max;
	/* int8 and int16 kernels: the activation's clamp, the type's lowest
	 * value (where a maximum starts), and one int32 per channel of the
	 * node's persistent memory that invoke works in */
	int32_t quantized_min;
	int32_t quantized_max;
	int32_t lowest;
	int32_t *work;
} pool_data;

/* The node's parameters, with 0 (which prepare rejects for sizes) for
 * every field the core did not fill. */
static opver_pool_params pool_params(const opver_node *node)
{
	const opver_pool_params *given = node->params;
	opver_pool_params params = { .padding = OPVER_PADDING_SAME };

	if (REF_PARAM_PRESENT(node, opver_pool_params, padding))
		params.padding = given->padding;
	if (REF_PARAM_PRESENT(node, opver_pool_params, stride_width))
		params.stride_width = given->stride_width;
	if (REF_PARAM_PRESENT(node, opver_pool_params, stride_height))
		params.stride_height = given->stride_height;
	if (REF_PARAM_PRESENT(node, opver_pool_params, filter_width))
		params.filter_width = given->filter_width;
	if (REF_PARAM_PRESENT(node, opver_pool_params, filter_height))
		params.filter_height = given->filter_height;
	if (REF_PARAM_PRESENT(node, opver_pool_params, activation))
		params.activation = given->activation;
	return params;
}

/* Checks the node's tensors and geometry and fills data's shape: one
 * input [N, H, W, C] and one output [N, OH, OW, C] of `type`, OH and OW
 * as TFLite computes them from the padding, filter and strides. */
static opver_status pool_prepare_common(const opver_host *host,
					const opver_node *node,
					opver_type type,
					opver_pool_params *params,
					pool_data *data)
{
	const opver_tensor *input, *output;
	opver_status status;

	status = ref_check_arity(host, node, 1, 1, 1,
				 node->op == OPVER_OP_MAX_POOL_2D
					 ? "MAX_POOL_2D takes one input and one output"
					 : "AVERAGE_POOL_2D takes one input and one output");
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	output = node->outputs[0];
	status = ref_expect_type(host, "input", input, type);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "output", output, type);
	if (status == OPVER_OK)
		status = ref_expect_rank(host, "input", input, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(host, "output", output, 4);
	if (status != OPVER_OK)
		return status;

	*params = pool_params(node);
	status = ref_expect_clamp_activation(host, params->activation);
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
	status = ref_window_compute(host, "height", params->padding,
				    &data->height);
	if (status == OPVER_OK)
		status = ref_window_compute(host, "width", params->padding,
					    &data->width);
	if (status != OPVER_OK)
		return status;
	data->batches = input->dims[0];
	data->channels = input->dims[3];
	if (output->dims[0] != data->batches ||
	    output->dims[1] != data->height.out ||
	    output->dims[2] != data->width.out ||
	    output->dims[3] != data->channels) {
		host->report_error(host,
				   "output '%s' has shape [%d, %d, %d, %d]; the input and window give [%d, %d, %d, %d]",
				   output->name, (int)output->dims[0],
				   (int)output->dims[1], (int)output->dims[2],
				   (int)output->dims[3], (int)data->batches,
				   (int)data->height.out, (int)data->width.out,
				   (int)data->channels);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
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
 * `cols`. */
typedef void (*pool_pixel_fn)(const pool_data *data, const void *image,
			      pool_span rows, pool_span cols, void *out);

/* The first channel of input pixel (y, x) of an image. */
static const void *pool_input_pixel(const pool_data *data, const void *image,
				    int32_t y, int32_t x)
{
	const size_t index = ((size_t)y * (size_t)data->width.in + (size_t)x) *
			     (size_t)data->channels;

	return (const unsigned char *)image + index * data->element_size;
}

/* Runs `pixel` for every output pixel, in output order. */
static void pool_run(const opver_node *node, pool_pixel_fn pixel)
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
				pixel(data, image, rows,
				      pool_span_of(&data->width, x), out);
				out += pixel_bytes;
			}
		}
	}
}

/* ------------------------------------------------------------- float32 */

static opver_status pool_float32_prepare(const opver_host *host,
					 opver_node *node)
{
	pool_data *data = node->op_data;
	opver_pool_params params;
	opver_status status;

	status = pool_prepare_common(host, node, OPVER_TYPE_FLOAT32, &params,
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
static void average_float32_pixel(const pool_data *data, const void *image,
				  pool_span rows, pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	const float count = (float)((rows.end - rows.start) *
				    (cols.end - cols.start));
	float *sums = out;

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
static void max_float32_pixel(const pool_data *data, const void *image,
			      pool_span rows, pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	float *maxima = out;

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

static opver_status average_float32_invoke(const opver_host *host,
					   opver_node *node)
{
	(void)host;
	pool_run(node, average_float32_pixel);
	return OPVER_OK;
}

static opver_status max_float32_invoke(const opver_host *host,
				       opver_node *node)
{
	(void)host;
	pool_run(node, max_float32_pixel);
	return OPVER_OK;
}

/* --------------------------------------------------------- int8, int16 */

/*
 * Input and output must share the quantization: TFLite pools the stored
 * integers.  The scales may differ by float noise (one part in a
 * million); the zero points must be equal.
 */
static opver_status pool_check_same_quantization(const opver_host *host,
						 const opver_tensor *input,
						 const opver_tensor *output,
						 float *scale,
						 int32_t *zero_point)
{
	float input_scale;
	int32_t input_zero;
	opver_status status;

	status = ref_per_tensor_quantization(host, "input", input,
					     &input_scale, &input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(host, "output", output,
						     scale, zero_point);
	if (status != OPVER_OK)
		return status;
	if (input_zero != *zero_point ||
	    fabs((double)input_scale - (double)*scale) >
		    1e-6 * (double)*scale) {
		host->report_error(host,
				   "input '%s' has scale %g and zero point %d, output '%s' scale %g and zero point %d; quantized pooling needs them equal",
				   input->name, (double)input_scale,
				   (int)input_zero, output->name,
				   (double)*scale, (int)*zero_point);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status pool_integer_prepare(const opver_host *host,
					 opver_node *node, opver_type type)
{
	pool_data *data = node->op_data;
	opver_pool_params params;
	float scale;
	int32_t zero_point, type_min, type_max;
	int64_t largest_window;
	opver_status status;

	status = pool_prepare_common(host, node, type, &params, data);
	if (status == OPVER_OK)
		status = pool_check_same_quantization(host, node->inputs[0],
						      node->outputs[0], &scale,
						      &zero_point);
	if (status == OPVER_OK)
		status = ref_output_activation_range(host, params.activation,
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
	    largest_window * -(int64_t)type_min + largest_window / 2 >
		    INT32_MAX) {
		host->report_error(host,
				   "a window of %lld %s elements could overflow the int32 sum",
				   (long long)largest_window,
				   ref_type_name(type));
		return OPVER_ERROR_UNSUPPORTED;
	}
	data->element_size = type == OPVER_TYPE_INT8 ? sizeof(int8_t)
						     : sizeof(int16_t);
	data->lowest = type_min;
	data->work = host->allocate_persistent(host, (size_t)data->channels *
							     sizeof(int32_t));
	if (data->work == NULL) {
		host->report_error(host, "out of memory for %d channels",
				   (int)data->channels);
		return OPVER_ERROR_NOMEM;
	}
	return OPVER_OK;
}

static opver_status pool_int8_prepare(const opver_host *host,
				      opver_node *node)
{
	return pool_integer_prepare(host, node, OPVER_TYPE_INT8);
}

static opver_status pool_int16_prepare(const opver_host *host,
				       opver_node *node)
{
	return pool_integer_prepare(host, node, OPVER_TYPE_INT16);
}

/* The row helpers branch on the element size once per row, so each loop
 * stays a plain vectorizable one. */

/* sums[c] += in[c] */
static inline void add_row(int32_t *sums, const void *in, size_t count,
			   size_t element_size)
{
	if (element_size == sizeof(int8_t)) {
		const int8_t *values = in;

		for (size_t c = 0; c < count; c++)
			sums[c] += values[c];
	} else {
		const int16_t *values = in;

		for (size_t c = 0; c < count; c++)
			sums[c] += values[c];
	}
}

/* maxima[c] = max(maxima[c], in[c]) */
static inline void max_row(int32_t *maxima, const void *in, size_t count,
			   size_t element_size)
{
	if (element_size == sizeof(int8_t)) {
		const int8_t *values = in;

		for (size_t c = 0; c < count; c++)
			maxima[c] = values[c] > maxima[c] ? values[c]
							  : maxima[c];
	} else {
		const int16_t *values = in;

		for (size_t c = 0; c < count; c++)
			maxima[c] = values[c] > maxima[c] ? values[c]
							  : maxima[c];
	}
}

/* out[c] = values[c], each already in the output type's range. */
static inline void store_row(void *out, const int32_t *values, size_t count,
			     size_t element_size)
{
	if (element_size == sizeof(int8_t)) {
		int8_t *o = out;

		for (size_t c = 0; c < count; c++)
			o[c] = (int8_t)values[c];
	} else {
		int16_t *o = out;

		for (size_t c = 0; c < count; c++)
			o[c] = (int16_t)values[c];
	}
}

static void average_integer_pixel(const pool_data *data, const void *image,
				  pool_span rows, pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	const int32_t count = (rows.end - rows.start) * (cols.end - cols.start);
	int32_t *sums = data->work;

	for (size_t c = 0; c < channels; c++)
		sums[c] = 0;
	for (int32_t y = rows.start; y < rows.end; y++)
		for (int32_t x = cols.start; x < cols.end; x++)
			add_row(sums, pool_input_pixel(data, image, y, x),
				channels, data->element_size);
	for (size_t c = 0; c < channels; c++) {
		/* Rounded half away from zero; C division truncates. */
		const int32_t average =
			sums[c] > 0 ? (sums[c] + count / 2) / count
				    : (sums[c] - count / 2) / count;

		sums[c] = ref_clamp_int32(average, data->quantized_min,
					  data->quantized_max);
	}
	store_row(out, sums, channels, data->element_size);
}

static void max_integer_pixel(const pool_data *data, const void *image,
			      pool_span rows, pool_span cols, void *out)
{
	const size_t channels = (size_t)data->channels;
	int32_t *maxima = data->work;

	for (size_t c = 0; c < channels; c++)
		maxima[c] = data->lowest;
	for (int32_t y = rows.start; y < rows.end; y++)
		for (int32_t x = cols.start; x < cols.end; x++)
			max_row(maxima, pool_input_pixel(data, image, y, x),
				channels, data->element_size);
	for (size_t c = 0; c < channels; c++)
		maxima[c] = ref_clamp_int32(maxima[c], data->quantized_min,
					    data->quantized_max);
	store_row(out, maxima, channels, data->element_size);
}

static opver_status average_integer_invoke(const opver_host *host,
					   opver_node *node)
{
	(void)host;
	pool_run(node, average_integer_pixel);
	return OPVER_OK;
}

static opver_status max_integer_invoke(const opver_host *host,
				       opver_node *node)
{
	(void)host;
	pool_run(node, max_integer_pixel);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

static const opver_type_signature pool_float32_signatures[] = { {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

static const opver_type_signature pool_int8_signatures[] = { {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_INT8) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT8),
} };

static const opver_type_signature pool_int16_signatures[] = { {
	.inputs = { OPVER_TYPE_BIT(OPVER_TYPE_INT16) },
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT16),
} };

/* A kernel of this file: name, op, signatures, prepare and invoke. */
#define POOL_KERNEL(kernel_name, pool_op, types, prepare_fn, invoke_fn)  \
	{                                                                 \
		.struct_size = sizeof(opver_kernel),                      \
		.name = kernel_name,                                      \
		.op = pool_op,                                            \
		.min_version = 1,                                         \
		.max_version = 3,                                         \
		.signatures = types,                                      \
		.num_signatures = 1,                                      \
		.priority = REF_PRIORITY,                                 \
		.flags = OPVER_KERNEL_STATELESS,                          \
		.op_data_size = sizeof(pool_data),                        \
		.prepare = prepare_fn,                                    \
		.invoke = invoke_fn,                                      \
	}

const opver_kernel ref_average_pool_2d_float32 =
	POOL_KERNEL("average_pool_2d_float32", OPVER_OP_AVERAGE_POOL_2D,
		    pool_float32_signatures, pool_float32_prepare,
		    average_float32_invoke);
const opver_kernel ref_average_pool_2d_int8 =
	POOL_KERNEL("average_pool_2d_int8", OPVER_OP_AVERAGE_POOL_2D,
		    pool_int8_signatures, pool_int8_prepare,
		    average_integer_invoke);
const opver_kernel ref_average_pool_2d_int16 =
	POOL_KERNEL("average_pool_2d_int16", OPVER_OP_AVERAGE_POOL_2D,
		    pool_int16_signatures, pool_int16_prepare,
		    average_integer_invoke);
const opver_kernel ref_max_pool_2d_float32 =
	POOL_KERNEL("max_pool_2d_float32", OPVER_OP_MAX_POOL_2D,
		    pool_float32_signatures, pool_float32_prepare,
		    max_float32_invoke);
const opver_kernel ref_max_pool_2d_int8 =
	POOL_KERNEL("max_pool_2d_int8", OPVER_OP_MAX_POOL_2D,
		    pool_int8_signatures, pool_int8_prepare,
		    max_integer_invoke);
const opver_kernel ref_max_pool_2d_int16 =
	POOL_KERNEL("max_pool_2d_int16", OPVER_OP_MAX_POOL_2D,
		    pool_int16_signatures, pool_int16_prepare,
		    max_integer_invoke);
