/* test_interpreter.c - a model through init, prepare and invoke on real
 * plugin kernels: results, stateless versus per-node kernel objects, the
 * planned arena, node info, every unresolved node reported, and models
 * opened from memory. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "runtime_fixture.h"

#define ADD_ONE_CONFIG "[plugin.add_one]\nlibrary = " TEST_PLUGIN_DIR "/add_one.so\n"

static messages captured;

static void setup(void)
{
	messages_clear(&captured);
}

TestSuite(interpreter, .init = setup);

static void set_input(opver_interpreter *it, const float *values, size_t count)
{
	opver_tensor *input = opver_interpreter_input(it, 0);

	cr_assert_not_null(input);
	cr_assert_eq(input->bytes, count * sizeof(float));
	memcpy(input->data, values, input->bytes);
}

Test(interpreter, runs_a_chain_on_plugin_kernels)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	const float x[4] = { 1.0f, -2.5f, 0.0f, 100.0f };
	const opver_tensor *y;
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	set_input(it, x, 4);
	for (int run = 0; run < 2; run++) {
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
		y = opver_interpreter_output(it, 0);
		for (int i = 0; i < 4; i++)
			cr_assert_float_eq(((const float *)y->data)[i], x[i] + 4.0f, 0,
					   "run %d, element %d", run, i);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* x -> a -> b -> c -> y, each ADD_ONE.  By default a and c share bytes
 * (a is dead once b is written), so after an invoke a reads c's value;
 * with preserve_intermediates each holds its own: x + 1, x + 2, x + 3. */
Test(interpreter, preserve_intermediates_keeps_every_tensor_after_invoke)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	const float x[4] = { 1.0f, -2.5f, 0.0f, 100.0f };
	opver_interpreter_options options;
	size_t shared_arena, preserved_arena;
	const int32_t *inputs, *outputs;
	int32_t num_inputs, num_outputs;
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	opver_interpreter_memory(it, &shared_arena, NULL);
	opver_interpreter_destroy(it);

	opver_interpreter_options_init(&options);
	options.preserve_intermediates = 1;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model, &options, &it),
		     OPVER_OK, "%s", captured.text);
	opver_interpreter_memory(it, &preserved_arena, NULL);
	cr_assert_gt(preserved_arena, shared_arena);
	set_input(it, x, 4);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_tensor_count(it), 5);
	cr_assert_null(opver_interpreter_tensor(it, 5));
	for (size_t t = 1; t <= 4; t++) {
		const float *value = opver_interpreter_tensor(it, t)->data;

		for (int i = 0; i < 4; i++)
			cr_assert_float_eq(value[i], x[i] + (float)t, 0,
					   "tensor %zu, element %d", t, i);
	}
	/* Node 2 reads tensor 2 and writes tensor 3. */
	cr_assert_eq(opver_interpreter_node_tensors(it, 2, &inputs, &num_inputs,
						    &outputs, &num_outputs), OPVER_OK);
	cr_assert_eq(num_inputs, 1);
	cr_assert_eq(num_outputs, 1);
	cr_assert_eq(inputs[0], 2);
	cr_assert_eq(outputs[0], 3);
	cr_assert_eq(opver_interpreter_node_tensors(it, 4, &inputs, &num_inputs,
						    &outputs, &num_outputs),
		     OPVER_ERROR_INVALID_ARGUMENT);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(interpreter, stateless_kernel_gets_one_object_for_all_nodes)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	test_counters *stats = fixture_stats("add_one");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert_eq(stats->kernel_inits, 1, "4 ADD_ONE nodes, one stateless kernel");
	cr_assert_eq(stats->prepares, 4);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(stats->invokes, 4);
	opver_interpreter_destroy(it);
	cr_assert_eq(stats->kernel_frees, 1);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(interpreter, stateful_kernel_gets_one_object_per_node)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "times_two_pair");
	test_counters *stats = fixture_stats("add_one");
	const float x[6] = { 0, 1, 2, 3, -4, 0.5f };
	const float *y;
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	cr_assert_eq(stats->kernel_inits, 3, "two TIMES_TWO nodes, each its own, plus one ADD_ONE");
	set_input(it, x, 6);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 6; i++)
		cr_assert_float_eq(y[i], 2.0f * (2.0f * x[i] + 1.0f), 0, "element %d", i);
	opver_interpreter_destroy(it);
	cr_assert_eq(stats->kernel_frees, 3);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(interpreter, arena_shares_buffers_between_tensors_that_never_meet)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;
	size_t arena, naive;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	opver_interpreter_memory(it, &arena, &naive);
	/* Five 16-byte tensors, each padded to 64.  The input stays intact;
	 * of the four others only two are alive at once. */
	cr_assert_eq(naive, 5 * 64);
	cr_assert_eq(arena, 3 * 64);
	cr_assert(messages_line_has(&captured, "arena: 192 bytes planned, 320 bytes", NULL),
		  "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* The arena ends with OPVER_TENSOR_READ_SLACK bytes, so an optimized
 * kernel's vector load past the last tensor stays in the allocation (the
 * ASan build checks the reads below). */
