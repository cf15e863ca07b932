/*
 * test_dynamic_shapes.c - outputs whose shapes come from input values,
 * given at invoke (set_output_dynamic, ABI 2.4), with the reference
 * plugin: RESHAPE to a shape SHAPE and arithmetic compute, TILE with
 * input multiples, FILL with input dims, SLICE with input begin and
 * size, TRANSPOSE, EXPAND_DIMS and SPLIT at input perm and axis, and
 * SPACE_TO_BATCH_ND with an input block, each over two invokes whose
 * inputs give different shapes, and the nodes reading them prepared at
 * invoke; a shape past max_tensor_bytes or max_arena_bytes fails that
 * invoke with a message naming the limit, and the next invoke runs; an
 * output a delegate reads keeps the model's shape.  The values are
 * TFLite's (2.12, tflite_ref.js); SLICE's are by hand (that TFLite keeps
 * the model's shape [1] for the sliced output).
 */
#include <criterion/criterion.h>
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

TestSuite(dynamic, .fini = teardown);

/* Opens test model `name` with interpreter options `options` (NULL:
 * the defaults). */
static void open_test_model(const char *name,
			    const opver_interpreter_options *options)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, name);
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							    options, &it),
		     OPVER_OK, "%s", captured.text);
}

/* Copies `bytes` bytes into model input `index`. */
static void set_input(size_t index, const void *values, size_t bytes)
{
	const opver_tensor *in = opver_interpreter_input(it, index);

	cr_assert_eq(in->bytes, bytes, "input %zu takes %zu bytes", index,
		     in->bytes);
	memcpy(in->data, values, bytes);
}

/* Output `index` has shape dims[0, rank) and the floats want[]. */
static void expect_output(size_t index, const int32_t *dims, int32_t rank,
			  const float *want)
{
	const opver_tensor *out = opver_interpreter_output(it, index);
	size_t count = 1;

	cr_assert_eq(out->rank, rank, "output %zu has rank %d", index,
		     (int)out->rank);
	for (int32_t d = 0; d < rank; d++) {
		cr_assert_eq(out->dims[d], dims[d],
			     "output %zu: dimension %d is %d, want %d", index,
			     (int)d, (int)out->dims[d], (int)dims[d]);
		count *= (size_t)dims[d];
	}
	cr_assert_eq(out->bytes, count * sizeof(float));
	cr_assert_not_null(out->data);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(((const float *)out->data)[i], want[i],
			     "output %zu element %zu: %g, want %g", index, i,
			     ((const float *)out->data)[i], want[i]);
}

static const float one_to_six[] = { 1, 2, 3, 4, 5, 6 };

/* dynamic_reshape: y = RESHAPE(x, [rows, 6 / rows]), z = SUM(y, 1). */
Test(dynamic, reshape_to_a_computed_shape_over_two_invokes)
{
	open_test_model("dynamic_reshape", NULL);
	set_input(0, one_to_six, sizeof(one_to_six));
	set_input(1, (const int32_t[]){ 2 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 2, 3 }, 2, one_to_six);
	expect_output(1, (const int32_t[]){ 2 }, 1, (const float[]){ 6, 15 });

	set_input(1, (const int32_t[]){ 3 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 3, 2 }, 2, one_to_six);
	expect_output(1, (const int32_t[]){ 3 }, 1,
		      (const float[]){ 3, 7, 11 });
}

/* A row count that does not divide 6 leaves elements over: that
 * invoke fails naming RESHAPE, and the next one runs. */
Test(dynamic, a_computed_shape_that_does_not_fit_fails_that_invoke)
{
	open_test_model("dynamic_reshape", NULL);
	set_input(0, one_to_six, sizeof(one_to_six));
	set_input(1, (const int32_t[]){ 4 }, sizeof(int32_t));
	cr_assert_neq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "node 3 (RESHAPE",
				    "has 4 elements", "has 6", NULL),
		  "%s", captured.text);
	set_input(1, (const int32_t[]){ 6 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 6, 1 }, 2, one_to_six);
}

/* The inputs of dynamic_tile_fill_slice. */
static void set_tile_fill_slice(int32_t multiples, int32_t rows,
				int32_t cols, int32_t begin, int32_t size)
{
	set_input(0, one_to_six, 5 * sizeof(float));
	set_input(1, &multiples, sizeof(multiples));
	set_input(2, (const int32_t[]){ rows, cols }, 2 * sizeof(int32_t));
	set_input(3, &begin, sizeof(begin));
	set_input(4, &size, sizeof(size));
}

