/*
 * test_reference_add.c - the reference plugin's ADD kernels run from the
 * built reference.so through the kernel harness: int32 wrapping, TFLite's
 * int8 and int16 arithmetic on cases worked out by hand (rounding ties,
 * negative values, saturation, both int16 paths), broadcasting over many shapes against a
 * naive model of it, fused activations, the broadcast plan itself, what
 * prepare rejects and what it says, and the kernels' manifest entries.
 */
#include <stddef.h>
#include <stdint.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "broadcast_shapes.h"
#include "kernel_harness.h"
#include "../plugins/reference/broadcast.h"

#define ADD_FLOAT32 "add_float32"
#define ADD_INT8 "add_int8"
#define ADD_INT16 "add_int16"
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

/* An ADD node with the full current params struct. */
static opver_node *add_node(const char *kernel, int32_t version,
			    opver_activation activation, bool pot_scale_int16,
			    opver_tensor *in1, opver_tensor *in2,
			    opver_tensor *out)
{
	const opver_add_params p = { .activation = activation,
				     .pot_scale_int16 = pot_scale_int16 };

	return kh_node(&h, kh_kernel(&h, kernel), version, &p, sizeof(p),
		       KH_TENSORS(in1, in2), KH_TENSORS(out));
}

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

/* ------------------------------------------------------- broadcast plan */

TestSuite(broadcast_plan, .init = setup, .fini = teardown);

static ref_broadcast plan_for(int32_t ra, const int32_t *da, int32_t rb,
			      const int32_t *db, int32_t ro,
			      const int32_t *dout)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, ra, da, NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, rb, db, NULL);
	opver_tensor *o = kh_tensor(&h, "o", OPVER_TYPE_FLOAT32, ro, dout,
				    NULL);
	ref_broadcast plan;

	cr_assert_eq(ref_broadcast_plan(kh_context(&h), a, b, o, &plan),
		     OPVER_OK, "%s", h.errors);
	return plan;
}

Test(broadcast_plan, same_shapes_are_one_flat_run)
{
	ref_broadcast p = plan_for(KH_DIMS(2, 3, 4, 5), KH_DIMS(2, 3, 4, 5),
				   KH_DIMS(2, 3, 4, 5));

	cr_expect_eq(p.runs, 1);
	cr_expect_eq(p.run_length, 120);
	cr_expect_eq(p.kind, REF_RUN_ELEMENTWISE);
	cr_expect_eq(p.outer_rank, 0);
}

Test(broadcast_plan, a_row_repeats_along_the_rows)
{
	/* [4, 3] + [3]: 4 runs of 3, input 2 starting over each time. */
	ref_broadcast p = plan_for(KH_DIMS(4, 3), KH_DIMS(3), KH_DIMS(4, 3));

	cr_expect_eq(p.runs, 4);
	cr_expect_eq(p.run_length, 3);
	cr_expect_eq(p.kind, REF_RUN_ELEMENTWISE);
	cr_expect_eq(p.outer_rank, 1);
	cr_expect_eq(p.stride1[0], 3);
	cr_expect_eq(p.stride2[0], 0);
}

Test(broadcast_plan, a_column_repeats_its_element_along_each_run)
{
	/* [4, 3] + [4, 1]: runs of 3 in which input 2 holds one value. */
	ref_broadcast p = plan_for(KH_DIMS(4, 3), KH_DIMS(4, 1),
				   KH_DIMS(4, 3));

	cr_expect_eq(p.runs, 4);
	cr_expect_eq(p.run_length, 3);
	cr_expect_eq(p.kind, REF_RUN_INPUT2_REPEATS);
	cr_expect_eq(p.stride1[0], 3);
	cr_expect_eq(p.stride2[0], 1);
}

Test(broadcast_plan, a_scalar_is_one_run_over_everything)
{
	ref_broadcast p = plan_for(0, NULL, KH_DIMS(2, 1, 3, 4),
				   KH_DIMS(2, 1, 3, 4));

	cr_expect_eq(p.runs, 1);
	cr_expect_eq(p.run_length, 24);
	cr_expect_eq(p.kind, REF_RUN_INPUT1_REPEATS);
}

Test(broadcast_plan, dimensions_that_broadcast_alike_merge)
{
	/* [2, 3, 4, 5] + [1, 1, 4, 5]: the two outer dimensions merge into
	 * one of 6, the inner two into runs of 20. */
	ref_broadcast p = plan_for(KH_DIMS(2, 3, 4, 5), KH_DIMS(1, 1, 4, 5),
				   KH_DIMS(2, 3, 4, 5));

	cr_expect_eq(p.runs, 6);
	cr_expect_eq(p.run_length, 20);
	cr_expect_eq(p.outer_rank, 1);
	cr_expect_eq(p.outer_size[0], 6);
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
