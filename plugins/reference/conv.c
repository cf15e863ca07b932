/*
 * conv.c - CONV_2D, computed as TensorFlow Lite's reference kernels compute
 * it.  Input [N, H, W, C], filter [O, KH, KW, C / groups], optional bias
 * [O], output [N, OH, OW, O]; conv_window.h walks the windows and sums
 * them.
 *
 *   conv_2d_float32  float throughout, summed in TFLite's order (filter
 *                    row, column, channel), bias added, clamped
 *   conv_2d_int8     filter symmetric, per tensor or per output channel:
 *                    filter * (input - input zero point) summed in int32,
 *                    then requantize.h's output stage (TFLite's
 *                    ConvPerChannel)
 *   conv_2d_uint8    the int8 kernel's code on TFLite's legacy asymmetric
 *                    quantization: the filter per tensor with a zero point
 *                    subtracted too, one rescale computed as TFLite's
 *                    uint8 Conv (ref_requantize_tensor)
 *   conv_2d_hybrid   float input, int8 filter: each batch of the input is
 *                    quantized on the fly (hybrid.h), the int32 sum scaled
 *                    back to float, bias added, clamped.  Symmetric
 *                    quantization with one filter scale (TFLite's
 *                    EvalHybrid); asymmetric with scales that differ per
 *                    channel or with groups (EvalHybridPerChannel, which
 *                    TFLite also uses for grouped hybrid convolutions)
 *   conv_2d_int16x8  int16 activations with zero point 0, int8 filter: with
 *                    an int64 bias the sum stays in 64 bits and is rescaled
 *                    by TFLite's 64-bit multiplier; with an int32 bias (or
 *                    quantized_bias_type INT32) it is summed and rescaled in
 *                    32 bits, as TFLite's int32-bias instantiation does
 *
 * Version ranges (TFLite's op_version rules for CONV_2D):
 *   1  float, uint8               5  hybrid, per-channel filter
 *   2  hybrid, per-tensor filter  6  grouped convolution: implemented
 *   3  int8                       7  int4 filter: no kernel here takes it
 *   4  int16 activations          8  quantized_bias_type (int16): honoured
 * Every kernel implements all of 1..8 that concerns its tensor types, so
 * each covers 1..8; the type signatures tell them apart.
 */
#include <stdbool.h>
#include <stddef.h>

#include "conv_window.h"
#include "filter_node.h"
#include "hybrid.h"
#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "requantize.h"

/* Quantization axis of a per-channel filter: the output channels. */
#define CONV_CHANNEL_AXIS 0

#define CONV_USAGE "CONV_2D takes input, filter, an optional bias and one output"

typedef struct conv_float32_data {
	conv_geometry geometry;
	float activation_min;
	float activation_max;
} conv_float32_data;

typedef struct conv_quantized_data {
	conv_geometry geometry;
	ref_requantize requantize;
} conv_quantized_data;

typedef struct conv_int16x8_data {
	conv_geometry geometry;
	/* The int64-bias arithmetic: 64-bit sum and rescale. */
	bool wide;
	ref_requantize requantize; /* zero offsets: int16 is symmetric */
} conv_int16x8_data;

typedef struct conv_hybrid_data {
	conv_geometry geometry;
	/* Asymmetric input quantization and per-channel filter scales;
	 * otherwise symmetric and the one filter scale, channel_scales[0]. */
	bool per_channel;
	float activation_min;
	float activation_max;
	/* The filter scale of each output channel (out_depth entries), in node
	 * memory (allocate_persistent). */
	float *channel_scales;
	/* Scratch indices: the input quantized by invoke, and each batch's
	 * scale (times the filter scale when not per channel) and zero
	 * point. */
	int32_t quantized_input;
	int32_t batch_scales;
	int32_t batch_zero_points;
} conv_hybrid_data;

/* ------------------------------------------------------------- prepare */

/* The filter's shape, and the input's channels as whole groups of the
 * filter's input channels. */
