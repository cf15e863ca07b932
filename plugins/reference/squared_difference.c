/*
 * squared_difference.c - SQUARED_DIFFERENCE, float32, int32 and int8 (the
 * types TFLite's kernel takes), broadcasting as TFLite does (broadcast.h),
 * computed as TensorFlow Lite's reference kernels compute it.  The op has
 * no fused activation.
 *
 *   float32  (a - b)^2.
 *   int32    (a - b)^2, wrapping as TFLite's int arithmetic does.
 *   int8     each input minus its zero point is shifted left 7 bits and
 *            rescaled by its scale / (2 x the larger input scale); the
 *            difference of the two is squared and rescaled by
 *            (2 x the larger input scale)^2 / (2^14 x output scale), the
 *            output zero point added and the result clamped to int8.
 *
 * Version ranges (TFLite's op_version rules for SQUARED_DIFFERENCE):
 *   1  float32, int32
 *   2  int8
 * so all three kernels cover 1..2.
 */
#include "arithmetic.h"
#include "kernels.h"
#include "quantization.h"

/* Bits the int8 path shifts inputs left: the square of the largest
 * rescaled difference, 255^2 x 2^14, fits an int32. */
#define SQUARED_DIFFERENCE_LEFT_SHIFT 7

typedef struct squared_difference_data {
	ref_broadcast plan;
} squared_difference_data;

typedef struct squared_difference_int8_data {
	ref_broadcast plan;
	int32_t input1_offset; /* minus the input zero points */
	int32_t input2_offset;
	int32_t output_offset; /* the output zero point */
	int32_t input1_multiplier; /* input scale / (2 x larger input scale) */
	int input1_shift;
	int32_t input2_multiplier;
	int input2_shift;
	int32_t output_multiplier; /* back to the output's scale */
	int output_shift;
} squared_difference_int8_data;

static opver_status squared_difference_plan(const opver_context *ctx,
					    opver_node *node, opver_type type)
{
	squared_difference_data *data = node->op_data;

	return ref_binary_prepare(ctx, node, type, "SQUARED_DIFFERENCE",
				  &data->plan);
}

/* ----------------------------------------------------- float32, int32 */

static inline float squared_difference_float32_element(
	float a, float b, const squared_difference_data *data)
{
	const float difference = a - b;

	(void)data;
	return difference * difference;
}

static inline int32_t squared_difference_int32_element(
	int32_t a, int32_t b, const squared_difference_data *data)
{
	/* Computed unsigned: wraps without undefined behaviour. */
	const uint32_t difference = (uint32_t)a - (uint32_t)b;

	(void)data;
	return (int32_t)(difference * difference);
}

REF_BROADCAST_DEFINE(squared_difference_float32_apply, float,
		     squared_difference_data,
		     squared_difference_float32_element)
REF_BROADCAST_DEFINE(squared_difference_int32_apply, int32_t,
		     squared_difference_data,
		     squared_difference_int32_element)

static opver_status squared_difference_float32_prepare(
	const opver_context *ctx, opver_node *node)
{
	return squared_difference_plan(ctx, node, OPVER_TYPE_FLOAT32);
}

static opver_status squared_difference_int32_prepare(
	const opver_context *ctx, opver_node *node)
{
	return squared_difference_plan(ctx, node, OPVER_TYPE_INT32);
}

REF_BROADCAST_INVOKE(squared_difference_float32_invoke,
		     squared_difference_float32_apply, squared_difference_data,
		     data)
REF_BROADCAST_INVOKE(squared_difference_int32_invoke,
		     squared_difference_int32_apply, squared_difference_data,
		     data)

/* ---------------------------------------------------------------- int8 */

