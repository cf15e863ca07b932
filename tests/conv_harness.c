/*
 * conv_harness.c - the kernel harness, node and tensor builders and output
 * checks the test_reference_conv_*.c suites share (conv_harness.h).
 */
#include <math.h>

#include <criterion/criterion.h>

#include "conv_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

/* Parameters with the same stride and dilation in both dimensions. */
opver_conv_params conv_params(opver_padding padding, int32_t stride,
			      int32_t dilation,
			      opver_activation activation)
{
	return (opver_conv_params){
		.padding = padding,
		.stride_width = stride,
		.stride_height = stride,
		.activation = activation,
		.dilation_width = dilation,
		.dilation_height = dilation,
	};
}

/* A CONV_2D node with the full current params struct. */
opver_node *conv_node(const char *kernel, int32_t version,
		      const opver_conv_params *params,
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

/* A tensor quantized per tensor. */
opver_tensor *quantized(const char *name, opver_type type,
			int32_t rank, const int32_t *dims,
			const void *data, float scale,
			int64_t zero_point)
{
	opver_tensor *t = kh_tensor(&h, name, type, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
	return t;
}

/* An int8 filter quantized per channel along axis 0, symmetric. */
opver_tensor *per_channel_filter(int32_t rank, const int32_t *dims,
				 const int8_t *data,
				 const float *scales)
{
	opver_tensor *t = kh_tensor(&h, "filter", OPVER_TYPE_INT8, rank, dims,
				    data);
	int64_t zero_points[64] = { 0 };

	cr_assert_leq(dims[0], (int32_t)COUNT(zero_points));
	kh_quantize_per_channel(&h, t, 0, dims[0], scales, zero_points);
	return t;
}

void expect_floats(const opver_tensor *tensor, const float *want,
		   size_t count)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(got[i] == want[i], "element %zu: got %g, want %g", i,
			  (double)got[i], (double)want[i]);
}

void expect_floats_near(const opver_tensor *tensor, const float *want,
			size_t count, double tolerance)
{
	const float *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect(fabs((double)got[i] - (double)want[i]) <= tolerance,
			  "element %zu: got %.9g, want %.9g within %g", i,
			  (double)got[i], (double)want[i], tolerance);
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

void expect_int16s(const opver_tensor *tensor, const int16_t *want,
		   size_t count)
{
	const int16_t *got = tensor->data;

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

void expect_uint8s(const opver_tensor *tensor, const uint8_t *want,
		   size_t count)
{
	const uint8_t *got = tensor->data;

	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(got[i], want[i], "element %zu: got %d, want %d", i,
			     got[i], want[i]);
}
