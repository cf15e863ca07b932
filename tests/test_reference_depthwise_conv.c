/*
 * test_reference_depthwise_conv.c - the reference plugin's DEPTHWISE_CONV_2D
 * kernels run from the built reference.so through the kernel harness:
 * padding, strides, dilation and depth multipliers on values worked out by
 * hand, random shapes against a naive reference written here, TFLite's
 * per-channel int8 rounding, what prepare rejects and what it says, and the
 * kernels' manifest entries.
 */
#include <stddef.h>
#include <stdlib.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "kernel_harness.h"

#define DW_FLOAT32 "depthwise_conv_2d_float32"
#define DW_INT8 "depthwise_conv_2d_int8"
#define DW_UINT8 "depthwise_conv_2d_uint8"
#define DW_INT16X8 "depthwise_conv_2d_int16x8"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

/* Parameters with stride 1, no dilation, M from the shapes. */
static opver_depthwise_conv_params dw_params(opver_padding padding)
{
	return (opver_depthwise_conv_params){
		.padding = padding,
		.stride_width = 1,
		.stride_height = 1,
		.activation = OPVER_ACTIVATION_NONE,
		.dilation_width = 1,
		.dilation_height = 1,
	};
}

/* A DEPTHWISE_CONV_2D node with the full current params struct. */
static opver_node *dw_node(const char *kernel, int32_t version,
			   const opver_depthwise_conv_params *params,
			   int32_t num_inputs, opver_tensor *const *inputs,
			   opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, params,
		       sizeof(*params), num_inputs, inputs, KH_TENSORS(output));
}

static opver_tensor *float_tensor(const char *name, int32_t rank,
				  const int32_t *dims, const float *data)
{
	return kh_tensor(&h, name, OPVER_TYPE_FLOAT32, rank, dims, data);
}

