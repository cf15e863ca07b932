/*
 * test_xnnpack_quant.c - the XNNPACK delegate's int8 and uint8 nodes on
 * small models built here (tools/conformance/model_builder.c), each run in
 * one runtime with the delegate and in one with the reference plugin
 * alone: the delegate must take the nodes it claims and land within one
 * step of the reference (XNNPACK rescales once, in float).  Every test
 * skips when configure did not find XNNPACK.
 *
 * PAD before a convolution: XNNPACK fuses a constant PAD into the CONV_2D
 * or DEPTHWISE_CONV_2D that follows when the padding byte is the zero
 * point, a comparison that sign-extends an int8 padding byte on one side
 * only: in this build an int8 PAD with a negative zero point is never
 * fused (it runs as a node of its own, correct but slower), one with a
 * positive zero point is.  The models here cover both, so that a fusion
 * that goes wrong (another XNNPACK build) fails.
 *
 * Boundary tensors: XNNPACK reads and writes them where the core put them
 * (bind_memory), so the delegate has no copy hooks and sets no buffer
 * handles; partitions on either side of a kernel exchange tensors in place.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <opver/plugin.h>

#include "conformance/model_builder.h"
#include "runtime_fixture.h"

#define WITH_XNNPACK                                            \
	"[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"  \
	"[plugin.xnnpack]\nlibrary = " XNNPACK_PLUGIN "\n"
#define REFERENCE_ONLY "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"

static messages captured;

static void require_plugin(void)
{
	if (access(XNNPACK_PLUGIN, R_OK) != 0)
		cr_skip_test("the XNNPACK plugin was not built (configure found no XNNPACK)");
}

/* An interpreter of `desc` in a runtime over `config`, its inputs filled
 * with the same pseudo-random bytes whatever the config. */
typedef struct run {
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *it;
} run;

static void start(run *r, const char *config, const cf_model_desc *desc)
{
	uint8_t *bytes;
	size_t size;
	char error[256];
	uint32_t state = 12345;

	r->runtime = fixture_runtime(config, &captured);
	cr_assert(cf_build_model(desc, &bytes, &size, error, sizeof(error)),
		  "%s", error);
	cr_assert_eq(opver_model_open_memory(r->runtime, bytes, size,
					     &r->model),
		     OPVER_OK, "%s", captured.text);
	free(bytes);
	cr_assert_eq(opver_interpreter_create(r->runtime, r->model, &r->it),
		     OPVER_OK, "%s", captured.text);
	for (size_t i = 0; i < opver_interpreter_input_count(r->it); i++) {
		opver_tensor *in = opver_interpreter_input(r->it, i);
		uint8_t *data = in->data;

		for (size_t b = 0; b < in->bytes; b++) {
			state = state * 1103515245u + 12345u;
			data[b] = (uint8_t)(state >> 16);
		}
	}
	cr_assert_eq(opver_interpreter_invoke(r->it), OPVER_OK, "%s",
		     captured.text);
}

static void stop(run *r)
{
	opver_interpreter_destroy(r->it);
	opver_model_close(r->model);
	opver_runtime_destroy(r->runtime);
}

/* The element of an 8-bit tensor. */
static int byte_at(const opver_tensor *t, size_t i)
{
	return t->type == OPVER_TYPE_INT8 ? ((const int8_t *)t->data)[i] :
					    ((const uint8_t *)t->data)[i];
}

/* Runs `desc` with and without the delegate; asserts that nodes `claimed`
 * (a mask of node indices) ran on it, the others not, and that every
 * output element is within `steps` of the reference's; returns how many
 * elements differ at all. */
static size_t compare(const cf_model_desc *desc, uint32_t claimed, int steps)
{
	run x, ref;
	const opver_tensor *got, *want;
	size_t differ = 0;

	start(&x, WITH_XNNPACK, desc);
	start(&ref, REFERENCE_ONLY, desc);
	for (size_t n = 0; n < opver_interpreter_node_count(x.it); n++) {
		opver_node_info info;
		bool delegated;

		cr_assert_eq(opver_interpreter_node_info(x.it, n, &info),
			     OPVER_OK);
		delegated = info.delegate != NULL &&
			    strcmp(info.delegate, "xnnpack") == 0;
		cr_assert_eq(delegated, (claimed >> n & 1) != 0,
			     "node %zu %s the delegate\n%s", n,
			     delegated ? "ran on" : "did not run on",
			     captured.text);
	}
	got = opver_interpreter_output(x.it, 0);
	want = opver_interpreter_output(ref.it, 0);
	cr_assert_eq(got->bytes, want->bytes);
	for (size_t i = 0; i < want->bytes; i++) {
		int d = abs(byte_at(got, i) - byte_at(want, i));

		cr_expect_leq(d, steps, "element %zu: delegate %d, reference %d",
			      i, byte_at(got, i), byte_at(want, i));
		differ += d != 0;
	}
	stop(&x);
	stop(&ref);
	return differ;
}

