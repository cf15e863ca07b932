/*
 * test_reference_movement_lookup.c - the reference plugin's
 * EMBEDDING_LOOKUP (plain rows, int8 and uint8 tables dequantized with one
 * scale or one per row, ids out of range) and BROADCAST_ARGS, against
 * values worked out by hand.
 */
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>

#include "movement_harness.h"

/* ---------------------------------------------------- EMBEDDING_LOOKUP */

static opver_tensor *ids(int32_t count, const int32_t *values)
{
	return kh_tensor(&h, "ids", OPVER_TYPE_INT32, KH_DIMS(count), values);
}

/* Rows 2, 0, 2 of the [3, 2] table 1..6. */
Test(movement, embedding_lookup_copies_rows)
{
	opver_tensor *out = floats("out", KH_DIMS(3, 2), NULL);

	run(node("embedding_lookup", 1, NULL, 0,
		 KH_TENSORS(ids(3, (const int32_t[]){ 2, 0, 2 }),
			    floats("table", KH_DIMS(3, 2), six)),
		 KH_TENSORS(out)));
	kh_expect_floats(out, (const float[]){ 5, 6, 1, 2, 5, 6 }, 6);
}

/* A [2, 1, 2] table keeps its inner shape; int8 rows copy as stored. */
Test(movement, embedding_lookup_int8_rows_keep_their_shape)
{
	opver_tensor *table = kh_quantized(&h, "table", OPVER_TYPE_INT8,
					   KH_DIMS(2, 1, 2),
					   (const int8_t[]){ -128, 127, 5, -5 },
					   0.5f, 3);
	opver_tensor *out = kh_quantized(&h, "out", OPVER_TYPE_INT8,
					 KH_DIMS(2, 1, 2), NULL, 0.5f, 3);

	run(node("embedding_lookup", 1, NULL, 0,
		 KH_TENSORS(ids(2, (const int32_t[]){ 1, 0 }), table),
		 KH_TENSORS(out)));
	kh_expect_int8s(out, (const int8_t[]){ 5, -5, -128, 127 }, 4);
}

/* A float32 output dequantizes: q x 0.25; uint8 bytes are read as int8,
 * as TFLite's EvalHybrid reads them (200 is -56 steps, -14). */
Test(movement, embedding_lookup_hybrid_one_scale)
{
	opver_tensor *out = floats("out", KH_DIMS(2, 2), NULL);

	run(node("embedding_lookup", 1, NULL, 0,
		 KH_TENSORS(ids(2, (const int32_t[]){ 1, 0 }),
			    kh_quantized(&h, "table", OPVER_TYPE_INT8,
					 KH_DIMS(2, 2),
					 (const int8_t[]){ -128, 127, 4, -3 },
					 0.25f, 0)),
		 KH_TENSORS(out)));
	kh_expect_floats(out, (const float[]){ 1, -0.75f, -32, 31.75f }, 4);
	run(node("embedding_lookup", 1, NULL, 0,
		 KH_TENSORS(ids(2, (const int32_t[]){ 0, 1 }),
			    kh_quantized(&h, "table", OPVER_TYPE_UINT8,
					 KH_DIMS(2, 2),
					 (const uint8_t[]){ 200, 100, 255, 0 },
					 0.25f, 0)),
		 KH_TENSORS(out)));
	kh_expect_floats(out, (const float[]){ -14, 25, -0.25f, 0 }, 4);
}

/* Version 4's per-row table: row r's values times its own scale. */
Test(movement, embedding_lookup_hybrid_scale_per_row)
{
	static const float scales[3] = { 1, 0.5f, 0.125f };
	static const int64_t zeros[3] = { 0, 0, 0 };
	opver_tensor *table = kh_tensor(&h, "table", OPVER_TYPE_INT8,
					KH_DIMS(3, 2),
					(const int8_t[]){ 1, -1, 8, 9, 64, -3 });
	opver_tensor *out = floats("out", KH_DIMS(3, 2), NULL);

	kh_quantize_per_channel(&h, table, 0, 3, scales, zeros);
	run(node("embedding_lookup", 4, NULL, 0,
		 KH_TENSORS(ids(3, (const int32_t[]){ 2, 1, 0 }), table),
		 KH_TENSORS(out)));
	kh_expect_floats(out, (const float[]){ 8, -0.375f, 4, 4.5f, 1, -1 },
			 6);
}

