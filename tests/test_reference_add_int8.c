/*
 * test_reference_add_int8.c - the reference plugin's int8 ADD kernel:
 * TFLite's arithmetic on cases worked out by hand (rounding ties, negative
 * values, saturation), fused activations and broadcasting.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "add_harness.h"
#include "broadcast_shapes.h"

/* ----------------------------------------------------------------- int8 */

TestSuite(add_int8, .init = setup, .fini = teardown);

Test(add_int8, rescales_and_rounds_as_tflite)
{
	/*
	 * input 1: scale 0.5, zero point 2; input 2: scale 0.25, zero
	 * point -3; output: scale 1, zero point 5.
	 * twice the larger input scale is 1, so input 1 is rescaled by 0.5
	 * (2^30, shift 0), input 2 by 0.25 (2^30, shift -1), and the sum by
	 * 1 / (2^20 x 1) (2^30, shift -19).  Every step is exact until the
	 * last divide by 2^19, which rounds half away from zero:
	 *   (10, -7): 8 x 0.5 + (-4) x 0.25 = 3            -> 3 + 5 = 8
	 *   (7, -3):  5 x 0.5 = 2.5, a tie, away           -> 3 + 5 = 8
	 *   (-3, -3): -5 x 0.5 = -2.5, a tie, away         -> -3 + 5 = 2
	 *   (2, -2):  1 x 0.25 = 0.25                      -> 0 + 5 = 5
	 *   (2, -1):  2 x 0.25 = 0.5, a tie, away          -> 1 + 5 = 6
	 *   (2, -5):  -2 x 0.25 = -0.5, a tie, away        -> -1 + 5 = 4
	 *   (0, 0):   -2 x 0.5 + 3 x 0.25 = -0.25          -> 0 + 5 = 5
	 */
	opver_tensor *a =
		kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(7),
			     (int8_t[]){ 10, 7, -3, 2, 2, 2, 0 }, 0.5f, 2);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(7),
				       (int8_t[]){ -7, -3, -3, -2, -1, -5, 0 },
				       0.25f, -3);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(7),
					 NULL, 1.0f, 5);
	opver_node *node = add_node(ADD_INT8, 2, OPVER_ACTIVATION_NONE, true,
				    a, b, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 8, 8, 2, 5, 6, 4, 5 }, 7);
}

Test(add_int8, saturates_at_the_type_edges)
{
	/* All scales 1, zero points 0: the plain sum, clamped. */
	opver_tensor *a =
		kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(5),
			     (int8_t[]){ 100, -100, 127, 127, -128 }, 1.0f, 0);
	opver_tensor *b =
		kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(5),
			     (int8_t[]){ 100, -100, -128, 0, -128 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(5),
					 NULL, 1.0f, 0);
	opver_node *node = add_node(ADD_INT8, 2, OPVER_ACTIVATION_NONE, true,
				    a, b, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 127, -128, -1, 127, -128 }, 5);
}

struct int8_activation_case {
	opver_activation activation;
	int8_t expected[4];
};

ParameterizedTestParameters(add_int8, activations)
{
	/*
	 * Real sums -1, 2, 5, 7 at output scale 0.125, zero point -20 are
	 * q -28, -4, 20, 36.  RELU clamps to [-20, 127]; RELU6 to
	 * [-20, -20 + 48]; RELU_N1_TO_1 to [-20 - 8, -20 + 8].
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

ParameterizedTest(struct int8_activation_case *c, add_int8, activations)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(4),
				       (int8_t[]){ -2, 1, 4, 6 }, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(1),
				       (int8_t[]){ 1 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(4),
					 NULL, 0.125f, -20);
	opver_node *node = add_node(ADD_INT8, 2, c->activation, true, a, b,
				    out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, c->expected, 4);
}

ParameterizedTestParameters(add_int8, broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

/* Broadcasting gives what adding the naively expanded inputs, of the
 * output's shape, gives. */
ParameterizedTest(bs_case *c, add_int8, broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	int8_t a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS];
	int8_t wide_a[BS_MAX_ELEMENTS], wide_b[BS_MAX_ELEMENTS];
	opver_tensor *out, *flat_out;
	opver_node *node, *flat;

	cr_assert(na <= COUNT(a) && nb <= COUNT(b) && no <= COUNT(wide_a));
	for (size_t i = 0; i < na; i++)
		a[i] = (int8_t)(i * 37 % 256 - 128);
	for (size_t i = 0; i < nb; i++)
		b[i] = (int8_t)(i * 91 % 256 - 128);
	for (size_t i = 0; i < no; i++) {
		wide_a[i] = a[bs_source(&c->a, &o, i)];
		wide_b[i] = b[bs_source(&c->b, &o, i)];
	}
	out = kh_quantized(&h, "out", OPVER_TYPE_INT8, o.rank, o.dims, NULL,
			   0.7f, 1);
	node = add_node(ADD_INT8, 2, OPVER_ACTIVATION_NONE, true,
			kh_quantized(&h, "a", OPVER_TYPE_INT8, c->a.rank,
				     c->a.dims, a, 0.5f, 3),
			kh_quantized(&h, "b", OPVER_TYPE_INT8, c->b.rank,
				     c->b.dims, b, 0.3f, -5),
			out);
	flat_out = kh_quantized(&h, "flat_out", OPVER_TYPE_INT8, o.rank, o.dims,
				NULL, 0.7f, 1);
	flat = add_node(ADD_INT8, 2, OPVER_ACTIVATION_NONE, true,
			kh_quantized(&h, "wide_a", OPVER_TYPE_INT8, o.rank,
				     o.dims, wide_a, 0.5f, 3),
			kh_quantized(&h, "wide_b", OPVER_TYPE_INT8, o.rank,
				     o.dims, wide_b, 0.3f, -5),
			flat_out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, flat), OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, flat_out->data, no);
}
