/*
 * plugin.c - opver-plugin-xnnpack: a delegate running each partition of
 * claimed nodes (float32, int8, uint8) as one XNNPACK runtime (Debian's 2022
 * XNNPACK).  It has no kernels.  Options of its ini section:
 *
 *   threads = N   the most of the interpreter's threads ([opver] threads,
 *                 opver-run --threads) XNNPACK's operators use; all of
 *                 them by default.  XNNPACK runs on the core's pool
 *                 (threadpool.h), never on one of its own.
 *
 * Nodes it leaves to the kernels are logged at info level with the reason
 * (opver-run --explain --log-level info).
 */
#include <dlfcn.h>
#include <string.h>

#include "claims.h"
#include "delegate_claims.h"
#include "subgraph.h"

/* Most threads `threads` may ask for. */
#define XP_MAX_THREADS 64

typedef struct xp_plugin {
	uint32_t threads;       /* the option; 0 when not given */
	xp_event_names names;
} xp_plugin;

/*
 * XNNPACK's one-time initialization (cpuinfo's tables) is never freed: were
 * libXNNPACK unloaded with the plugin, every load would leak it again.
 * Pinning the library makes it once per process.
 */
static void pin_xnnpack(void)
{
	Dl_info info;

	if (dladdr((void *)xnn_initialize, &info) != 0 &&
	    info.dli_fname != NULL)
		(void)dlopen(info.dli_fname,
			     RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

static opver_status xp_init(const opver_context *ctx,
			    const opver_option *options, uint32_t num_options,
			    void **plugin_data)
{
	uint32_t threads = 0;
	xp_plugin *xp;

	for (uint32_t i = 0; i < num_options; i++) {
		if (strcmp(options[i].key, "threads") == 0) {
			opver_status status = dc_parse_threads(
				ctx, options[i].value, XP_MAX_THREADS, &threads);

			if (status != OPVER_OK)
				return status;
			continue;
		}
		OPVER_REPORT(ctx, "unknown option '%s' (known: threads)",
			     options[i].key);
		return OPVER_ERROR_CONFIG;
	}
	pin_xnnpack();
	if (xnn_initialize(NULL) != xnn_status_success) {
		OPVER_REPORT(ctx, "XNNPACK could not be initialized");
		return OPVER_ERROR;
	}
	if (!xp_pool_serves_xnnpack())
		OPVER_LOG(ctx, OPVER_LOG_INFO,
			  "XNNPACK binds to another pthreadpool in this process: its operators run on the calling thread");
	xp = ctx->host->allocate(ctx, sizeof(*xp));
	if (xp == NULL) {
		xnn_deinitialize();
		return OPVER_ERROR_NOMEM;
	}
	xp->threads = threads;
	xp_event_names_init(&xp->names);
	*plugin_data = xp;
	return OPVER_OK;
}

static void xp_fini(const opver_context *ctx, void *plugin_data)
{
	xp_plugin *xp = plugin_data;

	xp_event_names_free(ctx, &xp->names);
	ctx->host->free_memory(ctx, xp);
	xnn_deinitialize();
}

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	return dc_claim(ctx, graph, claimed, xp_refusal, "stays on the kernels");
}

static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	(void)partition;
	*partition_data = ctx->host->allocate(ctx, sizeof(xp_partition));
	return *partition_data != NULL ? OPVER_OK : OPVER_ERROR_NOMEM;
}

static void partition_free(const opver_context *ctx, void *partition_data)
{
	xp_partition_release(ctx, partition_data);
	ctx->host->free_memory(ctx, partition_data);
}

static opver_status partition_prepare(const opver_context *ctx,
				      void *partition_data,
				      const opver_partition *partition)
{
	xp_plugin *xp = ctx->plugin_data;
	xp_partition *p = partition_data;
	opver_status status;

	if (!xp_pool_serves_xnnpack())
		return xp_partition_prepare(ctx, p, partition, NULL);
	status = xp_partition_name_events(ctx, p, partition, &xp->names);
	if (status != OPVER_OK)
		return status;
	p->pool.threads = ctx->host->thread_count(ctx);
	if (xp->threads > 0 && xp->threads < p->pool.threads)
		p->pool.threads = xp->threads;
	return xp_partition_prepare(ctx, p, partition, &p->pool);
}

static opver_status partition_bind_memory(const opver_context *ctx,
					  void *partition_data,
					  const opver_partition *partition)
{
	(void)partition;
	return xp_partition_bind(ctx, partition_data);
}

static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	(void)partition;
	return xp_partition_invoke(ctx, partition_data);
}

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "xnnpack",
	.ops = xp_claims,
	.num_ops = XP_NUM_CLAIMS,
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.prepare = partition_prepare,
	.invoke = partition_invoke,
	.bind_memory = partition_bind_memory,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "xnnpack",
	.vendor = "opver",
	.version = OPVER_VERSION_STRING,
	.init = xp_init,
	.fini = xp_fini,
	.delegate = &delegate,
};

OPVER_PLUGIN_ENTRY
{
	return &plugin;
}
