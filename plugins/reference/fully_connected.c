/*
 * fully_connected.c - FULLY_CONNECTED, float32, int8 and hybrid, computed as
 * TensorFlow Lite's reference kernels compute it: each row of the input
 * (flattened to [batches, depth]) is multiplied by the weights [units,
 * depth], the bias is added, and the fused activation clamps the result.
 * The int8 and uint8 kernels, one implementation, accumulate (input -
 * input zero point) * (weights - weights zero point) in int32 and end in
 * requantize.h's output stage: bias, TFLite's multiplier and shift (one per
 * unit when int8 weights are quantized per channel), output zero point,
 * clamp.  uint8 is TFLite's legacy asymmetric quantization: weights per
 * tensor with a zero point, and the bias scale checked, as for per-tensor
 * int8 weights (ref_requantize_tensor).  The hybrid kernel
 * (float input and output, int8 weights) quantizes each input row to int8
 * on the fly (hybrid.h), symmetrically or, with asymmetric_quantize_inputs,
 * with a zero point of its own, accumulates in int32 and scales the sum
 * back to float with the row's scale times the unit's weights scale.  The
 * int16x8 kernel (int16 input and output with zero point 0, int8 weights,
 * optional int64 bias) sums in int64 and ends in requantize.h's wide output
 * stage, as TFLite's 16x8 FullyConnected; its weights are quantized per
 * tensor, as the int8 kernel's, or per unit; with an int32 bias (or
 * quantized_bias_type INT32) it sums modulo 2^32 and ends in the 32-bit
 * output stage instead, as TFLite's int32-bias instantiation.  The uint8
 * to int16 kernel is the uint8 kernel with TFLite's legacy int16 output
 * (zero point 0), the int8 output stage clamped to int16.
 *
 * Version ranges (TFLite's op_version rules for FULLY_CONNECTED):
 *   1  float, uint8: the float32 and uint8 kernels
 *   2  shuffled 4x16 int8 weights: a uint8-only layout, rejected here
 *   3  hybrid (float input, int8 weights): the hybrid kernel
 *   4  int8: the int8 kernel
 *   5  keep_num_dims: implemented
 *   6  no bias input: implemented
 *   7  int16 weights: not these kernels' types (TFLite gives int16
 *      activations with int8 weights version 1, 5 or 6 but for 11)
 *   8  sparse weights: not expressible in opver_tensor, so not claimed
 *  11  quantized_bias_type with int16 activations: the int16x8 kernel
 * The other kernels therefore cover 1..7.  Later versions (9: asymmetric
 * hybrid inputs, 12: hybrid per-channel weights) sit above 8 and so are not
 * claimed either, although the hybrid kernel computes both when a model
 * stores a lower version.  The int16x8 kernel covers 1..11: the model
 * reader refuses sparse tensors, so no version 8 node reaches it, and 9
 * and 10 concern other tensor types (float input, int4 weights).
 */
#include <string.h>

#include "dot.h"
#include "filter_node.h"
#include "hybrid.h"
#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "requantize.h"

/* Weights quantization axis: one scale per unit. */
#define FC_UNIT_AXIS 0
/* The most dimensions a keep_num_dims output is given here. */
#define FC_MAX_RANK 8

#define FC_USAGE                                                          \
	"FULLY_CONNECTED takes input, weights, an optional bias and one " \
	"output; only the bias may be omitted"

/* The node's shape, as prepare checked it. */
typedef struct fc_shape {
	size_t batches; /* input rows */
	size_t depth;   /* elements per input row: the weights' dimension 1 */
	size_t units;   /* elements per output row: the weights' dimension 0 */
} fc_shape;

typedef struct fc_float32_data {
	fc_shape shape;
	float activation_min;
	float activation_max;
} fc_float32_data;

typedef struct fc_quantized_data {
	fc_shape shape;
	/* One rescale per unit, the same for every unit when the weights
	 * are quantized per tensor; the weights offset too. */
	ref_requantize requantize;
} fc_quantized_data;

typedef struct fc_hybrid_data {
	fc_shape shape;
	bool asymmetric; /* asymmetric_quantize_inputs */
	float activation_min;
	float activation_max;
	/* Per unit, the weights scale; units entries, in node memory
	 * (allocate_persistent). */
	float *weights_scales;
	/* Scratch index: one input row quantized, depth entries. */
	int32_t row;
} fc_hybrid_data;