/* PAD then a SAME, stride-2 CONV_2D or DEPTHWISE_CONV_2D, int8 with zero
 * point `zero`; the convolution's own padding is that zero point too. */
static void pad_then_conv(int64_t zero, int32_t op)
{
	static const float in_scale[1] = { 0.05f }, out_scale[1] = { 0.2f };
	static const float w_scale[1] = { 0.01f };
	static const int64_t out_zero[1] = { 3 }, w_zero[1] = { 0 };
	static const int32_t pads[8] = { 0, 0, 1, 2, 2, 1, 0, 0 };
	const int64_t in_zero[1] = { zero };
	bool dw = op == OPVER_OP_DEPTHWISE_CONV_2D;
	int8_t weights[3 * 3 * 3 * 3];
	const cf_tensor_desc tensors[5] = {
		{ .type = OPVER_TYPE_INT8, .rank = 4, .dims = { 1, 5, 5, 3 },
		  .quantized = true, .num_scales = 1, .scales = in_scale,
		  .zero_points = in_zero },
		{ .type = OPVER_TYPE_INT32, .rank = 2, .dims = { 4, 2 },
		  .data = pads, .data_size = sizeof(pads) },
		{ .type = OPVER_TYPE_INT8, .rank = 4, .dims = { 1, 8, 8, 3 },
		  .quantized = true, .num_scales = 1, .scales = in_scale,
		  .zero_points = in_zero },
		{ .type = OPVER_TYPE_INT8, .rank = 4,
		  .dims = { dw ? 1 : 3, 3, 3, dw ? 3 : 3 },
		  .quantized = true, .num_scales = 1, .scales = w_scale,
		  .zero_points = w_zero, .data = weights,
		  .data_size = dw ? sizeof(weights) / 3 : sizeof(weights) },
		{ .type = OPVER_TYPE_INT8, .rank = 4, .dims = { 1, 4, 4, 3 },
		  .quantized = true, .num_scales = 1, .scales = out_scale,
		  .zero_points = out_zero },
	};
	const cf_opcode_desc codes[2] = { { OPVER_OP_PAD, 2, NULL },
					  { op, 3, NULL } };
	const opver_conv_params conv = {
		.padding = OPVER_PADDING_SAME, .stride_width = 2,
		.stride_height = 2, .dilation_width = 1,
		.dilation_height = 1,
	};
	const opver_depthwise_conv_params depthwise = {
		.padding = OPVER_PADDING_SAME, .stride_width = 2,
		.stride_height = 2, .depth_multiplier = 1,
		.dilation_width = 1, .dilation_height = 1,
	};
	const int32_t pad_in[2] = { 0, 1 }, pad_out[1] = { 2 };
	const int32_t conv_in[3] = { 2, 3, -1 }, conv_out[1] = { 4 };
	const cf_operator_desc ops[2] = {
		{ 0, pad_in, 2, pad_out, 1, NULL, NULL, 0 },
		{ 1, conv_in, 3, conv_out, 1,
		  dw ? (const void *)&depthwise : (const void *)&conv, NULL, 0 },
	};
	const int32_t inputs[1] = { 0 }, outputs[1] = { 4 };
	const cf_model_desc desc = { tensors, 5, codes, 2, ops, 2,
				     inputs, 1, outputs, 1 };

	require_plugin();
	for (size_t i = 0; i < sizeof(weights); i++)
		weights[i] = (int8_t)((int)(i * 37 % 255) - 127);
	compare(&desc, 0x3, 1);
}

Test(xnnpack_quant, pad_with_negative_zero_point_before_conv)
{
	pad_then_conv(-5, OPVER_OP_CONV_2D);
	pad_then_conv(-128, OPVER_OP_CONV_2D);
}

Test(xnnpack_quant, pad_with_negative_zero_point_before_depthwise)
{
	pad_then_conv(-5, OPVER_OP_DEPTHWISE_CONV_2D);
	pad_then_conv(-1, OPVER_OP_DEPTHWISE_CONV_2D);
}

