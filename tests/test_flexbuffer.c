/*
 * test_flexbuffer.c - the custom-options reader (core/flexbuffer.c): keys
 * and values of maps written by another encoder (flatc --flexbuffers) and
 * of maps built here byte by byte, and hostile bytes (truncated, every
 * byte replaced by every value) that must give a reason, never a crash or
 * a read outside the buffer (run under ASan).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "flexbuffer.h"

/*
 * Written by `flatc --flexbuffers -b` (flatc 2.0.8) from
 *   {"max_detections": 3, "max_classes_per_detection": 1,
 *    "detections_per_class": 100, "use_regular_nms": false,
 *    "nms_score_threshold": 0.0, "nms_iou_threshold": 0.5,
 *    "num_classes": 2, "y_scale": 10.0, "x_scale": 10.0,
 *    "h_scale": 5.0, "w_scale": 5.0}
 * TFLite_Detection_PostProcess's options; a map 4 bytes wide.
 */
static const uint8_t detection_options[] = {
	0x6d, 0x61, 0x78, 0x5f, 0x64, 0x65, 0x74, 0x65, 0x63, 0x74, 0x69, 0x6f,
	0x6e, 0x73, 0x00, 0x6d, 0x61, 0x78, 0x5f, 0x63, 0x6c, 0x61, 0x73, 0x73,
	0x65, 0x73, 0x5f, 0x70, 0x65, 0x72, 0x5f, 0x64, 0x65, 0x74, 0x65, 0x63,
	0x74, 0x69, 0x6f, 0x6e, 0x00, 0x64, 0x65, 0x74, 0x65, 0x63, 0x74, 0x69,
	0x6f, 0x6e, 0x73, 0x5f, 0x70, 0x65, 0x72, 0x5f, 0x63, 0x6c, 0x61, 0x73,
	0x73, 0x00, 0x75, 0x73, 0x65, 0x5f, 0x72, 0x65, 0x67, 0x75, 0x6c, 0x61,
	0x72, 0x5f, 0x6e, 0x6d, 0x73, 0x00, 0x6e, 0x6d, 0x73, 0x5f, 0x73, 0x63,
	0x6f, 0x72, 0x65, 0x5f, 0x74, 0x68, 0x72, 0x65, 0x73, 0x68, 0x6f, 0x6c,
	0x64, 0x00, 0x6e, 0x6d, 0x73, 0x5f, 0x69, 0x6f, 0x75, 0x5f, 0x74, 0x68,
	0x72, 0x65, 0x73, 0x68, 0x6f, 0x6c, 0x64, 0x00, 0x6e, 0x75, 0x6d, 0x5f,
	0x63, 0x6c, 0x61, 0x73, 0x73, 0x65, 0x73, 0x00, 0x79, 0x5f, 0x73, 0x63,
	0x61, 0x6c, 0x65, 0x00, 0x78, 0x5f, 0x73, 0x63, 0x61, 0x6c, 0x65, 0x00,
	0x68, 0x5f, 0x73, 0x63, 0x61, 0x6c, 0x65, 0x00, 0x77, 0x5f, 0x73, 0x63,
	0x61, 0x6c, 0x65, 0x00, 0x0b, 0x78, 0x12, 0x94, 0xa4, 0x43, 0x58, 0x33,
	0x6a, 0x11, 0x22, 0x2b, 0x0b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x0b, 0x00, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa0, 0x40,
	0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f,
	0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0xa0, 0x40, 0x00, 0x00, 0x20, 0x41, 0x00, 0x00, 0x20, 0x41,
	0x06, 0x0e, 0x06, 0x06, 0x0e, 0x0e, 0x06, 0x6a, 0x0e, 0x0e, 0x0e, 0x37,
	0x26, 0x01,
};

/*
 * Written by `flatc --flexbuffers -b` from
 *   {"huge": 1e300, "neg": -70000, "name": "ssd", "list": [1, 2]}
 * a map 8 bytes wide (the double needs it) with a vector in it.
 */
