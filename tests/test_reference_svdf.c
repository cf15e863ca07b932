/*
 * test_reference_svdf.c - the reference plugin's SVDF through the kernel
 * harness, over several invokes of one node so that the state shifts:
 * float32 (rank 1 and 2, two batches, RELU, TANH, SIGN_BIT), hybrid and
 * full-integer int8, every value worked out by hand in the comments, and
 * the refusals of prepare.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "kernel_harness.h"

static kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(svdf, .init = setup, .fini = teardown);

/* weights_feature [[1, 2], [0.5, -1]], weights_time [[1, 10, 100],
 * [1, 2, 4]] (memory 3, oldest first). */
static opver_tensor *constant(opver_tensor *t)
{
	t->is_constant = true;
	return t;
}

typedef struct float_svdf {
	opver_tensor *input, *state, *output;
	opver_node *node;
} float_svdf;

static float_svdf float_node(int32_t batch, int32_t rank, int32_t activation,
			     const float *bias)
{
	const opver_svdf_params p = { rank, activation, 0 };
	const int32_t units = 2 / rank;
	float_svdf s;
	opver_tensor *feature = constant(kh_tensor(
		&h, "weights_feature", OPVER_TYPE_FLOAT32, KH_DIMS(2, 2),
		(const float[]){ 1, 2, 0.5f, -1 }));
	opver_tensor *time = constant(kh_tensor(
		&h, "weights_time", OPVER_TYPE_FLOAT32, KH_DIMS(2, 3),
		(const float[]){ 1, 10, 100, 1, 2, 4 }));
	opver_tensor *b = bias == NULL ? NULL : constant(kh_tensor(
		&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(units), bias));

	s.input = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, KH_DIMS(batch, 2),
			    NULL);
	s.state = kh_tensor(&h, "state", OPVER_TYPE_FLOAT32, KH_DIMS(batch, 6),
			    NULL);
	s.output = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
			     KH_DIMS(batch, units), NULL);
	s.node = kh_node(&h, kh_kernel(&h, "svdf"), 1, &p, sizeof(p),
			 KH_TENSORS(s.input, feature, time, b, s.state),
			 KH_TENSORS(s.output));
	cr_assert_eq(kh_prepare(&h, s.node), OPVER_OK, "%s", h.errors);
	return s;
}

static void float_step(const float_svdf *s, const float *x, const float *y,
		       size_t outputs)
{
	memcpy(s->input->data, x, s->input->bytes);
	cr_assert_eq(kh_invoke(&h, s->node), OPVER_OK, "%s", h.errors);
	kh_expect_floats(s->output, y, outputs);
}

/* Memories f0 [0 0 3] [0 3 2] [3 2 2] and f1 [0 0 -0.5] [0 -0.5 1]
 * [-0.5 1 -1]; outputs are their dot products with weights_time, plus
 * the bias. */
Test(svdf, float_state_shifts_over_three_invokes)
{
	float_svdf s = float_node(1, 1, OPVER_ACTIVATION_NONE,
				  (const float[]){ 0.25f, -0.5f });

	float_step(&s, (const float[]){ 1, 1 },
		   (const float[]){ 300.25f, -2.5f }, 2);
	float_step(&s, (const float[]){ 2, 0 },
		   (const float[]){ 230.25f, 2.5f }, 2);
	float_step(&s, (const float[]){ 0, 1 },
		   (const float[]){ 223.25f, -3.0f }, 2);
	kh_expect_floats(s.state, (const float[]){ 3, 2, 2, -0.5f, 1, -1 }, 6);
}

/* Rank 2: one unit sums both filters (300 - 2, then 230 + 3); no bias. */
Test(svdf, float_rank_two_sums_the_filters_of_a_unit)
{
	float_svdf s = float_node(1, 2, OPVER_ACTIVATION_NONE, NULL);

	float_step(&s, (const float[]){ 1, 1 }, (const float[]){ 298 }, 1);
	float_step(&s, (const float[]){ 2, 0 }, (const float[]){ 233 }, 1);
}

