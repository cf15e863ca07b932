/*
 * test_interpreter_resize.c - opver_interpreter_resize_input() and
 * opver_interpreter_allocate_tensors() on corpus models
 * ($OPVER_MODEL_CORPUS; skipped without it) with the reference plugin:
 * a batch of 3 gives, row for row, the batch-1 outputs of the same inputs
 * (run first, an independent reference) and meets the corpus golden of
 * each row's case; resizing back to 1 works; invalid shapes are refused
 * with a message naming what refused them, and leave the interpreter
 * usable.  Delegates under resizing: test_delegate_resize.c.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_fixture.h"

static messages captured;
static opver_runtime *runtime;
static opver_model *model;
static opver_interpreter *it;

static void teardown(void)
{
	opver_interpreter_destroy(it);
	if (model != NULL)
		opver_model_close(model);
	if (runtime != NULL)
		opver_runtime_destroy(runtime);
}

/* Opens corpus model `name` under `config`, or skips without a corpus. */
static void open_model(const char *config, const char *name)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	char path[512];

	if (dir == NULL || *dir == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	runtime = fixture_runtime(config, &captured);
	snprintf(path, sizeof(path), "%s/%s.tflite", dir, name);
	cr_assert_eq(opver_model_open(runtime, path, &model), OPVER_OK,
		     "cannot open %s", path);
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
}

static void open_reference(const char *name)
{
	open_model("[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n",
		   name);
}

/* The reference plugin built with single rounding, as the corpus runs
 * the cases whose goldens come from Arm NN on full-range inputs. */
static void open_single_rounding(const char *name)
{
	open_model("[plugin.reference]\nlibrary = " TEST_PLUGIN_DIR
		   "/reference_single_rounding.so\n",
		   name);
}

/* Opens test model `name` (TEST_MODEL_DIR) under the reference plugin. */
static void open_test_model(const char *name)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, name);
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
}

/* Reads `bytes` bytes of cases/MODEL/CASE/FILE into `into`. */
static void read_case(const char *model_name, const char *case_name,
		      const char *file, void *into, size_t bytes)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cases/%s/%s/%s",
		 getenv("OPVER_MODEL_CORPUS"), model_name, case_name, file);
	f = fopen(path, "rb");
	cr_assert(f != NULL, "cannot open %s", path);
	cr_assert_eq(fread(into, 1, bytes, f), bytes, "%s is short", path);
	fclose(f);
}

/* Resizes input 0 to `batch` x its other dimensions, and allocates. */
static opver_status resize_batch(int32_t batch)
{
	const opver_tensor *in = opver_interpreter_input(it, 0);
	int32_t dims[8];
	opver_status status;

	cr_assert(in->rank >= 1 && in->rank <= 8);
	memcpy(dims, in->dims, (size_t)in->rank * sizeof(*dims));
	dims[0] = batch;
	status = opver_interpreter_resize_input(it, 0, dims, in->rank);
	return status == OPVER_OK ? opver_interpreter_allocate_tensors(it)
				  : status;
}

/* Every element of `got` within `tolerance` of `want` (integers of the
 * output's type, or floats with atol 1e-4 and rtol 1e-3 as the corpus
 * checks them). */
static void expect_close(const opver_tensor *out, const void *got,
			 const void *want, size_t count, int tolerance)
{
	for (size_t i = 0; i < count; i++) {
		if (out->type == OPVER_TYPE_FLOAT32) {
			float g = ((const float *)got)[i];
			float w = ((const float *)want)[i];

			cr_expect(fabsf(g - w) <= 1e-4f + 1e-3f * fabsf(w),
				  "element %zu: %g, golden %g", i, g, w);
		} else {
			int g = ((const int8_t *)got)[i];
			int w = ((const int8_t *)want)[i];

			cr_expect(abs(g - w) <= tolerance,
				  "element %zu: %d, golden %d", i, g, w);
		}
	}
}

/*
 * The batch test on the open interpreter: cases[0..2] as rows of a batch
 * of 3 give, row for row, the outputs batch 1 gives for them, and each
 * row meets its golden within tolerance[row]; then batch 1 again gives
 * the first case's output.
 */