Test(interpreter, the_last_tensor_of_the_arena_can_be_read_past_its_end)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	const opver_tensor *x, *y, *last;
	volatile const uint8_t *slack;
	unsigned sum = 0;
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	x = opver_interpreter_input(it, 0);
	y = opver_interpreter_output(it, 0);
	last = (const uint8_t *)x->data > (const uint8_t *)y->data ? x : y;
	/* Three 64-byte slots (see above): the input has the first, and the
	 * output must have the last for the reads to reach the arena's end. */
	cr_assert_eq((const uint8_t *)last->data -
			     (const uint8_t *)(last == x ? y : x)->data,
		     2 * 64, "the layout this test relies on changed");
	slack = (const uint8_t *)last->data + last->bytes;
	for (size_t i = 0; i < OPVER_TENSOR_READ_SLACK; i++)
		sum += slack[i];
	cr_assert_eq(sum, 0, "the slack is zeroed with the arena");
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(interpreter, node_info_tells_how_each_node_was_bound)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;
	opver_node_info info;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert_eq(opver_interpreter_node_count(it), 4);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_assert_eq(opver_interpreter_node_info(it, 2, &info), OPVER_OK);
	cr_assert_eq(info.index, 2);
	cr_assert_eq(info.op, OPVER_OP_CUSTOM);
	cr_assert_str_eq(info.custom_name, "ADD_ONE");
	cr_assert_eq(info.version, 2);
	/* Stored 2, required 1: resolved at the stored version. */
	cr_assert_eq(info.resolved_version, 2);
	cr_assert_eq(info.num_inputs, 1);
	cr_assert_eq(info.input_types[0], OPVER_TYPE_FLOAT32);
	cr_assert_str_eq(info.plugin, "add_one");
	cr_assert_str_eq(info.kernel, "add_one");
	cr_assert_null(info.delegate);
	cr_assert(!info.fallback);
	cr_assert_eq(info.invocations, 1);
	cr_assert_eq(opver_interpreter_node_info(it, 4, &info), OPVER_ERROR_INVALID_ARGUMENT);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(interpreter, every_unresolved_node_is_reported)
{
	opver_runtime *runtime = fixture_runtime("[opver]\nlog_level = error\n", &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_ERROR_UNRESOLVED);
	cr_assert_null(it);
	/* Nodes 0, 1 and 3 store version 1, node 2 version 2: one message
	 * for each need, and each node's own at debug level. */
	cr_assert(messages_line_has(&captured, "error:", "nodes 0, 1, 3 (ADD_ONE)",
				    "version 1", NULL), "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", "node 2 (ADD_ONE)",
				    "version 2", NULL), "%s", captured.text);
	for (int n = 0; n < 4; n++) {
		char fragment[32];

		snprintf(fragment, sizeof(fragment), "node %d (ADD_ONE)", n);
		cr_assert(messages_line_has(&captured, "debug:", fragment, NULL),
			  "node %d not reported:\n%s", n, captured.text);
	}
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* A graph input the file gives a buffer starts with the stored values and
 * can still be written: it is an activation, not read-only weights. */
