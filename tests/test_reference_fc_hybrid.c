/*
 * test_reference_fc_hybrid.c - the reference plugin's uint8 and hybrid
 * (float activations, int8 weights) FULLY_CONNECTED kernels, checked
 * against values worked out by hand; what prepare rejects on hybrid nodes.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "fc_harness.h"

/* --------------------------------------------------------------- hybrid */

TestSuite(fc_uint8, .init = setup, .fini = teardown);

static opver_tensor *uint8_tensor(const char *name, int32_t rank,
				  const int32_t *dims, const uint8_t *data,
				  float scale, int64_t zero_point)
{
	opver_tensor *t =
		kh_tensor(&h, name, OPVER_TYPE_UINT8, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

static void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
			  size_t count)
{
	const uint8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

Test(fc_uint8, zero_points_and_bias)
{
	/*
	 * fc_int8's nonzero_zero_points_and_bias, every value shifted by
	 * 128 and every zero point with it: input zero point 127, weights
	 * 130, output 131.  Same sums (12, 24), same outputs + 128.
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 3),
					(uint8_t[]){ 129, 131, 127 }, 0.5f,
					127);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 3),
				       (uint8_t[]){ 134, 130, 126, 138, 134,
						    132 },
				       0.25f, 130);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    (int32_t[]){ 4, -8 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f,
					 131);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize(&h, b, 0.125f, 0);
	node = fc_node(FC_UINT8, 1, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 133, 134 }, 2);
}

Test(fc_uint8, saturates_and_clamps_to_the_activation)
{
	/*
	 * Scales 1; input (255, 1) at zero point 0, weights (2, 0) and
	 * (0, 0) at zero point 1, so (1, -1) and (-1, -1): sums 254 and
	 * -256, plus the output zero point 10: 264 and -246, clamped to
	 * 255 and 0 by the type.  RELU6 at output scale 1: [10, 16].
	 */
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 2),
					(uint8_t[]){ 255, 1 }, 1.0f, 0);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 2),
				       (uint8_t[]){ 2, 0, 0, 0 }, 1.0f, 1);
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f,
					 10);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	node = fc_node(FC_UINT8, 6, &p, KH_TENSORS(in, w), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 255, 0 }, 2);
	p.activation = OPVER_ACTIVATION_RELU6;
	node = fc_node(FC_UINT8, 6, &p, KH_TENSORS(in, w), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_uint8s(out, (uint8_t[]){ 16, 10 }, 2);
}

Test(fc_uint8, rejects_per_channel_weights)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1),
					(uint8_t[]){ 1 }, 1.0f, 0);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_UINT8,
				    KH_DIMS(2, 1), (uint8_t[]){ 1, 2 });
	opver_tensor *out = uint8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f,
					 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	kh_quantize_per_channel(&h, w, 0, 2, (float[]){ 1.0f, 2.0f },
				(int64_t[]){ 0, 0 });
	expect_rejected(fc_node(FC_UINT8, 6, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_UNSUPPORTED, "weights");
}

/*
 * TFLite's legacy int16 output of uint8 input: fc_uint8's
 * zero_points_and_bias sums (12, 24; input x weights scale 0.125) at
 * output scale 2^-10, zero point 0: rescale 128, exactly 1536 and 3072.
 * At 2^-14 (rescale 2048) 24576 and 49152, clamped to 32767; RELU_N1_TO_1
 * at 2^-10 clamps both to 1024.
 */
Test(fc_uint8, int16_output)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 3),
					(uint8_t[]){ 129, 131, 127 }, 0.5f,
					127);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 3),
				       (uint8_t[]){ 134, 130, 126, 138, 134,
						    132 },
				       0.25f, 130);
	opver_tensor *b = kh_quantized(&h, "bias", OPVER_TYPE_INT32,
				       KH_DIMS(2), (int32_t[]){ 4, -8 },
				       0.125f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(1, 2), NULL, 0x1p-10f, 0);
	opver_tensor *fine = kh_quantized(&h, "fine", OPVER_TYPE_INT16,
					  KH_DIMS(1, 2), NULL, 0x1p-14f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	node = fc_node(FC_UINT8_INT16, 1, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 1536, 3072 }, 2);
	node = fc_node(FC_UINT8_INT16, 1, &p, KH_TENSORS(in, w, b), fine);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(fine, (int16_t[]){ 24576, 32767 }, 2);
	p.activation = OPVER_ACTIVATION_RELU_N1_TO_1;
	node = fc_node(FC_UINT8_INT16, 1, &p, KH_TENSORS(in, w, b), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	kh_expect_int16s(out, (int16_t[]){ 1024, 1024 }, 2);
}

Test(fc_uint8, rejects_an_int16_output_zero_point)
{
	opver_tensor *in = uint8_tensor("input", KH_DIMS(1, 1),
					(uint8_t[]){ 1 }, 1.0f, 0);
	opver_tensor *w = uint8_tensor("weights", KH_DIMS(2, 1),
				       (uint8_t[]){ 1, 2 }, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "output", OPVER_TYPE_INT16,
					 KH_DIMS(1, 2), NULL, 1.0f, 5);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_UINT8_INT16, 6, &p, KH_TENSORS(in, w), out),
			OPVER_ERROR_INVALID_MODEL,
			"an int16 output of uint8 input must have zero point 0");
}

TestSuite(fc_hybrid, .init = setup, .fini = teardown);

