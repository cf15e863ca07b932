/*
 * prelu.c - PRELU, x at or above 0 else alpha x, alpha an input broadcast
 * along the input (TFLite: up to 4-D, the output of the input's shape),
 * computed as TensorFlow Lite's kernels compute it.
 *
 *   float32  x >= 0 ? x : x alpha.
 *   int8, uint8
 *            x = q - input zero point; x >= 0: x rescaled by input scale
 *            / output scale; else x (alpha - alpha zero point) rescaled by
 *            input scale x alpha scale / output scale
 *            (MultiplyByQuantizedMultiplier each); plus the output zero
 *            point, clamped to the type.
 *
 * Version 1 only in TFLite's rules.
 */
#include "broadcast.h"
#include "kernels.h"
#include "node_checks.h"
#include "quantization.h"

/* TFLite broadcasts PRELU's alpha in 4-D. */
#define PRELU_MAX_RANK 4

typedef struct prelu_float32_data {
	ref_broadcast plan;
} prelu_float32_data;

typedef struct prelu_quantized_data {
	ref_broadcast plan;
	int32_t type;
	int32_t input_zero;
	int32_t alpha_zero;
	int32_t output_zero;
	int32_t identity_multiplier;
	int identity_shift;
	int32_t alpha_multiplier;
	int alpha_shift;
	int32_t min; /* the type's range */
	int32_t max;
} prelu_quantized_data;

/* PRELU's checks beyond a broadcast binary op's: the output has the
 * input's shape, and at most 4 dimensions. */
static opver_status prelu_prepare_common(const opver_context *ctx,
					 const opver_node *node,
					 opver_type type, ref_broadcast *plan)
{
	const opver_tensor *input;
	opver_status status;

	status = ref_binary_prepare(ctx, node, type, "PRELU", plan);
	if (status != OPVER_OK)
		return status;
	input = node->inputs[0];
	if (!ref_same_shape(input, node->outputs[0])) {
		OPVER_REPORT(ctx,
			     "output '%s' must have the shape of input '%s': PRELU broadcasts alpha '%s' along the input, not the input along alpha",
			     node->outputs[0]->name, input->name,
			     node->inputs[1]->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (input->rank > PRELU_MAX_RANK ||
	    node->inputs[1]->rank > PRELU_MAX_RANK) {
		OPVER_REPORT(ctx,
			     "input '%s' has %d dimensions and alpha '%s' %d; PRELU takes at most %d, as TFLite",
			     input->name, (int)input->rank,
			     node->inputs[1]->name, (int)node->inputs[1]->rank,
			     PRELU_MAX_RANK);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- float32 */

static inline float prelu_float32_element(float x, float alpha,
					  const prelu_float32_data *data)
{
	(void)data;
	return x >= 0.0f ? x : x * alpha;
}

REF_BROADCAST_DEFINE(prelu_float32_apply, float, prelu_float32_data,
		     prelu_float32_element)

static opver_status prelu_float32_prepare(const opver_context *ctx,
					  opver_node *node)
{
	prelu_float32_data *data = node->op_data;

	return prelu_prepare_common(ctx, node, OPVER_TYPE_FLOAT32,
				    &data->plan);
}

static opver_status prelu_float32_invoke(const opver_context *ctx,
					 opver_node *node)
{
	const prelu_float32_data *data = node->op_data;

	(void)ctx;
	prelu_float32_apply(&data->plan, node->inputs[0]->data,
			    node->inputs[1]->data, node->outputs[0]->data,
			    data);
	return OPVER_OK;
}

/* ------------------------------------------------------------ quantized */

static REF_ALWAYS_INLINE int32_t prelu_quantized(int32_t q, int32_t alpha,
						 const prelu_quantized_data *d)
{
	const int32_t x = q - d->input_zero;
	const int32_t rescaled =
		x >= 0 ? ref_multiply_by_quantized_multiplier(
				 x, d->identity_multiplier, d->identity_shift)
		       : ref_multiply_by_quantized_multiplier(
				 x * (alpha - d->alpha_zero),
				 d->alpha_multiplier, d->alpha_shift);

	return ref_clamp_int32(d->output_zero + rescaled, d->min, d->max);
}

static inline int8_t prelu_int8_element(int8_t q, int8_t alpha,
					const prelu_quantized_data *d)
{
	return (int8_t)prelu_quantized(q, alpha, d);
}

static inline uint8_t prelu_uint8_element(uint8_t q, uint8_t alpha,
					  const prelu_quantized_data *d)
{
	return (uint8_t)prelu_quantized(q, alpha, d);
}

REF_BROADCAST_DEFINE(prelu_int8_apply, int8_t, prelu_quantized_data,
		     prelu_int8_element)
REF_BROADCAST_DEFINE(prelu_uint8_apply, uint8_t, prelu_quantized_data,
		     prelu_uint8_element)

static opver_status prelu_quantized_prepare(const opver_context *ctx,
					    opver_node *node)
{
	prelu_quantized_data *d = node->op_data;
	float input_scale, alpha_scale, output_scale;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1,
				 "PRELU takes an input, alpha and one output");
	if (status == OPVER_OK)
		status = ref_expect_type_in(
			ctx, "input", node->inputs[0],
			ref_prelu_quantized.signatures[0].inputs[0]);
	if (status == OPVER_OK)
		status = prelu_prepare_common(ctx, node,
					      node->inputs[0]->type, &d->plan);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "input",
						     node->inputs[0],
						     &input_scale,
						     &d->input_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "alpha",
						     node->inputs[1],
						     &alpha_scale,
						     &d->alpha_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output",
						     node->outputs[0],
						     &output_scale,
						     &d->output_zero);
	if (status == OPVER_OK)
		status = ref_quantize_rescale(
			ctx, (double)input_scale / (double)output_scale,
			&d->identity_multiplier, &d->identity_shift,
			"input scale / output scale");
	if (status == OPVER_OK)
		status = ref_quantize_rescale(
			ctx,
			(double)input_scale * (double)alpha_scale /
				(double)output_scale,
			&d->alpha_multiplier, &d->alpha_shift,
			"input scale x alpha scale / output scale");
	if (status != OPVER_OK)
		return status;
	d->type = node->inputs[0]->type;
	ref_type_range(d->type, &d->min, &d->max);
	return OPVER_OK;
}

static opver_status prelu_quantized_invoke(const opver_context *ctx,
					   opver_node *node)
{
	const prelu_quantized_data *d = node->op_data;

	(void)ctx;
	if (d->type == OPVER_TYPE_INT8)
		prelu_int8_apply(&d->plan, node->inputs[0]->data,
				 node->inputs[1]->data, node->outputs[0]->data,
				 d);
	else
		prelu_uint8_apply(&d->plan, node->inputs[0]->data,
				  node->inputs[1]->data,
				  node->outputs[0]->data, d);
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_prelu_float32 = {
	OPVER_KERNEL("prelu_float32", PRELU, 1, 1),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(prelu_float32_data),
	.prepare = prelu_float32_prepare, .invoke = prelu_float32_invoke,
};

#define PRELU_TYPES (OPVER_T(INT8) | OPVER_T(UINT8))

const opver_kernel ref_prelu_quantized = {
	OPVER_KERNEL("prelu_quantized", PRELU, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(OPVER_INPUTS(PRELU_TYPES, PRELU_TYPES),
				       OPVER_OUTPUT(PRELU_TYPES))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(prelu_quantized_data),
	.prepare = prelu_quantized_prepare, .invoke = prelu_quantized_invoke,
};
