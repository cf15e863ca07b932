/*
 * test_reference_add_prepare.c - what the ADD kernels' prepare rejects and
 * what it says, and the kernels' manifest entries.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "add_harness.h"

/* ------------------------------------------------------ prepare rejects */

TestSuite(add_prepare, .init = setup, .fini = teardown);

static opver_node *float_add(int32_t ra, const int32_t *da, int32_t rb,
			     const int32_t *db, int32_t ro,
			     const int32_t *dout)
{
	return add_node(ADD_FLOAT32, 1, OPVER_ACTIVATION_NONE, true,
			kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, ra, da, NULL),
			kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, rb, db, NULL),
			kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, ro, dout,
				  NULL));
}

Test(add_prepare, rejects_shapes_that_do_not_broadcast)
{
	kh_expect_rejected(
		&h, float_add(KH_DIMS(2, 3), KH_DIMS(2, 4), KH_DIMS(2, 4)),
		OPVER_ERROR_INVALID_MODEL,
		"inputs 'a' [2, 3] and 'b' [2, 4] do not broadcast");
}

Test(add_prepare, rejects_an_output_of_another_shape)
{
	kh_expect_rejected(&h,
			   float_add(KH_DIMS(2, 3), KH_DIMS(3), KH_DIMS(3, 3)),
			   OPVER_ERROR_INVALID_MODEL,
			   "output 'out' has shape [3, 3]; inputs [2, 3] and "
			   "[3] broadcast to a different shape");
}

Test(add_prepare, rejects_an_output_of_another_rank)
{
	kh_expect_rejected(
		&h, float_add(KH_DIMS(2, 3), KH_DIMS(3), KH_DIMS(1, 2, 3)),
		OPVER_ERROR_INVALID_MODEL, "output 'out' has shape [1, 2, 3]");
}

Test(add_prepare, rejects_more_than_six_dimensions)
{
	kh_expect_rejected(&h,
			   float_add(KH_DIMS(1, 1, 1, 1, 1, 1, 2), KH_DIMS(2),
				     KH_DIMS(1, 1, 1, 1, 1, 1, 2)),
			   OPVER_ERROR_UNSUPPORTED,
			   "input 1 'a' has rank 7; broadcasting takes at most "
			   "6 dimensions");
}

Test(add_prepare, rejects_mismatched_input_types)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1.0f, 0);

	kh_expect_rejected(
		&h,
		add_node(ADD_INT8, 2, OPVER_ACTIVATION_NONE, true, a, b, out),
		OPVER_ERROR_UNSUPPORTED,
		"input 2 'b' has type FLOAT32; this kernel takes INT8");
}

Test(add_prepare, rejects_a_third_input)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);
	opver_add_params p = { .activation = OPVER_ACTIVATION_NONE };
	opver_node *node = kh_node(&h, kh_kernel(&h, ADD_FLOAT32), 1, &p,
				   sizeof(p), KH_TENSORS(a, a, a),
				   KH_TENSORS(out));

	kh_expect_rejected(&h, node, OPVER_ERROR_INVALID_MODEL,
			   "has 3 inputs and 1 outputs; ADD takes two inputs "
			   "and one output");
}

Test(add_prepare, rejects_a_fused_tanh)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	kh_expect_rejected(&h,
			   add_node(ADD_FLOAT32, 1, OPVER_ACTIVATION_TANH, true,
				    a, a, out),
			   OPVER_ERROR_UNSUPPORTED,
			   "fused activation 4 is not supported");
}

Test(add_prepare, rejects_an_unquantized_int8_input)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2), NULL);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1.0f, 0);

	kh_expect_rejected(
		&h,
		add_node(ADD_INT8, 2, OPVER_ACTIVATION_NONE, true, a, b, out),
		OPVER_ERROR_INVALID_MODEL, "input 1 'a' is not quantized");
}

Test(add_prepare, rejects_int16_quantized_only_in_part)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT16, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 1.0f, 0);

	kh_expect_rejected(
		&h,
		add_node(ADD_INT16, 3, OPVER_ACTIVATION_NONE, false, a, b, out),
		OPVER_ERROR_INVALID_MODEL, "input 2 'b' is not quantized");
}

Test(add_prepare, rejects_an_output_scale_too_fine_for_the_inputs)
{
	/* 2 x 1 / (2^20 x 2^-20) = 2: TFLite needs it below 1. */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 0x1p-20f, 0);

	kh_expect_rejected(
		&h,
		add_node(ADD_INT8, 2, OPVER_ACTIVATION_NONE, true, a, a, out),
		OPVER_ERROR_UNSUPPORTED,
		"output 'out' has scale 9.53674e-07, too fine for input scales "
		"1 and 1");
}

Test(add_prepare, rejects_a_power_of_two_input_coarser_than_the_output)
{
	/* Scales 2^-8 and 2^-6 with output 2^-8: input 2 would need a
	 * left shift, which TFLite's power-of-two path refuses. */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 0x1p-8f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 0x1p-6f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 0x1p-8f, 0);

	kh_expect_rejected(
		&h,
		add_node(ADD_INT16, 1, OPVER_ACTIVATION_NONE, true, a, b, out),
		OPVER_ERROR_INVALID_MODEL,
		"power-of-two scales 2^-8 and 2^-6 for the inputs and 2^-8 for "
		"the output");
}

Test(add_prepare, rejects_power_of_two_inputs_both_finer_than_the_output)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 0x1p-9f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 0x1p-8f, 0);

	kh_expect_rejected(
		&h,
		add_node(ADD_INT16, 1, OPVER_ACTIVATION_NONE, true, a, a, out),
		OPVER_ERROR_INVALID_MODEL,
		"one input needs the output's scale");
}

Test(add_prepare, rejects_a_power_of_two_shift_past_15_bits)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 0x1p-16f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 1.0f, 0);

	kh_expect_rejected(
		&h,
		add_node(ADD_INT16, 1, OPVER_ACTIVATION_NONE, true, a, b, out),
		OPVER_ERROR_UNSUPPORTED,
		"more than 2^15 times finer than the output's is not "
		"supported");
}

/* --------------------------------------------------------------- plugin */

TestSuite(add_manifest, .init = setup, .fini = teardown);

struct kernel_case {
	char name[32];
	opver_type type;
};

ParameterizedTestParameters(add_manifest, kernels)
{
	static struct kernel_case cases[] = {
		{ ADD_FLOAT32, OPVER_TYPE_FLOAT32 },
		{ ADD_INT8, OPVER_TYPE_INT8 },
		{ ADD_INT16, OPVER_TYPE_INT16 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, add_manifest, kernels)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, OPVER_OP_ADD);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, 6,
		     "versions 3 and 5 (int16 general and unquantized) are "
		     "implemented; 4 and 6 add other types");
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_expect_null(k->init);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->type));
	cr_expect_eq(s->inputs[1], OPVER_TYPE_BIT(c->type));
	cr_expect_eq(s->inputs[2], 0);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->type));
}
