/*
 * test_reference_conv.c - the reference plugin's CONV_2D kernels run from
 * the built reference.so through the kernel harness: padding, strides,
 * dilation, groups, activations and batches checked against values worked
 * out by hand, many shapes against a naive double-precision convolution
 * written here, TFLite's quantized rounding per tensor and per channel, the
 * hybrid kernel's on-the-fly quantization, the 16x8 kernel's two bias
 * widths, and what prepare rejects and what it says.
 */
#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "kernel_harness.h"
#include "../plugins/reference/hybrid.h"
#include "../plugins/reference/quantization.h"

#define CONV_FLOAT32 "conv_2d_float32"
#define CONV_INT8 "conv_2d_int8"
#define CONV_HYBRID "conv_2d_hybrid"
#define CONV_INT16X8 "conv_2d_int16x8"
#define CONV_UINT8 "conv_2d_uint8"
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

/* Parameters with the same stride and dilation in both dimensions. */
static opver_conv_params conv_params(opver_padding padding, int32_t stride,
				     int32_t dilation,
				     opver_activation activation)
{
	return (opver_conv_params){
		.padding = padding,
		.stride_width = stride,
		.stride_height = stride,
		.activation = activation,
		.dilation_width = dilation,
		.dilation_height = dilation,
	};
}

/* A CONV_2D node with the full current params struct. */
static opver_node *conv_node(const char *kernel, int32_t version,
			     const opver_conv_params *params,
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

/* A tensor quantized per tensor. */
static opver_tensor *quantized(const char *name, opver_type type,
			       int32_t rank, const int32_t *dims,
			       const void *data, float scale,
			       int64_t zero_point)
{
	opver_tensor *t = kh_tensor(&h, name, type, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

/* An int8 filter quantized per channel along axis 0, symmetric. */
static opver_tensor *per_channel_filter(int32_t rank, const int32_t *dims,
					const int8_t *data,
					const float *scales)
{
	opver_tensor *t = kh_tensor(&h, "filter", OPVER_TYPE_INT8, rank, dims,
				    data);
	int64_t zero_points[64] = { 0 };

	cr_assert_leq(dims[0], (int32_t)COUNT(zero_points));
	kh_quantize_per_channel(&h, t, 0, dims[0], scales, zero_points);
	return t;
}

static void expect_floats(const opver_tensor *tensor, const float *want,
			  size_t count)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(got[i] == want[i], "element %zu: got %g, want %g", i,
			  (double)got[i], (double)want[i]);
}

static void expect_floats_near(const opver_tensor *tensor, const float *want,
			       size_t count, double tolerance)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(fabs((double)got[i] - (double)want[i]) <= tolerance,
			  "element %zu: got %.9g, want %.9g within %g", i,
			  (double)got[i], (double)want[i], tolerance);
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

static void expect_int16s(const opver_tensor *tensor, const int16_t *want,
			  size_t count)
{
	const int16_t *got = tensor->data;

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

/* ------------------------------------------------ the 64-bit rescale */

Test(quantization, multiply_by_quantized_multiplier_int64)
{
	/* 0.005 is 1374389504 * 2^-7 / 2^31; reduced to Q0.15 it is
	 * (1374389504 + 2^15) >> 16 = 20972, shifted by 15 + 7 = 22:
	 * (150000 * 20972 + 2^21) >> 22 = 3147897152 >> 22 = 750. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     150000, 1374389504, -7),
		     750);
	/* The reduced multiplier is coarser than the 32-bit one:
	 * 6000000 * 20972 / 2^22 = 30000.69 rounds to 30001, not 30000. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     6000000, 1374389504, -7),
		     30001);
	cr_expect_eq(ref_multiply_by_quantized_multiplier(6000000, 1374389504,
							  -7),
		     30000);
	/* 0.5 is 2^30 with shift 0, reduced to 2^14, shifted by 15: one
	 * rounding, ties toward +infinity: 1.5 -> 2, -1.5 -> -1, 2.5 -> 3,
	 * -2.5 -> -2. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(3, 1 << 30, 0),
		     2);
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(-3, 1 << 30, 0),
		     -1);
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(5, 1 << 30, 0),
		     3);
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(-5, 1 << 30, 0),
		     -2);
	/* A multiplier of 0x7FFF0000 or more saturates to 2^15 - 1 instead
	 * of rounding up to 2^15: 2^15 * 32767 / 2^15 = 32767 (+0.5 floors
	 * away), where 2^15 would give 32768. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     1 << 15, INT32_MAX, 0),
		     32767);
	/* Inputs beyond 32 bits: 2^40 * 2^14 / 2^25 = 2^29. */
	cr_expect_eq(ref_multiply_by_quantized_multiplier_int64(
			     INT64_C(1) << 40, 1 << 30, -10),
		     1 << 29);
}

Test(quantization, asymmetric_quantization_rounds_as_tflite)
{
	/*
	 * [-4, 4] onto [-128, 127]: step 8/255; zero point -128 + 127.5 or
	 * 127 - 127.5, both -0.5, from the max (error 254.5 < 255.5), rounded
	 * away from zero to -1.  TFLite multiplies by the float reciprocal of
	 * the float scale, 31.8749981: 4 gives 127.499992 - 1 -> 126 (exact
	 * arithmetic would make it the tie 126.5 -> 127); -4 gives
	 * -128.499992 -> -128.
	 */
	int8_t q[2];
	float scale;
	int32_t zero_point;

	ref_quantize_floats_asymmetric((float[]){ -4, 4 }, 2, q, &scale,
				       &zero_point);
	cr_expect_eq(zero_point, -1);
	cr_expect(scale == 8.0f / 255.0f, "scale %.9g", (double)scale);
	cr_expect_eq(q[0], -128);
	cr_expect_eq(q[1], 126);
}

/* -------------------------------------------------------------- float32 */

TestSuite(conv_float32, .init = setup, .fini = teardown);

/* The 3 x 3 image 1..9 and the 2 x 2 filter (1 2 / 3 4), single channel. */
static const float image_3x3[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const float filter_2x2[] = { 1, 2, 3, 4 };

Test(conv_float32, valid_padding_with_bias)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *b = float_tensor("bias", KH_DIMS(1), (float[]){ 0.5f });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	/* (0,0): 1*1 + 2*2 + 4*3 + 5*4 = 37; (0,1): 2 + 6 + 15 + 24 = 47;
	 * (1,0): 4 + 10 + 21 + 32 = 67;   (1,1): 5 + 12 + 24 + 36 = 77;
	 * each + 0.5 */
	expect_floats(out, (float[]){ 37.5f, 47.5f, 67.5f, 77.5f }, 4);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_float32, same_padding_even_total)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
				       (float[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Total padding (3-1)*1 + 3 - 3 = 2: one row and column each side;
	 * each output sums the 3 x 3 neighbourhood inside the image:
	 * corners 1+2+4+5 = 12, 2+3+5+6 = 16, 4+5+7+8 = 24, 5+6+8+9 = 28;
	 * edges 1..6 = 21, 27 (1+2+4+5+7+8), 33 (2+3+5+6+8+9), 39 (4..9);
	 * centre 45. */
	expect_floats(out, (float[]){ 12, 21, 16, 27, 45, 33, 24, 39, 28 }, 9);
}

Test(conv_float32, same_padding_odd_total_pads_after)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Total padding 2*1 + 2 - 3 = 1, all of it after: out(y,x) =
	 * in(y,x) + 2 in(y,x+1) + 3 in(y+1,x) + 4 in(y+1,x+1), zero outside.
	 * Row 0: 37, 47, 3 + 3*6 = 21; row 1: 67, 77, 6 + 3*9 = 33;
	 * row 2: 7 + 2*8 = 23, 8 + 2*9 = 26, 9. */
	expect_floats(out, (float[]){ 37, 47, 21, 67, 77, 33, 23, 26, 9 }, 9);
}

Test(conv_float32, stride_2_same)
{
	float image[16];
	opver_tensor *in, *f, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 2, 1, OPVER_ACTIVATION_NONE);

	for (int i = 0; i < 16; i++)
		image[i] = (float)(i + 1);
	in = float_tensor("input", KH_DIMS(1, 4, 4, 1), image);
	f = float_tensor("filter", KH_DIMS(1, 3, 3, 1),
			 (float[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 });
	out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* 2 outputs per side; total padding (2-1)*2 + 3 - 4 = 1, after.
	 * Windows rows/cols {0,1,2} and {2,3}:
	 * (1+2+3) + (5+6+7) + (9+10+11) = 54; (3+4) + (7+8) + (11+12) = 45;
	 * (9+10+11) + (13+14+15) = 72; 11 + 12 + 15 + 16 = 54. */
	expect_floats(out, (float[]){ 54, 45, 72, 54 }, 4);
}

Test(conv_float32, strides_apply_to_their_own_dimension)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 1, 1, 1),
				       (float[]){ 1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	p.stride_height = 2;
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Rows 0 and 2, every column. */
	expect_floats(out, (float[]){ 1, 2, 3, 7, 8, 9 }, 6);
}

Test(conv_float32, dilation_2_valid)
{
	float image[25];
	opver_tensor *in, *f, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 2, OPVER_ACTIVATION_NONE);

	for (int i = 0; i < 25; i++)
		image[i] = (float)(i + 1);
	in = float_tensor("input", KH_DIMS(1, 5, 5, 1), image);
	f = float_tensor("filter", KH_DIMS(1, 2, 2, 1), filter_2x2);
	out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* The filter spans 3 x 3: with v = in(y,x) = 5y + x + 1,
	 * v + 2 in(y,x+2) + 3 in(y+2,x) + 4 in(y+2,x+2)
	 * = v + 2(v+2) + 3(v+10) + 4(v+12) = 10v + 82. */
	expect_floats(out,
		      (float[]){ 92, 102, 112, 142, 152, 162, 192, 202, 212 },
		      9);
}

Test(conv_float32, dilation_in_height_only_with_same_padding)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	p.dilation_height = 2;
	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* Height: the filter spans 3, total padding 2, one row before.
	 * Width: spans 2, total padding 1, after.  out(y,x) =
	 * in(y-1,x) + 2 in(y-1,x+1) + 3 in(y+1,x) + 4 in(y+1,x+1):
	 * row 0: 3*4 + 4*5 = 32, 3*5 + 4*6 = 39, 3*6 = 18;
	 * row 1: 1 + 4 + 21 + 32 = 58, 2 + 6 + 24 + 36 = 68, 3 + 27 = 30;
	 * row 2: 4 + 10 = 14, 5 + 12 = 17, 6. */
	expect_floats(out, (float[]){ 32, 39, 18, 58, 68, 30, 14, 17, 6 }, 9);
}

