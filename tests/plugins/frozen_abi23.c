/*
 * frozen_abi23.c - a kernel as a vendor built it against ABI 2.3: compiled
 * with the frozen headers of tests/abi/2.3 only (Makefile.am), never with
 * include/.  CUSTOM "ADD_K" v1, float32: y = x + k, k the float under key
 * "k" of the node's FlexBuffers options.  Its prepare gives the output the
 * input's shape through resize_output, which 2.3 accepts even when the
 * output already has that shape and requires of every node after
 * opver_interpreter_resize_input(); so it runs on 2.3 cores only
 * (OPVER_PLUGIN_HEADER).
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

	if (node->num_inputs != 1 || node->num_outputs != 1) {
		OPVER_REPORT(ctx, "ADD_K takes one input and one output");
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = ctx->host->flex_map_find(ctx, node->custom_options,
					  node->custom_options_size, "k", &k);
	if (status != OPVER_OK)
		return status;
	if (!k.is_number) {
		OPVER_REPORT(ctx, "ADD_K needs a number under \"k\"");
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->k = (float)k.as_float;
	/* The shape the input implies, whether or not it changed. */
	return ctx->host->resize_output(ctx, 0, node->inputs[0]->dims,
					node->inputs[0]->rank);
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
	OPVER_CUSTOM_KERNEL("add_k_2_3", "ADD_K", 1, 1),
	OPVER_KERNEL_SIGNATURES(float_types),
	.op_data_size = sizeof(add_k_data),
	.prepare = add_k_prepare,
	.invoke = add_k_invoke,
};
static const opver_kernel *const kernels[] = { &add_k };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "frozen_abi23",
	.vendor = "opver tests",
	.version = "2.3",
	OPVER_PLUGIN_KERNELS(kernels),
};

OPVER_PLUGIN_ENTRY
{
	return &plugin;
}
