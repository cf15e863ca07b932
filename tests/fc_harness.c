/*
 * fc_harness.c - the kernel harness, node builder and output checks the
 * test_reference_fc_*.c suites share (fc_harness.h).
 */
#include <criterion/criterion.h>

#include "fc_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

opver_fully_connected_params fc_params(opver_activation activation)
{
	return (opver_fully_connected_params){ .activation = activation };
}

/* A FULLY_CONNECTED node with the full current params struct. */
opver_node *fc_node(const char *kernel, int32_t version,
		    const opver_fully_connected_params *params,
		    int32_t num_inputs, opver_tensor *const *inputs,
		    opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, params,
		       sizeof(*params), num_inputs, inputs, KH_TENSORS(output));
}

void expect_floats(const opver_tensor *tensor, const float *want,
		   size_t count)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(got[i] == want[i],
			  "element %zu: got %.9g, want %.9g", i,
			  (double)got[i], (double)want[i]);
}

void expect_int8s(const opver_tensor *tensor, const int8_t *want,
		  size_t count)
{
	const int8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

/* Prepare fails with `status` and exactly one message containing `text`. */
void expect_rejected(opver_node *node, opver_status status,
		     const char *text)
{
	cr_assert_eq(kh_prepare(&h, node), status, "got: %s", h.errors);
	cr_expect_eq(h.num_errors, 1, "messages: %s", h.errors);
	cr_expect(kh_error_contains(&h, text), "wanted '%s' in: %s", text,
		  h.errors);
}

opver_tensor *int8_tensor(const char *name, int32_t rank,
			  const int32_t *dims, const int8_t *data,
			  float scale, int64_t zero_point)
{
	opver_tensor *t =
		kh_tensor(&h, name, OPVER_TYPE_INT8, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}
