/*
 * test_interpreter_sequence_state.c - an LSTM's variable states through
 * the interpreter (tests/models/lstm_state.json: one
 * UNIDIRECTIONAL_SEQUENCE_LSTM node with peepholes, projection, layer norm
 * and both clips).  Two invokes carry the output and cell states over,
 * matching TFLite's outputs for two nodes sharing the states
 * (tests/models/lstm_steps.json), which TFLite 2.12 (tflite_ref.js) ran
 * in one invoke; opver_interpreter_reset_variables() starts the sequence
 * over.  The same for a full-integer LSTM (lstm8_state.json and
 * lstm8_steps.json), bit-exact: its scales come from the node's
 * intermediates through the model reader, and its int8 output state
 * starts and resets at its zero point (10), TFLite's real 0.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "runtime_fixture.h"

#define REFERENCE_CONFIG "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"
/* The float tolerance of tests/test_oracle.c, relative to max(1, |y|). */
#define FLOAT_TOLERANCE 1e-5f

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

TestSuite(sequence_state, .init = setup, .fini = teardown);

/* Each of two invokes' input [1, 2 steps, 2] and TFLite's output [1, 2
 * steps, 2], recorded with tflite_ref.js --random 3 on lstm_steps. */
static const float x[2][4] = {
	{ -0.0520615578f, 0.468269706f, 0.363679767f, -0.371713758f },
	{ 0.376728892f, 0.387883067f, 0.875503063f, 0.658921003f },
};
static const float y[2][4] = {
	{ 0.163423166f, -0.600000024f, 0.314511895f, -0.600000024f },
	{ 0.327268302f, -0.600000024f, 0.336755008f, -0.572675824f },
};

static void expect_near(const float *got, const float *want, size_t n,
			const char *what)
{
	for (size_t i = 0; i < n; i++)
		cr_expect(fabsf(got[i] - want[i]) <= FLOAT_TOLERANCE,
			  "%s, element %zu: got %.9g, TFLite %.9g", what, i,
			  (double)got[i], (double)want[i]);
}

/* Invokes `it` on x[k] and expects y[k]. */
static void invoke(opver_interpreter *it, int k, const char *what)
{
	memcpy(opver_interpreter_input(it, 0)->data, x[k], sizeof(x[k]));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_near(opver_interpreter_output(it, 0)->data, y[k], 4, what);
}

Test(sequence_state, states_carry_over_invokes_as_in_tflite_and_reset)
{
	opver_model *model = fixture_model(runtime, "lstm_state");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	invoke(it, 0, "first invoke");
	invoke(it, 1, "second invoke");
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	invoke(it, 0, "first invoke after the reset");
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* The two-node model TFLite ran: the same outputs in one invoke. */
Test(sequence_state, two_nodes_sharing_the_states_match_tflite)
{
	opver_model *model = fixture_model(runtime, "lstm_steps");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	for (size_t k = 0; k < 2; k++)
		memcpy(opver_interpreter_input(it, k)->data, x[k],
		       sizeof(x[k]));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_near(opver_interpreter_output(it, 0)->data, y[0], 4, "node 0");
	expect_near(opver_interpreter_output(it, 1)->data, y[1], 4, "node 1");
	opver_interpreter_destroy(it);
	opver_model_close(model);
}

/* Each of two invokes' input [1, 2 steps, 2] and TFLite's output, int8,
 * recorded with tflite_ref.js --random 7 on lstm8_steps. */
static const int8_t x8[2][4] = { { 65, -114, 90, 107 }, { -92, 33, -91, 92 } };
static const int8_t y8[2][4] = { { 5, -11, 51, 5 }, { 26, -51, 30, 23 } };

/* Invokes `it` on x8[k] and expects y8[k] exactly. */
static void invoke8(opver_interpreter *it, int k, const char *what)
{
	const int8_t *got;

	memcpy(opver_interpreter_input(it, 0)->data, x8[k], sizeof(x8[k]));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	got = opver_interpreter_output(it, 0)->data;
	for (int i = 0; i < 4; i++)
		cr_expect_eq(got[i], y8[k][i],
			     "%s, element %d: got %d, TFLite %d", what, i,
			     got[i], y8[k][i]);
}

Test(sequence_state, int8_states_carry_over_invokes_as_in_tflite_and_reset)
{
	opver_model *model = fixture_model(runtime, "lstm8_state");
	opver_interpreter *it;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	invoke8(it, 0, "first invoke");
	invoke8(it, 1, "second invoke");
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	invoke8(it, 0, "first invoke after the reset");
	opver_interpreter_destroy(it);
	opver_model_close(model);
}
