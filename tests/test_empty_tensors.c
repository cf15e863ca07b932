/*
 * test_empty_tensors.c - a tensor of no elements has data that is not
 * NULL (aligned, never to be written), whether prepare shaped it (TILE
 * by a 0, then GATHER of no positions and BATCH_MATMUL over an inner
 * dimension of 0) or it is shaped at invoke (FILL with a dimension of 0,
 * TILE by 0, SLICE of size 0), so that no kernel does
 * arithmetic on NULL (UBSan: build with -fsanitize=undefined).  The
 * values are by hand: BATCH_MATMUL's sum over nothing is 0.
 */
#include <criterion/criterion.h>
#include <stdint.h>
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

TestSuite(empty_tensors, .fini = teardown);

static void open_test_model(const char *name)
{
	runtime = fixture_runtime("[plugin.reference]\nlibrary = "
				  REFERENCE_PLUGIN "\n",
				  &captured);
	model = fixture_model(runtime, name);
	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
}

/* Output `index` has no bytes, and aligned data that is not NULL. */
static void expect_empty(size_t index)
{
	const opver_tensor *out = opver_interpreter_output(it, index);

	cr_assert_eq(out->bytes, 0, "output %zu has %zu bytes", index,
		     out->bytes);
	cr_assert_not_null(out->data, "output %zu ('%s') has NULL data",
			   index, out->name);
	cr_assert_eq((uintptr_t)out->data % 64, 0);
}

/* empty_tensors: TILE by constant multiples with a 0 gives GATHER no
 * positions and BATCH_MATMUL an inner dimension of 0. */
Test(empty_tensors, empty_tensors_shaped_in_prepare_have_data)
{
	const opver_tensor *m;

	open_test_model("empty_tensors");
	for (size_t i = 0; i < 4; i++) {
		const opver_tensor *in = opver_interpreter_input(it, i);

		memset(in->data, 0, in->bytes);
	}
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	expect_empty(0);
	expect_empty(2);
	m = opver_interpreter_output(it, 1);
	cr_assert_eq(m->bytes, 6 * sizeof(float));
	for (size_t i = 0; i < 6; i++)
		cr_expect_eq(((const float *)m->data)[i], 0.0f, "m[%zu] = %g",
			     i, ((const float *)m->data)[i]);
}

/* dynamic_tile_fill_slice: FILL's dims [0, 4] give a tensor shaped at
 * invoke with no elements, and TILE by 0 another. */
Test(empty_tensors, empty_tensors_shaped_at_invoke_have_data)
{
	static const float x[5] = { 1, 2, 3, 4, 5 };
	const int32_t values[][2] = { { 0, 0 }, { 0, 4 }, { 0, 0 }, { 0, 0 } };

	open_test_model("dynamic_tile_fill_slice");
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	memcpy(opver_interpreter_input(it, 1)->data, values[0],
	       sizeof(int32_t));
	memcpy(opver_interpreter_input(it, 2)->data, values[1],
	       sizeof(values[1]));
	memcpy(opver_interpreter_input(it, 3)->data, values[2],
	       sizeof(int32_t));
	memcpy(opver_interpreter_input(it, 4)->data, values[3],
	       sizeof(int32_t));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	for (size_t i = 0; i < 4; i++)
		expect_empty(i);
}