Test(interpreter, graph_input_with_a_buffer_is_writable)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "input_with_buffer");
	opver_interpreter *it;
	opver_tensor *x;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK, "%s", captured.text);
	x = opver_interpreter_input(it, 0);
	cr_assert_not(x->is_constant);
	cr_assert_eq(((const float *)x->data)[3], 4.0f);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s", captured.text);
	y = opver_interpreter_output(it, 0)->data;
	cr_assert_eq(y[0], 2.0f);
	cr_assert_eq(y[3], 5.0f);
	((float *)x->data)[0] = 10.0f;
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s", captured.text);
	cr_assert_eq(y[0], 11.0f);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* An inspect-only interpreter binds what it can, keeps the rest unbound
 * (still reported), prepares nothing and refuses to run. */
Test(interpreter, inspect_only_shows_unbound_nodes_and_never_runs)
{
	opver_runtime *runtime = fixture_runtime("[opver]\nlog_level = error\n", &captured);
	opver_model *model = fixture_model(runtime, "add_one_chain");
	opver_interpreter_options options;
	opver_interpreter *it;
	opver_node_info info;
	size_t arena;

	opver_interpreter_options_init(&options);
	options.inspect_only = true;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model, &options, &it),
		     OPVER_OK);
	/* Unbound nodes are what an inspection shows, not an error. */
	cr_assert_eq(captured.count[OPVER_LOG_ERROR], 0, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "nodes 0, 1, 3 (ADD_ONE)", NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_assert_null(info.plugin);
	cr_assert_null(info.kernel);
	cr_assert_null(info.delegate);
	/* Custom ops need version 1 by TFLite's rules. */
	cr_assert_eq(info.required_version, 1);
	cr_assert_not_null(info.version_reason);
	opver_interpreter_memory(it, &arena, NULL);
	cr_assert_eq(arena, 0, "an inspection plans no arena");
	messages_clear(&captured);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "inspection only", NULL), "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(interpreter, a_failing_kernel_cannot_disguise_its_status)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "fails");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_ERROR_PLUGIN,
		     "a kernel's UNRESOLVED must not pass for a missing op version");
	cr_assert(messages_line_has(&captured, "error:",
				    "node 0 (FAILS v1, kernel 'fails' of plugin 'add_one')",
				    "the device is on fire", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", "node 0 (FAILS v1",
				    "invoke failed (ERROR_UNRESOLVED)", NULL),
		  "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

#define REFERENCE_CONFIG "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"

/* Creates an interpreter of TEST_MODEL_DIR/NAME.tflite on the reference
 * plugin with `options`; returns the status, destroying what it made. */
static opver_status create_on_reference(const char *name,
					const opver_interpreter_options *options,
					size_t *arena_bytes)
{
	opver_runtime *runtime = fixture_runtime(REFERENCE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, name);
	opver_interpreter *it = NULL;
	opver_status status;

	status = opver_interpreter_create_with_options(runtime, model, options,
						       &it);
	cr_assert_eq(it == NULL, status != OPVER_OK);
	if (it != NULL && arena_bytes != NULL)
		opver_interpreter_memory(it, arena_bytes, NULL);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
	return status;
}

/* A kernel's INVALID_MODEL from prepare keeps its meaning, as a status of
 * its own, unlike every other status a plugin returns. */
Test(interpreter, a_kernel_rejecting_the_model_in_prepare_gives_model_rejected)
{
	cr_assert_eq(create_on_reference("fc_int8_bad_bias", NULL, NULL),
		     OPVER_ERROR_MODEL_REJECTED, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:",
				    "kernel 'fully_connected_int8' of plugin 'reference'",
				    "bias 'bias' has 3 elements", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "error:", "node 0 (FULLY_CONNECTED v4",
				    "prepare rejected the model as invalid",
				    NULL),
		  "%s", captured.text);
}

Test(interpreter, prepare_only_prepares_and_plans_without_an_arena)
{
	opver_runtime *runtime = fixture_runtime(REFERENCE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "fc_int8");
	opver_interpreter_options options;
	opver_interpreter *it;
	size_t arena = 0;

	opver_interpreter_options_init(&options);
	options.prepare_only = 1;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	opver_interpreter_memory(it, &arena, NULL);
	cr_assert_gt(arena, 0, "the arena is planned");
	cr_assert_null(opver_interpreter_input(it, 0)->data,
		       "but not allocated");
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "inspection only", NULL),
		  "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

Test(interpreter, prepare_only_fails_where_prepare_does)
{
	opver_interpreter_options options;

	opver_interpreter_options_init(&options);
	options.prepare_only = 1;
	cr_assert_eq(create_on_reference("fc_int8_bad_bias", &options, NULL),
		     OPVER_ERROR_MODEL_REJECTED, "%s", captured.text);
}

Test(interpreter, an_arena_over_the_limit_fails_naming_both_sizes)
{
	opver_interpreter_options options;
	size_t arena = 0;

	opver_interpreter_options_init(&options);
	cr_assert_eq(options.max_arena_bytes, 0, "0 takes the default");
	cr_assert_eq(create_on_reference("fc_int8", &options, &arena),
		     OPVER_OK, "%s", captured.text);
	cr_assert_gt(arena, 1);
	messages_clear(&captured);
	options.max_arena_bytes = arena - 1;
	cr_assert_eq(create_on_reference("fc_int8", &options, NULL),
		     OPVER_ERROR_NOMEM);
	cr_assert(messages_line_has(&captured, "error:", "an arena of",
				    "at most", "max_arena_bytes", NULL),
		  "%s", captured.text);
	cr_assert(!messages_line_has(&captured, "out of memory", NULL),
		  "one message, not a second, vaguer one: %s", captured.text);
	messages_clear(&captured);
	options.max_arena_bytes = arena;
	options.prepare_only = 1;
	cr_assert_eq(create_on_reference("fc_int8", &options, NULL), OPVER_OK,
		     "exactly the arena is enough: %s", captured.text);
}

Test(interpreter, the_config_sets_the_arena_limit)
{
	opver_runtime *runtime = fixture_runtime(
		"[opver]\nmax_arena_bytes = 1\n" REFERENCE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "fc_int8");
	opver_interpreter_options options;
	opver_interpreter *it = NULL;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it),
		     OPVER_ERROR_NOMEM);
	cr_assert(messages_line_has(&captured, "error:", "at most 1 bytes",
				    NULL),
		  "%s", captured.text);
	/* The option overrides the config. */
	opver_interpreter_options_init(&options);
	options.max_arena_bytes = UINT64_C(1) << 20;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* fc_int8's tensors: input 1x4 int8 (4 bytes), weights 2x4 int8 (8),
 * bias 2 int32 (8), output 1x2 int8 (2). */
