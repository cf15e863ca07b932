/*
 * svdf.c - SVDF: a layer of `num_filters` rank-1 filters over time, whose
 * memory of the last `memory_size` feature activations is the state
 * tensor (input 4, a variable tensor the kernel writes).  Each invoke, as
 * TFLite's reference EvalFloatSVDF and EvalIntegerSVDF do:
 *   1. shifts the whole state one element left (each filter's row of
 *      memory_size drops its oldest value);
 *   2. writes each filter's feature activation, weights_feature . input,
 *      into the last column of its row;
 *   3. per filter, the dot product of its row with weights_time; the sums
 *      of each unit's `rank` filters, plus the bias, are the output.
 * float32: the fused activation is applied to the output, any that
 * TFLite's ApplyActivationToVector applies and a model can name (NONE,
 * RELU, RELU_N1_TO_1, RELU6, TANH, SIGN_BIT; the schema has no
 * SIGMOID).  Full integer int8
 * (int8 input, weights_feature and output, int16 weights_time and state,
 * int32 bias): the activation is rescaled by input scale x feature scale /
 * state scale and clamped to int16 into the state, the time sums by state
 * scale x time scale / output scale into the output, clamped to int8.
 * TFLite's integer kernel assumes the weights and the state symmetric, so
 * zero points other than 0 there are refused.  It takes only RELU (TFLite
 * 2.12 fails the invoke on any other activation) yet clamps to the whole
 * int8 range, not at zero: checked against its outputs (tests/oracle).
 * NONE is taken too, computed alike; other activations are refused.
 * Integer sums wrap as TFLite's int32 sums overflow, without the
 * undefined behaviour.
 *
 * Hybrid (float input, state and output, int8 weights_feature and
 * weights_time, float bias), as TFLite's EvalHybridSVDF: each batch's input
 * is quantized to int8 on the fly (symmetrically, or with
 * asymmetric_quantize_inputs asymmetrically), the integer feature sums are
 * scaled back to float by the batch's scale x the weights_feature scale,
 * and weights_time is dequantized; the rest is the float kernel.
 *
 * Versions: float (1) and full integer (3) on "svdf"; hybrid (2, and 4
 * with asymmetric inputs) on "svdf_hybrid".
 */
#include <string.h>

#include "hybrid.h"
#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "sequence.h"

enum {
	SVDF_INPUT = 0,
	SVDF_WEIGHTS_FEATURE = 1,
	SVDF_WEIGHTS_TIME = 2,
	SVDF_BIAS = 3,
	SVDF_STATE = 4,
};

typedef struct svdf_data {
	int32_t batch, input_size, num_filters, memory_size, rank, num_units;
	int32_t activation;     /* float32 and hybrid */
	int32_t scratch;        /* batch x num_filters float or int32 sums */
	/* hybrid: the weights' scales, and scratch for the quantized input
	 * (batch x input_size int8) and each batch's scale and zero point. */
	bool asymmetric;
	float feature_scale, time_scale;
	int32_t quantized, batch_scales, batch_zeros;
	/* int8: the feature and time rescales and the zero points. */
	int32_t feature_multiplier, time_multiplier;
	int feature_shift, time_shift;
	int32_t input_zero, output_zero;
} svdf_data;