typedef struct fc_int16x8_data {
	fc_shape shape;
	/* Zero input and output offsets; the weights offset for per-tensor
	 * weights with a zero point. */
	ref_requantize requantize;
	bool wide; /* an int64 bias (or none, by quantized_bias_type) */
} fc_int16x8_data;

/* ------------------------------------------------------------- prepare */

static opver_status fc_check_weights_format(const opver_context *ctx,
					    int32_t weights_format)
{
	if (weights_format == OPVER_FC_WEIGHTS_DEFAULT)
		return OPVER_OK;
	OPVER_REPORT(ctx,
		     "weights format %d (shuffled) is not supported: only the default [units, depth] layout is",
		     (int)weights_format);
	return OPVER_ERROR_UNSUPPORTED;
}

/* The output shape must be what TFLite would give it: the input's leading
 * dimensions and `units` with keep_num_dims, else [batches, units] (any
 * shape of that many elements ending in `units` is accepted). */
static bool fc_output_shape_ok(const ref_filter_tensors *t,
			       const fc_shape *shape, bool keep_num_dims)
{
	const opver_tensor *in = t->input, *out = t->output;

	if (out->rank < 1 || (size_t)out->dims[out->rank - 1] != shape->units)
		return false;
	if (!keep_num_dims)
		return opver_tensor_elements(out) ==
		       shape->batches * shape->units;
	if (out->rank != in->rank)
		return false;
	for (int32_t i = 0; i + 1 < in->rank; i++)
		if (out->dims[i] != in->dims[i])
			return false;
	return true;
}

