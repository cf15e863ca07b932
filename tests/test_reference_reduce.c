/*
 * test_reference_reduce.c - the reference plugin's reductions (MEAN, SUM,
 * REDUCE_MAX, REDUCE_MIN, REDUCE_PROD) and ARG_MAX / ARG_MIN, run from the
 * built reference.so through the kernel harness.  Expected values are
 * worked out by hand in the comments, from TFLite's arithmetic: negative
 * and repeated axes, keep_dims, every quantized path of MEAN and SUM, the
 * quantized product, ties of ARG_MAX, empty inputs, and what prepare
 * rejects.
 */
#include <math.h>
#include <stddef.h>
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

TestSuite(reduce, .init = setup, .fini = teardown);

/* A constant int32 axis tensor of `count` entries. */
static opver_tensor *axes(int32_t count, const int32_t *values)
{
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(count), values);

	axis->is_constant = true;
	return axis;
}

#define AXES(...)                                                     \
	axes((int32_t)(sizeof((const int32_t[]){ __VA_ARGS__ }) /      \
		       sizeof(int32_t)),                              \
	     (const int32_t[]){ __VA_ARGS__ })

static opver_node *reduction(const char *kernel, bool keep_dims,
			     opver_tensor *input, opver_tensor *axis,
			     opver_tensor *output)
{
	const opver_reducer_params params = { .keep_dims = keep_dims };

	return kh_node(&h, kh_kernel(&h, kernel), 1, &params, sizeof(params),
		       KH_TENSORS(input, axis), KH_TENSORS(output));
}

static void run(opver_node *node)
{
	cr_assert_eq(kh_run(&h, node), OPVER_OK, "%s", h.errors);
}

/* Prepare fails with `status` and exactly one message containing `text`. */
static void expect_rejected(opver_node *node, opver_status status,
			    const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

/* ------------------------------------------------------------ float32 */

Test(reduce, sum_over_the_last_dimension)
{
	static const float x[] = { 1, 2, 3, 4, 5, 6 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	run(reduction("sum", false, in, AXES(1), out));
	kh_expect_floats(out, (const float[]){ 6, 15 }, 2);
}

/* x[i][j][k] = 4i + 2j + k; axes -1, 2 (again) and 0 reduce i and k:
 * j = 0 averages 0, 1, 4, 5; j = 1 averages 2, 3, 6, 7. */
Test(reduce, mean_with_negative_and_repeated_axes)
{
	static const float x[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2, 2), x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	run(reduction("mean", false, in, AXES(-1, 2, 0), out));
	kh_expect_floats(out, (const float[]){ 2.5f, 4.5f }, 2);
}

Test(reduce, keep_dims_keeps_reduced_dimensions_as_1)
{
	static const float x[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 2, 2), x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1, 2, 1), NULL);

	run(reduction("reduce_max", true, in, AXES(0, -1), out));
	kh_expect_floats(out, (const float[]){ 5, 7 }, 2);
}

Test(reduce, max_min_and_prod_of_floats)
{
	static const float x[] = { -3, -1, -2, 2, 0.5f, 4 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), x);
	opver_tensor *max = kh_tensor(&h, "max", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);
	opver_tensor *min = kh_tensor(&h, "min", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);
	opver_tensor *prod = kh_tensor(&h, "prod", OPVER_TYPE_FLOAT32,
				       KH_DIMS(3), NULL);

	run(reduction("reduce_max", false, in, AXES(1), max));
	kh_expect_floats(max, (const float[]){ -1, 4 }, 2);
	run(reduction("reduce_min", false, in, AXES(1), min));
	kh_expect_floats(min, (const float[]){ -3, 0.5f }, 2);
	run(reduction("reduce_prod", false, in, AXES(0), prod));
	kh_expect_floats(prod, (const float[]){ -6, -0.5f, -8 }, 3);
}

/* An empty axis list reduces nothing: the output is the input. */
Test(reduce, no_axes_copy_the_input)
{
	static const float x[] = { 1, -2, 3 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3), x);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(0), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);

	axis->is_constant = true;
	run(reduction("sum", false, in, axis, out));
	kh_expect_floats(out, x, 3);
}

/* An empty input: MEAN gives NaN, MAX the lowest float. */
Test(reduce, empty_inputs_give_the_starting_value)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 0), NULL);
	opver_tensor *mean = kh_tensor(&h, "mean", OPVER_TYPE_FLOAT32,
				       KH_DIMS(2), NULL);
	opver_tensor *max = kh_tensor(&h, "max", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	run(reduction("mean", false, in, AXES(1), mean));
	cr_expect(isnan(((float *)mean->data)[0]) &&
		  isnan(((float *)mean->data)[1]));
	run(reduction("reduce_max", false, in, AXES(1), max));
	cr_expect_eq(((float *)max->data)[1], -3.40282347e38f);
}

