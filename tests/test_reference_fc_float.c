/*
 * test_reference_fc_float.c - the reference plugin's float32 FULLY_CONNECTED
 * kernel run from the built reference.so through the kernel harness, checked
 * against values worked out by hand.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "fc_harness.h"

/* -------------------------------------------------------------- float32 */

TestSuite(fc_float32, .init = setup, .fini = teardown);

/* weights [2, 3]: unit 0 is (1, 0, -1), unit 1 is (2, 1, 0.5) */
static const float weights_2x3[] = { 1, 0, -1, 2, 1, 0.5f };

Test(fc_float32, without_bias_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_FLOAT32, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* 1 - 3 = -2; 2 + 2 + 1.5 = 5.5 */
	expect_floats(out, (float[]){ -2, 5.5f }, 2);
	cr_expect_eq(h.num_errors, 0);
}

Test(fc_float32, with_omitted_bias)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node =
		fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, NULL), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ -2, 5.5f }, 2);
}

Test(fc_float32, with_bias)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.5f, -1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node =
		fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* -2 + 0.5; 5.5 - 1 */
	expect_floats(out, (float[]){ -1.5f, 4.5f }, 2);
}

Test(fc_float32, batches)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3, 2),
				     (float[]){ 1, 2, 3, 4, -1, 0.5f });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 2), (float[]){ 1, 1, 1, -1 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0, 10 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node =
		fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* rows: (1+2, 1-2+10), (3+4, 3-4+10), (-1+0.5, -1-0.5+10) */
	expect_floats(out, (float[]){ 3, 9, 7, 9, -0.5f, 8.5f }, 6);
}

Test(fc_float32, flattens_higher_rank_input)
{
	/* [1, 2, 2, 3] is 4 rows of depth 3 */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 2, 3),
				     (float[]){ 1, 2, 3, 0, 0, 1, 2, 0, 0, 4,
						4, 4 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(4, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_FLOAT32, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* (1,2,3) -> (-2, 5.5); (0,0,1) -> (-1, 0.5); (2,0,0) -> (2, 4);
	 * (4,4,4) -> (0, 14) */
	expect_floats(out, (float[]){ -2, 5.5f, -1, 0.5f, 2, 4, 0, 14 }, 8);
}

Test(fc_float32, keep_num_dims)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2, 3),
				     (float[]){ 1, 2, 3, 0, 0, 1, 2, 0, 0, 4,
						4, 4 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2, 2), NULL);
	opver_fully_connected_params p = { .keep_num_dims = 1 };
	opver_node *node = fc_node(FC_FLOAT32, 5, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ -2, 5.5f, -1, 0.5f, 2, 4, 0, 14 }, 8);
}

struct float_activation_case {
	opver_activation activation;
	float expected[5];
};

ParameterizedTestParameters(fc_float32, activations)
{
	/* Unit outputs before the activation: -2.5, -0.5, 0.5, 3, 7. */
	static struct float_activation_case cases[] = {
		{ OPVER_ACTIVATION_NONE, { -2.5f, -0.5f, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU, { 0, 0, 0.5f, 3, 7 } },
		{ OPVER_ACTIVATION_RELU_N1_TO_1, { -1, -0.5f, 0.5f, 1, 1 } },
		{ OPVER_ACTIVATION_RELU6, { 0, 0, 0.5f, 3, 6 } },
	};

	return cr_make_param_array(struct float_activation_case, cases,
				   COUNT(cases));
}

ParameterizedTest(struct float_activation_case *c, fc_float32, activations)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 1 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(5, 1),
				    (float[]){ -2.5f, -0.5f, 0.5f, 3, 7 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 5), NULL);
	opver_fully_connected_params p = fc_params(c->activation);
	opver_node *node = fc_node(FC_FLOAT32, 6, &p, KH_TENSORS(in, w), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, c->expected, 5);
}

struct fc_shape_case {
	int32_t batches, depth, units;
	bool bias;
};

ParameterizedTestParameters(fc_float32, shapes)
{
	static struct fc_shape_case cases[] = {
		{ 1, 1, 1, false },   { 1, 1, 1, true },   { 1, 5, 3, true },
		{ 3, 7, 4, false },   { 4, 16, 33, true }, { 2, 64, 1, true },
		{ 5, 3, 17, false },  { 0, 4, 2, true },
	};

	return cr_make_param_array(struct fc_shape_case, cases, COUNT(cases));
}

/* Small integers make every product and sum exact in float, so the result
 * can be checked against a plain double computation. */
