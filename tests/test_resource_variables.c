/*
 * test_resource_variables.c - VAR_HANDLE, READ_VARIABLE and
 * ASSIGN_VARIABLE run by the core over the variables an interpreter tree
 * shares, with the CALL_ONCE subgraph that initialises them, over several
 * invokes and a reset; and the refusals, at open, at creation and at
 * invoke.
 *
 * Expected values are worked out by hand in each test; where TFLite runs
 * the model the same way they are TFLite's too (tflite_ref.js, patched to
 * invoke N times before reading the outputs): var_accumulate's three
 * invokes, var_two's two and var_while's two.  TFLite gives var_reshape's
 * second invoke a reshaped output where opver refuses (outputs keep their
 * shapes here), fails bad_var_type_change at its second invoke's read
 * where opver refuses it at creation, and accepts bad_var_value_type and
 * bad_var_handle_inputs, whose tensors its kernels do not check.
 *
 * Beyond these models: two converter-made LiteRT test models,
 * tflite/testdata/call_once_mul.bin and
 * tflite/converter/quantization/lite/testdata/resource_vars_calibrated.bin
 * (google-ai-edge/LiteRT; not in this repository), gave TFLite's outputs
 * bit for bit over three invokes, and their first outputs again after a
 * reset.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "runtime_fixture.h"

#define REFERENCE_CONFIG \
	"[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"

static messages captured;
static opver_runtime *runtime;
static opver_model *model;
static opver_interpreter *it;

static void setup(void)
{
	messages_clear(&captured);
	runtime = fixture_runtime(REFERENCE_CONFIG, &captured);
	model = NULL;
	it = NULL;
}

static void teardown(void)
{
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

TestSuite(resource_variables, .init = setup, .fini = teardown);

/* Opens `name` and creates `it` on it. */
static void create(const char *name)
{
	model = fixture_model(runtime, name);
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s: %s", name, captured.text);
}

/* Invokes and expects output `output` to hold want[0, count). */
static void expect_output(size_t output, const float *want, size_t count,
			  const char *when)
{
	const opver_tensor *y = opver_interpreter_output(it, output);

	cr_assert_eq(y->bytes, count * sizeof(float), "%s", when);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(((const float *)y->data)[i], want[i],
			     "%s: output %zu[%zu] is %g, want %g", when,
			     output, i, ((const float *)y->data)[i], want[i]);
}

static void invoke(const char *when)
{
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s: %s", when,
		     captured.text);
}

/* var_accumulate: acc starts at [1, 2, 3] (CALL_ONCE), each invoke adds
 * x = [0.5, -1, 2] and outputs the sum. */
static const float accumulate_x[3] = { 0.5f, -1.0f, 2.0f };
static const float accumulated[3][3] = {
	{ 1.5f, 1.0f, 5.0f }, { 2.0f, 0.0f, 7.0f }, { 2.5f, -1.0f, 9.0f },
};

Test(resource_variables, call_once_initialises_and_invokes_accumulate)
{
	create("var_accumulate");
	memcpy(opver_interpreter_input(it, 0)->data, accumulate_x,
	       sizeof(accumulate_x));
	for (int k = 0; k < 3; k++) {
		invoke("accumulate");
		expect_output(0, accumulated[k], 3, "accumulate");
	}
}

Test(resource_variables, reset_forgets_values_and_runs_call_once_again)
{
	create("var_accumulate");
	memcpy(opver_interpreter_input(it, 0)->data, accumulate_x,
	       sizeof(accumulate_x));
	invoke("first");
	invoke("second");
	expect_output(0, accumulated[1], 3, "second");
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	invoke("after reset");
	expect_output(0, accumulated[0], 3, "after reset");
	invoke("after reset, again");
	expect_output(0, accumulated[1], 3, "after reset, again");
}

/* var_two: a = [1, 2, 3] and b = [10, 20, 30] at first; s = a + x is
 * assigned to a, t = b + s to b.  x = [0.5, 1, 2]. */