/* ---------------------------------------------------------- integers */

/* int32 means truncate toward zero: -7 / 2 is -3. */
Test(reduce, integer_means_truncate)
{
	static const int32_t x[] = { -7, 0, 7, 2 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT32,
				     KH_DIMS(2, 2), x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);

	run(reduction("mean", false, in, AXES(1), out));
	cr_expect_eq(((int32_t *)out->data)[0], -3);
	cr_expect_eq(((int32_t *)out->data)[1], 4);
}

/* With one quantization for input and output, TFLite sums the raw int8
 * values in int8: 100 + 100 wraps to -56. */
Test(reduce, same_scale_int8_sums_wrap)
{
	static const int8_t x[] = { 100, 100, -3, 1 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8,
					KH_DIMS(2, 2), x, 0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(2), NULL, 0.5f, 0);

	run(reduction("sum", false, in, AXES(-1), out));
	kh_expect_int8s(out, (const int8_t[]){ -56, -2 }, 2);
}

Test(reduce, quantized_max_and_min_compare_the_stored_values)
{
	static const int8_t x[] = { -128, 5, 127, -7 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8,
					KH_DIMS(4), x, 0.1f, 3);
	opver_tensor *max = kh_quantized(&h, "max", OPVER_TYPE_INT8,
					 KH_DIMS(1), NULL, 0.1f, 3);
	opver_tensor *min = kh_quantized(&h, "min", OPVER_TYPE_INT8,
					 KH_DIMS(1), NULL, 0.1f, 3);

	run(reduction("reduce_max", true, in, AXES(0), max));
	kh_expect_int8s(max, (const int8_t[]){ 127 }, 1);
	run(reduction("reduce_min", true, in, AXES(0), min));
	kh_expect_int8s(min, (const int8_t[]){ -128 }, 1);
}

/* Reals 1, 2, 3 (scale 0.5, zero point 1) sum to 6, which the output
 * (scale 1, zero point -2) stores as 4: round(15 * 0.5 - 1 * 0.5 * 3) - 2. */
Test(reduce, int8_sum_rescales_to_another_quantization)
{
	static const int8_t x[] = { 3, 5, 7 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8,
					KH_DIMS(3), x, 0.5f, 1);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(1), NULL, 1.0f, -2);

	run(reduction("sum", true, in, AXES(0), out));
	kh_expect_int8s(out, (const int8_t[]){ 4 }, 1);
}

/* Reals 0, 2, 4, 10 (scale 1, zero point 10) average 4, which the output
 * (scale 2, zero point 3) stores as 5: round(14 * 0.5 - 10 * 0.5) + 3. */
Test(reduce, uint8_mean_rescales_in_float)
{
	static const uint8_t x[] = { 10, 12, 14, 20 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_UINT8,
					KH_DIMS(4), x, 1.0f, 10);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_UINT8, 0,
					 NULL, NULL, 2.0f, 3);

	run(reduction("mean", false, in, AXES(0), out));
	cr_expect_eq(((uint8_t *)out->data)[0], 5);
}

/* TFLite's 4-D path: the sum 11 of (q - 0) rescaled by 1 / 0.5 is 22,
 * divided by 4 rounding half away from zero: 6. */
Test(reduce, int8_spatial_mean_takes_the_integer_path)
{
	static const int8_t x[] = { 1, 2, 3, 5 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8,
					KH_DIMS(1, 2, 2, 1), x, 1.0f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(1, 1, 1, 1), NULL, 0.5f, 0);

	run(reduction("mean", true, in, AXES(2, 1), out));
	kh_expect_int8s(out, (const int8_t[]){ 6 }, 1);
}

/* int16 takes the general paths even there: 3 and 6, same quantization,
 * average 4.5, truncated to 4. */
Test(reduce, int16_spatial_mean_takes_the_general_path)
{
	static const int16_t x[] = { 3, 6 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT16,
					KH_DIMS(1, 2, 1, 1), x, 0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(1, 1, 1, 1), NULL, 0.5f, 0);

	run(reduction("mean", true, in, AXES(1, 2), out));
	kh_expect_int16s(out, (const int16_t[]){ 4 }, 1);
}

/* Reals 1, 2, 3 (scale 0.5) multiply to 6 (output scale 1).  Each step
 * rescales by 0.5 / 1^(1/3) = 0.5 (Q15 16384, rounding half up):
 * 2 x 4 = 8 -> 4; 4 x 6 = 24 -> 12; the end 12 -> 6. */