static opver_tensor *int8_tensor(const char *name, int32_t rank,
				 const int32_t *dims, const int8_t *data,
				 float scale, int64_t zero_point)
{
	opver_tensor *t =
		kh_tensor(&h, name, OPVER_TYPE_INT8, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

static void expect_floats(const opver_tensor *tensor, const float *want,
			  size_t count)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(got[i] == want[i],
			  "element %zu: got %.9g, want %.9g", i,
			  (double)got[i], (double)want[i]);
}

static void expect_int8s(const opver_tensor *tensor, const int8_t *want,
			 size_t count)
{
	const int8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

/* Prepare fails with `status` and exactly one message containing `text`. */
static void expect_rejected(opver_node *node, opver_status status,
			    const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

/* The 3x3 image 1..9, one channel. */
static const float image_3x3[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* ------------------------------------------------------------- float32 */

TestSuite(dw_float32, .init = setup, .fini = teardown);

Test(dw_float32, same_padding_odd_filter)
{
	/*
	 * SAME, 3x3 filter on 3x3: one pad on every side.  Filter taps
	 * (0,0) 100, (1,1) 1, (2,2) 10, so out(y, x) = 100 in(y-1, x-1) +
	 * in(y, x) + 10 in(y+1, x+1), zero outside:
	 *   row 0: 1 + 50, 2 + 60, 3
	 *   row 1: 4 + 80, 100 + 5 + 90, 200 + 6
	 *   row 2: 7, 400 + 8, 500 + 9
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (float[]){ 100, 0, 0, 0, 1, 0, 0, 0,
						  10 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 51, 62, 3, 84, 195, 206, 7, 408, 509 }, 9);
}

Test(dw_float32, same_padding_even_filter_pads_after)
{
	/*
	 * SAME, 2x2 filter on 3x3: total padding 1 per dimension, none
	 * before (TFLite puts the odd one after).  Filter (1, 10; 100,
	 * 1000): out(y, x) = in(y, x) + 10 in(y, x+1) + 100 in(y+1, x) +
	 * 1000 in(y+1, x+1):
	 *   (0,0) 1 + 20 + 400 + 5000    (0,1) 2 + 30 + 500 + 6000
	 *   (0,2) 3 + 600                (1,0) 4 + 50 + 700 + 8000
	 *   (1,1) 5 + 60 + 800 + 9000    (1,2) 6 + 900
	 *   (2,0) 7 + 80   (2,1) 8 + 90   (2,2) 9
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 5421, 6532, 603, 8754, 9865, 906, 87, 98, 9 },
		      9);
}

/* The 5x5 image in(y, x) = 5y + x, one channel. */
static const float image_5x5[] = {
	0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
	13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
};

Test(dw_float32, valid_stride_2)
{
	/*
	 * VALID, 3x3 filter, stride 2 on 5x5: (5 - 3 + 2) / 2 = 2 outputs
	 * per dimension, windows at 0 and 2.  Taps (0,0) 1, (1,1) 10,
	 * (2,2) 2: out = in(y, x) + 10 in(y+1, x+1) + 2 in(y+2, x+2):
	 *   (0,0) 0 + 60 + 24     (0,2) 2 + 80 + 28
	 *   (2,0) 10 + 160 + 44   (2,2) 12 + 180 + 48
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 5, 5, 1),
					image_5x5);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (float[]){ 1, 0, 0, 0, 10, 0, 0, 0, 2 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.stride_width = 2;
	p.stride_height = 2;
	node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 84, 110, 214, 240 }, 4);
}

Test(dw_float32, dilation_2)
{
	/*
	 * VALID, 2x2 filter (1, 10; 100, 1000) dilated by 2 spans 3x3, so
	 * 5x5 gives 3x3: out = in(y, x) + 10 in(y, x+2) + 100 in(y+2, x) +
	 * 1000 in(y+2, x+2).  (0,0) = 0 + 20 + 1000 + 12000 = 13020; each
	 * step right adds 1 + 10 + 100 + 1000 = 1111, each step down 5555.
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 5, 5, 1),
					image_5x5);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.dilation_width = 2;
	p.dilation_height = 2;
	node = dw_node(DW_FLOAT32, 2, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 13020, 14131, 15242, 18575, 19686, 20797,
				 24130, 25241, 26352 },
		      9);
}

Test(dw_float32, dilation_2_with_same_padding)
{
	/*
	 * SAME, 2x2 filter dilated by 2 (spanning 3) on 3x3: 3 outputs,
	 * total padding 2, one before.  out(y, x) = in(y-1, x-1) +
	 * 10 in(y-1, x+1) + 100 in(y+1, x-1) + 1000 in(y+1, x+1):
	 *   (0,0) 1000 * 5        (0,1) 100 * 4 + 1000 * 6   (0,2) 100 * 5
	 *   (1,0) 10 * 2 + 1000 * 8    (1,1) 1 + 30 + 700 + 9000
	 *   (1,2) 2 + 800         (2,0) 10 * 5   (2,1) 4 + 60   (2,2) 5
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node;

	p.dilation_width = 2;
	p.dilation_height = 2;
	node = dw_node(DW_FLOAT32, 2, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ 5000, 6400, 500, 8020, 9731, 802, 50, 64, 5 },
		      9);
}

Test(dw_float32, depth_multiplier_2_with_bias)
{
	/*
	 * Input [1, 2, 1, 2]: pixel 0 (1, 2), pixel 1 (3, 4).  Filter
	 * [1, 2, 1, 4], M = 2, output channel c * 2 + m; tap 0 (1, 2, 3, 4),
	 * tap 1 (5, 6, 7, 8).  VALID gives one pixel:
	 *   channel 0 (c 0, m 0): 1 * 1 + 3 * 5 = 16, + 0.5
	 *   channel 1 (c 0, m 1): 1 * 2 + 3 * 6 = 20, - 1
	 *   channel 2 (c 1, m 0): 2 * 3 + 4 * 7 = 34, + 0
	 *   channel 3 (c 1, m 1): 2 * 4 + 4 * 8 = 40, + 2
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 2, 1, 2),
					(float[]){ 1, 2, 3, 4 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 1, 4),
				       (float[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
	opver_tensor *b = float_tensor("bias", KH_DIMS(4),
				       (float[]){ 0.5f, -1, 0, 2 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 4), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.depth_multiplier = 2;
	node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 16.5f, 19, 34, 42 }, 4);
}

Test(dw_float32, batches_are_independent)
{
	/* 1x1 filter (2, -1), bias (1, 0): batch 0 (3, 4) gives (7, -4),
	 * batch 1 (-1, 0.5) gives (-1, -0.5). */
	opver_tensor *in = float_tensor("input", KH_DIMS(2, 1, 1, 2),
					(float[]){ 3, 4, -1, 0.5f });
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 1, 1, 2),
				       (float[]){ 2, -1 });
	opver_tensor *b = float_tensor("bias", KH_DIMS(2), (float[]){ 1, 0 });
	opver_tensor *out = float_tensor("output", KH_DIMS(2, 1, 1, 2), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f, b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 7, -4, -1, -0.5f }, 4);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(dw_float32, activations)
{
	/* Five channels, 1x1 filter of ones: outputs before the
	 * activation are the inputs -2.5, -0.5, 0.5, 3, 7. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, dw_float32, activations)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 5),
					(float[]){ -2.5f, -0.5f, 0.5f, 3, 7 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 1, 1, 5),
				       (float[]){ 1, 1, 1, 1, 1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 5), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.activation = c->activation;
	node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, c->expected, 5);
}

/* A model older than dilation fills only the prefix before it; the harness
 * copies exactly that many bytes, and dilation must then act as 1. */
Test(dw_float32, reads_only_the_filled_params_prefix)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       (float[]){ 1, 10, 100, 1000 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.dilation_width = 2;
	p.dilation_height = 2;
	node = kh_node(&h, kh_kernel(&h, DW_FLOAT32), 1, &p,
		       offsetof(opver_depthwise_conv_params, dilation_width),
		       KH_TENSORS(in, f), KH_TENSORS(out));
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* undilated: (0,0) 1 + 20 + 400 + 5000, then as in the SAME test */
	expect_floats(out, (float[]){ 5421, 6532, 8754, 9865 }, 4);
}

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

/* ----------------------------------------------------------------- int8 */

TestSuite(dw_int8, .init = setup, .fini = teardown);

/*
 * Two channels, 2x2 input, 2x2 filter, VALID: one output pixel.
 * Input scale 0.5, zero point 1; output scale 1, zero point -3.
 * Filter per channel along dimension 3: scales 0.25 and 1.5, so the
 * rescales are 0.5 * 0.25 = 0.125 (2^30, shift -2) and 0.5 * 1.5 = 0.75
 * (1610612736, shift 0).
 *   channel 0: (q - 1) = (2, 4, -2, 0), filter (1, 2, 3, -4):
 *     2 + 8 - 6 + 0 = 4, + bias 7 = 11.  TFLite rounds twice:
 *     11 * 2^30 * 2 / 2^32 = 5.5 -> 6 (ties up), 6 / 4 = 1.5 -> 2 (ties
 *     away); once it would be 1.375 -> 1.  2 - 3 = -1.
 *   channel 1: (q - 1) = (1, -1, 3, 6), filter (3, -2, 1, 2):
 *     3 + 2 + 3 + 12 = 20, + bias -30 = -10.  -10 * 0.75 = -7.5 -> -7
 *     (ties toward +infinity), shift 0.  -7 - 3 = -10.
 */
static opver_node *per_channel_node(opver_activation activation,
				    opver_tensor **output)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 2, 2, 2),
				       (int8_t[]){ 3, 2, 5, 0, -1, 4, 1, 7 },
				       0.5f, 1);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 2, 2, 2),
				    (int8_t[]){ 1, 3, 2, -2, 3, 1, -4, 2 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 7, -30 });
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	*output = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL, 1.0f, -3);
	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 0.25f, 1.5f },
				(int64_t[]){ 0, 0 });
	kh_quantize_per_channel(&h, b, 0, 2, (float[]){ 0.125f, 0.75f },
				(int64_t[]){ 0, 0 });
	p.activation = activation;
	return dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), *output);
}

