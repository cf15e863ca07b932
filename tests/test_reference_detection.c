/*
 * test_reference_detection.c - the reference plugin's
 * TFLite_Detection_PostProcess, run through the runtime on the models of
 * tests/models/detection_*.json:
 *   - a case worked by hand (6 boxes, 2 classes; the one TFLite's own tests
 *     use), fast and regular NMS, float32, uint8 and int8 inputs;
 *   - TFLite's outputs, recorded by tests/oracle/detection/README's steps,
 *     for 40 boxes of 5 classes (fast with 2 classes per detection, and
 *     regular) and random uint8 inputs;
 *   - options and hostile option bytes that are refused with a reason;
 *   - outputs the model leaves unshaped, shaped in prepare.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_fixture.h"

#define REFERENCE_SECTION \
	"[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"

static messages captured;
static opver_runtime *runtime;

static void setup(void)
{
	messages_clear(&captured);
	runtime = fixture_runtime(REFERENCE_SECTION, &captured);
}

static void teardown(void)
{
	opver_runtime_destroy(runtime);
}

TestSuite(detection, .init = setup, .fini = teardown);

/* The hand case.  Anchors (constant in the models): three 1 x 1 at
 * (0.5, 0.5), two at (0.5, 10.5), one at (0.5, 100.5).  Box encodings
 * (y, x, h, w) move boxes 1 and 4 right by 1 / x_scale = 0.1 and box 2
 * left by 0.1; sizes stay (exp(0) = 1). */
static const float hand_encodings[24] = {
	0, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0,
	0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
};
/* Per box: background, class 0, class 1. */
static const float hand_scores[18] = {
	0, .9f, .8f, 0, .75f, .72f, 0, .6f, .5f,
	0, .93f, .95f, 0, .5f, .4f, 0, .3f, .2f,
};

/* What a run gave: 3 rows at most here, or 16 in the oracle cases. */
typedef struct detections {
	float boxes[16 * 4];
	float classes[16];
	float scores[16];
	float count;
	size_t rows;
} detections;

/* Runs model `name` on the inputs (each `bytes[i]` long) and reads its
 * four outputs. */
