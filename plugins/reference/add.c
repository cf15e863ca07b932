/*
 * add.c - ADD, float32, uint8, int8 and int16, broadcasting as TFLite does
 * (broadcast.h), computed as TensorFlow Lite's reference kernels compute it:
 *
 *   float32  a + b, clamped to the fused activation's range.
 *   uint8, int8, and int16 with general scales: the general quantized path
 *            of quantized_add.h (uint8 is TFLite's legacy asymmetric
 *            scheme, computed as int8 is).
 *   int16 with power-of-two scales (pot_scale_int16 set, every scale a
 *            power of two, every zero point 0): quantized_add.h's
 *            power-of-two path.
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
 * No version adds a feature of float32, uint8 or int8, and add_int16
 * implements 3 and 5, so all four kernels cover 1..6.
 */
#include "broadcast.h"
#include "kernels.h"
#include "quantization.h"
#include "quantized_add.h"

typedef struct add_float32_data {
	ref_broadcast plan;
	float activation_min;
	float activation_max;
} add_float32_data;

/* int8 and uint8: the general path. */
typedef struct add_8bit_data {
	ref_broadcast plan;
	ref_add_rescale rescale;
} add_8bit_data;

typedef enum add_int16_path {
	ADD_INT16_GENERAL,
	ADD_INT16_POWER_OF_TWO,
	ADD_INT16_UNQUANTIZED
} add_int16_path;

typedef struct add_int16_data {
	ref_broadcast plan;
	add_int16_path path;
	ref_add_rescale rescale; /* general path */
	/* Power-of-two path; its clamp is also the unquantized path's. */
	ref_add_pot pot;
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

/* -------------------------------------------------------- int8, uint8 */

static inline int8_t add_int8_element(int8_t a, int8_t b,
				      const ref_add_rescale *r)
{
	return (int8_t)ref_add_rescaled(a, b, r);
}

static inline uint8_t add_uint8_element(uint8_t a, uint8_t b,
					const ref_add_rescale *r)
{
	return (uint8_t)ref_add_rescaled(a, b, r);
}

REF_BROADCAST_DEFINE(add_int8_apply, int8_t, ref_add_rescale,
		     add_int8_element)
REF_BROADCAST_DEFINE(add_uint8_apply, uint8_t, ref_add_rescale,
		     add_uint8_element)

/* int8 and uint8 compute alike: TFLite's general path. */
static opver_status add_8bit_prepare(const opver_context *ctx,
				     opver_node *node, opver_type type)
{
	add_8bit_data *data = node->op_data;
	opver_add_params params;
	float scales[3];
	int32_t zero_points[3];
	opver_status status;

	status = add_prepare_common(ctx, node, type, &params, &data->plan);
	if (status == OPVER_OK)
		status = ref_add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	return ref_add_rescale_prepare(ctx, node, params.activation, scales,
				       zero_points, REF_ADD_8BIT_LEFT_SHIFT,
				       REF_ADD, &data->rescale);
}

static opver_status add_int8_prepare(const opver_context *ctx, opver_node *node)
{
	return add_8bit_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status add_uint8_prepare(const opver_context *ctx,
				      opver_node *node)
{
	return add_8bit_prepare(ctx, node, OPVER_TYPE_UINT8);
}

static opver_status add_int8_invoke(const opver_context *ctx, opver_node *node)
{
	const add_8bit_data *data = node->op_data;

	(void)ctx;
	add_int8_apply(&data->plan, node->inputs[0]->data,
		       node->inputs[1]->data, node->outputs[0]->data,
		       &data->rescale);
	return OPVER_OK;
}

static opver_status add_uint8_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const add_8bit_data *data = node->op_data;

	(void)ctx;
	add_uint8_apply(&data->plan, node->inputs[0]->data,
			node->inputs[1]->data, node->outputs[0]->data,
			&data->rescale);
	return OPVER_OK;
}

/* --------------------------------------------------------------- int16 */

static inline int16_t add_int16_general_element(int16_t a, int16_t b,
						const ref_add_rescale *r)
{
	return (int16_t)ref_add_rescaled(a, b, r);
}

static inline int16_t add_int16_unquantized_element(int16_t a, int16_t b,
						    const ref_add_pot *p)
{
	/* Narrowing the int sum to int16 wraps, as in TFLite. */
	const int16_t sum = (int16_t)(a + b);

	return (int16_t)ref_clamp_int32(sum, p->activation_min,
					p->activation_max);
}

REF_BROADCAST_DEFINE(add_int16_general_apply, int16_t, ref_add_rescale,
		     add_int16_general_element)
REF_BROADCAST_DEFINE(add_int16_pot_apply, int16_t, ref_add_pot,
		     ref_add_pot_element)
REF_BROADCAST_DEFINE(add_int16_unquantized_apply, int16_t, ref_add_pot,
		     add_int16_unquantized_element)

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
						   &data->pot.activation_min,
						   &data->pot.activation_max);
	}
	status = ref_add_quantization(ctx, node, scales, zero_points);
	if (status != OPVER_OK)
		return status;
	if (ref_add_takes_pot_path(params.pot_scale_int16, scales,
				   zero_points, log2s)) {
		data->path = ADD_INT16_POWER_OF_TWO;
		return ref_add_pot_prepare(ctx, node, params.activation,
					   scales, log2s, REF_ADD, &data->pot);
	}
	data->path = ADD_INT16_GENERAL;
	return ref_add_rescale_prepare(ctx, node, params.activation, scales,
				       zero_points, REF_ADD_INT16_LEFT_SHIFT,
				       REF_ADD, &data->rescale);
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
		add_int16_pot_apply(&data->plan, in1, in2, out, &data->pot);
		break;
	case ADD_INT16_UNQUANTIZED:
		add_int16_unquantized_apply(&data->plan, in1, in2, out,
					    &data->pot);
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

const opver_kernel ref_add_uint8 = {
	OPVER_KERNEL("add_uint8", ADD, 1, 6),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(UINT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(add_8bit_data),
	.prepare = add_uint8_prepare, .invoke = add_uint8_invoke,
};

const opver_kernel ref_add_int8 = {
	OPVER_KERNEL("add_int8", ADD, 1, 6),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(add_8bit_data),
	.prepare = add_int8_prepare, .invoke = add_int8_invoke,
};

const opver_kernel ref_add_int16 = {
	OPVER_KERNEL("add_int16", ADD, 1, 6),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT16)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(add_int16_data),
	.prepare = add_int16_prepare, .invoke = add_int16_invoke,
};