Test(dw_int8, per_channel_scales_round_as_tflite)
{
	opver_tensor *out;
	opver_node *node = per_channel_node(OPVER_ACTIVATION_NONE, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -1, -10 }, 2);
}

Test(dw_int8, per_channel_with_relu)
{
	/* RELU clamps at the output zero point, -3. */
	opver_tensor *out;
	opver_node *node = per_channel_node(OPVER_ACTIVATION_RELU, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -1, -3 }, 2);
}

struct int8_activation_case {
	opver_activation activation;
	int8_t expected[4];
};

ParameterizedTestParameters(dw_int8, activations)
{
	/*
	 * Real outputs -1, 2, 5, 7 (inputs times a filter of ones) at output
	 * scale 0.125, zero point -20 are q -28, -4, 20, 36.  RELU clamps to
	 * [-20, 127]; RELU6 to [-20, 28]; RELU_N1_TO_1 to [-28, -12].
	 */
	static struct int8_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -28, -4, 20, 36 } },
		{ OPVER_ACTIVATION_RELU, { -20, -4, 20, 36 } },
		{ OPVER_ACTIVATION_RELU6, { -20, -4, 20, 28 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -28, -12, -12, -12 } },
	};

	return cr_make_param_array(struct int8_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct int8_activation_case *c, dw_int8, activations)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 4),
				       (int8_t[]){ -1, 2, 5, 7 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 4),
				      (int8_t[]){ 1, 1, 1, 1 }, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 4), NULL,
					0.125f, -20);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.activation = c->activation;
	node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, c->expected, 4);
}

