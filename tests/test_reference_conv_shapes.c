/*
 * test_reference_conv_shapes.c - the CONV_2D kernels (float32, int8, uint8,
 * hybrid) on many shapes against a naive double-precision convolution
 * written here.
 */
#include <math.h>
#include <stdlib.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "conv_harness.h"

/* ----------------------------------------------- shapes, naive reference */

/* One convolution's shape and parameters. */
struct conv_case {
	int32_t batches, height, width, channels; /* input */
	int32_t out_channels, filter_height, filter_width, groups;
	int32_t stride_height, stride_width;
	int32_t dilation_height, dilation_width;
	opver_padding padding;
	bool bias;
};

static struct conv_case shape_cases[] = {
	{ 1, 5, 5, 1, 1, 3, 3, 1, 1, 1, 1, 1, OPVER_PADDING_SAME, true },
	{ 1, 5, 5, 1, 1, 3, 3, 1, 1, 1, 1, 1, OPVER_PADDING_VALID, false },
	{ 2, 6, 7, 3, 4, 3, 2, 1, 2, 1, 1, 1, OPVER_PADDING_SAME, true },
	{ 1, 7, 6, 4, 6, 2, 3, 2, 1, 2, 2, 1, OPVER_PADDING_SAME, true },
	{ 1, 8, 8, 2, 3, 3, 3, 1, 2, 2, 2, 2, OPVER_PADDING_VALID, true },
	{ 3, 4, 5, 6, 6, 1, 1, 3, 1, 1, 1, 1, OPVER_PADDING_VALID, false },
	{ 1, 9, 4, 2, 2, 4, 1, 1, 3, 1, 1, 2, OPVER_PADDING_SAME, true },
	{ 2, 5, 5, 4, 4, 5, 5, 4, 1, 1, 1, 1, OPVER_PADDING_SAME, true },
	{ 1, 6, 9, 2, 4, 3, 3, 2, 2, 3, 2, 1, OPVER_PADDING_SAME, true },
	{ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, OPVER_PADDING_SAME, false },
	{ 0, 3, 3, 1, 2, 2, 2, 1, 1, 1, 1, 1, OPVER_PADDING_VALID, true },
};

/* Output size and padding before, as TFLite defines them. */
static void case_window(int32_t in, int32_t filter, int32_t stride,
			int32_t dilation, opver_padding padding, int32_t *out,
			int32_t *pad)
{
	const int32_t span = (filter - 1) * dilation + 1;
	int32_t total;

	*out = padding == OPVER_PADDING_SAME ? (in + stride - 1) / stride
					     : (in - span + stride) / stride;
	total = (*out - 1) * stride + span - in;
	*pad = total > 0 ? total / 2 : 0;
}

/* Output (b, y, x, o) of the convolution of `input` by `filter` plus
 * `bias` (NULL for none), tap by tap in double, skipping taps outside the
 * input; pad_h and pad_w are the padding before. */
static double naive_output(const struct conv_case *c, const double *input,
			   const double *filter, const double *bias,
			   int32_t pad_h, int32_t pad_w, int32_t b, int32_t y,
			   int32_t x, int32_t o)
{
	const int32_t group_depth = c->channels / c->groups;
	const int32_t group = o / (c->out_channels / c->groups);
	double sum = bias != NULL ? bias[o] : 0.0;

	for (int32_t ky = 0; ky < c->filter_height; ky++) {
		const int32_t iy = y * c->stride_height - pad_h +
				   ky * c->dilation_height;

		for (int32_t kx = 0; kx < c->filter_width; kx++) {
			const int32_t ix = x * c->stride_width - pad_w +
					   kx * c->dilation_width;
			const double *in, *f;

			if (iy < 0 || iy >= c->height || ix < 0 ||
			    ix >= c->width)
				continue;
			in = input + ((b * c->height + iy) * c->width + ix) *
					     c->channels +
			     group * group_depth;
			f = filter + ((o * c->filter_height + ky) *
					      c->filter_width + kx) *
					     group_depth;
			for (int32_t i = 0; i < group_depth; i++)
				sum += in[i] * f[i];
		}
	}
	return sum;
}

