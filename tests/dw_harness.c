/*
 * dw_harness.c - the kernel harness, node and tensor builders and output
 * checks the test_reference_depthwise_conv_*.c suites share (dw_harness.h).
 */
#include <criterion/criterion.h>

#include "dw_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

/* Parameters with stride 1, no dilation, M from the shapes. */
opver_depthwise_conv_params dw_params(opver_padding padding)
{
	return (opver_depthwise_conv_params){
		.padding = padding,
		.stride_width = 1,
		.stride_height = 1,
		.activation = OPVER_ACTIVATION_NONE,
		.dilation_width = 1,
		.dilation_height = 1,
	};
}

/* A DEPTHWISE_CONV_2D node with the full current params struct. */
opver_node *dw_node(const char *kernel, int32_t version,
		    const opver_depthwise_conv_params *params,
		    int32_t num_inputs, opver_tensor *const *inputs,
		    opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, kernel), version, params,
		       sizeof(*params), num_inputs, inputs, KH_TENSORS(output));
}

opver_tensor *float_tensor(const char *name, int32_t rank,
			   const int32_t *dims, const float *data)
{
	return kh_tensor(&h, name, OPVER_TYPE_FLOAT32, rank, dims, data);
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
