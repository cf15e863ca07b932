/*
 * holding_delegate.c - a delegate that keeps tensors in its own memory, as
 * a device would: it claims every float32 CUSTOM "ADD_ONE" (y = x + 1) and
 * "ADD_PAIR" (y = a + b) node, computes them in "device" buffers of its
 * own (one per tensor index), and sets a buffer handle on every output of
 * each partition, so the core copies a value back (copy_from_handle) only
 * when something else reads it.  Inputs produced elsewhere arrive through
 * copy_to_device.  Counts copies per tensor in services_stats.
 */
#include <string.h>

#include "common.h"
#include "services_stats.h"

__attribute__((visibility("default"))) services_counters services_stats;

/* Tensors the "device" can hold. */
#define DEVICE_TENSORS 16

typedef struct device {
	float *buffers[DEVICE_TENSORS];   /* per tensor index, owned */
} device;

static bool is_op(const opver_node *node, const char *name)
{
	return node->op == OPVER_OP_CUSTOM && node->custom_name != NULL &&
	       strcmp(node->custom_name, name) == 0;
}

/* The index of `tensor` in the graph, or -1. */
static int32_t tensor_index(const opver_graph_view *graph,
			    const opver_tensor *tensor)
{
	for (int32_t t = 0; t < graph->num_tensors; t++)
		if (graph->tensors[t] == tensor)
			return t;
	return -1;
}

/* The device buffer of tensor `t`, allocated on first use. */
static float *buffer(const opver_context *ctx, const opver_graph_view *graph,
		     int32_t t)
{
	device *dev = ctx->plugin_data;

	if (t < 0 || t >= DEVICE_TENSORS)
		return NULL;
	if (dev->buffers[t] == NULL)
		dev->buffers[t] = ctx->host->allocate(ctx,
						      graph->tensors[t]->bytes);
	return dev->buffers[t];
}

static opver_status device_init(const opver_context *ctx,
				const opver_option *options,
				uint32_t num_options, void **plugin_data)
{
	(void)options;
	(void)num_options;
	*plugin_data = ctx->host->allocate(ctx, sizeof(device));
	return *plugin_data != NULL ? OPVER_OK : OPVER_ERROR_NOMEM;
}

static void device_fini(const opver_context *ctx, void *plugin_data)
{
	device *dev = plugin_data;

	for (int t = 0; t < DEVICE_TENSORS; t++)
		ctx->host->free_memory(ctx, dev->buffers[t]);
	ctx->host->free_memory(ctx, dev);
}

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	(void)ctx;
	for (int32_t n = 0; n < graph->num_nodes; n++)
		claimed[n] = is_op(graph->nodes[n], "ADD_ONE") ||
			     is_op(graph->nodes[n], "ADD_PAIR");
	return OPVER_OK;
}

static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	int p = services_stats.partitions++;

	(void)ctx;
	if (p < 4) {
		services_stats.partition_sizes[p] = partition->num_nodes;
		for (int32_t i = 0; i < partition->num_nodes && i < 4; i++)
			services_stats.partition_nodes[p][i] = partition->nodes[i];
	}
	*partition_data = (void *)partition;
	return OPVER_OK;
}

static void partition_free(const opver_context *ctx, void *partition_data)
{
	(void)ctx;
	(void)partition_data;
}

/* Every output stays on the device under a handle: its tensor index.
 * Counts the inputs an earlier partition left on the device. */
static opver_status partition_prepare(const opver_context *ctx,
				      void *partition_data,
				      const opver_partition *partition)
{
	int p = services_stats.partitions - 1;
	uint64_t handle;

	(void)partition_data;
	for (int32_t i = 0; i < partition->num_inputs; i++) {
		if (!ctx->host->buffer_handle(ctx, partition->inputs[i],
					      &handle))
			continue;
		if (handle != (uint64_t)partition->input_indices[i])
			return OPVER_ERROR;
		services_stats.held_inputs[p % 4]++;
	}
	for (int32_t o = 0; o < partition->num_outputs; o++) {
		opver_status status = ctx->host->set_buffer_handle(
			ctx, partition->outputs[o],
			(uint64_t)partition->output_indices[o]);

		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	const opver_graph_view *graph = partition->graph;

	(void)partition_data;
	for (int32_t k = 0; k < partition->num_nodes; k++) {
		const opver_node *node = graph->nodes[partition->nodes[k]];
		float *out = buffer(ctx, graph,
				    tensor_index(graph, node->outputs[0]));
		const float *a = buffer(ctx, graph,
					tensor_index(graph, node->inputs[0]));
		const float *b = is_op(node, "ADD_PAIR") ?
			buffer(ctx, graph, tensor_index(graph, node->inputs[1])) :
			NULL;
		size_t count = opver_tensor_elements(node->outputs[0]);

		if (out == NULL || a == NULL || (is_op(node, "ADD_PAIR") && b == NULL))
			return OPVER_ERROR_NOMEM;
		for (size_t i = 0; i < count; i++)
			out[i] = a[i] + (b != NULL ? b[i] : 1.0f);
	}
	return OPVER_OK;
}

static opver_status copy_to_device(const opver_context *ctx,
				   void *partition_data,
				   const opver_tensor *tensor)
{
	const opver_partition *partition = partition_data;
	float *dev = buffer(ctx, partition->graph,
			    tensor_index(partition->graph, tensor));

	if (dev == NULL)
		return OPVER_ERROR_NOMEM;
	memcpy(dev, tensor->data, tensor->bytes);
	services_stats.copies_to_device++;
	return OPVER_OK;
}

static opver_status copy_from_handle(const opver_context *ctx,
				     void *partition_data, uint64_t handle,
				     opver_tensor *tensor)
{
	const opver_partition *partition = partition_data;
	const float *dev = buffer(ctx, partition->graph, (int32_t)handle);

	if (dev == NULL)
		return OPVER_ERROR_NOMEM;
	memcpy(tensor->data, dev, tensor->bytes);
	services_stats.copies_from_handle[handle % 16]++;
	return OPVER_OK;
}

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32), 0),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_delegate_op add_one = {
	OPVER_CUSTOM_DELEGATE_OP("ADD_ONE", 1, 2),
	OPVER_KERNEL_SIGNATURES(float_types),
};
static const opver_delegate_op add_pair = {
	OPVER_CUSTOM_DELEGATE_OP("ADD_PAIR", 1, 1),
	OPVER_KERNEL_SIGNATURES(float_types),
};
static const opver_delegate_op *const ops[] = { &add_one, &add_pair };

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "holding",
	OPVER_DELEGATE_OPS(ops),
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.prepare = partition_prepare,
	.invoke = partition_invoke,
	.copy_to_device = copy_to_device,
	.copy_from_handle = copy_from_handle,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "holding_delegate",
	.vendor = "opver tests",
	.version = "1",
	.init = device_init,
	.fini = device_fini,
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(plugin)
