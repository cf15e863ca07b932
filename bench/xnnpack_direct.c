/*
 * xnnpack_direct.c - the XNNPACK graph opver-plugin-xnnpack builds for a
 * model, driven directly: the timed runs call xnn_invoke_runtime on each
 * partition's runtime, in plan order, with nothing of opver in between.
 * It is what `make bench` measures opver's own cost against.
 *
 * The same graph, not a copy of it: the plugin's claims (claims.c) and
 * subgraph builder (subgraph.c) are compiled in and serve a delegate
 * registered statically (opver_runtime_add_plugin), so the core reads the
 * model, checks the typed claims, forms the partitions and plans the
 * arena exactly as for the plugin.  The runtimes get XNNPACK's own
 * pthreadpool of --threads threads (1: no pool, the calling thread).
 *
 * One interpreter invoke runs the model; each partition's boundary
 * tensors are copied, as the partition reads and writes them, to buffers
 * of its own, on which its runtime is then set up.  Nodes left to the
 * kernels (QUANTIZE, say) are listed and neither run again nor timed.
 * One warm-up and --runs timed runs of every partition follow, which
 * must write the outputs of the invoke again, bit for bit.
 *
 *   xnnpack_direct --config INI [--threads T] [--runs N] [-i IN.raw]...
 *                  [--expect OUT.raw [--steps S]] MODEL.tflite
 *
 * INI names the plugins for what the delegate leaves (the reference
 * plugin).  --expect compares output 0 of that invoke with a raw file
 * (what opver-run computes with the reference plugin): float32 within
 * 1e-5 * max(1, max |expected|), the XNNPACK plugin's stated tolerance
 * (tests/test_xnnpack.c), integers within S steps (1 by default: deep
 * models drift further from a reference that rounds twice per layer).
 * Exit status: 0, 1 when a step fails or the output differs, 2 for usage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opver/opver.h>
#include <opver/plugin.h>

#include "claims.h"
#include "subgraph.h"

#define MAX_INPUTS 16
#define MAX_THREADS 64
#define FLOAT_RTOL 1e-5

/*
 * A partition as the bench keeps it: the plugin's partition data, and
 * for the direct runs a buffer of its own per boundary tensor (the
 * arena's memory is shared by tensors that are not live at once, and the
 * kernel nodes that write some of it do not run): own[e] holds what
 * boundary tensor e (xp.tensors[e]) held when the partition ran in the
 * interpreter's invoke, before for an input, after for an output.
 */
typedef struct direct_partition {
	xp_partition xp;
	int32_t num_inputs;             /* external ids below are inputs */
	struct xnn_external_value *own; /* xp.num_external, buffers owned */
	uint8_t **expected;             /* per output external, else NULL */
} direct_partition;

/* What the delegate's callbacks share with main(): one delegate per
 * process, registered once. */
static struct {
	size_t threads;
	pthreadpool_t pool;             /* owned; NULL for one thread */
	direct_partition *partitions[256]; /* prepared, in plan order */
	size_t num_partitions;
} direct;

static double now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e3 + (double)now.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ------------------------------------------------------- the delegate */

static opver_status direct_init(const opver_context *ctx,
				const opver_option *options,
				uint32_t num_options, void **plugin_data)
{
	(void)options;
	(void)num_options;
	(void)plugin_data;
	if (xnn_initialize(NULL) != xnn_status_success) {
		OPVER_REPORT(ctx, "XNNPACK could not be initialized");
		return OPVER_ERROR;
	}
	if (direct.threads > 1) {
		direct.pool = pthreadpool_create(direct.threads);
		if (direct.pool == NULL) {
			xnn_deinitialize();
			return OPVER_ERROR_NOMEM;
		}
	}
	return OPVER_OK;
}

static void direct_fini(const opver_context *ctx, void *plugin_data)
{
	(void)ctx;
	(void)plugin_data;
	if (direct.pool != NULL)
		pthreadpool_destroy(direct.pool);
	xnn_deinitialize();
}

/* The plugin's refusals, said on stdout: those nodes are not timed. */
static opver_status claim(const opver_context *ctx,
			  const opver_graph_view *graph, uint8_t *claimed)
{
	char reason[160];

	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver_node *node = graph->nodes[n];
		const char *why = xp_refusal(node, reason, sizeof(reason));

		claimed[n] = why == NULL;
		if (why != NULL)
			printf("node %d (%s v%d) not claimed, not timed: %s\n",
			       (int)n, ctx->host->op_name(node->op),
			       (int)node->resolved_version, why);
	}
	return OPVER_OK;
}