Test(resource_variables, two_variables_keep_their_own_values)
{
	const float x[3] = { 0.5f, 1.0f, 2.0f };
	const float s[2][3] = { { 1.5f, 3.0f, 5.0f }, { 2.0f, 4.0f, 7.0f } };
	const float t[2][3] = { { 11.5f, 23.0f, 35.0f },
				{ 13.5f, 27.0f, 42.0f } };

	create("var_two");
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	for (int k = 0; k < 2; k++) {
		invoke("two variables");
		expect_output(0, s[k], 3, "s");
		expect_output(1, t[k], 3, "t");
	}
}

/* var_while: acc starts at 100; a WHILE body adds n, n - 1, ..., 1 to it
 * through the handle main passes and a VAR_HANDLE of its own. */
static float run_while(float n)
{
	memcpy(opver_interpreter_input(it, 0)->data, &n, sizeof(n));
	invoke("while");
	return *(const float *)opver_interpreter_output(it, 0)->data;
}

Test(resource_variables, a_while_body_assigns_what_main_reads)
{
	create("var_while");
	cr_expect_eq(run_while(3.0f), 106.0f);
	cr_expect_eq(run_while(3.0f), 112.0f);
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	cr_expect_eq(run_while(2.0f), 103.0f);
	/* No pass of the body: acc as it was. */
	cr_expect_eq(run_while(0.0f), 103.0f);
}

Test(resource_variables, node_info_names_the_core_as_runner)
{
	opver_node_info info;

	create("var_accumulate");
	for (size_t n = 1; n <= 4; n += 3) {
		cr_assert_eq(opver_interpreter_node_info(it, n, &info),
			     OPVER_OK);
		cr_expect_str_eq(info.plugin, "opver core");
		cr_expect_str_eq(info.kernel, "resource variable");
	}
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_expect_str_eq(info.kernel, "control flow");
}

/* var_reshape: v = [1, 2] as [2]; main assigns it back as [1, 2], which
 * the variable takes, and reads it as [1, 2].  The second invoke's first
 * read, into a [2], finds [1, 2]. */
Test(resource_variables, a_new_shape_is_taken_and_a_read_into_another_fails)
{
	const float want[2] = { 1.0f, 2.0f };

	create("var_reshape");
	invoke("reshape");
	expect_output(0, want, 2, "reshape");
	messages_clear(&captured);
	cr_expect_eq(opver_interpreter_invoke(it), OPVER_ERROR_UNSUPPORTED);
	cr_expect(messages_line_has(&captured,
				    "node 2 (READ_VARIABLE) of subgraph 0: variable 'v' has shape [1, 2], but the output has shape [2]",
				    "does not reshape", NULL),
		  "%s", captured.text);
}

Test(resource_variables, a_read_before_any_assign_names_node_and_variable)
{
	create("bad_var_read_first");
	cr_expect_eq(opver_interpreter_invoke(it), OPVER_ERROR);
	cr_expect(messages_line_has(&captured,
				    "node 1 (READ_VARIABLE) of subgraph 0: variable 'never' is read before any ASSIGN_VARIABLE",
				    NULL),
		  "%s", captured.text);
}

/* var_handle_input: the handle comes from the application; 0 names 'a'
 * (assigned [4, 5] earlier in the invoke), 1 names 'a' of container
 * 'box' ([6, 7]), nothing else names a variable. */
Test(resource_variables, a_handle_naming_no_variable_fails_the_invoke)
{
	const float want[2][2] = { { 4.0f, 5.0f }, { 6.0f, 7.0f } };
	const int32_t bad[] = { 2, -1, INT32_MAX };

	create("var_handle_input");
	for (int32_t handle = 0; handle < 2; handle++) {
		memcpy(opver_interpreter_input(it, 0)->data, &handle,
		       sizeof(handle));
		invoke("good handle");
		expect_output(0, want[handle], 2, "good handle");
	}
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		char text[32];

		snprintf(text, sizeof(text), "holds handle %d,", (int)bad[b]);
		messages_clear(&captured);
		memcpy(opver_interpreter_input(it, 0)->data, &bad[b],
		       sizeof(bad[b]));
		cr_expect_eq(opver_interpreter_invoke(it), OPVER_ERROR);
		cr_expect(messages_line_has(&captured,
					    "node 4 (READ_VARIABLE) of subgraph 0",
					    text, "names no variable", NULL),
			  "%s", captured.text);
	}
}