ParameterizedTest(struct fc_shape_case *c, fc_float32, shapes)
{
	const size_t n_in = (size_t)c->batches * (size_t)c->depth;
	const size_t n_w = (size_t)c->units * (size_t)c->depth;
	float input[256], weights[1024], bias[64], expected[256];
	opver_tensor *in, *w, *b, *out;
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	cr_assert(n_in <= COUNT(input) && n_w <= COUNT(weights) &&
		  (size_t)c->units <= COUNT(bias) &&
		  (size_t)c->batches * (size_t)c->units <= COUNT(expected));
	for (size_t i = 0; i < n_in; i++)
		input[i] = (float)((int)(i * 7 % 11) - 5);
	for (size_t i = 0; i < n_w; i++)
		weights[i] = (float)((int)(i * 5 % 9) - 4);
	for (int32_t u = 0; u < c->units; u++)
		bias[u] = c->bias ? (float)(u % 3 - 1) : 0.0f;
	for (int32_t r = 0; r < c->batches; r++) {
		for (int32_t u = 0; u < c->units; u++) {
			double sum = bias[u];

			for (int32_t d = 0; d < c->depth; d++)
				sum += (double)input[r * c->depth + d] *
				       weights[u * c->depth + d];
			expected[r * c->units + u] = (float)sum;
		}
	}
	in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
		       KH_DIMS(c->batches, c->depth), input);
	w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
		      KH_DIMS(c->units, c->depth), weights);
	b = c->bias ? kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32,
				KH_DIMS(c->units), bias)
		    : NULL;
	out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
			KH_DIMS(c->batches, c->units), NULL);
	node = fc_node(FC_FLOAT32, 1, &p, KH_TENSORS(in, w, b), out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, expected, (size_t)c->batches * (size_t)c->units);
}

/* A core built before keep_num_dims fills only the prefix it knows; the
 * harness copies exactly that many bytes, so reading further would be
 * caught, and the fields left out must act as their defaults. */
Test(fc_float32, reads_only_the_filled_params_prefix)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 1 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 1), (float[]){ -3, 8 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = {
		.activation = OPVER_ACTIVATION_RELU6,
		.weights_format = OPVER_FC_WEIGHTS_SHUFFLED4x16INT8,
		.keep_num_dims = 1,
	};
	opver_node *node =
		kh_node(&h, kh_kernel(&h, FC_FLOAT32), 1, &p,
			offsetof(opver_fully_connected_params, weights_format),
			KH_TENSORS(in, w), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 0, 6 }, 2);
}

Test(fc_float32, without_params_uses_defaults)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 1 });
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_FLOAT32,
				    KH_DIMS(2, 1), (float[]){ -3, 8 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_node *node = kh_node(&h, kh_kernel(&h, FC_FLOAT32), 1, NULL, 0,
				   KH_TENSORS(in, w), KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ -3, 8 }, 2);
}

/* Stateless: one kernel serves nodes of different shapes, each keeping what
 * it prepared in its own op_data. */
Test(fc_float32, nodes_keep_their_own_op_data)
{
	opver_tensor *in1 = kh_tensor(&h, "in1", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 3), (float[]){ 1, 2, 3 });
	opver_tensor *w1 = kh_tensor(&h, "w1", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), weights_2x3);
	opver_tensor *out1 = kh_tensor(&h, "out1", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1, 2), NULL);
	opver_tensor *in2 = kh_tensor(&h, "in2", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 1), (float[]){ 2, -2 });
	opver_tensor *w2 = kh_tensor(&h, "w2", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 1), (float[]){ 3 });
	opver_tensor *out2 = kh_tensor(&h, "out2", OPVER_TYPE_FLOAT32,
				       KH_DIMS(2, 1), NULL);
	opver_fully_connected_params none = fc_params(OPVER_ACTIVATION_NONE);
	opver_fully_connected_params relu = fc_params(OPVER_ACTIVATION_RELU);
	opver_node *n1 =
		fc_node(FC_FLOAT32, 6, &none, KH_TENSORS(in1, w1), out1);
	opver_node *n2 =
		fc_node(FC_FLOAT32, 6, &relu, KH_TENSORS(in2, w2), out2);

	cr_assert_eq(kh_prepare(&h, n1), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_prepare(&h, n2), OPVER_OK, "%s", h.errors);
	cr_assert_eq(kh_invoke(&h, n1), OPVER_OK);
	cr_assert_eq(kh_invoke(&h, n2), OPVER_OK);
	expect_floats(out1, (float[]){ -2, 5.5f }, 2);
	expect_floats(out2, (float[]){ 6, 0 }, 2);
}
