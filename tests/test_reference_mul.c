/*
 * test_reference_mul.c - the reference plugin's MUL kernels run from the
 * built reference.so through the kernel harness: TFLite's int8 and int16
 * arithmetic on cases worked out by hand (rescale factors below and above
 * 1, double rounding, saturation), unquantized int16, broadcasting over many
 * shapes against a naive model of it, fused activations, what prepare
 * rejects and what it says, and the kernels' manifest entries.
 */
#include <stddef.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "broadcast_shapes.h"
#include "kernel_harness.h"

#define MUL_FLOAT32 "mul_float32"
#define MUL_INT8 "mul_int8"
#define MUL_INT16 "mul_int16"
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

static opver_node *mul_node(const char *kernel, int32_t version,
			    opver_activation activation, opver_tensor *in1,
			    opver_tensor *in2, opver_tensor *out)
{
	const opver_mul_params p = { .activation = activation };

	return kh_node(&h, kh_kernel(&h, kernel), version, &p, sizeof(p),
		       KH_TENSORS(in1, in2), KH_TENSORS(out));
}

/* -------------------------------------------------------------- float32 */

TestSuite(mul_float32, .init = setup, .fini = teardown);

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(mul_float32, activations)
{
	/* Products before the activation: -6, -0.5, 0.25, 3, 10. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -6, -0.5f, 0.25f, 3, 10 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.25f, 3, 10 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.25f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.25f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, mul_float32, activations)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(5),
				    (float[]){ -3, 1, 0.5f, 1.5f, 5 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(5),
				    (float[]){ 2, -0.5f, 0.5f, 2, 2 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(5), NULL);

	cr_assert_eq(kh_run(&h, mul_node(MUL_FLOAT32, 1, c->activation, a, b,
					 out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, c->expected, 5);
}

ParameterizedTestParameters(mul_float32, broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

/* Products of small integers are exact, so the naive model's double
 * products are the expected values. */
ParameterizedTest(bs_case *c, mul_float32, broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	float a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS], expected[BS_MAX_ELEMENTS];
	opver_tensor *out;

	cr_assert(na <= COUNT(a) && nb <= COUNT(b) && no <= COUNT(expected));
	for (size_t i = 0; i < na; i++)
		a[i] = (float)((int)(i * 7 % 13) - 6);
	for (size_t i = 0; i < nb; i++)
		b[i] = (float)((int)(i * 5 % 11) - 5);
	for (size_t i = 0; i < no; i++)
		expected[i] = (float)((double)a[bs_source(&c->a, &o, i)] *
				      (double)b[bs_source(&c->b, &o, i)]);
	out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32, o.rank, o.dims, NULL);

	cr_assert_eq(kh_run(&h, mul_node(MUL_FLOAT32, 1, OPVER_ACTIVATION_NONE,
					 kh_tensor(&h, "a", OPVER_TYPE_FLOAT32,
						   c->a.rank, c->a.dims, a),
					 kh_tensor(&h, "b", OPVER_TYPE_FLOAT32,
						   c->b.rank, c->b.dims, b),
					 out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, expected, no);
}

/* ----------------------------------------------------------------- int8 */

TestSuite(mul_int8, .init = setup, .fini = teardown);

Test(mul_int8, rescale_of_1_or_more)
{
	/*
	 * Inputs scale 0.5 with zero points 1 and -1, output scale 0.125
	 * with zero point 3: rescale 0.25 / 0.125 = 2, multiplier 2^30 with
	 * shift 2 (a left shift, MUL version 3).
	 *   (3, 1):     2 x 2 = 4 -> x 2 = 8         -> 11
	 *   (1, -1):    0                            -> 3
	 *   (-1, 3):    -2 x 4 = -8 -> -16           -> -13
	 *   (11, 9):    10 x 10 = 100 -> 200         -> 127
	 *   (-128, 127): -129 x 128 -> -33024        -> -128
	 */
	opver_tensor *a =
		kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(5),
			     (int8_t[]){ 3, 1, -1, 11, -128 }, 0.5f, 1);
	opver_tensor *b =
		kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(5),
			     (int8_t[]){ 1, -1, 3, 9, 127 }, 0.5f, -1);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(5),
					 NULL, 0.125f, 3);

	cr_assert_eq(kh_run(&h, mul_node(MUL_INT8, 3, OPVER_ACTIVATION_NONE, a,
					 b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 11, 3, -13, 127, -128 }, 5);
}