static void batch_of_three(const char *model_name, const char *cases[3],
			   const int tolerance[3])
{
	const opver_tensor *in, *out;
	size_t in_bytes, out_bytes;
	uint8_t *rows[3], *alone[3], *golden;

	in = opver_interpreter_input(it, 0);
	out = opver_interpreter_output(it, 0);
	in_bytes = in->bytes;
	out_bytes = out->bytes;
	cr_assert_eq(in->dims[0], 1);
	golden = malloc(out_bytes * 3);
	for (int r = 0; r < 3; r++) {
		rows[r] = malloc(in_bytes);
		alone[r] = malloc(out_bytes);
		read_case(model_name, cases[r], "in0.raw", rows[r], in_bytes);
		read_case(model_name, cases[r], "expected0.raw",
			  golden + r * out_bytes, out_bytes);
		memcpy(opver_interpreter_input(it, 0)->data, rows[r],
		       in_bytes);
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
		memcpy(alone[r], out->data, out_bytes);
	}

	cr_assert_eq(resize_batch(3), OPVER_OK, "%s", captured.text);
	in = opver_interpreter_input(it, 0);
	out = opver_interpreter_output(it, 0);
	cr_assert_eq(in->dims[0], 3);
	cr_assert_eq(in->bytes, 3 * in_bytes);
	cr_assert_eq(out->dims[0], 3, "output batch %d", (int)out->dims[0]);
	cr_assert_eq(out->bytes, 3 * out_bytes);
	for (int r = 0; r < 3; r++)
		memcpy((uint8_t *)in->data + r * in_bytes, rows[r], in_bytes);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	for (int r = 0; r < 3; r++) {
		const uint8_t *row = (const uint8_t *)out->data +
				     r * out_bytes;

		cr_expect(memcmp(row, alone[r], out_bytes) == 0,
			  "row %d of the batch differs from its batch-1 run",
			  r);
		expect_close(out, row, golden + r * out_bytes,
			     out_bytes / opver_type_size(out->type),
			     tolerance[r]);
	}

	cr_assert_eq(resize_batch(1), OPVER_OK, "%s", captured.text);
	cr_assert_eq(out->dims[0], 1);
	cr_assert_eq(out->bytes, out_bytes);
	memcpy(opver_interpreter_input(it, 0)->data, rows[0], in_bytes);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_expect(memcmp(out->data, alone[0], out_bytes) == 0,
		  "batch 1 after resizing back differs");
	for (int r = 0; r < 3; r++) {
		free(rows[r]);
		free(alone[r]);
	}
	free(golden);
}

TestSuite(resize, .fini = teardown);

Test(resize, resnet_int8_batch_of_three_matches_batch_one)
{
	const char *cases[3] = { "ic_input_u8m128", "random_seed1",
				 "ic_input_u8m128" };

	open_single_rounding("mlperf_ic_resnet_int8");
	batch_of_three("mlperf_ic_resnet_int8", cases, (const int[3]){ 3, 8, 3 });
}

Test(resize, resnet_float_batch_of_three_matches_batch_one)
{
	const char *cases[3] = { "random_seed1", "ic_input_u8f32",
				 "random_seed1" };

	open_reference("mlperf_ic_resnet_float");
	batch_of_three("mlperf_ic_resnet_float", cases, (const int[3]){ 0 });
}

/* Its RESHAPE has the constant shape [1, 2], which fixes the batch, as
 * in TFLite: a batch of 3 is refused by that node, and batch 1 again
 * still meets the golden. */
Test(resize, person_detect_batch_of_three_is_refused_by_its_reshape)
{
	const opver_tensor *out;
	int8_t row[96 * 96], golden[2];

	open_reference("person_detect");
	cr_assert_eq(resize_batch(3), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "node 29 (RESHAPE v1",
				    "kernel 'reshape'", "has 2 elements",
				    "has 6", NULL),
		  "%s", captured.text);
	cr_assert_eq(resize_batch(1), OPVER_OK, "%s", captured.text);
	read_case("person_detect", "person", "in0.raw", row, sizeof(row));
	read_case("person_detect", "person", "expected0.raw", golden,
		  sizeof(golden));
	memcpy(opver_interpreter_input(it, 0)->data, row, sizeof(row));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	out = opver_interpreter_output(it, 0);
	cr_assert_eq(out->dims[0], 1);
	expect_close(out, out->data, golden, 2, 3);
}