/* The input as rows of the weights' depth. */
static opver_status fc_check_input(const opver_context *ctx,
				   const opver_tensor *in, bool keep_num_dims,
				   fc_shape *shape)
{
	const size_t elements = opver_tensor_elements(in);

	if (elements % shape->depth != 0) {
		OPVER_REPORT(ctx,
			     "input '%s' has %zu elements, not a multiple of the weights' depth %zu",
			     in->name, elements, shape->depth);
		return OPVER_ERROR_INVALID_MODEL;
	}
	shape->batches = elements / shape->depth;
	if (keep_num_dims &&
	    (in->rank < 1 || (size_t)in->dims[in->rank - 1] != shape->depth)) {
		OPVER_REPORT(ctx,
			     "with keep_num_dims the last dimension of input '%s' must be the weights' depth %zu",
			     in->name, shape->depth);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* The output's shape: the model's when it fits (fc_output_shape_ok()),
 * else, through the host, TFLite's: the input's leading dimensions and
 * `units` with keep_num_dims, else [batches, units]. */
static opver_status fc_shape_output(const opver_context *ctx,
				    const opver_node *node,
				    const ref_filter_tensors *t,
				    bool keep_num_dims, const fc_shape *shape)
{
	const opver_tensor *in = t->input;
	int32_t want[FC_MAX_RANK];

	if (fc_output_shape_ok(t, shape, keep_num_dims))
		return ref_shape_like(ctx, node, 0, t->output);
	if (OPVER_HOST_HAS(ctx->host, resize_output) &&
	    (!keep_num_dims || in->rank <= FC_MAX_RANK)) {
		if (!keep_num_dims)
			return ref_shape_output(ctx, node, 0,
						(const int32_t[2]){
							(int32_t)shape->batches,
							(int32_t)shape->units },
						2, "FULLY_CONNECTED gives");
		memcpy(want, in->dims, (size_t)in->rank * sizeof(*want));
		want[in->rank - 1] = (int32_t)shape->units;
		return ref_shape_output(ctx, node, 0, want, in->rank,
					"FULLY_CONNECTED gives");
	}
	OPVER_REPORT(ctx,
		     "output '%s' must hold %zu x %zu elements (batches x units)%s",
		     t->output->name, shape->batches, shape->units,
		     keep_num_dims ? " with the input's leading dimensions (keep_num_dims)" : "");
	return OPVER_ERROR_INVALID_MODEL;
}

static opver_status fc_check_shapes(const opver_context *ctx,
				    const opver_node *node,
				    const ref_filter_tensors *t,
				    bool keep_num_dims, fc_shape *shape)
{
	const opver_tensor *w = t->filter;
	opver_status status;

	if (w->rank != 2 || w->dims[0] <= 0 || w->dims[1] <= 0) {
		OPVER_REPORT(ctx,
			     "weights '%s' must have shape [units, depth] with both positive (rank %d)",
			     w->name, (int)w->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	shape->units = (size_t)w->dims[0];
	shape->depth = (size_t)w->dims[1];
	status = fc_check_input(ctx, t->input, keep_num_dims, shape);
	if (status == OPVER_OK)
		status = ref_check_bias_size(ctx, t->bias, shape->units,
					     "the weights have", "units");
	if (status == OPVER_OK)
		status = fc_shape_output(ctx, node, t, keep_num_dims, shape);
	return status;
}

/* Everything every kernel checks: parameters, tensor types and shapes. */
static opver_status fc_prepare_common(const opver_context *ctx,
				      const opver_node *node,
				      const opver_type_signature *types,
				      opver_fully_connected_params *params,
				      ref_filter_tensors *t, fc_shape *shape)
{
	opver_status status;

	/* quantized_bias_type only concerns int16 kernels. */
	*params = (opver_fully_connected_params)
		OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS;
	opver_read_params(node, params, sizeof(*params));
	status = ref_filter_node_get(ctx, node, params->activation, FC_USAGE,
				     "weights", types, t);
	if (status == OPVER_OK)
		status = fc_check_weights_format(ctx, params->weights_format);
	if (status == OPVER_OK)
		status = fc_check_shapes(ctx, node, t,
					 params->keep_num_dims != 0, shape);
	return status;
}

/* ------------------------------------------------------------- float32 */

static opver_status fc_float32_prepare(const opver_context *ctx,
				       opver_node *node)
{
	fc_float32_data *data = node->op_data;
	opver_fully_connected_params params;
	ref_filter_tensors t;
	opver_status status;

	status = fc_prepare_common(ctx, node,
				   ref_fully_connected_float32.signatures,
				   &params, &t, &data->shape);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

static opver_status fc_float32_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const fc_float32_data *data = node->op_data;
	const size_t depth = data->shape.depth, units = data->shape.units;
	const float *input = node->inputs[REF_FILTER_INPUT]->data;
	const float *weights = node->inputs[REF_FILTER_FILTER]->data;
	const float *bias = ref_bias_data(node);
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t b = 0; b < data->shape.batches; b++)
		for (size_t u = 0; u < units; u++)
			*output++ = ref_float_output(
				ref_dot_float(0.0f, input + b * depth,
					      weights + u * depth, depth),
				bias, u, data->activation_min,
				data->activation_max);
	return OPVER_OK;
}

/* ---------------------------------------------------------------- int8 */

/* The rescales of int8 weights: per unit when quantized per channel, as
 * TFLite's FullyConnectedPerChannel (symmetric weights, the bias scale not
 * checked), else one for all units with a weights zero point allowed. */
static opver_status fc_requantize_weights(const opver_context *ctx,
					  const ref_filter_tensors *t,
					  size_t units, float input_scale,
					  float output_scale,
					  ref_requantize *r)
{
	if (t->filter->quant.count > 1)
		return ref_requantize_channels(ctx, t->filter, FC_UNIT_AXIS,
					       (int32_t)units, input_scale,
					       output_scale, r);
	return ref_requantize_tensor(ctx, "weights", t->filter, t->bias,
				     (int32_t)units, input_scale, output_scale,
				     r);
}

/* The int8 and uint8 kernels' prepare; `types` is the kernel's
 * signature. */
static opver_status fc_quantized_prepare(const opver_context *ctx,
					 opver_node *node,
					 const opver_type_signature *types)
{
	fc_quantized_data *data = node->op_data;
	opver_fully_connected_params params;
	ref_filter_tensors t;
	float input_scale, output_scale;
	opver_status status;

	status = fc_prepare_common(ctx, node, types, &params, &t,
				   &data->shape);
	if (status == OPVER_OK)
		status = ref_requantize_io(ctx, t.input, t.output,
					   params.activation, false,
					   &input_scale, &output_scale,
					   &data->requantize);
	if (status != OPVER_OK)
		return status;
	if (t.input->type == OPVER_TYPE_INT8)
		return fc_requantize_weights(ctx, &t, data->shape.units,
					     input_scale, output_scale,
					     &data->requantize);
	/* TFLite's uint8 kernel with int16 output assumes zero point 0. */
	if (t.output->type == OPVER_TYPE_INT16 &&
	    data->requantize.output_offset != 0) {
		OPVER_REPORT(ctx,
			     "output '%s' has zero point %d; an int16 output of uint8 input must have zero point 0",
			     t.output->name,
			     (int)data->requantize.output_offset);
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* uint8: TFLite's legacy per-tensor rescale only. */
	return ref_requantize_tensor(ctx, "weights", t.filter, t.bias,
				     (int32_t)data->shape.units, input_scale,
				     output_scale, &data->requantize);
}

/*
 * Defines name_prepare and name_invoke, the callbacks of the kernel whose
 * input and weights are `type` (int8_t, uint8_t) and output `out_type`,
 * its manifest entry `kernel`, summing with `dot` (dot.h) and rescaling
 * with `apply` (requantize.h: the GEMM rescale for int8, see
 * quantization.h).
 */
#define FC_QUANTIZED_DEFINE(name, kernel, type, out_type, dot, apply)         \
	static opver_status name##_prepare(const opver_context *ctx,            \
					   opver_node *node)                  \
	{                                                                     \
		return fc_quantized_prepare(ctx, node, kernel.signatures);    \
	}                                                                     \
                                                                              \
	static opver_status name##_invoke(const opver_context *ctx,             \
					  opver_node *node)                   \
	{                                                                     \
		const fc_quantized_data *data = node->op_data;                \
		const ref_requantize *r = &data->requantize;                  \
		const size_t depth = data->shape.depth;                       \
		const type *input = node->inputs[REF_FILTER_INPUT]->data;     \
		const type *weights = node->inputs[REF_FILTER_FILTER]->data;  \
		const int32_t *bias = ref_bias_data(node);                    \
		out_type *output = node->outputs[0]->data;                    \
                                                                              \
		(void)ctx;                                                   \
		for (size_t b = 0; b < data->shape.batches; b++)              \
			for (size_t u = 0; u < data->shape.units; u++)        \
				*output++ = (out_type)apply(                  \
					r, u,                                 \
					dot(input + b * depth,                \
					    r->input_offset,                  \
					    weights + u * depth,              \
					    r->filter_offset, depth),         \
					bias);                                \
		return OPVER_OK;                                              \
	}

FC_QUANTIZED_DEFINE(fc_int8, ref_fully_connected_int8, int8_t, int8_t,
		    ref_dot_int8, ref_requantize_gemm_apply)
FC_QUANTIZED_DEFINE(fc_uint8, ref_fully_connected_uint8, uint8_t, uint8_t,
		    ref_dot_uint8, ref_requantize_apply)
FC_QUANTIZED_DEFINE(fc_uint8_int16, ref_fully_connected_uint8_int16,
		    uint8_t, int16_t, ref_dot_uint8, ref_requantize_apply)

/* ------------------------------------------------------------- int16x8 */

static opver_status fc_int16x8_prepare(const opver_context *ctx,
				       opver_node *node)
{
	fc_int16x8_data *data = node->op_data;
	opver_fully_connected_params params;
	ref_filter_tensors t;
	float input_scale, output_scale;
	opver_status status;

	status = fc_prepare_common(ctx, node,
				   ref_fully_connected_int16x8.signatures,
				   &params, &t, &data->shape);
	if (status == OPVER_OK)
		status = ref_requantize_io(ctx, t.input, t.output,
					   params.activation, true,
					   &input_scale, &output_scale,
					   &data->requantize);
	if (status == OPVER_OK)
		status = fc_requantize_weights(ctx, &t, data->shape.units,
					       input_scale, output_scale,
					       &data->requantize);
	if (status == OPVER_OK)
		status = ref_requantize_wide(ctx, params.quantized_bias_type,
					     t.bias, &data->wide);
	if (status == OPVER_OK && data->wide)
		status = ref_requantize_check_wide(ctx, &data->requantize,
						   (int32_t)data->shape.units);
	return status;
}

static opver_status fc_int16x8_invoke(const opver_context *ctx,
				      opver_node *node)
{
	const fc_int16x8_data *data = node->op_data;
	const ref_requantize *r = &data->requantize;
	const size_t depth = data->shape.depth;
	const int16_t *input = node->inputs[REF_FILTER_INPUT]->data;
	const int8_t *weights = node->inputs[REF_FILTER_FILTER]->data;
	const void *bias = ref_bias_data(node);
	int16_t *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t b = 0; b < data->shape.batches; b++)
		for (size_t u = 0; u < data->shape.units; u++) {
			const int64_t sum = ref_dot_int16x8(
				input + b * depth, weights + u * depth,
				r->filter_offset, depth);

			/* With an int32 bias, TFLite's int32 accumulator
			 * holds the sum modulo 2^32. */
			*output++ = (int16_t)(
				data->wide ? ref_requantize_wide_apply(
						     r, u, sum, bias)
					   : ref_requantize_apply(
						     r, u, (uint32_t)sum,
						     bias));
		}
	return OPVER_OK;
}

/* -------------------------------------------------------------- hybrid */

static opver_status fc_hybrid_prepare(const opver_context *ctx,
				      opver_node *node)
{
	fc_hybrid_data *data = node->op_data;
	opver_fully_connected_params params;
	ref_filter_tensors t;
	opver_status status;

	status = fc_prepare_common(ctx, node,
				   ref_fully_connected_hybrid.signatures,
				   &params, &t, &data->shape);
	if (status == OPVER_OK)
		status = ref_hybrid_filter_scales(ctx, t.filter, FC_UNIT_AXIS,
						  (int32_t)data->shape.units,
						  &data->weights_scales);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, data->shape.depth,
					     sizeof(int8_t),
					     "quantized input elements",
					     &data->row);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	data->asymmetric = params.asymmetric_quantize_inputs != 0;
	return OPVER_OK;
}