Test(interpreter, a_tensor_over_the_limit_fails_naming_the_first)
{
	opver_interpreter_options options;

	opver_interpreter_options_init(&options);
	cr_assert_eq(options.max_tensor_bytes, 0, "0 takes the default");
	options.max_tensor_bytes = 7;
	cr_assert_eq(create_on_reference("fc_int8", &options, NULL),
		     OPVER_ERROR_NOMEM);
	cr_assert(messages_line_has(&captured, "error:", "tensor 1 'weights'",
				    "takes 8 bytes", "at most 7 bytes",
				    "max_tensor_bytes", NULL),
		  "%s", captured.text);
	cr_assert_eq(messages_total(&captured), 1,
		     "one message, not a second, vaguer one: %s",
		     captured.text);
	messages_clear(&captured);
	options.max_tensor_bytes = 8;
	cr_assert_eq(create_on_reference("fc_int8", &options, NULL), OPVER_OK,
		     "exactly the largest tensor is allowed: %s",
		     captured.text);
}

/* Checked before any kernel prepares (a bad bias would be rejected there),
 * and not for an interpreter that only inspects. */
Test(interpreter, the_tensor_limit_comes_before_prepare_and_not_inspection)
{
	opver_interpreter_options options;

	opver_interpreter_options_init(&options);
	options.max_tensor_bytes = 1;
	cr_assert_eq(create_on_reference("fc_int8_bad_bias", &options, NULL),
		     OPVER_ERROR_NOMEM, "%s", captured.text);
	messages_clear(&captured);
	options.inspect_only = 1;
	cr_assert_eq(create_on_reference("fc_int8", &options, NULL), OPVER_OK,
		     "%s", captured.text);
}

