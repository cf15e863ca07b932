/*
 * test_reference_softmax_float.c - the reference plugin's float32 SOFTMAX
 * kernel against values worked out by hand, and what every SOFTMAX
 * kernel's prepare rejects and what it says.
 */
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "softmax_harness.h"

/* -------------------------------------------------------------- float32 */

TestSuite(softmax_float32, .init = setup, .fini = teardown);

static void expect_floats_near(const opver_tensor *tensor, const float *want,
			       size_t count, double tolerance)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(fabs((double)got[i] - (double)want[i]) <= tolerance,
			  "element %zu: got %.9g, want %.9g", i,
			  (double)got[i], (double)want[i]);
}

/*
 * x = (1, 2, 3), beta 1: exps e^-2, e^-1, 1 = 0.135335283, 0.367879441,
 * 1; sum 1.503214724; softmax 0.090030573, 0.244728471, 0.665240956.
 * Halving beta on doubled inputs gives the same.
 */
struct float_case {
	float beta;
	float x[3];
};

ParameterizedTestParameters(softmax_float32, hand_computed)
{
	static struct float_case cases[] = {
		{ 1.0f, { 1, 2, 3 } },
		{ 0.5f, { 2, 4, 6 } },
		{ 1.0f, { 1001, 1002, 1003 } }, /* the max keeps exp finite */
		{ 0.5f, { -6, -4, -2 } },
	};

	return cr_make_param_array(struct float_case, cases, COUNT(cases));
}

ParameterizedTest(struct float_case *c, softmax_float32, hand_computed)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), c->x);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 3), NULL);
	opver_node *node = softmax_node(SOFTMAX_FLOAT32, c->beta, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out,
			   (float[]){ 0.090030573f, 0.244728471f,
				      0.665240956f },
			   3, 3e-7);
}

Test(softmax_float32, rows_are_independent_along_the_last_dimension)
{
	/* [2, 2, 2]: rows (0, 0), (5, 5), (0, ln 3), (-1, 1e9).
	 * (0, ln 3): exps 1 and 3, so 1/4 and 3/4. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2, 2),
				     (float[]){ 0, 0, 5, 5, 0, logf(3.0f), -1,
						1e9f });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2, 2), NULL);
	opver_node *node = softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out,
			   (float[]){ 0.5f, 0.5f, 0.5f, 0.5f, 0.25f, 0.75f, 0,
				      1 },
			   8, 3e-7);
}

Test(softmax_float32, beta_zero_is_uniform)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(4), (float[]){ -3, 0, 8, 100 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);
	/* No params at all: beta is the schema's default, 0. */
	opver_node *node = kh_node(&h, kh_kernel(&h, SOFTMAX_FLOAT32), 1,
				   NULL, 0, KH_TENSORS(in), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.25f, 0.25f, 0.25f, 0.25f }, 4,
			   0);
}

Test(softmax_float32, single_element_rows_are_one)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3, 1), (float[]){ -7, 0, 42 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 1), NULL);
	opver_node *node = softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 1, 1, 1 }, 3, 0);
}

/* ------------------------------------------------------ shared checks */

TestSuite(softmax_prepare, .init = setup, .fini = teardown);

Test(softmax_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 4), NULL);
	opver_tensor *out = int8_output(KH_DIMS(1, 4));

	expect_rejected(softmax_node(SOFTMAX_INT8, 1.0f, in, out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' has type FLOAT32; this kernel takes INT8");
}

Test(softmax_prepare, rejects_a_different_output_shape)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);

	expect_rejected(softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' must have the shape of input 'input'");
}

Test(softmax_prepare, rejects_a_scalar)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, 0, NULL,
				     (float[]){ 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32, 0,
				      NULL, NULL);

	expect_rejected(softmax_node(SOFTMAX_FLOAT32, 1.0f, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is a scalar; SOFTMAX needs rank 1 or more");
}

Test(softmax_prepare, rejects_a_non_finite_beta)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(4), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);

	expect_rejected(softmax_node(SOFTMAX_FLOAT32, NAN, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"beta is nan; it must be finite");
}

Test(softmax_prepare, rejects_two_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(4), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4), NULL);
	const opver_softmax_params params = { .beta = 1.0f };

	expect_rejected(kh_node(&h, kh_kernel(&h, SOFTMAX_FLOAT32), 1, &params,
				sizeof(params), KH_TENSORS(in, in),
				KH_TENSORS(out)),
			OPVER_ERROR_INVALID_MODEL,
			"has 2 inputs and 1 outputs; SOFTMAX takes one input and one output");
}

/* Every kernel covers versions 1 to 3: each version adds only a type. */
Test(softmax_prepare, kernels_cover_versions_1_to_3)
{
	static const char *names[] = { SOFTMAX_FLOAT32, SOFTMAX_INT8,
				       SOFTMAX_INT16, SOFTMAX_UINT8,
				       SOFTMAX_INT8_INT16,
				       SOFTMAX_UINT8_INT16 };

	for (size_t i = 0; i < COUNT(names); i++) {
		const opver_kernel *k = kh_kernel(&h, names[i]);

		cr_expect_eq(k->op, OPVER_OP_SOFTMAX, "%s", names[i]);
		cr_expect_eq(k->min_version, 1, "%s", names[i]);
		cr_expect_eq(k->max_version, 3, "%s", names[i]);
	}
}