/*
 * The row (1, -2, 0.5) quantized symmetrically: scale max|x| / 127 =
 * 2 / 127, q = round(x * 63.5) = (64, -127, 32) (63.5 rounds away from
 * zero).  Weights q (2, 1, -4) and (0, 3, 1) (reals at scale 0.5:
 * (1, 0.5, -2) and (0, 1.5, 0.5)) give int32 sums
 *   unit 0: 128 - 127 - 128 = -127   (real 1 - 1 - 1 = -1)
 *   unit 1: 0 - 381 + 32 = -349      (real -3 + 0.25 = -2.75)
 * and TFLite's result bias + sum * (row scale * weights scale), each
 * product rounded to float.
 */
static const float hybrid_row[] = { 1, -2, 0.5f };
static const int8_t hybrid_weights[] = { 2, 1, -4, 0, 3, 1 };

/* Separate statements: a compiler may not fuse the multiply and add (a
 * contracted constant would be rounded once). */
static float hybrid_symmetric(int32_t sum, float weights_scale, float bias)
{
	const float scale = (2.0f / 127.0f) * weights_scale;
	const float product = (float)sum * scale;

	return bias + product;
}

static opver_tensor *hybrid_weights_tensor(float scale)
{
	return int8_tensor("weights", KH_DIMS(2, 3), hybrid_weights, scale, 0);
}

Test(fc_hybrid, symmetric_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), hybrid_row);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.25f, 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node = fc_node(FC_HYBRID, 3, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f),
					      b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0.25f),
				 hybrid_symmetric(-349, 0.5f, 1) },
		      2);
}

Test(fc_hybrid, per_channel_weights)
{
	/* Unit 1's weights at scale 0.25 instead of 0.5. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), hybrid_row);
	opver_tensor *w = kh_tensor(&h, "weights", OPVER_TYPE_INT8,
				    KH_DIMS(2, 3), hybrid_weights);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);
	opver_node *node;

	kh_quantize_per_channel(&h, w, 0, 2, (float[]){ 0.5f, 0.25f },
				(int64_t[]){ 0, 0 });
	node = fc_node(FC_HYBRID, 6, &p, KH_TENSORS(in, w), out);
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0),
				 hybrid_symmetric(-349, 0.25f, 0) },
		      2);
}

Test(fc_hybrid, asymmetric_inputs)
{
	/*
	 * The row (1, -2, 0.25) over [-2, 1]: scale 3 / 255 (rounded to
	 * float).  Zero point from the max, 127 - 1 / scale = 42, loses
	 * less (127 + 85 < 128 + 170) than from the min.  q = round(42 +
	 * x / scale) = (127, -128, 63).  Weights as above; int32 sums of
	 * w * (q - 42):
	 *   unit 0: 2 * 85 + 1 * -170 - 4 * 21 = -84   (real -0.5)
	 *   unit 1: 0 + 3 * -170 + 1 * 21 = -489       (real -2.875)
	 */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), (float[]){ 1, -2, 0.25f });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = {
		.asymmetric_quantize_inputs = 1,
	};
	opver_node *node = fc_node(FC_HYBRID, 6, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f)),
				   out);
	const float scale = (float)(3.0 / 255.0) * 0.5f;

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	/* No bias: 0 + sum * scale is the product, rounded once. */
	expect_floats(out, (float[]){ -84.0f * scale, -489.0f * scale }, 2);
}

Test(fc_hybrid, quantizes_each_row_on_its_own_and_keeps_dims)
{
	/* Row 0 as in symmetric_inputs; row 1 is all zeros (scale 1, q 0),
	 * so it gives the bias alone.  keep_num_dims: [1, 2, 3] -> [1, 2,
	 * 2]. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 3),
				     (float[]){ 1, -2, 0.5f, 0, 0, 0 });
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.25f, 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 2), NULL);
	opver_fully_connected_params p = { .keep_num_dims = 1 };
	opver_node *node = fc_node(FC_HYBRID, 5, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f),
					      b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0.25f),
				 hybrid_symmetric(-349, 0.5f, 1), 0.25f, 1 },
		      4);
}

Test(fc_hybrid, relu_n1_to_1)
{
	/* -0.75... stays; 1 - 2.75... clamps to -1. */
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), hybrid_row);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_FLOAT32, KH_DIMS(2),
				    (float[]){ 0.25f, 1 });
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p =
		fc_params(OPVER_ACTIVATION_RELU_N1_TO_1);
	opver_node *node = fc_node(FC_HYBRID, 3, &p,
				   KH_TENSORS(in, hybrid_weights_tensor(0.5f),
					      b),
				   out);

	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
	expect_floats(out,
		      (float[]){ hybrid_symmetric(-127, 0.5f, 0.25f), -1 }, 2);
}

/* ----------------------------------------------- hybrid prepare rejects */

Test(fc_prepare, rejects_an_int32_bias_on_hybrid)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *b = kh_tensor(&h, "bias", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_HYBRID, 3, &p,
				KH_TENSORS(in, hybrid_weights_tensor(0.5f), b),
				out),
			OPVER_ERROR_UNSUPPORTED,
			"bias 'bias' has type INT32; this kernel takes FLOAT32");
}

Test(fc_prepare, rejects_an_int8_output_on_hybrid)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = int8_tensor("output", KH_DIMS(1, 2), NULL, 1.0f, 0);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_NONE);

	expect_rejected(fc_node(FC_HYBRID, 3, &p,
				KH_TENSORS(in, hybrid_weights_tensor(0.5f)),
				out),
			OPVER_ERROR_UNSUPPORTED,
			"output 'output' has type INT8; this kernel takes FLOAT32");
}

Test(fc_prepare, rejects_a_fused_tanh_on_hybrid)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2), NULL);
	opver_fully_connected_params p = fc_params(OPVER_ACTIVATION_TANH);

	expect_rejected(fc_node(FC_HYBRID, 3, &p,
				KH_TENSORS(in, hybrid_weights_tensor(0.5f)),
				out),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}
