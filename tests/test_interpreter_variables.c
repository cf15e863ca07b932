/*
 * test_interpreter_variables.c - variable tensors through the interpreter:
 * a float SVDF's state (tests/models/svdf_state.json) starts at zeros,
 * carries over from one invoke to the next, owns its arena bytes, and
 * opver_interpreter_reset_variables() brings it back to zeros.  Outputs
 * are worked out by hand: weights_feature [[1, 2], [0.5, -1]],
 * weights_time [[1, 10, 100], [1, 2, 4]] (oldest to newest), bias
 * [0.25, 5]; each invoke shifts each filter's memory left and appends
 * weights_feature . input.
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