Test(conv_float32, batches_channels_and_bias)
{
	/* 2 batches of one pixel with channels (1, 2) and (3, -1). */
	opver_tensor *in = float_tensor("input", KH_DIMS(2, 1, 1, 2),
					(float[]){ 1, 2, 3, -1 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(3, 1, 1, 2),
				       (float[]){ 1, 1, 2, -1, 0.5f, 0 });
	opver_tensor *b = float_tensor("bias", KH_DIMS(3),
				       (float[]){ 0, 1, -1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(2, 1, 1, 3), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	/* batch 0: 1+2 = 3; 2-2+1 = 1; 0.5-1 = -0.5
	 * batch 1: 3-1 = 2; 6+1+1 = 8; 1.5-1 = 0.5 */
	expect_floats(out, (float[]){ 3, 1, -0.5f, 2, 8, 0.5f }, 6);
}

Test(conv_float32, two_groups)
{
	/* 4 input channels, filters of 2: groups of 2 output channels each
	 * reading 2 input channels.  Pixels (1, 2, 3, 4) and (-1, 0, 2, 1).
	 * Filters: o0 (1, 0) and o1 (1, 1) on channels 0-1; o2 (1, 0) and
	 * o3 (0, -1) on channels 2-3. */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 2, 4),
					(float[]){ 1, 2, 3, 4, -1, 0, 2, 1 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(4, 1, 1, 2),
				       (float[]){ 1, 0, 1, 1, 1, 0, 0, -1 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 2, 4), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	/* pixel 0: 1, 1+2 = 3, 3, -4; pixel 1: -1, -1+0 = -1, 2, -1 */
	expect_floats(out, (float[]){ 1, 3, 3, -4, -1, -1, 2, -1 }, 8);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(conv_float32, activations)
{
	/* Outputs before the activation: -2.5, -0.5, 0.5, 3, 7. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, conv_float32, activations)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 1),
					(float[]){ 1 });
	opver_tensor *f = float_tensor("filter", KH_DIMS(5, 1, 1, 1),
				       (float[]){ -2.5f, -0.5f, 0.5f, 3, 7 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 5), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, c->activation);

	cr_assert_eq(kh_run(&h, conv_node(CONV_FLOAT32, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats(out, c->expected, 5);
}

/* A core built before dilation was decoded fills only the prefix it knows;
 * the harness copies exactly that many bytes, so reading further would be
 * caught, and the missing dilations must act as 1. */
Test(conv_float32, reads_only_the_filled_params_prefix)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1),
					image_3x3);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1),
				       filter_2x2);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 2, 2, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 7, OPVER_ACTIVATION_NONE);
	opver_node *node =
		kh_node(&h, kh_kernel(&h, CONV_FLOAT32), 1, &p,
			offsetof(opver_conv_params, dilation_width),
			KH_TENSORS(in, f), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 37, 47, 67, 77 }, 4);
}

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

