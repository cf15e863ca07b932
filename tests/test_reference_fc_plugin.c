/*
 * test_reference_fc_plugin.c - the reference plugin's descriptor, its
 * FULLY_CONNECTED manifest entries and its exported symbols.
 */
#include <dlfcn.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "fc_harness.h"

/* --------------------------------------------------------------- plugin */

TestSuite(reference_plugin, .init = setup, .fini = teardown);

Test(reference_plugin, descriptor)
{
	cr_expect_eq(h.plugin->abi_major, OPVER_ABI_MAJOR);
	cr_expect_eq(h.plugin->abi_minor, OPVER_ABI_MINOR);
	cr_expect_eq(h.plugin->struct_size, sizeof(opver_plugin));
	cr_expect_str_eq(h.plugin->name, "reference");
	cr_expect_str_eq(h.plugin->vendor, "opver");
	cr_expect_str_eq(h.plugin->version, OPVER_VERSION_STRING);
	cr_expect_null(h.plugin->init);
	cr_expect_null(h.plugin->fini);
	cr_expect_null(h.plugin->delegate);
	/* Every op file adds kernels: the list is checked for shape, not
	 * length. */
	cr_assert_gt(h.plugin->num_kernels, 0);
	for (size_t i = 0; i < h.plugin->num_kernels; i++) {
		const opver_kernel *k = h.plugin->kernels[i];

		cr_assert_not_null(k, "kernel %zu", i);
		cr_expect_eq(k->struct_size, sizeof(opver_kernel));
		cr_expect(k->name != NULL && k->name[0] != '\0');
		cr_expect(k->min_version >= 1 &&
			  k->max_version >= k->min_version,
			  "%s: versions %d..%d", k->name, k->min_version,
			  k->max_version);
		cr_expect_eq(k->priority, 0, "%s: reference kernels are the "
			     "lowest-priority fallback", k->name);
		cr_expect(k->prepare != NULL && k->invoke != NULL, "%s",
			  k->name);
		for (size_t j = 0; j < i; j++)
			cr_expect_str_neq(k->name, h.plugin->kernels[j]->name,
					  "kernels %zu and %zu share a name", j,
					  i);
	}
}

struct kernel_case {
	char name[32];
	opver_type data;
	opver_type weights;
	opver_type bias;
	opver_type other_bias; /* a second bias type taken, or bias again */
	opver_type output;
	int32_t max_version;
};

ParameterizedTestParameters(reference_plugin, fully_connected_manifest)
{
	static struct kernel_case cases[] = {
		/* Versions 5 (keep_num_dims) and 6 (no bias) are
		 * implemented; 8 (sparse) is not. */
		{ FC_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  7 },
		{ FC_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT8, OPVER_TYPE_INT32,
		  OPVER_TYPE_INT32, OPVER_TYPE_INT8, 7 },
		{ FC_HYBRID, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8,
		  OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT32,
		  7 },
		{ FC_UINT8, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		  OPVER_TYPE_INT32, OPVER_TYPE_INT32, OPVER_TYPE_UINT8, 7 },
		{ FC_UINT8_INT16, OPVER_TYPE_UINT8, OPVER_TYPE_UINT8,
		  OPVER_TYPE_INT32, OPVER_TYPE_INT32, OPVER_TYPE_INT16, 7 },
		/* 11: quantized_bias_type; sparse weights never reach it */
		{ FC_INT16X8, OPVER_TYPE_INT16, OPVER_TYPE_INT8,
		  OPVER_TYPE_INT64, OPVER_TYPE_INT32, OPVER_TYPE_INT16, 11 },
	};

	return cr_make_param_array(struct kernel_case, cases, COUNT(cases));
}

ParameterizedTest(struct kernel_case *c, reference_plugin,
		  fully_connected_manifest)
{
	const opver_kernel *k = kh_kernel(&h, c->name);
	const opver_type_signature *s = k->signatures;

	cr_expect_eq(k->struct_size, sizeof(opver_kernel));
	cr_expect_eq(k->op, OPVER_OP_FULLY_CONNECTED);
	cr_expect_null(k->custom_name);
	cr_expect_eq(k->min_version, 1);
	cr_expect_eq(k->max_version, c->max_version, "%s: %d, want %d",
		     c->name, k->max_version, c->max_version);
	cr_expect_eq(k->flags, OPVER_KERNEL_STATELESS);
	cr_expect_gt(k->op_data_size, 0);
	cr_expect_null(k->init, "stateless kernels need no init");
	cr_expect_null(k->free);
	cr_expect_not_null(k->prepare);
	cr_expect_not_null(k->invoke);
	cr_assert_eq(k->num_signatures, 1);
	cr_expect_eq(s->inputs[0], OPVER_TYPE_BIT(c->data));
	cr_expect_eq(s->inputs[1], OPVER_TYPE_BIT(c->weights));
	cr_expect_eq(s->inputs[2], OPVER_TYPE_BIT(c->bias) |
					   OPVER_TYPE_BIT(c->other_bias) |
					   OPVER_TYPE_BIT_ABSENT);
	cr_expect_eq(s->output, OPVER_TYPE_BIT(c->output));
}

Test(reference_plugin, exports_only_its_entry_point)
{
	static const char *const internal[] = {
		"ref_fully_connected_float32", "ref_fully_connected_int8",
		"ref_fully_connected_hybrid",  "ref_depthwise_conv_2d_int8",
		"ref_quantize_multiplier",     "ref_activation_range_quantized",
		"ref_per_tensor_quantization", "ref_type_range",
	};

	cr_expect_not_null(dlsym(h.handle, OPVER_PLUGIN_ENTRY_NAME));
	for (size_t i = 0; i < COUNT(internal); i++)
		cr_expect_null(dlsym(h.handle, internal[i]),
			       "%s is exported", internal[i]);
}
