/*
 * test_reference_fc_prepare.c - what the FULLY_CONNECTED kernels' prepare
 * rejects and what it says (the hybrid kernel's own refusals are in
 * test_reference_fc_hybrid.c, next to its weights).
 */
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "fc_harness.h"

/* ------------------------------------------------------ prepare rejects */

TestSuite(fc_prepare, .init = setup, .fini = teardown);

/* A valid float32 node but for what the test changes. */
static opver_node *float_node(const opver_fully_connected_params *p,
			      int32_t in_rank, const int32_t *in_dims,
			      int32_t w_rank, const int32_t *w_dims,
			      int32_t out_rank, const int32_t *out_dims,
			      opver_tensor *bias)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, in_rank,
				     in_dims, NULL);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32, w_rank,
				    w_dims, NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      out_rank, out_dims, NULL);

	return fc_node(FC_FLOAT32, 1, p, KH_TENSORS(in, w, bias), out);
}

Test(fc_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 3), NULL, 1.0f, 0);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' has type INT8; this kernel takes FLOAT32");
}

Test(fc_prepare, rejects_a_float_bias_on_int8)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 3), NULL, 1.0f, 0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 3), NULL, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_INT8, 4, &p, KH_TENSORS(in, w, b), out),
			OPVER_ERROR_UNSUPPORTED,
			"bias 'bias' has type FLOAT32; this kernel takes INT32");
}

Test(fc_prepare, rejects_a_wrong_number_of_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in), out),
			OPVER_ERROR_INVALID_MODEL, "has 1 inputs and 1 outputs");
}

Test(fc_prepare, rejects_omitted_weights)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, NULL), out),
			OPVER_ERROR_INVALID_MODEL, "only the bias may be omitted");
}

Test(fc_prepare, rejects_weights_that_are_not_a_matrix)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3, 1),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"weights 'weights' must have shape [units, depth]");
}

Test(fc_prepare, rejects_an_input_not_a_multiple_of_depth)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(1, 4), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has 4 elements, not a multiple of the weights' depth 3");
}

Test(fc_prepare, rejects_a_wrong_output_shape)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(float_node(&p, KH_DIMS(2, 3), KH_DIMS(2, 3),
				   KH_DIMS(2, 3), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' must hold 2 x 2 elements (batches x units)");
}

Test(fc_prepare, rejects_a_bias_of_the_wrong_size)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    NULL);

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), b),
			OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has 3 elements; the weights have 2 units");
}

Test(fc_prepare, rejects_keep_num_dims_with_a_flattened_output)
{
	opver_fully_connected_params p = { .keep_num_dims = 1 };

	expect_rejected(float_node(&p, KH_DIMS(2, 2, 3), KH_DIMS(2, 3),
				   KH_DIMS(4, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"with the input's leading dimensions (keep_num_dims)");
}

Test(fc_prepare, rejects_keep_num_dims_when_depth_is_not_the_last_dimension)
{
	opver_fully_connected_params p = { .keep_num_dims = 1 };

	expect_rejected(float_node(&p, KH_DIMS(3, 2), KH_DIMS(2, 3),
				   KH_DIMS(3, 2), NULL),
			OPVER_ERROR_INVALID_MODEL,
			"with keep_num_dims the last dimension of input 'input' must be the weights' depth 3");
}

Test(fc_prepare, rejects_shuffled_weights)
{
	opver_fully_connected_params p = {
		.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8,
	};

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_UNSUPPORTED,
			"weights format 1 (shuffled) is not supported");
}

Test(fc_prepare, rejects_a_fused_tanh)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_TANH);

	expect_rejected(float_node(&p, KH_DIMS(1, 3), KH_DIMS(2, 3),
				   KH_DIMS(1, 2), NULL),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}

/* A valid int8 node, with the given weights and output quantization. */
static opver_node *int8_node(const opver_fully_connected_params *p,
			     float in_scale, float w_scale, float out_scale,
			     int64_t out_zero_point, opver_tensor *bias)
{
	opver_tensor *in = int8_tensor("input", KH_DIMS(1, 2), NULL, in_scale,
				       0);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 2), NULL, w_scale,
				      0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL,
					out_scale, out_zero_point);

	return fc_node(FC_INT8, 4, p, KH_TENSORS(in, w, bias), out);
}

/* A node of the int8 or hybrid kernel whose [2, 2] int8 weights the caller
 * quantizes. */
static opver_node *weights_node(const char *kernel, opver_tensor *w)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *in, *out;

	if (strcmp(kernel, FC_HYBRID) == 0) {
		in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, KH_DIMS(1, 2),
			       NULL);
		out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				KH_DIMS(1, 2), NULL);
	} else {
		in = int8_tensor("input", KH_DIMS(1, 2), NULL, 1.0f, 0);
		out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	}
	return fc_node(kernel, 4, &p, KH_TENSORS(in, w), out);
}