Test(resource_variables, a_type_change_is_refused_at_creation)
{
	model = fixture_model(runtime, "bad_var_type_change");
	cr_expect_eq(opver_interpreter_create(runtime, model, &it),
		     OPVER_ERROR_INVALID_MODEL);
	cr_expect_null(it);
	cr_expect(messages_line_has(&captured,
				    "node 3 (ASSIGN_VARIABLE) of subgraph 0: variable 'acc' is INT32 here, but node 1 of subgraph 1 uses it as FLOAT32",
				    NULL),
		  "%s", captured.text);
}

/* bad_var_assign_type: the handle comes from the application, so only the
 * invoke can tell that node 2 gives 'a', a FLOAT32, an INT32. */
Test(resource_variables, a_type_change_through_a_given_handle_fails_the_invoke)
{
	const int32_t handle = 0, i[2] = { 1, 2 };

	create("bad_var_assign_type");
	memcpy(opver_interpreter_input(it, 0)->data, &handle, sizeof(handle));
	memcpy(opver_interpreter_input(it, 1)->data, i, sizeof(i));
	cr_expect_eq(opver_interpreter_invoke(it), OPVER_ERROR);
	cr_expect(messages_line_has(&captured,
				    "node 2 (ASSIGN_VARIABLE) of subgraph 0: variable 'a' holds FLOAT32; a value of INT32 would change its type",
				    NULL),
		  "%s", captured.text);
}

/* bad_var_version: VAR_HANDLE v2; the core runs version 1, and says so as
 * the resolver does for a kernel. */
Test(resource_variables, a_version_the_core_does_not_run_is_unresolved)
{
	model = fixture_model(runtime, "bad_var_version");
	cr_expect_eq(opver_interpreter_create(runtime, model, &it),
		     OPVER_ERROR_UNRESOLVED);
	cr_expect_null(it);
	cr_expect(messages_line_has(&captured,
				    "node 0 (VAR_HANDLE v2) of subgraph 0: VAR_HANDLE runs in opver's core (resource variable), which handles version 1 only",
				    NULL),
		  "%s", captured.text);
}

/* Opens a model the reader refuses, expecting a message with both
 * fragments. */
static void expect_refused(const char *name, const char *a, const char *b)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.tflite", TEST_MODEL_DIR, name);
	messages_clear(&captured);
	cr_expect_eq(opver_model_open(runtime, path, &model),
		     OPVER_ERROR_INVALID_MODEL, "%s", name);
	cr_expect_null(model);
	cr_expect(messages_line_has(&captured, a, b, NULL), "%s: %s", name,
		  captured.text);
}

Test(resource_variables, wrong_tensor_types_and_counts_are_refused_at_open)
{
	expect_refused("bad_var_handle_type",
		       "node 0 (READ_VARIABLE v1) of subgraph 0",
		       "input 0 is INT32; it takes a RESOURCE handle");
	expect_refused("bad_var_value_type",
		       "node 2 (ASSIGN_VARIABLE v1) of subgraph 0",
		       "input 1, the value, is RESOURCE");
	expect_refused("bad_var_handle_inputs",
		       "node 0 (VAR_HANDLE v1) of subgraph 0",
		       "1 inputs and 1 outputs; it takes 0 and gives 1");
}

/*
 * var_accumulate with x resized to [2, 3]: ADD broadcasts acc's [1, 3]
 * over it, and the [2, 3] sum is assigned, a new shape the variable
 * takes; the next read, into the model's [1, 3], fails (TFLite would give
 * its output the new shape).  Resizing back and resetting runs again.
 */
