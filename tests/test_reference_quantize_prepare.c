/*
 * test_reference_quantize_prepare.c - what the QUANTIZE and DEQUANTIZE
 * kernels' prepare rejects and what it says, and the kernels' manifest
 * entries.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "quantize_harness.h"

/* ------------------------------------------------------ prepare rejects */

TestSuite(quantize_prepare, .init = setup, .fini = teardown);

Test(quantize_prepare, rejects_an_unquantized_output)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
				      NULL);

	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 1, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' is not quantized");
}

Test(quantize_prepare, rejects_another_shape)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(1, 2), NULL, 1.0f, 0);

	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 1, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' must have the shape of input 'in'");
}

Test(quantize_prepare, rejects_an_output_type_the_kernel_does_not_take)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 1.0f, 0);

	kh_expect_rejected(
		&h, unary_node("quantize_float32_int8", 1, in, out),
		OPVER_ERROR_UNSUPPORTED,
		"output 'out' has type INT16; this kernel takes INT8");
}

Test(quantize_prepare, rejects_per_channel_scales_not_matching_the_axis)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8,
				      KH_DIMS(2, 3), NULL);

	kh_quantize_per_channel(&h, out, 0, 3, (float[]){ 1, 1, 1 },
				(int64_t[]){ 0, 0, 0 });
	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 3, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' has 3 scales along axis 0");
}

Test(quantize_prepare, rejects_a_per_channel_zero_point_outside_the_type)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
				      NULL);

	kh_quantize_per_channel(&h, out, 0, 2, (float[]){ 1, 1 },
				(int64_t[]){ 0, 300 });
	kh_expect_rejected(&h, unary_node("quantize_float32_int8", 3, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' has zero point 300 for channel 1, "
			   "outside its type's range [-128, 127]");
}

Test(quantize_prepare, rejects_a_per_channel_requantize)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2),
					NULL, 1.0f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
				      NULL);

	kh_quantize_per_channel(&h, out, 0, 2, (float[]){ 1, 2 },
				(int64_t[]){ 0, 0 });
	kh_expect_rejected(&h, unary_node("quantize_int8_int8", 1, in, out),
			   OPVER_ERROR_UNSUPPORTED,
			   "output 'out' is quantized per channel");
}

/* fuzz_invoke found a requantize reading the output of a node without
 * one: the arity is checked first. */
Test(quantize_prepare, rejects_a_requantize_without_an_output)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8, KH_DIMS(2),
					NULL, 1.0f, 0);

	kh_expect_rejected(&h,
			   kh_node(&h, kh_kernel(&h, "quantize_uint8_int8"), 1,
				   NULL, 0, 1, &in, 0, NULL),
			   OPVER_ERROR_INVALID_MODEL,
			   "QUANTIZE takes one input and one output");
}

Test(quantize_prepare, rejects_int16_requantize_zero_points)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT16, KH_DIMS(2),
					NULL, 1.0f, 4);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 1.0f, 0);

	kh_expect_rejected(
		&h, unary_node("quantize_int16_int16", 2, in, out),
		OPVER_ERROR_INVALID_MODEL,
		"have zero points 4 and 0; int16 to int16 needs both 0");
}

Test(quantize_prepare, rejects_a_requantize_rescale_of_2_to_the_31)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2),
					NULL, 1e6f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1e-6f, 0);

	kh_expect_rejected(
		&h, unary_node("quantize_int8_int8", 1, in, out),
		OPVER_ERROR_INVALID_MODEL,
		"a rescale factor must be finite, not negative and below 2^30");
}

Test(quantize_prepare, rejects_a_second_input)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1.0f, 0);
	opver_node *node = kh_node(&h, kh_kernel(&h, "quantize_float32_int8"),
				   1, NULL, 0, KH_TENSORS(in, in),
				   KH_TENSORS(out));

	kh_expect_rejected(&h, node, OPVER_ERROR_INVALID_MODEL,
			   "QUANTIZE takes one input and one output");
}

Test(quantize_prepare, rejects_int16_dequantize_per_channel)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT16, KH_DIMS(2),
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	kh_quantize_per_channel(&h, in, 0, 2, (float[]){ 1, 2 },
				(int64_t[]){ 0, 0 });
	kh_expect_rejected(
		&h, unary_node("dequantize_int16_float32", 3, in, out),
		OPVER_ERROR_UNSUPPORTED, "input 'in' is quantized per channel");
}

Test(quantize_prepare, rejects_a_dequantize_to_another_shape)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(4),
					NULL, 1.0f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);

	kh_expect_rejected(&h,
			   unary_node("dequantize_int8_float32", 2, in, out),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' must have the shape of input 'in'");
}

Test(quantize_prepare, rejects_a_dequantize_scale_of_zero)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8, KH_DIMS(2),
					NULL, 0.0f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	kh_expect_rejected(
		&h, unary_node("dequantize_int8_float32", 2, in, out),
		OPVER_ERROR_INVALID_MODEL,
		"input 'in' has scale 0; a scale must be finite and positive");
}

/* --------------------------------------------------------------- plugin */

TestSuite(quantize_manifest, .init = setup, .fini = teardown);

struct kernel_case {
	char name[32];
	int32_t op;
	opver_type in, out;
	int32_t max_version;
};

ParameterizedTestParameters(quantize_manifest, kernels)
{
	static struct kernel_case cases[] = {
		/* per channel implemented; 4 and 5 are int4/uint4 */
		{ "quantize_float32_int8", OPVER_OP_QUANTIZE,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, 5 },
		{ "quantize_float32_int16", OPVER_OP_QUANTIZE,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_INT16, 5 },
		/* requantizing has no per-channel output (version 3) */
		{ "quantize_int8_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int16_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT16,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int8_int16", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT16, 2 },
		{ "quantize_int16_int16", OPVER_OP_QUANTIZE, OPVER_TYPE_INT16,
		  OPVER_TYPE_INT16, 2 },
		/* version 4 is a gap */
		{ "dequantize_int8_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32, 3 },
		{ "dequantize_int16_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_INT16, OPVER_TYPE_FLOAT32, 3 },
		/* uint8: TFLite's version 1 types, per tensor */
		{ "quantize_float32_uint8", OPVER_OP_QUANTIZE,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8, 5 },
		{ "quantize_uint8_uint8", OPVER_OP_QUANTIZE, OPVER_TYPE_UINT8,
		  OPVER_TYPE_UINT8, 2 },
		{ "quantize_uint8_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_UINT8,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int8_uint8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_UINT8, 2 },
		{ "dequantize_uint8_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_UINT8, OPVER_TYPE_FLOAT32, 3 },
		/* TFLite Micro's int32 pairs: no per-channel output */
		{ "quantize_int8_int32", OPVER_OP_QUANTIZE, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT32, 2 },
		{ "quantize_int16_int32", OPVER_OP_QUANTIZE, OPVER_TYPE_INT16,
		  OPVER_TYPE_INT32, 2 },
		{ "quantize_int32_int8", OPVER_OP_QUANTIZE, OPVER_TYPE_INT32,
		  OPVER_TYPE_INT8, 2 },
		{ "quantize_int32_int16", OPVER_OP_QUANTIZE, OPVER_TYPE_INT32,
		  OPVER_TYPE_INT16, 2 },
		/* float16: version 3 */
		{ "dequantize_float16_float32", OPVER_OP_DEQUANTIZE,
		  OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT32, 3 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, quantize_manifest, kernels)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, c->op);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, c->max_version, "%s: %d, want %d",
		     c->name, k->max_version, c->max_version);
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->in));
	cr_expect_eq(s->inputs[1], 0);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->out));
}
