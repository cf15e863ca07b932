/*
 * test_resize_propagation.c - output shapes that follow resized inputs
 * through the reference kernels that shape their outputs in prepare
 * (resize_output): GATHER, TILE, the comparisons, SELECT, SELECT_V2 and
 * BATCH_MATMUL give, row for row, what batch 1 gives (run first, an
 * independent reference, and one row against TFLite's and a hand
 * calculation); the LSTM over a longer sequence gives what two invokes of
 * the model's length give with the state carried; SVDF's variable state
 * keeps the model's batch, so a new batch is refused naming it.
 */
#include <criterion/criterion.h>
#include <math.h>
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

TestSuite(propagation, .fini = teardown);

static void open_test_model(const char *name)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, name);
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
}

/* Resizes input 0 to dims[0, rank) and allocates. */
static opver_status resize(const int32_t *dims, int32_t rank)
{
	opver_status status = opver_interpreter_resize_input(it, 0, dims, rank);

	return status == OPVER_OK ? opver_interpreter_allocate_tensors(it)
				  : status;
}

/* resize_select_matmul: three rows of x as a batch give the rows batch 1
 * gives each; row 0 gives [29, 0] (TFLite 2.12, tflite_ref.js, and by
 * hand in the model's comment). */
Test(propagation, gather_tile_compare_select_matmul_rows_match_batch_one)
{
	static const float rows[3][4] = { { 1, -2, 3, -4 },
					  { 0.5f, 7, -1, 2 },
					  { -3, -3, 0, 9 } };
	const opver_tensor *out;
	float alone[3][2];

	open_test_model("resize_select_matmul");
	out = opver_interpreter_output(it, 0);
	for (int r = 0; r < 3; r++) {
		memcpy(opver_interpreter_input(it, 0)->data, rows[r],
		       sizeof(rows[r]));
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
		memcpy(alone[r], out->data, sizeof(alone[r]));
	}
	cr_expect_eq(alone[0][0], 29.0f);
	cr_expect_eq(alone[0][1], 0.0f);

	cr_assert_eq(resize((const int32_t[]){ 3, 4 }, 2), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(out->rank, 2);
	cr_assert_eq(out->dims[0], 3);
	cr_assert_eq(out->dims[1], 2);
	cr_assert_eq(out->bytes, sizeof(alone));
	memcpy(opver_interpreter_input(it, 0)->data, rows, sizeof(rows));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	cr_expect(memcmp(out->data, alone, sizeof(alone)) == 0,
		  "the batch of 3 differs from its rows run alone");
}

/* lstm_state ([batch 1, 2 steps, 2]): four steps at once give what steps
 * 1-2 then 3-4 give in two invokes, the state carried between them. */
Test(propagation, lstm_over_four_steps_matches_two_invokes_of_two)
{
	static const float steps[4][2] = { { 0.5f, -0.25f },
					   { 1.0f, 0.75f },
					   { -0.5f, 0.125f },
					   { 0.25f, -1.0f } };
	const opver_tensor *out;
	float two_by_two[4][2], *y;

	open_test_model("lstm_state");
	out = opver_interpreter_output(it, 0);
	for (int half = 0; half < 2; half++) {
		memcpy(opver_interpreter_input(it, 0)->data, steps[2 * half],
		       2 * sizeof(steps[0]));
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
		memcpy(two_by_two[2 * half], out->data, 2 * sizeof(steps[0]));
	}

	cr_assert_eq(resize((const int32_t[]){ 1, 4, 2 }, 3), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(out->rank, 3);
	cr_assert_eq(out->dims[1], 4);
	cr_assert_eq(opver_interpreter_reset_variables(it), OPVER_OK);
	memcpy(opver_interpreter_input(it, 0)->data, steps, sizeof(steps));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
	y = out->data;
	for (int s = 0; s < 4; s++)
		for (int u = 0; u < 2; u++)
			cr_expect(fabsf(y[2 * s + u] - two_by_two[s][u]) <= 1e-6f,
				  "step %d unit %d: %g, two invokes give %g", s,
				  u, y[2 * s + u], two_by_two[s][u]);
}

/* svdf_state: its state is [1, memory x filters]; TFLite does not resize
 * variable tensors either, and checks the state's batch. */
Test(propagation, svdf_with_a_new_batch_is_refused_by_its_state)
{
	open_test_model("svdf_state");
	cr_assert_eq(resize((const int32_t[]){ 2, 2 }, 2),
		     OPVER_ERROR_INVALID_ARGUMENT);
	cr_assert(messages_line_has(&captured, "node 0 (SVDF",
				    "state must be [2, 6]", NULL),
		  "%s", captured.text);
	cr_assert_eq(resize((const int32_t[]){ 1, 2 }, 2), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK);
}
