/*
 * test_reference_pooling_prepare.c - what the pools' prepare rejects and
 * what it says, and the versions the kernels cover.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "pool_harness.h"

/* ------------------------------------------------------ prepare rejects */

TestSuite(pool_prepare, .init = setup, .fini = teardown);

/* A float32 node for `kernel` from an input to an output of the given
 * shapes. */
static opver_node *float_node(const char *kernel, const opver_pool_params *p,
			      int32_t in_rank, const int32_t *in_dims,
			      int32_t out_rank, const int32_t *out_dims)
{
	return pool_node(kernel, p,
			 kh_tensor(&h, "input", OPVER_TYPE_FLOAT32, in_rank,
				   in_dims, NULL),
			 kh_tensor(&h, "output", OPVER_TYPE_FLOAT32, out_rank,
				   out_dims, NULL));
}

/* A valid int8 average pool 2 x 2 VALID over [1, 4, 4, 2] but for the
 * output quantization the test gives. */
static opver_node *int8_node(const char *kernel, float out_scale,
			     int64_t out_zero)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 4, 4, 2), NULL, 0.5f, 3);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 2, 2, 2), NULL, out_scale,
				      out_zero);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	return pool_node(kernel, &p, in, out);
}

Test(pool_prepare, rejects_a_different_output_zero_point)
{
	expect_rejected(int8_node("average_pool_2d_int8", 0.5f, 4),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has scale 0.5 and zero point 3, output 'output' scale 0.5 and zero point 4; quantized pooling needs them equal");
}

Test(pool_prepare, rejects_a_different_output_scale)
{
	expect_rejected(int8_node("max_pool_2d_int8", 0.25f, 3),
			OPVER_ERROR_INVALID_MODEL,
			"quantized pooling needs them equal");
}

Test(pool_prepare, accepts_scales_equal_but_for_float_noise)
{
	cr_expect_eq(kh_prepare(&h, int8_node("average_pool_2d_int8",
					      0.5f * (1.0f + 1e-7f), 3)),
		     OPVER_OK, "%s", h.errors);
}

Test(pool_prepare, rejects_different_int16_quantization)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 2, 2, 1), NULL, 0.001f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 1, 1), NULL, 0.002f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(pool_node("max_pool_2d_int16", &p, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"quantized pooling needs them equal");
}

Test(pool_prepare, rejects_an_unquantized_input)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_INT8,
				     KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT8,
				      KH_DIMS(1, 1, 1, 1), NULL, 0.5f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(pool_node("average_pool_2d_int8", &p, in, out),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' is not quantized");
}

Test(pool_prepare, rejects_a_wrong_output_shape)
{
	/* SAME with stride 2 gives ceil(5 / 2) = 3 */
	opver_pool_params p = pool_params(OPVER_PADDING_SAME, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("average_pool_2d_float32", &p,
				   KH_DIMS(1, 5, 5, 2), KH_DIMS(1, 2, 2, 2)),
			OPVER_ERROR_INVALID_MODEL,
			"output 'output' has shape [1, 2, 2, 2]; the input and window give [1, 3, 3, 2]");
}

Test(pool_prepare, rejects_a_zero_stride)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 0, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("max_pool_2d_float32", &p,
				   KH_DIMS(1, 4, 4, 1), KH_DIMS(1, 2, 2, 1)),
			OPVER_ERROR_INVALID_MODEL,
			"height: input 4, filter 2, stride 0 and dilation 1 must all be positive");
}

Test(pool_prepare, without_params_rejects_the_zero_filter)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 4, 4, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 2, 1), NULL);

	expect_rejected(kh_node(&h, kh_kernel(&h, "max_pool_2d_float32"), 1,
				NULL, 0, KH_TENSORS(in), KH_TENSORS(out)),
			OPVER_ERROR_INVALID_MODEL,
			"height: input 4, filter 0, stride 0");
}

Test(pool_prepare, rejects_a_valid_filter_larger_than_the_input)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 3, 1, 1,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("average_pool_2d_float32", &p,
				   KH_DIMS(1, 4, 2, 1), KH_DIMS(1, 1, 1, 1)),
			OPVER_ERROR_INVALID_MODEL,
			"width: a filter spanning 3 elements does not fit the input's 2 with VALID padding");
}

