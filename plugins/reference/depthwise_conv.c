/*
 * depthwise_conv.c - DEPTHWISE_CONV_2D, float32 and int8, computed as
 * TensorFlow Lite's reference kernels compute it.  Each channel c of the
 * input [N, H, W, C] has M filters of its own, which give output channels
 * c * M .. c * M + M - 1 of the output [N, OH, OW, C * M]; the filter is
 * [1, KH, KW, C * M] and the optional bias [C * M].  Window points that fall
 * in the padding contribute nothing.  The int8 kernel accumulates filter x
 * (input - input zero point) in int32 (int8 filters are symmetric), adds the
 * int32 bias, rescales each output channel with its own multiplier and shift
 * (the filter may be quantized per channel along dimension 3), adds the
 * output zero point and clamps.
 *
 * Version ranges (TFLite's op_version rules for DEPTHWISE_CONV_2D):
 *   1  float, uint8
 *   2  dilation other than 1: implemented
 *   3  int8: implemented
 *   4  hybrid (float input, int8 filter): not these kernels' types
 *   5  int16: not these kernels' types
 *   6  hybrid with a per-channel filter: not these kernels' types
 *   7  int4 filter: not these kernels' types
 * Both kernels therefore cover 1..7.
 */
#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

enum { DW_INPUT = 0, DW_FILTER = 1, DW_BIAS = 2 };

/* Filter quantization axis: one scale per output channel. */
#define DW_CHANNEL_AXIS 3

/* The node's shape and window, as prepare checked them. */
typedef struct dw_geometry {
	int32_t batches;
	int32_t in_height, in_width;
	int32_t in_depth;   /* C */
	int32_t multiplier; /* M */
	int32_t out_depth;  /* C * M */
	ref_window rows;    /* height: input, filter, stride, ..., padding */
	ref_window cols;    /* width, likewise */
} dw_geometry;

typedef struct dw_float32_data {
	dw_geometry g;
	float activation_min;
	float activation_max;
	/* One output pixel's sums, out_depth of them; node-persistent. */
	float *acc;
} dw_float32_data;

typedef struct dw_int8_data {
	dw_geometry g;
	int32_t input_offset;  /* minus the input zero point */
	int32_t output_offset; /* the output zero point */
	int32_t activation_min;
	int32_t activation_max;
	/* Per output channel, input scale x filter scale / output scale;
	 * out_depth entries each, node-persistent. */
	int32_t *multipliers;
	int *shifts;
	/* One output pixel's sums, out_depth of them; node-persistent. */
	int32_t *acc;
} dw_int8_data;

/* The node's tensors; bias is NULL when omitted. */
typedef struct dw_tensors {
	const opver_tensor *input;
	const opver_tensor *filter;
	const opver_tensor *bias;
	const opver_tensor *output;
} dw_tensors;

/* The node's parameters, with the defaults of ops.h (those of the .tflite
 * schema) for every field the core did not fill. */
static opver_depthwise_conv_params dw_params(const opver_node *node)
{
	const opver_depthwise_conv_params *given = node->params;
	opver_depthwise_conv_params params = {
		.padding = OPVER_PADDING_SAME,
		.activation = OPVER_ACTIVATION_NONE,
		.dilation_width = 1,
		.dilation_height = 1,
	};

	if (REF_PARAM_PRESENT(node, opver_depthwise_conv_params, padding))
		params.padding = given->padding;
	if (REF_PARAM_PRESENT(node, opver_depthwise_conv_params, stride_width))
		params.stride_width = given->stride_width;
	if (REF_PARAM_PRESENT(node, opver_depthwise_conv_params,
			      stride_height))
		params.stride_height = given->stride_height;
	if (REF_PARAM_PRESENT(node, opver_depthwise_conv_params,
			      depth_multiplier))
		params.depth_multiplier = given->depth_multiplier;
	if (REF_PARAM_PRESENT(node, opver_depthwise_conv_params, activation))
		params.activation = given->activation;
	if (REF_PARAM_PRESENT(node, opver_depthwise_conv_params,
			      dilation_width))
		params.dilation_width = given->dilation_width;
	if (REF_PARAM_PRESENT(node, opver_depthwise_conv_params,
			      dilation_height))
		params.dilation_height = given->dilation_height;
	return params;
}

