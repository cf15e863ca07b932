/*
 * delegate.c - a test plugin with a hardware delegate and no kernels.  It
 * declares CUSTOM "ADD_ONE" up to version 1 but claims every ADD_ONE node
 * whatever its version, so the core must reject the claims above v1.  Its
 * partitions compute y = x + 1 per node on host memory, and count every
 * callback in test_stats.
 */
#include <string.h>

#include "common.h"
#include "stats.h"

__attribute__((visibility("default"))) test_counters test_stats;

static bool is_add_one(const opver_node *node)
{
	return node->op == OPVER_OP_CUSTOM && node->custom_name != NULL &&
	       strcmp(node->custom_name, "ADD_ONE") == 0;
}

static opver_status claim(const opver_host *host, void *plugin_data,
			  const opver_graph_view *graph, bool *claimed)
{
	(void)host;
	(void)plugin_data;
	for (int32_t n = 0; n < graph->num_nodes; n++)
		claimed[n] = is_add_one(graph->nodes[n]);
	test_stats.claims++;
	return OPVER_OK;
}

static opver_status partition_init(const opver_host *host, void *plugin_data,
				   const opver_partition *partition,
				   void **partition_data)
{
	(void)host;
	(void)plugin_data;
	if (test_stats.partition_inits < 8)
		test_stats.partition_sizes[test_stats.partition_inits] =
			partition->num_nodes;
	test_stats.partition_inits++;
	*partition_data = &test_stats;
	return OPVER_OK;
}

static void partition_free(const opver_host *host, void *partition_data)
{
	(void)host;
	(void)partition_data;
	test_stats.partition_frees++;
}

static opver_status partition_invoke(const opver_host *host,
				     void *partition_data,
				     const opver_partition *partition)
{
	(void)host;
	(void)partition_data;
	for (int32_t i = 0; i < partition->num_nodes; i++) {
		const opver_node *node =
			partition->graph->nodes[partition->nodes[i]];
		const float *x = node->inputs[0]->data;
		float *y = node->outputs[0]->data;
		size_t count = opver_tensor_elements(node->outputs[0]);

		for (size_t e = 0; e < count; e++)
			y[e] = x[e] + 1.0f;
	}
	test_stats.partition_invokes++;
	return OPVER_OK;
}

static opver_status copy_to_device(const opver_host *host,
				   void *partition_data,
				   const opver_tensor *tensor)
{
	(void)host;
	(void)partition_data;
	(void)tensor;
	test_stats.copies_to_device++;
	return OPVER_OK;
}

static opver_status copy_from_device(const opver_host *host,
				     void *partition_data, opver_tensor *tensor)
{
	(void)host;
	(void)partition_data;
	(void)tensor;
	test_stats.copies_from_device++;
	return OPVER_OK;
}

static const opver_delegate_op supported[] = {
	{ .op = OPVER_OP_CUSTOM, .custom_name = "ADD_ONE", .max_version = 1 },
};

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "test_npu",
	.ops = supported,
	.num_ops = 1,
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.invoke = partition_invoke,
	.copy_to_device = copy_to_device,
	.copy_from_device = copy_from_device,
};

static const opver_kernel *const no_kernels[1];

static const opver_plugin test_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "test_npu",
	.vendor = "opver tests",
	.version = "1",
	.kernels = no_kernels,
	.num_kernels = 0,
	.delegate = &delegate,
};

OPVER_PLUGIN_ENTRY
{
	return &test_plugin;
}
