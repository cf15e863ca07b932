/*
 * test_control_flow.c - IF and WHILE run by the core over the model's other
 * subgraphs, an interpreter of a chosen subgraph (signatures), and the
 * reader's refusal of bad calls.  Expected values are worked out by hand
 * and match TFLite's (tflite_ref.js on the same models): while_double
 * doubles x until x >= limit, so (1, 10) gives 16, (3, 100) 192 and
 * (20, 10) 20 without a single pass of the body; if_add_mul gives a + b
 * or a * b.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "runtime_fixture.h"

#define REFERENCE_CONFIG "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n" \
	"[plugin.add_one]\nlibrary = " TEST_PLUGIN_DIR "/add_one.so\n"

static messages captured;
static opver_runtime *runtime;

static void setup(void)
{
	messages_clear(&captured);
	runtime = fixture_runtime(REFERENCE_CONFIG, &captured);
}

static void teardown(void)
{
	opver_runtime_destroy(runtime);
}

TestSuite(control_flow, .init = setup, .fini = teardown);

static float run_while(opver_interpreter *it, float x, float limit)
{
	memcpy(opver_interpreter_input(it, 0)->data, &x, sizeof(x));
	memcpy(opver_interpreter_input(it, 1)->data, &limit, sizeof(limit));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	return *(const float *)opver_interpreter_output(it, 0)->data;
}

Test(control_flow, while_loops_a_data_dependent_number_of_times)
{
	opver_model *model = fixture_model(runtime, "while_double");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_expect_eq(run_while(it, 1.0f, 10.0f), 16.0f);
	cr_expect_eq(run_while(it, 3.0f, 100.0f), 192.0f);
	/* cond false at once: the input comes out unchanged. */
	cr_expect_eq(run_while(it, 20.0f, 10.0f), 20.0f);
	cr_expect_eq(run_while(it, 1.0f, 10.0f), 16.0f);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* while_countdown: TensorFlow's MLIR test tfl_while_op.mlir, whose loop
 * over constants (n = 5, val = 3.0, dec = 1) gives 96 (TFLite agrees). */
Test(control_flow, while_over_constant_scalars_gives_tensorflows_96)
{
	opver_model *model = fixture_model(runtime, "while_countdown");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	for (int run = 0; run < 2; run++) {
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
			     captured.text);
		cr_expect_eq(*(const float *)opver_interpreter_output(it, 0)->data,
			     96.0f);
	}
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

Test(control_flow, a_loop_value_changing_shape_is_refused_at_creation)
{
	opver_model *model = fixture_model(runtime, "while_grows");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it),
		     OPVER_ERROR_UNSUPPORTED);
	cr_expect_null(it);
	cr_expect(messages_line_has(&captured, "node 0 (WHILE) of subgraph 0",
				    "subgraph 2 (body) has [2] (8 bytes)",
				    "not supported", NULL),
		  "%s", captured.text);
	opver_model_close(model);
}

/* if_cond_no_element and while_cond_no_element: the BOOL[1] condition the
 * model states is made by LOGICAL_NOT of a BOOL[0], whose prepare shapes
 * it [0]; invoke read the byte it does not have (a NULL data pointer). */