/* The bias tensor, or NULL when the node has none. */
static const opver_tensor *dw_bias(const opver_node *node)
{
	return node->num_inputs > DW_BIAS ? node->inputs[DW_BIAS] : NULL;
}

/* Collects the node's tensors and checks their count, types and ranks:
 * `data` for input, filter and output, `bias_type` for the bias. */
static opver_status dw_get_tensors(const opver_host *host,
				   const opver_node *node, opver_type data,
				   opver_type bias_type, dw_tensors *t)
{
	opver_status status;

	status = ref_check_arity(host, node, 2, 3, 1,
				 "DEPTHWISE_CONV_2D takes input, filter, an optional bias and one output");
	if (status != OPVER_OK)
		return status;
	t->input = node->inputs[DW_INPUT];
	t->filter = node->inputs[DW_FILTER];
	t->bias = dw_bias(node);
	t->output = node->outputs[0];
	status = ref_expect_type(host, "input", t->input, data);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "filter", t->filter, data);
	if (status == OPVER_OK && t->bias != NULL)
		status = ref_expect_type(host, "bias", t->bias, bias_type);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "output", t->output, data);
	if (status == OPVER_OK)
		status = ref_expect_rank(host, "input", t->input, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(host, "output", t->output, 4);
	return status;
}

/* The channel counts: C from the input, C * M from the filter, and M from
 * both, checked against the redundant depth_multiplier option unless that
 * is 0. */