/* The dimensions, checked as TFLite's Prepare checks them. */
static opver_status svdf_shapes(const opver_context *ctx,
				const opver_node *node, int32_t rank,
				svdf_data *d)
{
	const opver_tensor *input = node->inputs[SVDF_INPUT];
	const opver_tensor *feature = node->inputs[SVDF_WEIGHTS_FEATURE];
	const opver_tensor *time = node->inputs[SVDF_WEIGHTS_TIME];
	const opver_tensor *bias = node->inputs[SVDF_BIAS];
	const opver_tensor *state = node->inputs[SVDF_STATE];
	opver_status status = ref_expect_rank(ctx, "input", input, 2);

	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "weights_feature", feature, 2);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "weights_time", time, 2);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "state", state, 2);
	if (status == OPVER_OK && bias != NULL)
		status = ref_expect_rank(ctx, "bias", bias, 1);
	if (status != OPVER_OK)
		return status;
	d->batch = input->dims[0];
	d->input_size = input->dims[1];
	d->num_filters = feature->dims[0];
	d->memory_size = time->dims[1];
	d->rank = rank;
	if (rank < 1 || d->num_filters % rank != 0) {
		OPVER_REPORT(ctx, "rank is %d; it must be at least 1 and divide the %d filters of weights_feature",
			     (int)rank, (int)d->num_filters);
		return OPVER_ERROR_INVALID_MODEL;
	}
	d->num_units = d->num_filters / rank;
	if (feature->dims[1] != d->input_size ||
	    time->dims[0] != d->num_filters || d->memory_size < 1) {
		OPVER_REPORT(ctx, "weights_feature must be [filters, %d] (it is [%d, %d]) and weights_time [%d, memory of at least 1] (it is [%d, %d])",
			     (int)d->input_size, (int)feature->dims[0],
			     (int)feature->dims[1], (int)d->num_filters,
			     (int)time->dims[0], (int)time->dims[1]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (state->dims[0] != d->batch ||
	    (int64_t)state->dims[1] !=
		    (int64_t)d->memory_size * d->num_filters) {
		OPVER_REPORT(ctx, "state must be [%d, %lld] (batch, memory x filters); it is [%d, %d]",
			     (int)d->batch,
			     (long long)d->memory_size * d->num_filters,
			     (int)state->dims[0], (int)state->dims[1]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (bias != NULL && bias->dims[0] != d->num_units) {
		OPVER_REPORT(ctx, "bias must have %d units (filters / rank); it has %d",
			     (int)d->num_units, (int)bias->dims[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = ref_shape_output(ctx, node, 0,
				  (const int32_t[]){ d->batch, d->num_units },
				  2, "the batch and filters / rank give");
	if (status != OPVER_OK)
		return status;
	if (state->is_constant) {
		OPVER_REPORT(ctx, "state '%s' is constant; SVDF writes its state, so it must be a variable tensor",
			     state->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* The int8 kernel's scales, as TFLite computes them: in float, then
 * widened to double. */
static opver_status svdf_prepare_int8(const opver_context *ctx,
				      const opver_node *node, svdf_data *d)
{
	static const char *const roles[] = { "input", "weights_feature",
					     "weights_time", "state" };
	static const int tensors[] = { SVDF_INPUT, SVDF_WEIGHTS_FEATURE,
				       SVDF_WEIGHTS_TIME, SVDF_STATE };
	float scale[4], output_scale;
	int32_t zero[4];
	opver_status status = ref_expect_type(ctx, "state",
					      node->inputs[SVDF_STATE],
					      OPVER_TYPE_INT16);

	for (int i = 0; i < 4 && status == OPVER_OK; i++)
		status = ref_per_tensor_quantization(ctx, roles[i],
						     node->inputs[tensors[i]],
						     &scale[i], &zero[i]);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output",
						     node->outputs[0],
						     &output_scale,
						     &d->output_zero);
	if (status != OPVER_OK)
		return status;
	for (int i = 1; i < 4; i++) {
		if (zero[i] != 0) {
			OPVER_REPORT(ctx, "%s has zero point %d; TFLite's integer SVDF takes it symmetric (0)",
				     roles[i], (int)zero[i]);
			return OPVER_ERROR_UNSUPPORTED;
		}
	}
	d->input_zero = zero[0];
	status = ref_quantize_rescale(ctx,
				      (double)(scale[0] * scale[1] / scale[3]),
				      &d->feature_multiplier, &d->feature_shift,
				      "input scale x weights_feature scale / state scale");
	if (status == OPVER_OK)
		status = ref_quantize_rescale(
			ctx, (double)(scale[3] * scale[2] / output_scale),
			&d->time_multiplier, &d->time_shift,
			"state scale x weights_time scale / output scale");
	return status;
}

/* The hybrid kernel's weight scales (symmetric, per tensor) and scratch. */
static opver_status svdf_prepare_hybrid(const opver_context *ctx,
					const opver_node *node,
					const opver_svdf_params *params,
					svdf_data *d)
{
	int32_t feature_zero, time_zero;
	opver_status status = ref_per_tensor_quantization(
		ctx, "weights_feature", node->inputs[SVDF_WEIGHTS_FEATURE],
		&d->feature_scale, &feature_zero);

	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(
			ctx, "weights_time", node->inputs[SVDF_WEIGHTS_TIME],
			&d->time_scale, &time_zero);
	if (status != OPVER_OK)
		return status;
	if (feature_zero != 0 || time_zero != 0) {
		OPVER_REPORT(ctx, "the hybrid SVDF takes symmetric weights (zero point 0); weights_feature has %d, weights_time %d",
			     (int)feature_zero, (int)time_zero);
		return OPVER_ERROR_UNSUPPORTED;
	}
	d->asymmetric = params->asymmetric_quantize_inputs != 0;
	status = ref_request_scratch(ctx,
				     (size_t)d->batch * (size_t)d->input_size,
				     sizeof(int8_t), "the quantized input",
				     &d->quantized);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, (size_t)d->batch,
					     sizeof(float),
					     "each batch's input scale",
					     &d->batch_scales);
	if (status == OPVER_OK)
		status = ref_request_scratch(ctx, (size_t)d->batch,
					     sizeof(int32_t),
					     "each batch's input zero point",
					     &d->batch_zeros);
	return status;
}

/* The float kernel's activations: those TFLite's ApplyActivationToVector
 * applies, up to SIGN_BIT, the last a .tflite file can name. */
static opver_status svdf_expect_float_activation(const opver_context *ctx,
						 int32_t activation)
{
	if (activation >= OPVER_ACTIVATION_NONE &&
	    activation <= OPVER_ACTIVATION_SIGN_BIT)
		return OPVER_OK;
	OPVER_REPORT(ctx, "fused activation %d is not one of NONE, RELU, RELU_N1_TO_1, RELU6, TANH and SIGN_BIT",
		     (int)activation);
	return OPVER_ERROR_UNSUPPORTED;
}

static opver_status svdf_prepare(const opver_context *ctx, opver_node *node)
{
	svdf_data *d = node->op_data;
	opver_svdf_params params = OPVER_SVDF_PARAMS_DEFAULTS;
	bool is_float;
	opver_status status;

	/* The bias is optional but comes before the state. */
	status = ref_check_arity(ctx, node, 3, 5, 1,
				 "SVDF takes input, weights_feature, weights_time, an optional bias, state and one output");
	if (status == OPVER_OK &&
	    (node->num_inputs != 5 || node->inputs[SVDF_STATE] == NULL)) {
		OPVER_REPORT(ctx, "SVDF needs its state as input 4; the node has %d inputs",
			     (int)node->num_inputs);
		status = OPVER_ERROR_INVALID_MODEL;
	}
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	status = svdf_shapes(ctx, node, params.rank, d);
	if (status != OPVER_OK)
		return status;
	is_float = node->inputs[SVDF_INPUT]->type == OPVER_TYPE_FLOAT32;
	if (is_float) {
		status = ref_expect_type(ctx, "state",
					 node->inputs[SVDF_STATE],
					 OPVER_TYPE_FLOAT32);
		if (status == OPVER_OK)
			status = svdf_expect_float_activation(
				ctx, params.activation);
		if (status == OPVER_OK &&
		    node->inputs[SVDF_WEIGHTS_FEATURE]->type == OPVER_TYPE_INT8)
			status = svdf_prepare_hybrid(ctx, node, &params, d);
		d->activation = params.activation;
	} else if (params.activation != OPVER_ACTIVATION_NONE &&
		   params.activation != OPVER_ACTIVATION_RELU) {
		OPVER_REPORT(ctx, "the int8 SVDF takes activation NONE or RELU (TFLite's integer kernel, which clamps to the int8 range either way); it has %d",
			     (int)params.activation);
		status = OPVER_ERROR_UNSUPPORTED;
	} else {
		status = svdf_prepare_int8(ctx, node, d);
	}
	if (status != OPVER_OK)
		return status;
	return ref_request_scratch(ctx,
				   (size_t)d->batch * (size_t)d->num_filters,
				   is_float ? sizeof(float) : sizeof(int32_t),
				   "the filters' time sums", &d->scratch);
}

/* Step 1: every value moves one place towards the start; the last of each
 * filter's row is then overwritten by step 2. */
static void svdf_shift_state(void *state, size_t count, size_t size)
{
	if (count > 1)
		memmove(state, (char *)state + size, (count - 1) * size);
}

/* Step 2 of the float kernel: each filter's activation, weights_feature
 * . input, summed in order from 0 as TFLite's EvalFloatSVDF sums. */
static void svdf_features_float(const svdf_data *d, const opver_node *node)
{
	const float *input = node->inputs[SVDF_INPUT]->data;
	const float *feature = node->inputs[SVDF_WEIGHTS_FEATURE]->data;
	float *state = node->inputs[SVDF_STATE]->data;
	const size_t memory = (size_t)d->memory_size;

	for (int32_t b = 0; b < d->batch; b++) {
		const float *x = input + (size_t)b * (size_t)d->input_size;

		for (int32_t f = 0; f < d->num_filters; f++) {
			const float *w = feature + (size_t)f * (size_t)d->input_size;
			float dot = 0.0f;

			for (int32_t i = 0; i < d->input_size; i++)
				dot += w[i] * x[i];
			state[((size_t)b * (size_t)d->num_filters + (size_t)f) *
				      memory + memory - 1] = dot;
		}
	}
}

/* Step 2 of the hybrid kernel: each batch quantized, integer sums (less
 * the zero point times the weights' row sum) scaled back to float. */
static opver_status svdf_features_hybrid(const opver_context *ctx,
					 const svdf_data *d,
					 const opver_node *node)
{
	const float *input = node->inputs[SVDF_INPUT]->data;
	const int8_t *feature = node->inputs[SVDF_WEIGHTS_FEATURE]->data;
	float *state = node->inputs[SVDF_STATE]->data;
	int8_t *quantized = ref_scratch(ctx, d->quantized);
	float *scales = ref_scratch(ctx, d->batch_scales);
	int32_t *zeros = ref_scratch(ctx, d->batch_zeros);
	const size_t memory = (size_t)d->memory_size;

	if (quantized == NULL || scales == NULL || zeros == NULL)
		return OPVER_ERROR;
	for (int32_t b = 0; b < d->batch; b++) {
		const size_t at = (size_t)b * (size_t)d->input_size;

		ref_hybrid_quantize(input + at, (size_t)d->input_size,
				    d->asymmetric, quantized + at, &scales[b],
				    &zeros[b]);
		/* As TFLite: the batch's scale times the weights', in float. */
		scales[b] *= d->feature_scale;
	}
	for (int32_t b = 0; b < d->batch; b++) {
		const int8_t *x = quantized + (size_t)b * (size_t)d->input_size;
		const float scale = scales[b];

		for (int32_t f = 0; f < d->num_filters; f++) {
			const int8_t *w = feature + (size_t)f * (size_t)d->input_size;
			const int32_t dot = ref_hybrid_row_dot(
				w, x, (size_t)d->input_size, zeros[b]);

			state[((size_t)b * (size_t)d->num_filters + (size_t)f) *
				      memory + memory - 1] = (float)dot * scale;
		}
	}
	return OPVER_OK;
}

/* Entry i of weights_time as a float: itself, or dequantized (hybrid)
 * as TFLite dequantizes it, int8 times the scale in float. */
static float svdf_time_weight(const svdf_data *d, const opver_tensor *time,
			      size_t i)
{
	if (time->type == OPVER_TYPE_FLOAT32)
		return ((const float *)time->data)[i];
	return (float)((const int8_t *)time->data)[i] * d->time_scale;
}

/* Step 3 of the float and hybrid kernels. */
static void svdf_output_float(const svdf_data *d, const opver_node *node,
			      float *sums)
{
	const opver_tensor *time = node->inputs[SVDF_WEIGHTS_TIME];
	const opver_tensor *bias = node->inputs[SVDF_BIAS];
	const float *state = node->inputs[SVDF_STATE]->data;
	float *output = node->outputs[0]->data;
	const size_t memory = (size_t)d->memory_size;

	for (int32_t b = 0; b < d->batch; b++) {
		for (int32_t f = 0; f < d->num_filters; f++) {
			const size_t filter = (size_t)b * (size_t)d->num_filters +
					      (size_t)f;
			const float *row = state + filter * memory;
			float dot = 0.0f;

			for (size_t m = 0; m < memory; m++)
				dot += svdf_time_weight(d, time,
							(size_t)f * memory + m) *
				       row[m];
			sums[filter] = dot;
		}
	}
	for (int32_t b = 0; b < d->batch; b++) {
		for (int32_t u = 0; u < d->num_units; u++) {
			const float *unit = sums + (size_t)b * (size_t)d->num_filters +
					    (size_t)u * (size_t)d->rank;
			float value = 0.0f;

			for (int32_t r = 0; r < d->rank; r++)
				value += unit[r];
			if (bias != NULL)
				value += ((const float *)bias->data)[u];
			output[(size_t)b * (size_t)d->num_units + (size_t)u] = value;
		}
	}
	ref_sequence_activate(d->activation, output,
			      (size_t)d->batch * (size_t)d->num_units);
}

static int32_t clamp(int32_t x, int32_t min, int32_t max)
{
	return x < min ? min : x > max ? max : x;
}

static void svdf_int8(const svdf_data *d, const opver_node *node,
		      int32_t *sums)
{
	const int8_t *input = node->inputs[SVDF_INPUT]->data;
	const int8_t *feature = node->inputs[SVDF_WEIGHTS_FEATURE]->data;
	const int16_t *time = node->inputs[SVDF_WEIGHTS_TIME]->data;
	const opver_tensor *bias = node->inputs[SVDF_BIAS];
	int16_t *state = node->inputs[SVDF_STATE]->data;
	int8_t *output = node->outputs[0]->data;
	const size_t memory = (size_t)d->memory_size;

	for (int32_t b = 0; b < d->batch; b++) {
		int16_t *rows = state + (size_t)b * memory * (size_t)d->num_filters;

		for (int32_t f = 0; f < d->num_filters; f++) {
			const int8_t *w = feature + (size_t)f * (size_t)d->input_size;
			const int8_t *x = input + (size_t)b * (size_t)d->input_size;
			int16_t *row = rows + (size_t)f * memory;
			uint32_t dot = 0;

			for (int32_t i = 0; i < d->input_size; i++)
				dot += (uint32_t)(w[i] * (x[i] - d->input_zero));
			row[memory - 1] = (int16_t)clamp(
				ref_multiply_by_quantized_multiplier(
					(int32_t)dot, d->feature_multiplier,
					d->feature_shift),
				INT16_MIN, INT16_MAX);
			dot = 0;
			for (size_t m = 0; m < memory; m++)
				dot += (uint32_t)(time[(size_t)f * memory + m] *
						  row[m]);
			sums[(size_t)b * (size_t)d->num_filters + (size_t)f] =
				(int32_t)dot;
		}
	}
	for (int32_t b = 0; b < d->batch; b++) {
		for (int32_t u = 0; u < d->num_units; u++) {
			const int32_t *unit = sums + (size_t)b * (size_t)d->num_filters +
					      (size_t)u * (size_t)d->rank;
			uint32_t total = bias != NULL
				? (uint32_t)((const int32_t *)bias->data)[u] : 0;

			for (int32_t r = 0; r < d->rank; r++)
				total += (uint32_t)unit[r];
			output[(size_t)b * (size_t)d->num_units + (size_t)u] =
				(int8_t)clamp(ref_multiply_by_quantized_multiplier(
						      (int32_t)total,
						      d->time_multiplier,
						      d->time_shift) +
						      d->output_zero,
					      INT8_MIN, INT8_MAX);
		}
	}
}

static opver_status svdf_invoke(const opver_context *ctx, opver_node *node)
{
	const svdf_data *d = node->op_data;
	const opver_tensor *state = node->inputs[SVDF_STATE];
	void *sums = ref_scratch(ctx, d->scratch);
	const bool is_float = state->type == OPVER_TYPE_FLOAT32;

	opver_status status = OPVER_OK;

	if (sums == NULL)
		return OPVER_ERROR;
	svdf_shift_state(state->data,
			 (size_t)d->batch * (size_t)d->num_filters *
				 (size_t)d->memory_size,
			 is_float ? sizeof(float) : sizeof(int16_t));
	if (!is_float) {
		svdf_int8(d, node, sums);
		return OPVER_OK;
	}
	if (node->inputs[SVDF_WEIGHTS_FEATURE]->type == OPVER_TYPE_INT8)
		status = svdf_features_hybrid(ctx, d, node);
	else
		svdf_features_float(d, node);
	if (status == OPVER_OK)
		svdf_output_float(d, node, sums);
	return status;
}

const opver_kernel ref_svdf = {
	OPVER_KERNEL("svdf", SVDF, 1, 3),
	REF_SIGNATURES(
		OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32),
					     OPVER_T(FLOAT32),
					     OPVER_T(FLOAT32) |
						     OPVER_TYPE_BIT_ABSENT),
				OPVER_OUTPUT(OPVER_T(FLOAT32))),
		OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(INT8), OPVER_T(INT8),
					     OPVER_T(INT16),
					     OPVER_T(INT32) |
						     OPVER_TYPE_BIT_ABSENT),
				OPVER_OUTPUT(OPVER_T(INT8)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(svdf_data),
	.prepare = svdf_prepare, .invoke = svdf_invoke,
};

const opver_kernel ref_svdf_hybrid = {
	OPVER_KERNEL("svdf_hybrid", SVDF, 2, 4),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(INT8), OPVER_T(INT8),
			     OPVER_T(FLOAT32) | OPVER_TYPE_BIT_ABSENT),
		OPVER_OUTPUT(OPVER_T(FLOAT32)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(svdf_data),
	.prepare = svdf_prepare, .invoke = svdf_invoke,
};