/* Two batches keep separate memories; RELU clamps -2.5 and -3. */
Test(svdf, float_batches_and_relu)
{
	float_svdf s = float_node(2, 1, OPVER_ACTIVATION_RELU,
				  (const float[]){ 0.25f, -0.5f });

	/* batch 1 first sees (2, 0): f0 2 x 100, f1 1 x 4 - 0.5. */
	float_step(&s, (const float[]){ 1, 1, 2, 0 },
		   (const float[]){ 300.25f, 0, 200.25f, 3.5f }, 4);
	/* batch 1 then (0, 1): f0 [0 2 2] 220, f1 [0 1 -1] 2 - 4 - 0.5. */
	float_step(&s, (const float[]){ 2, 0, 0, 1 },
		   (const float[]){ 230.25f, 2.5f, 220.25f, 0 }, 4);
}

/*
 * int8: input scale 0.5 zero point 1, weights_feature scale 0.25, state
 * scale 0.125 (feature rescale 1), weights_time scale 0.5, output scale
 * 0.25 zero point 10 (time rescale 0.25, halves rounded away from zero).
 * weights_feature [[1, 2], [3, -1]], weights_time [[1, 3], [2, -1]],
 * bias [4, -8]; memory 2.
 */
Test(svdf, int8_state_shifts_and_rescales)
{
	const opver_svdf_params p = { 1, OPVER_ACTIVATION_NONE, 0 };
	opver_tensor *input = kh_quantized(&h, "input", OPVER_TYPE_INT8,
					   KH_DIMS(1, 2), NULL, 0.5f, 1);
	opver_tensor *feature = constant(kh_quantized(
		&h, "weights_feature", OPVER_TYPE_INT8, KH_DIMS(2, 2),
		(const int8_t[]){ 1, 2, 3, -1 }, 0.25f, 0));
	opver_tensor *time = constant(kh_quantized(
		&h, "weights_time", OPVER_TYPE_INT16, KH_DIMS(2, 2),
		(const int16_t[]){ 1, 3, 2, -1 }, 0.5f, 0));
	opver_tensor *bias = constant(kh_tensor(&h, "bias", OPVER_TYPE_INT32,
						KH_DIMS(2),
						(const int32_t[]){ 4, -8 }));
	opver_tensor *state = kh_quantized(&h, "state", OPVER_TYPE_INT16,
					   KH_DIMS(1, 4), NULL, 0.125f, 0);
	opver_tensor *output = kh_quantized(&h, "output", OPVER_TYPE_INT8,
					    KH_DIMS(1, 2), NULL, 0.25f, 10);
	opver_node *n = kh_node(&h, kh_kernel(&h, "svdf"), 3, &p, sizeof(p),
				KH_TENSORS(input, feature, time, bias, state),
				KH_TENSORS(output));

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	/* x - 1 = (2, -2): activations -2, 8; sums -6 + 4, -8 - 8 give
	 * -0.5 -> -1 and -4, plus 10. */
	memcpy(input->data, (const int8_t[]){ 3, -1 }, 2);
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int8s(output, (const int8_t[]){ 9, 6 }, 2);
	/* (0, 2): activations 4, -2; memories [-2 4], [8 -2]; sums 10 + 4
	 * = 14 -> 3.5 -> 4, 18 - 8 = 10 -> 2.5 -> 3. */
	memcpy(input->data, (const int8_t[]){ 1, 3 }, 2);
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int8s(output, (const int8_t[]){ 14, 13 }, 2);
	kh_expect_int16s(state, (const int16_t[]){ -2, 4, 8, -2 }, 4);
	/* (0, 0): memories [4 0], [-2 0]; sums 8 -> 2, -12 -> -3. */
	memcpy(input->data, (const int8_t[]){ 1, 1 }, 2);
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int8s(output, (const int8_t[]){ 12, 7 }, 2);
}

/* The activation lands in the state clamped to int16: 127 x (127 + 128)
 * x 2 = 64770 at a feature rescale of 1. */