static opver_status dw_channels(const opver_host *host, const dw_tensors *t,
				int32_t option, dw_geometry *g)
{
	const opver_tensor *in = t->input, *f = t->filter;

	if (f->rank != 4 || f->dims[0] != 1 || f->dims[1] <= 0 ||
	    f->dims[2] <= 0 || f->dims[3] <= 0) {
		host->report_error(host,
				   "filter '%s' must have shape [1, height, width, channels] with all positive (rank %d)",
				   f->name, (int)f->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	g->in_depth = in->dims[3];
	g->out_depth = f->dims[3];
	if (g->in_depth <= 0 || g->out_depth % g->in_depth != 0) {
		host->report_error(host,
				   "filter '%s' has %d channels; they must be a multiple of the %d channels of input '%s'",
				   f->name, (int)g->out_depth, (int)g->in_depth,
				   in->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	g->multiplier = g->out_depth / g->in_depth;
	if (option != 0 && option != g->multiplier) {
		host->report_error(host,
				   "depth_multiplier is %d, but filter '%s' gives each of the %d input channels %d output channels",
				   (int)option, f->name, (int)g->in_depth,
				   (int)g->multiplier);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status dw_check_shapes(const opver_host *host,
				    const dw_tensors *t,
				    const opver_depthwise_conv_params *params,
				    dw_geometry *g)
{
	const opver_tensor *out = t->output;
	opver_status status;

	status = dw_channels(host, t, params->depth_multiplier, g);
	if (status != OPVER_OK)
		return status;
	g->batches = t->input->dims[0];
	g->in_height = t->input->dims[1];
	g->in_width = t->input->dims[2];
	g->rows = (ref_window){
		.in = g->in_height,
		.filter = t->filter->dims[1],
		.stride = params->stride_height,
		.dilation = params->dilation_height,
	};
	g->cols = (ref_window){
		.in = g->in_width,
		.filter = t->filter->dims[2],
		.stride = params->stride_width,
		.dilation = params->dilation_width,
	};
	status = ref_window_compute(host, "height", params->padding, &g->rows);
	if (status == OPVER_OK)
		status = ref_window_compute(host, "width", params->padding,
					    &g->cols);
	if (status != OPVER_OK)
		return status;
	if (t->bias != NULL &&
	    opver_tensor_elements(t->bias) != (size_t)g->out_depth) {
		host->report_error(host,
				   "bias '%s' has %zu elements; the filter has %d channels",
				   t->bias->name,
				   opver_tensor_elements(t->bias),
				   (int)g->out_depth);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (out->dims[0] != g->batches || out->dims[1] != g->rows.out ||
	    out->dims[2] != g->cols.out || out->dims[3] != g->out_depth) {
		host->report_error(host,
				   "output '%s' has shape [%d, %d, %d, %d]; the input, filter and parameters give [%d, %d, %d, %d]",
				   out->name, (int)out->dims[0],
				   (int)out->dims[1], (int)out->dims[2],
				   (int)out->dims[3], (int)g->batches,
				   (int)g->rows.out, (int)g->cols.out,
				   (int)g->out_depth);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* Everything both kernels check: parameters, tensor types and shapes. */
static opver_status dw_prepare_common(const opver_host *host,
				      const opver_node *node, opver_type data,
				      opver_type bias_type,
				      opver_depthwise_conv_params *params,
				      dw_tensors *t, dw_geometry *g)
{
	opver_status status;

	*params = dw_params(node);
	status = ref_expect_clamp_activation(host, params->activation);
	if (status == OPVER_OK)
		status = dw_get_tensors(host, node, data, bias_type, t);
	if (status == OPVER_OK)
		status = dw_check_shapes(host, t, params, g);
	return status;
}

/* Node-persistent memory for `count` elements of `size` bytes, or NULL
 * after reporting. */
static void *dw_allocate(const opver_host *host, int32_t count, size_t size)
{
	void *memory = host->allocate_persistent(host, (size_t)count * size);

	if (memory == NULL)
		host->report_error(host,
				   "out of memory for %d output channels",
				   (int)count);
	return memory;
}

/* ------------------------------------------------------------- float32 */

static opver_status dw_float32_prepare(const opver_host *host,
				       opver_node *node)
{
	dw_float32_data *data = node->op_data;
	opver_depthwise_conv_params params;
	dw_tensors t;
	opver_status status;

	status = dw_prepare_common(host, node, OPVER_TYPE_FLOAT32,
				   OPVER_TYPE_FLOAT32, &params, &t, &data->g);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	data->acc = dw_allocate(host, data->g.out_depth, sizeof(float));
	return data->acc != NULL ? OPVER_OK : OPVER_ERROR_NOMEM;
}

/* acc[c * M + m] += in[c] * filter[c * M + m] for one window point. */
static void dw_accumulate_float32(float *acc, const float *in,
				  const float *filter, int32_t in_depth,
				  int32_t multiplier)
{
	if (multiplier == 1) {
		for (int32_t c = 0; c < in_depth; c++)
			acc[c] += in[c] * filter[c];
		return;
	}
	for (int32_t c = 0; c < in_depth; c++) {
		const float x = in[c];
		float *a = acc + (size_t)c * multiplier;
		const float *f = filter + (size_t)c * multiplier;

		for (int32_t m = 0; m < multiplier; m++)
			a[m] += x * f[m];
	}
}

/* One output pixel, every channel: the window at (y0, x0) over `image`,
 * one batch of the input. */
static void dw_float32_pixel(const dw_float32_data *data, const float *image,
			     const float *filter, const float *bias,
			     int32_t y0, int32_t x0, float *out)
{
	const dw_geometry *g = &data->g;
	const size_t depth = (size_t)g->out_depth;
	float *acc = data->acc;
	int32_t ky0, ky1, kx0, kx1;

	ref_window_taps(&g->rows, y0, &ky0, &ky1);
	ref_window_taps(&g->cols, x0, &kx0, &kx1);
	for (size_t c = 0; c < depth; c++)
		acc[c] = 0.0f;
	/* Window points in TFLite's order, so that every channel's sum is
	 * rounded exactly as there. */
	for (int32_t ky = ky0; ky < ky1; ky++) {
		const int32_t y = y0 + ky * g->rows.dilation;

		for (int32_t kx = kx0; kx < kx1; kx++) {
			const int32_t x = x0 + kx * g->cols.dilation;

			dw_accumulate_float32(
				acc,
				image + ((size_t)y * g->in_width + x) *
						g->in_depth,
				filter + ((size_t)ky * g->cols.filter + kx) *
						 depth,
				g->in_depth, g->multiplier);
		}
	}
	for (size_t c = 0; c < depth; c++)
		out[c] = ref_clamp_float(
			acc[c] + (bias != NULL ? bias[c] : 0.0f),
			data->activation_min, data->activation_max);
}

static opver_status dw_float32_invoke(const opver_host *host,
				      opver_node *node)
{
	const dw_float32_data *data = node->op_data;
	const dw_geometry *g = &data->g;
	const size_t image_size =
		(size_t)g->in_height * g->in_width * g->in_depth;
	const float *input = node->inputs[DW_INPUT]->data;
	const float *filter = node->inputs[DW_FILTER]->data;
	const opver_tensor *bias_tensor = dw_bias(node);
	const float *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	float *out = node->outputs[0]->data;

	(void)host;
	for (int32_t b = 0; b < g->batches; b++) {
		const float *image = input + (size_t)b * image_size;

		for (int32_t oy = 0; oy < g->rows.out; oy++) {
			for (int32_t ox = 0; ox < g->cols.out; ox++) {
				dw_float32_pixel(data, image, filter, bias,
						 oy * g->rows.stride -
							 g->rows.pad,
						 ox * g->cols.stride -
							 g->cols.pad,
						 out);
				out += g->out_depth;
			}
		}
	}
	return OPVER_OK;
}

/* ---------------------------------------------------------------- int8 */

static opver_status dw_int8_prepare(const opver_host *host, opver_node *node)
{
	dw_int8_data *data = node->op_data;
	opver_depthwise_conv_params params;
	dw_tensors t;
	float input_scale, output_scale;
	int32_t input_zero, output_zero;
	opver_status status;

	status = dw_prepare_common(host, node, OPVER_TYPE_INT8,
				   OPVER_TYPE_INT32, &params, &t, &data->g);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(host, "input", t.input,
						     &input_scale, &input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(host, "output", t.output,
						     &output_scale,
						     &output_zero);
	/* TFLite's int8 kernel never subtracts a filter zero point, so only
	 * symmetric filters give the right result.  The bias's own
	 * quantization is not checked: TFLite uses the int32 values as they
	 * are (person_detect quantizes them oddly). */
	if (status == OPVER_OK)
		status = ref_filter_scales_check(host, t.filter,
						 DW_CHANNEL_AXIS,
						 data->g.out_depth);
	if (status != OPVER_OK)
		return status;
	data->multipliers = dw_allocate(host, data->g.out_depth,
					sizeof(*data->multipliers));
	data->shifts = dw_allocate(host, data->g.out_depth,
				   sizeof(*data->shifts));
	data->acc = dw_allocate(host, data->g.out_depth, sizeof(*data->acc));
	if (data->multipliers == NULL || data->shifts == NULL ||
	    data->acc == NULL)
		return OPVER_ERROR_NOMEM;
	status = ref_channel_rescales(host, t.filter, DW_CHANNEL_AXIS,
				      data->g.out_depth, input_scale,
				      output_scale, data->multipliers,
				      data->shifts);
	if (status == OPVER_OK)
		status = ref_output_activation_range(host, params.activation,
						     t.output, output_scale,
						     output_zero,
						     &data->activation_min,
						     &data->activation_max);
	if (status != OPVER_OK)
		return status;
	data->input_offset = -input_zero;
	data->output_offset = output_zero;
	return OPVER_OK;
}

/* acc[c * M + m] += filter[c * M + m] * (in[c] + offset) for one window
 * point. */
static void dw_accumulate_int8(int32_t *acc, const int8_t *in,
			       const int8_t *filter, int32_t in_depth,
			       int32_t multiplier, int32_t input_offset)
{
	if (multiplier == 1) {
		for (int32_t c = 0; c < in_depth; c++)
			acc[c] += (int32_t)filter[c] *
				  ((int32_t)in[c] + input_offset);
		return;
	}
	for (int32_t c = 0; c < in_depth; c++) {
		const int32_t x = (int32_t)in[c] + input_offset;
		int32_t *a = acc + (size_t)c * multiplier;
		const int8_t *f = filter + (size_t)c * multiplier;

		for (int32_t m = 0; m < multiplier; m++)
			a[m] += (int32_t)f[m] * x;
	}
}

/* One output pixel, every channel: the window at (y0, x0) over `image`,
 * one batch of the input. */
static void dw_int8_pixel(const dw_int8_data *data, const int8_t *image,
			  const int8_t *filter, const int32_t *bias,
			  int32_t y0, int32_t x0, int8_t *out)
{
	const dw_geometry *g = &data->g;
	const size_t depth = (size_t)g->out_depth;
	int32_t *acc = data->acc;
	int32_t ky0, ky1, kx0, kx1;

	ref_window_taps(&g->rows, y0, &ky0, &ky1);
	ref_window_taps(&g->cols, x0, &kx0, &kx1);
	for (size_t c = 0; c < depth; c++)
		acc[c] = 0;
	for (int32_t ky = ky0; ky < ky1; ky++) {
		const int32_t y = y0 + ky * g->rows.dilation;

		for (int32_t kx = kx0; kx < kx1; kx++) {
			const int32_t x = x0 + kx * g->cols.dilation;

			dw_accumulate_int8(
				acc,
				image + ((size_t)y * g->in_width + x) *
						g->in_depth,
				filter + ((size_t)ky * g->cols.filter + kx) *
						 depth,
				g->in_depth, g->multiplier,
				data->input_offset);
		}
	}
	for (size_t c = 0; c < depth; c++) {
		const int32_t value = ref_multiply_by_quantized_multiplier(
			acc[c] + (bias != NULL ? bias[c] : 0),
			data->multipliers[c], data->shifts[c]);

		out[c] = (int8_t)ref_clamp_int32(value + data->output_offset,
						 data->activation_min,
						 data->activation_max);
	}
}

static opver_status dw_int8_invoke(const opver_host *host, opver_node *node)
{
	const dw_int8_data *data = node->op_data;
	const dw_geometry *g = &data->g;
	const size_t image_size =
		(size_t)g->in_height * g->in_width * g->in_depth;
	const int8_t *input = node->inputs[DW_INPUT]->data;
	const int8_t *filter = node->inputs[DW_FILTER]->data;
	const opver_tensor *bias_tensor = dw_bias(node);
	const int32_t *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	int8_t *out = node->outputs[0]->data;

	(void)host;
	for (int32_t b = 0; b < g->batches; b++) {
		const int8_t *image = input + (size_t)b * image_size;

		for (int32_t oy = 0; oy < g->rows.out; oy++) {
			for (int32_t ox = 0; ox < g->cols.out; ox++) {
				dw_int8_pixel(data, image, filter, bias,
					      oy * g->rows.stride - g->rows.pad,
					      ox * g->cols.stride - g->cols.pad,
					      out);
				out += g->out_depth;
			}
		}
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

static const opver_type_signature dw_float32_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

static const opver_type_signature dw_int8_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_INT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT8),
} };

const opver_kernel ref_depthwise_conv_2d_float32 = {
	.struct_size = sizeof(opver_kernel),
	.name = "depthwise_conv_2d_float32",
	.op = OPVER_OP_DEPTHWISE_CONV_2D,
	.min_version = 1,
	.max_version = 7,
	.signatures = dw_float32_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(dw_float32_data),
	.prepare = dw_float32_prepare,
	.invoke = dw_float32_invoke,
};

const opver_kernel ref_depthwise_conv_2d_int8 = {
	.struct_size = sizeof(opver_kernel),
	.name = "depthwise_conv_2d_int8",
	.op = OPVER_OP_DEPTHWISE_CONV_2D,
	.min_version = 1,
	.max_version = 7,
	.signatures = dw_int8_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(dw_int8_data),
	.prepare = dw_int8_prepare,
	.invoke = dw_int8_invoke,
};
