/*
 * add.c - ADD, float32, int8 and int16, broadcasting as TFLite does
 * (broadcast.h), computed as TensorFlow Lite's reference kernels compute it:
 *
 *   float32  a + b, clamped to the fused activation's range.
 *   int8, and int16 with general scales: each input minus its zero point is
 *            shifted left (20 bits for int8, 15 for int16) and rescaled by
 *            its scale / (2 x the larger input scale); the sum is rescaled
 *            by 2 x the larger input scale / (2^shift x output scale), the
 *            output zero point added and the result clamped.
 *   int16 with power-of-two scales (pot_scale_int16 set, every scale a
 *            power of two, every zero point 0): the input with the finer
 *            scale is divided by the power of two between the scales,
 *            rounding, added to the other with int16 saturation, clamped.
 *            pot_scale_int16 with other scales takes the general path, as
 *            in TFLite; so do zero points other than 0, as in TFLite
 *            releases before it began refusing them for int16.
 *   int16 without quantization: a + b narrowed to int16 (it wraps, as
 *            TFLite's int arithmetic narrowed to int16 does), clamped to the
 *            activation's integer range.
 *
 * Version ranges (TFLite's op_version rules for ADD):
 *   1  float32, uint8, int16 with power-of-two scales
 *   2  int8
 *   3  int16 with general scales (pot_scale_int16 false)
 *   4  int64: not these kernels' types
 *   5  int16 without quantization
 *   6  float16: not these kernels' types
 * No version adds a feature of float32 or int8, and add_int16 implements 3
 * and 5, so all three kernels cover 1..6.
 */
#include <math.h>

#include "broadcast.h"
#include "kernels.h"
#include "quantization.h"

/* Bits the general quantized path shifts inputs left before rescaling:
 * enough precision, yet the sum of two shifted inputs fits an int32. */
#define ADD_INT8_LEFT_SHIFT 20
#define ADD_INT16_LEFT_SHIFT 15

/* TFLite's power-of-two path divides an int16; dividing by more than 2^15
 * is not a rounding there (its int16 mask overflows), so it is refused. */
#define ADD_POT_MAX_EXPONENT 15

typedef struct add_float32_data {
	ref_broadcast plan;
	float activation_min;
	float activation_max;
} add_float32_data;

/* The general quantized path, int8 and int16. */
typedef struct add_rescale {
	int32_t input1_offset; /* minus the input zero points */
	int32_t input2_offset;
	int32_t output_offset; /* the output zero point */
	int left_shift;
	int32_t input1_multiplier; /* input scale / (2 x larger input scale) */
	int input1_shift;
	int32_t input2_multiplier;
	int input2_shift;
	int32_t output_multiplier; /* back to the output's scale */
	int output_shift;
	int32_t activation_min;
	int32_t activation_max;
} add_rescale;

typedef struct add_int8_data {
	ref_broadcast plan;
	add_rescale rescale;
} add_int8_data;

typedef enum add_int16_path {
	ADD_INT16_GENERAL,
	ADD_INT16_POWER_OF_TWO,
	ADD_INT16_UNQUANTIZED
} add_int16_path;

typedef struct add_int16_data {
	ref_broadcast plan;
	add_int16_path path;
	add_rescale rescale; /* general path */
	/* Power-of-two path: each input is divided by 2^exponent (one of
	 * them is 0). */
	int input1_exponent;
	int input2_exponent;
	/* Power-of-two and unquantized paths. */
	int32_t activation_min;
	int32_t activation_max;
} add_int16_data;

/* Checks the node's tensors and plans the broadcast; fills *params. */
static opver_status add_prepare_common(const opver_context *ctx,
				       const opver_node *node, opver_type type,
				       opver_add_params *params,
				       ref_broadcast *plan)
{
	opver_status status;

	*params = (opver_add_params)OPVER_ADD_PARAMS_DEFAULTS;
	opver_read_params(node, params, sizeof(*params));
	status = ref_expect_clamp_activation(ctx, params->activation);
	if (status == OPVER_OK)
		status = ref_binary_prepare(ctx, node, type, "ADD", plan);
	return status;
}