Test(svdf, int8_activation_saturates_in_the_state)
{
	const opver_svdf_params p = { 1, OPVER_ACTIVATION_NONE, 0 };
	opver_tensor *input = kh_quantized(&h, "input", OPVER_TYPE_INT8,
					   KH_DIMS(1, 2),
					   (const int8_t[]){ 127, 127 }, 0.5f,
					   -128);
	opver_tensor *feature = constant(kh_quantized(
		&h, "weights_feature", OPVER_TYPE_INT8, KH_DIMS(1, 2),
		(const int8_t[]){ 127, 127 }, 0.25f, 0));
	opver_tensor *time = constant(kh_quantized(
		&h, "weights_time", OPVER_TYPE_INT16, KH_DIMS(1, 1),
		(const int16_t[]){ 1 }, 0.5f, 0));
	opver_tensor *state = kh_quantized(&h, "state", OPVER_TYPE_INT16,
					   KH_DIMS(1, 1), NULL, 0.125f, 0);
	opver_tensor *output = kh_quantized(&h, "output", OPVER_TYPE_INT8,
					    KH_DIMS(1, 1), NULL, 0.25f, 0);
	opver_node *n = kh_node(&h, kh_kernel(&h, "svdf"), 3, &p, sizeof(p),
				KH_TENSORS(input, feature, time, NULL, state),
				KH_TENSORS(output));

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(state, (const int16_t[]){ INT16_MAX }, 1);
	kh_expect_int8s(output, (const int8_t[]){ INT8_MAX }, 1);
}

/*
 * Hybrid: input quantized symmetrically per batch (scale max|x| / 127),
 * weights_feature [[2, 1]] at scale 0.5, weights_time [[4, 3]] at 0.25
 * (1 and 0.75), memory 2.  (0.5, -1) -> (64, -127): activation
 * (128 - 127) x 0.5 / 127; then (1, 1) -> (127, 127): 381 x 0.5 / 127 =
 * 1.5, and the first activation moves to the older slot.
 */
Test(svdf, hybrid_quantizes_each_invoke)
{
	const opver_svdf_params p = { 1, OPVER_ACTIVATION_NONE, 0 };
	const float first = 0.5f / 127;
	opver_tensor *input = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
					KH_DIMS(1, 2), NULL);
	opver_tensor *feature = constant(kh_quantized(
		&h, "weights_feature", OPVER_TYPE_INT8, KH_DIMS(1, 2),
		(const int8_t[]){ 2, 1 }, 0.5f, 0));
	opver_tensor *time = constant(kh_quantized(
		&h, "weights_time", OPVER_TYPE_INT8, KH_DIMS(1, 2),
		(const int8_t[]){ 4, 3 }, 0.25f, 0));
	opver_tensor *state = kh_tensor(&h, "state", OPVER_TYPE_FLOAT32,
					KH_DIMS(1, 2), NULL);
	opver_tensor *output = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
					 KH_DIMS(1, 1), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "svdf_hybrid"), 2, &p,
				sizeof(p),
				KH_TENSORS(input, feature, time, NULL, state),
				KH_TENSORS(output));
	float y;

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	memcpy(input->data, (const float[]){ 0.5f, -1 }, 2 * sizeof(float));
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	y = *(const float *)output->data;
	cr_expect_float_eq(y, 0.75f * first, 1e-7f, "got %g", y);
	memcpy(input->data, (const float[]){ 1, 1 }, 2 * sizeof(float));
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	y = *(const float *)output->data;
	cr_expect_float_eq(y, first + 1.125f, 1e-6f, "got %g", y);
}

/* RELU6 has no integer form in TFLite's kernel. */
Test(svdf, int8_refuses_relu6)
{
	const opver_svdf_params p = { 1, OPVER_ACTIVATION_RELU6, 0 };
	opver_tensor *input = kh_quantized(&h, "input", OPVER_TYPE_INT8,
					   KH_DIMS(1, 1), NULL, 0.5f, 0);
	opver_tensor *feature = constant(kh_quantized(
		&h, "weights_feature", OPVER_TYPE_INT8, KH_DIMS(1, 1),
		(const int8_t[]){ 1 }, 0.25f, 0));
	opver_tensor *time = constant(kh_quantized(
		&h, "weights_time", OPVER_TYPE_INT16, KH_DIMS(1, 1),
		(const int16_t[]){ 1 }, 0.5f, 0));
	opver_tensor *state = kh_quantized(&h, "state", OPVER_TYPE_INT16,
					   KH_DIMS(1, 1), NULL, 0.125f, 0);
	opver_tensor *output = kh_quantized(&h, "output", OPVER_TYPE_INT8,
					    KH_DIMS(1, 1), NULL, 0.25f, 0);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "svdf"), 3, &p,
				       sizeof(p),
				       KH_TENSORS(input, feature, time, NULL,
						  state),
				       KH_TENSORS(output)),
			   OPVER_ERROR_UNSUPPORTED, "NONE or RELU");
}