Test(control_flow, a_condition_shaped_to_no_element_is_refused)
{
	static const struct {
		const char *model, *what;
	} cases[] = {
		{ "if_cond_no_element", "node 1 (IF) of subgraph 0: the condition (input 0) has shape [0], 0 elements" },
		{ "while_cond_no_element", "node 0 (WHILE) of subgraph 0: the cond subgraph's output has shape [0], 0 elements" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		opver_model *model = fixture_model(runtime, cases[c].model);
		opver_interpreter *it = NULL;

		messages_clear(&captured);
		cr_expect_eq(opver_interpreter_create(runtime, model, &it),
			     OPVER_ERROR_INVALID_MODEL, "%s", cases[c].model);
		cr_expect_null(it);
		cr_expect(messages_line_has(&captured, cases[c].what,
					    "it must hold one BOOL", NULL),
			  "%s: %s", cases[c].model, captured.text);
		opver_interpreter_destroy(it);
		opver_model_close(model);
	}
}

/* while_double from 1 to 10 makes 4 passes (2, 4, 8, 16); the count
 * starts again with each invoke. */
Test(control_flow, max_loop_iterations_stops_a_longer_loop)
{
	opver_model *model = fixture_model(runtime, "while_double");
	opver_interpreter_options options;
	opver_interpreter *it;

	opver_interpreter_options_init(&options);
	options.max_loop_iterations = 4;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	cr_expect_eq(run_while(it, 1.0f, 10.0f), 16.0f);
	cr_expect_eq(run_while(it, 1.0f, 10.0f), 16.0f, "%s", captured.text);
	opver_interpreter_destroy(it);

	options.max_loop_iterations = 3;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, &(float){ 1.0f },
	       sizeof(float));
	memcpy(opver_interpreter_input(it, 1)->data, &(float){ 10.0f },
	       sizeof(float));
	cr_expect_eq(opver_interpreter_invoke(it), OPVER_ERROR);
	cr_expect(messages_line_has(&captured, "node 0 (WHILE) of subgraph 0",
				    "after 3 passes", NULL),
		  "%s", captured.text);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

static void run_if(opver_interpreter *it, bool c, const float want[2])
{
	const uint8_t cond = c;
	const float a[2] = { 1.5f, -2.0f }, b[2] = { 4.0f, 3.0f };
	const float *y;

	memcpy(opver_interpreter_input(it, 0)->data, &cond, 1);
	memcpy(opver_interpreter_input(it, 1)->data, a, sizeof(a));
	memcpy(opver_interpreter_input(it, 2)->data, b, sizeof(b));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	cr_expect_eq(y[0], want[0], "c=%d: got %g, want %g", c, y[0], want[0]);
	cr_expect_eq(y[1], want[1], "c=%d: got %g, want %g", c, y[1], want[1]);
}

Test(control_flow, if_runs_then_on_true_and_else_on_false)
{
	opver_model *model = fixture_model(runtime, "if_add_mul");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	run_if(it, true, (const float[]){ 5.5f, 1.0f });
	run_if(it, false, (const float[]){ 6.0f, -6.0f });
	run_if(it, true, (const float[]){ 5.5f, 1.0f });
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

Test(control_flow, node_info_names_the_core_as_runner)
{
	opver_model *model = fixture_model(runtime, "if_add_mul");
	opver_interpreter *it;
	opver_node_info info;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_expect_eq(info.op, OPVER_OP_IF);
	cr_expect_str_eq(info.plugin, "opver core");
	cr_expect_str_eq(info.kernel, "control flow");
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* if_shared_callee: two IF nodes call subgraphs 1 (ADD_ONE) and 2
 * (TIMES_TWO); each subgraph's node is prepared once, not once per IF. */
Test(control_flow, a_subgraph_called_from_two_nodes_is_prepared_once)
{
	opver_model *model = fixture_model(runtime, "if_shared_callee");
	test_counters *stats = fixture_stats("add_one");
	const float x[4] = { 1.0f, 2.0f, -3.0f, 0.5f };
	opver_interpreter *it;
	const float *y;

	memset(stats, 0, sizeof(*stats));
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_expect_eq(stats->prepares, 2);
	for (int c = 0; c < 2; c++) {
		const uint8_t cond = (uint8_t)c;

		memcpy(opver_interpreter_input(it, 0)->data, &cond, 1);
		memcpy(opver_interpreter_input(it, 1)->data, x, sizeof(x));
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
			     captured.text);
		y = opver_interpreter_output(it, 0)->data;
		for (int i = 0; i < 4; i++)
			cr_expect_eq(y[i], c ? x[i] + 2.0f : 4.0f * x[i],
				     "c=%d y[%d] = %g", c, i, y[i]);
	}
	cr_expect_eq(stats->invokes, 4);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* if_svdf_state: the SVDF's state lives in subgraph 1's interpreter;
 * reset_variables on the application's interpreter zeroes it too. */
static float run_svdf(opver_interpreter *it)
{
	const uint8_t cond = 1;
	const float x[2] = { 1.0f, 2.0f };

	memcpy(opver_interpreter_input(it, 0)->data, &cond, 1);
	memcpy(opver_interpreter_input(it, 1)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	return *(const float *)opver_interpreter_output(it, 0)->data;
}

Test(control_flow, reset_variables_reaches_the_called_subgraphs)
{
	opver_model *model = fixture_model(runtime, "if_svdf_state");
	opver_interpreter *it;
	float first, third, again;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	first = run_svdf(it);
	run_svdf(it);
	third = run_svdf(it);
	cr_assert_neq(first, third, "the state should carry across invokes");
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	again = run_svdf(it);
	cr_expect_eq(again, first, "after reset: %g, want %g", again, first);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* call_once_count: subgraph 1's ADD_ONE runs on the first invoke only,
 * main's on every one. */
Test(control_flow, call_once_runs_its_subgraph_on_the_first_invoke_only)
{
	opver_model *model = fixture_model(runtime, "call_once_count");
	test_counters *stats = fixture_stats("add_one");
	const float x[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
	opver_interpreter *it;

	memset(stats, 0, sizeof(*stats));
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	for (int run = 1; run <= 3; run++) {
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
			     captured.text);
		cr_expect_eq(stats->invokes, run + 1, "after invoke %d: %d",
			     run, stats->invokes);
	}
	cr_expect_eq(((const float *)opver_interpreter_output(it, 0)->data)[3],
		     5.0f);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* two_signatures: "double" is subgraph 0 (x + x), "square" subgraph 1
 * (x * x). */
Test(control_flow, the_subgraph_option_runs_a_signature_subgraph)
{
	opver_model *model = fixture_model(runtime, "two_signatures");
	opver_interpreter_options options;
	opver_interpreter *it;
	opver_signature_info info;
	const float x[3] = { 1.0f, -2.0f, 3.0f };
	const float *y;

	cr_assert_eq(opver_model_signature_info(model, 1, &info), OPVER_OK);
	cr_assert_str_eq(info.key, "square");
	opver_interpreter_options_init(&options);
	options.subgraph = info.subgraph;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	cr_expect_eq(opver_interpreter_node_count(it), 1);
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = opver_interpreter_output(it, 0)->data;
	cr_expect_eq(y[0], 1.0f);
	cr_expect_eq(y[1], 4.0f);
	cr_expect_eq(y[2], 9.0f);
	opver_interpreter_destroy(it);

	options.subgraph = 2;
	cr_expect_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect_null(it);
	cr_expect(messages_line_has(&captured, "subgraph 2",
				    "subgraphs 0 to 1", NULL),
		  "%s", captured.text);
	/* Negative values whose low 32 bits are 0 or 1 are out of range
	 * too (they were truncated to subgraphs 0 and 1). */
	for (int64_t low = 0; low < 2; low++) {
		options.subgraph = INT64_MIN + low;
		cr_expect_eq(opver_interpreter_create_with_options(
				     runtime, model, &options, &it),
			     OPVER_ERROR_INVALID_ARGUMENT, "%lld",
			     (long long)options.subgraph);
		opver_interpreter_destroy(it);
		options.subgraph = -(INT64_C(1) << 32) + low;
		cr_expect_eq(opver_interpreter_create_with_options(
				     runtime, model, &options, &it),
			     OPVER_ERROR_INVALID_ARGUMENT, "%lld",
			     (long long)options.subgraph);
		opver_interpreter_destroy(it);
	}
	opver_model_close(model);
}

/* Opens a bad model, expecting INVALID_MODEL and a message with every
 * fragment (NULL-terminated). */
static void expect_refused(const char *name, const char *a, const char *b)
{
	char path[512];
	opver_model *model = NULL;

	snprintf(path, sizeof(path), "%s/%s.tflite", TEST_MODEL_DIR, name);
	cr_expect_eq(opver_model_open(runtime, path, &model),
		     OPVER_ERROR_INVALID_MODEL, "%s", name);
	cr_expect_null(model);
	cr_expect(messages_line_has(&captured, a, b, NULL), "%s: %s", name,
		  captured.text);
}

Test(control_flow, a_callee_index_out_of_range_is_refused)
{
	expect_refused("bad_call_index", "body_subgraph_index 5",
		       "out of range");
}

Test(control_flow, a_subgraph_calling_itself_is_refused)
{
	expect_refused("bad_call_self", "of subgraph 2: it calls subgraph 2",
		       "may not call itself");
}

Test(control_flow, a_cycle_of_calls_is_refused)
{
	expect_refused("bad_call_cycle", "of subgraph 3: it calls subgraph 2",
		       "may not call itself");
}

Test(control_flow, a_body_giving_too_few_values_is_refused)
{
	expect_refused("bad_while_body_count", "subgraph 2 (body)",
		       "loop value count 2, but the subgraph's output count is 1");
}

Test(control_flow, a_body_changing_a_value_type_is_refused)
{
	expect_refused("bad_while_body_type", "subgraph 2 (body)",
		       "loop value 0 is FLOAT32, but the subgraph's output 0 is INT32");
}

/* The subgraphs IF calls have arenas of their own, within the model's
 * max_arena_bytes: a limit the main subgraph's arena alone fills leaves
 * the called ones nothing (each alone would fit it), and the smallest
 * limit that works is larger than the main arena. */
Test(control_flow, called_subgraphs_share_the_arena_limit)
{
	opver_model *model = fixture_model(runtime, "if_add_mul");
	opver_interpreter_options options;
	opver_interpreter *it = NULL;
	size_t own = 0;
	uint64_t limit;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	opver_interpreter_memory(it, &own, NULL);
	opver_interpreter_destroy(it);
	cr_assert_gt(own, 0);

	opver_interpreter_options_init(&options);
	options.max_arena_bytes = own;
	messages_clear(&captured);
	cr_expect_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_ERROR_NOMEM, "%s", captured.text);
	cr_expect(messages_line_has(&captured, "share", "max_arena_bytes",
				    NULL),
		  "%s", captured.text);

	for (limit = own + 1; limit < own + 4096; limit++) {
		options.max_arena_bytes = limit;
		if (opver_interpreter_create_with_options(runtime, model,
							  &options,
							  &it) == OPVER_OK)
			break;
	}
	cr_expect_lt(limit, own + 4096, "no limit up to %zu bytes more works",
		     (size_t)4096);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* Runs if_fill_branch's then branch: y = a + a, with filled = FILL of
 * [1, n] floats on the side. */
static opver_status run_fill_branch(opver_interpreter *it, int32_t n)
{
	const uint8_t c = 1;
	const float a[2] = { 1.0f, 2.0f };
	const int32_t dims[2] = { 1, n };

	memcpy(opver_interpreter_input(it, 0)->data, &c, sizeof(c));
	memcpy(opver_interpreter_input(it, 1)->data, a, sizeof(a));
	memcpy(opver_interpreter_input(it, 2)->data, dims, sizeof(dims));
	return opver_interpreter_invoke(it);
}

/* The then branch's FILL gives its output a buffer at invoke, which the
 * tree's arenas (U bytes after creation) and it share max_arena_bytes
 * with: n floats fail the invoke under a limit of U + 4n - 4 bytes (the
 * branch's own arena and buffers alone would fit it) and run under
 * U + 4n, which they then use exactly. */
Test(control_flow, a_buffer_shaped_in_a_branch_shares_the_arena_limit)
{
	const int32_t n = 256;
	opver_model *model = fixture_model(runtime, "if_fill_branch");
	opver_interpreter_options options;
	opver_interpreter *it = NULL;
	uint64_t arenas, limit = 0;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	arenas = opver_interpreter_memory_in_use(it, NULL);
	opver_interpreter_destroy(it);
	cr_assert_gt(arenas, 0);

	opver_interpreter_options_init(&options);
	options.max_arena_bytes = arenas + 4 * (uint64_t)n - 4;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	cr_expect_eq(run_fill_branch(it, n), OPVER_ERROR_PLUGIN);
	cr_expect(messages_line_has(&captured, "node 0 (FILL",
				    "output 'filled' shaped at invoke takes 1024 bytes",
				    "share at most", "max_arena_bytes", NULL),
		  "%s", captured.text);
	opver_interpreter_destroy(it);

	options.max_arena_bytes = arenas + 4 * (uint64_t)n;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(run_fill_branch(it, n), OPVER_OK, "%s", captured.text);
	y = opver_interpreter_output(it, 0)->data;
	cr_expect(y[0] == 2.0f && y[1] == 4.0f, "a + a: %g, %g", y[0], y[1]);
	cr_expect_eq(opver_interpreter_memory_in_use(it, &limit),
		     arenas + 4 * (uint64_t)n);
	cr_expect_eq(limit, options.max_arena_bytes);
	opver_interpreter_destroy(it);
	opver_model_close(model);
}
