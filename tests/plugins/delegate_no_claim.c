/* delegate_no_claim.c - a delegate without its required claim callback. */
#include "common.h"

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
	.init = partition_init,
	.free = partition_free,
	.invoke = partition_invoke,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "delegate_no_claim",
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(plugin)