/* A float node built with these parameters, its state given. */
static opver_node *float_with(int32_t rank, int32_t activation,
			      opver_tensor *state)
{
	const opver_svdf_params p = { rank, activation, 0 };
	opver_tensor *feature = constant(kh_tensor(
		&h, "weights_feature", OPVER_TYPE_FLOAT32, KH_DIMS(2, 2), NULL));
	opver_tensor *time = constant(kh_tensor(
		&h, "weights_time", OPVER_TYPE_FLOAT32, KH_DIMS(2, 3), NULL));
	opver_tensor *input = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
					KH_DIMS(1, 2), NULL);
	opver_tensor *output = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
					 KH_DIMS(1, 2 / (rank > 0 ? rank : 1)),
					 NULL);

	return kh_node(&h, kh_kernel(&h, "svdf"), 1, &p, sizeof(p),
		       KH_TENSORS(input, feature, time, NULL, state),
		       KH_TENSORS(output));
}

static opver_tensor *float_state(void)
{
	return kh_tensor(&h, "state", OPVER_TYPE_FLOAT32, KH_DIMS(1, 6), NULL);
}

Test(svdf, refuses_a_rank_that_does_not_divide_the_filters)
{
	kh_expect_rejected(&h, float_with(0, OPVER_ACTIVATION_NONE,
					  float_state()),
			   OPVER_ERROR_INVALID_MODEL, "rank is 0");
}

Test(svdf, refuses_a_constant_state)
{
	kh_expect_rejected(&h, float_with(1, OPVER_ACTIVATION_NONE,
					  constant(float_state())),
			   OPVER_ERROR_INVALID_MODEL, "must be a variable");
}

Test(svdf, refuses_a_state_of_the_wrong_shape)
{
	kh_expect_rejected(&h, float_with(1, OPVER_ACTIVATION_NONE,
					  kh_tensor(&h, "state",
						    OPVER_TYPE_FLOAT32,
						    KH_DIMS(1, 5), NULL)),
			   OPVER_ERROR_INVALID_MODEL, "state must be [1, 6]");
}

/* TANH of the first invoke's sums: x = (0.001, 0) gives features 0.001
 * and 0.0005, times the newest weights_time (100, 4), plus the bias
 * (0.25, -0.5): 0.35 and -0.498, whose tanh are 0.33637554 and
 * -0.46054281. */
Test(svdf, float_tanh_of_the_sums)
{
	float_svdf s = float_node(1, 1, OPVER_ACTIVATION_TANH,
				  (const float[]){ 0.25f, -0.5f });
	const float *y = s.output->data;

	memcpy(s.input->data, (const float[]){ 0.001f, 0 }, s.input->bytes);
	cr_assert_eq(kh_invoke(&h, s.node), OPVER_OK, "%s", h.errors);
	cr_expect_float_eq(y[0], 0.33637554f, 1e-6);
	cr_expect_float_eq(y[1], -0.46054281f, 1e-6);
}

/* SIGN_BIT gives 1 for a negative sum and 0 otherwise: 300.25 and -2.5
 * (float_state_shifts_over_three_invokes's first outputs), then 230.25
 * and 2.5. */
Test(svdf, float_sign_bit_of_the_sums)
{
	float_svdf s = float_node(1, 1, OPVER_ACTIVATION_SIGN_BIT,
				  (const float[]){ 0.25f, -0.5f });

	float_step(&s, (const float[]){ 1, 1 }, (const float[]){ 0, 1 }, 2);
	float_step(&s, (const float[]){ 2, 0 }, (const float[]){ 0, 0 }, 2);
}

/* Past SIGN_BIT no activation has a name in the model format. */
Test(svdf, refuses_an_unknown_activation)
{
	kh_expect_rejected(&h, float_with(1, 7, float_state()),
			   OPVER_ERROR_UNSUPPORTED,
			   "fused activation 7 is not one of NONE, RELU, RELU_N1_TO_1, RELU6, TANH and SIGN_BIT");
}