/* ------------------------------------------------------------- float32 */

static inline float add_float32_element(float a, float b,
					const add_float32_data *data)
{
	return ref_clamp_float(a + b, data->activation_min,
			       data->activation_max);
}

REF_BROADCAST_DEFINE(add_float32_apply, float, add_float32_data,
		     add_float32_element)

static opver_status add_float32_prepare(const opver_context *ctx,
					opver_node *node)
{
	add_float32_data *data = node->op_data;
	opver_add_params params;
	opver_status status;

	status = add_prepare_common(ctx, node, OPVER_TYPE_FLOAT32, &params,
				    &data->plan);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

static opver_status add_float32_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const add_float32_data *data = node->op_data;

	(void)ctx;
	add_float32_apply(&data->plan, node->inputs[0]->data,
			  node->inputs[1]->data, node->outputs[0]->data, data);
	return OPVER_OK;
}

/* ------------------------------------------- general quantized rescale */

/* One output of the general path, before narrowing to the output type. */
static REF_ALWAYS_INLINE int32_t add_rescaled(int32_t a, int32_t b,
				   const add_rescale *r)
{
	const int32_t shifted1 = (a + r->input1_offset) * (1 << r->left_shift);
	const int32_t shifted2 = (b + r->input2_offset) * (1 << r->left_shift);
	const int32_t sum =
		ref_multiply_by_quantized_multiplier(
			shifted1, r->input1_multiplier, r->input1_shift) +
		ref_multiply_by_quantized_multiplier(
			shifted2, r->input2_multiplier, r->input2_shift);
	const int32_t result = ref_multiply_by_quantized_multiplier(
				       sum, r->output_multiplier,
				       r->output_shift) +
			       r->output_offset;

	return ref_clamp_int32(result, r->activation_min, r->activation_max);
}

/* The per-tensor quantization of input 1, input 2 and the output, in that
 * order, checked. */
static opver_status add_quantization(const opver_context *ctx,
				     const opver_node *node, float scales[3],
				     int32_t zero_points[3])
{
	static const char *const roles[3] = { "input 1", "input 2", "output" };
	const opver_tensor *tensors[3] = { node->inputs[0], node->inputs[1],
					   node->outputs[0] };
	opver_status status = OPVER_OK;

	for (int i = 0; i < 3 && status == OPVER_OK; i++)
		status = ref_per_tensor_quantization(ctx, roles[i],
						     tensors[i], &scales[i],
						     &zero_points[i]);
	return status;
}

/*
 * The general path's offsets, multipliers and clamp for quantized tensors
 * with the given scales and zero points (inputs, then output), as TFLite's ADD Prepare computes them (in double).  The sum's
 * rescale factor must come out below 1, as TFLite requires.
 */
static opver_status add_rescale_prepare(const opver_context *ctx,
					const opver_node *node,
					int32_t activation,
					const float scales[3],
					const int32_t zero_points[3],
					int left_shift, add_rescale *r)
{
	const opver_tensor *output = node->outputs[0];
	const double twice_max_input_scale =
		2.0 * (double)(scales[0] > scales[1] ? scales[0] : scales[1]);
	const double output_rescale =
		twice_max_input_scale /
		((double)(1 << left_shift) * (double)scales[2]);

	ref_quantize_multiplier((double)scales[0] / twice_max_input_scale,
				&r->input1_multiplier, &r->input1_shift);
	ref_quantize_multiplier((double)scales[1] / twice_max_input_scale,
				&r->input2_multiplier, &r->input2_shift);
	ref_quantize_multiplier(output_rescale, &r->output_multiplier,
				&r->output_shift);
	if (r->output_shift > 0) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g, too fine for input scales %g and %g: 2 x the larger input scale / (2^%d x output scale) is %g, and must be below 1",
			     output->name, (double)scales[2],
			     (double)scales[0], (double)scales[1],
			     left_shift, output_rescale);
		return OPVER_ERROR_UNSUPPORTED;
	}
	r->input1_offset = -zero_points[0];
	r->input2_offset = -zero_points[1];
	r->output_offset = zero_points[2];
	r->left_shift = left_shift;
	return ref_output_activation_range(ctx, activation, output,
					   scales[2], zero_points[2],
					   &r->activation_min,
					   &r->activation_max);
}