static const uint8_t wide_map[] = {
	0x68, 0x75, 0x67, 0x65, 0x00, 0x6e, 0x65, 0x67, 0x00, 0x6e, 0x61, 0x6d,
	0x65, 0x00, 0x03, 0x73, 0x73, 0x64, 0x00, 0x6c, 0x69, 0x73, 0x74, 0x00,
	0x02, 0x01, 0x02, 0x04, 0x04, 0x04, 0x1e, 0x0c, 0x17, 0x1c, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x9c, 0x75, 0x00, 0x88, 0x3c, 0xe4, 0x37, 0x7e,
	0x2f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x90, 0xee, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x0f, 0x28, 0x14, 0x07, 0x24, 0x27, 0x01,
};

/*
 * Built by hand: {"a": -2 (INT), "b": "hi" (STRING)}, everything 1 byte
 * wide.  Offsets are back from where they are stored.
 */
enum { SMALL_LENGTH = 4, SMALL_TYPE_A = 16, SMALL_TYPE_B = 17 };
static const uint8_t small_map[] = {
	'a', 0, 'b', 0,         /*  0: the keys */
	2, 'h', 'i', 0,         /*  4: "hi", its length first */
	2, 9, 8,                /*  8: keys vector: count, ->0, ->2 */
	2, 1, 2,                /* 11: map: ->keys at 9, key width, count */
	0xfe, 10,               /* 14: values: -2, ->5 */
	1 << 2, 5 << 2,         /* 16: types: INT, STRING (1 byte wide) */
	4, 9 << 2, 1,           /* 18: root: ->14, MAP of width 1, width 1 */
};

/* Built by hand: {"x": 2.5 as an INDIRECT_FLOAT 4 bytes wide}. */
static const uint8_t indirect_map[] = {
	0x00, 0x00, 0x20, 0x40, /*  0: 2.5f */
	'x', 0,                 /*  4: the key */
	1, 3,                   /*  6: keys vector: count, ->4 */
	1, 1, 1,                /*  8: map: ->keys at 7, key width, count */
	11,                     /* 11: value: ->0 */
	8 << 2 | 2,             /* 12: type: INDIRECT_FLOAT, 4 bytes */
	2, 9 << 2, 1,           /* 13: root: ->11 */
};

static opver_flex_value find_ok(const uint8_t *data, size_t size,
				const char *key)
{
	opver_flex_value v;
	char error[200];

	cr_assert(opver__flex_map_find(data, size, key, &v, error,
				       sizeof(error)),
		  "looking up %s: %s", key, error);
	return v;
}

/* The reason of a lookup that must fail. */
static void find_fails(const uint8_t *data, size_t size, const char *key,
		       const char *reason)
{
	opver_flex_value v;
	char error[200];

	cr_assert_not(opver__flex_map_find(data, size, key, &v, error,
					   sizeof(error)),
		      "looking up %s succeeded", key);
	cr_assert_eq(v.kind, OPVER_FLEX_ABSENT);
	cr_assert(strstr(error, reason) != NULL, "reason \"%s\", wanted \"%s\"",
		  error, reason);
}