Test(xnnpack_quant, pad_with_positive_zero_point_before_conv)
{
	pad_then_conv(7, OPVER_OP_CONV_2D);
	pad_then_conv(7, OPVER_OP_DEPTHWISE_CONV_2D);
}

/* A quantized AVERAGE_POOL_2D (version `version`) of `type` over an input
 * of `h` x `w` pixels with a `fh` x `fw` VALID window, stride 1. */
static size_t average_pool(opver_type type, int32_t version, int32_t h,
			   int32_t w, int32_t fh, int32_t fw, uint32_t claimed)
{
	static const float scale[1] = { 0.07f };
	const int64_t zero[1] = { type == OPVER_TYPE_INT8 ? -3 : 131 };
	const cf_tensor_desc tensors[2] = {
		{ .type = type, .rank = 4, .dims = { 2, h, w, 5 },
		  .quantized = true, .num_scales = 1, .scales = scale,
		  .zero_points = zero },
		{ .type = type, .rank = 4,
		  .dims = { 2, h - fh + 1, w - fw + 1, 5 },
		  .quantized = true, .num_scales = 1, .scales = scale,
		  .zero_points = zero },
	};
	const cf_opcode_desc code = { OPVER_OP_AVERAGE_POOL_2D, version,
				      NULL };
	const opver_pool_params pool = {
		.padding = OPVER_PADDING_VALID, .stride_width = 1,
		.stride_height = 1, .filter_width = fw, .filter_height = fh,
	};
	const int32_t in[1] = { 0 }, out[1] = { 1 };
	const cf_operator_desc op = { 0, in, 1, out, 1, &pool, NULL, 0 };
	const cf_model_desc desc = { tensors, 2, &code, 1, &op, 1,
				     in, 1, out, 1 };

	return compare(&desc, claimed, 1);
}

/* XNNPACK's global average pooling; TFLite rounds ties away from zero,
 * XNNPACK to even, so a few elements are a step apart. */
Test(xnnpack_quant, global_average_pool_runs_on_the_delegate)
{
	require_plugin();
	average_pool(OPVER_TYPE_INT8, 2, 4, 6, 4, 6, 0x1);
	average_pool(OPVER_TYPE_UINT8, 1, 3, 2, 3, 2, 0x1);
}

Test(xnnpack_quant, other_quantized_average_pools_stay_on_the_kernels)
{
	require_plugin();
	average_pool(OPVER_TYPE_INT8, 2, 4, 6, 2, 3, 0x0);
}

/* The uint8 claim ends at version 1 (TFLite's version 2 is int8). */
Test(xnnpack_quant, versions_above_the_claim_stay_on_the_kernels)
{
	require_plugin();
	average_pool(OPVER_TYPE_UINT8, 2, 3, 2, 3, 2, 0x0);
}

/* Declines: the plugin must load here. */
static const opver_plugin *no_decline(const opver_negotiation *n,
				      const char *format, ...)
{
	(void)n;
	cr_assert_fail("the XNNPACK plugin declined: %s", format);
	return NULL;
}

/* int8 RESHAPEs: the first and last stay at one scale and go to the
 * delegate, the middle one rescales and stays on a kernel, so the model
 * runs as two partitions and a kernel between them. */