struct weights_case {
	char kernel[32];
	int32_t count;
	int32_t axis;
	float scales[3];
	int64_t zero_points[3];
	opver_status status;
	char message[160];
};

ParameterizedTestParameters(fc_prepare, rejects_weights_quantization)
{
	static struct weights_case cases[] = {
		{ FC_INT8, 2, 0, { 0.5f, 0.25f }, { 0, 1 },
		  OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has zero point 1 for channel 1; this kernel takes only symmetric filters (zero point 0)" },
		{ FC_INT8, 3, 0, { 1, 1, 1 }, { 0, 0, 0 },
		  OPVER_ERROR_UNSUPPORTED,
		  "filter 'weights' has 3 scales along axis 0; it needs one scale, or 2 along axis 0 (one per output channel)" },
		{ FC_INT8, 2, 1, { 1, 1 }, { 0, 0 }, OPVER_ERROR_UNSUPPORTED,
		  "filter 'weights' has 2 scales along axis 1; it needs one scale, or 2 along axis 0" },
		{ FC_HYBRID, 1, 0, { 0.5f }, { 3 }, OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has zero point 3; this kernel takes only symmetric filters (zero point 0)" },
		{ FC_HYBRID, 2, 0, { 0.5f, 0.0f }, { 0, 0 },
		  OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has scale 0 for channel 1; a scale must be finite and positive" },
		{ FC_HYBRID, 3, 0, { 1, 1, 1 }, { 0, 0, 0 },
		  OPVER_ERROR_UNSUPPORTED,
		  "filter 'weights' has 3 scales along axis 0; it needs one scale, or 2 along axis 0" },
		{ FC_HYBRID, 0, 0, { 0 }, { 0 }, OPVER_ERROR_INVALID_MODEL,
		  "filter 'weights' has 0 scales along axis 0" },
	};

	return cr_make_param_array(struct weights_case, cases, COUNT(cases));
}

ParameterizedTest(struct weights_case *c, fc_prepare,
		  rejects_weights_quantization)
{
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_INT8,
				    KH_DIMS(2, 2), NULL);

	if (c->count > 0)
		kh_quantize_per_channel(&h, w, c->axis, c->count, c->scales,
					c->zero_points);
	expect_rejected(weights_node(c->kernel, w), c->status,
			c->message);
}

Test(fc_prepare, rejects_an_unquantized_int8_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 2), NULL);
	opver_tensor *w = int8_tensor("weights", KH_DIMS(2, 2), NULL, 1.0f, 0);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_INT8, 4, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is not quantized");
}

Test(fc_prepare, rejects_a_zero_point_outside_int8)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(int8_node(&p, 1.0f, 1.0f, 1.0f, 200, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has zero point 200, outside its type's range [-128, 127]");
}

Test(fc_prepare, rejects_a_zero_scale)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(int8_node(&p, 1.0f, 0.0f, 1.0f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"weights 'weights' has scale 0; a scale must be finite and positive");
}

Test(fc_prepare, rejects_a_bias_scale_that_disagrees)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);

	/* input 0.5 x weights 0.5 is 0.25; 0.5 is off by 0.25 output steps */
	kh_quantize(&h, b, 0.5f, 0);
	expect_rejected(int8_node(&p, 0.5f, 0.5f, 1.0f, 0, b),
			OPVER_ERROR_INVALID_MODEL,
			"bias 'bias' has scale 0.5, but input scale x weights scale is 0.25");
}

Test(fc_prepare, accepts_a_bias_scale_within_tflite_tolerance)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);

	/* off by 0.01 of an output step: TFLite accepts up to 0.02 */
	kh_quantize(&h, b, 0.26f, 0);
	cr_expect_eq(kh_prepare(&h, int8_node(&p, 0.5f, 0.5f, 1.0f, 0, b)),
		     OPVER_OK, "%s", h.errors);
}

Test(fc_prepare, rejects_a_rescale_factor_of_2_to_the_31)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	/* 2^20 * 2^20 / 2^-20 = 2^60 */
	expect_rejected(int8_node(&p, 0x1p20f, 0x1p20f, 0x1p-20f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"a rescale factor must be finite, not negative and below 2^30");
}

Test(fc_prepare, rejects_scales_whose_product_overflows_float)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	/* 1e30 x 1e30 is infinite in float; in double 1e60 / 1e30 = 1e30. */
	expect_rejected(int8_node(&p, 1e30f, 1e30f, 1e30f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"input scale x weights scale / output scale is 1e+30; a rescale factor must be finite");
}

Test(fc_prepare, rejects_an_output_scale_too_small_for_the_activation)
{
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_RELU6);

	/* 6 / 1e-12 steps does not fit an int32 */
	expect_rejected(int8_node(&p, 1e-7f, 1e-7f, 1e-12f, 0, NULL),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has scale 1e-12, too small to quantize the fused activation's bounds");
}
