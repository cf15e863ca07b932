/*
 * services.c - exercises every host service of ABI 2.0 from a kernel:
 * CUSTOM "TRIPLE" (v1, float32): y = 3x, computed one element per task of
 * parallel_for, with a factor kept in persistent memory allocated through
 * the services table the plugin cached at init (one table serves every
 * call), two scratch buffers requested in prepare and filled in invoke,
 * op and type names, and nested profile events "triple" and "scratch".
 * Whatever goes wrong fails the callback with a message saying what.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "common.h"
#include "services_stats.h"

__attribute__((visibility("default"))) services_counters services_stats;
/* Interpreters on different threads update services_stats. */
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

/* Bytes of the first scratch buffer; the second has a byte per task. */
#define SCRATCH_BYTES 1000

/* The table plugin init saw: 2.0 promises one table from init to fini. */
static const opver_host *cached_host;

typedef struct triple_data {
	int32_t scratch;
	int32_t per_task;
	float *factor;          /* persistent */
} triple_data;

typedef struct triple_job {
	const float *in;
	float *out;
	float factor;
	uint8_t *task_thread;   /* per task: the thread that ran it */
	atomic_int tasks_run;
} triple_job;

static opver_status services_init(const opver_context *ctx,
				  const opver_option *options,
				  uint32_t num_options, void **plugin_data)
{
	(void)options;
	(void)num_options;
	(void)plugin_data;
	cached_host = ctx->host;
	return OPVER_OK;
}

static opver_status triple_prepare(const opver_context *ctx,
				   opver_node *node)
{
	triple_data *data = node->op_data;
	const opver_tensor *in = node->inputs[0];
	const char *op = ctx->host->op_name(OPVER_OP_FULLY_CONNECTED);
	const char *type = ctx->host->type_name(OPVER_TYPE_INT8);

	pthread_mutex_lock(&stats_lock);
	services_stats.prepares++;
	pthread_mutex_unlock(&stats_lock);
	if (op[0] != 'F' || type[0] != 'I' || type[2] != 'T') {
		OPVER_REPORT(ctx, "names: op %s, type %s", op, type);
		return OPVER_ERROR;
	}
	if (in->data != NULL) {
		OPVER_REPORT(ctx, "an activation has data during prepare");
		return OPVER_ERROR;
	}
	if (ctx->host->request_scratch(ctx, SCRATCH_BYTES, &data->scratch) !=
		    OPVER_OK ||
	    ctx->host->request_scratch(ctx, opver_tensor_elements(in),
				       &data->per_task) != OPVER_OK) {
		OPVER_REPORT(ctx, "request_scratch failed in prepare");
		return OPVER_ERROR;
	}
	data->factor = cached_host->allocate_persistent(ctx, sizeof(float));
	if (data->factor == NULL) {
		OPVER_REPORT(ctx, "allocate_persistent through the cached table failed");
		return OPVER_ERROR_NOMEM;
	}
	*data->factor = 3.0f;
	return OPVER_OK;
}

static void triple_task(void *arg, uint32_t task, uint32_t thread)
{
	triple_job *job = arg;

	job->out[task] = job->in[task] * job->factor;
	job->task_thread[task] = (uint8_t)thread;
	atomic_fetch_add(&job->tasks_run, 1);
}

/* Writes every byte of both scratch buffers; false if one is missing or
 * misaligned. */
static bool fill_scratch(const opver_context *ctx, const triple_data *data,
			 uint8_t **per_task)
{
	uint8_t *scratch = ctx->host->scratch(ctx, data->scratch);

	*per_task = ctx->host->scratch(ctx, data->per_task);
	if (scratch == NULL || *per_task == NULL ||
	    (uintptr_t)scratch % 64 != 0 || (uintptr_t)*per_task % 64 != 0)
		return false;
	for (size_t i = 0; i < SCRATCH_BYTES; i++)
		scratch[i] = (uint8_t)i;
	return true;
}

static opver_status triple_invoke(const opver_context *ctx, opver_node *node)
{
	const triple_data *data = node->op_data;
	uint32_t count = (uint32_t)opver_tensor_elements(node->inputs[0]);
	uint32_t outer = ctx->host->profile_begin(ctx, "triple");
	uint32_t inner = ctx->host->profile_begin(ctx, "scratch");
	triple_job job = {
		.in = node->inputs[0]->data,
		.out = node->outputs[0]->data,
		.factor = *data->factor,
	};
	int32_t late;
	opver_status late_status;

	if (!fill_scratch(ctx, data, &job.task_thread)) {
		OPVER_REPORT(ctx, "scratch missing or not aligned to 64 bytes");
		return OPVER_ERROR;
	}
	ctx->host->profile_end(ctx, inner);
	atomic_init(&job.tasks_run, 0);
	ctx->host->parallel_for(ctx, triple_task, &job, count);
	ctx->host->profile_end(ctx, outer);

	late_status = ctx->host->request_scratch(ctx, 16, &late);
	pthread_mutex_lock(&stats_lock);
	services_stats.invokes++;
	services_stats.thread_count = ctx->host->thread_count(ctx);
	services_stats.tasks_run = atomic_load(&job.tasks_run);
	for (int t = 0; t < SERVICES_MAX_THREADS; t++)
		services_stats.threads_used[t] = 0;
	for (uint32_t i = 0; i < count; i++)
		if (job.task_thread[i] < SERVICES_MAX_THREADS)
			services_stats.threads_used[job.task_thread[i]] = 1;
	services_stats.late_request_status = late_status;
	pthread_mutex_unlock(&stats_lock);
	return OPVER_OK;
}

static const opver_type_signature float_types[] = {
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(FLOAT32)),
			OPVER_OUTPUT(OPVER_T(FLOAT32))),
};

static const opver_kernel triple = {
	OPVER_CUSTOM_KERNEL("triple", "TRIPLE", 1, 1),
	OPVER_KERNEL_SIGNATURES(float_types),
	.op_data_size = sizeof(triple_data),
	.prepare = triple_prepare,
	.invoke = triple_invoke,
};

static const opver_kernel *const kernels[] = { &triple };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "services",
	.vendor = "opver tests",
	.version = "1",
	.init = services_init,
	OPVER_PLUGIN_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