Test(dw_int8, saturates_at_the_type_edges)
{
	/* All scales 1: 127 * 2 = 254 -> 127; -128 * 2 = -256 -> -128. */
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2),
				       (int8_t[]){ 127, -128 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 2),
				      (int8_t[]){ 2, 2 }, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 127, -128 }, 2);
}

/*
 * A hostile bias: the sum plus the bias leaves int32.  TFLite adds them in
 * an int32 accumulator; the kernel adds modulo 2^32, which is what that
 * accumulator holds on every target, without signed overflow (UBSan runs
 * this).  Output scale 2: multiplier 0.5, no left shift.
 *   channel 0: 1 * 1 + INT32_MAX wraps to INT32_MIN -> -2^30 -> -128
 *   channel 1: -1 * 1 + INT32_MIN wraps to INT32_MAX -> 2^30 -> 127
 * (without wrapping, 64-bit sums would give 127 and -128).
 */
Test(dw_int8, sum_plus_bias_wraps_as_an_int32_accumulator)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2),
				       (int8_t[]){ 1, -1 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 2),
				      (int8_t[]){ 1, 1 }, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ INT32_MAX, INT32_MIN });
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					2.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -128, 127 }, 2);
}

Test(dw_int8, padding_contributes_nothing_despite_the_zero_point)
{
	/*
	 * SAME 3x3 filter of ones on a 1x1 input q 10, zero point 10 (real
	 * 0): only the centre is inside, so the sum is (10 - 10) * 1 = 0.
	 * Padding taken as q 0 would give 8 * (0 - 10) = -80 instead.
	 * Output zero point 4.
	 */
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 1),
				       (int8_t[]){ 10 }, 1.0f, 10);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 3, 3, 1),
				      (int8_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 },
				      1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 1), NULL,
					1.0f, 4);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 4 }, 1);
}

/* person_detect quantizes its 1-D biases "per channel" along dimension 3;
 * TFLite ignores a bias's quantization and so must we. */
Test(dw_int8, ignores_the_bias_quantization)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2),
				       (int8_t[]){ 1, 2 }, 1.0f, 0);
	opver_tensor *f = int8_tensor("filter", KH_DIMS(1, 1, 1, 2),
				      (int8_t[]){ 3, 4 }, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 10, -20 });
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	kh_quantize_per_channel(&h, b, 3, 2, (float[]){ 7.0f, 9.0f },
				(int64_t[]){ 0, 0 });
	node = dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* 1 * 3 + 10, 2 * 4 - 20 */
	expect_int8s(out, (int8_t[]){ 13, -12 }, 2);
}

