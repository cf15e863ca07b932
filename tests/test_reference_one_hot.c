/*
 * test_reference_one_hot.c - the reference plugin's ONE_HOT through the
 * kernel harness: outputs written out by hand for the new dimension last,
 * first and between, indices outside [0, depth), int64 indices, the output
 * types by element size (bool, int8, int64), on and off values read at
 * invoke, and the refusals at prepare (a depth the graph computes, an axis
 * out of range, an output of another shape, int16 outputs).
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

TestSuite(one_hot, .init = setup, .fini = teardown);

static opver_tensor *constant(opver_tensor *t)
{
	t->is_constant = true;
	return t;
}

static opver_tensor *depth_of(int32_t value)
{
	return constant(kh_tensor(&h, "depth", OPVER_TYPE_INT32, KH_DIMS(1),
				  &value));
}

/* ONE_HOT of `indices` with float32 on 1 and off 0 (or on 5 and off -1
 * when `fives`) into `out`; runs it. */
static void one_hot(opver_tensor *indices, int32_t depth, int32_t axis,
		    bool fives, opver_tensor *out)
{
	const opver_one_hot_params p = { axis };
	const float on = fives ? 5 : 1, off = fives ? -1 : 0;
	opver_node *n = kh_node(
		&h, kh_kernel(&h, "one_hot"), 1, &p, sizeof(p),
		KH_TENSORS(indices, depth_of(depth),
			   kh_tensor(&h, "on", OPVER_TYPE_FLOAT32, KH_DIMS(1),
				     &on),
			   kh_tensor(&h, "off", OPVER_TYPE_FLOAT32,
				     KH_DIMS(1), &off)),
		KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
}

static opver_tensor *two_indices(void)
{
	return kh_tensor(&h, "indices", OPVER_TYPE_INT32, KH_DIMS(2),
			 (const int32_t[]){ 2, 0 });
}

/* Axis -1: one row of depth per index. */
Test(one_hot, last_axis_a_row_per_index)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3), NULL);

	one_hot(two_indices(), 3, -1, true, out);
	kh_expect_floats(out, (const float[]){ -1, -1, 5, 5, -1, -1 }, 6);
}

/* Axis 0: one row per position, one column per index. */
Test(one_hot, first_axis_a_column_per_index)
{
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(3, 2), NULL);

	one_hot(two_indices(), 3, 0, false, out);
	kh_expect_floats(out, (const float[]){ 0, 1, 0, 0, 1, 0 }, 6);
}

/* Indices [2, 2] = 0 1 | 3 -1 with depth 3 at axis 1: output [2, 3, 2];
 * 3 and -1 are outside [0, 3) and give off throughout. */
Test(one_hot, middle_axis_and_indices_outside_the_depth)
{
	opver_tensor *indices = kh_tensor(&h, "indices", OPVER_TYPE_INT32,
					  KH_DIMS(2, 2),
					  (const int32_t[]){ 0, 1, 3, -1 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 3, 2), NULL);

	one_hot(indices, 3, 1, false, out);
	kh_expect_floats(out,
			 (const float[]){ 1, 0, 0, 1, 0, 0, /* batch 0 */
					  0, 0, 0, 0, 0, 0 },
			 12);
}

/* int64 indices compare as int64: 2^32 + 1 is not 1. */
Test(one_hot, int64_indices_compare_whole)
{
	opver_tensor *indices = kh_tensor(
		&h, "indices", OPVER_TYPE_INT64, KH_DIMS(2),
		(const int64_t[]){ 1, (INT64_C(1) << 32) + 1 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
				      KH_DIMS(2, 2), NULL);

	one_hot(indices, 2, -1, false, out);
	kh_expect_floats(out, (const float[]){ 0, 1, 0, 0 }, 4);
}

/* The output types by element size: bool, int8 and int64. */
Test(one_hot, bool_int8_and_int64_outputs)
{
	const struct {
		opver_type type;
		size_t size;
		const void *on, *off, *want;
	} types[] = {
		{ OPVER_TYPE_BOOL, 1, (const uint8_t[]){ 1 },
		  (const uint8_t[]){ 0 },
		  (const uint8_t[]){ 0, 0, 1, 1, 0, 0 } },
		{ OPVER_TYPE_INT8, 1, (const int8_t[]){ -7 },
		  (const int8_t[]){ 3 },
		  (const int8_t[]){ 3, 3, -7, -7, 3, 3 } },
		{ OPVER_TYPE_INT64, 8, (const int64_t[]){ INT64_MAX },
		  (const int64_t[]){ -1 },
		  (const int64_t[]){ -1, -1, INT64_MAX, INT64_MAX, -1, -1 } },
	};

	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		const opver_one_hot_params p = { -1 };
		opver_tensor *out = kh_tensor(&h, "out", types[t].type,
					      KH_DIMS(2, 3), NULL);
		opver_node *n = kh_node(
			&h, kh_kernel(&h, "one_hot"), 1, &p, sizeof(p),
			KH_TENSORS(two_indices(), depth_of(3),
				   kh_tensor(&h, "on", types[t].type,
					     KH_DIMS(1), types[t].on),
				   kh_tensor(&h, "off", types[t].type,
					     KH_DIMS(1), types[t].off)),
			KH_TENSORS(out));

		cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
		cr_expect_eq(memcmp(out->data, types[t].want,
				    6 * types[t].size),
			     0, "type %d", (int)types[t].type);
	}
}

