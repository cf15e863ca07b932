/*
 * frozen_abi20.c - a plugin as a vendor built it against ABI 2.0: compiled
 * with the frozen headers of tests/abi/2.0 only (Makefile.am), never with
 * include/.  Its float32 ADD_ONE kernel (v1-2) adds 1 to each element,
 * reporting through the services of the context it is given.
 */
#include <opver/plugin.h>

static opver_status add_one_prepare(const opver_context *ctx,
				    opver_node *node)
{
	const opver_tensor *in = node->inputs[0], *out = node->outputs[0];

	if (node->num_inputs != 1 || node->num_outputs != 1 ||
	    in->bytes != out->bytes) {
		OPVER_REPORT(ctx, "ADD_ONE takes one input and one output of one size");
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

static opver_status add_one_invoke(const opver_context *ctx,
				   opver_node *node)
{
	const float *in = node->inputs[0]->data;
	float *out = node->outputs[0]->data;
	size_t count = opver_tensor_elements(node->inputs[0]);

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		out[i] = in[i] + 1.0f;
	return OPVER_OK;
}

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel add_one = {
	OPVER_CUSTOM_KERNEL("add_one_2_0", "ADD_ONE", 1, 2),
	OPVER_KERNEL_SIGNATURES(float_types),
	.priority = 100,
	.prepare = add_one_prepare,
	.invoke = add_one_invoke,
};

static const opver_kernel *const kernels[] = { &add_one };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "frozen_abi20",
	.vendor = "opver tests",
	.version = "2.0",
	OPVER_PLUGIN_KERNELS(kernels),
};

OPVER_PLUGIN_ENTRY
{
	return &plugin;
}
