/*
 * add_harness.c - the kernel harness and node builder the
 * test_reference_add_*.c suites share (add_harness.h).
 */
#include <criterion/criterion.h>

#include "add_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

/* An ADD node with the full current params struct. */
opver_node *add_node(const char *kernel, int32_t version,
		     opver_activation activation, bool pot_scale_int16,
		     opver_tensor *in1, opver_tensor *in2,
		     opver_tensor *out)
{
	const opver_add_params p = { .activation = activation,
				     .pot_scale_int16 = pot_scale_int16 };

	return kh_node(&h, kh_kernel(&h, kernel), version, &p, sizeof(p),
		       KH_TENSORS(in1, in2), KH_TENSORS(out));
}
