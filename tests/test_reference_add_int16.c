/*
 * test_reference_add_int16.c - the reference plugin's int16 ADD kernel:
 * both of TFLite's int16 paths on cases worked out by hand, the params that
 * choose them, unquantized wrapping and broadcasting.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "add_harness.h"
#include "broadcast_shapes.h"

/* ---------------------------------------------------------------- int16 */

TestSuite(add_int16, .init = setup, .fini = teardown);

/* Runs an int16 ADD of `count` elements with the given scales, zero
 * points 0 and no activation; returns its output. */
static opver_tensor *int16_add(bool pot_scale_int16, float scale1,
			       float scale2, float output_scale,
			       const int16_t *in1, const int16_t *in2,
			       size_t count)
{
	const int32_t dims[1] = { (int32_t)count };
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, 1, dims, in1,
				       scale1, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, 1, dims, in2,
				       scale2, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16, 1, dims,
					 NULL, output_scale, 0);
	opver_node *node = add_node(ADD_INT16, 3, OPVER_ACTIVATION_NONE,
				    pot_scale_int16, a, b, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	return out;
}

/* Inputs for the int16 cases below. */
static const int16_t pot_in1[] = { 1, 5, -5, 100, 32767, -32768 };
static const int16_t pot_in2[] = { -2, 0, 0, 10, 32767, -32768 };

Test(add_int16, power_of_two_scales_take_the_power_of_two_path)
{
	/*
	 * Scales 2^-10, 2^-12 and 2^-10: input 2 is divided by 2^2,
	 * rounding half away from zero, then added with int16 saturation:
	 *   1 + round(-0.5) = 1 - 1 = 0   (the general path gives 1: it
	 *                                   rounds the sum 0.5 once)
	 *   5 + 0 = 5;  -5 + 0 = -5
	 *   100 + round(2.5) = 103
	 *   32767 + round(8191.75) = 40959 -> 32767
	 *   -32768 + (-8192) -> -32768
	 */
	opver_tensor *out = int16_add(true, 0x1p-10f, 0x1p-12f, 0x1p-10f,
				      pot_in1, pot_in2, COUNT(pot_in1));

	kh_expect_int16s(out, (int16_t[]){ 0, 5, -5, 103, 32767, -32768 }, 6);
}

Test(add_int16, pot_scale_int16_false_takes_the_general_path)
{
	/*
	 * The same tensors through the general path: shifted left 15,
	 * input 1 rescaled by 2^-10 / 2^-9 = 0.5 and input 2 by 0.125 (both
	 * exact here), the sum by 2^-9 / (2^15 x 2^-10) = 2^-14 rounding half
	 * away from zero:
	 *   (1, -2): 1 - 0.5 = 0.5, a tie, away from zero -> 1
	 *   (5, 0) -> 5;  (-5, 0) -> -5;  (100, 10): 102.5 -> 103
	 *   saturating ends as above
	 */
	opver_tensor *out = int16_add(false, 0x1p-10f, 0x1p-12f, 0x1p-10f,
				      pot_in1, pot_in2, COUNT(pot_in1));

	kh_expect_int16s(out, (int16_t[]){ 1, 5, -5, 103, 32767, -32768 }, 6);
}

Test(add_int16, scales_not_powers_of_two_take_the_general_path)
{
	/*
	 * pot_scale_int16 set, but scales 0.5, 0.25 and 1.5: not rejected,
	 * computed on the general path.  Twice the larger input scale is 1;
	 * the sum's rescale is 1 / (2^15 x 1.5) = 2^-15 / 1.5.
	 *   (3, 0): 1.5 / 1.5 = 1;  (0, 6): 1.5 / 1.5 = 1
	 *   (9, 6): (4.5 + 1.5) / 1.5 = 4
	 *   (-3, -3): -2.25 / 1.5 = -1.5, a tie, away from zero -> -2
	 *   (30000, 30000): 22500 / 1.5 = 15000
	 */
	opver_tensor *out = int16_add(
		true, 0.5f, 0.25f, 1.5f, (int16_t[]){ 3, 0, 9, -3, 30000 },
		(int16_t[]){ 0, 6, 6, -3, 30000 }, 5);

	kh_expect_int16s(out, (int16_t[]){ 1, 1, 4, -2, 15000 }, 5);
}

Test(add_int16, nonzero_zero_points_take_the_general_path)
{
	/*
	 * Power-of-two scales 1, 1 and 2 with pot_scale_int16 set, but zero
	 * points 10, -10 and 3: TFLite's general path, whose offsets handle
	 * them.  (q1 - 10 + q2 + 10) / 2 + 3:
	 *   (20, -10): 10 / 2 = 5 -> 8;   (11, -10): 0.5 -> 1 -> 4
	 *   (9, -10): -0.5 -> -1 -> 2
	 */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(3),
				       (int16_t[]){ 20, 11, 9 }, 1.0f, 10);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(3),
				       (int16_t[]){ -10, -10, -10 }, 1.0f, -10);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(3), NULL, 2.0f, 3);
	opver_node *node = add_node(ADD_INT16, 1, OPVER_ACTIVATION_NONE, true,
				    a, b, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 8, 4, 2 }, 3);
}

Test(add_int16, power_of_two_path_with_a_relu6)
{
	/* Scales 2^-8 (both inputs and output): 6.0 is q 1536.  Sums 1000,
	 * 2000 and -5 clamp to [0, 1536]. */
	opver_tensor *a =
		kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(3),
			     (int16_t[]){ 500, 1000, -10 }, 0x1p-8f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(3),
				       (int16_t[]){ 500, 1000, 5 }, 0x1p-8f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(3), NULL, 0x1p-8f, 0);
	opver_node *node = add_node(ADD_INT16, 1, OPVER_ACTIVATION_RELU6, true,
				    a, b, out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 1000, 1536, 0 }, 3);
}