Test(reduce, int8_product_rescales_every_step)
{
	static const int8_t x[] = { 2, 4, 6 };
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8,
					KH_DIMS(3), x, 0.5f, 0);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(1), NULL, 1.0f, 0);

	run(reduction("reduce_prod", true, in, AXES(0), out));
	kh_expect_int8s(out, (const int8_t[]){ 6 }, 1);
}

/* ------------------------------------------------------------ rejects */

Test(reduce, rejects_an_axis_outside_the_input)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	expect_rejected(reduction("sum", false, in, AXES(2), out),
			OPVER_ERROR_INVALID_MODEL, "names dimension 2");
}

Test(reduce, rejects_an_output_of_another_shape)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2), NULL);

	expect_rejected(reduction("mean", true, in, AXES(1), out),
			OPVER_ERROR_INVALID_MODEL,
			"has shape [2]; the reduction with keep_dims gives [2, 1]");
}

/* An axis the graph computes is read at invoke. */
Test(reduce, reads_an_axis_known_only_at_invoke)
{
	static const int32_t zero = 0;
	static const float x[] = { 1, 2, 3, 4, 5, 6 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), x);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(1), &zero);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);

	run(reduction("sum", false, in, axis, out));
	kh_expect_floats(out, (const float[]){ 5, 7, 9 }, 3);
}

/* ...and one that does not give the output's shape fails the invoke. */
Test(reduce, fails_an_invoke_whose_axis_disagrees_with_the_output)
{
	static const int32_t one = 1;
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 3), NULL);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(1), &one);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3), NULL);
	opver_node *node = reduction("mean", false, in, axis, out);

	cr_assert_eq(kh_prepare(&h, node), OPVER_OK, "%s", h.errors);
	cr_expect_eq(kh_invoke(&h, node), OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "has shape [3]; the reduction without keep_dims gives [2]"),
		  "%s", h.errors);
}

Test(reduce, max_needs_the_inputs_quantization)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8,
					KH_DIMS(4), NULL, 0.1f, 3);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(1), NULL, 0.2f, 3);

	expect_rejected(reduction("reduce_max", true, in, AXES(0), out),
			OPVER_ERROR_INVALID_MODEL, "keeps the input's");
}

Test(reduce, int16_needs_zero_points_0)
{
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT16,
					KH_DIMS(4), NULL, 0.1f, 1);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT16,
					 KH_DIMS(1), NULL, 0.1f, 1);

	expect_rejected(reduction("mean", true, in, AXES(0), out),
			OPVER_ERROR_INVALID_MODEL, "both must be 0");
}

/* ------------------------------------------------------- ARG_MAX/MIN */

static opver_node *arg(const char *kernel, int32_t output_type,
		       opver_tensor *input, opver_tensor *axis,
		       opver_tensor *output)
{
	const opver_arg_min_max_params params = { .output_type =
							  output_type };

	return kh_node(&h, kh_kernel(&h, kernel), 1, &params, sizeof(params),
		       KH_TENSORS(input, axis), KH_TENSORS(output));
}

/* Ties go to the first index. */
Test(reduce, arg_max_picks_the_first_of_equals)
{
	static const float x[] = { 1, 3, 3, 2, /* */ 5, 5, 0, 5 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 4), x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);
	const int32_t *got = NULL;

	run(arg("arg_max", OPVER_TYPE_INT32, in, AXES(-1), out));
	got = out->data;
	cr_expect_eq(got[0], 1);
	cr_expect_eq(got[1], 0);
}

/* Along dimension 0, with an int64 axis and int64 indices. */
Test(reduce, arg_min_with_int64_axis_and_output)
{
	static const int8_t x[] = { 4, -1, 9, /* */ -2, -1, 9 };
	static const int64_t zero = 0;
	opver_tensor *in = kh_quantized(&h, "in", OPVER_TYPE_INT8,
					KH_DIMS(2, 3), x, 0.5f, 0);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT64,
				       KH_DIMS(1), &zero);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT64,
				      KH_DIMS(3), NULL);
	const int64_t *got = NULL;

	axis->is_constant = true;
	run(arg("arg_min", OPVER_TYPE_INT64, in, axis, out));
	got = out->data;
	cr_expect_eq(got[0], 1);
	cr_expect_eq(got[1], 0);
	cr_expect_eq(got[2], 0);
}

Test(reduce, arg_max_of_bools)
{
	static const uint8_t x[] = { 0, 0, 1, 1 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_BOOL, KH_DIMS(4),
				     x);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, 0, NULL,
				      NULL);

	run(arg("arg_max", OPVER_TYPE_INT32, in, AXES(0), out));
	cr_expect_eq(*(const int32_t *)out->data, 2);
}

Test(reduce, arg_max_needs_output_type_to_match)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(4), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, 0, NULL,
				      NULL);

	expect_rejected(arg("arg_max", OPVER_TYPE_INT64, in, AXES(0), out),
			OPVER_ERROR_INVALID_MODEL, "output_type says INT64");
}

