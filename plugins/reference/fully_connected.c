/*
 * fully_connected.c - FULLY_CONNECTED, float32, int8 and hybrid, computed as
 * TensorFlow Lite's reference kernels compute it: each row of the input
 * (flattened to [batches, depth]) is multiplied by the weights [units,
 * depth], the bias is added, and the fused activation clamps the result.
 * The int8 kernel accumulates (input - input zero point) * (weights - weights
 * zero point) in int32, adds the int32 bias, rescales with TFLite's
 * multiplier and shift (one per unit when the weights are quantized per
 * channel), adds the output zero point and clamps.  The hybrid kernel (float
 * input and output, int8 weights) quantizes each input row to int8 on the
 * fly, symmetrically or, with asymmetric_quantize_inputs, with a zero point
 * of its own, accumulates in int32 and scales the sum back to float with the
 * row's scale times the unit's weights scale.
 *
 * Version ranges (TFLite's op_version rules for FULLY_CONNECTED):
 *   1  float, uint8
 *   2  shuffled 4x16 int8 weights: a uint8-only layout, rejected here
 *   3  hybrid (float input, int8 weights): the hybrid kernel
 *   4  int8: the int8 kernel
 *   5  keep_num_dims: implemented
 *   6  no bias input: implemented
 *   7  int16: not these kernels' types
 *   8  sparse weights: not expressible in opver_tensor, so not claimed
 * The three kernels therefore cover 1..7.  Later versions (9: asymmetric
 * hybrid inputs, 12: hybrid per-channel weights) sit above 8 and so are not
 * claimed either, although the hybrid kernel computes both when a model
 * stores a lower version.
 */
#include <math.h>

#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

enum { FC_INPUT = 0, FC_WEIGHTS = 1, FC_BIAS = 2 };

/* Weights quantization axis: one scale per unit. */
#define FC_UNIT_AXIS 0

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

typedef struct fc_int8_data {
	fc_shape shape;
	int32_t input_offset;   /* minus the input zero point */
	int32_t weights_offset; /* minus the weights zero point */
	int32_t output_offset;  /* the output zero point */
	int32_t activation_min;
	int32_t activation_max;
	/* Per unit, input scale * weights scale / output scale (the same for
	 * every unit when the weights are quantized per tensor); units
	 * entries each, node-persistent. */
	int32_t *multipliers;
	int *shifts;
} fc_int8_data;

typedef struct fc_hybrid_data {
	fc_shape shape;
	bool asymmetric; /* asymmetric_quantize_inputs */
	float activation_min;
	float activation_max;
	/* Per unit, the weights scale; units entries, node-persistent. */
	float *weights_scales;
	/* One input row quantized; depth entries, node-persistent. */
	int8_t *row;
} fc_hybrid_data;

/* The node's tensors; bias is NULL when omitted. */
typedef struct fc_tensors {
	const opver_tensor *input;
	const opver_tensor *weights;
	const opver_tensor *bias;
	const opver_tensor *output;
} fc_tensors;

/* The node's parameters, with the defaults of ops.h for every field the core
 * did not fill.  quantized_bias_type only concerns int16 kernels. */
static opver_fully_connected_params fc_params(const opver_node *node)
{
	const opver_fully_connected_params *given = node->params;
	opver_fully_connected_params params = {
		.activation = OPVER_ACTIVATION_NONE,
		.weights_format = OPVER_FC_WEIGHTS_DEFAULT,
		.keep_num_dims = false,
		.asymmetric_quantize_inputs = false,
	};

	if (REF_PARAM_PRESENT(node, opver_fully_connected_params, activation))
		params.activation = given->activation;
	if (REF_PARAM_PRESENT(node, opver_fully_connected_params,
			      weights_format))
		params.weights_format = given->weights_format;
	if (REF_PARAM_PRESENT(node, opver_fully_connected_params,
			      keep_num_dims))
		params.keep_num_dims = given->keep_num_dims;
	if (REF_PARAM_PRESENT(node, opver_fully_connected_params,
			      asymmetric_quantize_inputs))
		params.asymmetric_quantize_inputs =
			given->asymmetric_quantize_inputs;
	return params;
}