/* ----------------------------------------------------------------- int8 */

TestSuite(conv_int8, .init = setup, .fini = teardown);

/* input 2 x 2 at scale 0.5, zero point -1: q (1, 3, 5, -1) is (1, 2, 3, 0) */
static opver_tensor *int8_image(void)
{
	return quantized("input", OPVER_TYPE_INT8, KH_DIMS(1, 2, 2, 1),
			 (int8_t[]){ 1, 3, 5, -1 }, 0.5f, -1);
}

Test(conv_int8, per_tensor_filter_with_bias)
{
	/*
	 * filter at scale 0.25: o0 q (4, 0, -4, 8) is (1, 0, -1, 2),
	 *                       o1 q (2, 2, 2, 2) is 0.5 each
	 * bias at scale 0.5 * 0.25 = 0.125: q (4, -3) is (0.5, -0.375)
	 * output scale 1, zero point 3: multiplier 0.125 = 2^30, shift -2
	 *
	 * o0: 4*(1+1) + 0 + -4*(5+1) + 8*(-1+1) = -16, + 4 = -12;
	 *     high mul -6, divide by 4: -1.5 -> -2 (away from zero); + 3 = 1.
	 *     Real: 1 - 3 + 0.5 = -1.5.
	 * o1: 2*(2 + 4 + 6 + 0) = 24, - 3 = 21; high mul 10.5 -> 11,
	 *     11 / 4 = 2.75 -> 3; + 3 = 6.  Real: 3 - 0.375 = 2.625.
	 */
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 2, 2, 1),
				    (int8_t[]){ 4, 0, -4, 8, 2, 2, 2, 2 },
				    0.25f, 0);
	opver_tensor *b = quantized("bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 4, -3 }, 0.125f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 3);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(int8_image(), f, b),
					   out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 1, 6 }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_int8, per_channel_scales)
{
	/*
	 * filter per channel: o0 scale 0.25, q (4, 0, -4, 8);
	 *                     o1 scale 0.5,  q (1, 3, -1, 2)
	 * bias per channel (scales 0.125, 0.25): q (2, -3)
	 * output scale 1, zero point 0.
	 * o0: multiplier 0.5 * 0.25 = 0.125 (2^30, shift -2):
	 *     -16 + 2 = -14; high mul -7, -7 / 4 = -1.75 -> -2.
	 * o1: multiplier 0.5 * 0.5 = 0.25 (2^30, shift -1):
	 *     1*2 + 3*4 - 1*6 + 2*0 = 8, - 3 = 5; high mul 2.5 -> 3 (ties
	 *     up), 3 / 2 = 1.5 -> 2.  (Real 1.25: TFLite's double rounding
	 *     gives 2; o0's rescale would give 5 * 0.125 -> 1.)
	 */
	opver_tensor *f = per_channel_filter(KH_DIMS(2, 2, 2, 1),
					     (int8_t[]){ 4, 0, -4, 8, 1, 3, -1,
							 2 },
					     (float[]){ 0.25f, 0.5f });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 2, -3 });
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	kh_quantize_per_channel(&h, b, 0, 2, (float[]){ 0.125f, 0.25f },
				(int64_t[]){ 0, 0 });
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(int8_image(), f, b),
					   out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ -2, 2 }, 2);
}

