/*
 * test_reference_conv_hybrid.c - the reference plugin's hybrid CONV_2D kernel
 * (float activations, int8 filter): its on-the-fly quantization of each
 * batch, per tensor and per channel.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "conv_harness.h"

/* --------------------------------------------------------------- hybrid */

TestSuite(conv_hybrid, .init = setup, .fini = teardown);

Test(conv_hybrid, per_tensor_quantizes_each_batch_symmetrically)
{
	/*
	 * filter scale 0.1: q (10, 20) is (1, 2); bias 0.5.
	 * batch 0 (1, -0.5): range 1, scale 1/127, q (127, round(-63.5) =
	 *   -64); sum 1270 - 1280 = -10; -10 * (1/127 * 0.1) + 0.5
	 *   = 0.4921260 (the float result is 1 - 1 + 0.5 = 0.5).
	 * batch 1 (2, 4): range 4, scale 4/127, q (round(63.5) = 64, 127);
	 *   sum 640 + 2540 = 3180; 3180 * 4/127 * 0.1 + 0.5 = 10.515748
	 *   (float result 10.5).  One scale for both batches would have
	 *   given batch 0 q (32, -16) and a sum of 0.
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(2, 1, 1, 2),
					(float[]){ 1, -0.5f, 2, 4 });
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(1, 1, 1, 2), (int8_t[]){ 10, 20 },
				    0.1f, 0);
	opver_tensor *b = float_tensor("bias", KH_DIMS(1), (float[]){ 0.5f });
	opver_tensor *out = float_tensor("output", KH_DIMS(2, 1, 1, 1), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 2, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.4921260f, 10.515748f }, 2, 1e-5);
}

Test(conv_hybrid, per_channel_quantizes_asymmetrically)
{
	/*
	 * input (1, -0.5): range [-0.5, 1] onto [-128, 127]: scale 1.5/255,
	 * zero point -128 + 0.5 / (1.5/255) = -128 + 85 = -43; q (127, -128),
	 * less the zero point (170, -85).
	 * filter o0 scale 0.1 q (10, 20) is (1, 2);
	 *        o1 scale 0.25 q (-5, 4) is (-1.25, 1).
	 * o0: 10*170 - 20*85 = 0 -> 0 * 0.1 * scale + 0.5 = 0.5
	 * o1: -5*170 - 4*85 = -1190 -> -1190 * 0.25 * 1.5/255 = -1.75,
	 *     + 0.25 = -1.5 (the float result exactly)
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 2),
					(float[]){ 1, -0.5f });
	opver_tensor *f = per_channel_filter(KH_DIMS(2, 1, 1, 2),
					     (int8_t[]){ 10, 20, -5, 4 },
					     (float[]){ 0.1f, 0.25f });
	opver_tensor *b = float_tensor("bias", KH_DIMS(2),
				       (float[]){ 0.5f, 0.25f });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 5, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.5f, -1.5f }, 2, 2e-6);
}

Test(conv_hybrid, equal_channel_scales_take_the_per_tensor_path)
{
	/* As TFLite: per-channel scales that are all 0.1 quantize the input
	 * symmetrically, so o0 is -10 * 0.1 / 127 + 0.5 as in the per-tensor
	 * case, not the 0.5 the asymmetric path gives. */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 2),
					(float[]){ 1, -0.5f });
	opver_tensor *f = per_channel_filter(KH_DIMS(2, 1, 1, 2),
					     (int8_t[]){ 10, 20, 10, 20 },
					     (float[]){ 0.1f, 0.1f });
	opver_tensor *b = float_tensor("bias", KH_DIMS(2),
				       (float[]){ 0.5f, 0 });
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 5, &p,
					   KH_TENSORS(in, f, b), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0.4921260f, -0.0078740f }, 2, 2e-6);
}

Test(conv_hybrid, groups_take_the_asymmetric_path)
{
	/*
	 * input (1, -0.5, 0.5, 0.2): scale 1.5/255, zero point -43 as above;
	 * q (127, -128, 42, -9), less the zero point (170, -85, 85, 34).
	 * filter scale 0.5, 2 groups: o0 q (2, 4) on channels 0-1 is (1, 2);
	 * o1 q (-2, 6) on channels 2-3 is (-1, 3).
	 * o0: 340 - 340 = 0; o1: -170 + 204 = 34 -> 34 * 0.5 * 1.5/255 = 0.1
	 * (float results 0 and -0.5 + 0.6 = 0.1).
	 */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 4),
					(float[]){ 1, -0.5f, 0.5f, 0.2f });
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 1, 2),
				    (int8_t[]){ 2, 4, -2, 6 }, 0.5f, 0);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params p =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_NONE);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 6, &p,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats_near(out, (float[]){ 0, 0.1f }, 2, 2e-6);
}

Test(conv_hybrid, fused_activation)
{
	/* The per-tensor case's batch 1 without bias, 10.015748, and its
	 * negation, both under RELU6. */
	opver_tensor *in = float_tensor("input", KH_DIMS(1, 1, 1, 2),
					(float[]){ 2, 4 });
	opver_tensor *f = quantized("filter", OPVER_TYPE_INT8,
				    KH_DIMS(2, 1, 1, 2),
				    (int8_t[]){ 10, 20, -10, -20 }, 0.1f, 0);
	opver_tensor *out = float_tensor("output", KH_DIMS(1, 1, 1, 2), NULL);
	opver_conv_params relu6 =
		conv_params(OPVER_PADDING_VALID, 1, 1, OPVER_ACTIVATION_RELU6);

	cr_assert_eq(kh_run(&h, conv_node(CONV_HYBRID, 2, &relu6,
					   KH_TENSORS(in, f), out)),
		     OPVER_OK, "%s", h.errors);
	expect_floats(out, (float[]){ 6, 0 }, 2);
}
