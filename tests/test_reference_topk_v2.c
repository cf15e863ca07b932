/*
 * test_reference_topk_v2.c - the reference plugin's TOPK_V2 through the
 * kernel harness: the k largest of each row and their positions worked out
 * by hand, equal values in the order of their positions (TFLite's order),
 * every input type, k of 0 and of the whole row, and the refusals at
 * prepare (a k the graph computes, k past the row, outputs of other
 * shapes or types).
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

TestSuite(topk_v2, .init = setup, .fini = teardown);

static opver_tensor *k_of(int32_t value)
{
	opver_tensor *k = kh_tensor(&h, "k", OPVER_TYPE_INT32, KH_DIMS(1),
				    &value);

	k->is_constant = true;
	return k;
}

/* The [rows, k] outputs of TOPK_V2 of `in` (rank 2); fills *indices. */
static opver_tensor *topk(opver_tensor *in, int32_t k, opver_tensor **indices)
{
	opver_tensor *values = kh_tensor(&h, "values", in->type,
					 KH_DIMS(in->dims[0], k), NULL);
	opver_node *n;

	*indices = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
			     KH_DIMS(in->dims[0], k), NULL);
	n = kh_node(&h, kh_kernel(&h, "topk_v2"), 1, NULL, 0,
		    KH_TENSORS(in, k_of(k)), KH_TENSORS(values, *indices));
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	return values;
}

/* Two rows: 3 1 4 1 5 | 9 2 6 5 3. */
static opver_tensor *rows(void)
{
	return kh_tensor(&h, "in", OPVER_TYPE_FLOAT32, KH_DIMS(2, 5),
			 (const float[]){ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 });
}

Test(topk_v2, the_largest_of_each_row_sorted_descending)
{
	opver_tensor *indices;

	kh_expect_floats(topk(rows(), 3, &indices),
			 (const float[]){ 5, 4, 3, 9, 6, 5 }, 6);
	kh_expect_int32s(indices, (const int32_t[]){ 4, 2, 0, 0, 2, 3 }, 6);
}

/* Equal values keep the order of their positions: the lower index first,
 * including the one that falls off at the k-th place. */
Test(topk_v2, equal_values_lower_index_first)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 6),
				     (const float[]){ 2, 7, 2, 7, 2, 1 });
	opver_tensor *indices;

	kh_expect_floats(topk(in, 4, &indices),
			 (const float[]){ 7, 7, 2, 2 }, 4);
	kh_expect_int32s(indices, (const int32_t[]){ 1, 3, 0, 2 }, 4);
}

/* k of the whole row sorts it; negative floats order below zero. */
Test(topk_v2, k_of_the_whole_row_sorts_it)
{
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1, 4),
				     (const float[]){ -1.5f, 0, -3, 2 });
	opver_tensor *indices;

	kh_expect_floats(topk(in, 4, &indices),
			 (const float[]){ 2, 0, -1.5f, -3 }, 4);
	kh_expect_int32s(indices, (const int32_t[]){ 3, 1, 0, 2 }, 4);
}

/* Each integer type compares as its own type: uint8 200 is above 100,
 * int8 -56 (the same byte) below. */
Test(topk_v2, integer_types_compare_as_their_type)
{
	const uint8_t bytes[3] = { 100, 200, 7 };
	const int16_t shorts[3] = { -300, 300, 299 };
	const int32_t ints[3] = { INT32_MIN, INT32_MAX, 0 };
	const int64_t longs[3] = { INT64_C(1) << 40, -1,
				   (INT64_C(1) << 40) + 1 };
	opver_tensor *indices, *values;

	values = topk(kh_tensor(&h, "in", OPVER_TYPE_UINT8, KH_DIMS(1, 3),
				bytes), 2, &indices);
	cr_expect_eq(memcmp(values->data, (const uint8_t[]){ 200, 100 }, 2), 0);
	kh_expect_int32s(indices, (const int32_t[]){ 1, 0 }, 2);
	values = topk(kh_tensor(&h, "in", OPVER_TYPE_INT8, KH_DIMS(1, 3),
				bytes), 2, &indices);
	cr_expect_eq(memcmp(values->data, (const int8_t[]){ 100, 7 }, 2), 0);
	kh_expect_int32s(indices, (const int32_t[]){ 0, 2 }, 2);
	values = topk(kh_tensor(&h, "in", OPVER_TYPE_INT16, KH_DIMS(1, 3),
				shorts), 2, &indices);
	cr_expect_eq(memcmp(values->data, (const int16_t[]){ 300, 299 }, 4),
		     0);
	kh_expect_int32s(indices, (const int32_t[]){ 1, 2 }, 2);
	values = topk(kh_tensor(&h, "in", OPVER_TYPE_INT32, KH_DIMS(1, 3),
				ints), 2, &indices);
	kh_expect_int32s(values, (const int32_t[]){ INT32_MAX, 0 }, 2);
	kh_expect_int32s(indices, (const int32_t[]){ 1, 2 }, 2);
	values = topk(kh_tensor(&h, "in", OPVER_TYPE_INT64, KH_DIMS(1, 3),
				longs), 2, &indices);
	cr_expect_eq(memcmp(values->data,
			    (const int64_t[]){ (INT64_C(1) << 40) + 1,
					       INT64_C(1) << 40 },
			    16),
		     0);
	kh_expect_int32s(indices, (const int32_t[]){ 2, 0 }, 2);
}