static opver_status partition_init(const opver_context *ctx,
				   const opver_partition *partition,
				   void **partition_data)
{
	direct_partition *p;

	if (direct.num_partitions == sizeof(direct.partitions) /
				     sizeof(direct.partitions[0])) {
		OPVER_REPORT(ctx, "more partitions than the bench keeps");
		return OPVER_ERROR;
	}
	p = ctx->host->allocate(ctx, sizeof(*p));
	if (p == NULL)
		return OPVER_ERROR_NOMEM;
	p->num_inputs = partition->num_inputs;
	direct.partitions[direct.num_partitions++] = p;
	*partition_data = p;
	return OPVER_OK;
}

static void partition_free(const opver_context *ctx, void *partition_data)
{
	direct_partition *p = partition_data;

	for (uint32_t e = 0; p->own != NULL && e < p->xp.num_external; e++) {
		ctx->host->free_memory(ctx, p->own[e].data);
		ctx->host->free_memory(ctx, p->expected[e]);
	}
	ctx->host->free_memory(ctx, p->own);
	ctx->host->free_memory(ctx, p->expected);
	xp_partition_release(ctx, &p->xp);
	ctx->host->free_memory(ctx, p);
}

static bool is_output(const direct_partition *p, uint32_t e)
{
	return p->xp.external[e].id >= (uint32_t)p->num_inputs;
}

/* The buffers of the direct runs, XNN_EXTRA_BYTES longer as XNNPACK
 * reads past its operands. */
static opver_status own_buffers(const opver_context *ctx,
				direct_partition *p)
{
	size_t count = (size_t)p->xp.num_external + 1;

	p->own = ctx->host->allocate(ctx, count * sizeof(*p->own));
	p->expected = ctx->host->allocate(ctx, count * sizeof(*p->expected));
	if (p->own == NULL || p->expected == NULL)
		return OPVER_ERROR_NOMEM;
	for (uint32_t e = 0; e < p->xp.num_external; e++) {
		size_t bytes = p->xp.tensors[e]->bytes + XNN_EXTRA_BYTES;

		p->own[e].id = p->xp.external[e].id;
		p->own[e].data = ctx->host->allocate(ctx, bytes);
		if (is_output(p, e))
			p->expected[e] = ctx->host->allocate(ctx, bytes);
		if (p->own[e].data == NULL ||
		    (is_output(p, e) && p->expected[e] == NULL))
			return OPVER_ERROR_NOMEM;
	}
	return OPVER_OK;
}

static opver_status partition_prepare(const opver_context *ctx,
				      void *partition_data,
				      const opver_partition *partition)
{
	direct_partition *p = partition_data;
	opver_status status = xp_partition_prepare(ctx, &p->xp, partition,
						   direct.pool);

	return status == OPVER_OK ? own_buffers(ctx, p) : status;
}

static opver_status partition_bind_memory(const opver_context *ctx,
					  void *partition_data,
					  const opver_partition *partition)
{
	direct_partition *p = partition_data;

	(void)partition;
	return xp_partition_bind(ctx, &p->xp);
}

/* The interpreter's one invoke, whose boundary values the direct runs
 * start from and must reproduce. */
static opver_status partition_invoke(const opver_context *ctx,
				     void *partition_data,
				     const opver_partition *partition)
{
	direct_partition *p = partition_data;
	opver_status status;

	(void)partition;
	for (uint32_t e = 0; e < p->xp.num_external; e++)
		if (!is_output(p, e) && p->xp.tensors[e]->bytes > 0)
			memcpy(p->own[e].data, p->xp.tensors[e]->data,
			       p->xp.tensors[e]->bytes);
	status = xp_partition_invoke(ctx, &p->xp);
	for (uint32_t e = 0; e < p->xp.num_external; e++)
		if (is_output(p, e) && p->xp.tensors[e]->bytes > 0)
			memcpy(p->expected[e], p->xp.tensors[e]->data,
			       p->xp.tensors[e]->bytes);
	return status;
}

static const opver_delegate delegate = {
	.struct_size = sizeof(opver_delegate),
	.name = "xnnpack-direct",
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
	.name = "xnnpack-direct",
	.vendor = "opver bench",
	.version = OPVER_VERSION_STRING,
	.init = direct_init,
	.fini = direct_fini,
	.delegate = &delegate,
};

static const opver_plugin *direct_entry(const opver_negotiation *negotiation)
{
	(void)negotiation;
	return &plugin;
}

/* ---------------------------------------------------------- the bench */

typedef struct options {
	const char *config;
	const char *model;
	const char *inputs[MAX_INPUTS];
	size_t num_inputs;
	const char *expect;
	long steps;
	long runs;
} options;