Test(conv_int8, padding_contributes_nothing)
{
	/*
	 * input 1 x 2 at scale 1, zero point 2: q (3, 7) is (1, 5)
	 * filter 1 x 3 at scale 1: (1, 2, 4); SAME: one column of padding
	 * each side.  output scale 1, zero point -10 (multiplier 1).
	 * out 0: pad + 2*1 + 4*5 = 22 -> 12; out 1: 1*1 + 2*5 + pad = 11 -> 1.
	 * Padding read as a raw q of 0 would add -2 * weight: 20, 3.
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 2, 1), (int8_t[]){ 3, 7 },
				     1.0f, 2);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 1, 3, 1), (int8_t[]){ 1, 2, 4 },
				    1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 2, 1), NULL, 1.0f, -10);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 12, 1 }, 2);
}

Test(conv_int8, two_groups)
{
	/* channels (1, 2, 3, 4); o0 (1, 1) reads channels 0-1: 3;
	 * o1 (2, 1) reads channels 2-3: 6 + 4 = 10 (2 + 2 = 4 without
	 * groups).  All scales 1: multiplier 1. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 4),
				     (int8_t[]){ 1, 2, 3, 4 }, 1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 1, 2),
				    (int8_t[]){ 1, 1, 2, 1 }, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 3, 10 }, 2);
}

Test(conv_int8, saturates_at_the_type_edges)
{
	/* All scales 1: raw sums clamped to [-128, 127].  input (127, 1):
	 * (1, 1) -> 128 -> 127; (-1, -2) -> -129 -> -128; (1, 0) -> 127. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 2),
				     (int8_t[]){ 127, 1 }, 1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(3, 1, 1, 2),
				    (int8_t[]){ 1, 1, -1, -2, 1, 0 }, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 3), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, (int8_t[]){ 127, -128, 127 }, 3);
}

struct int8_activation_case {
	opver_activation activation;
	int8_t expected[4];
};

ParameterizedTestParameters(conv_int8, activations)
{
	/*
	 * Real outputs -1, 2, 5, 7 at output scale 0.125, zero point -20
	 * (multiplier 8 is 2^30 with shift 4) are q -28, -4, 20, 36.
	 * RELU clamps to [-20, 127]; RELU6 to [-20, -20 + 48 = 28];
	 * RELU_N1_TO_1 to [-20 - 8, -20 + 8] = [-28, -12].
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

ParameterizedTest(struct int8_activation_case *c, conv_int8, activations)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 1), (int8_t[]){ 1 },
				     1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(4, 1, 1, 1),
				    (int8_t[]){ -1, 2, 5, 7 }, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 4), NULL, 0.125f, -20);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, c->activation);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT8, 3, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int8s(out, c->expected, 4);
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

/* ---------------------------------------------------------------- uint8 */

TestSuite(conv_uint8, .init = setup, .fini = teardown);

static void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
			  size_t count)
{
	const uint8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

Test(conv_uint8, filter_zero_point_is_subtracted)
{
	/*
	 * conv_int8's per_tensor_filter_with_bias in TFLite's legacy uint8
	 * quantization, every zero point 128 but the output's:
	 * input scale 0.5: q (130, 132, 134, 128) is (1, 2, 3, 0)
	 * filter scale 0.25: o0 q (132, 128, 124, 136) is (1, 0, -1, 2),
	 *                    o1 q (130, 130, 130, 130) is 0.5 each
	 * bias scale 0.125: (4, -3); output scale 1, zero point 3.
	 * o0: 4*2 + 0 - 4*6 + 8*0 = -16, + 4 = -12; x 0.125 = -1.5 -> -2
	 *     (away from zero), + 3 = 1.
	 * o1: 2*(2 + 4 + 6 + 0) = 24, - 3 = 21; high mul 10.5 -> 11,
	 *     11 / 4 -> 3, + 3 = 6.
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 2, 2, 1),
				     (uint8_t[]){ 130, 132, 134, 128 }, 0.5f,
				     128);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(2, 2, 2, 1),
				    (uint8_t[]){ 132, 128, 124, 136, 130, 130,
						 130, 130 },
				    0.25f, 128);
	opver_tensor *b = quantized("bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 4, -3 }, 0.125f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 3);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 1, 6 }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_uint8, rescale_rounds_the_scale_product_to_float)
{
	/*
	 * TFLite's legacy rescale: float(input scale x filter scale) /
	 * output scale in double, multiplier 1562937613 with shift -6 here.
	 * The product kept in double (as the int8 kernels compute it) gives
	 * 1562937666, and turns the sum 45 x 255 = 11475 into 131, not 130
	 * (the real value is 130.4999...).
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 45 },
				     0.0578598827123642f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 255 },
				    0.05591966584324837f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 1), NULL,
				      0.28451836109161377f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 130 }, 1);
}

Test(conv_uint8, clamps_to_the_activation_and_the_type)
{
	/*
	 * All scales 1 (RELU6 on output scale 1/16, zero point 10:
	 * [10, 10 + 96 = 106]).  input zero point 100: q (101, 103) is
	 * (1, 3); filter zero point 50, q (52, 49, 40, 60, 250, 250) is
	 * (2, -1), (-10, 10), (200, 200); output scale 1/16 multiplies by
	 * 16: o0 (2 - 3) x 16 = -16 -> 10 (RELU6's 0); o1 (-10 + 30) x 16
	 * = 320 -> 106 (6); o2 800 x 16 -> 106.  Without activation the
	 * type clamps: -6, 330, 12810 -> 0, 255, 255.
	 */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 2),
				     (uint8_t[]){ 101, 103 }, 1.0f, 100);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(3, 1, 1, 2),
				    (uint8_t[]){ 52, 49, 40, 60, 250, 250 },
				    1.0f, 50);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 3), NULL, 0.0625f, 10);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_RELU6);

	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 10, 106, 106 }, 3);
	p.activation = OPVER_ACTIVATION_NONE;
	cr_assert_eq(kh_run(&h, conv_node(CONV_UINT8, 1, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 0, 255, 255 }, 3);
}

Test(conv_uint8, rejects_a_per_channel_filter)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 1 },
				     1.0f, 0);
	opver_tensor *f = kh_tensor(&h, "filter", OPVER_TYPE_UINT8,
				    KH_DIMS(2, 1, 1, 1), (uint8_t[]){ 1, 2 });
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	kh_quantize_per_channel(&h, f, 0, 2, (float[]){ 1.0f, 2.0f },
				(int64_t[]){ 0, 0 });
	cr_assert_neq(kh_prepare(&h, conv_node(CONV_UINT8, 1, &p,
					       KH_TENSORS(in, f), out)),
		      OPVER_OK);
	cr_expect(strstr(h.errors, "filter") != NULL, "%s", h.errors);
}

