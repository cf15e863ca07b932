/*
 * test_reference_cumsum.c - the reference plugin's CUMSUM through the
 * kernel harness: running sums worked out by hand for each combination of
 * exclusive and reverse, negative axes, int32 wrap-around and int64, the
 * float rounding of adding one element at a time, and the axis checks in
 * prepare (constant axis) and invoke (an axis the graph computes).
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

TestSuite(cumsum, .init = setup, .fini = teardown);

static opver_tensor *axis_of(int32_t value)
{
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(1), &value);

	axis->is_constant = true;
	return axis;
}

/* CUMSUM of `in` along `axis` with the options given; returns the output
 * (of in's type and shape). */
static opver_tensor *cumsum(opver_tensor *in, int32_t axis, int32_t exclusive,
			    int32_t reverse)
{
	const opver_cumsum_params p = { exclusive, reverse };
	opver_tensor *out = kh_tensor(&h, "out", in->type, in->rank, in->dims,
				      NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "cumsum"), 1, &p, sizeof(p),
				KH_TENSORS(in, axis_of(axis)),
				KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	return out;
}

static opver_tensor *rows(void)
{
	return kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2, 3),
			 (const float[]){ 1, 2, 3, 4, 5, 6 });
}

/* Along the rows' last axis: 1 2 3 | 4 5 6. */
Test(cumsum, exclusive_and_reverse_along_the_last_axis)
{
	kh_expect_floats(cumsum(rows(), 1, 0, 0),
			 (const float[]){ 1, 3, 6, 4, 9, 15 }, 6);
	kh_expect_floats(cumsum(rows(), 1, 1, 0),
			 (const float[]){ 0, 1, 3, 0, 4, 9 }, 6);
	kh_expect_floats(cumsum(rows(), 1, 0, 1),
			 (const float[]){ 6, 5, 3, 15, 11, 6 }, 6);
	kh_expect_floats(cumsum(rows(), -1, 1, 1),
			 (const float[]){ 5, 3, 0, 11, 6, 0 }, 6);
}

/* Along axis 0 (given as -2): each column summed down. */
Test(cumsum, along_the_first_axis)
{
	kh_expect_floats(cumsum(rows(), -2, 0, 0),
			 (const float[]){ 1, 2, 3, 5, 7, 9 }, 6);
	kh_expect_floats(cumsum(rows(), 0, 0, 1),
			 (const float[]){ 5, 7, 9, 4, 5, 6 }, 6);
}

/* One element at a time in float: 1e8 + 4 + 4 stays 1e8 (floats are 8
 * apart there and each 4 is a tie, rounded to the even 1e8); summing the
 * two 4s first would give 100000008, a float. */
Test(cumsum, float_sums_round_after_each_element)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(3),
				     (const float[]){ 1e8f, 4, 4 });

	kh_expect_floats(cumsum(in, 0, 0, 0),
			 (const float[]){ 1e8f, 1e8f, 1e8f }, 3);
}

/* int32 sums wrap around as TFLite's do on two's complement machines. */
Test(cumsum, int32_wraps_and_int64_keeps_its_range)
{
	const int64_t big[3] = { INT64_C(1) << 40, INT64_C(1) << 40, -1 };
	const int64_t big_want[3] = { INT64_C(1) << 40, INT64_C(1) << 41,
				      (INT64_C(1) << 41) - 1 };
	opver_tensor *out;

	out = cumsum(kh_tensor(&h, "in", OPVER_TYPE_INT32, KH_DIMS(3),
			       (const int32_t[]){ INT32_MAX, 1, 5 }),
		     0, 0, 0);
	kh_expect_int32s(out, (const int32_t[]){ INT32_MAX, INT32_MIN,
						 INT32_MIN + 5 },
			 3);
	out = cumsum(kh_tensor(&h, "in", OPVER_TYPE_INT64, KH_DIMS(3), big), 0,
		     0, 0);
	cr_expect_eq(memcmp(out->data, big_want, sizeof(big_want)), 0);
}

Test(cumsum, refuses_an_axis_outside_the_input)
{
	const opver_cumsum_params p = { 0, 0 };
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "cumsum"), 1, &p,
				       sizeof(p),
				       KH_TENSORS(rows(), axis_of(2)),
				       KH_TENSORS(out)),
			   OPVER_ERROR_INVALID_MODEL, "axis is 2");
}

Test(cumsum, refuses_an_output_of_another_shape)
{
	const opver_cumsum_params p = { 0, 0 };

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "cumsum"), 1, &p,
				       sizeof(p),
				       KH_TENSORS(rows(), axis_of(0)),
				       KH_TENSORS(kh_tensor(&h, "out",
							    OPVER_TYPE_FLOAT32,
							    KH_DIMS(6),
							    NULL))),
			   OPVER_ERROR_INVALID_MODEL, "shape of input");
}

/* An axis the graph computes is read and checked at each invoke; without
 * options the sums are inclusive and forward. */
Test(cumsum, reads_a_runtime_axis_at_invoke)
{
	opver_tensor *axis = kh_tensor(&h, "axis", OPVER_TYPE_INT32,
				       KH_DIMS(1), (const int32_t[]){ -3 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "cumsum"), 1, NULL, 0,
				KH_TENSORS(rows(), axis), KH_TENSORS(out));

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_expect_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_MODEL);
	cr_expect(kh_error_contains(&h, "axis is -3"), "%s", h.errors);
	*(int32_t *)axis->data = 0;
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_floats(out, (const float[]){ 1, 2, 3, 5, 7, 9 }, 6);
}