/* Every output of the naive convolution, in NHWC order. */
static void naive_conv(const struct conv_case *c, const double *input,
		       const double *filter, const double *bias,
		       double *output)
{
	int32_t oh, ow, pad_h, pad_w;
	size_t n = 0;

	case_window(c->height, c->filter_height, c->stride_height,
		    c->dilation_height, c->padding, &oh, &pad_h);
	case_window(c->width, c->filter_width, c->stride_width,
		    c->dilation_width, c->padding, &ow, &pad_w);
	for (int32_t b = 0; b < c->batches; b++)
		for (int32_t y = 0; y < oh; y++)
			for (int32_t x = 0; x < ow; x++)
				for (int32_t o = 0; o < c->out_channels; o++)
					output[n++] = naive_output(
						c, input, filter, bias, pad_h,
						pad_w, b, y, x, o);
}

/* The tensors of one case, their values in double alongside. */
struct case_tensors {
	opver_tensor *input, *filter, *bias, *output;
	size_t inputs, filters, outputs;
	double *input_values, *filter_values, *bias_values, *expected;
};

/* Builds the tensors of `c` with the given types and computes the naive
 * result of the values `fill` writes. */
static void case_build(const struct conv_case *c, opver_type data,
		       opver_type filter, opver_type bias,
		       struct case_tensors *t)
{
	int32_t oh, ow, pad;

	case_window(c->height, c->filter_height, c->stride_height,
		    c->dilation_height, c->padding, &oh, &pad);
	case_window(c->width, c->filter_width, c->stride_width,
		    c->dilation_width, c->padding, &ow, &pad);
	t->input = kh_tensor(&h, "input", data,
			     KH_DIMS(c->batches, c->height, c->width,
				     c->channels),
			     NULL);
	t->filter = kh_tensor(&h, "filter", filter,
			      KH_DIMS(c->out_channels, c->filter_height,
				      c->filter_width,
				      c->channels / c->groups),
			      NULL);
	t->bias = c->bias ? kh_tensor(&h, "bias", bias,
				      KH_DIMS(c->out_channels), NULL)
			  : NULL;
	t->output = kh_tensor(&h, "output", data,
			      KH_DIMS(c->batches, oh, ow, c->out_channels),
			      NULL);
	t->inputs = opver_tensor_elements(t->input);
	t->filters = opver_tensor_elements(t->filter);
	t->outputs = opver_tensor_elements(t->output);
	t->input_values = calloc(t->inputs + 1, sizeof(double));
	t->filter_values = calloc(t->filters, sizeof(double));
	t->bias_values = calloc((size_t)c->out_channels, sizeof(double));
	t->expected = calloc(t->outputs + 1, sizeof(double));
	cr_assert(t->input_values && t->filter_values && t->bias_values &&
		  t->expected);
}

static void case_free(struct case_tensors *t)
{
	free(t->input_values);
	free(t->filter_values);
	free(t->bias_values);
	free(t->expected);
}

static opver_conv_params case_params(const struct conv_case *c)
{
	return (opver_conv_params){
		.padding = c->padding,
		.stride_width = c->stride_width,
		.stride_height = c->stride_height,
		.dilation_width = c->dilation_width,
		.dilation_height = c->dilation_height,
	};
}

ParameterizedTestParameters(conv_float32, shapes)
{
	return cr_make_param_array(struct conv_case, shape_cases,
				   COUNT(shape_cases));
}

/* Small integers make every product and sum exact in float, so the kernel
 * must match the double computation exactly. */
ParameterizedTest(struct conv_case *c, conv_float32, shapes)
{
	struct case_tensors t;
	opver_conv_params p = case_params(c);
	float *in, *f, *b;
	float expected[4096];

	case_build(c, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		   OPVER_TYPE_FLOAT32, &t);
	cr_assert_leq(t.outputs, COUNT(expected));
	in = t.input->data;
	f = t.filter->data;
	for (size_t i = 0; i < t.inputs; i++)
		in[i] = (float)((int)(i * 7 % 11) - 5);
	for (size_t i = 0; i < t.filters; i++)
		f[i] = (float)((int)(i * 5 % 9) - 4);
	for (size_t i = 0; i < t.inputs; i++)
		t.input_values[i] = in[i];
	for (size_t i = 0; i < t.filters; i++)
		t.filter_values[i] = f[i];
	if (t.bias != NULL) {
		b = t.bias->data;
		for (int32_t o = 0; o < c->out_channels; o++)
			t.bias_values[o] = b[o] = (float)(o % 3 - 1);
	}
	naive_conv(c, t.input_values, t.filter_values,
		   t.bias != NULL ? t.bias_values : NULL, t.expected);
	for (size_t i = 0; i < t.outputs; i++)
		expected[i] = (float)t.expected[i];
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 6, &p,
					   KH_TENSORS(t.input, t.filter,
						      t.bias),
					   t.output)),
		     OPVER_OK, "%s", h.errors);
	expect_floats(t.output, expected, t.outputs);
	case_free(&t);
}