Test(conv_uint8, rejects_a_bias_scale_off_the_product)
{
	/* input 0.5 x filter 0.25 = 0.125; a bias at 0.5 is off by 0.375
	 * output steps (scale 1), far beyond TFLite's 0.02. */
	opver_tensor *in = quantized("input", OPVER_TYPE_UINT8,
				     KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 1 },
				     0.5f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_UINT8,
				    KH_DIMS(1, 1, 1, 1), (uint8_t[]){ 1 },
				    0.25f, 0);
	opver_tensor *b = quantized("bias", OPVER_TYPE_INT32, KH_DIMS(1),
				    (int32_t[]){ 1 }, 0.5f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_UINT8,
				      KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_prepare(&h, conv_node(CONV_UINT8, 1, &p,
					      KH_TENSORS(in, f, b), out)),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect(strstr(h.errors, "must agree") != NULL, "%s", h.errors);
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

/* --------------------------------------------------------------- hybrid */

TestSuite(conv_hybrid, .init = setup, .fini = teardown);

Test(conv_hybrid, per_tensor_quantizes_each_batch_symmetrically)
{
	/*
	 * filter scale 0.1: q (10, 20) is (1, 2); bias 0.5.
	 * batch 0 (1, -0.5): range 1, scale 1/127, q (127, round(-63.5) =
	 *   -64); sum 1270 - 1280 = -10; -10 * (1/127 * 0.1) + 0.5
	 *   = 0.4921260 (the float result is 1 - 1 + 0.5 = 0.5).
	 * batch 1 (2, 4): range 4, scale 4/127, q (round(63.5) = 64, 127);
	 *   sum 640 + 2540 = 3180; 3180 * 4/127 * 0.1 + 0.5 = 10.515748
	 *   (float result 10.5).  One scale for both batches would have
	 *   given batch 0 q (32, -16) and a sum of 0.
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(2, 1, 1, 2),
					(float[]){ 1, -0.5f, 2, 4 });
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 1, 1, 2), (int8_t[]){ 10, 20 },
				    0.1f, 0);
	opver_tensor *b = float_tensor("bias", KH_DIMS(1), (float[]){ 0.5f });
	opver_tensor *out = float_tensor("output", KH_DIMS(2, 1, 1, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 2, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.4921260f, 10.515748f }, 2, 1e-5);
}

Test(conv_hybrid, per_channel_quantizes_asymmetrically)
{
	/*
	 * input (1, -0.5): range [-0.5, 1] onto [-128, 127]: scale 1.5/255,
	 * zero point -128 + 0.5 / (1.5/255) = -128 + 85 = -43; q (127, -128),
	 * less the zero point (170, -85).
	 * filter o0 scale 0.1 q (10, 20) is (1, 2);
	 *        o1 scale 0.25 q (-5, 4) is (-1.25, 1).
	 * o0: 10*170 - 20*85 = 0 -> 0 * 0.1 * scale + 0.5 = 0.5
	 * o1: -5*170 - 4*85 = -1190 -> -1190 * 0.25 * 1.5/255 = -1.75,
	 *     + 0.25 = -1.5 (the float result exactly)
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 2),
					(float[]){ 1, -0.5f });
	opver_tensor *f = per_channel_filter(KH_DIMS(2, 1, 1, 2),
					     (int8_t[]){ 10, 20, -5, 4 },
					     (float[]){ 0.1f, 0.25f });
	opver_tensor *b = float_tensor("bias", KH_DIMS(2),
				       (float[]){ 0.5f, 0.25f });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 5, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.5f, -1.5f }, 2, 2e-6);
}

Test(conv_hybrid, equal_channel_scales_take_the_per_tensor_path)
{
	/* As TFLite: per-channel scales that are all 0.1 quantize the input
	 * symmetrically, so o0 is -10 * 0.1 / 127 + 0.5 as in the per-tensor
	 * case, not the 0.5 the asymmetric path gives. */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 2),
					(float[]){ 1, -0.5f });
	opver_tensor *f = per_channel_filter(KH_DIMS(2, 1, 1, 2),
					     (int8_t[]){ 10, 20, 10, 20 },
					     (float[]){ 0.1f, 0.1f });
	opver_tensor *b = float_tensor("bias", KH_DIMS(2),
				       (float[]){ 0.5f, 0 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 5, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.4921260f, -0.0078740f }, 2, 2e-6);
}

Test(conv_hybrid, groups_take_the_asymmetric_path)
{
	/*
	 * input (1, -0.5, 0.5, 0.2): scale 1.5/255, zero point -43 as above;
	 * q (127, -128, 42, -9), less the zero point (170, -85, 85, 34).
	 * filter scale 0.5, 2 groups: o0 q (2, 4) on channels 0-1 is (1, 2);
	 * o1 q (-2, 6) on channels 2-3 is (-1, 3).
	 * o0: 340 - 340 = 0; o1: -170 + 204 = 34 -> 34 * 0.5 * 1.5/255 = 0.1
	 * (float results 0 and -0.5 + 0.6 = 0.1).
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 4),
					(float[]){ 1, -0.5f, 0.5f, 0.2f });
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 1, 2),
				    (int8_t[]){ 2, 4, -2, 6 }, 0.5f, 0);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0, 0.1f }, 2, 2e-6);
}

Test(conv_hybrid, fused_activation)
{
	/* The per-tensor case's batch 1 without bias, 10.015748, and its
	 * negation, both under RELU6. */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 2),
					(float[]){ 2, 4 });
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 1, 2),
				    (int8_t[]){ 10, 20, -10, -20 }, 0.1f, 0);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params relu6 =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_RELU6);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 2, &relu6,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 6, 0 }, 2);
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

/* ------------------------------------------------------------- int16x8 */

TestSuite(conv_int16x8, .init = setup, .fini = teardown);

/*
 * input at scale 0.001: q (1000, -2000) is (1, -2)
 * filter per channel: o0 scale 0.01, q (100, 50) is (1, 0.5)
 *                     o1 scale 0.02, q (-25, 100) is (-0.5, 2)
 * output scale 0.002.  Rescales 0.001 * 0.01 / 0.002 = 0.005 (multiplier
 * 1374389504, shift -7) and 0.01 (same multiplier, shift -6).
 * Sums: o0 100000 - 100000 = 0; o1 -25000 - 200000 = -225000.
 */
static void int16_node_tensors(opver_type bias_type, const void *bias,
			       opver_tensor **in, opver_tensor **f,
			       opver_tensor **b, opver_tensor **out)
{
	*in = quantized("input", OPVER_TYPE_INT16, KH_DIMS(1, 1, 1, 2),
			(int16_t[]){ 1000, -2000 }, 0.001f, 0);
	*f = per_channel_filter(KH_DIMS(2, 1, 1, 2),
				(int8_t[]){ 100, 50, -25, 100 },
				(float[]){ 0.01f, 0.02f });
	*b = bias != NULL ? kh_tensor(&h, "bias", bias_type, KH_DIMS(2), bias)
			  : NULL;
	*out = quantized("output", OPVER_TYPE_INT16, KH_DIMS(1, 1, 1, 2), NULL,
			 0.002f, 0);
}

Test(conv_int16x8, int64_bias)
{
	/*
	 * bias (scales 1e-5, 2e-5): q (150000, -50000) is (1.5, -1).
	 * 64-bit rescale: multiplier reduced to 20972 (Q0.15).
	 * o0: 150000 * 20972 = 3145800000, + 2^21, >> 22 = 750 (1.5/0.002)
	 * o1: -275000 * 20972 = -5767300000, + 2^20, >> 21 = floor(-2749.56)
	 *     = -2750 (-5.5 / 0.002)
	 */
	opver_tensor *in, *f, *b, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	int16_node_tensors(OPVER_TYPE_INT64, (int64_t[]){ 150000, -50000 },
			   &in, &f, &b, &out);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out, (int16_t[]){ 750, -2750 }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(conv_int16x8, int32_bias)
{
	/* 32-bit rescale: o0 high mul of 150000 by 0.64 * 2^31 gives 96000,
	 * / 2^7 = 750; o1 -275000 -> -176000, / 2^6 = -2750. */
	opver_tensor *in, *f, *b, *out;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	p.quantized_bias_type = OPVER_TYPE_INT32;
	int16_node_tensors(OPVER_TYPE_INT32, (int32_t[]){ 150000, -50000 },
			   &in, &f, &b, &out);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 8, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out, (int16_t[]){ 750, -2750 }, 2);
}