static opver_status fc_check_params(const opver_host *host,
				    const opver_fully_connected_params *params)
{
	opver_status status;

	status = ref_expect_clamp_activation(host, params->activation);
	if (status != OPVER_OK)
		return status;
	if (params->weights_format != OPVER_FC_WEIGHTS_DEFAULT) {
		host->report_error(host,
				   "weights format %d (shuffled) is not supported: only the default [units, depth] layout is",
				   (int)params->weights_format);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}

/* The bias tensor, or NULL when the node has none. */
static const opver_tensor *fc_bias(const opver_node *node)
{
	return node->num_inputs > FC_BIAS ? node->inputs[FC_BIAS] : NULL;
}

/* The tensor types a kernel takes. */
typedef struct fc_types {
	opver_type data;    /* input and output */
	opver_type weights;
	opver_type bias;    /* when the bias is present */
} fc_types;

/* Collects the node's tensors and checks their count and types. */
static opver_status fc_get_tensors(const opver_host *host,
				   const opver_node *node,
				   const fc_types *types, fc_tensors *t)
{
	opver_status status;

	status = ref_check_arity(host, node, 2, 3, 1,
				 "FULLY_CONNECTED takes input, weights, an optional bias and one output; only the bias may be omitted");
	if (status != OPVER_OK)
		return status;
	t->input = node->inputs[FC_INPUT];
	t->weights = node->inputs[FC_WEIGHTS];
	t->bias = fc_bias(node);
	t->output = node->outputs[0];
	status = ref_expect_type(host, "input", t->input, types->data);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "weights", t->weights,
					 types->weights);
	if (status == OPVER_OK && t->bias != NULL)
		status = ref_expect_type(host, "bias", t->bias, types->bias);
	if (status == OPVER_OK)
		status = ref_expect_type(host, "output", t->output,
					 types->data);
	return status;
}

/* The output shape must be what TFLite would give it: the input's leading
 * dimensions and `units` with keep_num_dims, else [batches, units] (any
 * shape of that many elements ending in `units` is accepted). */
static bool fc_output_shape_ok(const fc_tensors *t, const fc_shape *shape,
			       bool keep_num_dims)
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