/* ---------------------------------------------------------------- int8 */

static inline int8_t add_int8_element(int8_t a, int8_t b,
				      const add_rescale *r)
{
	return (int8_t)add_rescaled(a, b, r);
}

REF_BROADCAST_DEFINE(add_int8_apply, int8_t, add_rescale, add_int8_element)

static opver_status add_int8_prepare(const opver_context *ctx, opver_node *node)
{
	add_int8_data *data = node->op_data;
	opver_add_params params;
	float scales[3];
	int32_t zero_points[3];
	opver_status status;

	status = add_prepare_common(ctx, node, OPVER_TYPE_INT8, &params,
				    &data->plan);
	if (status == OPVER_OK)
		status = add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	return add_rescale_prepare(ctx, node, params.activation, scales,
				   zero_points, ADD_INT8_LEFT_SHIFT,
				   &data->rescale);
}

static opver_status add_int8_invoke(const opver_context *ctx, opver_node *node)
{
	const add_int8_data *data = node->op_data;

	(void)ctx;
	add_int8_apply(&data->plan, node->inputs[0]->data,
		       node->inputs[1]->data, node->outputs[0]->data,
		       &data->rescale);
	return OPVER_OK;
}

/* --------------------------------------------------------------- int16 */

static inline int16_t add_int16_general_element(int16_t a, int16_t b,
						const add_rescale *r)
{
	return (int16_t)add_rescaled(a, b, r);
}

static inline int16_t add_int16_pot_element(int16_t a, int16_t b,
					    const add_int16_data *data)
{
	/* Dividing by 2^0 leaves the input whose scale is the output's. */
	const int32_t sum =
		ref_rounding_divide_by_pot(a, data->input1_exponent) +
		ref_rounding_divide_by_pot(b, data->input2_exponent);
	const int32_t saturated = ref_clamp_int32(sum, INT16_MIN, INT16_MAX);

	return (int16_t)ref_clamp_int32(saturated, data->activation_min,
					data->activation_max);
}

static inline int16_t add_int16_unquantized_element(int16_t a, int16_t b,
						    const add_int16_data *data)
{
	/* Narrowing the int sum to int16 wraps, as in TFLite. */
	const int16_t sum = (int16_t)(a + b);

	return (int16_t)ref_clamp_int32(sum, data->activation_min,
					data->activation_max);
}

REF_BROADCAST_DEFINE(add_int16_general_apply, int16_t, add_rescale,
		     add_int16_general_element)
REF_BROADCAST_DEFINE(add_int16_pot_apply, int16_t, add_int16_data,
		     add_int16_pot_element)
REF_BROADCAST_DEFINE(add_int16_unquantized_apply, int16_t, add_int16_data,
		     add_int16_unquantized_element)

/* TFLite's CheckedLog2: log2 of the scale computed in float; a power of two
 * when within 1e-3 of an integer, which goes to *log2. */
static bool scale_log2(float scale, int *log2)
{
	const float exact = logf(scale) * (1.0f / logf(2.0f));
	const float rounded = roundf(exact);

	*log2 = (int)rounded;
	return fabsf(exact - rounded) < 1e-3f;
}

/* True when TFLite takes the power-of-two path: asked for, every scale a
 * power of two and every zero point 0.  Fills the scales' log2s. */
static bool add_int16_takes_pot_path(const opver_add_params *params,
				     const float scales[3],
				     const int32_t zero_points[3],
				     int log2s[3])
{
	bool pot = params->pot_scale_int16 != 0;

	for (int i = 0; i < 3; i++)
		pot = pot && scale_log2(scales[i], &log2s[i]) &&
		      zero_points[i] == 0;
	return pot;
}

/* The power-of-two path's shifts, as TFLite requires them: one input at
 * the output's scale, the other at the same or a finer one. */
