/*
 * test_reference_activation_clamp.c - the reference plugin's clamp-family
 * activations (RELU, RELU6, RELU_N1_TO_1, ...) run from the built
 * reference.so through the kernel harness against values worked out by hand;
 * what their prepare rejects and says.
 */
#include <criterion/criterion.h>

#include "activation_harness.h"

TestSuite(relu, .init = setup, .fini = teardown);

/* ---------------------------------------------------------- clamp family */

static const int32_t dims8[] = { 2, 4 };

Test(relu, float32_clamps_each_op_to_its_range)
{
	static const float in[8] = { -7.5f, -1.5f, -0.5f, 0.0f,
				     0.25f, 0.75f, 3.0f,  9.0f };
	static const struct {
		const char *kernel;
		float want[8];
	} ops[] = {
		{ "relu_float32", { 0, 0, 0, 0, 0.25f, 0.75f, 3, 9 } },
		{ "relu6_float32", { 0, 0, 0, 0, 0.25f, 0.75f, 3, 6 } },
		{ "relu_n1_to_1_float32",
		  { -1, -1, -0.5f, 0, 0.25f, 0.75f, 1, 1 } },
		{ "relu_0_to_1_float32", { 0, 0, 0, 0, 0.25f, 0.75f, 1, 1 } },
	};

	for (size_t i = 0; i < COUNT(ops); i++) {
		opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
						2, dims8, in);
		opver_tensor *output = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
						 2, dims8, NULL);

		cr_assert_eq(kh_run(&h, unary_node(ops[i].kernel, NULL, 0,
						   input, output)),
			     OPVER_OK, "%s: %s", ops[i].kernel, h.errors);
		kh_expect_floats(output, ops[i].want, 8);
	}
}

/*
 * int8 RELU6 from scale 0.1, zero point -10 to scale 0.05, zero point
 * -100: each step doubles (0.1 / 0.05) around the zero points, and the
 * clamp is [-100 + round(0 / 0.05), -100 + round(6 / 0.05)] = [-100, 20].
 * q = -128: 2 x (-118) - 100 = -336, clamped to -100 (real 0).
 * q = 0: 2 x 10 - 100 = -80 (real 1).
 * q = 50: 2 x 60 - 100 = 20 (real 6, the bound).
 * q = 51: 22, clamped to 20.
 */
Test(relu, int8_requantizes_then_clamps)
{
	static const int8_t in[] = { -128, -10, 0, 50, 51, 127 };
	static const int8_t want[] = { -100, -100, -80, 20, 20, 20 };
	static const int32_t dims[] = { 6 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims,
					   in, 0.1f, -10);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1,
					    dims, NULL, 0.05f, -100);

	cr_assert_eq(kh_run(&h, unary_node("relu6_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(output, want, COUNT(want));
}

/*
 * uint8 RELU_N1_TO_1, scale 0.02 zero point 128 in, scale 0.01 zero point
 * 100 out: the clamp is [100 - 100, 100 + 100] = [0, 200], and each step
 * doubles.  q = 0: 2 x (-128) + 100 = -156 -> 0; q = 120: -16 + 100 = 84;
 * q = 129: 102; q = 255: 354 -> 200.
 */
Test(relu, uint8_relu_n1_to_1)
{
	static const uint8_t in[] = { 0, 120, 128, 129, 255 };
	static const uint8_t want[] = { 0, 84, 100, 102, 200 };
	static const int32_t dims[] = { 5 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_UINT8, 1, dims,
					   in, 0.02f, 128);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_UINT8, 1,
					    dims, NULL, 0.01f, 100);

	cr_assert_eq(kh_run(&h, unary_node("relu_n1_to_1_quantized", NULL, 0,
					   input, output)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(output, want, COUNT(want));
}

/*
 * int16 RELU with the same scale in and out (multiplier 1): negative
 * values become the zero point 0, others pass; RELU's unbounded top is
 * the type's limit.  A rescale of 3 (scale 3e-4 to 1e-4) saturates:
 * 20000 x 3 = 60000 -> 32767; 5 x 3 = 15.
 */
Test(relu, int16_passes_positives_and_saturates)
{
	static const int16_t in[] = { -32768, -1, 0, 5, 20000 };
	static const int16_t same[] = { 0, 0, 0, 5, 20000 };
	static const int16_t tripled[] = { 0, 0, 0, 15, 32767 };
	static const int32_t dims[] = { 5 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims,
					   in, 3e-4f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1,
					    dims, NULL, 3e-4f, 0);

	cr_assert_eq(kh_run(&h, unary_node("relu_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, same, COUNT(same));
	output = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1, dims, NULL, 1e-4f,
			      0);
	cr_assert_eq(kh_run(&h, unary_node("relu_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(output, tripled, COUNT(tripled));
}

Test(relu, empty_tensors_run)
{
	static const int32_t dims[] = { 0, 3 };
	opver_tensor *input = kh_quantized(&h, "in", OPVER_TYPE_INT8, 2, dims,
					   NULL, 0.1f, 0);
	opver_tensor *output = kh_quantized(&h, "out", OPVER_TYPE_INT8, 2,
					    dims, NULL, 0.1f, 0);

	cr_assert_eq(kh_run(&h, unary_node("relu_quantized", NULL, 0, input,
					   output)),
		     OPVER_OK, "%s", h.errors);
}

static const int32_t dims4[] = { 4 };

/* TFLite has no int16 RELU_N1_TO_1. */
Test(relu, rejects_a_type_the_op_lacks)
{
	opver_tensor *i16 = kh_quantized(&h, "in", OPVER_TYPE_INT16, 1, dims4,
					 NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_n1_to_1_quantized", NULL, 0,
					  i16, i16),
			   OPVER_ERROR_UNSUPPORTED, "input 'in' has type INT16");
}

Test(relu, rejects_an_output_of_another_type)
{
	opver_tensor *i8 = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims4,
					NULL, 0.1f, 0);
	opver_tensor *u8 = kh_quantized(&h, "out", OPVER_TYPE_UINT8, 1, dims4,
					NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_quantized", NULL, 0, i8, u8),
			   OPVER_ERROR_UNSUPPORTED, "output 'out'");
}

Test(relu, rejects_an_output_of_another_shape)
{
	static const int32_t dims5[] = { 5 };
	opver_tensor *i8 = kh_quantized(&h, "in", OPVER_TYPE_INT8, 1, dims4,
					NULL, 0.1f, 0);
	opver_tensor *longer = kh_quantized(&h, "longer", OPVER_TYPE_INT8, 1,
					    dims5, NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_quantized", NULL, 0, i8,
					  longer),
			   OPVER_ERROR_INVALID_MODEL, "shape");
}

Test(relu, rejects_unquantized_integers)
{
	opver_tensor *plain = kh_tensor(&h, "plain", OPVER_TYPE_INT8, 1, dims4,
					NULL);
	opver_tensor *i8 = kh_quantized(&h, "out", OPVER_TYPE_INT8, 1, dims4,
					NULL, 0.1f, 0);

	kh_expect_rejected(&h, unary_node("relu_quantized", NULL, 0, plain,
					  i8),
			   OPVER_ERROR_INVALID_MODEL, "not quantized");
}

Test(relu, rejects_a_missing_input)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, 1, dims4,
				      NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "relu_float32"), 1,
				       NULL, 0, 0, NULL, KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "one input");
}