static opver_status fc_hybrid_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const fc_hybrid_data *data = node->op_data;
	const size_t depth = data->shape.depth, units = data->shape.units;
	const float *input = node->inputs[REF_FILTER_INPUT]->data;
	const int8_t *weights = node->inputs[REF_FILTER_FILTER]->data;
	const float *bias = ref_bias_data(node);
	float *output = node->outputs[0]->data;
	int8_t *row = ref_scratch(ctx, data->row);

	if (row == NULL)
		return OPVER_ERROR;
	for (size_t b = 0; b < data->shape.batches; b++) {
		float row_scale;
		int32_t row_zero;

		ref_hybrid_quantize(input + b * depth, depth, data->asymmetric,
				    row, &row_scale, &row_zero);
		for (size_t u = 0; u < units; u++) {
			/* The sum of w * (q - zero) is TFLite's sum of w * q
			 * minus the zero point times the row sum of w. */
			const int32_t acc = (int32_t)ref_dot_int8(
				row, -row_zero, weights + u * depth, 0, depth);
			/* Rounded to float first, as TFLite folds the
			 * weights scale into the row's; and its own
			 * statement, so that no compiler fuses the product
			 * with the addition of the bias. */
			const float product =
				(float)acc *
				(row_scale * data->weights_scales[u]);

			*output++ = ref_float_output(product, bias, u,
						     data->activation_min,
						     data->activation_max);
		}
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_fully_connected_float32 = {
	OPVER_KERNEL("fully_connected_float32", FULLY_CONNECTED, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(FLOAT32, FLOAT32, OPVER_T(FLOAT32),
					    FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(fc_float32_data),
	.prepare = fc_float32_prepare, .invoke = fc_float32_invoke,
};

const opver_kernel ref_fully_connected_int8 = {
	OPVER_KERNEL("fully_connected_int8", FULLY_CONNECTED, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(INT8, INT8, OPVER_T(INT32), INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(fc_quantized_data),
	.prepare = fc_int8_prepare, .invoke = fc_int8_invoke,
};

const opver_kernel ref_fully_connected_uint8 = {
	OPVER_KERNEL("fully_connected_uint8", FULLY_CONNECTED, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(UINT8, UINT8, OPVER_T(INT32),
					    UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(fc_quantized_data),
	.prepare = fc_uint8_prepare, .invoke = fc_uint8_invoke,
};

const opver_kernel ref_fully_connected_hybrid = {
	OPVER_KERNEL("fully_connected_hybrid", FULLY_CONNECTED, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(FLOAT32, INT8, OPVER_T(FLOAT32),
					    FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(fc_hybrid_data),
	.prepare = fc_hybrid_prepare, .invoke = fc_hybrid_invoke,
};

const opver_kernel ref_fully_connected_int16x8 = {
	OPVER_KERNEL("fully_connected_int16x8", FULLY_CONNECTED, 1, 11),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(INT16, INT8,
					    OPVER_T(INT32) | OPVER_T(INT64),
					    INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(fc_int16x8_data),
	.prepare = fc_int16x8_prepare, .invoke = fc_int16x8_invoke,
};

const opver_kernel ref_fully_connected_uint8_int16 = {
	OPVER_KERNEL("fully_connected_uint8_int16", FULLY_CONNECTED, 1, 7),
	REF_SIGNATURES(REF_FILTER_SIGNATURE(UINT8, UINT8, OPVER_T(INT32),
					    INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(fc_quantized_data),
	.prepare = fc_uint8_int16_prepare, .invoke = fc_uint8_int16_invoke,
};