/* on_value and off_value are graph inputs, read at each invoke. */
Test(one_hot, reads_on_and_off_at_invoke)
{
	const opver_one_hot_params p = { -1 };
	opver_tensor *on = kh_tensor(&h, "on", OPVER_TYPE_INT32, KH_DIMS(1),
				     (const int32_t[]){ 1 });
	opver_tensor *off = kh_tensor(&h, "off", OPVER_TYPE_INT32, KH_DIMS(1),
				      (const int32_t[]){ 0 });
	opver_tensor *out = kh_tensor(&h, "out", OPVER_TYPE_INT32,
				      KH_DIMS(2, 2), NULL);
	opver_node *n = kh_node(&h, kh_kernel(&h, "one_hot"), 1, &p, sizeof(p),
				KH_TENSORS(kh_tensor(&h, "indices",
						     OPVER_TYPE_INT32,
						     KH_DIMS(2),
						     (const int32_t[]){ 1, 0 }),
					   depth_of(2), on, off),
				KH_TENSORS(out));

	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (const int32_t[]){ 0, 1, 1, 0 }, 4);
	*(int32_t *)on->data = 9;
	*(int32_t *)off->data = -9;
	cr_assert_eq(kh_invoke(&h, n), OPVER_OK, "%s", h.errors);
	kh_expect_int32s(out, (const int32_t[]){ -9, 9, 9, -9 }, 4);
}

/* A node over two_indices() with float32 on and off values, depth
 * `depth`, axis `axis` and a [rows, cols] output. */
static opver_node *node_of(opver_tensor *depth, int32_t axis, int32_t rows,
			   int32_t cols)
{
	const opver_one_hot_params p = { axis };

	return kh_node(&h, kh_kernel(&h, "one_hot"), 1, &p, sizeof(p),
		       KH_TENSORS(two_indices(), depth,
				  kh_tensor(&h, "on", OPVER_TYPE_FLOAT32,
					    KH_DIMS(1), (const float[]){ 1 }),
				  kh_tensor(&h, "off", OPVER_TYPE_FLOAT32,
					    KH_DIMS(1), (const float[]){ 0 })),
		       KH_TENSORS(kh_tensor(&h, "out", OPVER_TYPE_FLOAT32,
					    KH_DIMS(rows, cols), NULL)));
}

static void rejected(opver_node *n, opver_status status, const char *text)
{
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, n, status, text);
}

Test(one_hot, refuses_a_depth_the_graph_computes)
{
	rejected(node_of(kh_tensor(&h, "depth", OPVER_TYPE_INT32, KH_DIMS(1),
				   (const int32_t[]){ 3 }),
			 -1, 2, 3),
		 OPVER_ERROR_UNSUPPORTED, "needs a constant depth");
}

Test(one_hot, refuses_bad_axes_depths_and_shapes)
{
	rejected(node_of(depth_of(3), 2, 2, 3), OPVER_ERROR_INVALID_MODEL,
		 "axis 2");
	rejected(node_of(depth_of(3), -2, 2, 3), OPVER_ERROR_INVALID_MODEL,
		 "axis -2");
	rejected(node_of(depth_of(-1), -1, 2, 0), OPVER_ERROR_INVALID_MODEL,
		 "depth is -1");
	rejected(node_of(depth_of(3), 0, 2, 3), OPVER_ERROR_INVALID_MODEL,
		 "depth inserted into the indices' shape gives [3, 2]");
}

/* TFLite fails an int16 output at invoke; opver refuses it at prepare. */
Test(one_hot, refuses_int16_output)
{
	const opver_one_hot_params p = { -1 };
	const int16_t on = 1, off = 0;

	rejected(kh_node(&h, kh_kernel(&h, "one_hot"), 1, &p, sizeof(p),
			 KH_TENSORS(two_indices(), depth_of(2),
				    kh_tensor(&h, "on", OPVER_TYPE_INT16,
					      KH_DIMS(1), &on),
				    kh_tensor(&h, "off", OPVER_TYPE_INT16,
					      KH_DIMS(1), &off)),
			 KH_TENSORS(kh_tensor(&h, "out", OPVER_TYPE_INT16,
					      KH_DIMS(2, 2), NULL))),
		 OPVER_ERROR_UNSUPPORTED, "output 'out' has type INT16");
}