/* ADD broadcasts a resized input against one of the model's shape. */
Test(resize, add_broadcasts_one_resized_input)
{
	const opver_tensor *out;
	int8_t a[128 * 128], b[128 * 128];
	int8_t *batched;

	open_reference("simple_add_model");
	read_case("simple_add_model", "random_seed1", "in0.raw", a, sizeof(a));
	read_case("simple_add_model", "random_seed1", "in1.raw", b, sizeof(b));
	memcpy(opver_interpreter_input(it, 0)->data, a, sizeof(a));
	memcpy(opver_interpreter_input(it, 1)->data, b, sizeof(b));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	out = opver_interpreter_output(it, 0);
	batched = malloc(2 * sizeof(a));
	memcpy(batched, out->data, sizeof(a));

	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 2, 128, 128, 1 }, 4),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(out->dims[0], 2);
	/* Row 1 of input 0 is input 1, and b + a is a + b. */
	memcpy(opver_interpreter_input(it, 0)->data, a, sizeof(a));
	memcpy((int8_t *)opver_interpreter_input(it, 0)->data + sizeof(a), a,
	       sizeof(a));
	memcpy(opver_interpreter_input(it, 1)->data, b, sizeof(b));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_expect(memcmp(out->data, batched, sizeof(a)) == 0);
	cr_expect(memcmp((int8_t *)out->data + sizeof(a), batched,
			 sizeof(a)) == 0);
	free(batched);
}

/* A node's time and invocations count from the last allocation. */
Test(resize, node_times_start_again_after_allocate_tensors)
{
	opver_node_info info = { .struct_size = sizeof(info) };

	open_reference("simple_add_model");
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_assert_eq(info.invocations, 2);
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 2, 128, 128, 1 }, 4),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_expect_eq(info.invocations, 1);
}

/* add_no_clamp's ADD never calls resize_output: its node is refused
 * rather than run with an output of the model's size. */
Test(resize, a_kernel_that_keeps_the_models_shapes_is_refused)
{
	open_model("[plugin.add_no_clamp]\nlibrary = " TEST_PLUGIN_DIR
		   "/add_no_clamp.so\n",
		   "simple_add_model");
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 2, 128, 128, 1 }, 4),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "node 0 (ADD",
				    "kernel 'add_no_clamp_int8' of plugin 'add_no_clamp'",
				    "has shape [2, 128, 128, 1] (the model gives [1, 128, 128, 1])",
				    "does not shape its output 0",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 1, 128, 128, 1 }, 4),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
}

Test(resize, invoke_waits_for_allocate_tensors)
{
	open_reference("mlperf_ic_resnet_float");
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 2, 32, 32, 3 }, 4),
		     OPVER_OK);
	cr_assert_null(opver_interpreter_input(it, 0)->data);
	cr_assert_eq(opver_interpreter_invoke(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "an input was resized",
				    "opver_interpreter_allocate_tensors",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK);
	cr_assert_not_null(opver_interpreter_input(it, 0)->data);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_output(it, 0)->dims[0], 2);
}

Test(resize, zero_and_negative_dimensions_are_refused)
{
	open_reference("person_detect");
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 0, 96, 96, 1 }, 4),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured,
				    "dimension 0 of input 0 ('input') is 0; every dimension must be at least 1",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 1, 96, -96, 1 }, 4),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "dimension 2 of input 0",
				    "is -96", NULL),
		  "%s", captured.text);
	/* Nothing changed: the interpreter still runs as it was. */
	cr_assert_eq(opver_interpreter_input(it, 0)->dims[0], 1);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
}

Test(resize, an_input_out_of_range_is_refused)
{
	open_reference("person_detect");
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 1, (const int32_t[]){ 1, 96, 96, 1 }, 4),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "no input 1 (the model has 1)",
				    NULL),
		  "%s", captured.text);
}