Test(movement, embedding_lookup_refuses_an_asymmetric_table)
{
	opver_tensor *table = kh_quantized(&h, "table", OPVER_TYPE_INT8,
					   KH_DIMS(2, 2), NULL, 0.5f, 1);
	opver_tensor *out = floats("out", KH_DIMS(1, 2), NULL);

	rejected(node("embedding_lookup", 1, NULL, 0,
		      KH_TENSORS(ids(1, (const int32_t[]){ 0 }),
				 table),
		      KH_TENSORS(out)),
		 OPVER_ERROR_INVALID_MODEL, "zero point 1");
}

/* An id outside the table fails the invoke and reads nothing. */
Test(movement, embedding_lookup_fails_an_id_outside_the_table)
{
	opver_tensor *lookups = ids(2, (const int32_t[]){ 0, 3 });
	opver_tensor *out = floats("out", KH_DIMS(2, 2), NULL);
	opver_node *n = node("embedding_lookup", 1, NULL, 0,
			     KH_TENSORS(lookups,
					floats("table", KH_DIMS(3, 2), six)),
			     KH_TENSORS(out));

	cr_assert_eq(kh_prepare(&h, n), OPVER_OK, "%s", h.errors);
	cr_expect_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(kh_error_contains(&h, "id 3 (ids[1])"), "%s", h.errors);
	((int32_t *)lookups->data)[1] = -1;
	cr_expect_eq(kh_invoke(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(kh_error_contains(&h, "id -1 (ids[1])"), "%s", h.errors);
}

/* ------------------------------------------------------ BROADCAST_ARGS */

Test(movement, broadcast_args_int32_and_int64)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(3),
				      NULL);
	opver_tensor *wide = kh_tensor(&h, "out", OPVER_TYPE_INT64,
				       KH_DIMS(3), NULL);

	run(node("broadcast_args", 1, NULL, 0,
		 KH_TENSORS(kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(3),
				      (const int32_t[]){ 2, 1, 3 }),
			    kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(2),
				      (const int32_t[]){ 4, 1 })),
		 KH_TENSORS(out)));
	kh_expect_int32s(out, (const int32_t[]){ 2, 4, 3 }, 3);
	run(node("broadcast_args", 1, NULL, 0,
		 KH_TENSORS(kh_tensor(&h, "a", OPVER_TYPE_INT64, KH_DIMS(1),
				      (const int64_t[]){ 5 }),
			    kh_tensor(&h, "b", OPVER_TYPE_INT64, KH_DIMS(3),
				      (const int64_t[]){ 1, INT64_C(1) << 33,
							 1 })),
		 KH_TENSORS(wide)));
	cr_expect_eq(memcmp(wide->data,
			    (const int64_t[]){ 1, INT64_C(1) << 33, 5 },
			    3 * sizeof(int64_t)),
		     0);
}

/* Shapes that do not broadcast fail the invoke, naming the pair. */
Test(movement, broadcast_args_fails_shapes_that_do_not_broadcast)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32, KH_DIMS(2),
				      NULL);
	opver_node *n = node("broadcast_args", 1, NULL, 0,
			     KH_TENSORS(kh_tensor(&h, "a", OPVER_TYPE_INT32,
						  KH_DIMS(2),
						  (const int32_t[]){ 2, 3 }),
					kh_tensor(&h, "b", OPVER_TYPE_INT32,
						  KH_DIMS(1),
						  (const int32_t[]){ 4 })),
			     KH_TENSORS(out));

	cr_expect_eq(kh_run(&h, n), OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(kh_error_contains(&h, "3 and 4, 1 from the end"), "%s",
		  h.errors);
}

/* The output's length is static: the longer input's. */
Test(movement, broadcast_args_refuses_an_output_of_another_length)
{
	opver_tensor *a = kh_tensor(&h, "a", OPVER_TYPE_INT32, KH_DIMS(2),
				    NULL);
	opver_tensor *b = kh_tensor(&h, "b", OPVER_TYPE_INT32, KH_DIMS(4),
				    NULL);

	rejected(node("broadcast_args", 1, NULL, 0,
		      KH_TENSORS(a, b),
		      KH_TENSORS(kh_tensor(&h, "out",
					   OPVER_TYPE_INT32,
					   KH_DIMS(2), NULL))),
		 OPVER_ERROR_INVALID_MODEL, "the longer of the two shapes gives [4]");
}