/* ---------------------------------------------------------------- uint8 */

TestSuite(dw_uint8, .init = setup, .fini = teardown);

static opver_tensor *uint8_tensor(const char *name, int32_t rank,
				  const int32_t *dims, const uint8_t *data,
				  float scale, int64_t zero_point)
{
	opver_tensor *t =
		kh_tensor(&h, name, OPVER_TYPE_UINT8, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

Test(dw_uint8, padding_contributes_nothing_and_the_filter_zero_point_counts)
{
	/*
	 * SAME 3x3 filter on a 1x1 input q 140, zero point 130 (10): only
	 * the centre tap, q 133 at zero point 128 (5), lands inside: 50.
	 * Scales input 0.5, filter 2, bias 1, output 1: the rescale is 1.
	 * 50 + bias 7 + output zero point 60 = 117.  Padding read as q 0 would
	 * add 8 x (0 - 130) x 2 more; ignoring the filter zero point would
	 * give 10 x 133.
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1, 1, 1),
					(uint8_t[]){ 140 }, 0.5f, 130);
	opver_tensor *f = uint8_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (uint8_t[]){ 1, 2, 3, 4, 133, 6, 7, 8,
						    9 },
				       2.0f, 128);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(1),
				    (int32_t[]){ 7 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 1, 1, 1), NULL,
					 1.0f, 60);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_node *node;

	kh_quantize(&h, b, 1.0f, 0);
	node = dw_node(DW_UINT8, 1, &p, KH_TENSORS(in, f, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	cr_expect_eq(((const uint8_t *)out->data)[0], 117);
}

Test(dw_uint8, multiplier_2_with_relu6_and_rounding)
{
	/*
	 * Two input channels q (12, 8) at zero point 10: (2, -2); filter
	 * scale 0.25 and zero point 100, q (104, 96, 101, 110): output
	 * channels 0, 1 read channel 0 with (4, -4), 2, 3 read channel 1
	 * with (1, 10).  Sums 8, -8, -2, -20; input scale 0.5 x 0.25 over
	 * output scale 0.25 is 0.5: 4, -4, -1, -10 (exact), + zero point
	 * 20 = 24, 16, 19, 10; RELU6 clamps to [20, 20 + 24 = 44].
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1, 1, 2),
					(uint8_t[]){ 12, 8 }, 0.5f, 10);
	opver_tensor *f = uint8_tensor("filter", KH_DIMS(1, 1, 1, 4),
				       (uint8_t[]){ 104, 96, 101, 110 }, 0.25f,
				       100);
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 1, 1, 4), NULL,
					 0.25f, 20);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	static const uint8_t want[] = { 24, 20, 20, 20 };
	opver_node *node;

	p.activation = OPVER_ACTIVATION_RELU6;
	node = dw_node(DW_UINT8, 1, &p, KH_TENSORS(in, f), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(((const uint8_t *)out->data)[i], want[i],
			     "element %d", i);
}

Test(dw_uint8, rejects_a_per_channel_filter)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1, 1, 2),
					(uint8_t[]){ 1, 2 }, 1.0f, 0);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_UINT8,
				    KH_DIMS(1, 1, 1, 2), (uint8_t[]){ 3, 4 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					 1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 1.0f, 2.0f },
				(int64_t[]){ 0, 0 });
	expect_rejected(dw_node(DW_UINT8, 1, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_UNSUPPORTED, "filter");
}

/* ------------------------------------------------------ prepare rejects */

TestSuite(dw_prepare, .init = setup, .fini = teardown);

struct multiplier_option_case {
	int32_t option;
	opver_status status;
};

ParameterizedTestParameters(dw_prepare, depth_multiplier_option)
{
	/* The filter gives M = 2.  0 (written by some converters) and 2
	 * are accepted; anything else contradicts the shapes. */
	static struct multiplier_option_case cases[] = {
		{ 0, OPVER_OK },
		{ 2, OPVER_OK },
		{ 1, OPVER_ERROR_INVALID_MODEL },
		{ 4, OPVER_ERROR_INVALID_MODEL },
		{ -2, OPVER_ERROR_INVALID_MODEL },
	};

	return cr_make_param_array(struct multiplier_option_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct multiplier_option_case *c, dw_prepare,
		  depth_multiplier_option)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 2, 2, 3), NULL);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 6), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 6), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);
	opver_node *node;

	p.depth_multiplier = c->option;
	node = dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out);
	if (c->status == OPVER_OK) {
		cr_expect_eq(kh_prepare(&h, node), OPVER_OK, "%s", h.errors);
		return;
	}
	expect_rejected(node, c->status, "but filter 'filter' gives each of "
			"the 3 input channels 2 output channels");
}

