/*
 * newer_minor.c - a plugin as built against the next ABI minor, 2.(N+1),
 * that needs nothing newer than this core's 2.N: abi_minor is
 * OPVER_ABI_MINOR + 1, min_abi_minor OPVER_ABI_MINOR.  Its kernel and its
 * descriptor are what 2.(N+1)'s structs may be under the append rule:
 * 2.N's struct followed by a field past its sizeof, with struct_size the
 * bigger size.  A 2.N core reads the fields it knows and never the new
 * ones, so the plugin loads and runs: its float32 ADD (version 1, no fused
 * activation, equal shapes) computes a + b.
 */
#include "common.h"

/* The kernel struct of 2.(N+1): 2.N's, then the field it added. */
typedef struct newer_kernel {
	opver_kernel base;
	/* Added in 2.(N+1); unknown to this core. */
	uint64_t added_in_next_minor;
} newer_kernel;
_Static_assert(offsetof(newer_kernel, added_in_next_minor) >=
		       TEST_KERNEL_SIZE_2_0,
	       "the new kernel field starts past the 2.0 struct");

/* The descriptor of 2.(N+1): 2.N's, then the field it added. */
typedef struct newer_plugin {
	opver_plugin base;
	/* Added in 2.(N+1); unknown to this core. */
	const char *added_in_next_minor;
} newer_plugin;
_Static_assert(offsetof(newer_plugin, added_in_next_minor) >=
		       TEST_PLUGIN_SIZE_2_0,
	       "the new descriptor field starts past the 2.0 struct");

/* Shapes, sizes and parameters: activations have no data before invoke. */
static opver_status add_prepare(const opver_context *ctx, opver_node *node)
{
	opver_add_params params = OPVER_ADD_PARAMS_DEFAULTS;
	size_t count;

	if (node->num_inputs != 2 || node->num_outputs != 1) {
		OPVER_REPORT(ctx, "ADD takes 2 inputs and 1 output");
		return OPVER_ERROR_INVALID_MODEL;
	}
	count = opver_tensor_elements(node->outputs[0]);
	if (opver_tensor_elements(node->inputs[0]) != count ||
	    opver_tensor_elements(node->inputs[1]) != count) {
		OPVER_REPORT(ctx, "this ADD takes inputs of the output's size only (no broadcasting)");
		return OPVER_ERROR_UNSUPPORTED;
	}
	opver_read_params(node, &params, sizeof(params));
	if (params.activation != OPVER_ACTIVATION_NONE) {
		OPVER_REPORT(ctx, "this ADD has no fused activation (%d)",
			     (int)params.activation);
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}

static opver_status add_invoke(const opver_context *ctx, opver_node *node)
{
	const float *a = node->inputs[0]->data;
	const float *b = node->inputs[1]->data;
	float *y = node->outputs[0]->data;
	size_t count = opver_tensor_elements(node->outputs[0]);

	(void)ctx;
	for (size_t i = 0; i < count; i++)
		y[i] = a[i] + b[i];
	return OPVER_OK;
}

static const opver_type_signature float_add[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const newer_kernel add = {
	.base = {
		.struct_size = sizeof(newer_kernel),
		.name = "add_float32",
		.op = OPVER_OP_ADD,
		.min_version = 1,
		.max_version = 1,
		OPVER_KERNEL_SIGNATURES(float_add),
		.flags = OPVER_KERNEL_STATELESS,
		.prepare = add_prepare,
		.invoke = add_invoke,
	},
	.added_in_next_minor = UINT64_C(0xdeadbeefdeadbeef),
};
static const opver_kernel *const kernels[] = { &add.base };

static const newer_plugin plugin = {
	.base = {
		.abi_major = OPVER_ABI_MAJOR,
		.abi_minor = OPVER_ABI_MINOR + 1,
		.min_abi_minor = OPVER_ABI_MINOR,
		.struct_size = sizeof(newer_plugin),
		.name = "newer_minor",
		.vendor = "opver tests",
		.version = "1",
		OPVER_PLUGIN_KERNELS(kernels),
	},
	.added_in_next_minor = "read only by a 2.(N+1) core",
};

OPVER_PLUGIN_ENTRY
{
	return &plugin.base;
}
