/*
 * activation_harness.c - the kernel harness, node builder, runner and
 * output check the test_reference_activation_*.c suites share
 * (activation_harness.h).
 */
#include <criterion/criterion.h>

#include "activation_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

/* A one-input activation node of kernel `name` from `input` to `output`. */
opver_node *unary_node(const char *name, const void *params,
		       size_t params_size, opver_tensor *input,
		       opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, name), 1, params, params_size,
		       KH_TENSORS(input), KH_TENSORS(output));
}

void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
		   size_t count)
{
	const uint8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}

/* Runs kernel `name` on a 1-D quantized tensor of `count` elements. */
opver_tensor *run_quantized(const char *name, const void *params,
			    size_t params_size, opver_type type,
			    const void *in, int32_t count,
			    float in_scale, int32_t in_zero,
			    float out_scale, int32_t out_zero)
{
	const int32_t dims[] = { count };
	opver_tensor *input = kh_quantized(&h, "in", type, 1, dims, in,
					   in_scale, in_zero);
	opver_tensor *output = kh_quantized(&h, "out", type, 1, dims, NULL,
					    out_scale, out_zero);

	cr_assert_eq(kh_run(&h, unary_node(name, params, params_size, input,
					   output)),
		     OPVER_OK, "%s: %s", name, h.errors);
	return output;
}
