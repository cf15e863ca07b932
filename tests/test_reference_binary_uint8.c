/*
 * test_reference_binary_uint8.c - the reference plugin's uint8 ADD and MUL
 * kernels on cases worked out by hand, and the manifest entries of the
 * binary kernels.
 */
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "binary_harness.h"

/* ---------------------------------------------------- uint8 ADD and MUL */

TestSuite(uint8_add_mul, .init = setup, .fini = teardown);

/* ADD's general path on uint8, scales 0.5, 0.5 and 1: (10 + 4) / 2 = 7,
 * (3 + 0) / 2 = 1.5 -> 2, (-128 - 128) / 2 = -128 -> 0. */
Test(uint8_add_mul, add)
{
	const opver_add_params p = { .pot_scale_int16 = 1 };
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(3),
				       (uint8_t[]){ 138, 131, 0 }, 0.5f, 128);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(3),
				       (uint8_t[]){ 132, 128, 0 }, 0.5f, 128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(3), NULL, 1.0f, 128);

	cr_assert_eq(kh_run(&h, binary_node("add_uint8", 1, &p, sizeof(p), a,
					    b, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 135, 130, 0 }, 3);
}

/* MUL with scales 0.5, 0.5 and 0.25: rescale 1, so the output is the
 * product of the steps: 3 x 2 = 6, -4 x 5 = -20, 127 x 127 (clamped). */
Test(uint8_add_mul, mul)
{
	const opver_mul_params p = { 0 };
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_UINT8, KH_DIMS(3),
				       (uint8_t[]){ 131, 124, 255 }, 0.5f, 128);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_UINT8, KH_DIMS(3),
				       (uint8_t[]){ 130, 133, 255 }, 0.5f, 128);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8,
					 KH_DIMS(3), NULL, 0.25f, 100);

	cr_assert_eq(kh_run(&h, binary_node("mul_uint8", 3, &p, sizeof(p), a,
					    b, out)),
		     OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 106, 80, 255 }, 3);
}

/* ------------------------------------------------------------- manifest */

TestSuite(binary_manifest, .init = setup, .fini = teardown);

struct kernel_case {
	char name[32];
	int32_t op;
	opver_type type;
	int32_t max_version;
};

ParameterizedTestParameters(binary_manifest, kernels)
{
	static struct kernel_case cases[] = {
		{ "sub_float32", OPVER_OP_SUB, OPVER_TYPE_FLOAT32, 5 },
		{ "sub_int32", OPVER_OP_SUB, OPVER_TYPE_INT32, 5 },
		{ "sub_uint8", OPVER_OP_SUB, OPVER_TYPE_UINT8, 5 },
		{ "sub_int8", OPVER_OP_SUB, OPVER_TYPE_INT8, 5 },
		{ "sub_int16", OPVER_OP_SUB, OPVER_TYPE_INT16, 5 },
		{ "div_float32", OPVER_OP_DIV, OPVER_TYPE_FLOAT32, 2 },
		{ "div_int32", OPVER_OP_DIV, OPVER_TYPE_INT32, 2 },
		{ "div_uint8", OPVER_OP_DIV, OPVER_TYPE_UINT8, 2 },
		{ "squared_difference_float32", OPVER_OP_SQUARED_DIFFERENCE,
		  OPVER_TYPE_FLOAT32, 2 },
		{ "squared_difference_int32", OPVER_OP_SQUARED_DIFFERENCE,
		  OPVER_TYPE_INT32, 2 },
		{ "squared_difference_int8", OPVER_OP_SQUARED_DIFFERENCE,
		  OPVER_TYPE_INT8, 2 },
		{ "maximum_float32", OPVER_OP_MAXIMUM, OPVER_TYPE_FLOAT32, 4 },
		{ "maximum_uint8", OPVER_OP_MAXIMUM, OPVER_TYPE_UINT8, 4 },
		{ "maximum_int8", OPVER_OP_MAXIMUM, OPVER_TYPE_INT8, 4 },
		{ "maximum_int16", OPVER_OP_MAXIMUM, OPVER_TYPE_INT16, 4 },
		{ "maximum_int32", OPVER_OP_MAXIMUM, OPVER_TYPE_INT32, 4 },
		{ "minimum_float32", OPVER_OP_MINIMUM, OPVER_TYPE_FLOAT32, 4 },
		{ "minimum_uint8", OPVER_OP_MINIMUM, OPVER_TYPE_UINT8, 4 },
		{ "minimum_int8", OPVER_OP_MINIMUM, OPVER_TYPE_INT8, 4 },
		{ "minimum_int16", OPVER_OP_MINIMUM, OPVER_TYPE_INT16, 4 },
		{ "minimum_int32", OPVER_OP_MINIMUM, OPVER_TYPE_INT32, 4 },
		{ "add_uint8", OPVER_OP_ADD, OPVER_TYPE_UINT8, 6 },
		{ "mul_uint8", OPVER_OP_MUL, OPVER_TYPE_UINT8, 8 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, binary_manifest, kernels)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->op, c->op);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, c->max_version);
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->type));
	cr_expect_eq(s->inputs[1], OPVER_TYPE_BIT(c->type));
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->type));
}
