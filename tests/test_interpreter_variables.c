/*
 * test_interpreter_variables.c - variable tensors through the interpreter:
 * a float SVDF's state (tests/models/svdf_state.json) starts at zeros,
 * carries over from one invoke to the next, owns its arena bytes, and
 * opver_interpreter_reset_variables() brings it back to zeros.  Outputs
 * are worked out by hand: weights_feature [[1, 2], [0.5, -1]],
 * weights_time [[1, 10, 100], [1, 2, 4]] (oldest to newest), bias
 * [0.25, 5]; each invoke shifts each filter's memory left and appends
 * weights_feature . input.  Three SVDF nodes sharing one state are
 * compared with TFLite's outputs.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "runtime_fixture.h"

#define REFERENCE_CONFIG "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"
#define STATE_TENSOR 4

static messages captured;
static opver_runtime *runtime;
static opver_model *model;
static opver_interpreter *it;

static void setup(void)
{
	messages_clear(&captured);
	runtime = fixture_runtime(REFERENCE_CONFIG, &captured);
	model = fixture_model(runtime, "svdf_state");
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
}

static void teardown(void)
{
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

TestSuite(variables, .init = setup, .fini = teardown);

/* Invokes on input (x0, x1) and expects output (y0, y1). */
static void step(float x0, float x1, float y0, float y1)
{
	const float x[2] = { x0, x1 };
	const float *y;

	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	cr_expect_float_eq(y[0], y0, 1e-5f, "got %g, want %g", y[0], y0);
	cr_expect_float_eq(y[1], y1, 1e-5f, "got %g, want %g", y[1], y1);
}

static void expect_state(const float want[6])
{
	const opver_tensor *state = opver_interpreter_tensor(it, STATE_TENSOR);

	cr_assert_eq(state->bytes, 6 * sizeof(float));
	for (int i = 0; i < 6; i++)
		cr_expect_float_eq(((const float *)state->data)[i], want[i], 0,
				   "state[%d] is %g, want %g", i,
				   ((const float *)state->data)[i], want[i]);
}

/* Memories after each step: f0 [0 0 3] [0 3 2] [3 2 2], f1 [0 0 -0.5]
 * [0 -0.5 1] [-0.5 1 -1]. */
Test(variables, state_carries_over_invokes)
{
	expect_state((const float[]){ 0, 0, 0, 0, 0, 0 });
	step(1, 1, 300.25f, 3.0f);
	step(2, 0, 230.25f, 8.0f);
	step(0, 1, 223.25f, 2.5f);
	expect_state((const float[]){ 3, 2, 2, -0.5f, 1, -1 });
}

Test(variables, reset_brings_the_state_back_to_zeros)
{
	step(1, 1, 300.25f, 3.0f);
	step(2, 0, 230.25f, 8.0f);
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	expect_state((const float[]){ 0, 0, 0, 0, 0, 0 });
	step(1, 1, 300.25f, 3.0f);
	step(2, 0, 230.25f, 8.0f);
}

/* No other tensor's bytes overlap the state's, so nothing else writes
 * them between invokes. */
Test(variables, state_shares_no_arena_bytes)
{
	const opver_tensor *state = opver_interpreter_tensor(it, STATE_TENSOR);
	const uintptr_t begin = (uintptr_t)state->data;
	const uintptr_t end = begin + state->bytes;

	for (size_t t = 0; t < opver_interpreter_tensor_count(it); t++) {
		const opver_tensor *other = opver_interpreter_tensor(it, t);
		uintptr_t at = (uintptr_t)other->data;

		if (t == STATE_TENSOR || other->is_constant || other->data == NULL)
			continue;
		cr_expect(at + other->bytes <= begin || at >= end,
			  "tensor %zu '%s' overlaps the state", t, other->name);
	}
}

Test(variables, an_inspect_only_interpreter_has_nothing_to_reset)
{
	opver_interpreter_options options;
	opver_interpreter *inspect;

	opver_interpreter_options_init(&options);
	options.inspect_only = 1;
	cr_assert_eq(opver_interpreter_create_with_options(runtime, model,
							   &options, &inspect),
		     OPVER_OK, "%s", captured.text);
	cr_expect_eq(opver_interpreter_reset_variables(inspect),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_expect(strstr(captured.text, "inspection only") != NULL, "%s",
		  captured.text);
	opver_interpreter_destroy(inspect);
}

/*
 * Three SVDF nodes sharing one state (tests/models/svdf_steps_*.json): node
 * k computes what the k-th invoke of one node would.  TFLite 2.12 runs the
 * model in one invoke (tflite_ref.js), so its outputs show the state
 * carried over three steps; they were recorded with it and are matched
 * exactly, float and int8.
 */
static void run_steps(const char *name, const void *const inputs[3],
		      const void *const want[3], size_t input_bytes,
		      size_t output_bytes)
{
	opver_model *steps = fixture_model(runtime, name);
	opver_interpreter *three;

	cr_assert_eq(opver_interpreter_create(runtime, steps, &three),
		     OPVER_OK, "%s", captured.text);
	for (size_t k = 0; k < 3; k++) {
		cr_assert_eq(opver_interpreter_input(three, k)->bytes,
			     input_bytes);
		memcpy(opver_interpreter_input(three, k)->data, inputs[k],
		       input_bytes);
	}
	cr_assert_eq(opver_interpreter_invoke(three), OPVER_OK, "%s",
		     captured.text);
	for (size_t k = 0; k < 3; k++) {
		const opver_tensor *y = opver_interpreter_output(three, k);

		cr_assert_eq(y->bytes, output_bytes);
		cr_expect(memcmp(y->data, want[k], output_bytes) == 0,
			  "%s: step %zu differs from TFLite", name, k);
	}
	opver_interpreter_destroy(three);
	opver_model_close(steps);
}

Test(variables, float_state_over_three_steps_matches_tflite)
{
	static const float x[3][6] = {
		{ -0.529397547f, 0.604405344f, 0.734667122f, -0.742480636f,
		  -0.0658535883f, -0.445710212f },
		{ -0.833765984f, 0.791888595f, -0.14010261f, -0.704617381f,
		  0.346724719f, -0.595567942f },
		{ 0.802862167f, -0.565703511f, -0.933850646f, -0.598462105f,
		  -0.308504254f, -0.0621836744f },
	};
	static const float y[3][4] = {
		{ -0.66815269f, 0.832678437f, -0.61834383f, 0.464950383f },
		{ -0.721768856f, 0.237224221f, -0.66981715f, 0.0234217048f },
		{ 0.599379182f, -0.355489939f, -0.439639211f, 1.08271158f },
	};

	run_steps("svdf_steps_float",
		  (const void *const[]){ x[0], x[1], x[2] },
		  (const void *const[]){ y[0], y[1], y[2] }, sizeof(x[0]),
		  sizeof(y[0]));
}

Test(variables, int8_state_over_three_steps_matches_tflite)
{
	static const int8_t x[3][6] = {
		{ 126, -58, 91, -93, -39, 73 },
		{ -65, 43, -11, 3, 112, 81 },
		{ 86, 12, 123, 123, -94, -76 },
	};
	static const int8_t y[3][4] = {
		{ 1, 62, 10, -4 },
		{ -4, -24, -82, -128 },
		{ 5, 67, 13, 1 },
	};

	run_steps("svdf_steps_int8",
		  (const void *const[]){ x[0], x[1], x[2] },
		  (const void *const[]){ y[0], y[1], y[2] }, sizeof(x[0]),
		  sizeof(y[0]));
}
