/*
 * quantized_add.c - prepare-time part of the quantized arithmetic ADD and
 * SUB share (see quantized_add.h).
 */
#include <math.h>

#include "quantized_add.h"

/* TFLite's power-of-two path divides an int16; dividing by more than 2^15
 * is not a rounding there (its int16 mask overflows), so it is refused. */
#define ADD_POT_MAX_EXPONENT 15

opver_status ref_add_quantization(const opver_context *ctx,
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

opver_status ref_add_rescale_prepare(const opver_context *ctx,
				     const opver_node *node,
				     int32_t activation, const float scales[3],
				     const int32_t zero_points[3],
				     int left_shift, ref_add_sign sign,
				     ref_add_rescale *r)
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
	r->input2_sign = (int32_t)sign;
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

/* TFLite's CheckedLog2: log2 of the scale computed in float; a power of two
 * when within 1e-3 of an integer, which goes to *log2. */
static bool scale_log2(float scale, int *log2)
{
	const float exact = logf(scale) * (1.0f / logf(2.0f));
	const float rounded = roundf(exact);

	*log2 = (int)rounded;
	return fabsf(exact - rounded) < 1e-3f;
}

bool ref_add_takes_pot_path(int32_t pot_scale_int16, const float scales[3],
			    const int32_t zero_points[3], int log2s[3])
{
	bool pot = pot_scale_int16 != 0;

	for (int i = 0; i < 3; i++)
		pot = pot && scale_log2(scales[i], &log2s[i]) &&
		      zero_points[i] == 0;
	return pot;
}

opver_status ref_add_pot_prepare(const opver_context *ctx,
				 const opver_node *node, int32_t activation,
				 const float scales[3], const int log2s[3],
				 ref_add_sign sign, ref_add_pot *p)
{
	p->input1_exponent = log2s[2] - log2s[0];
	p->input2_exponent = log2s[2] - log2s[1];
	p->input2_sign = (int32_t)sign;
	if ((p->input1_exponent != 0 && p->input2_exponent != 0) ||
	    p->input1_exponent < 0 || p->input2_exponent < 0) {
		OPVER_REPORT(ctx,
			     "power-of-two scales 2^%d and 2^%d for the inputs and 2^%d for the output: one input needs the output's scale and the other the same or a finer one",
			     log2s[0], log2s[1], log2s[2]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (p->input1_exponent > ADD_POT_MAX_EXPONENT ||
	    p->input2_exponent > ADD_POT_MAX_EXPONENT) {
		OPVER_REPORT(ctx,
			     "power-of-two scales 2^%d and 2^%d for the inputs and 2^%d for the output: an input scale more than 2^%d times finer than the output's is not supported",
			     log2s[0], log2s[1], log2s[2],
			     ADD_POT_MAX_EXPONENT);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return ref_output_activation_range(ctx, activation, node->outputs[0],
					   scales[2], 0, &p->activation_min,
					   &p->activation_max);
}