Test(resize, a_wrong_rank_is_refused_by_the_first_node_then_resizing_back_works)
{
	open_reference("person_detect");
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 1, 96, 96 }, 3),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "node 0 (DEPTHWISE_CONV_2D",
				    "kernel 'depthwise_conv_2d_int8'",
				    "input 'input' has rank 3", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "allocate_tensors",
				    "resize them back", NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(resize_batch(1), OPVER_ERROR_INVALID_ARGUMENT,
		     "rank 3 stays until the rank is given back");
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 1, 96, 96, 1 }, 4),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
}

Test(resize, a_dimension_the_filter_refuses_names_the_node)
{
	open_reference("person_detect");
	/* The first convolution's filter takes one input channel. */
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 1, 96, 96, 3 }, 4),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "node 0 (DEPTHWISE_CONV_2D",
				    "8 channels", "3 channels of input 'input'",
				    NULL),
		  "%s", captured.text);
}

Test(resize, a_tensor_past_max_tensor_bytes_is_refused)
{
	open_reference("person_detect");
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0,
			     (const int32_t[]){ 1 << 20, 1 << 10, 96, 1 }, 4),
		     OPVER_ERROR_NOMEM);
	cr_assert(messages_line_has(&captured, "input 0 ('input') would take more than",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
}

/* resize_movement: PAD, CONCATENATION, MEAN, SQUEEZE and STRIDED_SLICE
 * give y = [(b + e) / 4, (a + d) / 4] for a row [[a, b, c], [d, e, f]]
 * (TFLite gives [1.75, 1.25] for 1..6); with three rows of padding-free
 * input the mean is over 5 rows: [(b + e + h) / 5, (a + d + g) / 5]. */
Test(resize, movement_and_reduction_ops_follow_batch_and_rows)
{
	const opver_tensor *out;
	float *x, *y;

	open_test_model("resize_movement");
	out = opver_interpreter_output(it, 0);
	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 2, 2, 3 }, 3),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(out->rank, 2);
	cr_assert_eq(out->dims[0], 2);
	cr_assert_eq(out->dims[1], 2);
	x = opver_interpreter_input(it, 0)->data;
	for (int i = 0; i < 6; i++) {
		x[i] = (float)(i + 1);
		x[6 + i] = (float)(10 * (i + 1));
	}
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = out->data;
	cr_expect_eq(y[0], 1.75f);
	cr_expect_eq(y[1], 1.25f);
	cr_expect_eq(y[2], 17.5f);
	cr_expect_eq(y[3], 12.5f);

	cr_assert_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 1, 3, 3 }, 3),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(out->dims[0], 1);
	x = opver_interpreter_input(it, 0)->data;
	for (int i = 0; i < 9; i++)
		x[i] = (float)(i + 1);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = out->data;
	cr_expect_float_eq(y[0], 3.0f, 1e-6f);
	cr_expect_float_eq(y[1], 2.4f, 1e-6f);
}

/* if_add_mul passes x and y ([2]) to the subgraphs its IF calls, which
 * keep their shapes: [3] is refused naming the IF node, and [2] again
 * allocates. */
Test(resize, a_value_passed_to_a_subgraph_keeps_its_shape)
{
	open_test_model("if_add_mul");
	for (size_t i = 1; i <= 2; i++)
		cr_assert_eq(opver_interpreter_resize_input(
				     it, i, (const int32_t[]){ 3 }, 1),
			     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "node 0 (IF) of subgraph 0",
				    "is [3]", "has [2]", NULL),
		  "%s", captured.text);
	for (size_t i = 1; i <= 2; i++)
		cr_assert_eq(opver_interpreter_resize_input(
				     it, i, (const int32_t[]){ 2 }, 1),
			     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
}

/* input_with_buffer_add: x [64] starts from buffer 1.  Shrunk to [1],
 * allocate copied the buffer's 256 bytes into the 4 x got in the arena
 * (a heap overflow past it); such an input keeps the model's shape. */
Test(resize, an_input_the_model_gives_values_keeps_its_shape)
{
	const float *y;

	open_test_model("input_with_buffer_add");
	cr_expect_eq(opver_interpreter_resize_input(
			     it, 0, (const int32_t[]){ 1 }, 1),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(messages_line_has(&captured, "input 0 ('x')",
				    "values of a buffer in the model", NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	cr_expect_eq(y[63], 126.0f);
}
