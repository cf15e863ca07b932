/*
 * depthwise_conv.c - DEPTHWISE_CONV_2D, float32, int8 and uint8, computed as
 * TensorFlow Lite's reference kernels compute it.  Each channel c of the
 * input [N, H, W, C] has M filters of its own, which give output channels
 * c * M .. c * M + M - 1 of the output [N, OH, OW, C * M]; the filter is
 * [1, KH, KW, C * M] and the optional bias [C * M].  Window points that fall
 * in the padding contribute nothing.  The int8 and uint8 kernels, one
 * implementation, accumulate (filter - filter zero point) x (input - input
 * zero point) in int32 and end in requantize.h's output stage: bias, a
 * rescale per output channel, output zero point, clamp.  int8 filters are
 * symmetric, per tensor or per channel along dimension 3; uint8 is
 * TFLite's legacy asymmetric quantization, the filter per tensor with a
 * zero point and one rescale (ref_requantize_tensor).  The int16x8
 * kernel (int16 input and output with zero point 0, symmetric int8 filter
 * per tensor or per channel, optional int64 bias) sums filter x input in
 * int64 and ends in requantize.h's wide output stage, as TFLite's 16x8
 * DepthwiseConvPerChannel.
 *
 * Version ranges (TFLite's op_version rules for DEPTHWISE_CONV_2D):
 *   1  float, uint8: the float32 and uint8 kernels
 *   2  dilation other than 1: implemented
 *   3  int8: implemented
 *   4  hybrid (float input, int8 filter): not these kernels' types
 *   5  int16 filter: not these kernels' types (TFLite gives int16
 *      activations with an int8 filter version 1 or 2)
 *   6  hybrid with a per-channel filter: not these kernels' types
 *   7  int4 filter: not these kernels' types
 * The four kernels therefore cover 1..7.
 */
#include <stdint.h>

#include "filter_node.h"
#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "requantize.h"

/* Filter quantization axis: one scale per output channel. */
#define DW_CHANNEL_AXIS 3

#define DW_USAGE \
	"DEPTHWISE_CONV_2D takes input, filter, an optional bias and one output"

/* The node's shape and window, as prepare checked them. */
typedef struct dw_geometry {
	int32_t batches;
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
	/* Scratch index: one output pixel's sums, out_depth of them. */
	int32_t acc;
} dw_float32_data;

typedef struct dw_quantized_data {
	dw_geometry g;
	ref_requantize requantize;
	/* Scratch index: one output pixel's sums, out_depth of them. */
	int32_t acc;
} dw_quantized_data;

typedef struct dw_int16x8_data {
	dw_geometry g;
	ref_requantize requantize; /* zero offsets: int16 is symmetric */
	/* Scratch index: one output pixel's int64 sums, out_depth of them. */
	int32_t acc;
} dw_int16x8_data;

/* ------------------------------------------------------------- prepare */

/* The channel counts: C from the input, C * M from the filter, and M from
 * both, checked against the redundant depth_multiplier option unless that
 * is 0. */