static opver_status add_int16_pot_prepare(const opver_context *ctx,
					  const opver_node *node,
					  int32_t activation,
					  const float scales[3],
					  const int log2s[3],
					  add_int16_data *data)
{
	data->input1_exponent = log2s[2] - log2s[0];
	data->input2_exponent = log2s[2] - log2s[1];
	if ((data->input1_exponent != 0 && data->input2_exponent != 0) ||
	    data->input1_exponent < 0 || data->input2_exponent < 0) {
		OPVER_REPORT(ctx,
			     "power-of-two scales 2^%d and 2^%d for the inputs and 2^%d for the output: one input needs the output's scale and the other the same or a finer one",
			     log2s[0], log2s[1], log2s[2]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (data->input1_exponent > ADD_POT_MAX_EXPONENT ||
	    data->input2_exponent > ADD_POT_MAX_EXPONENT) {
		OPVER_REPORT(ctx,
			     "power-of-two scales 2^%d and 2^%d for the inputs and 2^%d for the output: an input scale more than 2^%d times finer than the output's is not supported",
			     log2s[0], log2s[1], log2s[2],
			     ADD_POT_MAX_EXPONENT);
		return OPVER_ERROR_UNSUPPORTED;
	}
	data->path = ADD_INT16_POWER_OF_TWO;
	return ref_output_activation_range(ctx, activation, node->outputs[0],
					   scales[2], 0,
					   &data->activation_min,
					   &data->activation_max);
}

static opver_status add_int16_prepare(const opver_context *ctx,
				      opver_node *node)
{
	add_int16_data *data = node->op_data;
	opver_add_params params;
	float scales[3];
	int32_t zero_points[3];
	int log2s[3];
	opver_status status;

	status = add_prepare_common(ctx, node, OPVER_TYPE_INT16, &params,
				    &data->plan);
	if (status != OPVER_OK)
		return status;
	if (!ref_is_quantized(node->inputs[0]) &&
	    !ref_is_quantized(node->inputs[1]) &&
	    !ref_is_quantized(node->outputs[0])) {
		/* Plain integers clamp like a quantization of scale 1 and
		 * zero point 0. */
		data->path = ADD_INT16_UNQUANTIZED;
		return ref_output_activation_range(ctx, params.activation,
						   node->outputs[0], 1.0f, 0,
						   &data->activation_min,
						   &data->activation_max);
	}
	status = add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	if (add_int16_takes_pot_path(&params, scales, zero_points, log2s))
		return add_int16_pot_prepare(ctx, node, params.activation,
					     scales, log2s, data);
	data->path = ADD_INT16_GENERAL;
	return add_rescale_prepare(ctx, node, params.activation, scales,
				   zero_points, ADD_INT16_LEFT_SHIFT,
				   &data->rescale);
}

static opver_status add_int16_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const add_int16_data *data = node->op_data;
	const int16_t *in1 = node->inputs[0]->data;
	const int16_t *in2 = node->inputs[1]->data;
	int16_t *out = node->outputs[0]->data;

	(void)ctx;
	switch (data->path) {
	case ADD_INT16_GENERAL:
		add_int16_general_apply(&data->plan, in1, in2, out,
					&data->rescale);
		break;
	case ADD_INT16_POWER_OF_TWO:
		add_int16_pot_apply(&data->plan, in1, in2, out, data);
		break;
	case ADD_INT16_UNQUANTIZED:
		add_int16_unquantized_apply(&data->plan, in1, in2, out, data);
		break;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_add_float32 = {
	OPVER_KERNEL("add_float32", ADD, 1, 6),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(add_float32_data),
	.prepare = add_float32_prepare, .invoke = add_float32_invoke,
};

const opver_kernel ref_add_int8 = {
	OPVER_KERNEL("add_int8", ADD, 1, 6),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(add_int8_data),
	.prepare = add_int8_prepare, .invoke = add_int8_invoke,
};

const opver_kernel ref_add_int16 = {
	OPVER_KERNEL("add_int16", ADD, 1, 6),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(add_int16_data),
	.prepare = add_int16_prepare, .invoke = add_int16_invoke,
};
