/*
 * transpose_conv.c - TRANSPOSE_CONV, float32, uint8 (per-tensor, with
 * zero points), int8 (per-channel filter) and 16x8 (int16 activations,
 * int8 filter, int64 or int32 bias), computed as TensorFlow Lite's
 * reference kernels compute it.  Inputs: output_shape
 * (int32 [4]), filter [O, KH, KW, C], input [N, H, W, C] and an optional
 * bias [O]; one output [N, OH, OW, O].
 *
 * TFLite's reference scatters: every input element (batch, row, column,
 * channel, in that order) adds input x filter[o, ky, kx, c] to output
 * [y * stride - pad + ky, x * stride - pad + kx, o] for every tap and
 * output channel o that lands inside the output; then each output gets
 * its bias, is rescaled (integer kernels, as CONV_2D: requantize.h) and
 * clamped to the fused activation.  Integer sums are taken in int32
 * (uint8, int8, and 16x8 unless int64: wrapping as TFLite's accumulator,
 * the rescale the int32 one) or int64 (16x8 with an int64 bias or, without
 * a bias, quantized_bias_type INT64: the rescale requantize.h's wide one)
 * scratch, as TFLite chooses its scratch; uint8 subtracts the filter's
 * zero point too and rescales once for all channels (requantize.h's
 * ref_requantize_tensor).  The padding is that of a convolution over the
 * output: ref_windows_compute() with the output's size as the window's
 * input.
 *
 * Prepare checks the output tensor against the constant output_shape (a
 * non-constant one has only its length checked: the output's shape,
 * fixed before running, stands).
 *
 * Version ranges (TFLite's op_version rules): 1 float32 (and uint8);
 * 2 int8 filter; 3 a bias; 4 a fused activation; 5 quantized_bias_type
 * (as published, only with an int16 output_shape).  Each kernel computes
 * the bias and the activation, so float32 and uint8 cover 1..4 (versions
 * 2 and 5 are about other types), int8 2..4 and 16x8 (an int8 filter)
 * 2..5.
 */
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "requantize.h"

enum { TC_OUTPUT_SHAPE = 0, TC_FILTER = 1, TC_INPUT = 2, TC_BIAS = 3 };

typedef struct tconv_data {
	int32_t batches;
	int32_t in_depth;
	int32_t out_depth;
	int32_t in_height, in_width;
	ref_window rows; /* the output's height: in, filter, stride, pad */
	ref_window cols; /* its width */
	/* float32: the activation's clamp */
	float float_min, float_max;
	/* integer kernels: the output stage, and the scratch of one int32
	 * (int8) or int64 (16x8) sum per output element */
	ref_requantize requantize;
	int32_t sums;
	bool wide; /* 16x8: int64 sums and bias */
} tconv_data;