Test(mul_int8, rounds_twice_as_tflite)
{
	/*
	 * Scales 1, 1 and 4: rescale 0.25 is 2^30 with shift -1.  The high
	 * multiply rounds half toward +infinity, then the divide by 2 half
	 * away from zero:
	 *   5:   2.5 -> 3, 1.5 -> 2     (1.25 rounded once is 1)
	 *   -5:  -2.5 -> -2, -1 -> -1
	 *   3:   1.5 -> 2, 1 -> 1       (0.75)
	 *   -3:  -1.5 -> -1, -0.5 -> -1 (-0.75)
	 *   6:   3, 1.5 -> 2;  -6: -3, -1.5 -> -2
	 *   100: 50, 25
	 */
	opver_tensor *a =
		kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(7),
			     (int8_t[]){ 5, -5, 3, -3, 6, -6, 10 }, 1.0f, 0);
	opver_tensor *b =
		kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(7),
			     (int8_t[]){ 1, 1, 1, 1, 1, 1, 10 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(7),
					 NULL, 4.0f, 0);

	cr_assert_eq(kh_run(&h, mul_node(MUL_INT8, 1, OPVER_ACTIVATION_NONE, a,
					 b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ 2, -1, 1, -1, 2, -2, 25 }, 7);
}

Test(mul_int8, relu6)
{
	/* Scales 1, 1 and 0.5, output zero point -100: 6.0 is -88.
	 * Products -4, 3 and 20 are q -108 -> -100, -94, -60 -> -88. */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ -2, 3, 4 }, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT8, KH_DIMS(3),
				       (int8_t[]){ 2, 1, 5 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(3),
					 NULL, 0.5f, -100);

	cr_assert_eq(kh_run(&h, mul_node(MUL_INT8, 2, OPVER_ACTIVATION_RELU6,
					 a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, (int8_t[]){ -100, -94, -88 }, 3);
}

ParameterizedTestParameters(mul_int8, broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

/* Broadcasting gives what multiplying the naively expanded inputs, of the
 * output's shape, gives. */
ParameterizedTest(bs_case *c, mul_int8, broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	int8_t a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS];
	int8_t wide_a[BS_MAX_ELEMENTS], wide_b[BS_MAX_ELEMENTS];
	opver_tensor *out, *flat_out;

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
			   0.07f, -4);
	flat_out = kh_quantized(&h, "flat_out", OPVER_TYPE_INT8, o.rank, o.dims,
				NULL, 0.07f, -4);
	cr_assert_eq(kh_run(&h, mul_node(MUL_INT8, 2, OPVER_ACTIVATION_NONE,
					 kh_quantized(&h, "a", OPVER_TYPE_INT8,
						      c->a.rank, c->a.dims, a,
						      0.02f, 3),
					 kh_quantized(&h, "b", OPVER_TYPE_INT8,
						      c->b.rank, c->b.dims, b,
						      0.03f, -5),
					 out)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(
		kh_run(&h,
		       mul_node(MUL_INT8, 2, OPVER_ACTIVATION_NONE,
				kh_quantized(&h, "wide_a", OPVER_TYPE_INT8,
					     o.rank, o.dims, wide_a, 0.02f, 3),
				kh_quantized(&h, "wide_b", OPVER_TYPE_INT8,
					     o.rank, o.dims, wide_b, 0.03f, -5),
				flat_out)),
		OPVER_OK, "%s", h.errors);
	kh_expect_int8s(out, flat_out->data, no);
}

/* ---------------------------------------------------------------- int16 */

TestSuite(mul_int16, .init = setup, .fini = teardown);

Test(mul_int16, quantized)
{
	/*
	 * Scales 1, 0.5 and 4, zero points 0: rescale 0.125, 2^30 with
	 * shift -2.
	 *   (300, 200):   60000 -> 30000 -> 7500
	 *   (-300, 200):  -7500
	 *   (32767, 32767) and (-32768, 32767) saturate
	 *   (3, 5):  15 -> 7.5 -> 8, then 2      (1.875)
	 *   (1, 3):  3 -> 1.5 -> 2, then 0.5 -> 1 (0.375 rounded once is 0)
	 */
	opver_tensor *a = kh_quantized(
		&h, "a", OPVER_TYPE_INT16, KH_DIMS(6),
		(int16_t[]){ 300, -300, 32767, -32768, 3, 1 }, 1.0f, 0);
	opver_tensor *b = kh_quantized(
		&h, "b", OPVER_TYPE_INT16, KH_DIMS(6),
		(int16_t[]){ 200, 200, 32767, 32767, 5, 3 }, 0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(6), NULL, 4.0f, 0);

	cr_assert_eq(kh_run(&h, mul_node(MUL_INT16, 4, OPVER_ACTIVATION_NONE,
					 a, b, out)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 7500, -7500, 32767, -32768, 2, 1 },
			 6);
}

Test(mul_int16, unquantized_wraps_and_clamps_as_tflite)
{
	/* Plain int16 (MUL version 7): 300 x 300 = 90000 wraps to 24464;
	 * -200 x 300 = -60000 wraps to 5536; -3 x 4 = -12. */
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT16, KH_DIMS(3),
				    (int16_t[]){ 300, -200, -3 });
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT16, KH_DIMS(3),
				    (int16_t[]){ 300, 300, 4 });
	opver_tensor *none = kh_tensor(&h, "none", OPVER_TYPE_INT16,
				       KH_DIMS(3), NULL);
	opver_tensor *relu = kh_tensor(&h, "relu", OPVER_TYPE_INT16,
				       KH_DIMS(3), NULL);

	cr_assert_eq(kh_run(&h, mul_node(MUL_INT16, 7, OPVER_ACTIVATION_NONE,
					 a, b, none)),
		     OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_run(&h, mul_node(MUL_INT16, 7, OPVER_ACTIVATION_RELU,
					 a, b, relu)),
		     OPVER_OK, "%s", h.errors);
	kh_expect_int16s(none, (int16_t[]){ 24464, 5536, -12 }, 3);
	kh_expect_int16s(relu, (int16_t[]){ 24464, 5536, 0 }, 3);
}