static void run(const char *name, const void *const *inputs,
		const size_t *bytes, size_t num_inputs, detections *out)
{
	opver_model *model = fixture_model(runtime, name);
	opver_interpreter *it;
	const opver_tensor *t;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	for (size_t i = 0; i < num_inputs; i++) {
		t = opver_interpreter_input(it, i);
		cr_assert_eq(t->bytes, bytes[i], "input %zu of %s", i, name);
		memcpy(t->data, inputs[i], bytes[i]);
	}
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	t = opver_interpreter_output(it, 1);
	out->rows = (size_t)t->dims[1];
	cr_assert_leq(out->rows, 16);
	memcpy(out->boxes, opver_interpreter_output(it, 0)->data,
	       out->rows * 4 * sizeof(float));
	memcpy(out->classes, t->data, out->rows * sizeof(float));
	memcpy(out->scores, opver_interpreter_output(it, 2)->data,
	       out->rows * sizeof(float));
	memcpy(&out->count, opver_interpreter_output(it, 3)->data,
	       sizeof(float));
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

static void run_hand(const char *name, const void *encodings,
		     const void *scores, size_t element, detections *out)
{
	const void *inputs[] = { encodings, scores };
	const size_t bytes[] = { 24 * element, 18 * element };

	run(name, inputs, bytes, 2, out);
}

/* Each row: box (ymin, xmin, ymax, xmax), class, score. */
static void expect(const detections *got, float count, const float *boxes,
		   const float *classes, const float *scores)
{
	cr_assert_eq(got->count, count);
	for (size_t r = 0; r < got->rows; r++) {
		for (int c = 0; c < 4; c++)
			cr_expect_float_eq(got->boxes[r * 4 + c],
					   boxes[r * 4 + c], 1e-6,
					   "row %zu, corner %d", r, c);
		cr_expect_eq(got->classes[r], classes[r], "row %zu", r);
		cr_expect_float_eq(got->scores[r], scores[r], 1e-6,
				   "row %zu", r);
	}
}

/*
 * Fast NMS, one class per box: box scores are each box's best class
 * (.9 .75 .6 .95 .5 .3).  Box 3 (.95, class 1) is taken first and
 * suppresses box 4 (IoU 0.9 / 1.1 = .82 > .5); box 0 (.9) suppresses 1
 * and 2; box 5 (.3) overlaps nothing.
 */
static const float fast_boxes[] = { 0, 10, 1, 11, 0, 0, 1, 1,
				    0, 100, 1, 101 };
static const float fast_classes[] = { 1, 0, 0 };
static const float fast_scores[] = { .95f, .9f, .3f };

Test(detection, fast_nms_by_hand)
{
	detections got;

	run_hand("detection_fast", hand_encodings, hand_scores, 4, &got);
	expect(&got, 3, fast_boxes, fast_classes, fast_scores);
}

/*
 * Regular NMS: per class, class 0 keeps boxes 3 (.93), 0 (.9) and 5 (.3),
 * class 1 keeps 3 (.95), 0 (.8) and 5 (.2); the best three of all are box
 * 3 class 1, box 3 class 0 and box 0 class 0.
 */
Test(detection, regular_nms_by_hand)
{
	static const float boxes[] = { 0, 10, 1, 11, 0, 10, 1, 11,
				       0, 0, 1, 1 };
	static const float classes[] = { 1, 0, 0 };
	static const float scores[] = { .95f, .93f, .9f };
	detections got;

	run_hand("detection_regular", hand_encodings, hand_scores, 4, &got);
	expect(&got, 3, boxes, classes, scores);
}

/* The hand case quantized: encodings zero + 64 v, scores zero + 100 s
 * (wrapped to 8 bits); the models' anchors are 2 a (uint8) and 2 a - 100
 * (int8).  Dequantized, they are the float case. */
static void quantize_hand(uint8_t *encodings, int32_t encodings_zero,
			  uint8_t *scores, int32_t scores_zero)
{
	for (int i = 0; i < 24; i++)
		encodings[i] = (uint8_t)((encodings_zero +
					  (int32_t)(64 * hand_encodings[i])) &
					 0xff);
	for (int i = 0; i < 18; i++)
		scores[i] = (uint8_t)((scores_zero +
				       (int32_t)lroundf(100 * hand_scores[i])) &
				      0xff);
}

Test(detection, uint8_inputs_by_hand)
{
	uint8_t encodings[24], scores[18];
	detections got;

	quantize_hand(encodings, 128, scores, 0);
	run_hand("detection_uint8", encodings, scores, 1, &got);
	expect(&got, 3, fast_boxes, fast_classes, fast_scores);
}

/* TFLite 2.12, the oracle's, refuses int8 inputs at invoke: by hand. */
Test(detection, int8_inputs_by_hand)
{
	uint8_t encodings[24], scores[18];
	detections got;

	quantize_hand(encodings, 0, scores, -100);
	run_hand("detection_int8", encodings, scores, 1, &got);
	expect(&got, 3, fast_boxes, fast_classes, fast_scores);
}

/* Outputs the model leaves unshaped get their shapes in prepare, through
 * the host's resize_output, and the arena holds them: 10 rows
 * (max_detections), 3 detections, zeros after. */
Test(detection, unshaped_outputs_are_given_their_shapes)
{
	static const float zeros[7 * 4];
	detections got;
	opver_model *model = fixture_model(runtime, "detection_unshaped");
	opver_interpreter *it;
	const opver_tensor *boxes;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	boxes = opver_interpreter_output(it, 0);
	cr_assert_eq(boxes->rank, 3);
	cr_assert_eq(boxes->dims[0], 1);
	cr_assert_eq(boxes->dims[1], 10);
	cr_assert_eq(boxes->dims[2], 4);
	cr_assert_eq(boxes->bytes, 160);
	cr_assert_eq(opver_interpreter_output(it, 1)->rank, 2);
	cr_assert_eq(opver_interpreter_output(it, 2)->dims[1], 10);
	cr_assert_eq(opver_interpreter_output(it, 3)->rank, 1);
	opver_interpreter_destroy(it);
	opver_model_close(model);

	run_hand("detection_unshaped", hand_encodings, hand_scores, 4, &got);
	cr_assert_eq(got.rows, 10);
	got.rows = 3;
	expect(&got, 3, fast_boxes, fast_classes, fast_scores);
	cr_assert_arr_eq(got.boxes + 12, zeros, sizeof(zeros));
	cr_assert_arr_eq(got.scores + 3, zeros, 7 * sizeof(float));
	cr_assert_arr_eq(got.classes + 3, zeros, 7 * sizeof(float));
}

/* A resized output is held to max_tensor_bytes, as the model's own
 * shapes are: the boxes' 160 bytes exceed 100, which every input and
 * the outputs as stored (scalars) keep to. */
Test(detection, resized_outputs_keep_to_max_tensor_bytes)
{
	opver_model *model = fixture_model(runtime, "detection_unshaped");
	opver_interpreter_options options;
	opver_interpreter *it = NULL;

	opver_interpreter_options_init(&options);
	options.max_tensor_bytes = 100;
	cr_assert_neq(opver_interpreter_create_with_options(runtime, model,
							    &options, &it),
		      OPVER_OK);
	cr_assert_null(it);
	cr_assert(strstr(captured.text,
			 "resize_output: output 0 ('detection_boxes') would take more than the 100 bytes allowed for one tensor") != NULL,
		  "%s", captured.text);
	opver_model_close(model);
}

/* ------------------------------------------------- TFLite's outputs */

/* Reads the file at `path` whole (free() it). */
static uint8_t *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long length;

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	length = ftell(f);
	cr_assert_gt(length, 0, "%s is empty", path);
	rewind(f);
	data = malloc((size_t)length);
	cr_assert_not_null(data);
	cr_assert_eq(fread(data, 1, (size_t)length, f), (size_t)length);
	fclose(f);
	*size = (size_t)length;
	return data;
}

