/*
 * relu.c - the clamp activations RELU, RELU6, RELU_N1_TO_1 and
 * RELU_0_TO_1, computed as TensorFlow Lite's kernels compute them.
 *
 *   float32  the input clamped to the op's range: [0, inf), [0, 6],
 *            [-1, 1], [0, 1].
 *   int8, uint8, int16
 *            each input step requantized to the output, (q - input zero
 *            point) times input scale / output scale by
 *            MultiplyByQuantizedMultiplier, plus the output zero point,
 *            clamped to the op's range on the output scale (its bounds
 *            divided by the output scale in float and rounded, plus the
 *            zero point; an infinite bound is the type's limit) and to
 *            the type.
 *
 * Types by op, as TFLite's activations.cc takes them: RELU and RELU6 on
 * float32, int8, uint8 and int16; RELU_N1_TO_1 and RELU_0_TO_1 on float32,
 * int8 and uint8.
 *
 * Versions (TFLite's op_version rules): RELU 2 for int8 and uint8, 3 for
 * int16; RELU6 2 for int8, 3 for int16 (uint8 stays 1); RELU_N1_TO_1 and
 * RELU_0_TO_1 have version 1 only.  A version adds only a tensor type, so
 * every kernel covers all of its op's versions.
 */
#include <math.h>

#include "activation.h"
#include "kernels.h"
#include "quantization.h"

/* The range an op clamps to, in real numbers. */
typedef struct relu_range {
	float min;
	float max;
} relu_range;

static relu_range relu_range_of(int32_t op)
{
	switch (op) {
	case OPVER_OP_RELU6:
		return (relu_range){ 0.0f, 6.0f };
	case OPVER_OP_RELU_N1_TO_1:
		return (relu_range){ -1.0f, 1.0f };
	case OPVER_OP_RELU_0_TO_1:
		return (relu_range){ 0.0f, 1.0f };
	default: /* RELU */
		return (relu_range){ 0.0f, INFINITY };
	}
}

typedef struct relu_float32_data {
	relu_range range;
	size_t count;
} relu_float32_data;

typedef struct relu_quantized_data {
	int32_t type;
	size_t count;
	int32_t input_zero;
	int32_t output_zero;
	int32_t multiplier;
	int shift;
	/* The clamp on the output scale, within the type. */
	int32_t min;
	int32_t max;
} relu_quantized_data;

/* ------------------------------------------------------------- float32 */

static opver_status relu_float32_prepare(const opver_context *ctx,
					 opver_node *node);

static opver_status relu_float32_invoke(const opver_context *ctx,
					opver_node *node)
{
	const relu_float32_data *data = node->op_data;
	const float min = data->range.min, max = data->range.max;
	const float *input = node->inputs[0]->data;
	float *output = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < data->count; i++)
		output[i] = ref_clamp_float(input[i], min, max);
	return OPVER_OK;
}

/* ------------------------------------------------------------ quantized */

static opver_status relu_quantized_prepare(const opver_context *ctx,
					   opver_node *node);

/* One output step from one input step. */
static REF_ALWAYS_INLINE int32_t relu_quantized(const relu_quantized_data *d,
						int32_t q)
{
	return ref_clamp_int32(
		d->output_zero + ref_multiply_by_quantized_multiplier(
					 q - d->input_zero, d->multiplier,
					 d->shift),
		d->min, d->max);
}

