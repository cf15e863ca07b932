/*
 * greedy_delegate.c - a vendor plugin for opver-conformance's delegate
 * checks: no kernels, and a delegate whose typed claim is float32 ADD
 * version 1 but which claims every float32 ADD whose inputs have the same
 * shape, whatever the node's version.  The core rejects its claims above
 * v1, which opver-conformance must report; what it does run (float32
 * a + b with the clamp activations) is right, so its v1 partitions match
 * the reference.
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
	return node->op == OPVER_OP_ADD && node->num_inputs == 2 &&
	       node->inputs[0]->type == OPVER_TYPE_FLOAT32 &&
	       node->inputs[1]->type == OPVER_TYPE_FLOAT32 &&
	       same_shape(node->inputs[0], node->inputs[1]) &&
	       same_shape(node->inputs[0], node->outputs[0]);
}

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	(void)ctx;
	/* The bug: node->version is never compared with the declared 1. */
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

static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	(void)ctx;
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

		opver_read_params(node, &params, sizeof(params));
		switch (params.activation) {
		case OPVER_ACTIVATION_RELU:
			lo = 0;
			break;
		case OPVER_ACTIVATION_RELU_N1_TO_1:
			lo = -1;
			hi = 1;
			break;
		case OPVER_ACTIVATION_RELU6:
			lo = 0;
			hi = 6;
			break;
		default:
			break;
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
	TEST_DELEGATE_OP(ADD, 1, 1),
	OPVER_KERNEL_SIGNATURES(float_add),
};
static const opver_delegate_op *const supported[] = { &add };

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "greedy_npu",
	.ops = supported,
	.num_ops = 1,
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.invoke = partition_invoke,
};

static const opver_plugin test_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "greedy_npu",
	.vendor = "opver tests",
	.version = "1",
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(test_plugin)