/* A float32 node: 1x3x3x2 input, the given filter shape, parameters and
 * output shape. */
static opver_node *float_node(const opver_depthwise_conv_params *p,
			      int32_t f_rank, const int32_t *f_dims,
			      int32_t out_rank, const int32_t *out_dims,
			      opver_tensor *bias)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 2), NULL);
	opver_tensor *f = float_tensor("filter", f_rank, f_dims, NULL);
	opver_tensor *out = float_tensor("output", out_rank, out_dims, NULL);

	return dw_node(DW_FLOAT32, 1, p, KH_TENSORS(in, f, bias), out);
}

Test(dw_prepare, accepts_a_valid_node)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	cr_expect_eq(kh_prepare(&h, float_node(&p, KH_DIMS(1, 3, 3, 2),
					       KH_DIMS(1, 3, 3, 2), NULL)),
		     OPVER_OK, "%s", h.errors);
}

Test(dw_prepare, rejects_a_filter_with_a_leading_dimension)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	expect_rejected(float_node(&p, KH_DIMS(2, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' must have shape [1, height, width, channels]");
}

Test(dw_prepare, rejects_a_filter_of_rank_3)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	expect_rejected(float_node(&p, KH_DIMS(3, 3, 2), KH_DIMS(1, 3, 3, 2),
				   NULL),
			OPVER_ERROR_INVALID_MODEL,
			"must have shape [1, height, width, channels] with all positive (rank 3)");
}

Test(dw_prepare, rejects_filter_channels_not_a_multiple_of_the_input)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 3),
				   KH_DIMS(1, 3, 3, 3), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has 3 channels; they must be a multiple of the 2 channels of input 'input'");
}

Test(dw_prepare, rejects_a_zero_stride)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	p.stride_height = 0;
	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"height: input 3, filter 3, stride 0 and dilation 1 must all be positive");
}

Test(dw_prepare, rejects_a_negative_dilation)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	p.dilation_width = -1;
	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"width: input 3, filter 3, stride 1 and dilation -1 must all be positive");
}

Test(dw_prepare, rejects_a_dilation_past_int32)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	/* (3 - 1) * 2^30 + 1 elements */
	p.dilation_width = 1 << 30;
	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"width: a filter of 3 with dilation 1073741824 spans 2147483649 elements");
}

Test(dw_prepare, rejects_a_filter_larger_than_a_valid_input)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	expect_rejected(float_node(&p, KH_DIMS(1, 4, 3, 2),
				   KH_DIMS(1, 1, 1, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"height: a filter spanning 4 elements does not fit the input's 3 with VALID padding");
}

Test(dw_prepare, rejects_an_unknown_padding)
{
	opver_depthwise_conv_params p = dw_params((opver_padding)5);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"padding 5 is neither SAME nor VALID");
}

Test(dw_prepare, rejects_a_wrong_output_shape)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has shape [1, 3, 3, 2]; the input, filter and parameters give [1, 1, 1, 2]");
}

Test(dw_prepare, rejects_an_output_of_rank_3)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2), KH_DIMS(1, 1, 2),
				   NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has rank 3; it must have rank 4");
}

Test(dw_prepare, rejects_a_bias_of_the_wrong_size)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);
	opver_tensor *b = float_tensor("bias", KH_DIMS(3), NULL);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), b),
			OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has 3 elements; the filter has 2 channels");
}