ParameterizedTestParameters(mul_int16, broadcasts)
{
	return cr_make_param_array(bs_case, (bs_case *)bs_cases,
				   bs_num_cases);
}

ParameterizedTest(bs_case *c, mul_int16, broadcasts)
{
	const bs_shape o = bs_broadcast(&c->a, &c->b);
	const size_t na = bs_elements(&c->a), nb = bs_elements(&c->b);
	const size_t no = bs_elements(&o);
	int16_t a[BS_MAX_ELEMENTS], b[BS_MAX_ELEMENTS];
	int16_t wide_a[BS_MAX_ELEMENTS], wide_b[BS_MAX_ELEMENTS];
	opver_tensor *out, *flat_out;

	cr_assert(na <= COUNT(a) && nb <= COUNT(b) && no <= COUNT(wide_a));
	for (size_t i = 0; i < na; i++)
		a[i] = (int16_t)((int)(i * 7919 % 65536) - 32768);
	for (size_t i = 0; i < nb; i++)
		b[i] = (int16_t)((int)(i * 104729 % 65536) - 32768);
	for (size_t i = 0; i < no; i++) {
		wide_a[i] = a[bs_source(&c->a, &o, i)];
		wide_b[i] = b[bs_source(&c->b, &o, i)];
	}
	out = kh_quantized(&h, "out", OPVER_TYPE_INT16, o.rank, o.dims, NULL,
			   3e-4f, 0);
	flat_out = kh_quantized(&h, "flat_out", OPVER_TYPE_INT16, o.rank,
				o.dims, NULL, 3e-4f, 0);
	cr_assert_eq(
		kh_run(&h,
		       mul_node(MUL_INT16, 4, OPVER_ACTIVATION_NONE,
				kh_quantized(&h, "a", OPVER_TYPE_INT16,
					     c->a.rank, c->a.dims, a, 1e-4f, 0),
				kh_quantized(&h, "b", OPVER_TYPE_INT16,
					     c->b.rank, c->b.dims, b, 2e-4f, 0),
				out)),
		OPVER_OK, "%s", h.errors);
	cr_assert_eq(
		kh_run(&h,
		       mul_node(MUL_INT16, 4, OPVER_ACTIVATION_NONE,
				kh_quantized(&h, "wide_a", OPVER_TYPE_INT16,
					     o.rank, o.dims, wide_a, 1e-4f, 0),
				kh_quantized(&h, "wide_b", OPVER_TYPE_INT16,
					     o.rank, o.dims, wide_b, 2e-4f, 0),
				flat_out)),
		OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, flat_out->data, no);
}

/* ------------------------------------------------------ prepare rejects */

TestSuite(mul_prepare, .init = setup, .fini = teardown);

Test(mul_prepare, rejects_int16_zero_points)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *b = kh_quantized(&h, "b", OPVER_TYPE_INT16, KH_DIMS(2),
				       NULL, 1.0f, 7);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(2), NULL, 1.0f, 0);

	kh_expect_rejected(
		&h, mul_node(MUL_INT16, 4, OPVER_ACTIVATION_NONE, a, b, out),
		OPVER_ERROR_INVALID_MODEL,
		"input 2 'b' has zero point 7; int16 MUL needs symmetric "
		"quantization");
}

