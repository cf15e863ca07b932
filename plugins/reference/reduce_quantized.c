/*
 * reduce_quantized.c - the reductions of quantized tensors, as TensorFlow
 * Lite computes them (reduce.c describes each method): in prepare, the
 * method an integer input takes and its constants; in invoke, the means and
 * sums finished from the sums reduce.c walks, and the quantized products.
 */
#include <math.h>

#include "kernels.h"
#include "quantization.h"
#include "reduce_walk.h"

/* The per-tensor quantization of input and output, zero points 0 for
 * int16; with `same`, the output's must equal the input's. */
static opver_status reduce_quantization(const opver_context *ctx,
					const opver_tensor *input,
					const opver_tensor *output, bool same,
					float *in_scale, float *out_scale,
					reduce_data *data)
{
	int32_t in_zero, out_zero;
	opver_status status;

	status = ref_per_tensor_quantization(ctx, "input", input, in_scale,
					     &in_zero);
	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(ctx, "output", output,
						     out_scale, &out_zero);
	if (status != OPVER_OK)
		return status;
	if (input->type == OPVER_TYPE_INT16 &&
	    (in_zero != 0 || out_zero != 0)) {
		OPVER_REPORT(ctx,
			     "int16 zero points are %d (input) and %d (output); both must be 0",
			     (int)in_zero, (int)out_zero);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (same && (*in_scale != *out_scale || in_zero != out_zero)) {
		OPVER_REPORT(ctx,
			     "output '%s' has scale %g and zero point %d; %s keeps the input's, %g and %d",
			     output->name, (double)*out_scale, (int)out_zero,
			     ctx->host->op_name(data->op), (double)*in_scale,
			     (int)in_zero);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->input_zero_point = in_zero;
	data->output_zero_point = out_zero;
	ref_type_range(output->type, &data->qmin, &data->qmax);
	return OPVER_OK;
}

static bool is_quantized_type(int32_t type)
{
	return type == OPVER_TYPE_UINT8 || type == OPVER_TYPE_INT8 ||
	       type == OPVER_TYPE_INT16;
}

/*
 * TFLite's builtin (desktop) int8 kernel takes the legacy uint8 formula on
 * the 4-D path too, which reference-tflite follows; its reference kernel
 * (and TFLite Micro) rescales, then divides.
 */
#ifdef REF_TFLITE_BUILTIN
#define REF_BUILTIN_MEAN true
#else
#define REF_BUILTIN_MEAN false
#endif

/* MEAN of quantized tensors: picks TFLite's path and its constants. */
static opver_status reduce_prepare_mean(const opver_context *ctx,
					const opver_tensor *input,
					const opver_tensor *output,
					bool spatial, reduce_data *data)
{
	float in_scale, out_scale;
	opver_status status;

	status = reduce_quantization(ctx, input, output, false, &in_scale,
				     &out_scale, data);
	if (status != OPVER_OK)
		return status;
	data->scale = in_scale / out_scale;
	if (spatial && (input->type == OPVER_TYPE_UINT8 || REF_BUILTIN_MEAN)) {
		/* In float, as TFLite's legacy uint8 kernel. */
		const float count = (float)data->plan.count;
		float offset = (float)data->input_zero_point * in_scale /
			       out_scale;

		offset = offset > 0 ? offset + 0.5f : offset - 0.5f;
		data->bias = data->output_zero_point - (int32_t)offset;
		data->method = REDUCE_MEAN_SPATIAL_LEGACY;
		return ref_quantize_rescale(
			ctx, (double)(in_scale / (count * out_scale)),
			&data->multiplier, &data->shift,
			"input scale / (count x output scale)");
	}
	if (spatial) {
		data->method = REDUCE_MEAN_SPATIAL;
		return ref_quantize_rescale(
			ctx, (double)in_scale / (double)out_scale,
			&data->multiplier, &data->shift,
			"input scale / output scale");
	}
	data->method = in_scale == out_scale &&
				       data->input_zero_point ==
					       data->output_zero_point
			       ? REDUCE_MEAN_INTEGER
			       : REDUCE_MEAN_RESCALED;
	return OPVER_OK;
}

/* The largest shift TFLite's 64-bit rescale is defined for. */
#define REDUCE_MAX_WIDE_SHIFT 7

static opver_status reduce_prepare_prod(const opver_context *ctx,
					const opver_tensor *input,
					const opver_tensor *output,
					reduce_data *data)
{
	float in_scale, out_scale;
	opver_status status;
	double scaling;

	status = reduce_quantization(ctx, input, output, false, &in_scale,
				     &out_scale, data);
	if (status != OPVER_OK)
		return status;
	data->method = REDUCE_PROD_QUANTIZED;
	if (data->plan.inputs == 0 || data->plan.outputs == 0)
		return OPVER_OK;
	/* Each of the count steps rescales by this, so the product of
	 * count terms is rescaled by in^count / out. */
	scaling = (double)in_scale /
		  pow((double)out_scale, 1.0 / (double)data->plan.count);
	status = ref_quantize_rescale(ctx, scaling, &data->multiplier,
				      &data->shift,
				      "input scale / output scale^(1/%zu)",
				      data->plan.count);
	if (status == OPVER_OK && data->shift > REDUCE_MAX_WIDE_SHIFT) {
		OPVER_REPORT(ctx,
			     "input scale / output scale^(1/%zu) is %g; TFLite's rescale of products needs it below 2^%d",
			     data->plan.count, scaling, REDUCE_MAX_WIDE_SHIFT);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return status;
}

/* Picks the method of a quantized input, or of an integer input that
 * TFLite does not rescale. */
opver_status ref_reduce_prepare_integer(const opver_context *ctx,
					const opver_node *node,
					bool spatial, reduce_data *data)
{
	const opver_tensor *input = node->inputs[REDUCE_INPUT];
	const opver_tensor *output = node->outputs[0];
	float in_scale, out_scale;

	/* Without quantization TFLite's scales are 0 and equal: plain
	 * integer arithmetic. */
	if (!is_quantized_type(input->type) ||
	    (!ref_is_quantized(input) && !ref_is_quantized(output))) {
		data->method = data->op == OPVER_OP_MEAN ? REDUCE_MEAN_INTEGER
							 : REDUCE_FOLD;
		return OPVER_OK;
	}
	switch (data->op) {
	case OPVER_OP_MEAN:
		return reduce_prepare_mean(ctx, input, output, spatial, data);
	case OPVER_OP_REDUCE_PROD:
		if (input->type == OPVER_TYPE_UINT8) {
			OPVER_REPORT(ctx,
				     "REDUCE_PROD of uint8 tensors: TFLite multiplies only int8 and int16 ones");
			return OPVER_ERROR_UNSUPPORTED;
		}
		return reduce_prepare_prod(ctx, input, output, data);
	case OPVER_OP_SUM:
		/* TFLite rescales 8-bit sums only. */
		if (input->type != OPVER_TYPE_INT16) {
			opver_status status = reduce_quantization(
				ctx, input, output, false, &in_scale,
				&out_scale, data);

			if (status != OPVER_OK)
				return status;
			data->scale = in_scale / out_scale;
			data->method = REDUCE_SUM_RESCALED;
			if (in_scale == out_scale &&
			    data->input_zero_point == data->output_zero_point)
				data->method = REDUCE_FOLD;
			return OPVER_OK;
		}
		/* fall through */
	default:
		data->method = REDUCE_FOLD;
		return reduce_quantization(ctx, input, output, true, &in_scale,
					   &out_scale, data);
	}
}

/* TFLite sums 8- and 16-bit inputs in int32: the low 32 bits. */
static int32_t reduce_sum32(int64_t sum)
{
	return (int32_t)(uint32_t)sum;
}

/* The quantized means and sums, from the sums in acc. */
void ref_reduce_finish(const reduce_data *data, int64_t *acc, void *out)
{
	const reduce_plan *p = &data->plan;
	const int64_t count = (int64_t)p->count;

	for (size_t i = 0; i < p->outputs; i++) {
		int64_t value = 0;

		switch (data->method) {
		case REDUCE_MEAN_INTEGER:
			/* int64 sums for int32 and int64, else int32. */
			value = data->type == OPVER_TYPE_INT32 ||
					data->type == OPVER_TYPE_INT64
					? acc[i] / count
					: reduce_sum32(acc[i]) /
						  (int32_t)count;
			break;
		case REDUCE_MEAN_RESCALED: {
			const float mean =
				(float)reduce_sum32(acc[i]) / (float)count;
			const float bias =
				(float)-data->input_zero_point * data->scale;
			float r = roundf(mean * data->scale + bias) +
				  (float)data->output_zero_point;

			r = r < (float)data->qmax ? r : (float)data->qmax;
			r = r > (float)data->qmin ? r : (float)data->qmin;
			value = (int64_t)r;
			break;
		}
		case REDUCE_SUM_RESCALED: {
			const float bias = (float)-data->input_zero_point *
					   data->scale * (float)count;

			value = (int64_t)(int32_t)roundf(
					(float)reduce_sum32(acc[i]) *
						data->scale +
					bias) +
				data->output_zero_point;
			break;
		}
		case REDUCE_MEAN_SPATIAL: {
			int32_t x = ref_multiply_by_quantized_multiplier(
				reduce_sum32(acc[i]), data->multiplier,
				data->shift);
			const int32_t n = (int32_t)count;

			x = x > 0 ? (x + n / 2) / n : (x - n / 2) / n;
			value = ref_clamp_int32(x + data->output_zero_point,
						data->qmin, data->qmax);
			break;
		}
		case REDUCE_MEAN_SPATIAL_LEGACY: {
			const int32_t x = ref_multiply_by_quantized_multiplier(
				reduce_sum32(acc[i]), data->multiplier,
				data->shift);

			value = ref_clamp_int32(x + data->bias, data->qmin,
						data->qmax);
			break;
		}
		default:
			break;
		}
		reduce_store(data->type, out, i, value);
	}
}

/* Quantized int8 and int16 REDUCE_PROD: each output's first term is
 * q - zero point, each further one multiplies in and rescales. */
void ref_reduce_prod_quantized(const reduce_data *data, const void *in,
			       int64_t *acc, void *out)
{
	const reduce_plan *p = &data->plan;
	const int32_t type = data->type, zero = data->input_zero_point;

	if (p->inputs == 0) {
		for (size_t i = 0; i < p->outputs; i++)
			reduce_store(type, out, i, 0);
		return;
	}
	REDUCE_WALK(p, w, {
		const int64_t term = reduce_load(type, in, w.in) - zero;

		acc[w.out] = w.reduced_nonzero == 0
				     ? term
				     : ref_multiply_by_quantized_multiplier_int64(
					       acc[w.out] * term,
					       data->multiplier, data->shift);
	});
	for (size_t i = 0; i < p->outputs; i++)
		reduce_store(type, out, i,
			     ref_clamp_int32(
				     ref_multiply_by_quantized_multiplier_int64(
					     acc[i], data->multiplier,
					     data->shift) +
					     data->output_zero_point,
				     data->qmin, data->qmax));
}