Test(dw_prepare, rejects_a_fused_tanh)
{
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	p.activation = OPVER_ACTIVATION_TANH;
	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(1, 3, 3, 2), NULL),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}

Test(dw_prepare, rejects_a_wrong_number_of_inputs)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 2), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 2), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	expect_rejected(dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"has 1 inputs and 1 outputs; DEPTHWISE_CONV_2D takes input, filter, an optional bias and one output");
}

Test(dw_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 3, 3, 2), NULL,
				       1.0f, 0);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 2), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 2), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	expect_rejected(dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' has type INT8; this kernel takes FLOAT32");
}

Test(dw_prepare, rejects_an_input_of_rank_3)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(3, 3, 2), NULL);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 2), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 2), NULL);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	expect_rejected(dw_node(DW_FLOAT32, 1, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has rank 3; it must have rank 4");
}

/* An int8 node, 1x2x2x2 input, 1x1 filter, with the filter's quantization
 * set by the caller. */
static opver_node *int8_node(opver_tensor *filter)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 2, 2, 2), NULL,
				       1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2, 2, 2), NULL,
					1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	return dw_node(DW_INT8, 3, &p, KH_TENSORS(in, filter), out);
}

static opver_tensor *int8_filter(void)
{
	return kh_tensor(&h, "filter", OPVER_TYPE_INT8, KH_DIMS(1, 1, 1, 2),
			 NULL);
}

Test(dw_prepare, rejects_a_scale_count_that_is_not_the_channels)
{
	opver_tensor *f = int8_filter();

	kh_quantize_per_channel(&h, f, 3, 3, (float[]){ 1, 1, 1 },
				(int64_t[]){ 0, 0, 0 });
	expect_rejected(int8_node(f), OPVER_ERROR_UNSUPPORTED,
			"filter 'filter' has 3 scales along axis 3; it needs one scale, or 2 along axis 3");
}

Test(dw_prepare, rejects_per_channel_scales_along_another_axis)
{
	opver_tensor *f = int8_filter();

	kh_quantize_per_channel(&h, f, 0, 2, (float[]){ 1, 1 },
				(int64_t[]){ 0, 0 });
	expect_rejected(int8_node(f), OPVER_ERROR_UNSUPPORTED,
			"filter 'filter' has 2 scales along axis 0; it needs one scale, or 2 along axis 3");
}

Test(dw_prepare, rejects_an_asymmetric_filter)
{
	opver_tensor *f = int8_filter();

	kh_quantize(&h, f, 1.0f, 2);
	expect_rejected(int8_node(f), OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has zero point 2; this kernel takes only symmetric filters (zero point 0)");
}

Test(dw_prepare, rejects_a_negative_channel_scale)
{
	opver_tensor *f = int8_filter();

	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 1, -1 },
				(int64_t[]){ 0, 0 });
	expect_rejected(int8_node(f), OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has scale -1 for channel 1; a scale must be finite and positive");
}

Test(dw_prepare, rejects_an_unquantized_filter)
{
	expect_rejected(int8_node(int8_filter()), OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has 0 scales along axis 0");
}

Test(dw_prepare, rejects_an_unquantized_int8_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 2, 2, 2), NULL);
	opver_tensor *f = int8_filter();
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2, 2, 2), NULL,
					1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	kh_quantize(&h, f, 1.0f, 0);
	expect_rejected(dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is not quantized");
}

Test(dw_prepare, rejects_a_rescale_factor_of_2_to_the_31)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2), NULL,
				       0x1p20f, 0);
	opver_tensor *f = int8_filter();
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					0x1p-20f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	/* channel 1: 2^20 * 2^20 / 2^-20 = 2^60 */
	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 0x1p-60f, 0x1p20f },
				(int64_t[]){ 0, 0 });
	expect_rejected(dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_INVALID_MODEL,
			"channel 1: input scale x filter scale / output scale is 1.15292e+18; a rescale factor must be finite, not negative and below 2^30");
}