Test(mul_prepare, rejects_a_rescale_of_2_to_the_31)
{
	/* 100 x 100 / 1e-6 = 1e10 */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 100.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1e-6f, 0);

	kh_expect_rejected(
		&h, mul_node(MUL_INT8, 3, OPVER_ACTIVATION_NONE, a, a, out),
		OPVER_ERROR_INVALID_MODEL,
		"a rescale factor must be finite, not negative and below 2^30");
}

Test(mul_prepare, rejects_scales_whose_product_overflows_float)
{
	/* 1e30 x 1e30 is infinite in float, where TFLite computes it (and
	 * then converts infinity to an integer); in double 1e60 / 1e30 =
	 * 1e30, which no multiplier holds. */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 1e30f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1e30f, 0);

	kh_expect_rejected(
		&h, mul_node(MUL_INT8, 3, OPVER_ACTIVATION_NONE, a, a, out),
		OPVER_ERROR_INVALID_MODEL,
		"input 1 scale x input 2 scale / output scale is 1e+30; a rescale factor must be finite");
}

Test(mul_prepare, computes_in_double_where_the_float_product_overflows)
{
	/* 1e20 x 1e20 / 1e38 = 100: the float product is infinite, the
	 * double one is not, and 100 x 1 x 1 is 100, clamped to 127. */
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       (int8_t[]){ 1, -1 }, 1e20f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8, KH_DIMS(2),
					 NULL, 1e38f, 0);
	const int8_t *y = out->data;

	cr_assert_eq(kh_run(&h, mul_node(MUL_INT8, 3, OPVER_ACTIVATION_NONE,
					 a, a, out)),
		     OPVER_OK, "%s", h.errors);
	cr_expect_eq(y[0], 100);
	cr_expect_eq(y[1], 100);
}

Test(mul_prepare, rejects_shapes_that_do_not_broadcast)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(3, 2),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 3), NULL);

	kh_expect_rejected(
		&h, mul_node(MUL_FLOAT32, 1, OPVER_ACTIVATION_NONE, a, b, out),
		OPVER_ERROR_INVALID_MODEL,
		"inputs 'a' [3, 2] and 'b' [3] do not broadcast");
}

Test(mul_prepare, rejects_a_missing_input)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	kh_expect_rejected(
		&h,
		mul_node(MUL_FLOAT32, 1, OPVER_ACTIVATION_NONE, a, NULL, out),
		OPVER_ERROR_INVALID_MODEL,
		"input 1 is omitted; MUL takes two inputs and one output");
}

Test(mul_prepare, rejects_a_float_output_for_int8_inputs)
{
	opver_tensor *a = kh_quantized(&h, "a", OPVER_TYPE_INT8, KH_DIMS(2),
				       NULL, 1.0f, 0);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	kh_expect_rejected(
		&h, mul_node(MUL_INT8, 2, OPVER_ACTIVATION_NONE, a, a, out),
		OPVER_ERROR_UNSUPPORTED,
		"output 'out' has type FLOAT32; this kernel takes INT8");
}

Test(mul_prepare, rejects_a_fused_sign_bit)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    NULL);

	kh_expect_rejected(
		&h,
		mul_node(MUL_FLOAT32, 1, OPVER_ACTIVATION_SIGN_BIT, a, a, a),
		OPVER_ERROR_UNSUPPORTED, "fused activation 5 is not supported");
}

/* --------------------------------------------------------------- plugin */

TestSuite(mul_manifest, .init = setup, .fini = teardown);

struct kernel_case {
	char name[32];
	opver_type type;
};

ParameterizedTestParameters(mul_manifest, kernels)
{
	static struct kernel_case cases[] = {
		{ MUL_FLOAT32, OPVER_TYPE_FLOAT32 },
		{ MUL_INT8, OPVER_TYPE_INT8 },
		{ MUL_INT16, OPVER_TYPE_INT16 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, mul_manifest, kernels)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, OPVER_OP_MUL);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, 8,
		     "3 (rescale >= 1), 4 and 7 (int16) are implemented; "
		     "5, 6 and 8 add other types");
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_expect_null(k->init);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->type));
	cr_expect_eq(s->inputs[1], OPVER_TYPE_BIT(c->type));
	cr_expect_eq(s->inputs[2], 0);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->type));
}
