/*
 * sub.c - SUB, float32, int32, uint8, int8 and int16, broadcasting as TFLite
 * does (broadcast.h), computed as TensorFlow Lite's reference kernels
 * compute it:
 *
 *   float32  a - b, clamped to the fused activation's range.
 *   int32    a - b (wrapping, as TFLite's int arithmetic does), clamped to
 *            the activation's integer range.
 *   uint8, int8, and int16 with general scales: ADD's general quantized
 *            path with input 2's multiplier negated (quantized_add.h).
 *   int16 with power-of-two scales (pot_scale_int16 set, every scale a
 *            power of two, every zero point 0): ADD's power-of-two path
 *            subtracting the second input (quantized_add.h).
 *
 * Version ranges (TFLite's op_version rules for SUB):
 *   1  float32, int32, uint8, int16 with power-of-two scales
 *   2  int8
 *   3  broadcasting with an input of more than 4 dimensions: implemented
 *      (up to 6) by every kernel
 *   4  int64: not these kernels' types
 *   5  int16 with general scales (pot_scale_int16 false)
 * Every kernel implements every feature of its type up to 5, so all cover
 * 1..5.
 */
#include "broadcast.h"
#include "kernels.h"
#include "quantization.h"
#include "quantized_add.h"

typedef struct sub_float32_data {
	ref_broadcast plan;
	float activation_min;
	float activation_max;
} sub_float32_data;

/* int32: the clamp of the activation. */
typedef struct sub_int32_data {
	ref_broadcast plan;
	int32_t activation_min;
	int32_t activation_max;
} sub_int32_data;

/* uint8 and int8: the general path. */
typedef struct sub_8bit_data {
	ref_broadcast plan;
	ref_add_rescale rescale;
} sub_8bit_data;

typedef struct sub_int16_data {
	ref_broadcast plan;
	bool power_of_two;
	ref_add_rescale rescale; /* general path */
	ref_add_pot pot;         /* power-of-two path */
} sub_int16_data;

/* Checks the node's tensors and plans the broadcast; fills *params. */
static opver_status sub_prepare_common(const opver_context *ctx,
				       const opver_node *node, opver_type type,
				       opver_sub_params *params,
				       ref_broadcast *plan)
{
	opver_status status;

	*params = (opver_sub_params)OPVER_SUB_PARAMS_DEFAULTS;
	opver_read_params(node, params, sizeof(*params));
	status = ref_expect_clamp_activation(ctx, params->activation);
	if (status == OPVER_OK)
		status = ref_binary_prepare(ctx, node, type, "SUB", plan);
	return status;
}

/* ------------------------------------------------------------- float32 */

static inline float sub_float32_element(float a, float b,
					const sub_float32_data *data)
{
	return ref_clamp_float(a - b, data->activation_min,
			       data->activation_max);
}

REF_BROADCAST_DEFINE(sub_float32_apply, float, sub_float32_data,
		     sub_float32_element)

static opver_status sub_float32_prepare(const opver_context *ctx,
					opver_node *node)
{
	sub_float32_data *data = node->op_data;
	opver_sub_params params;
	opver_status status;

	status = sub_prepare_common(ctx, node, OPVER_TYPE_FLOAT32, &params,
				    &data->plan);
	if (status != OPVER_OK)
		return status;
	ref_activation_range_float(params.activation, &data->activation_min,
				   &data->activation_max);
	return OPVER_OK;
}

static opver_status sub_float32_invoke(const opver_context *ctx,
				       opver_node *node)
{
	const sub_float32_data *data = node->op_data;

	(void)ctx;
	sub_float32_apply(&data->plan, node->inputs[0]->data,
			  node->inputs[1]->data, node->outputs[0]->data, data);
	return OPVER_OK;
}

/* --------------------------------------------------------------- int32 */

static inline int32_t sub_int32_element(int32_t a, int32_t b,
					const sub_int32_data *data)
{
	/* Computed unsigned: wraps without undefined behaviour. */
	const int32_t difference = (int32_t)((uint32_t)a - (uint32_t)b);

	return ref_clamp_int32(difference, data->activation_min,
			       data->activation_max);
}

REF_BROADCAST_DEFINE(sub_int32_apply, int32_t, sub_int32_data,
		     sub_int32_element)

static opver_status sub_int32_prepare(const opver_context *ctx,
				      opver_node *node)
{
	sub_int32_data *data = node->op_data;
	opver_sub_params params;
	opver_status status;

	status = sub_prepare_common(ctx, node, OPVER_TYPE_INT32, &params,
				    &data->plan);
	if (status != OPVER_OK)
		return status;
	/* Plain integers clamp like a quantization of scale 1 and zero
	 * point 0. */
	return ref_output_activation_range(ctx, params.activation,
					   node->outputs[0], 1.0f, 0,
					   &data->activation_min,
					   &data->activation_max);
}

static opver_status sub_int32_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const sub_int32_data *data = node->op_data;

	(void)ctx;
	sub_int32_apply(&data->plan, node->inputs[0]->data,
			node->inputs[1]->data, node->outputs[0]->data, data);
	return OPVER_OK;
}

/* -------------------------------------------------------- uint8, int8 */

