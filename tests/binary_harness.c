/*
 * binary_harness.c - the kernel harness, node builders and output check
 * the test_reference_binary_*.c suites share (binary_harness.h).
 */
#include <criterion/criterion.h>

#include "binary_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

/* A node of kernel `kernel` with parameters `params` (NULL: none) over
 * inputs a, b and output out. */
opver_node *binary_node(const char *kernel, int32_t version,
			const void *params, size_t params_size,
			opver_tensor *a, opver_tensor *b,
			opver_tensor *out)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, params,
		       params_size, KH_TENSORS(a, b), KH_TENSORS(out));
}

/* The output holds exactly `count` bytes equal to `want`. */
void expect_uint8s(const opver_tensor *out, const uint8_t *want,
		   size_t count)
{
	const uint8_t *got = out->data;

	cr_assert_eq(opver_tensor_elements(out), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: %d, expected %d",
			     i, got[i], want[i]);
}
