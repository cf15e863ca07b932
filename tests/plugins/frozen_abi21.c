/*
 * frozen_abi21.c - a delegate as a vendor built it against ABI 2.1:
 * compiled with the frozen headers of tests/abi/2.1 only (Makefile.am),
 * never with include/.  It claims every float32 ADD_ONE node (v1-2) and
 * runs each partition the way a device bound to host memory would: it
 * learns where its input and output are in bind_memory, 2.1's hook, and
 * invoke computes y = x + k (k the partition's node count) from what it
 * bound, without looking at the tensors again.
 */
#include <string.h>

#include <opver/plugin.h>

typedef struct bound_partition {
	int32_t nodes;
	size_t elements;
	/* The core's memory, as bind_memory found it. */
	const float *input;
	float *output;
} bound_partition;

static int is_add_one(const opver_node *node)
{
	return node->op == OPVER_OP_CUSTOM && node->custom_name != NULL &&
	       strcmp(node->custom_name, "ADD_ONE") == 0;
}

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	(void)ctx;
	for (int32_t n = 0; n < graph->num_nodes; n++)
		claimed[n] = (uint8_t)is_add_one(graph->nodes[n]);
	return OPVER_OK;
}

/* A chain of ADD_ONE nodes: one input, one output. */
static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	bound_partition *p;

	if (partition->num_inputs != 1 || partition->num_outputs != 1) {
		OPVER_REPORT(ctx, "runs chains of ADD_ONE only");
		return OPVER_ERROR_UNSUPPORTED;
	}
	p = ctx->host->allocate(ctx, sizeof(*p));
	if (p == NULL)
		return OPVER_ERROR_NOMEM;
	p->nodes = partition->num_nodes;
	p->elements = opver_tensor_elements(partition->outputs[0]);
	*partition_data = p;
	return OPVER_OK;
}

static void partition_free(const opver_context *ctx, void *partition_data)
{
	ctx->host->free_memory(ctx, partition_data);
}

static opver_status bind_memory(const opver_context *ctx,
				void *partition_data,
				const opver_partition *partition)
{
	bound_partition *p = partition_data;

	p->input = partition->inputs[0]->data;
	p->output = partition->outputs[0]->data;
	if (p->input == NULL || p->output == NULL) {
		OPVER_REPORT(ctx, "bind_memory before the tensors had memory");
		return OPVER_ERROR;
	}
	return OPVER_OK;
}

static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	const bound_partition *p = partition_data;

	(void)partition;
	if (p->output == NULL) {
		OPVER_REPORT(ctx, "invoked before bind_memory");
		return OPVER_ERROR;
	}
	for (size_t i = 0; i < p->elements; i++)
		p->output[i] = p->input[i] + (float)p->nodes;
	return OPVER_OK;
}

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_delegate_op add_one = {
	OPVER_CUSTOM_DELEGATE_OP("ADD_ONE", 1, 2),
	OPVER_KERNEL_SIGNATURES(float_types),
};
static const opver_delegate_op *const ops[] = { &add_one };

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "bound_2_1",
	OPVER_DELEGATE_OPS(ops),
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.invoke = partition_invoke,
	.bind_memory = bind_memory,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "frozen_abi21",
	.vendor = "opver tests",
	.version = "2.1",
	.delegate = &delegate,
};

OPVER_PLUGIN_ENTRY
{
	return &plugin;
}