/* Checks the node's tensors and geometry and fills data's shape. */
static opver_status tconv_check_node(const opver_context *ctx,
				     const opver_node *node, int32_t type,
				     int32_t filter_type,
				     opver_transpose_conv_params *params,
				     tconv_data *data)
{
	const opver_tensor *shape, *filter, *input, *bias, *output;
	opver_status status;

	status = ref_check_arity(ctx, node, 3, 4, 1,
				 "TRANSPOSE_CONV takes output_shape, filter, input, an optional bias and one output");
	if (status != OPVER_OK)
		return status;
	shape = node->inputs[TC_OUTPUT_SHAPE];
	filter = node->inputs[TC_FILTER];
	input = node->inputs[TC_INPUT];
	bias = node->num_inputs > TC_BIAS ? node->inputs[TC_BIAS] : NULL;
	output = node->outputs[0];
	status = ref_expect_type(ctx, "input", input, type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "filter", filter, filter_type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output_shape", shape,
					 OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "input", input, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "filter", filter, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", output, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output_shape", shape, 1);
	if (status != OPVER_OK)
		return status;
	if (shape->dims[0] != 4) {
		OPVER_REPORT(ctx,
			     "output_shape '%s' has %d elements; it must have 4",
			     shape->name, (int)shape->dims[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (shape->is_constant) {
		status = ref_shape_output(ctx, node, 0, shape->data, 4,
					  "output_shape says");
		if (status != OPVER_OK)
			return status;
	}
	if (filter->dims[3] != input->dims[3] ||
	    filter->dims[0] != output->dims[3] ||
	    input->dims[0] != output->dims[0]) {
		OPVER_REPORT(ctx,
			     "filter '%s' [%d, %d, %d, %d] does not fit input '%s' of %d channels and output '%s' of %d channels (batches %d and %d)",
			     filter->name, (int)filter->dims[0],
			     (int)filter->dims[1], (int)filter->dims[2],
			     (int)filter->dims[3], input->name,
			     (int)input->dims[3], output->name,
			     (int)output->dims[3], (int)input->dims[0],
			     (int)output->dims[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (bias != NULL && (bias->rank != 1 ||
			     bias->dims[0] != output->dims[3])) {
		OPVER_REPORT(ctx,
			     "bias '%s' must have one element per output channel, %d",
			     bias->name, (int)output->dims[3]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*params = (opver_transpose_conv_params)
		OPVER_TRANSPOSE_CONV_PARAMS_DEFAULTS;
	opver_read_params(node, params, sizeof(*params));
	status = ref_expect_clamp_activation(ctx, params->activation);
	if (status != OPVER_OK)
		return status;
	data->batches = input->dims[0];
	data->in_height = input->dims[1];
	data->in_width = input->dims[2];
	data->in_depth = input->dims[3];
	data->out_depth = output->dims[3];
	/* The padding of a convolution from the output back to the input. */
	data->rows = (ref_window){ .in = output->dims[1],
				   .filter = filter->dims[1],
				   .stride = params->stride_height,
				   .dilation = 1 };
	data->cols = (ref_window){ .in = output->dims[2],
				   .filter = filter->dims[2],
				   .stride = params->stride_width,
				   .dilation = 1 };
	return ref_windows_compute(ctx, params->padding, &data->rows,
				   &data->cols);
}

/*
 * Calls visit(data, input index, filter index, output index) for every
 * product TFLite's reference adds, in its order: input elements in
 * NHWC order, then taps by row and column, then output channels.
 */
#define TCONV_SCATTER(d, visit)                                               \
	for (int32_t b = 0; b < (d)->batches; b++)                            \
	for (int32_t iy = 0; iy < (d)->in_height; iy++)                      \
	for (int32_t ix = 0; ix < (d)->in_width; ix++)                       \
	for (int32_t ic = 0; ic < (d)->in_depth; ic++) {                     \
		const size_t in_i = (((size_t)b * (size_t)(d)->in_height +  \
				      (size_t)iy) * (size_t)(d)->in_width + \
				     (size_t)ix) * (size_t)(d)->in_depth +  \
				    (size_t)ic;                             \
		const int64_t oy0 = (int64_t)iy * (d)->rows.stride -        \
				    (d)->rows.pad;                          \
		const int64_t ox0 = (int64_t)ix * (d)->cols.stride -        \
				    (d)->cols.pad;                          \
		int32_t ky0, ky1, kx0, kx1;                                 \
		ref_window_taps(&(d)->rows, oy0, &ky0, &ky1);               \
		ref_window_taps(&(d)->cols, ox0, &kx0, &kx1);               \
		for (int32_t ky = ky0; ky < ky1; ky++)                      \
		for (int32_t kx = kx0; kx < kx1; kx++) {                    \
			const size_t out_i =                                \
				(((size_t)b * (size_t)(d)->rows.in +        \
				  (size_t)(oy0 + ky)) *                     \
					 (size_t)(d)->cols.in +             \
				 (size_t)(ox0 + kx)) *                      \
				(size_t)(d)->out_depth;                     \
			for (int32_t oc = 0; oc < (d)->out_depth; oc++) {   \
				const size_t f_i =                          \
					(((size_t)oc *                      \
						  (size_t)(d)->rows.filter + \
					  (size_t)ky) *                     \
						 (size_t)(d)->cols.filter + \
					 (size_t)kx) *                      \
						(size_t)(d)->in_depth +     \
					(size_t)ic;                         \
				visit(in_i, f_i, out_i + (size_t)oc);       \
			}                                                   \
		}                                                           \
	}

/* Output elements of the node. */
static size_t tconv_outputs(const tconv_data *d)
{
	return (size_t)d->batches * (size_t)d->rows.in * (size_t)d->cols.in *
	       (size_t)d->out_depth;
}

/* ------------------------------------------------------------- float32 */

static opver_status tconv_float32_prepare(const opver_context *ctx,
					  opver_node *node)
{
	tconv_data *data = node->op_data;
	opver_transpose_conv_params params;
	opver_status status;

	status = tconv_check_node(ctx, node, OPVER_TYPE_FLOAT32,
				  OPVER_TYPE_FLOAT32, &params, data);
	if (status == OPVER_OK && node->num_inputs > TC_BIAS &&
	    node->inputs[TC_BIAS] != NULL)
		status = ref_expect_type(ctx, "bias", node->inputs[TC_BIAS],
					 OPVER_TYPE_FLOAT32);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->float_min,
				   &data->float_max);
	return OPVER_OK;
}

static opver_status tconv_float32_invoke(const opver_context *ctx,
					 opver_node *node)
{
	const tconv_data *d = node->op_data;
	const float *input = node->inputs[TC_INPUT]->data;
	const float *filter = node->inputs[TC_FILTER]->data;
	const opver_tensor *bias_tensor = node->num_inputs > TC_BIAS
						  ? node->inputs[TC_BIAS]
						  : NULL;
	const float *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	float *out = node->outputs[0]->data;
	const size_t count = tconv_outputs(d);

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		out[i] = 0.0f;
#define TCONV_FLOAT_VISIT(in_i, f_i, out_i) \
	out[out_i] += input[in_i] * filter[f_i]
	TCONV_SCATTER(d, TCONV_FLOAT_VISIT)
#undef TCONV_FLOAT_VISIT
	for (size_t i = 0; i < count; i++) {
		const float value =
			bias != NULL ? out[i] + bias[i % (size_t)d->out_depth]
				     : out[i];

		out[i] = ref_clamp_float(value, d->float_min, d->float_max);
	}
	return OPVER_OK;
}

/* --------------------------------------------------- uint8, int8, 16x8 */

static opver_status tconv_integer_prepare(const opver_context *ctx,
					  opver_node *node, int32_t type)
{
	tconv_data *data = node->op_data;
	const opver_tensor *bias;
	opver_transpose_conv_params params;
	float input_scale, output_scale;
	opver_status status;

	status = tconv_check_node(ctx, node, type,
				  type == OPVER_TYPE_UINT8 ? OPVER_TYPE_UINT8
							   : OPVER_TYPE_INT8,
				  &params, data);
	if (status != OPVER_OK)
		return status;
	bias = node->num_inputs > TC_BIAS ? node->inputs[TC_BIAS] : NULL;
	data->wide = false;
	if (type == OPVER_TYPE_INT16) {
		status = ref_requantize_wide(ctx, params.quantized_bias_type,
					     bias, &data->wide);
		/* Unlike CONV_2D's, TFLite's 16x8 TRANSPOSE_CONV sums in
		 * int64 only for an int64 bias or quantized_bias_type INT64:
		 * without either its scratch is int32. */
		if (bias == NULL)
			data->wide = params.quantized_bias_type ==
				     OPVER_TYPE_INT64;
	} else if (bias != NULL) {
		status = ref_expect_type(ctx, "bias", bias, OPVER_TYPE_INT32);
	}
	if (status == OPVER_OK)
		status = ref_requantize_io(ctx, node->inputs[TC_INPUT],
					   node->outputs[0], params.activation,
					   type == OPVER_TYPE_INT16,
					   &input_scale, &output_scale,
					   &data->requantize);
	if (status == OPVER_OK && type == OPVER_TYPE_UINT8)
		status = ref_requantize_tensor(ctx, "filter",
					       node->inputs[TC_FILTER], bias,
					       data->out_depth, input_scale,
					       output_scale, &data->requantize);
	else if (status == OPVER_OK)
		status = ref_requantize_channels(ctx, node->inputs[TC_FILTER],
						 0, data->out_depth,
						 input_scale, output_scale,
						 &data->requantize);
	if (status == OPVER_OK && data->wide)
		status = ref_requantize_check_wide(ctx, &data->requantize,
						   data->out_depth);
	if (status != OPVER_OK)
		return status;
	return ref_request_scratch(ctx, tconv_outputs(data),
				   data->wide ? sizeof(int64_t)
					      : sizeof(int32_t),
				   "output sums", &data->sums);
}

static opver_status tconv_uint8_prepare(const opver_context *ctx,
					opver_node *node)
{
	return tconv_integer_prepare(ctx, node, OPVER_TYPE_UINT8);
}

static opver_status tconv_int8_prepare(const opver_context *ctx,
				       opver_node *node)
{
	return tconv_integer_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status tconv_int16x8_prepare(const opver_context *ctx,
					  opver_node *node)
{
	return tconv_integer_prepare(ctx, node, OPVER_TYPE_INT16);
}

static opver_status tconv_int8_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const tconv_data *d = node->op_data;
	const ref_requantize *r = &d->requantize;
	const int8_t *input = node->inputs[TC_INPUT]->data;
	const int8_t *filter = node->inputs[TC_FILTER]->data;
	const opver_tensor *bias_tensor = node->num_inputs > TC_BIAS
						  ? node->inputs[TC_BIAS]
						  : NULL;
	const int32_t *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	int8_t *out = node->outputs[0]->data;
	uint32_t *sums = ref_scratch(ctx, d->sums);
	const size_t count = tconv_outputs(d);

	if (sums == NULL)
		return OPVER_ERROR;
	memset(sums, 0, count * sizeof(*sums));
	/* Modulo 2^32, as TFLite's int32 scratch adds. */
#define TCONV_INT8_VISIT(in_i, f_i, out_i)                             \
	sums[out_i] += (uint32_t)(((int32_t)input[in_i] + r->input_offset) * \
				  (int32_t)filter[f_i])
	TCONV_SCATTER(d, TCONV_INT8_VISIT)
#undef TCONV_INT8_VISIT
	for (size_t i = 0; i < count; i++)
		out[i] = (int8_t)ref_requantize_apply(
			r, i % (size_t)d->out_depth, sums[i], bias);
	return OPVER_OK;
}

static opver_status tconv_uint8_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const tconv_data *d = node->op_data;
	const ref_requantize *r = &d->requantize;
	const uint8_t *input = node->inputs[TC_INPUT]->data;
	const uint8_t *filter = node->inputs[TC_FILTER]->data;
	const opver_tensor *bias_tensor = node->num_inputs > TC_BIAS
						  ? node->inputs[TC_BIAS]
						  : NULL;
	const int32_t *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	uint8_t *out = node->outputs[0]->data;
	uint32_t *sums = ref_scratch(ctx, d->sums);
	const size_t count = tconv_outputs(d);

	if (sums == NULL)
		return OPVER_ERROR;
	memset(sums, 0, count * sizeof(*sums));
	/* Modulo 2^32, as TFLite's int32 scratch adds. */
#define TCONV_UINT8_VISIT(in_i, f_i, out_i)                              \
	sums[out_i] += (uint32_t)(((int32_t)input[in_i] + r->input_offset) * \
				  ((int32_t)filter[f_i] + r->filter_offset))
	TCONV_SCATTER(d, TCONV_UINT8_VISIT)
#undef TCONV_UINT8_VISIT
	for (size_t i = 0; i < count; i++)
		out[i] = (uint8_t)ref_requantize_apply(
			r, i % (size_t)d->out_depth, sums[i], bias);
	return OPVER_OK;
}

/* 16x8 with an int32 bias or none (but for quantized_bias_type INT64):
 * int32 sums, wrapping as TFLite's int32 scratch, the int32 rescale. */
static void tconv_int16x8_narrow(const tconv_data *d, uint32_t *sums,
				 const int16_t *input, const int8_t *filter,
				 const int32_t *bias, int16_t *out)
{
	const size_t count = tconv_outputs(d);

	memset(sums, 0, count * sizeof(*sums));
#define TCONV_INT16_VISIT(in_i, f_i, out_i) \
	sums[out_i] += (uint32_t)((int32_t)input[in_i] * (int32_t)filter[f_i])
	TCONV_SCATTER(d, TCONV_INT16_VISIT)
#undef TCONV_INT16_VISIT
	for (size_t i = 0; i < count; i++)
		out[i] = (int16_t)ref_requantize_apply(
			&d->requantize, i % (size_t)d->out_depth, sums[i],
			bias);
}

/* 16x8 with an int64 bias (or none and quantized_bias_type INT64):
 * int64 sums, the wide rescale. */
static void tconv_int16x8_wide(const tconv_data *d, int64_t *sums,
			       const int16_t *input, const int8_t *filter,
			       const int64_t *bias, int16_t *out)
{
	const size_t count = tconv_outputs(d);

	memset(sums, 0, count * sizeof(*sums));
#define TCONV_INT16_VISIT(in_i, f_i, out_i) \
	sums[out_i] += (int32_t)input[in_i] * (int32_t)filter[f_i]
	TCONV_SCATTER(d, TCONV_INT16_VISIT)
#undef TCONV_INT16_VISIT
	for (size_t i = 0; i < count; i++)
		out[i] = (int16_t)ref_requantize_wide_apply(
			&d->requantize, i % (size_t)d->out_depth, sums[i],
			bias);
}

static opver_status tconv_int16x8_invoke(const opver_context *ctx,
					 opver_node *node)
{
	const tconv_data *d = node->op_data;
	const opver_tensor *bias_tensor = node->num_inputs > TC_BIAS
						  ? node->inputs[TC_BIAS]
						  : NULL;
	const void *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	void *sums = ref_scratch(ctx, d->sums);

	if (sums == NULL)
		return OPVER_ERROR;
	if (d->wide)
		tconv_int16x8_wide(d, sums, node->inputs[TC_INPUT]->data,
				   node->inputs[TC_FILTER]->data, bias,
				   node->outputs[0]->data);
	else
		tconv_int16x8_narrow(d, sums, node->inputs[TC_INPUT]->data,
				     node->inputs[TC_FILTER]->data, bias,
				     node->outputs[0]->data);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

/* A kernel of this file: name, versions, the types of activations and
 * filter, the bias's type mask, prepare and invoke. */
#define TCONV_KERNEL(kernel_name, min, max, act, filter_type, bias_types,    \
		     prepare_fn, invoke_fn)                                   \
	{                                                                     \
		OPVER_KERNEL(kernel_name, TRANSPOSE_CONV, min, max),          \
		REF_SIGNATURES(OPVER_SIGNATURE(                               \
			OPVER_INPUTS(OPVER_T(INT32), OPVER_T(filter_type),    \
				     OPVER_T(act),                            \
				     (bias_types) | OPVER_TYPE_BIT_ABSENT),   \
			OPVER_OUTPUT(OPVER_T(act)))),                         \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(tconv_data),                           \
		.prepare = prepare_fn, .invoke = invoke_fn,                   \
	}

const opver_kernel ref_transpose_conv_float32 =
	TCONV_KERNEL("transpose_conv_float32", 1, 4, FLOAT32, FLOAT32,
		     OPVER_T(FLOAT32), tconv_float32_prepare,
		     tconv_float32_invoke);
const opver_kernel ref_transpose_conv_uint8 =
	TCONV_KERNEL("transpose_conv_uint8", 1, 4, UINT8, UINT8,
		     OPVER_T(INT32), tconv_uint8_prepare, tconv_uint8_invoke);
const opver_kernel ref_transpose_conv_int8 =
	TCONV_KERNEL("transpose_conv_int8", 2, 4, INT8, INT8, OPVER_T(INT32),
		     tconv_int8_prepare, tconv_int8_invoke);
const opver_kernel ref_transpose_conv_int16x8 =
	TCONV_KERNEL("transpose_conv_int16x8", 2, 5, INT16, INT8,
		     OPVER_T(INT32) | OPVER_T(INT64), tconv_int16x8_prepare,
		     tconv_int16x8_invoke);
