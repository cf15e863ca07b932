/*
 * movement_harness.c - the movement suite with its kernel harness, and the
 * tensor and node builders the test_reference_movement_*.c suites share
 * (movement_harness.h).
 */
#include <criterion/criterion.h>

#include "movement_harness.h"

kernel_harness h;

static void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

static void teardown(void)
{
	kh_close(&h);
}

TestSuite(movement, .init = setup, .fini = teardown);

/* A constant INT32 tensor of shape `dims`, as a converter stores indices. */
opver_tensor *constant(const char *name, int32_t rank,
		       const int32_t *dims, const int32_t *values)
{
	opver_tensor *t = kh_tensor(&h, name, OPVER_TYPE_INT32, rank, dims,
				    values);

	t->is_constant = true;
	return t;
}

/* A constant one-element INT32 tensor. */
opver_tensor *scalar(const char *name, int32_t value)
{
	return constant(name, KH_DIMS(1), &value);
}

opver_tensor *floats(const char *name, int32_t rank,
		     const int32_t *dims, const float *data)
{
	return kh_tensor(&h, name, OPVER_TYPE_FLOAT32, rank, dims, data);
}

opver_node *node(const char *kernel, int32_t version,
		 const void *params, size_t params_size,
		 int32_t num_inputs, opver_tensor *const *inputs,
		 int32_t num_outputs, opver_tensor *const *outputs)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, params, params_size,
		       num_inputs, inputs, num_outputs, outputs);
}

void run(opver_node *n)
{
	cr_assert_eq(kh_run(&h, n), OPVER_OK, "%s", h.errors);
}

void rejected(opver_node *n, opver_status status, const char *text)
{
	h.num_errors = 0;
	h.errors[0] = '\0';
	kh_expect_rejected(&h, n, status, text);
}

const float six[6] = { 1, 2, 3, 4, 5, 6 };
