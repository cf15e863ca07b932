/*
 * frozen_abi22.c - a kernel as a vendor built it against ABI 2.2: compiled
 * with the frozen headers of tests/abi/2.2 only (Makefile.am), never with
 * include/.  CUSTOM "ADD_K" v1, float32: y = x + k, where k is the float
 * under key "k" of the node's FlexBuffers options, read in prepare through
 * 2.2's flex_map_find.  It declares that it runs on 2.1 cores, which lack
 * that service, so it checks OPVER_HOST_HAS first and refuses the node
 * with a reason there.
 */
#include <opver/plugin.h>

typedef struct add_k_data {
	float k;
} add_k_data;

static opver_status add_k_prepare(const opver_context *ctx, opver_node *node)
{
	add_k_data *data = node->op_data;
	opver_flex_value k;
	opver_status status;

	if (!OPVER_HOST_HAS(ctx->host, flex_map_find)) {
		OPVER_REPORT(ctx, "ADD_K reads its options with ABI 2.2's flex_map_find, which this %u.%u core lacks",
			     ctx->host->abi_major, ctx->host->abi_minor);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ctx->host->flex_map_find(ctx, node->custom_options,
					  node->custom_options_size, "k", &k);
	if (status != OPVER_OK)
		return status;
	if (!k.is_number) {
		OPVER_REPORT(ctx, "ADD_K needs a number under \"k\"");
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (node->num_inputs != 1 || node->num_outputs != 1 ||
	    node->inputs[0]->bytes != node->outputs[0]->bytes) {
		OPVER_REPORT(ctx, "ADD_K takes one input and one output of its size");
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->k = (float)k.as_float;
	return OPVER_OK;
}

static opver_status add_k_invoke(const opver_context *ctx, opver_node *node)
{
	const add_k_data *data = node->op_data;
	const float *x = node->inputs[0]->data;
	float *y = node->outputs[0]->data;

	(void)ctx;
	for (size_t i = 0; i < opver_tensor_elements(node->outputs[0]); i++)
		y[i] = x[i] + data->k;
	return OPVER_OK;
}

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel add_k = {
	OPVER_CUSTOM_KERNEL("add_k_2_2", "ADD_K", 1, 1),
	OPVER_KERNEL_SIGNATURES(float_types),
	.op_data_size = sizeof(add_k_data),
	.prepare = add_k_prepare,
	.invoke = add_k_invoke,
};
static const opver_kernel *const kernels[] = { &add_k };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER_RUNS_ON(1),
	.name = "frozen_abi22",
	.vendor = "opver tests",
	.version = "2.2",
	OPVER_PLUGIN_KERNELS(kernels),
};

OPVER_PLUGIN_ENTRY
{
	return &plugin;
}
