/*
 * reprepare.c - a kernel that checks what a node prepared at every invoke
 * (it reads a tensor shaped at invoke) is given: custom REPREPARE v1,
 * float32 in, float32 out, out = in + 1 at in's shape.  Its prepare
 * refuses op_data that is not zeroed and node pointers that are not the
 * core's (op_data non-NULL, kernel_data what init returned), then marks
 * op_data; its invoke checks the mark and then writes NULL into its
 * node's op_data and kernel_data, as a kernel may: the next prepare must
 * see the core's pointers and zeroed op_data again.
 */
#include <string.h>

#include "common.h"

static int kernel_object;

static opver_status reprepare_init(const opver_context *ctx,
				   void **kernel_data)
{
	(void)ctx;
	*kernel_data = &kernel_object;
	return OPVER_OK;
}

static void reprepare_free(const opver_context *ctx, void *kernel_data)
{
	(void)ctx;
	(void)kernel_data;
}

static opver_status reprepare_prepare(const opver_context *ctx,
				      opver_node *node)
{
	static const unsigned char zero[16];
	const opver_tensor *in = node->inputs[0];

	if (node->kernel_data != &kernel_object || node->op_data == NULL) {
		OPVER_REPORT(ctx, "REPREPARE: node->kernel_data or node->op_data is not the core's");
		return OPVER_ERROR_PLUGIN;
	}
	if (memcmp(node->op_data, zero, sizeof(zero)) != 0) {
		OPVER_REPORT(ctx, "REPREPARE: op_data is not zeroed before prepare");
		return OPVER_ERROR_PLUGIN;
	}
	memset(node->op_data, 0xab, sizeof(zero));
	return ctx->host->resize_output(ctx, 0, in->dims, in->rank);
}

static opver_status reprepare_invoke(const opver_context *ctx,
				     opver_node *node)
{
	const float *in = node->inputs[0]->data;
	float *out = node->outputs[0]->data;
	const size_t count = opver_tensor_elements(node->inputs[0]);

	if (*(const unsigned char *)node->op_data != 0xab) {
		OPVER_REPORT(ctx, "REPREPARE: op_data is not what prepare left");
		return OPVER_ERROR_PLUGIN;
	}
	for (size_t i = 0; i < count; i++)
		out[i] = in[i] + 1.0f;
	node->op_data = NULL;
	node->kernel_data = NULL;
	return OPVER_OK;
}

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel reprepare = {
	OPVER_CUSTOM_KERNEL("reprepare", "REPREPARE", 1, 1),
	OPVER_KERNEL_SIGNATURES(float_types),
	.op_data_size = 16,
	.init = reprepare_init,
	.free = reprepare_free,
	.prepare = reprepare_prepare,
	.invoke = reprepare_invoke,
};

static const opver_kernel *const kernels[] = { &reprepare };

TEST_PLUGIN("reprepare", kernels)
