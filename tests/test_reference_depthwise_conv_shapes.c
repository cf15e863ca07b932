/*
 * test_reference_depthwise_conv_shapes.c - the DEPTHWISE_CONV_2D kernels on
 * random shapes against a naive reference written here.
 */
#include <stdlib.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "dw_harness.h"

TestSuite(dw_shapes, .init = setup, .fini = teardown);

/* One parameterized shape: every geometry feature at once. */
struct dw_shape_case {
	int32_t batches, height, width, channels, multiplier;
	int32_t filter_height, filter_width;
	int32_t stride_height, stride_width;
	int32_t dilation_height, dilation_width;
	opver_padding padding;
	bool bias;
};

ParameterizedTestParameters(dw_shapes, float32_int8_and_uint8)
{
	static struct dw_shape_case cases[] = {
		{ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, OPVER_PADDING_VALID, false },
		{ 1, 5, 5, 3, 1, 3, 3, 1, 1, 1, 1, OPVER_PADDING_SAME, true },
		{ 2, 6, 7, 2, 2, 3, 2, 2, 1, 1, 1, OPVER_PADDING_SAME, true },
		{ 1, 7, 6, 4, 1, 3, 3, 2, 2, 1, 1, OPVER_PADDING_VALID, false },
		{ 3, 8, 8, 1, 3, 2, 3, 1, 2, 2, 1, OPVER_PADDING_SAME, true },
		{ 1, 9, 9, 2, 2, 3, 3, 1, 1, 2, 3, OPVER_PADDING_VALID, true },
		{ 2, 4, 9, 5, 1, 4, 4, 3, 2, 1, 2, OPVER_PADDING_SAME, false },
		{ 1, 10, 3, 3, 4, 5, 1, 2, 1, 2, 1, OPVER_PADDING_SAME, true },
		{ 0, 4, 4, 2, 1, 3, 3, 1, 1, 1, 1, OPVER_PADDING_SAME, true },
		{ 1, 3, 3, 2, 1, 3, 3, 1, 1, 3, 3, OPVER_PADDING_SAME, true },
	};

	return cr_make_param_array(struct dw_shape_case, cases, COUNT(cases));
}

/* Output size and padding before the first element, as TFLite gives
 * them. */
