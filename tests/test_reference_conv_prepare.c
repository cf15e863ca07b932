/*
 * test_reference_conv_prepare.c - what the CONV_2D kernels' prepare rejects and
 * what it says, and the kernels' manifest entries and symbols.
 */
#include <dlfcn.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "conv_harness.h"

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