Test(add_int16, without_params_defaults_to_the_power_of_two_path)
{
	/* pot_scale_int16 defaults to true: 1 + round(-0.5) = 0 as on the
	 * power-of-two path (the general path would give 1). */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(1),
				       (int16_t[]){ 1 }, 0x1p-10f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(1),
				       (int16_t[]){ -2 }, 0x1p-12f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(1), NULL, 0x1p-10f, 0);
	opver_node *node = kh_node(&h, kh_kernel(&h, ADD_INT16), 1, NULL, 0,
				   KH_TENSORS(a, b), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 0 }, 1);
}

/* A core that fills only the activation (a model from before ADD
 * version 3) leaves pot_scale_int16 at its default, true, whatever the
 * bytes past the filled prefix say. */
Test(add_int16, reads_only_the_filled_params_prefix)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(1),
				       (int16_t[]){ 1 }, 0x1p-10f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(1),
				       (int16_t[]){ -2 }, 0x1p-12f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(1), NULL, 0x1p-10f, 0);
	const opver_add_params p = { .activation = OPVER_ACTIVATION_NONE,
				     .pot_scale_int16 = 0 };
	opver_node *node =
		kh_node(&h, kh_kernel(&h, ADD_INT16), 1, &p,
			offsetof(opver_add_params, pot_scale_int16),
			KH_TENSORS(a, b), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* The power-of-two path's 0, not the general path's 1. */
	kh_expect_int16s(out, (int16_t[]){ 0 }, 1);
}

Test(add_int16, unquantized_wraps_and_clamps_as_tflite)
{
	/*
	 * Plain int16 (ADD version 5): 30000 + 10000 = 40000 wraps to
	 * 40000 - 65536 = -25536; -30000 - 10000 wraps to 25536; 3 + 4 = 7.
	 */
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT16, KH_DIMS(3),
				    (int16_t[]){ 30000, -30000, 3 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT16, KH_DIMS(3),
				    (int16_t[]){ 10000, -10000, 4 });
	opver_tensor *none = kh_tensor(&h, "none", OPVER_TYPE_INT16,
				       KH_DIMS(3), NULL);
	opver_tensor *relu6 = kh_tensor(&h, "relu6", OPVER_TYPE_INT16,
					KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, add_node(ADD_INT16, 5, OPVER_ACTIVATION_NONE,
					 true, a, b, none)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, add_node(ADD_INT16, 5, OPVER_ACTIVATION_RELU6,
					 true, a, b, relu6)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(none, (int16_t[]){ -25536, 25536, 7 }, 3);
	/* RELU6 on plain integers clamps to [0, 6]. */
	kh_expect_int16s(relu6, (int16_t[]){ 0, 6, 6 }, 3);
}

ParameterizedTestParameters(add_int16, broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

/* Both quantized paths broadcast as adding expanded inputs does. */
ParameterizedTest(bs_case *c, add_int16, broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	int16_t a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS];
	int16_t wide_a[BS_MAX_ELEMENTS], wide_b[BS_MAX_ELEMENTS];

	cr_assert(na <= COUNT(a) && nb <= COUNT(b) && no <= COUNT(wide_a));
	for (size_t i = 0; i < na; i++)
		a[i] = (int16_t)((int)(i * 7919 % 65536) - 32768);
	for (size_t i = 0; i < nb; i++)
		b[i] = (int16_t)((int)(i * 104729 % 65536) - 32768);
	for (size_t i = 0; i < no; i++) {
		wide_a[i] = a[bs_source(&c->a, &o, i)];
		wide_b[i] = b[bs_source(&c->b, &o, i)];
	}
	/* general (0.3, 0.7, 1.1) and power-of-two (2^-8, 2^-11, 2^-8) */
	for (int pot = 0; pot < 2; pot++) {
		const float s1 = pot ? 0x1p-8f : 0.3f;
		const float s2 = pot ? 0x1p-11f : 0.7f;
		const float so = pot ? 0x1p-8f : 1.1f;
		opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
						 o.rank, o.dims, NULL, so, 0);
		opver_tensor *flat_out =
			kh_quantized(&h, "flat_out", OPVER_TYPE_INT16, o.rank,
				     o.dims, NULL, so, 0);
		opver_node *node =
			add_node(ADD_INT16, 3, OPVER_ACTIVATION_NONE, pot,
				 kh_quantized(&h, "a", OPVER_TYPE_INT16,
					      c->a.rank, c->a.dims, a, s1, 0),
				 kh_quantized(&h, "b", OPVER_TYPE_INT16,
					      c->b.rank, c->b.dims, b, s2, 0),
				 out);
		opver_node *flat =
			add_node(ADD_INT16, 3, OPVER_ACTIVATION_NONE, pot,
				 kh_quantized(&h, "wide_a", OPVER_TYPE_INT16,
					      o.rank, o.dims, wide_a, s1, 0),
				 kh_quantized(&h, "wide_b", OPVER_TYPE_INT16,
					      o.rank, o.dims, wide_b, s2, 0),
				 flat_out);

		cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
		cr_assert_eq(kh_run(&h, flat), OPVER_OK, "%s", h.errors);
		kh_expect_int16s(out, flat_out->data, no);
	}
}