Test(interpreter, the_config_sets_the_tensor_limit)
{
	opver_runtime *runtime = fixture_runtime(
		"[opver]\nmax_tensor_bytes = 4\n" REFERENCE_CONFIG, &captured);
	opver_model *model = fixture_model(runtime, "fc_int8");
	opver_interpreter_options options;
	opver_interpreter *it = NULL;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it),
		     OPVER_ERROR_NOMEM);
	cr_assert(messages_line_has(&captured, "error:", "at most 4 bytes",
				    "one tensor", NULL),
		  "%s", captured.text);
	/* The option overrides the config. */
	opver_interpreter_options_init(&options);
	options.max_tensor_bytes = 8;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* Reads TEST_MODEL_DIR/NAME.tflite into `slack` + size bytes of a new
 * buffer, at offset `slack` (free() the buffer, not the returned bytes). */
static uint8_t *read_model(const char *name, size_t slack, uint8_t **buffer,
			   size_t *size)
{
	char path[512];
	FILE *file;
	long length;

	snprintf(path, sizeof(path), "%s/%s.tflite", TEST_MODEL_DIR, name);
	file = fopen(path, "rb");
	cr_assert_not_null(file, "cannot open %s", path);
	cr_assert_eq(fseek(file, 0, SEEK_END), 0);
	length = ftell(file);
	cr_assert_gt(length, 0);
	rewind(file);
	*buffer = malloc(slack + (size_t)length);
	cr_assert_not_null(*buffer);
	cr_assert_eq(fread(*buffer + slack, 1, (size_t)length, file),
		     (size_t)length);
	fclose(file);
	*size = (size_t)length;
	return *buffer + slack;
}

