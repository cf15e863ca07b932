/*
 * test_reference_local_response_norm.c - the reference plugin's
 * LOCAL_RESPONSE_NORMALIZATION through the kernel harness: outputs worked
 * out by hand (the arithmetic next to each) for a window cut at both ends
 * of the channels, a radius of 0 with beta 0.5, a window wider than the
 * channels over two pixels, the schema's defaults, and the inputs it
 * refuses.
 */
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

TestSuite(local_response_norm, .init = setup, .fini = teardown);

/* LRN of a [1, 1, pixels, 4] input with `p` (NULL: no options). */
static opver_tensor *lrn(const float *in, int32_t pixels,
			 const opver_local_response_norm_params *p)
{
	opver_tensor *input = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
					KH_DIMS(1, 1, pixels, 4), in);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 1, pixels, 4), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "local_response_norm"), 1, p,
				p != NULL ? sizeof(*p) : 0, KH_TENSORS(input),
				KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	return out;
}

static const float one_to_four[4] = { 1, 2, 3, 4 };

/* Radius 1, bias 1, alpha 1, beta 1: x times 1 / (1 + sum of squares)
 * (TFLite multiplies by the power), the window cut at both ends:
 * 1/(1+1+4), 2/(1+1+4+9), 3/(1+4+9+16), 4/(1+9+16). */
Test(local_response_norm, window_cut_at_both_ends)
{
	const opver_local_response_norm_params p = { 1, 1.0f, 1.0f, 1.0f };

	kh_expect_floats(lrn(one_to_four, 1, &p),
			 (const float[]){ 1 * (1.0f / 6), 2 * (1.0f / 15),
					  3 * (1.0f / 30), 4 * (1.0f / 26) },
			 4);
}

/* Radius 0, bias 2, alpha 0.5, beta 0.5: x / sqrt(2 + x^2 / 2). */
Test(local_response_norm, radius_0_and_a_square_root)
{
	const opver_local_response_norm_params p = { 0, 2.0f, 0.5f, 0.5f };

	kh_expect_floats(lrn(one_to_four, 1, &p),
			 (const float[]){ 0.63245553f, 1.0f, 1.17669681f,
					  1.26491106f },
			 4);
}

/* A radius past the channels sums them all, each pixel its own: 1+4+9+16
 * = 30 and 4+0+0+4 = 8 with bias 0, alpha 1, beta 1. */
Test(local_response_norm, a_wide_window_sums_each_pixel_alone)
{
	const opver_local_response_norm_params p = { 10, 0.0f, 1.0f, 1.0f };
	const float in[8] = { 1, 2, 3, 4, 2, 0, 0, -2 };

	kh_expect_floats(lrn(in, 2, &p),
			 (const float[]){ 1 * (1.0f / 30), 2 * (1.0f / 30),
					  3 * (1.0f / 30), 4 * (1.0f / 30),
					  0.25f, 0, 0, -0.25f },
			 8);
}

/* Without options every parameter is the schema's 0: (0 + 0)^-0 = 1. */
Test(local_response_norm, schema_defaults_copy_the_input)
{
	kh_expect_floats(lrn(one_to_four, 1, NULL), one_to_four, 4);
}

Test(local_response_norm, refuses_other_ranks_and_types)
{
	opver_tensor *in3 = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 4), NULL);
	opver_tensor *out3 = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				       KH_DIMS(1, 2, 4), NULL);
	opver_tensor *int8 = kh_tensor(&h, "q", OPVER_TYPE_INT8,
				       KH_DIMS(1, 1, 1, 4), NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "local_response_norm"),
				       1, NULL, 0, KH_TENSORS(in3),
				       KH_TENSORS(out3)),
			   OPVER_ERROR_INVALID_MODEL, "rank");
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "local_response_norm"),
				       1, NULL, 0, KH_TENSORS(int8),
				       KH_TENSORS(int8)),
			   OPVER_ERROR_UNSUPPORTED, "INT8");
}
