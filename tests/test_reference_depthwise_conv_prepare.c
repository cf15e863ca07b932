/*
 * test_reference_depthwise_conv_prepare.c - what the DEPTHWISE_CONV_2D
 * kernels' prepare rejects and what it says, and the kernels' manifest
 * entries.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "dw_harness.h"

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