static opver_status relu_quantized_invoke(const opver_context *ctx,
					  opver_node *node)
{
	const relu_quantized_data *d = node->op_data;
	const void *input = node->inputs[0]->data;
	void *output = node->outputs[0]->data;

	(void)ctx;
	switch (d->type) {
	case OPVER_TYPE_INT8:
		for (size_t i = 0; i < d->count; i++)
			((int8_t *)output)[i] = (int8_t)relu_quantized(
				d, ((const int8_t *)input)[i]);
		break;
	case OPVER_TYPE_UINT8:
		for (size_t i = 0; i < d->count; i++)
			((uint8_t *)output)[i] = (uint8_t)relu_quantized(
				d, ((const uint8_t *)input)[i]);
		break;
	default: /* INT16 */
		for (size_t i = 0; i < d->count; i++)
			((int16_t *)output)[i] = (int16_t)relu_quantized(
				d, ((const int16_t *)input)[i]);
		break;
	}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

#define RELU_SIGNATURE(types) \
	OPVER_SIGNATURE(OPVER_INPUTS(types), OPVER_OUTPUT(types))
#define RELU_FLOAT32 RELU_SIGNATURE(OPVER_T(FLOAT32))
#define RELU_8BIT_16BIT \
	RELU_SIGNATURE(OPVER_T(INT8) | OPVER_T(UINT8) | OPVER_T(INT16))
#define RELU_8BIT RELU_SIGNATURE(OPVER_T(INT8) | OPVER_T(UINT8))

#define RELU_KERNELS(prefix, name, op, max, quantized)                        \
	const opver_kernel ref_##prefix##_float32 = {                         \
		OPVER_KERNEL(name "_float32", op, 1, max),                    \
		REF_SIGNATURES(RELU_FLOAT32),                                 \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(relu_float32_data),                    \
		.prepare = relu_float32_prepare,                              \
		.invoke = relu_float32_invoke,                                \
	};                                                                    \
	const opver_kernel ref_##prefix##_quantized = {                       \
		OPVER_KERNEL(name "_quantized", op, 1, max),                  \
		REF_SIGNATURES(quantized),                                    \
		REF_KERNEL_TRAITS,                                            \
		.op_data_size = sizeof(relu_quantized_data),                  \
		.prepare = relu_quantized_prepare,                            \
		.invoke = relu_quantized_invoke,                              \
	}

RELU_KERNELS(relu, "relu", RELU, 3, RELU_8BIT_16BIT);
RELU_KERNELS(relu6, "relu6", RELU6, 3, RELU_8BIT_16BIT);
RELU_KERNELS(relu_n1_to_1, "relu_n1_to_1", RELU_N1_TO_1, 1, RELU_8BIT);
RELU_KERNELS(relu_0_to_1, "relu_0_to_1", RELU_0_TO_1, 1, RELU_8BIT);

/* The quantized kernel of the node's op, whose signature prepare checks. */
static const opver_kernel *relu_quantized_kernel(int32_t op)
{
	switch (op) {
	case OPVER_OP_RELU6:
		return &ref_relu6_quantized;
	case OPVER_OP_RELU_N1_TO_1:
		return &ref_relu_n1_to_1_quantized;
	case OPVER_OP_RELU_0_TO_1:
		return &ref_relu_0_to_1_quantized;
	default:
		return &ref_relu_quantized;
	}
}

/* -------------------------------------------------------------- prepare */

static opver_status relu_float32_prepare(const opver_context *ctx,
					 opver_node *node)
{
	relu_float32_data *data = node->op_data;
	opver_status status;

	status = ref_activation_check(ctx, node, &ref_relu_float32, NULL);
	if (status != OPVER_OK)
		return status;
	data->range = relu_range_of(node->op);
	data->count = opver_tensor_elements(node->inputs[0]);
	return OPVER_OK;
}

/* A bound of the range on the output scale, as TFLite's QuantizedReluX:
 * divided in float, rounded half away from zero. */
static int32_t relu_bound(float bound, float scale, int32_t zero,
			  int32_t limit)
{
	float steps;

	if (!isfinite(bound))
		return limit;
	steps = roundf(bound / scale) + (float)zero;
	/* Beyond the int32 range only past the type's limits, where the
	 * clamp to the type decides. */
	return steps >= 2147483520.0f    ? INT32_MAX
	       : steps <= -2147483648.0f ? INT32_MIN
					 : (int32_t)steps;
}

static opver_status relu_quantized_prepare(const opver_context *ctx,
					   opver_node *node)
{
	relu_quantized_data *d = node->op_data;
	const relu_range range = relu_range_of(node->op);
	ref_activation_quant q;
	int32_t type_min = 0, type_max = 0;
	opver_status status;

	status = ref_activation_check(ctx, node,
				      relu_quantized_kernel(node->op), &q);
	if (status != OPVER_OK)
		return status;
	d->type = node->inputs[0]->type;
	d->count = opver_tensor_elements(node->inputs[0]);
	d->input_zero = q.input_zero;
	d->output_zero = q.output_zero;
	status = ref_quantize_rescale(ctx,
				      (double)q.input_scale /
					      (double)q.output_scale,
				      &d->multiplier, &d->shift,
				      "input scale / output scale");
	if (status != OPVER_OK)
		return status;
	ref_type_range(d->type, &type_min, &type_max);
	d->min = relu_bound(range.min, q.output_scale, q.output_zero,
			    type_min);
	d->max = relu_bound(range.max, q.output_scale, q.output_zero,
			    type_max);
	d->min = d->min > type_min ? d->min : type_min;
	d->max = d->max < type_max ? d->max : type_max;
	return OPVER_OK;
}