static opver_status conv_check_filter(const opver_context *ctx,
				      const opver_tensor *in,
				      const opver_tensor *f)
{
	if (f->dims[0] <= 0 || f->dims[1] <= 0 || f->dims[2] <= 0 ||
	    f->dims[3] <= 0) {
		OPVER_REPORT(ctx,
			     "filter '%s' has shape [%d, %d, %d, %d]; every dimension must be positive",
			     f->name, (int)f->dims[0], (int)f->dims[1],
			     (int)f->dims[2], (int)f->dims[3]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (in->dims[0] < 0 || in->dims[3] <= 0 ||
	    in->dims[3] % f->dims[3] != 0) {
		OPVER_REPORT(ctx,
			     "input '%s' has shape [%d, %d, %d, %d]; its channels must be a positive multiple of the filter's %d input channels (one group each)",
			     in->name, (int)in->dims[0], (int)in->dims[1],
			     (int)in->dims[2], (int)in->dims[3],
			     (int)f->dims[3]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (f->dims[0] % (in->dims[3] / f->dims[3]) != 0) {
		OPVER_REPORT(ctx,
			     "filter '%s' has %d output channels, not a multiple of its %d groups (input channels / filter input channels)",
			     f->name, (int)f->dims[0],
			     (int)(in->dims[3] / f->dims[3]));
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* Checks the shapes against each other and the parameters, and fills the
 * geometry. */
static opver_status conv_check_shapes(const opver_context *ctx,
				      const opver_conv_params *params,
				      const ref_filter_tensors *t,
				      conv_geometry *g)
{
	const opver_tensor *in = t->input, *f = t->filter;
	opver_status status;

	status = ref_expect_rank(ctx, "input", in, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "filter", f, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", t->output, 4);
	if (status == OPVER_OK)
		status = conv_check_filter(ctx, in, f);
	if (status != OPVER_OK)
		return status;
	*g = (conv_geometry){
		.batches = in->dims[0],
		.in_depth = in->dims[3],
		.group_depth = f->dims[3],
		.filters_per_group = f->dims[0] / (in->dims[3] / f->dims[3]),
		.out_depth = f->dims[0],
		.rows = { .in = in->dims[1], .filter = f->dims[1],
			  .stride = params->stride_height,
			  .dilation = params->dilation_height },
		.cols = { .in = in->dims[2], .filter = f->dims[2],
			  .stride = params->stride_width,
			  .dilation = params->dilation_width },
	};
	status = ref_windows_compute(ctx, params->padding, &g->rows, &g->cols);
	if (status == OPVER_OK)
		status = ref_check_bias_size(ctx, t->bias, (size_t)f->dims[0],
					     "the filter has",
					     "output channels");
	return status;
}

/* Everything every kernel checks: parameters, tensor types and shapes. */
static opver_status conv_prepare_common(const opver_context *ctx,
					const opver_node *node,
					const opver_type_signature *types,
					opver_conv_params *params,
					ref_filter_tensors *t,
					conv_geometry *g)
{
	opver_status status;

	*params = (opver_conv_params)OPVER_CONV_PARAMS_DEFAULTS;
	opver_read_params(node, params, sizeof(*params));
	status = ref_filter_node_get(ctx, node, params->activation, CONV_USAGE,
				     "filter", types, t);
	if (status == OPVER_OK)
		status = conv_check_shapes(ctx, params, t, g);
	if (status == OPVER_OK)
		status = ref_shape_output(
			ctx, node, 0,
			(const int32_t[4]){ g->batches, g->rows.out,
					    g->cols.out, g->out_depth },
			4, "this convolution gives");
	return status;
}

/* TFLite requires a quantized bias to have zero point 0. */
static opver_status conv_check_bias_zero_points(const opver_context *ctx,
						const opver_tensor *bias)
{
	if (bias == NULL)
		return OPVER_OK;
	for (int32_t i = 0; i < bias->quant.count; i++) {
		const long long zero_point = bias->quant.zero_point[i];

		if (zero_point != 0) {
			OPVER_REPORT(ctx,
				     "bias '%s' has zero point %lld; a quantized bias must have zero point 0",
				     bias->name, zero_point);
			return OPVER_ERROR_INVALID_MODEL;
		}
	}
	return OPVER_OK;
}

/*
 * The output stage of the int8, uint8 and int16x8 kernels: the input and
 * output quantization (`symmetric` for int16) and per-channel rescales of
 * the filter, or for uint8 TFLite's legacy per-tensor rescale, whose filter
 * has a zero point (ref_requantize_tensor).  The bias's zero points must
 * be 0.
 */
static opver_status conv_requantize(const opver_context *ctx,
				    const opver_conv_params *params,
				    const ref_filter_tensors *t,
				    int32_t channels, bool symmetric,
				    ref_requantize *r)
{
	float input_scale, output_scale;
	opver_status status;

	status = ref_requantize_io(ctx, t->input, t->output,
				   params->activation, symmetric, &input_scale,
				   &output_scale, r);
	if (status == OPVER_OK)
		status = conv_check_bias_zero_points(ctx, t->bias);
	if (status != OPVER_OK)
		return status;
	if (t->input->type == OPVER_TYPE_UINT8)
		return ref_requantize_tensor(ctx, "filter", t->filter, t->bias,
					     channels, input_scale,
					     output_scale, r);
	return ref_requantize_channels(ctx, t->filter, CONV_CHANNEL_AXIS,
				       channels, input_scale, output_scale, r);
}

/* ------------------------------------------------------------- float32 */

static opver_status conv_float32_prepare(const opver_context *ctx,
					 opver_node *node)
{
	conv_float32_data *data = node->op_data;
	opver_conv_params params;
	ref_filter_tensors t;
	opver_status status;

	status = conv_prepare_common(ctx, node, ref_conv_2d_float32.signatures,
				     &params, &t, &data->geometry);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

static opver_status conv_float32_invoke(const opver_context *ctx,
					opver_node *node)
{
	const conv_float32_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	const size_t positions = conv_positions(g);
	const float *input = node->inputs[REF_FILTER_INPUT]->data;
	const float *filter = node->inputs[REF_FILTER_FILTER]->data;
	const float *bias = ref_bias_data(node);
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t p = 0; p < positions; p++) {
		const ref_window_position w = conv_window_at(g, p);

		for (int32_t o = 0; o < g->out_depth; o++)
			*output++ = ref_float_output(
				conv_sum_float32(g, &w, input, filter, o),
				bias, (size_t)o, data->activation_min,
				data->activation_max);
	}
	return OPVER_OK;
}

/* ---------------------------------------------------------- int8, uint8 */

/* The int8 and uint8 kernels' prepare; `types` is the kernel's
 * signature. */
static opver_status conv_quantized_prepare(const opver_context *ctx,
					   opver_node *node,
					   const opver_type_signature *types)
{
	conv_quantized_data *data = node->op_data;
	opver_conv_params params;
	ref_filter_tensors t;
	opver_status status;

	status = conv_prepare_common(ctx, node, types, &params, &t,
				     &data->geometry);
	if (status == OPVER_OK)
		status = conv_requantize(ctx, &params, &t,
					 data->geometry.out_depth, false,
					 &data->requantize);
	data->requantize.outside_gemm =
		data->geometry.group_depth != data->geometry.in_depth;
	return status;
}

/*
 * Defines name_prepare and name_invoke, the callbacks of the kernel whose
 * input, filter and output are `type` (int8_t, uint8_t), its manifest
 * entry `kernel`, summing with `sum` (conv_window.h) and rescaling with
 * `apply` (requantize.h: the GEMM rescale for int8, see quantization.h).
 */
#define CONV_QUANTIZED_DEFINE(name, kernel, type, sum, apply)                 \
	static opver_status name##_prepare(const opver_context *ctx,            \
					   opver_node *node)                  \
	{                                                                     \
		return conv_quantized_prepare(ctx, node, kernel.signatures);  \
	}                                                                     \
                                                                              \
	static opver_status name##_invoke(const opver_context *ctx,             \
					  opver_node *node)                   \
	{                                                                     \
		const conv_quantized_data *data = node->op_data;              \
		const conv_geometry *g = &data->geometry;                     \
		const ref_requantize *r = &data->requantize;                  \
		const size_t positions = conv_positions(g);                   \
		const type *input = node->inputs[REF_FILTER_INPUT]->data;     \
		const type *filter = node->inputs[REF_FILTER_FILTER]->data;   \
		const int32_t *bias = ref_bias_data(node);                    \
		type *output = node->outputs[0]->data;                        \
                                                                              \
		(void)ctx;                                                   \
		for (size_t p = 0; p < positions; p++) {                      \
			const ref_window_position w = conv_window_at(g, p);   \
                                                                              \
			for (int32_t o = 0; o < g->out_depth; o++)            \
				*output++ = (type)apply(                      \
					r, (size_t)o,                         \
					sum(g, &w, input, filter, o,          \
					    r->input_offset,                  \
					    r->filter_offset),                \
					bias);                                \
		}                                                             \
		return OPVER_OK;                                              \
	}

CONV_QUANTIZED_DEFINE(conv_int8, ref_conv_2d_int8, int8_t, conv_sum_int8,
		      ref_requantize_gemm_apply)
CONV_QUANTIZED_DEFINE(conv_uint8, ref_conv_2d_uint8, uint8_t, conv_sum_uint8,
		      ref_requantize_apply)

/* ------------------------------------------------------------- int16x8 */

static opver_status conv_int16x8_prepare(const opver_context *ctx,
					 opver_node *node)
{
	conv_int16x8_data *data = node->op_data;
	opver_conv_params params;
	ref_filter_tensors t;
	opver_status status;

	status = conv_prepare_common(ctx, node, ref_conv_2d_int16x8.signatures,
				     &params, &t, &data->geometry);
	if (status == OPVER_OK)
		status = conv_requantize(ctx, &params, &t,
					 data->geometry.out_depth, true,
					 &data->requantize);
	if (status == OPVER_OK)
		status = ref_requantize_wide(ctx, params.quantized_bias_type,
					     t.bias, &data->wide);
	if (status == OPVER_OK && data->wide)
		status = ref_requantize_check_wide(ctx, &data->requantize,
						   data->geometry.out_depth);
	return status;
}

static opver_status conv_int16x8_invoke(const opver_context *ctx,
					opver_node *node)
{
	const conv_int16x8_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	const ref_requantize *r = &data->requantize;
	const size_t positions = conv_positions(g);
	const int16_t *input = node->inputs[REF_FILTER_INPUT]->data;
	const int8_t *filter = node->inputs[REF_FILTER_FILTER]->data;
	const void *bias = ref_bias_data(node);
	int16_t *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t p = 0; p < positions; p++) {
		const ref_window_position w = conv_window_at(g, p);

		for (int32_t o = 0; o < g->out_depth; o++) {
			const int64_t sum =
				conv_sum_int16(g, &w, input, filter, o);

			*output++ = (int16_t)(
				data->wide
					? ref_requantize_wide_apply(
						  r, (size_t)o, sum, bias)
					: ref_requantize_apply(
						  r, (size_t)o, (uint32_t)sum,
						  bias));
		}
	}
	return OPVER_OK;
}

/* -------------------------------------------------------------- hybrid */

/* True when a per-channel filter's scales are not all the same: only then
 * does TFLite take its per-channel hybrid path. */
static bool conv_scales_differ(const opver_tensor *filter)
{
	for (int32_t c = 1; c < filter->quant.count; c++)
		if (filter->quant.scale[c] != filter->quant.scale[0])
			return true;
	return false;
}

/* The scratch of the quantized input and each batch's quantization. */
static opver_status conv_hybrid_request_scratch(const opver_context *ctx,
						conv_hybrid_data *data,
						size_t input_elements)
{
	const size_t batches = (size_t)data->geometry.batches;
	opver_status status;

	status = ref_request_scratch(ctx, input_elements, sizeof(int8_t),
				     "quantized inputs",
				     &data->quantized_input);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, batches, sizeof(float),
					     "batch scales", &data->batch_scales);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, batches, sizeof(int32_t),
					     "batch zero points",
					     &data->batch_zero_points);
	return status;
}

static opver_status conv_hybrid_prepare(const opver_context *ctx,
					opver_node *node)
{
	conv_hybrid_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	opver_conv_params params;
	ref_filter_tensors t;
	opver_status status;

	status = conv_prepare_common(ctx, node, ref_conv_2d_hybrid.signatures,
				     &params, &t, &data->geometry);
	if (status == OPVER_OK)
		status = ref_hybrid_filter_scales(ctx, t.filter,
						  CONV_CHANNEL_AXIS,
						  g->out_depth,
						  &data->channel_scales);
	if (status == OPVER_OK)
		status = conv_hybrid_request_scratch(
			ctx, data, opver_tensor_elements(t.input));
	if (status != OPVER_OK)
		return status;
	data->per_channel =
		g->group_depth != g->in_depth || conv_scales_differ(t.filter);
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

/* The scratch of one invoke: the quantized input and each batch's
 * quantization.  Borrowed from the core's arena for the invoke. */
typedef struct conv_hybrid_scratch {
	int8_t *quantized_input;
	float *batch_scales;
	int32_t *batch_zero_points;
} conv_hybrid_scratch;

static bool conv_hybrid_get_scratch(const opver_context *ctx,
				    const conv_hybrid_data *data,
				    conv_hybrid_scratch *scratch)
{
	scratch->quantized_input = ref_scratch(ctx, data->quantized_input);
	scratch->batch_scales = ref_scratch(ctx, data->batch_scales);
	scratch->batch_zero_points = ref_scratch(ctx, data->batch_zero_points);
	return scratch->quantized_input != NULL &&
	       scratch->batch_scales != NULL &&
	       scratch->batch_zero_points != NULL;
}

/* Quantizes each batch of the input into the scratch, as TFLite does before
 * its integer sums; without per-channel scales the batch's scale takes in
 * the filter's, as TFLite folds them. */
static void conv_hybrid_quantize(const conv_hybrid_data *data,
				 const float *input,
				 const conv_hybrid_scratch *scratch)
{
	const conv_geometry *g = &data->geometry;
	const size_t size = (size_t)g->rows.in * (size_t)g->cols.in *
			    (size_t)g->in_depth;

	for (int32_t b = 0; b < g->batches; b++) {
		ref_hybrid_quantize(input + (size_t)b * size, size,
				    data->per_channel,
				    scratch->quantized_input + (size_t)b * size,
				    &scratch->batch_scales[b],
				    &scratch->batch_zero_points[b]);
		if (!data->per_channel)
			scratch->batch_scales[b] *= data->channel_scales[0];
	}
}

/* The sum of output channel `channel` scaled back to float.  TFLite's
 * per-channel reference scales by the channel first, then the batch; its
 * per-tensor path by their product, taken at quantization. */
static inline float conv_hybrid_scale(const conv_hybrid_data *data,
				      int32_t channel, uint32_t sum,
				      float batch_scale)
{
	const int32_t acc = (int32_t)sum;

	return data->per_channel
		       ? (float)acc * data->channel_scales[channel] * batch_scale
		       : (float)acc * batch_scale;
}

static opver_status conv_hybrid_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const conv_hybrid_data *data = node->op_data;
	const conv_geometry *g = &data->geometry;
	const size_t positions = conv_positions(g);
	const int8_t *filter = node->inputs[REF_FILTER_FILTER]->data;
	const float *bias = ref_bias_data(node);
	float *output = node->outputs[0]->data;
	conv_hybrid_scratch s;

	if (!conv_hybrid_get_scratch(ctx, data, &s))
		return OPVER_ERROR;
	conv_hybrid_quantize(data, node->inputs[REF_FILTER_INPUT]->data, &s);
	for (size_t p = 0; p < positions; p++) {
		const ref_window_position w = conv_window_at(g, p);
		const int32_t input_offset = -s.batch_zero_points[w.batch];

		for (int32_t o = 0; o < g->out_depth; o++)
			*output++ = ref_float_output(
				conv_hybrid_scale(
					data, o,
					conv_sum_int8(g, &w, s.quantized_input,
						      filter, o, input_offset,
						      0),
					s.batch_scales[w.batch]),
				bias, (size_t)o, data->activation_min,
				data->activation_max);
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_conv_2d_float32 = {
	OPVER_KERNEL("conv_2d_float32", CONV_2D, 1, 8),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(FLOAT32, FLOAT32, OPVER_T(FLOAT32),
					    FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(conv_float32_data),
	.prepare = conv_float32_prepare, .invoke = conv_float32_invoke,
};

const opver_kernel ref_conv_2d_int8 = {
	OPVER_KERNEL("conv_2d_int8", CONV_2D, 1, 8),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(INT8, INT8, OPVER_T(INT32), INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(conv_quantized_data),
	.prepare = conv_int8_prepare, .invoke = conv_int8_invoke,
};

const opver_kernel ref_conv_2d_uint8 = {
	OPVER_KERNEL("conv_2d_uint8", CONV_2D, 1, 8),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(UINT8, UINT8, OPVER_T(INT32),
					    UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(conv_quantized_data),
	.prepare = conv_uint8_prepare, .invoke = conv_uint8_invoke,
};

const opver_kernel ref_conv_2d_hybrid = {
	OPVER_KERNEL("conv_2d_hybrid", CONV_2D, 1, 8),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(FLOAT32, INT8, OPVER_T(FLOAT32),
					    FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(conv_hybrid_data),
	.prepare = conv_hybrid_prepare, .invoke = conv_hybrid_invoke,
};

const opver_kernel ref_conv_2d_int16x8 = {
	OPVER_KERNEL("conv_2d_int16x8", CONV_2D, 1, 8),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(INT16, INT8,
					    OPVER_T(INT32) | OPVER_T(INT64),
					    INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(conv_int16x8_data),
	.prepare = conv_int16x8_prepare, .invoke = conv_int16x8_invoke,
};
