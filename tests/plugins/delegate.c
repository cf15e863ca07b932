/*
 * delegate.c - a test plugin with a hardware delegate and no kernels.  It
 * declares CUSTOM "ADD_ONE" version 1 on float32 but claims every ADD_ONE
 * node whatever its version, so the core must reject the claims above v1.
 *
 * Its "device" is memory of its own: each partition keeps its outputs
 * there under buffer handles (set in prepare, the handle being the
 * memory's address) and computes y = x + 1 per node, reading an input
 * another of its partitions holds from that memory too.  The core copies
 * an output to the tensor (copy_from_handle) only when something else
 * reads it: a kernel or the application.  Counts every callback in
 * test_stats; stats.h's copies_from_device counts copy_from_handle, 2.0's
 * successor of 1.0's copy_from_device.  bind_memory records where the
 * partition's tensors are, and invoke checks they are still there; the
 * option `fail = bind_memory` makes bind_memory fail, and `fail =
 * new_shapes` makes prepare refuse an input of another size than the
 * first prepare saw, as a delegate built for fixed shapes would;
 * `fail_claim = N` makes the Nth claim fail; `keep =
 * table` makes prepare keep a large table in persistent memory (beyond
 * malloc's mmap threshold, so that a read after the core frees it
 * faults) that free reads, as a delegate releasing device objects
 * listed there would.  Not thread-safe:
 * the partitions alive are one list for the whole plugin.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "stats.h"

__attribute__((visibility("default"))) test_counters test_stats;

/* The most outputs of a partition kept on the device. */
#define MAX_HELD 8
/* `keep = table`: 4 MiB, past glibc's mmap threshold for a first
 * allocation, and the value free expects at its end. */
#define TABLE_WORDS (1u << 20)
#define TABLE_MARK 0x7ab1e5u

typedef struct npu_partition {
	const opver_partition *view;    /* the core's; valid until free */
	/* Each output's value on the device, under its buffer handle. */
	float *memory[MAX_HELD];
	/* Input 0's and output 0's data at the last bind_memory; the
	 * core's. */
	const void *bound_input;
	const void *bound_output;
	/* `keep = table`: persistent memory from prepare, read in free. */
	const uint32_t *table;
	struct npu_partition *next;
} npu_partition;

/* The partitions between init and free. */
static npu_partition *alive;

static bool is_add_one(const opver_node *node)
{
	return node->op == OPVER_OP_CUSTOM && node->custom_name != NULL &&
	       strcmp(node->custom_name, "ADD_ONE") == 0;
}

/* `fail_claim = N`: the Nth claim since the plugin's init fails (0:
 * none), and how many claims there were. */
static int fail_claim;
static int claims_since_init;

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	if (++claims_since_init == fail_claim) {
		OPVER_REPORT(ctx, "claim %d fails, as configured (fail_claim)",
			     claims_since_init);
		return OPVER_ERROR_UNSUPPORTED;
	}
	/* The bug the core must catch: no version check. */
	for (int32_t n = 0; n < graph->num_nodes; n++)
		claimed[n] = is_add_one(graph->nodes[n]);
	test_stats.claims++;
	return OPVER_OK;
}

/* Frees the device memory of p, and p. */
static void release(const opver_context *ctx, npu_partition *p)
{
	for (int i = 0; i < MAX_HELD; i++)
		if (p->memory[i] != NULL)
			ctx->host->free_memory(ctx, p->memory[i]);
	ctx->host->free_memory(ctx, p);
}

static void partition_free(const opver_context *ctx, void *partition_data)
{
	npu_partition *p = partition_data;

	if (p->table != NULL && p->table[TABLE_WORDS - 1] != TABLE_MARK)
		test_stats.tables_lost++;
	for (npu_partition **link = &alive; *link != NULL;
	     link = &(*link)->next) {
		if (*link == p) {
			*link = p->next;
			break;
		}
	}
	release(ctx, p);
	test_stats.partition_frees++;
}

static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	npu_partition *p;

	if (test_stats.partition_inits < 8)
		test_stats.partition_sizes[test_stats.partition_inits] =
			partition->num_nodes;
	test_stats.partition_inits++;
	if (partition->num_outputs > MAX_HELD) {
		OPVER_REPORT(ctx, "at most %d partition outputs, not %d",
			     MAX_HELD, (int)partition->num_outputs);
		return OPVER_ERROR_UNSUPPORTED;
	}
	p = ctx->host->allocate(ctx, sizeof(*p));
	if (p == NULL)
		return OPVER_ERROR_NOMEM;
	for (int32_t o = 0; o < partition->num_outputs; o++) {
		p->memory[o] = ctx->host->allocate(ctx,
						   partition->outputs[o]->bytes);
		if (p->memory[o] == NULL) {
			release(ctx, p);
			return OPVER_ERROR_NOMEM;
		}
	}
	p->view = partition;
	p->next = alive;
	alive = p;
	*partition_data = p;
	return OPVER_OK;
}

/* Whether prepare refuses new shapes (`fail = new_shapes`), and the
 * size of input 0 at the first prepare since the plugin's init (0:
 * none yet). */
static bool fail_new_shapes;
static size_t first_input_bytes;
static bool keep_table;