Test(flexbuffer, reads_every_detection_option_flatc_wrote)
{
	static const struct {
		const char *key;
		int32_t kind;
		double value;
	} want[] = {
		{ "max_detections", OPVER_FLEX_INT, 3 },
		{ "max_classes_per_detection", OPVER_FLEX_INT, 1 },
		{ "detections_per_class", OPVER_FLEX_INT, 100 },
		{ "use_regular_nms", OPVER_FLEX_BOOL, 0 },
		{ "nms_score_threshold", OPVER_FLEX_FLOAT, 0.0 },
		{ "nms_iou_threshold", OPVER_FLEX_FLOAT, 0.5 },
		{ "num_classes", OPVER_FLEX_INT, 2 },
		{ "y_scale", OPVER_FLEX_FLOAT, 10 },
		{ "x_scale", OPVER_FLEX_FLOAT, 10 },
		{ "h_scale", OPVER_FLEX_FLOAT, 5 },
		{ "w_scale", OPVER_FLEX_FLOAT, 5 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		opver_flex_value v = find_ok(detection_options,
					     sizeof(detection_options),
					     want[i].key);

		cr_expect_eq(v.kind, want[i].kind, "%s", want[i].key);
		cr_expect_eq(v.is_number, 1);
		cr_expect_eq(v.as_float, want[i].value, "%s", want[i].key);
		cr_expect_eq(v.as_int, (int64_t)want[i].value, "%s",
			     want[i].key);
	}
}

Test(flexbuffer, a_missing_key_is_absent_not_an_error)
{
	opver_flex_value v = find_ok(detection_options,
				     sizeof(detection_options), "max_det");

	cr_assert_eq(v.kind, OPVER_FLEX_ABSENT);
	v = find_ok(detection_options, sizeof(detection_options), "");
	cr_assert_eq(v.kind, OPVER_FLEX_ABSENT);
	v = find_ok(small_map, sizeof(small_map), "ab");
	cr_assert_eq(v.kind, OPVER_FLEX_ABSENT);
}

Test(flexbuffer, reads_a_map_eight_bytes_wide)
{
	opver_flex_value v = find_ok(wide_map, sizeof(wide_map), "neg");

	cr_assert_eq(v.kind, OPVER_FLEX_INT);
	cr_assert_eq(v.as_int, -70000);
	cr_assert_eq(v.as_uint, 0, "negative values saturate to 0");
	cr_assert_eq(v.as_float, -70000.0);

	v = find_ok(wide_map, sizeof(wide_map), "huge");
	cr_assert_eq(v.kind, OPVER_FLEX_FLOAT);
	cr_assert_eq(v.as_float, 1e300);
	cr_assert_eq(v.as_int, INT64_MAX, "saturates, no overflow");
	cr_assert_eq(v.as_uint, UINT64_MAX);

	v = find_ok(wide_map, sizeof(wide_map), "name");
	cr_assert_eq(v.kind, OPVER_FLEX_STRING);
	cr_assert_eq(v.size, 3);
	cr_assert_arr_eq(v.bytes, "ssd", 4);
	cr_assert_eq(v.is_number, 0);

	v = find_ok(wide_map, sizeof(wide_map), "list");
	cr_assert_eq(v.kind, OPVER_FLEX_OTHER);
	cr_assert_eq(v.bytes, NULL);
}

Test(flexbuffer, reads_the_hand_built_map)
{
	opver_flex_value v = find_ok(small_map, sizeof(small_map), "a");

	cr_assert_eq(v.kind, OPVER_FLEX_INT);
	cr_assert_eq(v.as_int, -2, "sign-extended from one byte");
	v = find_ok(small_map, sizeof(small_map), "b");
	cr_assert_eq(v.kind, OPVER_FLEX_STRING);
	cr_assert_eq(v.size, 2);
	cr_assert_eq(v.bytes, small_map + 5);
}

Test(flexbuffer, reads_blobs_bools_and_indirect_floats)
{
	uint8_t bytes[sizeof(small_map)];
	opver_flex_value v;

	memcpy(bytes, small_map, sizeof(bytes));
	bytes[SMALL_TYPE_B] = 25 << 2; /* BLOB */
	bytes[SMALL_TYPE_A] = 26 << 2; /* BOOL */
	v = find_ok(bytes, sizeof(bytes), "b");
	cr_assert_eq(v.kind, OPVER_FLEX_BLOB);
	cr_assert_eq(v.size, 2);
	cr_assert_eq(v.bytes, small_map + 5 - small_map + bytes);
	v = find_ok(bytes, sizeof(bytes), "a");
	cr_assert_eq(v.kind, OPVER_FLEX_BOOL);
	cr_assert_eq(v.as_int, 1, "any non-zero byte is true");

	v = find_ok(indirect_map, sizeof(indirect_map), "x");
	cr_assert_eq(v.kind, OPVER_FLEX_FLOAT);
	cr_assert_eq(v.as_float, 2.5);
	cr_assert_eq(v.as_int, 2, "truncated toward zero");
}

Test(flexbuffer, rejects_malformed_bytes_with_a_reason)
{
	/* One byte of small_map changed, and the reason that gives. */
	static const struct {
		size_t at;
		uint8_t value;
		const char *reason;
	} cases[] = {
		{ 20, 3, "root's width" },
		{ 19, 1 << 2, "not a map" },
		{ 18, 200, "before the buffer" },
		{ 13, 0xff, "runs past" },
		{ 12, 3, "keys 3 bytes wide" },
		{ 8, 1, "2 values but 1 keys" },
		{ SMALL_TYPE_A, 0xfc, "unknown type 63" },
		{ SMALL_TYPE_A, 3 << 2, "float 1 bytes wide" }, /* in 1 byte */
	};
	uint8_t bytes[sizeof(small_map)];

	find_fails(NULL, 0, "a", "too few");
	find_fails(small_map, 2, "a", "too few");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(bytes, small_map, sizeof(bytes));
		bytes[cases[i].at] = cases[i].value;
		find_fails(bytes, sizeof(bytes), "a", cases[i].reason);
	}
}