Test(conv_int16x8, bias_width_chooses_the_rescale)
{
	/* A bias of 6000000 on o0 (sum 0): the 64-bit rescale gives
	 * 6000000 * 20972 / 2^22 = 30000.69 -> 30001, the 32-bit one
	 * 6000000 * 0.005 = 30000. */
	opver_tensor *in, *f, *b64, *b32, *out64, *out32;
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	int16_node_tensors(OPVER_TYPE_INT64, (int64_t[]){ 6000000, 0 }, &in,
			   &f, &b64, &out64);
	int16_node_tensors(OPVER_TYPE_INT32, (int32_t[]){ 6000000, 0 }, &in,
			   &f, &b32, &out32);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b64), out64)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b32), out32)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(((int16_t *)out64->data)[0], 30001);
	cr_expect_eq(((int16_t *)out32->data)[0], 30000);
}

Test(conv_int16x8, without_bias_quantized_bias_type_chooses)
{
	/* input q (32767, 14477), filter q (127, 127): sum 127 * 47244 =
	 * 5999988.  Unset, the int64 arithmetic: 5999988 * 20972 / 2^22 =
	 * 30000.63 -> 30001; INT32: 5999988 * 0.005 = 29999.94 -> 30000. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 1, 2),
				     (int16_t[]){ 32767, 14477 }, 0.001f, 0);
	opver_tensor *f = per_channel_filter(KH_DIMS(1, 1, 1, 2),
					     (int8_t[]){ 127, 127 },
					     (float[]){ 0.01f });
	opver_tensor *unset = quantized("output", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 1, 1), NULL, 0.002f, 0);
	opver_tensor *int32 = quantized("output", OPVER_TYPE_INT16,
					KH_DIMS(1, 1, 1, 1), NULL, 0.002f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f), unset)),
		     OPVER_OK, "%s", h.errors);
	p.quantized_bias_type = OPVER_TYPE_INT32;
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 8, &p,
					   KH_TENSORS(in, f), int32)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(((int16_t *)unset->data)[0], 30001);
	cr_expect_eq(((int16_t *)int32->data)[0], 30000);
}

Test(conv_int16x8, activation_and_saturation)
{
	/* All scales 1 (multiplier 1): sums 40000, -40000, -3 clamp to
	 * 32767, -32768 and, under RELU, 0. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 1, 1), (int16_t[]){ 1000 },
				     1.0f, 0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(3, 1, 1, 1),
				    (int8_t[]){ 40, -40, 0 }, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT64, KH_DIMS(3),
				    (int64_t[]){ 0, 0, -3 });
	opver_tensor *none = quantized("output", OPVER_TYPE_INT16,
				       KH_DIMS(1, 1, 1, 3), NULL, 1.0f, 0);
	opver_tensor *relu = quantized("output", OPVER_TYPE_INT16,
				       KH_DIMS(1, 1, 1, 3), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b), none)),
		     OPVER_OK, "%s", h.errors);
	p.activation = OPVER_ACTIVATION_RELU;
	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 4, &p,
					   KH_TENSORS(in, f, b), relu)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(none, (int16_t[]){ 32767, -32768, -3 }, 3);
	expect_int16s(relu, (int16_t[]){ 32767, 0, 0 }, 3);
}

Test(conv_int16x8, two_groups_and_padding)
{
	/* channels (100, 200, 300, 400) in a 1 x 1 image, SAME with a 1 x 2
	 * filter (one column of padding after); 2 groups: o0 (1, 1 | 0, 0)
	 * on channels 0-1, o1 (1, -1 | 0, 0) on channels 2-3.  All scales
	 * 1: o0 300, o1 -100. */
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 1, 4),
				     (int16_t[]){ 100, 200, 300, 400 }, 1.0f,
				     0);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 2, 2),
				    (int8_t[]){ 1, 1, 5, 5, 1, -1, 5, 5 },
				    1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_INT16X8, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_int16s(out, (int16_t[]){ 300, -100 }, 2);
}

/* ------------------------------------------------------ prepare rejects */

TestSuite(conv_prepare, .init = setup, .fini = teardown);

/* A float32 node of the given shapes. */
static opver_node *float_node(const opver_conv_params *p, int32_t in_rank,
			      const int32_t *in_dims, int32_t f_rank,
			      const int32_t *f_dims, int32_t out_rank,
			      const int32_t *out_dims, opver_tensor *bias)
{
	opver_tensor *in = float_tensor("input", in_rank, in_dims, NULL);
	opver_tensor *f = float_tensor("filter", f_rank, f_dims, NULL);
	opver_tensor *out = float_tensor("output", out_rank, out_dims, NULL);

	return conv_node(CONV_FLOAT32, 1, p, KH_TENSORS(in, f, bias), out);
}

Test(conv_prepare, accepts_a_valid_node)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_expect_eq(kh_prepare(&h, float_node(&p, KH_DIMS(1, 3, 3, 2),
					       KH_DIMS(4, 2, 2, 2),
					       KH_DIMS(1, 2, 2, 4), NULL)),
		     OPVER_OK, "%s", h.errors);
}

Test(conv_prepare, rejects_an_input_of_rank_3)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(3, 3, 2), KH_DIMS(4, 2, 2, 2),
				   KH_DIMS(1, 2, 2, 4), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has rank 3; it must have rank 4");
}

Test(conv_prepare, rejects_a_filter_of_rank_2)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2), KH_DIMS(4, 2),
				   KH_DIMS(1, 2, 2, 4), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has rank 2; it must have rank 4");
}

Test(conv_prepare, rejects_an_empty_filter)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 2),
				   KH_DIMS(4, 0, 2, 2), KH_DIMS(1, 2, 2, 4),
				   NULL),
			OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has shape [4, 0, 2, 2]; every dimension must be positive");
}

Test(conv_prepare, rejects_input_channels_not_a_multiple_of_the_filter)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 3),
				   KH_DIMS(4, 2, 2, 2), KH_DIMS(1, 2, 2, 4),
				   NULL),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has shape [1, 3, 3, 3]; its channels must be a positive multiple of the filter's 2 input channels");
}

