/*
 * add_one.c - a test plugin with real compute: CUSTOM "ADD_ONE" (versions
 * 1-2, float32, stateless: y = x + 1) and CUSTOM "TIMES_TWO" (version 1,
 * float32, one kernel object per node: y = 2x, the factor kept in memory
 * from allocate_persistent), and CUSTOM "FAILS" whose invoke reports an
 * error and returns a status meant to mislead (OPVER_ERROR_UNRESOLVED).
 * Counts every callback in test_stats.
 */
#include "common.h"
#include "stats.h"

__attribute__((visibility("default"))) test_counters test_stats;

static const opver_type_signature float_to_float[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static opver_status counting_init(const opver_context *ctx,
				  void **kernel_data)
{
	*kernel_data = ctx->host->allocate(ctx, sizeof(int));
	if (*kernel_data == NULL)
		return OPVER_ERROR_NOMEM;
	test_stats.kernel_inits++;
	return OPVER_OK;
}

static void counting_free(const opver_context *ctx, void *kernel_data)
{
	ctx->host->free_memory(ctx, kernel_data);
	test_stats.kernel_frees++;
}

/* Shapes and sizes only: activations have no data before invoke.  The
 * output takes the input's shape (resize_output, ABI 2.2), so a resized
 * input reaches it. */
static opver_status same_shape_prepare(const opver_context *ctx,
				       opver_node *node)
{
	test_stats.prepares++;
	if (node->num_inputs != 1 || node->num_outputs != 1) {
		OPVER_REPORT(ctx, "expects one input and one output");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	if (OPVER_HOST_HAS(ctx->host, resize_output)) {
		opver_status status = ctx->host->resize_output(
			ctx, 0, node->inputs[0]->dims, node->inputs[0]->rank);

		if (status != OPVER_OK)
			return status;
	}
	if (node->inputs[0]->bytes != node->outputs[0]->bytes) {
		OPVER_REPORT(ctx, "expects one input and one output of equal size");
		return OPVER_ERROR_INVALID_ARGUMENT;
	}
	return OPVER_OK;
}

static opver_status add_one_invoke(const opver_context *ctx, opver_node *node)
{
	const float *x = node->inputs[0]->data;
	float *y = node->outputs[0]->data;
	size_t count = opver_tensor_elements(node->outputs[0]);

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		y[i] = x[i] + 1.0f;
	test_stats.invokes++;
	return OPVER_OK;
}

/* Keeps the factor in persistent memory, its address in op_data. */
static opver_status times_two_prepare(const opver_context *ctx,
				      opver_node *node)
{
	float **factor = node->op_data;
	opver_status status = same_shape_prepare(ctx, node);

	if (status != OPVER_OK)
		return status;
	*factor = ctx->host->allocate_persistent(ctx, sizeof(float));
	if (*factor == NULL)
		return OPVER_ERROR_NOMEM;
	**factor = 2.0f;
	return OPVER_OK;
}

static opver_status times_two_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const float *x = node->inputs[0]->data;
	const float *factor = *(float **)node->op_data;
	float *y = node->outputs[0]->data;
	size_t count = opver_tensor_elements(node->outputs[0]);

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		y[i] = *factor * x[i];
	test_stats.invokes++;
	return OPVER_OK;
}

static opver_status fails_invoke(const opver_context *ctx, opver_node *node)
{
	(void)node;
	OPVER_REPORT(ctx, "the device is on fire");
	return OPVER_ERROR_UNRESOLVED;
}

static const opver_kernel add_one = {
	OPVER_CUSTOM_KERNEL("add_one", "ADD_ONE", 1, 2),
	OPVER_KERNEL_SIGNATURES(float_to_float),
	.flags = OPVER_KERNEL_STATELESS,
	.init = counting_init,
	.free = counting_free,
	.prepare = same_shape_prepare,
	.invoke = add_one_invoke,
};

static const opver_kernel times_two = {
	OPVER_CUSTOM_KERNEL("times_two", "TIMES_TWO", 1, 1),
	OPVER_KERNEL_SIGNATURES(float_to_float),
	.op_data_size = sizeof(float *),
	.init = counting_init,
	.free = counting_free,
	.prepare = times_two_prepare,
	.invoke = times_two_invoke,
};

static const opver_kernel fails = {
	OPVER_CUSTOM_KERNEL("fails", "FAILS", 1, 1),
	OPVER_KERNEL_SIGNATURES(float_to_float),
	.prepare = same_shape_prepare,
	.invoke = fails_invoke,
};

static const opver_kernel *const kernels[] = { &add_one, &times_two, &fails };

TEST_PLUGIN("add_one", kernels)