static int usage(const char *why)
{
	fprintf(stderr, "xnnpack_direct: %s\nusage: xnnpack_direct --config INI [--threads T] [--runs N] [-i IN.raw]... [--expect OUT.raw [--steps S]] MODEL.tflite\n",
		why);
	return 2;
}

static int parse(int argc, char **argv, options *o)
{
	long threads = 1;

	o->runs = 25;
	o->steps = 1;
	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a];
		const char *value = a + 1 < argc ? argv[a + 1] : NULL;

		if (arg[0] != '-') {
			o->model = arg;
			continue;
		}
		if (value == NULL)
			return usage("an option lacks its value");
		a++;
		if (strcmp(arg, "--config") == 0)
			o->config = value;
		else if (strcmp(arg, "--expect") == 0)
			o->expect = value;
		else if (strcmp(arg, "--runs") == 0)
			o->runs = strtol(value, NULL, 10);
		else if (strcmp(arg, "--steps") == 0)
			o->steps = strtol(value, NULL, 10);
		else if (strcmp(arg, "--threads") == 0)
			threads = strtol(value, NULL, 10);
		else if (strcmp(arg, "-i") == 0 && o->num_inputs < MAX_INPUTS)
			o->inputs[o->num_inputs++] = value;
		else
			return usage("unknown option or too many inputs");
	}
	if (o->config == NULL || o->model == NULL)
		return usage("--config and a model are required");
	if (o->runs < 1 || threads < 1 || threads > MAX_THREADS ||
	    o->steps < 0)
		return usage("--runs must be positive, --threads 1 to 64, --steps at least 0");
	direct.threads = (size_t)threads;
	return 0;
}

/* Reads exactly `bytes` bytes of `path` into `data`. */
static bool read_raw(const char *path, void *data, size_t bytes)
{
	FILE *file = fopen(path, "rb");
	bool ok = file != NULL && fread(data, 1, bytes, file) == bytes &&
		  fgetc(file) == EOF;

	if (file != NULL)
		fclose(file);
	if (!ok)
		fprintf(stderr, "xnnpack_direct: %s: cannot read, or not %zu bytes\n",
			path, bytes);
	return ok;
}

/* Element i of a tensor of `type` as a double. */
static double element(int32_t type, const void *data, size_t i)
{
	switch (type) {
	case OPVER_TYPE_FLOAT32:
		return ((const float *)data)[i];
	case OPVER_TYPE_INT8:
		return ((const int8_t *)data)[i];
	case OPVER_TYPE_UINT8:
		return ((const uint8_t *)data)[i];
	case OPVER_TYPE_INT32:
		return ((const int32_t *)data)[i];
	default:
		return ((const uint8_t *)data)[i];
	}
}

/* Whether `output` matches the raw file `path`; says so either way. */
static bool check_output(const opver_tensor *output, const char *path,
			 long steps)
{
	size_t count = output->type == OPVER_TYPE_FLOAT32 ||
		       output->type == OPVER_TYPE_INT8 ||
		       output->type == OPVER_TYPE_UINT8 ||
		       output->type == OPVER_TYPE_INT32 ?
		       opver_tensor_elements(output) : output->bytes;
	void *expected = malloc(output->bytes + 1);
	double scale = 1, tolerance, worst = 0;
	size_t worst_at = 0;
	bool ok;

	if (expected == NULL || !read_raw(path, expected, output->bytes)) {
		free(expected);
		return false;
	}
	for (size_t i = 0; i < count; i++)
		scale = fmax(scale, fabs(element(output->type, expected, i)));
	tolerance = output->type == OPVER_TYPE_FLOAT32 ? FLOAT_RTOL * scale :
							 (double)steps;
	for (size_t i = 0; i < count; i++) {
		double got = element(output->type, output->data, i);
		double diff = fabs(got - element(output->type, expected, i));

		/* NaN is a difference too. */
		if (!(diff <= worst)) {
			worst = isnan(diff) ? INFINITY : diff;
			worst_at = i;
		}
	}
	ok = worst <= tolerance;
	printf("output 0: %s %s within %g (largest difference %g, element %zu)\n",
	       ok ? "matches" : "MISMATCH with", path, tolerance, worst,
	       worst_at);
	free(expected);
	return ok;
}

/* Points every runtime at the partition's own buffers, the outputs
 * overwritten so that only a run can restore them. */
static bool set_up_own(void)
{
	for (size_t k = 0; k < direct.num_partitions; k++) {
		direct_partition *p = direct.partitions[k];
		enum xnn_status xs;

		for (uint32_t e = 0; e < p->xp.num_external; e++)
			if (is_output(p, e))
				memset(p->own[e].data, 0xff,
				       p->xp.tensors[e]->bytes);
		xs = xnn_setup_runtime(p->xp.runtime, p->xp.num_external,
				       p->own);
		if (xs != xnn_status_success) {
			fprintf(stderr, "xnnpack_direct: partition %zu: setup failed: status %d\n",
				k, (int)xs);
			return false;
		}
	}
	return true;
}