/* Rank 3: the last axis is the row; k a scalar, as converters write it. */
Test(topk_v2, rows_are_the_last_axis_at_any_rank)
{
	const int32_t one = 1;
	opver_tensor *k = kh_tensor(&h, "k", OPVER_TYPE_INT32, 0, NULL, &one);
	opver_tensor *in = kh_tensor(&h, "in", OPVER_TYPE_INT32,
				     KH_DIMS(2, 1, 3),
				     (const int32_t[]){ 1, 3, 2, 6, 5, 4 });
	opver_tensor *values = kh_tensor(&h, "values", OPVER_TYPE_INT32,
					 KH_DIMS(2, 1, 1), NULL);
	opver_tensor *indices = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
					  KH_DIMS(2, 1, 1), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "topk_v2"), 1, NULL, 0,
				KH_TENSORS(in, k), KH_TENSORS(values, indices));

	k->is_constant = true;
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int32s(values, (const int32_t[]){ 3, 6 }, 2);
	kh_expect_int32s(indices, (const int32_t[]){ 1, 0 }, 2);
}

Test(topk_v2, k_of_0_is_accepted)
{
	opver_tensor *values = kh_tensor(&h, "values", OPVER_TYPE_FLOAT32,
					 KH_DIMS(2, 0), NULL);
	opver_tensor *indices = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
					  KH_DIMS(2, 0), NULL);

	cr_expect_eq(kh_run(&h, kh_node(&h, kh_kernel(&h, "topk_v2"), 1, NULL,
					0, KH_TENSORS(rows(), k_of(0)),
					KH_TENSORS(values, indices))),
		     OPVER_OK, "%s", h.errors);
}

/* The outputs' shapes depend on k: a k the graph computes is refused at
 * prepare, naming why. */
Test(topk_v2, refuses_a_k_the_graph_computes)
{
	opver_tensor *k = kh_tensor(&h, "k", OPVER_TYPE_INT32, KH_DIMS(1),
				    (const int32_t[]){ 2 });
	opver_tensor *values = kh_tensor(&h, "values", OPVER_TYPE_FLOAT32,
					 KH_DIMS(2, 2), NULL);
	opver_tensor *indices = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
					  KH_DIMS(2, 2), NULL);

	kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "topk_v2"), 1, NULL,
				       0, KH_TENSORS(rows(), k),
				       KH_TENSORS(values, indices)),
			   OPVER_ERROR_UNSUPPORTED, "needs a constant k");
}

/* The refusals of a constant k: past the row, negative, outputs whose
 * shapes are not the input's with the last dimension k; int64 indices,
 * which opver does not compute. */
Test(topk_v2, refuses_k_outside_the_row_and_outputs_that_do_not_fit)
{
	struct {
		int32_t k, out_cols, index_type;
		opver_status status;
		const char *text;
	} cases[] = {
		{ 6, 6, OPVER_TYPE_INT32, OPVER_ERROR_INVALID_MODEL, "k is 6" },
		{ -1, 1, OPVER_TYPE_INT32, OPVER_ERROR_INVALID_MODEL,
		  "k is -1" },
		{ 2, 3, OPVER_TYPE_INT32, OPVER_ERROR_INVALID_MODEL,
		  "the input's rows of k give [2, 2]" },
		{ 2, 2, OPVER_TYPE_INT64, OPVER_ERROR_UNSUPPORTED,
		  "indices 'indices' has type INT64" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opver_tensor *values = kh_tensor(&h, "values",
						 OPVER_TYPE_FLOAT32,
						 KH_DIMS(2, cases[i].out_cols),
						 NULL);
		opver_tensor *indices = kh_tensor(&h, "indices",
						  cases[i].index_type,
						  KH_DIMS(2, 2), NULL);

		h.num_errors = 0;
		h.errors[0] = '\0';
		kh_expect_rejected(&h, kh_node(&h, kh_kernel(&h, "topk_v2"), 1,
					       NULL, 0,
					       KH_TENSORS(rows(),
							  k_of(cases[i].k)),
					       KH_TENSORS(values, indices)),
				   cases[i].status, cases[i].text);
	}
}
