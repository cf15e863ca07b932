/* delegate_no_claim.c - a delegate without its required claim callback. */
#include "common.h"

static opver_status partition_init(const opver_host *host, void *plugin_data,
				   const opver_partition *partition,
				   void **partition_data)
{
	(void)host;
	(void)plugin_data;
	(void)partition;
	*partition_data = NULL;
	return OPVER_OK;
}

static opver_status partition_invoke(const opver_host *host,
				     void *partition_data,
				     const opver_partition *partition)
{
	(void)host;
	(void)partition_data;
	(void)partition;
	return OPVER_OK;
}

static const opver_delegate_op ops[] = {
	{ .op = OPVER_OP_ADD, .max_version = 2 },
};

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "npu",
	.ops = ops,
	.num_ops = 1,
	.init = partition_init,
	.invoke = partition_invoke,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "delegate_no_claim",
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(plugin)
