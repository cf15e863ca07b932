/* delegate_init_no_free.c - a delegate with a partition init but without
 * the free that 2.0 requires with it: what init makes would leak. */
#include "common.h"

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	(void)ctx;
	(void)graph;
	(void)claimed;
	return OPVER_OK;
}

static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	(void)partition;
	*partition_data = ctx->host->allocate(ctx, 64);
	return *partition_data != NULL ? OPVER_OK : OPVER_ERROR_NOMEM;
}

static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	(void)ctx;
	(void)partition_data;
	(void)partition;
	return OPVER_OK;
}

static const opver_delegate_op add = { TEST_DELEGATE_OP(ADD, 1, 2) };
static const opver_delegate_op *const ops[] = { &add };

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "npu",
	.ops = ops,
	.num_ops = 1,
	.claim = claim,
	.init = partition_init,
	.invoke = partition_invoke,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "delegate_init_no_free",
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(plugin)