Test(dynamic, tile_fill_and_slice_follow_their_inputs_over_two_invokes)
{
	static const float fifteen[] = { 1, 2, 3, 4, 5, 1, 2, 3,
					 4, 5, 1, 2, 3, 4, 5 };
	static const float halves[6] = { 1.5f, 1.5f, 1.5f,
					 1.5f, 1.5f, 1.5f };

	open_test_model("dynamic_tile_fill_slice", NULL);
	set_tile_fill_slice(3, 2, 3, 1, 3);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 15 }, 1, fifteen);
	expect_output(1, (const int32_t[]){ 2, 3 }, 2, halves);
	expect_output(2, (const int32_t[]){ 3 }, 1, (const float[]){ 2, 3, 4 });
	expect_output(3, (const int32_t[]){ 3 }, 1, (const float[]){ 4, 6, 8 });

	set_tile_fill_slice(1, 1, 4, 0, 5);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 5 }, 1, fifteen);
	expect_output(1, (const int32_t[]){ 1, 4 }, 2, halves);
	expect_output(2, (const int32_t[]){ 5 }, 1, fifteen);
	expect_output(3, (const int32_t[]){ 5 }, 1,
		      (const float[]){ 2, 4, 6, 8, 10 });
}

Test(dynamic, a_shape_past_max_tensor_bytes_fails_that_invoke)
{
	opver_interpreter_options options;

	opver_interpreter_options_init(&options);
	options.max_tensor_bytes = 4096;
	open_test_model("dynamic_tile_fill_slice", &options);
	/* FILL's 32 x 64 floats take 8192 bytes. */
	set_tile_fill_slice(1, 32, 64, 0, 1);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_ERROR_PLUGIN);
	cr_assert(messages_line_has(&captured, "node 1 (FILL",
				    "output 0 ('filled') would take more than the 4096 bytes allowed for one tensor",
				    NULL),
		  "%s", captured.text);
	set_tile_fill_slice(1, 32, 32, 0, 1);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(opver_interpreter_output(it, 1)->bytes, 4096);
}

Test(dynamic, buffers_past_max_arena_bytes_fail_that_invoke)
{
	opver_interpreter_options options;

	opver_interpreter_options_init(&options);
	options.max_arena_bytes = 6000;
	open_test_model("dynamic_tile_fill_slice", &options);
	/* TILE's 20 x 100 bytes, with the arena's few hundred, fit; FILL's
	 * 4096 more do not. */
	set_tile_fill_slice(100, 32, 32, 0, 1);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_ERROR_PLUGIN);
	cr_assert(messages_line_has(&captured, "node 1 (FILL",
				    "output 'filled' shaped at invoke takes 4096 bytes",
				    "max_arena_bytes", NULL),
		  "%s", captured.text);
	set_tile_fill_slice(1, 32, 32, 0, 1);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
}

/* dynamic_movement: TRANSPOSE by an input perm, EXPAND_DIMS and SPLIT at
 * an input axis; TFLite's shapes and values. */
Test(dynamic, transpose_expand_dims_and_split_follow_their_inputs)
{
	static const float x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	open_test_model("dynamic_movement", NULL);
	set_input(0, x, sizeof(x));
	set_input(1, (const int32_t[]){ 1, 0 }, 2 * sizeof(int32_t));
	set_input(2, (const int32_t[]){ 1 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 4, 2 }, 2,
		      (const float[]){ 1, 5, 2, 6, 3, 7, 4, 8 });
	expect_output(1, (const int32_t[]){ 2, 1, 4 }, 3, x);
	expect_output(2, (const int32_t[]){ 2, 2 }, 2,
		      (const float[]){ 1, 2, 5, 6 });
	expect_output(3, (const int32_t[]){ 2, 2 }, 2,
		      (const float[]){ 3, 4, 7, 8 });

	set_input(1, (const int32_t[]){ 0, 1 }, 2 * sizeof(int32_t));
	set_input(2, (const int32_t[]){ 0 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 2, 4 }, 2, x);
	expect_output(1, (const int32_t[]){ 1, 2, 4 }, 3, x);
	expect_output(2, (const int32_t[]){ 1, 4 }, 2, x);
	expect_output(3, (const int32_t[]){ 1, 4 }, 2, x + 4);
}