ParameterizedTestParameters(conv_int8, shapes)
{
	return cr_make_param_array(struct conv_case, shape_cases,
				   COUNT(shape_cases));
}

/*
 * Input scale 0.5 and filter scales 2 (per channel) over output scale 1
 * make every multiplier exactly 1, so the result is the integer sum of
 * filter * (input - 3), plus bias and the output zero point -5, clamped:
 * exactly what the double reference gives.
 */
ParameterizedTest(struct conv_case *c, conv_int8, shapes)
{
	struct case_tensors t;
	opver_conv_params p = case_params(c);
	int8_t *in, *f, expected[4096];
	int32_t *b;
	float scales[64];

	case_build(c, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT32, &t);
	cr_assert_leq(t.outputs, COUNT(expected));
	cr_assert_leq(c->out_channels, (int32_t)COUNT(scales));
	kh_quantize(&h, t.input, 0.5f, 3);
	kh_quantize(&h, t.output, 1.0f, -5);
	for (int32_t o = 0; o < c->out_channels; o++)
		scales[o] = 2.0f;
	kh_quantize_per_channel(&h, t.filter, 0, c->out_channels, scales,
				(int64_t[64]){ 0 });
	in = t.input->data;
	f = t.filter->data;
	for (size_t i = 0; i < t.inputs; i++) {
		in[i] = (int8_t)((int)(i * 7 % 23) - 11);
		t.input_values[i] = in[i] - 3;
	}
	for (size_t i = 0; i < t.filters; i++)
		t.filter_values[i] = f[i] = (int8_t)((int)(i * 5 % 3) - 1);
	if (t.bias != NULL) {
		b = t.bias->data;
		for (int32_t o = 0; o < c->out_channels; o++)
			t.bias_values[o] = b[o] = o % 5 - 2;
	}
	naive_conv(c, t.input_values, t.filter_values,
		   t.bias != NULL ? t.bias_values : NULL, t.expected);
	for (size_t i = 0; i < t.outputs; i++)
		expected[i] = (int8_t)fmin(127.0, fmax(-128.0,
						       t.expected[i] - 5));
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 6, &p,
					   KH_TENSORS(t.input, t.filter,
						      t.bias),
					   t.output)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(t.output, expected, t.outputs);
	case_free(&t);
}

ParameterizedTestParameters(conv_uint8, shapes)
{
	return cr_make_param_array(struct conv_case, shape_cases,
				   COUNT(shape_cases));
}

/*
 * conv_int8's shapes in uint8: input scale 0.5 and filter scale 2 over
 * output scale 1 make the multiplier exactly 1, so the result is the
 * integer sum of (filter - 130) * (input - 120), plus bias and the output
 * zero point 100, clamped to [0, 255].
 */
ParameterizedTest(struct conv_case *c, conv_uint8, shapes)
{
	struct case_tensors t;
	opver_conv_params p = case_params(c);
	uint8_t *in, *f, expected[4096];
	int32_t *b;

	case_build(c, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8, OPVER_TYPE_INT32,
		   &t);
	cr_assert_leq(t.outputs, COUNT(expected));
	kh_quantize(&h, t.input, 0.5f, 120);
	kh_quantize(&h, t.output, 1.0f, 100);
	kh_quantize(&h, t.filter, 2.0f, 130);
	if (t.bias != NULL)
		kh_quantize(&h, t.bias, 1.0f, 0);
	in = t.input->data;
	f = t.filter->data;
	for (size_t i = 0; i < t.inputs; i++) {
		in[i] = (uint8_t)(i * 7 % 23 + 109);
		t.input_values[i] = in[i] - 120;
	}
	for (size_t i = 0; i < t.filters; i++) {
		f[i] = (uint8_t)(i * 5 % 3 + 129);
		t.filter_values[i] = f[i] - 130;
	}
	if (t.bias != NULL) {
		b = t.bias->data;
		for (int32_t o = 0; o < c->out_channels; o++)
			t.bias_values[o] = b[o] = o % 5 - 2;
	}
	naive_conv(c, t.input_values, t.filter_values,
		   t.bias != NULL ? t.bias_values : NULL, t.expected);
	for (size_t i = 0; i < t.outputs; i++)
		expected[i] = (uint8_t)fmin(255.0, fmax(0.0,
							t.expected[i] + 100));
	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 6, &p,
					   KH_TENSORS(t.input, t.filter,
						      t.bias),
					   t.output)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(t.output, expected, t.outputs);
	case_free(&t);
}