static opver_status dw_channels(const opver_context *ctx,
				const ref_filter_tensors *t, int32_t option,
				dw_geometry *g)
{
	const opver_tensor *in = t->input, *f = t->filter;

	if (f->rank != 4 || f->dims[0] != 1 || f->dims[1] <= 0 ||
	    f->dims[2] <= 0 || f->dims[3] <= 0) {
		OPVER_REPORT(ctx,
			     "filter '%s' must have shape [1, height, width, channels] with all positive (rank %d)",
			     f->name, (int)f->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	g->in_depth = in->dims[3];
	g->out_depth = f->dims[3];
	if (g->in_depth <= 0 || g->out_depth % g->in_depth != 0) {
		OPVER_REPORT(ctx,
			     "filter '%s' has %d channels; they must be a multiple of the %d channels of input '%s'",
			     f->name, (int)g->out_depth, (int)g->in_depth,
			     in->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	g->multiplier = g->out_depth / g->in_depth;
	if (option != 0 && option != g->multiplier) {
		OPVER_REPORT(ctx,
			     "depth_multiplier is %d, but filter '%s' gives each of the %d input channels %d output channels",
			     (int)option, f->name, (int)g->in_depth,
			     (int)g->multiplier);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status dw_check_shapes(const opver_context *ctx,
				    const ref_filter_tensors *t,
				    const opver_depthwise_conv_params *params,
				    dw_geometry *g)
{
	opver_status status;

	status = ref_expect_rank(ctx, "input", t->input, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", t->output, 4);
	if (status == OPVER_OK)
		status = dw_channels(ctx, t, params->depth_multiplier, g);
	if (status != OPVER_OK)
		return status;
	g->batches = t->input->dims[0];
	g->rows = (ref_window){
		.in = t->input->dims[1],
		.filter = t->filter->dims[1],
		.stride = params->stride_height,
		.dilation = params->dilation_height,
	};
	g->cols = (ref_window){
		.in = t->input->dims[2],
		.filter = t->filter->dims[2],
		.stride = params->stride_width,
		.dilation = params->dilation_width,
	};
	status = ref_windows_compute(ctx, params->padding, &g->rows, &g->cols);
	if (status == OPVER_OK)
		status = ref_check_bias_size(ctx, t->bias, (size_t)g->out_depth,
					     "the filter has", "channels");
	return status;
}

/* Everything both kernels check: parameters, tensor types and shapes, and
 * the scratch of one output pixel's sums (`acc_size` bytes each). */
static opver_status dw_prepare_common(const opver_context *ctx,
				      const opver_node *node,
				      const opver_type_signature *types,
				      size_t acc_size,
				      opver_depthwise_conv_params *params,
				      ref_filter_tensors *t, dw_geometry *g,
				      int32_t *acc)
{
	opver_status status;

	*params = (opver_depthwise_conv_params)
		OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS;
	opver_read_params(node, params, sizeof(*params));
	status = ref_filter_node_get(ctx, node, params->activation, DW_USAGE,
				     "filter", types, t);
	if (status == OPVER_OK)
		status = dw_check_shapes(ctx, t, params, g);
	if (status == OPVER_OK)
		status = ref_shape_output(
			ctx, node, 0,
			(const int32_t[4]){ g->batches, g->rows.out,
					    g->cols.out, g->out_depth },
			4, "the input, filter and parameters give");
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, (size_t)g->out_depth,
					     acc_size, "channel sums", acc);
	return status;
}

/* -------------------------------------------------------------- invoke */

/* Output pixels of the node: N x OH x OW. */
static size_t dw_positions(const dw_geometry *g)
{
	return ref_window_positions(g->batches, &g->rows, &g->cols);
}

/* Index of the input element under tap (ky, kx) of pixel `px`, at channel
 * 0. */
static size_t dw_input_index(const dw_geometry *g,
			     const ref_window_position *px, int32_t ky,
			     int32_t kx)
{
	return ref_window_input_index(&g->rows, &g->cols, (size_t)g->in_depth,
				      px, ky, kx);
}

/* Index of filter element (0, ky, kx, 0). */
static size_t dw_filter_index(const dw_geometry *g, int32_t ky, int32_t kx)
{
	return ((size_t)ky * (size_t)g->cols.filter + (size_t)kx) *
	       (size_t)g->out_depth;
}

/* ------------------------------------------------------------- float32 */

static opver_status dw_float32_prepare(const opver_context *ctx,
				       opver_node *node)
{
	dw_float32_data *data = node->op_data;
	opver_depthwise_conv_params params;
	ref_filter_tensors t;
	opver_status status;

	status = dw_prepare_common(ctx, node,
				   ref_depthwise_conv_2d_float32.signatures,
				   sizeof(float), &params, &t, &data->g,
				   &data->acc);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
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

/* The sums of one output pixel, every channel, into acc. */
static void dw_float32_sums(const dw_geometry *g,
			    const ref_window_position *px, const float *input,
			    const float *filter, float *acc)
{
	for (int32_t c = 0; c < g->out_depth; c++)
		acc[c] = 0.0f;
	/* Window points in TFLite's order, so that every channel's sum is
	 * rounded exactly as there. */
	for (int32_t ky = px->y_begin; ky < px->y_end; ky++)
		for (int32_t kx = px->x_begin; kx < px->x_end; kx++)
			dw_accumulate_float32(
				acc, input + dw_input_index(g, px, ky, kx),
				filter + dw_filter_index(g, ky, kx),
				g->in_depth, g->multiplier);
}

static opver_status dw_float32_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const dw_float32_data *data = node->op_data;
	const dw_geometry *g = &data->g;
	const size_t positions = dw_positions(g);
	const float *input = node->inputs[REF_FILTER_INPUT]->data;
	const float *filter = node->inputs[REF_FILTER_FILTER]->data;
	const float *bias = ref_bias_data(node);
	float *out = node->outputs[0]->data;
	float *acc = ref_scratch(ctx, data->acc);

	if (acc == NULL)
		return OPVER_ERROR;
	for (size_t p = 0; p < positions; p++) {
		const ref_window_position px =
			ref_window_at(&g->rows, &g->cols, p);

		dw_float32_sums(g, &px, input, filter, acc);
		for (int32_t c = 0; c < g->out_depth; c++)
			*out++ = ref_float_output(acc[c], bias, (size_t)c,
						  data->activation_min,
						  data->activation_max);
	}
	return OPVER_OK;
}

/* ---------------------------------------------------------- int8, uint8 */

/* The int8 and uint8 kernels' prepare; `types` is the kernel's
 * signature. */
static opver_status dw_quantized_prepare(const opver_context *ctx,
					 opver_node *node,
					 const opver_type_signature *types)
{
	dw_quantized_data *data = node->op_data;
	opver_depthwise_conv_params params;
	ref_filter_tensors t;
	float input_scale, output_scale;
	opver_status status;

	status = dw_prepare_common(ctx, node, types, sizeof(uint32_t), &params,
				   &t, &data->g, &data->acc);
	if (status == OPVER_OK)
		status = ref_requantize_io(ctx, t.input, t.output,
					   params.activation, false,
					   &input_scale, &output_scale,
					   &data->requantize);
	if (status != OPVER_OK)
		return status;
	/* uint8: TFLite's legacy rescale, per tensor, with a filter zero
	 * point and the bias scale checked. */
	if (t.input->type == OPVER_TYPE_UINT8)
		return ref_requantize_tensor(ctx, "filter", t.filter, t.bias,
					     data->g.out_depth, input_scale,
					     output_scale, &data->requantize);
	/* int8: the bias's own quantization is not checked; TFLite uses the
	 * int32 values as they are (person_detect quantizes them oddly). */
	return ref_requantize_channels(ctx, t.filter, DW_CHANNEL_AXIS,
				       data->g.out_depth, input_scale,
				       output_scale, &data->requantize);
}

/*
 * Defines name_prepare and name_invoke, the callbacks of the kernel whose
 * input, filter and output are `type` (int8_t, uint8_t), its manifest
 * entry `kernel`.  For each window point, acc[c * M + m] += (filter[c * M
 * + m] + filter offset) * (in[c] + input offset), modulo 2^32 as TFLite's
 * int32 accumulator, in TFLite's order.
 */
#define DW_QUANTIZED_DEFINE(name, kernel, type)                               \
	static opver_status name##_prepare(const opver_context *ctx,            \
					   opver_node *node)                  \
	{                                                                     \
		return dw_quantized_prepare(ctx, node, kernel.signatures);    \
	}                                                                     \
                                                                              \
	static void name##_accumulate(uint32_t *acc, const type *in,          \
				      const type *filter,                     \
				      const dw_geometry *g,                   \
				      const ref_requantize *r)                \
	{                                                                     \
		if (g->multiplier == 1) { /* the common case, vectorized */   \
			for (int32_t c = 0; c < g->in_depth; c++)             \
				acc[c] += (uint32_t)(                         \
					((int32_t)filter[c] +                 \
					 r->filter_offset) *                  \
					((int32_t)in[c] + r->input_offset));  \
			return;                                               \
		}                                                             \
		for (int32_t c = 0; c < g->in_depth; c++) {                   \
			const int32_t x = (int32_t)in[c] + r->input_offset;   \
			uint32_t *a = acc + (size_t)c * g->multiplier;        \
			const type *f = filter + (size_t)c * g->multiplier;   \
                                                                              \
			for (int32_t m = 0; m < g->multiplier; m++)           \
				a[m] += (uint32_t)(((int32_t)f[m] +           \
						    r->filter_offset) * x);   \
		}                                                             \
	}                                                                     \
                                                                              \
	static opver_status name##_invoke(const opver_context *ctx,             \
					  opver_node *node)                   \
	{                                                                     \
		const dw_quantized_data *data = node->op_data;                \
		const dw_geometry *g = &data->g;                              \
		const ref_requantize *r = &data->requantize;                  \
		const size_t positions = dw_positions(g);                     \
		const type *input = node->inputs[REF_FILTER_INPUT]->data;     \
		const type *filter = node->inputs[REF_FILTER_FILTER]->data;   \
		const int32_t *bias = ref_bias_data(node);                    \
		type *out = node->outputs[0]->data;                           \
		uint32_t *acc = ref_scratch(ctx, data->acc);                  \
                                                                              \
		if (acc == NULL)                                              \
			return OPVER_ERROR;                                   \
		for (size_t p = 0; p < positions; p++) {                      \
			const ref_window_position px =                        \
				ref_window_at(&g->rows, &g->cols, p);         \
                                                                              \
			for (int32_t c = 0; c < g->out_depth; c++)            \
				acc[c] = 0;                                   \
			for (int32_t ky = px.y_begin; ky < px.y_end; ky++)    \
				for (int32_t kx = px.x_begin; kx < px.x_end;  \
				     kx++)                                    \
					name##_accumulate(                    \
						acc,                          \
						input + dw_input_index(       \
							g, &px, ky, kx),      \
						filter + dw_filter_index(     \
							g, ky, kx),           \
						g, r);                        \
			for (int32_t c = 0; c < g->out_depth; c++)            \
				*out++ = (type)ref_requantize_apply(          \
					r, (size_t)c, acc[c], bias);          \
		}                                                             \
		return OPVER_OK;                                              \
	}

DW_QUANTIZED_DEFINE(dw_int8, ref_depthwise_conv_2d_int8, int8_t)
DW_QUANTIZED_DEFINE(dw_uint8, ref_depthwise_conv_2d_uint8, uint8_t)

/* ------------------------------------------------------------- int16x8 */

static opver_status dw_int16x8_prepare(const opver_context *ctx,
				       opver_node *node)
{
	dw_int16x8_data *data = node->op_data;
	opver_depthwise_conv_params params;
	ref_filter_tensors t;
	float input_scale, output_scale;
	opver_status status;

	status = dw_prepare_common(ctx, node,
				   ref_depthwise_conv_2d_int16x8.signatures,
				   sizeof(int64_t), &params, &t, &data->g,
				   &data->acc);
	if (status == OPVER_OK)
		status = ref_requantize_io(ctx, t.input, t.output,
					   params.activation, true,
					   &input_scale, &output_scale,
					   &data->requantize);
	if (status == OPVER_OK)
		status = ref_requantize_channels(ctx, t.filter, DW_CHANNEL_AXIS,
						 data->g.out_depth, input_scale,
						 output_scale,
						 &data->requantize);
	if (status == OPVER_OK)
		status = ref_requantize_check_wide(ctx, &data->requantize,
						   data->g.out_depth);
	return status;
}

/* acc[c * M + m] += filter[c * M + m] * in[c] for one window point; each
 * product fits an int32, the sums take int64 as TFLite's 16x8 kernel. */
static void dw_int16x8_accumulate(int64_t *acc, const int16_t *in,
				  const int8_t *filter, const dw_geometry *g)
{
	for (int32_t c = 0; c < g->in_depth; c++) {
		const int32_t x = in[c];
		int64_t *a = acc + (size_t)c * g->multiplier;
		const int8_t *f = filter + (size_t)c * g->multiplier;

		for (int32_t m = 0; m < g->multiplier; m++)
			a[m] += (int32_t)f[m] * x;
	}
}

static opver_status dw_int16x8_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const dw_int16x8_data *data = node->op_data;
	const dw_geometry *g = &data->g;
	const size_t positions = dw_positions(g);
	const int16_t *input = node->inputs[REF_FILTER_INPUT]->data;
	const int8_t *filter = node->inputs[REF_FILTER_FILTER]->data;
	const int64_t *bias = ref_bias_data(node);
	int16_t *out = node->outputs[0]->data;
	int64_t *acc = ref_scratch(ctx, data->acc);

	if (acc == NULL)
		return OPVER_ERROR;
	for (size_t p = 0; p < positions; p++) {
		const ref_window_position px =
			ref_window_at(&g->rows, &g->cols, p);

		for (int32_t c = 0; c < g->out_depth; c++)
			acc[c] = 0;
		for (int32_t ky = px.y_begin; ky < px.y_end; ky++)
			for (int32_t kx = px.x_begin; kx < px.x_end; kx++)
				dw_int16x8_accumulate(
					acc,
					input + dw_input_index(g, &px, ky, kx),
					filter + dw_filter_index(g, ky, kx), g);
		for (int32_t c = 0; c < g->out_depth; c++)
			*out++ = (int16_t)ref_requantize_wide_apply(
				&data->requantize, (size_t)c, acc[c], bias);
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_depthwise_conv_2d_float32 = {
	OPVER_KERNEL("depthwise_conv_2d_float32", DEPTHWISE_CONV_2D, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(FLOAT32, FLOAT32, OPVER_T(FLOAT32),
					    FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dw_float32_data),
	.prepare = dw_float32_prepare, .invoke = dw_float32_invoke,
};

const opver_kernel ref_depthwise_conv_2d_int8 = {
	OPVER_KERNEL("depthwise_conv_2d_int8", DEPTHWISE_CONV_2D, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(INT8, INT8, OPVER_T(INT32), INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dw_quantized_data),
	.prepare = dw_int8_prepare, .invoke = dw_int8_invoke,
};

const opver_kernel ref_depthwise_conv_2d_uint8 = {
	OPVER_KERNEL("depthwise_conv_2d_uint8", DEPTHWISE_CONV_2D, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(UINT8, UINT8, OPVER_T(INT32),
					    UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dw_quantized_data),
	.prepare = dw_uint8_prepare, .invoke = dw_uint8_invoke,
};

const opver_kernel ref_depthwise_conv_2d_int16x8 = {
	OPVER_KERNEL("depthwise_conv_2d_int16x8", DEPTHWISE_CONV_2D, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(INT16, INT8, OPVER_T(INT64),
					    INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(dw_int16x8_data),
	.prepare = dw_int16x8_prepare, .invoke = dw_int16x8_invoke,
};
