/*
 * quantize_harness.c - the kernel harness, node builder and output check
 * the test_reference_quantize_*.c suites share (quantize_harness.h).
 */
#include <criterion/criterion.h>

#include "quantize_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

/* A QUANTIZE or DEQUANTIZE node: no parameters. */
opver_node *unary_node(const char *kernel, int32_t version,
		       opver_tensor *in, opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, NULL, 0,
		       KH_TENSORS(in), KH_TENSORS(out));
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