/* Keeps every output on the device. */
static opver_status partition_prepare(const opver_context *ctx,
				      void *partition_data,
				      const opver_partition *partition)
{
	npu_partition *p = partition_data;

	if (first_input_bytes == 0)
		first_input_bytes = partition->inputs[0]->bytes;
	if (fail_new_shapes && partition->inputs[0]->bytes != first_input_bytes) {
		OPVER_REPORT(ctx, "input 0 has %zu bytes; this device runs %zu only",
			     partition->inputs[0]->bytes, first_input_bytes);
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (keep_table) {
		uint32_t *table = ctx->host->allocate_persistent(
			ctx, TABLE_WORDS * sizeof(*table));

		if (table == NULL)
			return OPVER_ERROR_NOMEM;
		table[TABLE_WORDS - 1] = TABLE_MARK;
		p->table = table;
	}

	for (int32_t o = 0; o < partition->num_outputs; o++) {
		opver_status status = ctx->host->set_buffer_handle(
			ctx, partition->outputs[o],
			(uint64_t)(uintptr_t)p->memory[o]);

		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

static opver_status partition_bind_memory(const opver_context *ctx,
					  void *partition_data,
					  const opver_partition *partition)
{
	npu_partition *p = partition_data;
	const bool *fail = ctx->plugin_data;

	test_stats.memory_binds++;
	if (partition->inputs[0]->data == NULL ||
	    partition->outputs[0]->data == NULL)
		test_stats.binds_without_memory++;
	p->bound_input = partition->inputs[0]->data;
	p->bound_output = partition->outputs[0]->data;
	if (*fail) {
		OPVER_REPORT(ctx, "the device cannot map this memory");
		return OPVER_ERROR_UNSUPPORTED;
	}
	return OPVER_OK;
}

/* Where tensor t's value is: on the device when a partition holds it,
 * else at its data. */
static float *value_of(const opver_tensor *t)
{
	for (const npu_partition *p = alive; p != NULL; p = p->next)
		for (int32_t o = 0; o < p->view->num_outputs; o++)
			if (p->view->outputs[o] == t)
				return p->memory[o];
	return t->data;
}

static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	const npu_partition *p = partition_data;

	(void)ctx;
	if (partition->inputs[0]->data != p->bound_input ||
	    partition->outputs[0]->data != p->bound_output)
		test_stats.invokes_off_bound_memory++;
	for (int32_t i = 0; i < partition->num_nodes; i++) {
		const opver_node *node =
			partition->graph->nodes[partition->nodes[i]];
		const float *x = value_of(node->inputs[0]);
		float *y = value_of(node->outputs[0]);
		size_t count = opver_tensor_elements(node->outputs[0]);

		for (size_t e = 0; e < count; e++)
			y[e] = x[e] + 1.0f;
	}
	test_stats.partition_invokes++;
	return OPVER_OK;
}

/* Inputs are read where they are, in invoke: only counted here. */
static opver_status copy_to_device(const opver_context *ctx,
				   void *partition_data,
				   const opver_tensor *tensor)
{
	(void)ctx;
	(void)partition_data;
	(void)tensor;
	test_stats.copies_to_device++;
	return OPVER_OK;
}

static opver_status copy_from_handle(const opver_context *ctx,
				     void *partition_data, uint64_t handle,
				     opver_tensor *tensor)
{
	(void)ctx;
	(void)partition_data;
	memcpy(tensor->data, (const void *)(uintptr_t)handle, tensor->bytes);
	test_stats.copies_from_device++;
	return OPVER_OK;
}

/* Whether bind_memory fails: the option `fail = bind_memory`. */
static bool fail_bind_memory;

static opver_status plugin_init(const opver_context *ctx,
				const opver_option *options,
				uint32_t num_options, void **plugin_data)
{
	fail_bind_memory = false;
	fail_new_shapes = false;
	first_input_bytes = 0;
	keep_table = false;
	fail_claim = 0;
	claims_since_init = 0;
	for (uint32_t i = 0; i < num_options; i++) {
		bool bind = strcmp(options[i].value, "bind_memory") == 0;

		if (strcmp(options[i].key, "fail_claim") == 0) {
			fail_claim = atoi(options[i].value);
			continue;
		}

		if (strcmp(options[i].key, "keep") == 0 &&
		    strcmp(options[i].value, "table") == 0) {
			keep_table = true;
			continue;
		}
		if (strcmp(options[i].key, "fail") != 0 ||
		    (!bind && strcmp(options[i].value, "new_shapes") != 0)) {
			OPVER_REPORT(ctx, "unknown option %s = %s",
				     options[i].key, options[i].value);
			return OPVER_ERROR_INVALID_ARGUMENT;
		}
		if (bind)
			fail_bind_memory = true;
		else
			fail_new_shapes = true;
	}
	*plugin_data = &fail_bind_memory;
	return OPVER_OK;
}

static const opver_type_signature float_to_float[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_delegate_op add_one = {
	TEST_DELEGATE_OP(CUSTOM, 1, 1),
	.custom_name = "ADD_ONE",
	OPVER_KERNEL_SIGNATURES(float_to_float),
};
static const opver_delegate_op *const supported[] = { &add_one };

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "test_npu",
	.ops = supported,
	.num_ops = 1,
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.prepare = partition_prepare,
	.invoke = partition_invoke,
	.copy_to_device = copy_to_device,
	.copy_from_handle = copy_from_handle,
	.bind_memory = partition_bind_memory,
};

static const opver_plugin test_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "test_npu",
	.vendor = "opver tests",
	.version = "1",
	.init = plugin_init,
	.delegate = &delegate,
};

TEST_PLUGIN_ENTRY(test_plugin)
