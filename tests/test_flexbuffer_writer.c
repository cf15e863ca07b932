/*
 * test_flexbuffer_writer.c - the conformance tool's FlexBuffers map
 * writer (tools/conformance/flexbuffer_writer.c): a map laid out byte by
 * byte as worked out here from FlexBuffers' documentation, and maps read
 * back by the core's reader (core/flexbuffer.c, itself checked against
 * bytes flatc wrote), every key, whatever order the entries come in.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "conformance/flexbuffer_writer.h"
#include "flexbuffer.h"

/* {"b": 7, "a": 2.5f} given in that order: the keys are written sorted,
 * "a" first, so that FlexBuffers' binary search finds them. */
Test(flexbuffer_writer, lays_out_a_small_map_as_worked_by_hand)
{
	static const cf_flex_entry entries[2] = {
		{ "b", CF_FLEX_INT, 7, 0 },
		{ "a", CF_FLEX_FLOAT, 0, 2.5f },
	};
	static const uint8_t want[] = {
		'a', 0, 'b', 0,         /*  0: the keys, sorted */
		2, 0, 0, 0,             /*  4: keys vector: count */
		8, 0, 0, 0, 10, 0, 0, 0, /* 8: back to "a" (0), "b" (2) */
		8, 0, 0, 0,             /* 16: map: back to the keys (8) */
		4, 0, 0, 0, 2, 0, 0, 0, /* 20: key width 4, count 2 */
		0, 0, 0x20, 0x40,       /* 28: 2.5f */
		7, 0, 0, 0,             /* 32: 7 */
		3 << 2 | 2, 1 << 2 | 2, /* 36: FLOAT, INT, 4 bytes wide */
		0, 0,                   /* 38: to 4-byte alignment */
		12, 0, 0, 0,            /* 40: root: back to the values (28) */
		9 << 2 | 2, 4,          /* 44: MAP 4 bytes wide; root width */
	};
	uint8_t got[sizeof(want)];

	cr_assert_eq(cf_flex_write_map(entries, 2, NULL), sizeof(want));
	memset(got, 0xee, sizeof(got));
	cr_assert_eq(cf_flex_write_map(entries, 2, got), sizeof(want));
	cr_assert_arr_eq(got, want, sizeof(want));
}

/* TFLite_Detection_PostProcess's options, in no particular order, read
 * back key by key, each of its kind and value. */
Test(flexbuffer_writer, the_core_reads_back_every_entry)
{
	static const cf_flex_entry entries[] = {
		{ "y_scale", CF_FLEX_FLOAT, 0, 10.0f },
		{ "max_detections", CF_FLEX_INT, 3, 0 },
		{ "use_regular_nms", CF_FLEX_BOOL, 1, 0 },
		{ "nms_iou_threshold", CF_FLEX_FLOAT, 0, 0.6f },
		{ "detections_per_class", CF_FLEX_INT, -100, 0 },
		{ "num_classes", CF_FLEX_INT, 90, 0 },
		{ "h_scale", CF_FLEX_FLOAT, 0, -5.5f },
		{ "max_classes_per_detection", CF_FLEX_INT, 2147483647, 0 },
	};
	const size_t count = sizeof(entries) / sizeof(entries[0]);
	const size_t size = cf_flex_write_map(entries, count, NULL);
	uint8_t *bytes = malloc(size);

	cr_assert_not_null(bytes);
	cr_assert_eq(cf_flex_write_map(entries, count, bytes), size);
	for (size_t i = 0; i < count; i++) {
		const cf_flex_entry *e = &entries[i];
		opver_flex_value v;
		char error[200];

		cr_assert(opver__flex_map_find(bytes, size, e->key, &v, error,
					       sizeof(error)),
			  "%s: %s", e->key, error);
		switch (e->kind) {
		case CF_FLEX_INT:
			cr_expect_eq(v.kind, OPVER_FLEX_INT, "%s", e->key);
			cr_expect_eq(v.as_int, e->as_int, "%s", e->key);
			break;
		case CF_FLEX_BOOL:
			cr_expect_eq(v.kind, OPVER_FLEX_BOOL, "%s", e->key);
			cr_expect_eq(v.as_int, e->as_int, "%s", e->key);
			break;
		case CF_FLEX_FLOAT:
			cr_expect_eq(v.kind, OPVER_FLEX_FLOAT, "%s", e->key);
			cr_expect_eq(v.as_float, (double)e->as_float, "%s",
				     e->key);
			break;
		}
	}
	free(bytes);
}

Test(flexbuffer_writer, an_empty_map_reads_as_empty)
{
	uint8_t bytes[32];
	const size_t size = cf_flex_write_map(NULL, 0, NULL);
	opver_flex_value v;
	char error[200];

	cr_assert_leq(size, sizeof(bytes));
	cr_assert_eq(cf_flex_write_map(NULL, 0, bytes), size);
	cr_assert(opver__flex_map_find(bytes, size, "x", &v, error,
				       sizeof(error)),
		  "%s", error);
	cr_assert_eq(v.kind, OPVER_FLEX_ABSENT);
}

Test(flexbuffer_writer, refuses_more_entries_than_it_holds)
{
	cf_flex_entry entries[CF_FLEX_MAX_ENTRIES + 1];

	memset(entries, 0, sizeof(entries));
	cr_assert_eq(cf_flex_write_map(entries, CF_FLEX_MAX_ENTRIES + 1,
				       NULL),
		     0);
}