Test(pool_prepare, rejects_a_tanh_activation)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_TANH);

	expect_rejected(float_node("average_pool_2d_float32", &p,
				   KH_DIMS(1, 2, 2, 1), KH_DIMS(1, 1, 1, 1)),
			OPVER_ERROR_UNSUPPORTED,
			"fused activation 4 is not supported");
}

Test(pool_prepare, rejects_rank_3)
{
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(float_node("max_pool_2d_float32", &p,
				   KH_DIMS(4, 4, 1), KH_DIMS(1, 2, 2, 1)),
			OPVER_ERROR_INVALID_MODEL,
			"input 'input' has rank 3; it must have rank 4");
}

Test(pool_prepare, rejects_a_type_the_kernel_does_not_take)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 2, 2, 1), NULL, 1.0f, 0);
	opver_tensor *out = quantized("output", OPVER_TYPE_INT16,
				      KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(pool_node("average_pool_2d_int8", &p, in, out),
			OPVER_ERROR_UNSUPPORTED,
			"input 'input' has type INT16; this kernel takes INT8");
}

Test(pool_prepare, rejects_two_inputs)
{
	opver_tensor *in = kh_tensor(&h, "input", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 2, 2, 1), NULL);
	opver_tensor *out = kh_tensor(&h, "output", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1, 1, 1), NULL);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 2, 2, 2, 2,
					  OPVER_ACTIVATION_NONE);

	expect_rejected(kh_node(&h, kh_kernel(&h, "max_pool_2d_float32"), 1,
				&p, sizeof(p), KH_TENSORS(in, in),
				KH_TENSORS(out)),
			OPVER_ERROR_INVALID_MODEL,
			"has 2 inputs and 1 outputs; MAX_POOL_2D takes one input and one output");
}

/*
 * An int16 window of 256 x 257 = 65792 elements could sum past int32
 * (65792 x 32768 > 2^31); the max pool over it has no sum.
 */
Test(pool_prepare, rejects_an_int16_average_that_could_overflow)
{
	opver_tensor *in = quantized("input", OPVER_TYPE_INT16,
				     KH_DIMS(1, 256, 257, 1), NULL, 1.0f, 0);
	opver_tensor *avg_out = quantized("avg", OPVER_TYPE_INT16,
					  KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_tensor *max_out = quantized("max", OPVER_TYPE_INT16,
					  KH_DIMS(1, 1, 1, 1), NULL, 1.0f, 0);
	opver_pool_params p = pool_params(OPVER_PADDING_VALID, 256, 257, 1, 1,
					  OPVER_ACTIVATION_NONE);

	cr_expect_eq(kh_prepare(&h, pool_node("max_pool_2d_int16", &p, in,
					      max_out)),
		     OPVER_OK, "%s", h.errors);
	expect_rejected(pool_node("average_pool_2d_int16", &p, in, avg_out),
			OPVER_ERROR_UNSUPPORTED,
			"a window of 65792 INT16 elements could overflow the int32 sum");
}

/* Every kernel covers versions 1 to 3: each version adds only a type. */
Test(pool_prepare, kernels_cover_versions_1_to_3)
{
	static const struct {
		const char *name;
		int32_t op;
	} kernels[] = {
		{ "average_pool_2d_float32", OPVER_OP_AVERAGE_POOL_2D },
		{ "average_pool_2d_int8", OPVER_OP_AVERAGE_POOL_2D },
		{ "average_pool_2d_int16", OPVER_OP_AVERAGE_POOL_2D },
		{ "max_pool_2d_float32", OPVER_OP_MAX_POOL_2D },
		{ "max_pool_2d_int8", OPVER_OP_MAX_POOL_2D },
		{ "max_pool_2d_int16", OPVER_OP_MAX_POOL_2D },
	};

	for (size_t i = 0; i < COUNT(kernels); i++) {
		const opver_kernel *k = kh_kernel(&h, kernels[i].name);

		cr_expect_eq(k->op, kernels[i].op, "%s", kernels[i].name);
		cr_expect_eq(k->min_version, 1, "%s", kernels[i].name);
		cr_expect_eq(k->max_version, 3, "%s", kernels[i].name);
	}
}