Test(reduce, arg_min_rejects_an_output_keeping_the_axis)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 4), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2, 1), NULL);

	expect_rejected(arg("arg_min", OPVER_TYPE_INT32, in, AXES(1), out),
			OPVER_ERROR_INVALID_MODEL,
			"dropping the axis from the input gives [2]");
}

/* An axis that comes at run time is read in invoke: along columns, then
 * along rows of the same [3, 3] input (either gives the output's [3]). */
Test(reduce, arg_max_reads_a_run_time_axis_at_each_invoke)
{
	static const float x[] = { 1, 5, 2, /* */ 7, 0, 3, /* */ 4, 6, 9 };
	static const int32_t zero = 0;
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(3, 3), x);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(1), &zero);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(3), NULL);
	opver_node *n = arg("arg_max", OPVER_TYPE_INT32, in, axis, out);
	const int32_t *got = NULL;

	run(n);
	got = out->data;
	cr_expect(got[0] == 1 && got[1] == 2 && got[2] == 2,
		  "columns: %d %d %d", got[0], got[1], got[2]);
	*(int32_t *)axis->data = -1;
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	cr_expect(got[0] == 1 && got[1] == 0 && got[2] == 2,
		  "rows: %d %d %d", got[0], got[1], got[2]);
}

/* The model fixes the output's shape: a run-time axis that gives another
 * shape, or names no dimension, fails the run. */
Test(reduce, arg_min_fails_a_run_time_axis_that_misses_the_output)
{
	static const int64_t one = 1;
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 4), NULL);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT64,
				       KH_DIMS(1), &one);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2), NULL);
	opver_node *n = arg("arg_min", OPVER_TYPE_INT32, in, axis, out);

	run(n);
	*(int64_t *)axis->data = 0;
	cr_expect_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "gives [4]"), "%s", h.errors);
	*(int64_t *)axis->data = 2;
	cr_expect_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "names dimension 2"), "%s", h.errors);
}

Test(reduce, arg_max_rejects_an_output_no_run_time_axis_gives)
{
	static const int32_t zero = 0;
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2, 4), NULL);
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(1), &zero);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(3), NULL);

	expect_rejected(arg("arg_max", OPVER_TYPE_INT32, in, axis, out),
			OPVER_ERROR_INVALID_MODEL, "no axis dropped");
}

/* ------------------------------------------------ REDUCE_ANY, REDUCE_ALL */

/* [2, 3] of bools with bytes 2 and 255 (true) over axis 1, then axis 0:
 * the outputs hold only 0 and 1. */
Test(reduce, any_and_all_read_nonzero_bytes_as_true)
{
	const uint8_t values[] = { 0, 2, 0, 255, 1, 7 };
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_BOOL, KH_DIMS(2, 3),
				     values);
	opver_tensor *rows = kh_tensor(&h, "rows", OPVER_TYPE_BOOL,
				       KH_DIMS(2), NULL);
	opver_tensor *cols = kh_tensor(&h, "cols", OPVER_TYPE_BOOL,
				       KH_DIMS(1, 3), NULL);

	run(reduction("reduce_any", false, in, AXES(1), rows));
	cr_assert_eq(memcmp(rows->data, (const uint8_t[]){ 1, 1 }, 2), 0);
	run(reduction("reduce_all", false, in, AXES(-1), rows));
	cr_assert_eq(memcmp(rows->data, (const uint8_t[]){ 0, 1 }, 2), 0);
	run(reduction("reduce_all", true, in, AXES(0), cols));
	cr_assert_eq(memcmp(cols->data, (const uint8_t[]){ 0, 1, 0 }, 3), 0);
	run(reduction("reduce_any", true, in, AXES(0), cols));
	cr_assert_eq(memcmp(cols->data, (const uint8_t[]){ 1, 1, 1 }, 3), 0);
}

/* Over no elements ANY is false and ALL true, as TFLite starts them. */
Test(reduce, any_and_all_of_nothing)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_BOOL, KH_DIMS(2, 0),
				     NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_BOOL, KH_DIMS(2),
				      NULL);

	run(reduction("reduce_any", false, in, AXES(1), out));
	cr_assert_eq(memcmp(out->data, (const uint8_t[]){ 0, 0 }, 2), 0);
	run(reduction("reduce_all", false, in, AXES(1), out));
	cr_assert_eq(memcmp(out->data, (const uint8_t[]){ 1, 1 }, 2), 0);
}

Test(reduce, any_of_a_float_is_refused)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(2), NULL);
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(1), NULL);

	cr_assert_neq(kh_prepare(&h, reduction("reduce_any", true, in,
					       AXES(0), out)),
		      OPVER_OK);
}