Test(xnnpack_quant, partitions_around_a_kernel_share_tensors_without_copies)
{
	static const float scale_a[1] = { 0.1f }, scale_b[1] = { 0.2f };
	static const int64_t zero[1] = { -7 };
	static const int32_t shape[2] = { 6, 5 };
	const cf_tensor_desc tensors[5] = {
		{ .type = OPVER_TYPE_INT8, .rank = 2, .dims = { 6, 5 },
		  .quantized = true, .num_scales = 1, .scales = scale_a,
		  .zero_points = zero },
		{ .type = OPVER_TYPE_INT8, .rank = 2, .dims = { 6, 5 },
		  .quantized = true, .num_scales = 1, .scales = scale_a,
		  .zero_points = zero },
		{ .type = OPVER_TYPE_INT8, .rank = 2, .dims = { 6, 5 },
		  .quantized = true, .num_scales = 1, .scales = scale_b,
		  .zero_points = zero },
		{ .type = OPVER_TYPE_INT8, .rank = 2, .dims = { 6, 5 },
		  .quantized = true, .num_scales = 1, .scales = scale_b,
		  .zero_points = zero },
		{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { 2 },
		  .data = shape, .data_size = sizeof(shape) },
	};
	const cf_opcode_desc code = { OPVER_OP_RESHAPE, 1, NULL };
	const opver_reshape_params reshape = { .num_dims = 2,
					       .dims = { 6, 5 } };
	const int32_t in0[2] = { 0, 4 }, in1[2] = { 1, 4 }, in2[2] = { 2, 4 };
	const int32_t out0[1] = { 1 }, out1[1] = { 2 }, out2[1] = { 3 };
	const cf_operator_desc nodes[3] = {
		{ 0, in0, 2, out0, 1, &reshape, NULL, 0 },
		{ 0, in1, 2, out1, 1, &reshape, NULL, 0 },
		{ 0, in2, 2, out2, 1, &reshape, NULL, 0 },
	};
	const cf_model_desc desc = { tensors, 5, &code, 1, nodes, 3,
				     in0, 1, out2, 1 };
	const opver_negotiation negotiation = {
		.struct_size = sizeof(negotiation),
		.host_abi_major = OPVER_ABI_MAJOR,
		.host_abi_minor = OPVER_ABI_MINOR,
		.decline = no_decline,
	};
	opver_plugin_entry_fn entry;
	const opver_plugin *plugin;
	void *library;

	require_plugin();
	compare(&desc, 0x5, 0);
	/* Nothing for the core to copy through: no hook to copy with. */
	library = dlopen(XNNPACK_PLUGIN, RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(library, "%s", dlerror());
	*(void **)&entry = dlsym(library, OPVER_PLUGIN_ENTRY_NAME);
	cr_assert_not_null(entry);
	plugin = entry(&negotiation);
	cr_assert_not_null(plugin->delegate);
	cr_assert_null(plugin->delegate->copy_to_device);
	cr_assert_null(plugin->delegate->copy_from_handle);
	cr_assert_not_null(plugin->delegate->bind_memory);
	dlclose(library);
}

/* int8 `op` (RESHAPE or MUL, whose second input is the first) from
 * scale `in` to scale `out`. */
static void rescaled(int32_t op, float in, float out, uint32_t claimed)
{
	const float in_scale[1] = { in }, out_scale[1] = { out };
	static const int64_t zero[1] = { -7 };
	static const int32_t shape[2] = { 6, 5 };
	bool mul = op == OPVER_OP_MUL;
	const cf_tensor_desc tensors[3] = {
		{ .type = OPVER_TYPE_INT8, .rank = 3, .dims = { 2, 3, 5 },
		  .quantized = true, .num_scales = 1, .scales = in_scale,
		  .zero_points = zero },
		{ .type = OPVER_TYPE_INT8, .rank = mul ? 3 : 2,
		  .dims = { mul ? 2 : 6, mul ? 3 : 5, 5 },
		  .quantized = true, .num_scales = 1, .scales = out_scale,
		  .zero_points = zero },
		{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { 2 },
		  .data = shape, .data_size = sizeof(shape) },
	};
	const cf_opcode_desc code = { op, mul ? 2 : 1, NULL };
	const opver_reshape_params reshape = { .num_dims = 2,
					       .dims = { 6, 5 } };
	const opver_mul_params product = { .activation = 0 };
	const int32_t in_ids[2] = { 0, mul ? 0 : 2 }, out_ids[1] = { 1 };
	const cf_operator_desc node = {
		0, in_ids, 2, out_ids, 1,
		mul ? (const void *)&product : (const void *)&reshape,
		NULL, 0,
	};
	const cf_model_desc desc = { tensors, 3, &code, 1, &node, 1,
				     in_ids, 1, out_ids, 1 };

	compare(&desc, claimed, mul ? 1 : 0);
}

/* XNNPACK's RESHAPE copies and its creation fails when the scales
 * differ, where TFLite's copies too: such a node stays on the kernels,
 * as does a MUL whose scale ratio is outside XNNPACK's range. */
Test(xnnpack_quant, nodes_xnnpack_would_refuse_stay_on_the_kernels)
{
	require_plugin();
	rescaled(OPVER_OP_RESHAPE, 0.1f, 0.1f, 0x1);
	rescaled(OPVER_OP_RESHAPE, 0.1f, 0.2f, 0x0);
	rescaled(OPVER_OP_MUL, 0.1f, 0.05f, 0x1);
	rescaled(OPVER_OP_MUL, 0.1f, 1e-5f, 0x0);
}
