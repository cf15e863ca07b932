/*
 * random_delegate.c - a delegate for the partitioning property test: it
 * claims a pseudo-random subset of the float32 ADD nodes, drawn from its
 * `seed` option, so that over many seeds the core meets every shape of
 * claim (runs, gaps, claims that would close a cycle through a kernel
 * node).  What it runs is right (a + b, no activation: the test model has
 * none), so every seed must give the reference plugin's outputs.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"

static opver_status seed_init(const opver_context *ctx,
			      const opver_option *options,
			      uint32_t num_options, void **plugin_data)
{
	uint64_t *seed = ctx->host->allocate(ctx, sizeof(*seed));

	if (seed == NULL)
		return OPVER_ERROR_NOMEM;
	*seed = 0;
	for (uint32_t i = 0; i < num_options; i++)
		if (strcmp(options[i].key, "seed") == 0)
			*seed = strtoull(options[i].value, NULL, 10);
	*plugin_data = seed;
	return OPVER_OK;
}

static void seed_fini(const opver_context *ctx, void *plugin_data)
{
	ctx->host->free_memory(ctx, plugin_data);
}

/* splitmix64 of (seed, node): one fair coin per node and seed. */
static bool coin(uint64_t seed, int32_t node)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15u + (uint64_t)node + 1;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return ((z ^ (z >> 31)) & 1) != 0;
}

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	const uint64_t seed = *(const uint64_t *)ctx->plugin_data;

	for (int32_t n = 0; n < graph->num_nodes; n++)
		claimed[n] = graph->nodes[n]->op == OPVER_OP_ADD &&
			     graph->nodes[n]->outputs[0]->type ==
				     OPVER_TYPE_FLOAT32 &&
			     coin(seed, n);
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
		const float *a = node->inputs[0]->data;
		const float *b = node->inputs[1]->data;
		float *y = node->outputs[0]->data;
		size_t count = opver_tensor_elements(node->outputs[0]);

		for (size_t e = 0; e < count; e++)
			y[e] = a[e] + b[e];
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
static const opver_delegate_op *const ops[] = { &add };

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "random",
	OPVER_DELEGATE_OPS(ops),
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.invoke = partition_invoke,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "random_delegate",
	.vendor = "opver tests",
	.version = "1",
	.init = seed_init,
	.fini = seed_fini,
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(plugin)
