/*
 * test_reference_add_unquantized.c - the reference plugin's float32 and int32
 * ADD kernels run from the built reference.so through the kernel harness:
 * values worked out by hand, int32 wrapping, fused activations and
 * broadcasting over many shapes against a naive model of it.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "add_harness.h"
#include "broadcast_shapes.h"

/* -------------------------------------------------------------- float32 */

TestSuite(add_float32, .init = setup, .fini = teardown);

Test(add_float32, same_shape)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32,
				    KH_DIMS(1, 2, 2, 1),
				    (float[]){ 1, -2.5f, 0.25f, 100 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32,
				    KH_DIMS(1, 2, 2, 1),
				    (float[]){ 2, 0.5f, -0.25f, -101 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 2, 1), NULL);
	opver_node *node = add_node(ADD_FLOAT32, 1, OPVER_ACTIVATION_NONE,
				    true, a, b, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (float[]){ 3, -2, 0, -1 }, 4);
	cr_expect_eq(h.num_errors, 0);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(add_float32, activations)
{
	/* Sums before the activation: -2.5, -0.5, 0.5, 3, 7. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, add_float32, activations)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(5),
				    (float[]){ -3, -1, 0, 1, 5 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(5),
				    (float[]){ 0.5f, 0.5f, 0.5f, 2, 2 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(5), NULL);
	opver_node *node = add_node(ADD_FLOAT32, 1, c->activation, true, a, b,
				    out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, c->expected, 5);
}

/* A tensor of shape `s`; the harness copies dims and data. */
static opver_tensor *shaped(const char *name, opver_type type,
			    const bs_shape *s, const void *data)
{
	return kh_tensor(&h, name, type, s->rank, s->dims, data);
}

ParameterizedTestParameters(add_float32, broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

/* Small integers keep every sum exact, so the naive model's double sums
 * are the expected values. */
ParameterizedTest(bs_case *c, add_float32, broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	float a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS], expected[BS_MAX_ELEMENTS];
	opver_tensor *ta, *tb, *out;
	opver_node *node;

	cr_assert(na <= COUNT(a) && nb <= COUNT(b) && no <= COUNT(expected));
	for (size_t i = 0; i < na; i++)
		a[i] = (float)((int)(i * 7 % 13) - 6);
	for (size_t i = 0; i < nb; i++)
		b[i] = (float)(((int)(i * 5 % 11) - 5) * 100);
	for (size_t i = 0; i < no; i++)
		expected[i] = (float)((double)a[bs_source(&c->a, &o, i)] +
				      (double)b[bs_source(&c->b, &o, i)]);
	ta = shaped("a", OPVER_TYPE_FLOAT32, &c->a, a);
	tb = shaped("b", OPVER_TYPE_FLOAT32, &c->b, b);
	out = shaped("out", OPVER_TYPE_FLOAT32, &o, NULL);
	node = add_node(ADD_FLOAT32, 1, OPVER_ACTIVATION_NONE, true, ta, tb,
			out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, expected, no);
}

Test(add_float32, without_params_uses_defaults)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ -3, 5 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 1, 2 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);
	opver_node *node = kh_node(&h, kh_kernel(&h, ADD_FLOAT32), 1, NULL, 0,
				   KH_TENSORS(a, b), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* No activation: -2 stays. */
	kh_expect_floats(out, (float[]){ -2, 7 }, 2);
}

/* ---------------------------------------------------------------- int32 */

TestSuite(add_int32, .init = setup, .fini = teardown);

/* TFLite adds int32s in int arithmetic, wrapping, then clamps to the
 * activation's range. */
Test(add_int32, wraps_and_clamps)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(4),
				    (int32_t[]){ INT32_MAX, 10, -5, 3 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(1),
				    (int32_t[]){ 1 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(4),
				      NULL);

	cr_assert_eq(kh_run(&h, add_node("add_int32", 1, OPVER_ACTIVATION_NONE,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ INT32_MIN, 11, -4, 4 }, 4);
	cr_assert_eq(kh_run(&h, add_node("add_int32", 1, OPVER_ACTIVATION_RELU6,
					 true, a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (int32_t[]){ 0, 6, 0, 4 }, 4);
}
