/*
 * plugin.c - opver-plugin-onednn: a delegate running the int8
 * convolutions and fully connected layers it claims (claims.c) as oneDNN
 * primitives, which use the VNNI instructions Debian's XNNPACK lacks, and
 * float32 convolutions.  Each node of a partition is one
 * primitive, made at prepare, bound to the arena in bind_memory, executed
 * in invoke.  Options of its ini section:
 *
 *   threads = N   the most threads oneDNN's OpenMP runtime uses for a
 *                 node; by default the interpreter's ([opver] threads,
 *                 opver-run --threads).  oneDNN runs on OpenMP's threads,
 *                 not on the core's pool: while it does, the core's
 *                 workers are idle (they spin for some microseconds after
 *                 their last task, then sleep).
 *
 * Once loaded, the plugin stays loaded for the process, with libdnnl and
 * libgomp (linked -z nodelete; Makefile.am says why).
 *
 * On a CPU without VNNI the plugin declines to load: oneDNN's int8 lead
 * over XNNPACK comes from those instructions.  Nodes it leaves to others
 * are logged at info level with the reason (opver-run --explain
 * --log-level info).
 */
#include <omp.h>
#include <string.h>

#include "claims.h"
#include "delegate_claims.h"
#include "conv.h"

#define DN_MAX_THREADS 256

typedef struct dn_plugin {
	dnnl_engine_t engine;   /* owned */
	uint32_t threads;       /* the option; 0 when not given */
} dn_plugin;

/* One partition: a primitive per node, in the partition's order, and the
 * stream they run on (a stream serves one thread at a time). */
typedef struct dn_partition {
	dnnl_stream_t stream;   /* owned */
	int threads;
	int32_t count;
	dn_conv *convs;         /* owned; count */
} dn_partition;

static opver_status dn_init(const opver_context *ctx,
			    const opver_option *options, uint32_t num_options,
			    void **plugin_data)
{
	uint32_t threads = 0;
	dn_plugin *dn;

	for (uint32_t i = 0; i < num_options; i++) {
		if (strcmp(options[i].key, "threads") == 0) {
			opver_status status = dc_parse_threads(
				ctx, options[i].value, DN_MAX_THREADS, &threads);

			if (status != OPVER_OK)
				return status;
			continue;
		}
		OPVER_REPORT(ctx, "unknown option '%s' (known: threads)",
			     options[i].key);
		return OPVER_ERROR_CONFIG;
	}
	dn = ctx->host->allocate(ctx, sizeof(*dn));
	if (dn == NULL)
		return OPVER_ERROR_NOMEM;
	if (dnnl_engine_create(&dn->engine, dnnl_cpu, 0) != dnnl_success) {
		ctx->host->free_memory(ctx, dn);
		OPVER_REPORT(ctx, "oneDNN has no CPU engine");
		return OPVER_ERROR;
	}
	dn->threads = threads;
	*plugin_data = dn;
	return OPVER_OK;
}

static void dn_fini(const opver_context *ctx, void *plugin_data)
{
	dn_plugin *dn = plugin_data;

	dnnl_engine_destroy(dn->engine);
	ctx->host->free_memory(ctx, dn);
}

static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	return dc_claim(ctx, graph, claimed, dn_refusal, "is left to other plugins");
}

static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	dn_partition *p = ctx->host->allocate(ctx, sizeof(*p));

	if (p == NULL)
		return OPVER_ERROR_NOMEM;
	memset(p, 0, sizeof(*p));
	p->convs = ctx->host->allocate(
		ctx, (size_t)partition->num_nodes * sizeof(dn_conv));
	if (p->convs == NULL) {
		ctx->host->free_memory(ctx, p);
		return OPVER_ERROR_NOMEM;
	}
	memset(p->convs, 0, (size_t)partition->num_nodes * sizeof(dn_conv));
	*partition_data = p;
	return OPVER_OK;
}