/* Whether the direct runs wrote what the interpreter's invoke did. */
static bool reproduced(void)
{
	for (size_t k = 0; k < direct.num_partitions; k++) {
		const direct_partition *p = direct.partitions[k];

		for (uint32_t e = 0; e < p->xp.num_external; e++)
			if (is_output(p, e) &&
			    memcmp(p->own[e].data, p->expected[e],
				   p->xp.tensors[e]->bytes) != 0)
				return false;
	}
	return true;
}

/* Every partition once, in plan order: the timed work. */
static bool run_partitions(void)
{
	for (size_t k = 0; k < direct.num_partitions; k++) {
		enum xnn_status xs =
			xnn_invoke_runtime(direct.partitions[k]->xp.runtime);

		if (xs != xnn_status_success) {
			fprintf(stderr, "xnnpack_direct: partition %zu failed: status %d\n",
				k, (int)xs);
			return false;
		}
	}
	return true;
}

/* Counts the nodes the partitions run; 0 when there are none. */
static size_t claimed_nodes(const opver_interpreter *it)
{
	size_t count = 0;
	opver_node_info info;

	for (size_t n = 0; n < opver_interpreter_node_count(it); n++)
		if (opver_interpreter_node_info(it, n, &info) == OPVER_OK &&
		    info.partition >= 0)
			count++;
	return count;
}

/*
 * Runs the model once through the interpreter, whose output 0 is checked
 * against o->expect, then times the partitions alone on their own
 * buffers and checks that they write what they wrote in that invoke, bit
 * for bit: the output checked is then what the direct runs compute.
 */
static int bench(opver_interpreter *it, const options *o)
{
	size_t runs = (size_t)o->runs, nodes = claimed_nodes(it);
	double *ms = malloc(runs * sizeof(*ms));
	int status = 1;

	if (ms == NULL)
		return 1;
	if (o->num_inputs != opver_interpreter_input_count(it)) {
		fprintf(stderr, "xnnpack_direct: the model has %zu inputs, %zu given\n",
			opver_interpreter_input_count(it), o->num_inputs);
		goto out;
	}
	for (size_t i = 0; i < o->num_inputs; i++) {
		opver_tensor *input = opver_interpreter_input(it, i);

		if (!read_raw(o->inputs[i], input->data, input->bytes))
			goto out;
	}
	printf("partitions: %zu, running %zu of %zu nodes, %zu thread%s\n",
	       direct.num_partitions, nodes, opver_interpreter_node_count(it),
	       direct.threads, direct.threads > 1 ? "s" : "");
	if (direct.num_partitions == 0) {
		status = 0;
		goto out;
	}
	if (opver_interpreter_invoke(it) != OPVER_OK)
		goto out;
	if (o->expect != NULL &&
	    !check_output(opver_interpreter_output(it, 0), o->expect,
			  o->steps))
		goto out;
	if (!set_up_own() || !run_partitions())
		goto out;
	for (size_t r = 0; r < runs; r++) {
		double start = now_ms();

		if (!run_partitions())
			goto out;
		ms[r] = now_ms() - start;
	}
	qsort(ms, runs, sizeof(*ms), compare_doubles);
	printf("latency_ms: median %.6f min %.6f max %.6f (%zu runs after 1 warm-up)\n",
	       runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2,
	       ms[0], ms[runs - 1], runs);
	if (!reproduced()) {
		printf("direct runs: DIFFER from the partitions' outputs in opver's invoke\n");
		goto out;
	}
	printf("direct runs: write the partitions' outputs of opver's invoke, bit for bit\n");
	status = 0;
out:
	free(ms);
	return status;
}

int main(int argc, char **argv)
{
	opver_runtime_options runtime_options;
	opver_runtime *runtime = NULL;
	opver_model *model = NULL;
	opver_interpreter *it = NULL;
	options o = { 0 };
	int status = parse(argc, argv, &o);

	if (status != 0)
		return status;
	status = 1;
	opver_runtime_options_init(&runtime_options);
	runtime_options.config_path = o.config;
	if (opver_runtime_create(&runtime_options, &runtime) != OPVER_OK ||
	    opver_runtime_add_plugin(runtime, direct_entry, "xnnpack-direct",
				     NULL, 0) != OPVER_OK ||
	    opver_model_open(runtime, o.model, &model) != OPVER_OK ||
	    opver_interpreter_create(runtime, model, &it) != OPVER_OK)
		goto out;
	status = bench(it, &o);
out:
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
	return status;
}