Test(resource_variables, a_resized_input_reaches_the_variable_and_the_next_read)
{
	const int32_t wide[2] = { 2, 3 }, narrow[2] = { 1, 3 };
	const float x[2][3] = { { 0.5f, -1.0f, 2.0f }, { 1.0f, 1.0f, 1.0f } };
	const float want[6] = { 1.5f, 1.0f, 5.0f, 2.0f, 3.0f, 4.0f };

	create("var_accumulate");
	cr_assert_eq(opver_interpreter_resize_input(it, 0, wide, 2), OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	invoke("resized");
	expect_output(0, want, 6, "resized");
	messages_clear(&captured);
	cr_expect_eq(opver_interpreter_invoke(it), OPVER_ERROR_UNSUPPORTED);
	cr_expect(messages_line_has(&captured,
				    "node 2 (READ_VARIABLE) of subgraph 0: variable 'acc' has shape [2, 3], but the output has shape [1, 3]",
				    NULL),
		  "%s", captured.text);

	cr_assert_eq(opver_interpreter_resize_input(it, 0, narrow, 2),
		     OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	memcpy(opver_interpreter_input(it, 0)->data, accumulate_x,
	       sizeof(accumulate_x));
	invoke("resized back");
	expect_output(0, accumulated[0], 3, "resized back");
}

/* var_handle_input's handle resized: [1] still holds one handle (TFLite
 * asks one element of it), [2] is refused when allocating. */
Test(resource_variables, a_handle_resized_to_two_elements_is_refused)
{
	const int32_t one[1] = { 1 }, two[1] = { 2 };
	const float want[2] = { 6.0f, 7.0f };
	int32_t handle = 1;

	create("var_handle_input");
	cr_assert_eq(opver_interpreter_resize_input(it, 0, one, 1), OPVER_OK);
	cr_assert_eq(opver_interpreter_allocate_tensors(it), OPVER_OK, "%s",
		     captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, &handle, sizeof(handle));
	invoke("handle [1]");
	expect_output(0, want, 2, "handle [1]");
	cr_assert_eq(opver_interpreter_resize_input(it, 0, two, 1), OPVER_OK);
	cr_expect_eq(opver_interpreter_allocate_tensors(it),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(messages_line_has(&captured,
				    "node 4 (READ_VARIABLE) of subgraph 0: input 0, the handle, has 2 elements",
				    NULL),
		  "%s", captured.text);
}

/* Creates `it` on var_many under max_arena_bytes `limit` and invokes it
 * with x = 0, 1, ..., 1023, returning the invoke's status. */
static opver_status invoke_many(uint64_t limit)
{
	opver_interpreter_options options;
	float *x;

	opver_interpreter_options_init(&options);
	options.max_arena_bytes = limit;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &it),
		     OPVER_OK, "%s", captured.text);
	x = opver_interpreter_input(it, 0)->data;
	for (int i = 0; i < 1024; i++)
		x[i] = (float)i;
	return opver_interpreter_invoke(it);
}

/* var_many assigns 4096 bytes to each of four variables: with the
 * arena's A bytes, A + 4 x 4096 - 1 fails at the fourth assign, naming
 * it; A + 4 x 4096 runs and then holds exactly that; a reset gives the
 * values' bytes back. */
Test(resource_variables, the_values_of_many_variables_share_the_arena_limit)
{
	const uint64_t values = 4 * 4096;
	const float *y;
	uint64_t arena;
	char in_use[64];

	create("var_many");
	arena = opver_interpreter_memory_in_use(it, NULL);
	cr_assert_gt(arena, 0);
	opver_interpreter_destroy(it);

	cr_expect_eq(invoke_many(arena + values - 1), OPVER_ERROR_NOMEM);
	snprintf(in_use, sizeof(in_use), "with the %llu bytes in use",
		 (unsigned long long)(arena + values - 4096));
	cr_expect(messages_line_has(&captured,
				    "node 7 (ASSIGN_VARIABLE) of subgraph 0: the value of variable 'v3' takes 4096 bytes",
				    in_use, "share at most", NULL),
		  "%s", captured.text);
	opver_interpreter_destroy(it);

	cr_assert_eq(invoke_many(arena + values), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 1024; i++)
		cr_expect_eq(y[i], (float)i, "y[%d] is %g", i, y[i]);
	cr_expect_eq(opver_interpreter_memory_in_use(it, NULL), arena + values);
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	cr_expect_eq(opver_interpreter_memory_in_use(it, NULL), arena);
}