Test(flexbuffer, a_bad_value_fails_only_its_own_lookup)
{
	uint8_t bytes[sizeof(small_map)];

	memcpy(bytes, small_map, sizeof(bytes));
	bytes[SMALL_LENGTH] = 100;
	find_fails(bytes, sizeof(bytes), "b", "runs past");
	cr_assert_eq(find_ok(bytes, sizeof(bytes), "a").as_int, -2);

	bytes[SMALL_LENGTH] = 1; /* "h", then 'i' where the NUL should be */
	find_fails(bytes, sizeof(bytes), "b", "no terminating NUL");
}

Test(flexbuffer, a_key_running_off_the_end_fails)
{
	/* Without the NULs after "b" and "hi", key 1 runs from byte 2 to
	 * the end; looking up exactly those bytes and more must stop at the
	 * end of the buffer. */
	static const char longer[] = "bc\x02hix\x02\x09\x08\x02\x01\x02"
				     "\xfe\x0a\x04\x14\x04\x24\x01z";
	uint8_t bytes[sizeof(small_map)];

	memcpy(bytes, small_map, sizeof(bytes));
	bytes[3] = 'c';
	bytes[7] = 'x';
	find_fails(bytes, sizeof(bytes), longer, "no terminating NUL");
	cr_assert_eq(find_ok(bytes, sizeof(bytes), "b").kind,
		     OPVER_FLEX_ABSENT);
}

/*
 * Every truncation, and every value of every byte, of each map: each
 * lookup returns, with a reason when it fails.  Under ASan this shows that
 * no byte value makes the reader look outside the buffer, which is copied
 * to the heap at its exact size.
 */
static void look_up_all(const uint8_t *bytes, size_t size)
{
	static const char *const keys[] = { "a", "b", "x", "neg", "name",
					    "max_detections", "w_scale" };
	opver_flex_value v;
	char error[200];

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!opver__flex_map_find(bytes, size, keys[k], &v, error,
					  sizeof(error)))
			cr_assert_neq(error[0], '\0');
}

static void mutate_all(const uint8_t *original, size_t size)
{
	uint8_t *bytes = malloc(size);

	cr_assert_not_null(bytes);
	for (size_t cut = 0; cut <= size; cut++) {
		uint8_t *end = malloc(cut > 0 ? cut : 1);

		cr_assert_not_null(end);
		memcpy(end, original + (size - cut), cut);
		look_up_all(end, cut);
		memcpy(end, original, cut);
		look_up_all(end, cut);
		free(end);
	}
	for (size_t at = 0; at < size; at++)
		for (unsigned b = 0; b < 256; b++) {
			memcpy(bytes, original, size);
			bytes[at] = (uint8_t)b;
			look_up_all(bytes, size);
		}
	free(bytes);
}

Test(flexbuffer, hostile_bytes_are_errors_never_crashes, .timeout = 120)
{
	mutate_all(small_map, sizeof(small_map));
	mutate_all(indirect_map, sizeof(indirect_map));
	mutate_all(wide_map, sizeof(wide_map));
	mutate_all(detection_options, sizeof(detection_options));
}

/* Through the host service: a custom op stored without options (0 bytes)
 * reads every key as absent, with no error, so a kernel with all-default
 * options needs no special case.  The service touches no context then. */
Test(flexbuffer, host_service_reads_no_options_as_an_empty_map)
{
	opver_flex_value value;

	memset(&value, 0xa5, sizeof(value));
	cr_assert_eq(opver__host_services.flex_map_find(NULL, NULL, 0,
							"num_classes", &value),
		     OPVER_OK);
	cr_assert_eq(value.kind, OPVER_FLEX_ABSENT);
	cr_assert_eq(value.is_number, 0);
	cr_assert_null(value.bytes);
}
