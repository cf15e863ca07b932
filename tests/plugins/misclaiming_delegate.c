/*
 * misclaiming_delegate.c - a vendor plugin for opver-conformance's checks
 * of typed claims: no kernels, and a delegate whose one claim is float32
 * ADD versions 2-3 but which claims every ADD of float32 or int8 inputs
 * of one shape, whatever its version.  The core rejects its claims of v1
 * (below the claim), of v4 and up (above it) and of int8 at any version
 * (types outside its signature), which opver-conformance must report as
 * such; the float32 v2-3 partitions it does run compute a + b with the
 * clamp activations, right, and match the reference.
 */
#include <math.h>
#include <string.h>

#include "common.h"

static bool same_shape(const opver_tensor *a, const opver_tensor *b)
{
	return a->rank == b->rank &&
	       memcmp(a->dims, b->dims, (size_t)a->rank * sizeof(*a->dims)) == 0;
}

static bool takes(const opver_node *node)
{
	int32_t type;

	if (node->op != OPVER_OP_ADD || node->num_inputs != 2)
		return false;
	type = node->inputs[0]->type;
	return (type == OPVER_TYPE_FLOAT32 || type == OPVER_TYPE_INT8) &&
	       node->inputs[1]->type == type &&
	       same_shape(node->inputs[0], node->inputs[1]) &&
	       same_shape(node->inputs[0], node->outputs[0]);
}

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	(void)ctx;
	/* The bugs: neither the version nor int8 is checked against the
	 * typed claim. */
	for (int32_t n = 0; n < graph->num_nodes; n++)
		claimed[n] = takes(graph->nodes[n]);
	return OPVER_OK;
}

static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	(void)ctx;
	(void)partition;
	*partition_data = NULL;
	return OPVER_OK;
}

static void partition_free(const opver_context *ctx, void *partition_data)
{
	(void)ctx;
	(void)partition_data;
}

/* Runs only what the core accepted: float32 ADD. */
static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	(void)partition_data;
	for (int32_t i = 0; i < partition->num_nodes; i++) {
		const opver_node *node =
			partition->graph->nodes[partition->nodes[i]];
		opver_add_params params = OPVER_ADD_PARAMS_DEFAULTS;
		const float *a = node->inputs[0]->data;
		const float *b = node->inputs[1]->data;
		float *y = node->outputs[0]->data;
		size_t count = opver_tensor_elements(node->outputs[0]);
		float lo = -INFINITY, hi = INFINITY;

		if (node->inputs[0]->type != OPVER_TYPE_FLOAT32) {
			OPVER_REPORT(ctx, "given a %s ADD it never declared",
				     ctx->host->type_name(node->inputs[0]->type));
			return OPVER_ERROR_UNSUPPORTED;
		}
		opver_read_params(node, &params, sizeof(params));
		if (params.activation == OPVER_ACTIVATION_RELU ||
		    params.activation == OPVER_ACTIVATION_RELU6)
			lo = 0;
		if (params.activation == OPVER_ACTIVATION_RELU6)
			hi = 6;
		if (params.activation == OPVER_ACTIVATION_RELU_N1_TO_1) {
			lo = -1;
			hi = 1;
		}
		for (size_t e = 0; e < count; e++)
			y[e] = fminf(fmaxf(a[e] + b[e], lo), hi);
	}
	return OPVER_OK;
}

static const opver_type_signature float_add[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_delegate_op add = {
	TEST_DELEGATE_OP(ADD, 2, 3),
	OPVER_KERNEL_SIGNATURES(float_add),
};
static const opver_delegate_op *const supported[] = { &add };

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "misclaiming_npu",
	.ops = supported,
	.num_ops = 1,
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.invoke = partition_invoke,
};

static const opver_plugin test_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "misclaiming_npu",
	.vendor = "opver tests",
	.version = "1",
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(test_plugin)