static inline int8_t sub_int8_element(int8_t a, int8_t b,
				      const ref_add_rescale *r)
{
	return (int8_t)ref_add_rescaled(a, b, r);
}

static inline uint8_t sub_uint8_element(uint8_t a, uint8_t b,
					const ref_add_rescale *r)
{
	return (uint8_t)ref_add_rescaled(a, b, r);
}

REF_BROADCAST_DEFINE(sub_int8_apply, int8_t, ref_add_rescale,
		     sub_int8_element)
REF_BROADCAST_DEFINE(sub_uint8_apply, uint8_t, ref_add_rescale,
		     sub_uint8_element)

static opver_status sub_8bit_prepare(const opver_context *ctx,
				     opver_node *node, opver_type type)
{
	sub_8bit_data *data = node->op_data;
	opver_sub_params params;
	float scales[3];
	int32_t zero_points[3];
	opver_status status;

	status = sub_prepare_common(ctx, node, type, &params, &data->plan);
	if (status == OPVER_OK)
		status = ref_add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	return ref_add_rescale_prepare(ctx, node, params.activation, scales,
				       zero_points, REF_ADD_8BIT_LEFT_SHIFT,
				       REF_SUBTRACT, &data->rescale);
}

static opver_status sub_int8_prepare(const opver_context *ctx, opver_node *node)
{
	return sub_8bit_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status sub_uint8_prepare(const opver_context *ctx,
				      opver_node *node)
{
	return sub_8bit_prepare(ctx, node, OPVER_TYPE_UINT8);
}

static opver_status sub_int8_invoke(const opver_context *ctx, opver_node *node)
{
	const sub_8bit_data *data = node->op_data;

	(void)ctx;
	sub_int8_apply(&data->plan, node->inputs[0]->data,
		       node->inputs[1]->data, node->outputs[0]->data,
		       &data->rescale);
	return OPVER_OK;
}

static opver_status sub_uint8_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const sub_8bit_data *data = node->op_data;

	(void)ctx;
	sub_uint8_apply(&data->plan, node->inputs[0]->data,
			node->inputs[1]->data, node->outputs[0]->data,
			&data->rescale);
	return OPVER_OK;
}

/* --------------------------------------------------------------- int16 */

static inline int16_t sub_int16_general_element(int16_t a, int16_t b,
						const ref_add_rescale *r)
{
	return (int16_t)ref_add_rescaled(a, b, r);
}

REF_BROADCAST_DEFINE(sub_int16_general_apply, int16_t, ref_add_rescale,
		     sub_int16_general_element)
REF_BROADCAST_DEFINE(sub_int16_pot_apply, int16_t, ref_add_pot,
		     ref_add_pot_element)

static opver_status sub_int16_prepare(const opver_context *ctx,
				      opver_node *node)
{
	sub_int16_data *data = node->op_data;
	opver_sub_params params;
	float scales[3];
	int32_t zero_points[3];
	int log2s[3];
	opver_status status;

	status = sub_prepare_common(ctx, node, OPVER_TYPE_INT16, &params,
				    &data->plan);
	if (status == OPVER_OK)
		status = ref_add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	data->power_of_two = ref_add_takes_pot_path(
		params.pot_scale_int16, scales, zero_points, log2s);
	if (data->power_of_two)
		return ref_add_pot_prepare(ctx, node, params.activation,
					   scales, log2s, REF_SUBTRACT,
					   &data->pot);
	return ref_add_rescale_prepare(ctx, node, params.activation, scales,
				       zero_points, REF_ADD_INT16_LEFT_SHIFT,
				       REF_SUBTRACT, &data->rescale);
}

static opver_status sub_int16_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const sub_int16_data *data = node->op_data;
	const int16_t *in1 = node->inputs[0]->data;
	const int16_t *in2 = node->inputs[1]->data;
	int16_t *out = node->outputs[0]->data;

	(void)ctx;
	if (data->power_of_two)
		sub_int16_pot_apply(&data->plan, in1, in2, out, &data->pot);
	else
		sub_int16_general_apply(&data->plan, in1, in2, out,
					&data->rescale);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_sub_float32 = {
	OPVER_KERNEL("sub_float32", SUB, 1, 5),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(sub_float32_data),
	.prepare = sub_float32_prepare, .invoke = sub_float32_invoke,
};

const opver_kernel ref_sub_int32 = {
	OPVER_KERNEL("sub_int32", SUB, 1, 5),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(sub_int32_data),
	.prepare = sub_int32_prepare, .invoke = sub_int32_invoke,
};

const opver_kernel ref_sub_uint8 = {
	OPVER_KERNEL("sub_uint8", SUB, 1, 5),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(sub_8bit_data),
	.prepare = sub_uint8_prepare, .invoke = sub_uint8_invoke,
};

const opver_kernel ref_sub_int8 = {
	OPVER_KERNEL("sub_int8", SUB, 1, 5),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(sub_8bit_data),
	.prepare = sub_int8_prepare, .invoke = sub_int8_invoke,
};

const opver_kernel ref_sub_int16 = {
	OPVER_KERNEL("sub_int16", SUB, 1, 5),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(sub_int16_data),
	.prepare = sub_int16_prepare, .invoke = sub_int16_invoke,
};