Test(conv_prepare, rejects_output_channels_not_divisible_by_groups)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 4),
				   KH_DIMS(3, 2, 2, 2), KH_DIMS(1, 2, 2, 3),
				   NULL),
			OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has 3 output channels, not a multiple of its 2 groups");
}

struct bad_window_case {
	int32_t stride_height, stride_width;
	int32_t dilation_height, dilation_width;
	opver_padding padding;
	char message[96];
};

ParameterizedTestParameters(conv_prepare, rejects_bad_windows)
{
	static struct bad_window_case cases[] = {
		{ 0, 1, 1, 1, OPVER_PADDING_VALID,
		  "height: input 3, filter 2, stride 0 and dilation 1" },
		{ 1, -2, 1, 1, OPVER_PADDING_SAME,
		  "width: input 3, filter 2, stride -2 and dilation 1" },
		{ 1, 1, 0, 1, OPVER_PADDING_SAME,
		  "height: input 3, filter 2, stride 1 and dilation 0" },
		{ 1, 1, 1, -1, OPVER_PADDING_VALID,
		  "width: input 3, filter 2, stride 1 and dilation -1" },
		/* the filter spans 4 with dilation 3: wider than 3 */
		{ 1, 1, 3, 1, OPVER_PADDING_VALID,
		  "a filter spanning 4 elements does not fit the input's 3" },
		{ 1, 1, 1, 1, (opver_padding)7,
		  "padding 7 is neither SAME nor VALID" },
	};

	return cr_make_param_array(struct bad_window_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct bad_window_case *c, conv_prepare,
		  rejects_bad_windows)
{
	opver_conv_params p = {
		.padding = c->padding,
		.stride_height = c->stride_height,
		.stride_width = c->stride_width,
		.dilation_height = c->dilation_height,
		.dilation_width = c->dilation_width,
	};

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 1),
				   KH_DIMS(1, 2, 2, 1), KH_DIMS(1, 2, 2, 1),
				   NULL),
			OPVER_ERROR_INVALID_MODEL, c->message);
}

Test(conv_prepare, rejects_a_node_without_params)
{
	/* The schema's default strides are 0. */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1), NULL);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);

	expect_rejected(kh_node(&h, kh_kernel(&h, CONV_FLOAT32), 1, NULL, 0,
				KH_TENSORS(in, f), KH_TENSORS(out)),
			OPVER_ERROR_INVALID_MODEL, "stride 0");
}

Test(conv_prepare, rejects_a_wrong_output_shape)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 1),
				   KH_DIMS(1, 2, 2, 1), KH_DIMS(1, 3, 3, 1),
				   NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has shape [1, 3, 3, 1]; this convolution gives [1, 2, 2, 1]");
}

Test(conv_prepare, rejects_an_output_of_the_wrong_batch)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(2, 3, 3, 1),
				   KH_DIMS(1, 2, 2, 1), KH_DIMS(1, 3, 3, 1),
				   NULL),
			OPVER_ERROR_INVALID_MODEL,
			"this convolution gives [2, 3, 3, 1]");
}

Test(conv_prepare, rejects_a_bias_of_the_wrong_size)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);
	opver_tensor *b = float_tensor("bias", KH_DIMS(2), NULL);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 1),
				   KH_DIMS(1, 2, 2, 1), KH_DIMS(1, 2, 2, 1), b),
			OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has 2 elements; the filter has 1 output channels");
}

Test(conv_prepare, rejects_a_fused_tanh)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_TANH);

	expect_rejected(float_node(&p, KH_DIMS(1, 3, 3, 1),
				   KH_DIMS(1, 2, 2, 1), KH_DIMS(1, 2, 2, 1),
				   NULL),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}

Test(conv_prepare, rejects_a_wrong_number_of_inputs)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(conv_node(CONV_FLOAT32, 1, &p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL,
			"has 1 inputs and 1 outputs; CONV_2D takes input, filter, an optional bias and one output");
}

Test(conv_prepare, rejects_an_omitted_filter)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 3, 3, 1), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 3, 3, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(conv_node(CONV_FLOAT32, 1, &p, KH_TENSORS(in, NULL),
				  out),
			OPVER_ERROR_INVALID_MODEL, "input 1 is omitted");
}

Test(conv_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 1), NULL);
	opver_tensor *f = float_tensor("filter", KH_DIMS(1, 1, 1, 1), NULL);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_SAME, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(conv_node(CONV_HYBRID, 2, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_UNSUPPORTED,
			"filter 'filter' has type FLOAT32; this kernel takes INT8");
}

/* A valid int8 node with the given filter; output 1 x 1 x 1 x O. */
static opver_node *int8_node(opver_tensor *filter, opver_tensor *bias)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 2), NULL, 0.5f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	return conv_node(CONV_INT8, 3, &p, KH_TENSORS(in, filter, bias), out);
}

static opver_tensor *int8_filter(void)
{
	return kh_tensor(&h, "filter", OPVER_TYPE_INT8, KH_DIMS(2, 1, 1, 2),
			 NULL);
}

Test(conv_prepare, rejects_a_scale_count_that_is_not_the_channels)
{
	opver_tensor *f = int8_filter();

	kh_quantize_per_channel(&h, f, 0, 3, (float[]){ 1, 1, 1 },
				(int64_t[]){ 0, 0, 0 });
	expect_rejected(int8_node(f, NULL), OPVER_ERROR_UNSUPPORTED,
			"filter 'filter' has 3 scales along axis 0; it needs one scale, or 2 along axis 0 (one per output channel)");
}

Test(conv_prepare, rejects_per_channel_scales_on_another_axis)
{
	opver_tensor *f = int8_filter();

	kh_quantize_per_channel(&h, f, 3, 2, (float[]){ 1, 1 },
				(int64_t[]){ 0, 0 });
	expect_rejected(int8_node(f, NULL), OPVER_ERROR_UNSUPPORTED,
			"filter 'filter' has 2 scales along axis 3");
}