static void window(int32_t in, int32_t filter, int32_t stride,
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

/* A small integer in [-range, range], element i of an irregular
 * pattern. */
static int pattern(size_t i, size_t salt, int range)
{
	const size_t spread = (size_t)(2 * range + 1);

	return (int)((i * 7 + salt * 13 + i / 5) % spread) - range;
}

/*
 * The naive reference: for each output element, the sum over the window
 * of in * filter with points outside the input skipped, plus the bias.
 * Inputs are small integers, so float and int8 sums are exact and the
 * double result is the answer to the last bit.
 */
static void naive_depthwise(const struct dw_shape_case *c, const double *in,
			    const double *filter, const double *bias,
			    int32_t out_h, int32_t out_w, int32_t pad_h,
			    int32_t pad_w, double *out)
{
	const int32_t depth = c->channels * c->multiplier;
	size_t o = 0;

	for (int32_t b = 0; b < c->batches; b++)
	for (int32_t oy = 0; oy < out_h; oy++)
	for (int32_t ox = 0; ox < out_w; ox++)
	for (int32_t oc = 0; oc < depth; oc++) {
		const int32_t ic = oc / c->multiplier;
		double sum = bias[oc];

		for (int32_t ky = 0; ky < c->filter_height; ky++)
		for (int32_t kx = 0; kx < c->filter_width; kx++) {
			const int32_t y = oy * c->stride_height - pad_h +
					  ky * c->dilation_height;
			const int32_t x = ox * c->stride_width - pad_w +
					  kx * c->dilation_width;

			if (y < 0 || y >= c->height || x < 0 || x >= c->width)
				continue;
			sum += in[(((size_t)b * c->height + y) * c->width +
				   x) * c->channels + ic] *
			       filter[((size_t)ky * c->filter_width + kx) *
					      depth + oc];
		}
		out[o++] = sum;
	}
}

/*
 * Each shape through both kernels against the naive reference.  The int8
 * run uses scales whose rescale factor is exactly 1 (input 0.5, filter 2,
 * output 1) and an input zero point of 3, with values small enough that
 * no sum needs clamping: the output is sum + bias + output zero point.
 */
ParameterizedTest(struct dw_shape_case *c, dw_shapes,
		  float32_int8_and_uint8)
{
	const int32_t depth = c->channels * c->multiplier;
	const size_t n_in = (size_t)c->batches * c->height * c->width *
			    c->channels;
	const size_t n_f = (size_t)c->filter_height * c->filter_width * depth;
	int32_t out_h, out_w, pad_h, pad_w;
	size_t n_out;
	double *in_d, *f_d, *b_d, *want;
	float *in_f, *f_f, *b_f, *want_f;
	int8_t *in_q, *f_q, *want_q;
	int32_t *b_q;
	opver_tensor *in, *f, *b, *out;
	opver_depthwise_conv_params p = dw_params(c->padding);
	opver_node *node;

	window(c->height, c->filter_height, c->stride_height,
	       c->dilation_height, c->padding, &out_h, &pad_h);
	window(c->width, c->filter_width, c->stride_width, c->dilation_width,
	       c->padding, &out_w, &pad_w);
	n_out = (size_t)c->batches * out_h * out_w * depth;
	in_d = calloc(n_in + 1, sizeof(double));
	f_d = calloc(n_f, sizeof(double));
	b_d = calloc((size_t)depth, sizeof(double));
	want = calloc(n_out + 1, sizeof(double));
	in_f = calloc(n_in + 1, sizeof(float));
	f_f = calloc(n_f, sizeof(float));
	b_f = calloc((size_t)depth, sizeof(float));
	want_f = calloc(n_out + 1, sizeof(float));
	in_q = calloc(n_in + 1, 1);
	f_q = calloc(n_f, 1);
	b_q = calloc((size_t)depth, sizeof(int32_t));
	want_q = calloc(n_out + 1, 1);
	cr_assert(in_d && f_d && b_d && want && in_f && f_f && b_f &&
		  want_f && in_q && f_q && b_q && want_q);

	/* Real values: input in 0.5 steps of [-2, 2] (q - 3 in [-4, 4]),
	 * filter in steps of 2 of [-2, 2] (q in [-1, 1]), bias in [-3, 3]. */
	for (size_t i = 0; i < n_in; i++) {
		const int q = pattern(i, 1, 4);

		in_d[i] = 0.5 * q;
		in_f[i] = (float)in_d[i];
		in_q[i] = (int8_t)(q + 3);
	}
	for (size_t i = 0; i < n_f; i++) {
		const int q = pattern(i, 2, 1);

		f_d[i] = 2.0 * q;
		f_f[i] = (float)f_d[i];
		f_q[i] = (int8_t)q;
	}
	for (int32_t i = 0; i < depth; i++) {
		b_q[i] = c->bias ? pattern((size_t)i, 3, 3) : 0;
		b_d[i] = b_q[i];
		b_f[i] = (float)b_d[i];
	}
	naive_depthwise(c, in_d, f_d, b_d, out_h, out_w, pad_h, pad_w, want);
	for (size_t i = 0; i < n_out; i++) {
		/* at most 5 x 5 window points of 2 x 2, plus 3 */
		cr_assert(want[i] >= -120 && want[i] <= 120);
		want_f[i] = (float)want[i];
		want_q[i] = (int8_t)(want[i] - 5);
	}
	p.stride_height = c->stride_height;
	p.stride_width = c->stride_width;
	p.dilation_height = c->dilation_height;
	p.dilation_width = c->dilation_width;

	in = float_tensor("input",
			  KH_DIMS(c->batches, c->height, c->width,
				  c->channels),
			  in_f);
	f = float_tensor("filter",
			 KH_DIMS(1, c->filter_height, c->filter_width, depth),
			 f_f);
	b = c->bias ? float_tensor("bias", KH_DIMS(depth), b_f) : NULL;
	out = float_tensor("output", KH_DIMS(c->batches, out_h, out_w, depth),
			   NULL);
	node = dw_node(DW_FLOAT32, 2, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, want_f, n_out);

	in = int8_tensor("input",
			 KH_DIMS(c->batches, c->height, c->width,
				 c->channels),
			 in_q, 0.5f, 3);
	f = int8_tensor("filter",
			KH_DIMS(1, c->filter_height, c->filter_width, depth),
			f_q, 2.0f, 0);
	b = NULL;
	if (c->bias) {
		b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(depth),
			      b_q);
		kh_quantize(&h, b, 1.0f, 0);
	}
	out = int8_tensor("output", KH_DIMS(c->batches, out_h, out_w, depth),
			  NULL, 1.0f, -5);
	node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, want_q, n_out);

	/* uint8, TFLite's legacy quantization: the same real values with
	 * input zero point 123, filter zero point 128 and output zero point
	 * 128, so the same sums, in [8, 248]. */
	for (size_t i = 0; i < n_in; i++)
		((uint8_t *)in_q)[i] = (uint8_t)(in_q[i] + 120);
	for (size_t i = 0; i < n_f; i++)
		((uint8_t *)f_q)[i] = (uint8_t)(f_q[i] + 128);
	in = kh_tensor(&h, "input", OPVER_TYPE_UINT8,
		       KH_DIMS(c->batches, c->height, c->width, c->channels),
		       in_q);
	kh_quantize(&h, in, 0.5f, 123);
	f = kh_tensor(&h, "filter", OPVER_TYPE_UINT8,
		      KH_DIMS(1, c->filter_height, c->filter_width, depth),
		      f_q);
	kh_quantize(&h, f, 2.0f, 128);
	out = kh_tensor(&h, "output", OPVER_TYPE_UINT8,
			KH_DIMS(c->batches, out_h, out_w, depth), NULL);
	kh_quantize(&h, out, 1.0f, 128);
	node = dw_node(DW_UINT8, 1, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	for (size_t i = 0; i < n_out; i++)
		cr_expect_eq(((const uint8_t *)out->data)[i], want[i] + 128,
			     "element %zu: got %d, want %g", i,
			     ((const uint8_t *)out->data)[i], want[i] + 128);

	free(in_d);
	free(f_d);
	free(b_d);
	free(want);
	free(in_f);
	free(f_f);
	free(b_f);
	free(want_f);
	free(in_q);
	free(f_q);
	free(b_q);
	free(want_q);
}