/* TEST_SOURCE_DIR/oracle/detection/CASE/FILE, whole (free() it). */
static void *case_file(const char *name, const char *file, size_t *size)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/oracle/detection/%s/%s",
		 TEST_SOURCE_DIR, name, file);
	return read_whole(path, size);
}

/* Runs `model` on case `name`'s inputs and compares every output with
 * TFLite's: classes and count exactly, boxes and scores within 1e-5 of
 * max(1, |TFLite's|), as test_oracle compares float outputs. */
static void compare_with_tflite(const char *model, const char *name,
				size_t num_inputs)
{
	static const char *const inputs[] = { "in0.raw", "in1.raw",
					      "in2.raw" };
	void *data[3];
	size_t bytes[3], size;
	float *want[4];
	detections got;

	for (size_t i = 0; i < num_inputs; i++)
		data[i] = case_file(name, inputs[i], &bytes[i]);
	run(model, (const void *const *)data, bytes, num_inputs, &got);
	want[0] = case_file(name, "out0.raw", &size);
	cr_assert_eq(size, got.rows * 4 * sizeof(float));
	want[1] = case_file(name, "out1.raw", &size);
	want[2] = case_file(name, "out2.raw", &size);
	want[3] = case_file(name, "out3.raw", &size);
	cr_assert_eq(got.count, want[3][0], "%s: count", name);
	cr_assert_gt(got.count, 1, "%s: a case that suppresses nothing", name);
	for (size_t r = 0; r < got.rows; r++) {
		for (int c = 0; c < 4; c++) {
			const float w = want[0][r * 4 + c];

			cr_expect_float_eq(got.boxes[r * 4 + c], w,
					   1e-5 * fmaxf(1, fabsf(w)),
					   "%s: row %zu corner %d", name, r, c);
		}
		cr_expect_eq(got.classes[r], want[1][r], "%s: row %zu class",
			     name, r);
		cr_expect_float_eq(got.scores[r], want[2][r], 1e-5,
				   "%s: row %zu score", name, r);
	}
	for (size_t i = 0; i < num_inputs; i++)
		free(data[i]);
	for (int i = 0; i < 4; i++)
		free(want[i]);
}

Test(detection, fast_nms_of_40_boxes_matches_tflite)
{
	compare_with_tflite("detection_fast_40", "fast_40_seed1", 3);
	compare_with_tflite("detection_fast_40", "fast_40_seed2", 3);
}

Test(detection, regular_nms_of_40_boxes_matches_tflite)
{
	compare_with_tflite("detection_regular_40", "regular_40_seed1", 3);
	compare_with_tflite("detection_regular_40", "regular_40_seed2", 3);
}

Test(detection, random_uint8_inputs_match_tflite)
{
	compare_with_tflite("detection_uint8", "uint8_seed3", 2);
}

/* ------------------------------------------------ refused options */

/* detection_fast's file with the first `from` replaced by `to` (of the
 * same length, without NULs); creating an interpreter on it must fail
 * saying `reason`. */
static void refused(const char *from, const char *to, const char *reason)
{
	char path[4096];
	size_t size;
	uint8_t *bytes;
	uint8_t *at = NULL;
	opver_model *model;
	opver_interpreter *it = NULL;

	snprintf(path, sizeof(path), "%s/detection_fast.tflite",
		 TEST_MODEL_DIR);
	bytes = read_whole(path, &size);
	for (size_t i = 0; at == NULL && i + strlen(from) <= size; i++)
		if (memcmp(bytes + i, from, strlen(from)) == 0)
			at = bytes + i;
	cr_assert_not_null(at, "no \"%s\" in the model", from);
	memcpy(at, to, strlen(to));
	cr_assert_eq(opver_model_open_memory(runtime, bytes, size, &model),
		     OPVER_OK, "%s", captured.text);
	cr_assert_neq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert_null(it);
	cr_assert(strstr(captured.text, reason) != NULL, "%s", captured.text);
	opver_model_close(model);
	free(bytes);
}

Test(detection, options_that_make_no_detector_are_refused)
{
	refused("nms_iou_threshold", "nms_iou_threshol_",
		"option nms_iou_threshold is 0; it must be in (0, 1]");
	messages_clear(&captured);
	refused("num_classes", "num_classez",
		"option num_classes is 0; it must be in [1, 2147483647]");
	messages_clear(&captured);
	refused("y_scale", "y_scal_",
		"option y_scale is 0; it must be finite and non-zero");
	messages_clear(&captured);
	/* y_scale, the map's last value (10.0f, whose high bytes come just
	 * before the first type bytes), made infinite. */
	refused("\x20\x41\x06\x0e", "\x80\x7f\x06\x0e",
		"option y_scale is inf; it must be finite and non-zero");
	messages_clear(&captured);
	/* The root's width byte, the options' last, made 3. */
	refused("\x0e\x0e\x0e\x37\x26\x01", "\x0e\x0e\x0e\x37\x26\x03",
		"custom options (242 bytes), looking up \"max_detections\": the root's width byte is 3");
}
