/*
 * test_deferred_prepare.c - a node that reads a tensor shaped at invoke
 * is prepared at every invoke (ABI 2.4): each prepare gets op_data
 * zeroed and the node's pointers the core's, whatever its last invoke
 * wrote (tests/plugins/reprepare.c checks); a kernel of a plugin built
 * against ABI 2.0, which never heard of deferred prepare, runs on such a
 * node as TFLite's kernels do; and a variable node reading such a
 * tensor is refused in words about variables, not control flow.
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

TestSuite(deferred_prepare, .fini = teardown);

/* Output `index` is [rows, cols] of twos (FILL's ones plus one). */
static void expect_twos(size_t index, int32_t rows, int32_t cols)
{
	const opver_tensor *out = opver_interpreter_output(it, index);

	cr_assert_eq(out->rank, 2);
	cr_assert_eq(out->dims[0], rows, "output %zu: %d rows", index,
		     (int)out->dims[0]);
	cr_assert_eq(out->dims[1], cols);
	for (int32_t i = 0; i < rows * cols; i++)
		cr_expect_eq(((const float *)out->data)[i], 2.0f,
			     "output %zu element %d: %g", index, (int)i,
			     ((const float *)out->data)[i]);
}

/* dynamic_reprepare over three invokes: REPREPARE's prepare fails if
 * op_data kept its last mark or its invoke's NULLs reached it; ADD_ONE
 * (frozen ABI 2.0) keeps the model's [2, 3], which dims give it. */
Test(deferred_prepare, each_prepare_gets_zeroed_op_data_and_the_cores_pointers)
{
	const int32_t shapes[][2] = { { 2, 3 }, { 3, 1 }, { 2, 3 } };

	runtime = fixture_runtime(
		"[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"
		"[plugin.reprepare]\nlibrary = " TEST_PLUGIN_DIR "/reprepare.so\n"
		"[plugin.frozen]\nlibrary = " TEST_PLUGIN_DIR "/frozen_abi20.so\n",
		&captured);
	model = fixture_model(runtime, "dynamic_reprepare");
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	for (size_t k = 0; k < 3; k++) {
		memcpy(opver_interpreter_input(it, 0)->data, shapes[k],
		       sizeof(shapes[k]));
		if (shapes[k][0] * shapes[k][1] != 6) {
			/* ADD_ONE cannot follow: its own prepare refuses. */
			cr_assert_neq(opver_interpreter_invoke(it), OPVER_OK);
			cr_assert(messages_line_has(&captured, "ADD_ONE takes one input and one output of one size", NULL),
				  "%s", captured.text);
			cr_assert(!messages_line_has(&captured, "REPREPARE:", NULL),
				  "%s", captured.text);
			continue;
		}
		cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK,
			     "invoke %zu: %s", k, captured.text);
		expect_twos(0, shapes[k][0], shapes[k][1]);
		expect_twos(1, 2, 3);
	}
}

/* dynamic_assign_variable: ASSIGN_VARIABLE would store FILL's output,
 * shaped at invoke, in a variable of one shape. */
Test(deferred_prepare, a_variable_node_reading_a_dynamic_tensor_is_refused_as_such)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, "dynamic_assign_variable");
	cr_assert_neq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "node 2 (ASSIGN_VARIABLE",
				    "a resource variable does not take", NULL),
		  "%s", captured.text);
	cr_assert(!messages_line_has(&captured, "control flow", NULL), "%s",
		  captured.text);
}