/* The model keeps its own copy: the caller's bytes may go right away. */
Test(interpreter, model_opened_from_memory_runs_without_the_callers_bytes)
{
	opver_runtime *runtime = fixture_runtime(ADD_ONE_CONFIG, &captured);
	const float x[4] = { 1.0f, -2.5f, 0.0f, 100.0f };
	opver_interpreter *it;
	opver_model *model;
	uint8_t *buffer, *bytes;
	const float *y;
	size_t size;

	bytes = read_model("add_one_chain", 0, &buffer, &size);
	cr_assert_eq(opver_model_open_memory(runtime, bytes, size, &model),
		     OPVER_OK, "%s", captured.text);
	memset(buffer, 0xa5, size);
	free(buffer);
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	set_input(it, x, 4);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_assert_float_eq(y[i], x[i] + 4.0f, 0, "element %d", i);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* Weights keep the 16-byte alignment the file gives them, wherever the
 * caller's bytes were. */
Test(interpreter, model_opened_from_memory_keeps_weights_aligned)
{
	opver_runtime *runtime = fixture_runtime("[opver]\n", &captured);
	const opver__graph *graph;
	opver_model *model;
	uint8_t *buffer, *bytes;
	int constants = 0;
	size_t size;

	bytes = read_model("fc_float", 1, &buffer, &size);
	cr_assert_eq(opver_model_open_memory(runtime, bytes, size, &model),
		     OPVER_OK, "%s", captured.text);
	free(buffer);
	graph = opver__model_graph(model);
	for (int32_t t = 0; t < graph->num_tensors; t++) {
		if (graph->tensors[t].constant_data == NULL)
			continue;
		constants++;
		cr_assert_eq((uintptr_t)graph->tensors[t].constant_data % 16, 0,
			     "tensor %d", t);
	}
	cr_assert_gt(constants, 0, "fc_float has weights");
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* Bytes in memory are verified as a file is, and named in messages. */
Test(interpreter, model_opened_from_memory_is_verified)
{
	opver_runtime *runtime = fixture_runtime("[opver]\n", &captured);
	opver_model *model = (opver_model *)&captured;
	uint8_t *buffer, *bytes;
	size_t size;

	bytes = read_model("add_one_chain", 0, &buffer, &size);
	cr_assert_eq(opver_model_open_memory(runtime, bytes, size / 2, &model),
		     OPVER_ERROR_INVALID_MODEL);
	cr_assert_null(model);
	cr_assert(messages_line_has(&captured, "error:", "<memory>: ", NULL),
		  "%s", captured.text);
	free(buffer);
	messages_clear(&captured);
	cr_assert_eq(opver_model_open_memory(runtime, "", 0, &model),
		     OPVER_ERROR_INVALID_MODEL);
	cr_assert(messages_line_has(&captured, "<memory>", "empty", NULL),
		  "%s", captured.text);
	cr_assert_eq(opver_model_open_memory(runtime, NULL, 16, &model),
		     OPVER_ERROR_INVALID_MODEL);
	cr_assert_null(model);
	opver_runtime_destroy(runtime);
}

/* litert_mul_add_signature_def's one SignatureDef, as flatc's JSON dump of
 * the file gives it: key "mul_add" on subgraph 0, inputs x (tensor 1) and
 * y (tensor 0: the field is absent, so its default), output output_0
 * (tensor 4).  A model without signatures has none. */
Test(interpreter, signatures_name_their_tensors)
{
	const char *corpus = getenv("OPVER_MODEL_CORPUS");
	opver_runtime *runtime;
	opver_model *model;
	opver_signature_info info;
	const char *name;
	int32_t tensor;
	char path[4096];

	if (corpus == NULL || corpus[0] == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	runtime = fixture_runtime("[opver]\n", &captured);
	snprintf(path, sizeof(path), "%s/litert_mul_add_signature_def.tflite",
		 corpus);
	cr_assert_eq(opver_model_open(runtime, path, &model), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(opver_model_signature_count(model), 1);
	cr_assert_eq(opver_model_signature_info(model, 0, &info), OPVER_OK);
	cr_assert_str_eq(info.key, "mul_add");
	cr_assert_eq(info.subgraph, 0);
	cr_assert_eq(info.num_inputs, 2);
	cr_assert_eq(info.num_outputs, 1);
	cr_assert_eq(opver_model_signature_input(model, 0, 0, &name, &tensor), OPVER_OK);
	cr_assert_str_eq(name, "x");
	cr_assert_eq(tensor, 1);
	cr_assert_eq(opver_model_signature_input(model, 0, 1, &name, &tensor), OPVER_OK);
	cr_assert_str_eq(name, "y");
	cr_assert_eq(tensor, 0);
	cr_assert_eq(opver_model_signature_output(model, 0, 0, &name, &tensor), OPVER_OK);
	cr_assert_str_eq(name, "output_0");
	cr_assert_eq(tensor, 4);
	cr_assert_eq(opver_model_signature_input(model, 0, 2, &name, &tensor),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(opver_model_signature_output(model, 1, 0, &name, &tensor),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(opver_model_signature_info(model, 1, &info),
		     OPVER_ERROR_INVALID_ARGUMENT);
	opver_model_close(model);

	model = fixture_model(runtime, "add_one_chain");
	cr_assert_eq(opver_model_signature_count(model), 0);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}
