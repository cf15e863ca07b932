/*
 * pool_harness.c - the kernel harness, node and tensor builders, runners
 * and checks the test_reference_pooling_*.c suites share (pool_harness.h).
 */
#include <stdio.h>

#include <criterion/criterion.h>

#include "pool_harness.h"

kernel_harness h;

void setup(void)
{
	kh_open(&h, REFERENCE_PLUGIN);
}

void teardown(void)
{
	kh_close(&h);
}

opver_pool_params pool_params(opver_padding padding, int32_t filter_h,
			      int32_t filter_w, int32_t stride_h,
			      int32_t stride_w,
			      opver_activation activation)
{
	return (opver_pool_params){ .padding = padding,
				    .stride_width = stride_w,
				    .stride_height = stride_h,
				    .filter_width = filter_w,
				    .filter_height = filter_h,
				    .activation = activation };
}

opver_node *pool_node(const char *kernel,
		      const opver_pool_params *params,
		      opver_tensor *input, opver_tensor *output)
{
	return kh_node(&h, kh_kernel(&h, kernel), 1, params, sizeof(*params),
		       KH_TENSORS(input), KH_TENSORS(output));
}

opver_tensor *quantized(const char *name, opver_type type,
			int32_t rank, const int32_t *dims,
			const void *data, float scale,
			int64_t zero_point)
{
	opver_tensor *t = kh_tensor(&h, name, type, rank, dims, data);

	kh_quantize(&h, t, scale, zero_point);
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

/* Integer tensors of any width, compared as int32. */
int32_t element(const opver_tensor *tensor, size_t i)
{
	return tensor->type == OPVER_TYPE_INT8	  ? ((const int8_t *)tensor->data)[i]
	       : tensor->type == OPVER_TYPE_UINT8 ? ((const uint8_t *)tensor->data)[i]
						  : ((const int16_t *)tensor->data)[i];
}

void expect_ints(const opver_tensor *tensor, const int32_t *want,
		 size_t count)
{
	cr_assert_eq(opver_tensor_elements(tensor), count);
	for (size_t i = 0; i < count; i++)
		cr_expect_eq(element(tensor, i), want[i],
			     "element %zu: got %d, want %d", i,
			     element(tensor, i), want[i]);
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

/* Runs `kernel` with `p` from `in` into `out`; it must succeed. */
void run_pool(const char *kernel, const opver_pool_params *p,
	      opver_tensor *in, opver_tensor *out)
{
	cr_assert_eq(kh_run(&h, pool_node(kernel, p, in, out)), OPVER_OK,
		     "%s: %s", kernel, h.errors);
}

/* Runs the average and the max pool of in's type with `p` from `in` into
 * two new outputs "avg" and "max" of shape `dims`, quantized as `in` is
 * (when it is); both must succeed. */
void run_both_pools(const opver_pool_params *p, opver_tensor *in,
		    int32_t rank, const int32_t *dims,
		    opver_tensor **avg_out, opver_tensor **max_out)
{
	const char *type = in->type == OPVER_TYPE_FLOAT32 ? "float32"
			   : in->type == OPVER_TYPE_INT8  ? "int8"
			   : in->type == OPVER_TYPE_UINT8 ? "uint8"
							  : "int16";
	char avg_kernel[32], max_kernel[32];

	snprintf(avg_kernel, sizeof(avg_kernel), "average_pool_2d_%s", type);
	snprintf(max_kernel, sizeof(max_kernel), "max_pool_2d_%s", type);
	*avg_out = kh_tensor(&h, "avg", in->type, rank, dims, NULL);
	*max_out = kh_tensor(&h, "max", in->type, rank, dims, NULL);
	if (in->quant.count > 0) {
		kh_quantize(&h, *avg_out, in->quant.scale[0],
			    in->quant.zero_point[0]);
		kh_quantize(&h, *max_out, in->quant.scale[0],
			    in->quant.zero_point[0]);
	}
	run_pool(avg_kernel, p, in, *avg_out);
	run_pool(max_kernel, p, in, *max_out);
}