static inline int8_t squared_difference_int8_element(
	int8_t a, int8_t b, const squared_difference_int8_data *data)
{
	const int32_t shifted1 = (a + data->input1_offset) *
				 (1 << SQUARED_DIFFERENCE_LEFT_SHIFT);
	const int32_t shifted2 = (b + data->input2_offset) *
				 (1 << SQUARED_DIFFERENCE_LEFT_SHIFT);
	const int32_t difference =
		ref_multiply_by_quantized_multiplier(
			shifted1, data->input1_multiplier,
			data->input1_shift) -
		ref_multiply_by_quantized_multiplier(
			shifted2, data->input2_multiplier, data->input2_shift);
	const int32_t result =
		ref_multiply_by_quantized_multiplier(difference * difference,
						     data->output_multiplier,
						     data->output_shift) +
		data->output_offset;

	return (int8_t)ref_clamp_int32(result, INT8_MIN, INT8_MAX);
}

REF_BROADCAST_DEFINE(squared_difference_int8_apply, int8_t,
		     squared_difference_int8_data,
		     squared_difference_int8_element)

static opver_status squared_difference_int8_prepare(const opver_context *ctx,
						    opver_node *node)
{
	static const char *const roles[3] = { "input 1", "input 2", "output" };
	squared_difference_int8_data *data = node->op_data;
	const opver_tensor *tensors[3] = { node->inputs[0], node->inputs[1],
					   node->outputs[0] };
	float scales[3];
	int32_t zero_points[3];
	double twice_max_input_scale, output_rescale;
	opver_status status;

	status = ref_binary_prepare(ctx, node, OPVER_TYPE_INT8,
				    "SQUARED_DIFFERENCE", &data->plan);
	for (int i = 0; i < 3 && status == OPVER_OK; i++)
		status = ref_per_tensor_quantization(ctx, roles[i],
						     tensors[i], &scales[i],
						     &zero_points[i]);
	if (status != OPVER_OK)
		return status;
	twice_max_input_scale =
		2.0 * (double)(scales[0] > scales[1] ? scales[0] : scales[1]);
	output_rescale = twice_max_input_scale * twice_max_input_scale /
			 ((double)(1 << (2 * SQUARED_DIFFERENCE_LEFT_SHIFT)) *
			  (double)scales[2]);
	ref_quantize_multiplier((double)scales[0] / twice_max_input_scale,
				&data->input1_multiplier, &data->input1_shift);
	ref_quantize_multiplier((double)scales[1] / twice_max_input_scale,
				&data->input2_multiplier, &data->input2_shift);
	ref_quantize_multiplier(output_rescale, &data->output_multiplier,
				&data->output_shift);
	if (data->output_shift > 0) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g, too fine for input scales %g and %g: (2 x the larger input scale)^2 / (2^%d x output scale) is %g, and must be below 1",
			     tensors[2]->name, (double)scales[2],
			     (double)scales[0], (double)scales[1],
			     2 * SQUARED_DIFFERENCE_LEFT_SHIFT, output_rescale);
		return OPVER_ERROR_UNSUPPORTED;
	}
	data->input1_offset = -zero_points[0];
	data->input2_offset = -zero_points[1];
	data->output_offset = zero_points[2];
	return OPVER_OK;
}

REF_BROADCAST_INVOKE(squared_difference_int8_invoke,
		     squared_difference_int8_apply,
		     squared_difference_int8_data, data)

/* ------------------------------------------------------------- manifest */

const opver_kernel ref_squared_difference_float32 = {
	OPVER_KERNEL("squared_difference_float32", SQUARED_DIFFERENCE, 1, 2),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(FLOAT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(squared_difference_data),
	.prepare = squared_difference_float32_prepare,
	.invoke = squared_difference_float32_invoke,
};

const opver_kernel ref_squared_difference_int32 = {
	OPVER_KERNEL("squared_difference_int32", SQUARED_DIFFERENCE, 1, 2),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT32)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(squared_difference_data),
	.prepare = squared_difference_int32_prepare,
	.invoke = squared_difference_int32_invoke,
};

const opver_kernel ref_squared_difference_int8 = {
	OPVER_KERNEL("squared_difference_int8", SQUARED_DIFFERENCE, 1, 2),
	REF_SIGNATURES(REF_BINARY_SIGNATURE(INT8)),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(squared_difference_int8_data),
	.prepare = squared_difference_int8_prepare,
	.invoke = squared_difference_int8_invoke,
};