Test(dw_prepare, rejects_a_float_bias_on_int8)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 1, 1, 2), NULL,
				       1.0f, 0);
	opver_tensor *f = int8_filter();
	opver_tensor *b = float_tensor("bias", KH_DIMS(2), NULL);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 1, 1, 2), NULL,
					1.0f, 0);
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_SAME);

	kh_quantize(&h, f, 1.0f, 0);
	expect_rejected(dw_node(DW_INT8, 3, &p, KH_TENSORS(in, f, b), out),
			OPVER_ERROR_UNSUPPORTED,
			"bias 'bias' has type FLOAT32; this kernel takes INT32");
}

/* ------------------------------------------------------------- manifest */

TestSuite(dw_manifest, .init = setup, .fini = teardown);

struct kernel_case {
	char name[32];
	opver_type data;
	opver_type filter;
	opver_type bias;
};

ParameterizedTestParameters(dw_manifest, entries)
{
	static struct kernel_case cases[] = {
		{ DW_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  OPVER_TYPE_FLOAT32 },
		{ DW_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT32 },
		{ DW_INT16X8, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT64 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, dw_manifest, entries)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, OPVER_OP_DEPTHWISE_CONV_2D);
	cr_expect_null(k->custom_name);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, 7, "2 (dilation) and 3 (int8) are "
		     "implemented; 4-7 only add other types");
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_expect_null(k->init);
	cr_expect_null(k->free);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->data));
	cr_expect_eq(s->inputs[1], OPVER_TYPE_BIT(c->filter));
	cr_expect_eq(s->inputs[2],
		     OPVER_TYPE_BIT(c->bias) | OPVER_TYPE_BIT_ABSENT);
	cr_expect_eq(s->inputs[3], 0);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->data));
}

/* ------------------------------------------------------------- int16x8 */
TestSuite(dw_int16x8, .init = setup, .fini = teardown);

/*
 * Two channels, a 1x2 input and a 1x2 filter, VALID: one output pixel.
 * Input scale 0.5, filter scales 1 and 0.5 per channel, output scale 1:
 * rescales 0.5 and 0.25, exact in the wide arithmetic's Q0.15 multiplier,
 * which rounds halves toward +infinity.
 *   channel 0: 1000 * 3 + -20 * 100 = 1000, + bias 5 = 1005;
 *     x 0.5 = 502.5 -> 503
 *   channel 1: -300 * -5 + 7 * 127 = 2389, + bias -3000 = -611;
 *     x 0.25 = -152.75 -> -153
 * A bias of 2^31 (beyond int32, where it would wrap negative) gives
 * channel 0 2^30 + 503 and saturates it at 32767.
 */
static opver_node *int16x8_node(int64_t bias0, int64_t input_zero,
				opver_tensor **output)
{
	opver_tensor *in = kh_quantized(&h, "input", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 2, 2),
					(int16_t[]){ 1000, -300, -20, 7 },
					0.5f, input_zero);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 1, 2, 2),
				    (int8_t[]){ 3, -5, 100, 127 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT64, KH_DIMS(2),
				    (int64_t[]){ bias0, -3000 });
	opver_depthwise_conv_params p = dw_params(OPVER_PADDING_VALID);

	*output = kh_quantized(&h, "output", OPVER_TYPE_INT16,
			       KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 1.0f, 0.5f },
				(int64_t[]){ 0, 0 });
	return dw_node(DW_INT16X8, 3, &p, KH_TENSORS(in, f, b), *output);
}

Test(dw_int16x8, per_channel_sums_in_int64_and_rescales_wide)
{
	opver_tensor *out;
	opver_node *node = int16x8_node(5, 0, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 503, -153 }, 2);
}

Test(dw_int16x8, int64_bias_saturates)
{
	opver_tensor *out;
	opver_node *node = int16x8_node(INT64_C(1) << 31, 0, &out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 32767, -153 }, 2);
}

Test(dw_int16x8, rejects_an_input_zero_point)
{
	opver_tensor *out;

	expect_rejected(int16x8_node(5, 3, &out), OPVER_ERROR_INVALID_MODEL,
			"int16 activations must have zero point 0");
}