/* dynamic_delegated: FILL's output is read by a partition of
 * tests/plugins/delegate.c, built from the model's shapes, so it keeps
 * the model's [2, 2] (said at info level): dims [2, 2] run, [3, 3] fail
 * that invoke naming the shape it keeps. */
Test(dynamic, an_output_a_delegate_reads_keeps_the_models_shape)
{
	const float *y;

	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n"
				  "[plugin.npu]\nlibrary = " TEST_PLUGIN_DIR
				  "/delegate.so\n",
				  &captured);
	model = fixture_model(runtime, "dynamic_delegated");
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	set_input(0, (const int32_t[]){ 2, 2 }, 2 * sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_expect_eq(y[i], 2.5f);
	set_input(0, (const int32_t[]){ 3, 3 }, 2 * sizeof(int32_t));
	cr_assert_neq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "node 0 (FILL",
				    "has had shape [2, 2] since prepare",
				    "cannot become [3, 3]", NULL),
		  "%s", captured.text);
}

/* dynamic_reshape_delegated: RESHAPE's output, read by a partition of
 * tests/plugins/delegate.c, keeps the model's [2, 3]: newshape [2, 3]
 * runs, [3, 2] (the same element count) fails that invoke naming
 * RESHAPE and both shapes, rather than passing [2, 3] on. */
Test(dynamic, a_reshape_a_delegate_reads_checks_its_shape_values)
{
	const float *z;

	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n"
				  "[plugin.npu]\nlibrary = " TEST_PLUGIN_DIR
				  "/delegate.so\n",
				  &captured);
	model = fixture_model(runtime, "dynamic_reshape_delegated");
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	set_input(0, one_to_six, sizeof(one_to_six));
	set_input(1, (const int32_t[]){ 2, 3 }, 2 * sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	z = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 6; i++)
		cr_expect_eq(z[i], one_to_six[i] + 1.0f);
	set_input(1, (const int32_t[]){ 3, 2 }, 2 * sizeof(int32_t));
	cr_assert_neq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "node 0 (RESHAPE",
				    "[2, 3]", "[3, 2]", NULL),
		  "%s", captured.text);
}

/* dynamic_space_to_batch: SPACE_TO_BATCH_ND with an input block;
 * TFLite's shapes and values. */
Test(dynamic, space_to_batch_follows_an_input_block)
{
	float x[16];

	for (int i = 0; i < 16; i++)
		x[i] = (float)(i + 1);
	open_test_model("dynamic_space_to_batch", NULL);
	set_input(0, x, sizeof(x));
	set_input(1, (const int32_t[]){ 2, 2 }, 2 * sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 4, 2, 2, 1 }, 4,
		      (const float[]){ 1, 3, 9, 11, 2, 4, 10, 12,
				       5, 7, 13, 15, 6, 8, 14, 16 });
	set_input(1, (const int32_t[]){ 1, 4 }, 2 * sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 4, 4, 1, 1 }, 4,
		      (const float[]){ 1, 5, 9, 13, 2, 6, 10, 14,
				       3, 7, 11, 15, 4, 8, 12, 16 });
}

/* dynamic_chain: RESHAPE reads FILL's dynamic output and takes its own
 * shape from a model input, so it is prepared at invoke and marks its
 * output dynamic there, with the model's placeholder shape still on it:
 * that is not a kernel keeping the model's shape on resized inputs. */