Test(conv_prepare, rejects_an_asymmetric_per_channel_filter)
{
	opver_tensor *f = int8_filter();

	kh_quantize_per_channel(&h, f, 0, 2, (float[]){ 1, 1 },
				(int64_t[]){ 0, 4 });
	expect_rejected(int8_node(f, NULL), OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has zero point 4 for channel 1");
}

Test(conv_prepare, rejects_an_asymmetric_per_tensor_filter)
{
	/* TFLite's int8 convolution has no filter offset. */
	opver_tensor *f = int8_filter();

	kh_quantize(&h, f, 1.0f, 3);
	expect_rejected(int8_node(f, NULL), OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has zero point 3");
}

Test(conv_prepare, rejects_an_unquantized_filter)
{
	expect_rejected(int8_node(int8_filter(), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has 0 scales");
}

Test(conv_prepare, rejects_a_float_bias_on_int8)
{
	opver_tensor *f = int8_filter();

	kh_quantize(&h, f, 1.0f, 0);
	expect_rejected(int8_node(f, float_tensor("bias", KH_DIMS(2), NULL)),
			OPVER_ERROR_UNSUPPORTED,
			"bias 'bias' has type FLOAT32; this kernel takes INT32");
}

Test(conv_prepare, rejects_a_bias_zero_point)
{
	opver_tensor *f = int8_filter();
	opver_tensor *b = quantized("bias", OPVER_TYPE_INT32, KH_DIMS(2), NULL,
				    0.5f, 1);

	kh_quantize(&h, f, 1.0f, 0);
	expect_rejected(int8_node(f, b), OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has zero point 1");
}

Test(conv_prepare, rejects_a_per_channel_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 1, 1, 2), NULL);
	opver_tensor *f = int8_filter();
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	kh_quantize(&h, f, 1.0f, 0);
	kh_quantize_per_channel(&h, in, 3, 2, (float[]){ 1, 1 },
				(int64_t[]){ 0, 0 });
	expect_rejected(conv_node(CONV_INT8, 3, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' is quantized per channel");
}

Test(conv_prepare, rejects_an_asymmetric_hybrid_filter)
{
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 2), NULL);
	opver_tensor *f = int8_filter();
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	kh_quantize(&h, f, 0.5f, 1);
	expect_rejected(conv_node(CONV_HYBRID, 2, &p, KH_TENSORS(in, f), out),
			OPVER_ERROR_INVALID_MODEL,
			"filter 'filter' has zero point 1");
}

/* A valid int16x8 node with the given bias and parameters. */
static opver_node *int16_node(const opver_conv_params *p, int64_t zero_point,
			      float filter_scale, opver_tensor *bias)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 1, 1, 2), NULL, 1.0f,
				     zero_point);
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 1, 2), NULL, filter_scale,
				    0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 1, 2), NULL, 1.0f, 0);

	return conv_node(CONV_INT16X8, 8, p, KH_TENSORS(in, f, bias), out);
}

Test(conv_prepare, rejects_an_int16_zero_point)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	expect_rejected(int16_node(&p, 5, 1.0f, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has zero point 5; int16 activations must have zero point 0");
}

Test(conv_prepare, rejects_an_int8_bias_on_int16)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT8, KH_DIMS(2),
				    NULL);

	expect_rejected(int16_node(&p, 0, 1.0f, b), OPVER_ERROR_UNSUPPORTED,
			"bias 'bias' has type INT8; this kernel takes INT32 or INT64");
}

Test(conv_prepare, rejects_a_bias_that_contradicts_quantized_bias_type)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);

	p.quantized_bias_type = OPVER_TYPE_INT64;
	expect_rejected(int16_node(&p, 0, 1.0f, b), OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has type INT32, but quantized_bias_type is INT64");
}

Test(conv_prepare, rejects_a_quantized_bias_type_not_int32_or_int64)
{
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	p.quantized_bias_type = OPVER_TYPE_INT8;
	expect_rejected(int16_node(&p, 0, 1.0f, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"quantized_bias_type is INT8; it must be INT32 or INT64");
}

Test(conv_prepare, rejects_a_large_rescale_with_an_int64_bias)
{
	/* 1 * 200 / 1 = 200 = 0.78 * 2^8: shift 8, past the 64-bit
	 * rescale's 7; the 32-bit one takes it. */
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);
	opver_tensor *b64 = kh_tensor(&h, "bias", OPVER_TYPE_INT64,
				      KH_DIMS(2), NULL);
	opver_tensor *b32 = kh_tensor(&h, "bias", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);

	cr_expect_eq(kh_prepare(&h, int16_node(&p, 0, 200.0f, b32)), OPVER_OK,
		     "%s", h.errors);
	expect_rejected(int16_node(&p, 0, 200.0f, b64),
			OPVER_ERROR_UNSUPPORTED,
			"with an int64 bias rescale factors of 128 and more are not supported");
}

/* --------------------------------------------------------------- plugin */

TestSuite(conv_manifest, .init = setup, .fini = teardown);

struct manifest_case {
	char name[32];
	opver_type input, filter, output;
	uint32_t bias;
};

ParameterizedTestParameters(conv_manifest, kernels)
{
	static struct manifest_case cases[] = {
		{ CONV_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) },
		{ CONV_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8,
		  OPVER_TYPE_BIT(OPVER_TYPE_INT32) },
		{ CONV_HYBRID, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_BIT(OPVER_TYPE_FLOAT32) },
		{ CONV_INT16X8, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT16,
		  OPVER_TYPE_BIT(OPVER_TYPE_INT32) |
			  OPVER_TYPE_BIT(OPVER_TYPE_INT64) },
	};

	return cr_make_param_array(struct manifest_case, cases, COUNT(cases));
}

ParameterizedTest(struct manifest_case *c, conv_manifest, kernels)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, OPVER_OP_CONV_2D);
	cr_expect_null(k->custom_name);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, 8, "6 (groups) and 8 (bias type) are "
		     "implemented; 7 (int4) only adds a type");
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_expect_null(k->init);
	cr_expect_null(k->free);
	cr_expect_not_null(k->prepare);
	cr_expect_not_null(k->invoke);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->input));
	cr_expect_eq(s->inputs[1], OPVER_TYPE_BIT(c->filter));
	cr_expect_eq(s->inputs[2], c->bias | OPVER_TYPE_BIT_ABSENT);
	cr_expect_eq(s->inputs[3], 0);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->output));
}

Test(conv_manifest, kernels_are_not_exported)
{
	static const char *const internal[] = {
		"ref_conv_2d_float32", "ref_conv_2d_int8",
		"ref_conv_2d_hybrid",  "ref_conv_2d_int16x8",
	};

	for (size_t i = 0; i < COUNT(internal); i++)
		cr_expect_null(dlsym(h.handle, internal[i]), "%s is exported",
			       internal[i]);
}