static opver_status fc_check_shapes(const opver_host *host,
				    const fc_tensors *t, bool keep_num_dims,
				    fc_shape *shape)
{
	const opver_tensor *in = t->input, *w = t->weights;
	size_t elements;

	if (w->rank != 2 || w->dims[0] <= 0 || w->dims[1] <= 0) {
		host->report_error(host,
				   "weights '%s' must have shape [units, depth] with both positive (rank %d)",
				   w->name, (int)w->rank);
		return OPVER_ERROR_INVALID_MODEL;
	}
	shape->units = (size_t)w->dims[0];
	shape->depth = (size_t)w->dims[1];
	elements = opver_tensor_elements(in);
	if (elements % shape->depth != 0) {
		host->report_error(host,
				   "input '%s' has %zu elements, not a multiple of the weights' depth %zu",
				   in->name, elements, shape->depth);
		return OPVER_ERROR_INVALID_MODEL;
	}
	shape->batches = elements / shape->depth;
	if (keep_num_dims &&
	    (in->rank < 1 || (size_t)in->dims[in->rank - 1] != shape->depth)) {
		host->report_error(host,
				   "with keep_num_dims the last dimension of input '%s' must be the weights' depth %zu",
				   in->name, shape->depth);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (t->bias != NULL && opver_tensor_elements(t->bias) != shape->units) {
		host->report_error(host,
				   "bias '%s' has %zu elements; the weights have %zu units",
				   t->bias->name,
				   opver_tensor_elements(t->bias),
				   shape->units);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (!fc_output_shape_ok(t, shape, keep_num_dims)) {
		host->report_error(host,
				   "output '%s' must hold %zu x %zu elements (batches x units)%s",
				   t->output->name, shape->batches,
				   shape->units,
				   keep_num_dims ? " with the input's leading dimensions (keep_num_dims)" : "");
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* Everything every kernel checks: parameters, tensor types and shapes. */
static opver_status fc_prepare_common(const opver_host *host,
				      const opver_node *node,
				      const fc_types *types,
				      opver_fully_connected_params *params,
				      fc_tensors *t, fc_shape *shape)
{
	opver_status status;

	*params = fc_params(node);
	status = fc_check_params(host, params);
	if (status == OPVER_OK)
		status = fc_get_tensors(host, node, types, t);
	if (status == OPVER_OK)
		status = fc_check_shapes(host, t, params->keep_num_dims, shape);
	return status;
}

/* ------------------------------------------------------------- float32 */

static opver_status fc_float32_prepare(const opver_host *host,
				       opver_node *node)
{
	static const fc_types types = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
	};
	fc_float32_data *data = node->op_data;
	opver_fully_connected_params params;
	fc_tensors t;
	opver_status status;

	status = fc_prepare_common(host, node, &types, &params, &t,
				   &data->shape);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

static opver_status fc_float32_invoke(const opver_host *host,
				      opver_node *node)
{
	const fc_float32_data *data = node->op_data;
	const size_t depth = data->shape.depth, units = data->shape.units;
	const float *input = node->inputs[FC_INPUT]->data;
	const float *weights = node->inputs[FC_WEIGHTS]->data;
	const opver_tensor *bias_tensor = fc_bias(node);
	const float *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	float *output = node->outputs[0]->data;

	(void)host;
	for (size_t b = 0; b < data->shape.batches; b++) {
		const float *row = input + b * depth;

		for (size_t u = 0; u < units; u++) {
			const float *w = weights + u * depth;
			float total = 0.0f;

			/* Summed in order, as TFLite does, so results match it
			 * bit for bit. */
			for (size_t d = 0; d < depth; d++)
				total += row[d] * w[d];
			output[b * units + u] = ref_clamp_float(
				total + (bias != NULL ? bias[u] : 0.0f),
				data->activation_min, data->activation_max);
		}
	}
	return OPVER_OK;
}

/* Node-persistent memory for `count` values of `size` bytes, or NULL
 * after reporting. */
static void *fc_allocate(const opver_host *host, size_t count, size_t size,
			 const char *what)
{
	void *memory = host->allocate_persistent(host, count * size);

	if (memory == NULL)
		host->report_error(host, "out of memory for %zu %s", count,
				   what);
	return memory;
}

/* ---------------------------------------------------------------- int8 */

/* TFLite's check that the bias was quantized with input scale x weights
 * scale, to within what shifts an output by at most 0.02 of a step. */
static opver_status fc_check_bias_scale(const opver_host *host,
					const opver_tensor *bias,
					float input_scale,
					float weights_scale,
					float output_scale)
{
	const double product = (double)input_scale * (double)weights_scale;
	const double bias_scale = bias->quant.count > 0 ?
					  (double)bias->quant.scale[0] : 0.0;

	if (fabs(product - bias_scale) / (double)output_scale <= 0.02)
		return OPVER_OK;
	host->report_error(host,
			   "bias '%s' has scale %g, but input scale x weights scale is %g; they must agree",
			   bias->name, bias_scale, product);
	return OPVER_ERROR_INVALID_MODEL;
}

/*
 * The rescale of weights quantized per tensor, the same for every unit,
 * computed as TFLite's per-tensor kernel does: the scales' product rounded
 * to float, then divided by the output scale in double.  The weights may
 * have a zero point; the bias scale must match.
 */
static opver_status fc_tensor_rescale(const opver_host *host,
				      const fc_tensors *t, float input_scale,
				      float output_scale, fc_int8_data *data)
{
	float weights_scale, product_scale;
	int32_t weights_zero, multiplier;
	double real_multiplier;
	int shift;
	opver_status status;

	status = ref_per_tensor_quantization(host, "weights", t->weights,
					     &weights_scale, &weights_zero);
	if (status == OPVER_OK && t->bias != NULL)
		status = fc_check_bias_scale(host, t->bias, input_scale,
					     weights_scale, output_scale);
	if (status != OPVER_OK)
		return status;
	product_scale = input_scale * weights_scale;
	real_multiplier = (double)product_scale / (double)output_scale;
	ref_quantize_multiplier(real_multiplier, &multiplier, &shift);
	if (shift > 30) {
		host->report_error(host,
				   "input scale x weights scale / output scale is %g; rescale factors of 2^31 and more are not supported",
				   real_multiplier);
		return OPVER_ERROR_UNSUPPORTED;
	}
	for (size_t u = 0; u < data->shape.units; u++) {
		data->multipliers[u] = multiplier;
		data->shifts[u] = shift;
	}
	data->weights_offset = -weights_zero;
	return OPVER_OK;
}

static opver_status fc_int8_prepare(const opver_host *host, opver_node *node)
{
	static const fc_types types = {
		OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT32,
	};
	fc_int8_data *data = node->op_data;
	opver_fully_connected_params params;
	fc_tensors t;
	float input_scale, output_scale;
	int32_t input_zero, output_zero;
	opver_status status;

	status = fc_prepare_common(host, node, &types, &params, &t,
				   &data->shape);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(host, "input", t.input,
						     &input_scale, &input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(host, "output", t.output,
						     &output_scale,
						     &output_zero);
	if (status != OPVER_OK)
		return status;
	data->multipliers = fc_allocate(host, data->shape.units,
					sizeof(*data->multipliers), "units");
	data->shifts = fc_allocate(host, data->shape.units,
				   sizeof(*data->shifts), "units");
	if (data->multipliers == NULL || data->shifts == NULL)
		return OPVER_ERROR_NOMEM;
	/* Per channel, as TFLite's FullyConnectedPerChannel: symmetric
	 * weights, one rescale per unit, and no check of the bias scale. */
	if (t.weights->quant.count > 1)
		status = ref_channel_rescales(host, t.weights, FC_UNIT_AXIS,
					      (int32_t)data->shape.units,
					      input_scale, output_scale,
					      data->multipliers, data->shifts);
	else
		status = fc_tensor_rescale(host, &t, input_scale, output_scale,
					   data);
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

static opver_status fc_int8_invoke(const opver_host *host, opver_node *node)
{
	const fc_int8_data *data = node->op_data;
	const size_t depth = data->shape.depth, units = data->shape.units;
	const int32_t input_offset = data->input_offset;
	const int32_t weights_offset = data->weights_offset;
	const int8_t *input = node->inputs[FC_INPUT]->data;
	const int8_t *weights = node->inputs[FC_WEIGHTS]->data;
	const opver_tensor *bias_tensor = fc_bias(node);
	const int32_t *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	int8_t *output = node->outputs[0]->data;

	(void)host;
	for (size_t b = 0; b < data->shape.batches; b++) {
		const int8_t *row = input + b * depth;

		for (size_t u = 0; u < units; u++) {
			const int8_t *w = weights + u * depth;
			int32_t acc = 0;

			for (size_t d = 0; d < depth; d++)
				acc += ((int32_t)w[d] + weights_offset) *
				       ((int32_t)row[d] + input_offset);
			if (bias != NULL)
				acc += bias[u];
			acc = ref_multiply_by_quantized_multiplier(
				acc, data->multipliers[u], data->shifts[u]);
			acc += data->output_offset;
			output[b * units + u] = (int8_t)ref_clamp_int32(
				acc, data->activation_min,
				data->activation_max);
		}
	}
	return OPVER_OK;
}

/* -------------------------------------------------------------- hybrid */

static opver_status fc_hybrid_prepare(const opver_host *host,
				      opver_node *node)
{
	static const fc_types types = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32,
	};
	fc_hybrid_data *data = node->op_data;
	opver_fully_connected_params params;
	fc_tensors t;
	opver_status status;

	status = fc_prepare_common(host, node, &types, &params, &t,
				   &data->shape);
	/* TFLite's hybrid kernels never subtract a weights zero point. */
	if (status == OPVER_OK)
		status = ref_filter_scales_check(host, t.weights, FC_UNIT_AXIS,
						 (int32_t)data->shape.units);
	if (status != OPVER_OK)
		return status;
	data->weights_scales = fc_allocate(host, data->shape.units,
					   sizeof(*data->weights_scales),
					   "units");
	data->row = fc_allocate(host, data->shape.depth, sizeof(*data->row),
				"input elements");
	if (data->weights_scales == NULL || data->row == NULL)
		return OPVER_ERROR_NOMEM;
	for (size_t u = 0; u < data->shape.units; u++)
		data->weights_scales[u] =
			ref_filter_scale(t.weights, (int32_t)u);
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	data->asymmetric = params.asymmetric_quantize_inputs;
	return OPVER_OK;
}

static opver_status fc_hybrid_invoke(const opver_host *host,
				     opver_node *node)
{
	const fc_hybrid_data *data = node->op_data;
	const size_t depth = data->shape.depth, units = data->shape.units;
	const float *input = node->inputs[FC_INPUT]->data;
	const int8_t *weights = node->inputs[FC_WEIGHTS]->data;
	const opver_tensor *bias_tensor = fc_bias(node);
	const float *bias = bias_tensor != NULL ? bias_tensor->data : NULL;
	float *output = node->outputs[0]->data;
	int8_t *row = data->row;

	(void)host;
	for (size_t b = 0; b < data->shape.batches; b++) {
		float row_scale;
		int32_t row_zero = 0;

		if (data->asymmetric)
			ref_quantize_floats_asymmetric(input + b * depth, depth,
						       row, &row_scale,
						       &row_zero);
		else
			ref_quantize_floats_symmetric(input + b * depth, depth,
						      row, &row_scale);
		for (size_t u = 0; u < units; u++) {
			const int8_t *w = weights + u * depth;
			/* Rounded to float first, as TFLite folds the
			 * weights scale into the row's. */
			const float scale = row_scale * data->weights_scales[u];
			int32_t acc = 0;
			float product;

			/* The sum of w * (q - zero) is TFLite's sum of w * q
			 * minus the zero point times the row sum of w. */
			for (size_t d = 0; d < depth; d++)
				acc += (int32_t)w[d] *
				       ((int32_t)row[d] - row_zero);
			/* Its own statement, so that no compiler fuses it
			 * with the addition of the bias. */
			product = (float)acc * scale;
			output[b * units + u] = ref_clamp_float(
				(bias != NULL ? bias[u] : 0.0f) + product,
				data->activation_min, data->activation_max);
		}
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

static const opver_type_signature fc_float32_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

static const opver_type_signature fc_int8_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_INT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_INT8),
} };

static const opver_type_signature fc_hybrid_signatures[] = { {
	.inputs = {
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
		OPVER_TYPE_BIT(OPVER_TYPE_INT8),
		OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) | OPVER_TYPE_BIT_ABSENT,
	},
	.output = OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32),
} };

const opver_kernel ref_fully_connected_float32 = {
	.struct_size = sizeof(opver_kernel),
	.name = "fully_connected_float32",
	.op = OPVER_OP_FULLY_CONNECTED,
	.min_version = 1,
	.max_version = 7,
	.signatures = fc_float32_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(fc_float32_data),
	.prepare = fc_float32_prepare,
	.invoke = fc_float32_invoke,
};

const opver_kernel ref_fully_connected_int8 = {
	.struct_size = sizeof(opver_kernel),
	.name = "fully_connected_int8",
	.op = OPVER_OP_FULLY_CONNECTED,
	.min_version = 1,
	.max_version = 7,
	.signatures = fc_int8_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(fc_int8_data),
	.prepare = fc_int8_prepare,
	.invoke = fc_int8_invoke,
};

const opver_kernel ref_fully_connected_hybrid = {
	.struct_size = sizeof(opver_kernel),
	.name = "fully_connected_hybrid",
	.op = OPVER_OP_FULLY_CONNECTED,
	.min_version = 1,
	.max_version = 7,
	.signatures = fc_hybrid_signatures,
	.num_signatures = 1,
	.priority = REF_PRIORITY,
	.flags = OPVER_KERNEL_STATELESS,
	.op_data_size = sizeof(fc_hybrid_data),
	.prepare = fc_hybrid_prepare,
	.invoke = fc_hybrid_invoke,
};