Test(dynamic, a_node_prepared_at_invoke_may_shape_its_output_in_invoke)
{
	static const float ones[] = { 1, 1, 1, 1, 1, 1 };

	open_test_model("dynamic_chain", NULL);
	set_input(0, (const int32_t[]){ 2, 3 }, 2 * sizeof(int32_t));
	set_input(1, (const int32_t[]){ 6 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 2, 3 }, 2, ones);
	expect_output(1, (const int32_t[]){ 6 }, 1, ones);
	set_input(0, (const int32_t[]){ 3, 1 }, 2 * sizeof(int32_t));
	set_input(1, (const int32_t[]){ 3 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(1, (const int32_t[]){ 3 }, 1, ones);
}

/* The same through resize_input: RESHAPE's shape comes at invoke, so
 * its output keeping the model's shape in prepare is no refusal. */
Test(dynamic, a_resized_input_reaches_a_reshape_to_a_computed_shape)
{
	float x[12];

	for (int i = 0; i < 12; i++)
		x[i] = (float)(i + 1);
	open_test_model("dynamic_reshape", NULL);
	cr_assert_eq(opver_interpreter_resize_input(it, 0, (const int32_t[]){ 12 },
						    1),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	set_input(0, x, sizeof(x));
	set_input(1, (const int32_t[]){ 3 }, sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 3, 4 }, 2, x);
	expect_output(1, (const int32_t[]){ 3 }, 1,
		      (const float[]){ 10, 26, 42 });
}

/* dynamic_two_writers: RESHAPE would shape t at invoke into a buffer of
 * its own, and RELU writes t too at the [1000] it was prepared with: t
 * keeps its shape and creation fails, rather than RELU writing past the
 * buffer. */
Test(dynamic, a_tensor_another_node_writes_is_not_made_dynamic)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, "dynamic_two_writers");
	cr_assert_neq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "node 0 (RESHAPE",
				    "output 0 ('t') is an output of another node too",
				    NULL),
		  "%s", captured.text);
}

/* dynamic_two_writers_deferred: the same for the output of a node
 * prepared at invoke (RELU reads FILL's dynamic output). */
Test(dynamic, a_deferred_output_another_node_writes_is_refused)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, "dynamic_two_writers_deferred");
	cr_assert_neq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "node 1 (RELU",
				    "output 0 ('t') would be too, but another node writes that tensor",
				    NULL),
		  "%s", captured.text);
}

/* dynamic_read_before_write: node 1 reads t and was prepared with its
 * [100] before node 2, reading FILL's dynamic output, would make t
 * dynamic: node 1 would read 100 floats from t's smaller buffer, so the
 * core refuses node 2 at creation. */
Test(dynamic, an_output_read_by_a_node_prepared_before_is_refused)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, "dynamic_read_before_write");
	cr_assert_neq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "node 2 (RELU",
				    "output 0 ('t') would be too, but node 1 reads that tensor before",
				    NULL),
		  "%s", captured.text);
}

/* Creates dynamic_mean under `limit` and invokes it for a [rows, 1]
 * filled, returning the invoke's status. */
static opver_status invoke_mean(uint64_t limit, int32_t rows)
{
	opver_interpreter_options options;

	opver_interpreter_options_init(&options);
	options.max_arena_bytes = limit;
	open_test_model("dynamic_mean", &options);
	set_input(0, (const int32_t[]){ rows, 1 }, 2 * sizeof(int32_t));
	return opver_interpreter_invoke(it);
}

/* Closes what invoke_mean() opened. */
static void close_mean(void)
{
	teardown();
	it = NULL;
	model = NULL;
	runtime = NULL;
}

/* dynamic_mean with 64 rows: at invoke FILL takes 256 bytes, MEAN's
 * output 256 and, prepared at invoke, its accumulators 512 of scratch,
 * all with the arena's A bytes within max_arena_bytes: A + 1023 fails
 * the invoke, A + 1024 runs it (every mean 2.5) and then holds exactly
 * A + 1024 until the next invoke. */
Test(dynamic, scratch_asked_for_at_invoke_counts_against_max_arena_bytes)
{
	static const float means[64] = {
		2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f,
		2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f,
		2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f,
		2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f,
		2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f,
		2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f, 2.5f,
		2.5f, 2.5f, 2.5f, 2.5f
	};
	uint64_t arena;

	open_test_model("dynamic_mean", NULL);
	arena = opver_interpreter_memory_in_use(it, NULL);
	cr_assert_gt(arena, 0);
	close_mean();

	cr_assert_eq(invoke_mean(arena + 1023, 64), OPVER_ERROR_PLUGIN);
	cr_assert(messages_line_has(&captured, "node 1 (MEAN",
				    "request_scratch in a prepare at invoke takes 512 bytes",
				    "share at most", NULL),
		  "%s", captured.text);
	close_mean();

	cr_assert_eq(invoke_mean(arena + 1024, 64), OPVER_OK, "%s",
		     captured.text);
	expect_output(0, (const int32_t[]){ 64 }, 1, means);
	cr_assert_eq(opver_interpreter_memory_in_use(it, NULL), arena + 1024);
}