ParameterizedTestParameters(conv_hybrid, shapes)
{
	return cr_make_param_array(struct conv_case, shape_cases,
				   COUNT(shape_cases));
}

/*
 * Against the float convolution of the dequantized filter: each input
 * element moves by at most one quantization step of its batch (half a step
 * from rounding, up to a step where the nudged zero point clips the range),
 * so an output moves by at most step * sum |filter| over its window.  Run
 * once with one filter scale and once with a scale per channel.
 */
ParameterizedTest(struct conv_case *c, conv_hybrid, shapes)
{
	for (int per_channel = 0; per_channel < 2; per_channel++) {
		struct case_tensors t;
		opver_conv_params p = case_params(c);
		const size_t batch_size = (size_t)c->height * c->width *
					  c->channels;
		float *in, *b, expected[4096], scales[64];
		int8_t *f;
		const bool asymmetric = c->groups > 1 ||
					(per_channel && c->out_channels > 1);
		double step[4] = { 0 }, bound = 0.0, window = 0.0;
		const size_t per_filter =
			(size_t)c->filter_height * c->filter_width *
			(c->channels / c->groups);

		case_build(c, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
			   OPVER_TYPE_FLOAT32, &t);
		cr_assert_leq(t.outputs, COUNT(expected));
		cr_assert_leq(c->batches, (int32_t)COUNT(step));
		for (int32_t o = 0; o < c->out_channels; o++)
			scales[o] = per_channel ? 0.01f * (float)(1 + o % 3)
						: 0.02f;
		kh_quantize_per_channel(&h, t.filter, 0,
					per_channel ? c->out_channels : 1,
					scales, (int64_t[64]){ 0 });
		in = t.input->data;
		f = t.filter->data;
		for (size_t i = 0; i < t.inputs; i++)
			t.input_values[i] = in[i] =
				(float)((int)(i * 37 % 101) - 50) / 25.0f;
		for (size_t i = 0; i < t.filters; i++) {
			f[i] = (int8_t)((int)(i * 13 % 255) - 127);
			t.filter_values[i] =
				f[i] * (double)scales[per_channel ?
							      i / per_filter :
							      0];
		}
		if (t.bias != NULL) {
			b = t.bias->data;
			for (int32_t o = 0; o < c->out_channels; o++)
				t.bias_values[o] = b[o] = 0.25f * (float)o;
		}
		/* Each batch's step: max |x| / 127, or the range with 0
		 * over 255 on the asymmetric path (scales that differ, or
		 * groups). */
		for (int32_t bt = 0; bt < c->batches; bt++) {
			double low = 0.0, high = 0.0;

			for (size_t i = 0; i < batch_size; i++) {
				low = fmin(low, t.input_values[bt * batch_size +
							       i]);
				high = fmax(high,
					    t.input_values[bt * batch_size +
							   i]);
			}
			step[bt] = asymmetric ?
					   (high - low) / 255.0 :
					   fmax(-low, high) / 127.0;
			bound = fmax(bound, step[bt]);
		}
		for (int32_t o = 0; o < c->out_channels; o++) {
			double sum = 0.0;

			for (size_t i = 0; i < per_filter; i++)
				sum += fabs(t.filter_values[o * per_filter +
							    i]);
			window = fmax(window, sum);
		}
		naive_conv(c, t.input_values, t.filter_values,
			   t.bias != NULL ? t.bias_values : NULL, t.expected);
		for (size_t i = 0; i < t.outputs; i++)
			expected[i] = (float)t.expected[i];
		cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 5, &p,
						   KH_TENSORS(t.input,
							      t.filter, t.bias),
						   t.output)),
			     OPVER_OK, "%s", h.errors);
		expect_floats_near(t.output, expected, t.outputs,
				   bound * window + 1e-3);
		case_free(&t);
	}
}