static void partition_free(const opver_context *ctx, void *partition_data)
{
	dn_partition *p = partition_data;

	for (int32_t i = 0; i < p->count; i++)
		dn_conv_destroy(&p->convs[i]);
	if (p->stream != NULL)
		dnnl_stream_destroy(p->stream);
	ctx->host->free_memory(ctx, p->convs);
	ctx->host->free_memory(ctx, p);
}

static opver_status partition_prepare(const opver_context *ctx,
				      void *partition_data,
				      const opver_partition *partition)
{
	const dn_plugin *dn = ctx->plugin_data;
	dn_partition *p = partition_data;
	uint32_t threads = ctx->host->thread_count(ctx);

	if (dnnl_stream_create(&p->stream, dn->engine,
			       dnnl_stream_default_flags) != dnnl_success) {
		OPVER_REPORT(ctx, "oneDNN could not make a stream");
		return OPVER_ERROR;
	}
	p->threads = (int)(dn->threads > 0 && dn->threads < threads ?
				   dn->threads : threads);
	/* oneDNN splits a primitive's work for OpenMP's thread count at
	 * its creation. */
	omp_set_num_threads(p->threads);
	for (int32_t i = 0; i < partition->num_nodes; i++) {
		const opver_node *node =
			partition->graph->nodes[partition->nodes[i]];
		opver_status status;

		p->count = i + 1;
		status = dn_conv_create(ctx, dn->engine, p->stream, node,
					&p->convs[i]);
		if (status != OPVER_OK)
			return status;
		OPVER_LOG(ctx, OPVER_LOG_DEBUG, "node %d: oneDNN %s",
			  (int)node->index, p->convs[i].implementation);
	}
	return OPVER_OK;
}

static opver_status partition_bind_memory(const opver_context *ctx,
					  void *partition_data,
					  const opver_partition *partition)
{
	dn_partition *p = partition_data;

	(void)partition;
	for (int32_t i = 0; i < p->count; i++) {
		opver_status status = dn_conv_bind(ctx, &p->convs[i]);

		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	const dn_partition *p = partition_data;

	(void)partition;
	/* OpenMP's thread count is the calling thread's own setting. */
	omp_set_num_threads(p->threads);
	for (int32_t i = 0; i < p->count; i++) {
		uint32_t event = ctx->host->profile_begin(
			ctx, p->convs[i].implementation);
		opver_status status = dn_conv_execute(ctx, &p->convs[i],
						      p->stream);

		ctx->host->profile_end(ctx, event);
		if (status != OPVER_OK)
			return status;
	}
	if (dnnl_stream_wait(p->stream) != dnnl_success) {
		OPVER_REPORT(ctx, "oneDNN stream failed");
		return OPVER_ERROR;
	}
	return OPVER_OK;
}

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "onednn",
	.ops = dn_claims,
	.num_ops = DN_NUM_CLAIMS,
	.claim = claim,
	.init = partition_init,
	.free = partition_free,
	.prepare = partition_prepare,
	.invoke = partition_invoke,
	.bind_memory = partition_bind_memory,
};

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "onednn",
	.vendor = "opver",
	.version = OPVER_VERSION_STRING,
	.init = dn_init,
	.fini = dn_fini,
	.delegate = &delegate,
};

/* Whether oneDNN will use VNNI's int8 dot products here. */
static bool has_vnni(dnnl_cpu_isa_t isa)
{
	return (isa & dnnl_cpu_isa_avx512_core_vnni) ==
		       dnnl_cpu_isa_avx512_core_vnni ||
	       (isa & dnnl_cpu_isa_avx2_vnni) == dnnl_cpu_isa_avx2_vnni;
}

OPVER_PLUGIN_ENTRY
{
	dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();

	if (!has_vnni(isa))
		return negotiation->decline(
			negotiation,
			"this CPU has no VNNI (oneDNN's ISA 0x%x), where XNNPACK's int8 kernels are as fast",
			(unsigned)isa);
	return &plugin;
}
