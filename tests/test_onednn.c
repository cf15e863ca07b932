/*
 * test_onednn.c - the oneDNN delegate plugin (plugins/onednn), stacked
 * ahead of the reference plugin: int8 CONV_2D, DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED nodes run on oneDNN and land within one output step of
 * the reference plugin alone (oneDNN rescales in float, TFLite and the
 * reference in fixed point: a tie may round apart), on the corpus's int8
 * CNNs and on single layers built here over the geometry and quantization
 * each can have (1x1 and 3x3, strides, SAME and VALID padding, dilation,
 * depth multipliers, rows and keep_num_dims, per-tensor and per-channel
 * filters, zero points, no bias, fused activations).  What it refuses
 * stays on the kernels, with the reason logged; opver-conformance passes
 * on it with one step of integer tolerance for each op.  The plugin, with
 * oneDNN and OpenMP, stays loaded after its runtime is gone.  Every test skips
 * when configure did not find oneDNN or the CPU has no VNNI (the plugin
 * then declines to load).
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conformance/model_builder.h"
#include "runtime_fixture.h"
#include "spawn.h"

#define WITH_ONEDNN                                            \
	"[plugin.onednn]\nlibrary = " ONEDNN_PLUGIN "\n"       \
	"[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"
#define REFERENCE_ONLY "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"

/*
 * AddressSanitizer's options for this binary alone.  The sanitizer
 * runtimes of clang up to 16 and gcc up to 13 take a dynamic TLS block
 * that lands 16 bytes past a page boundary for one with glibc 2.19's
 * header, and record the two words before it as its extent: oneDNN's
 * thread-local blocks do, and LeakSanitizer's exit scan then crashes
 * ("Tracer caught signal 11", google/sanitizers#1322) and checks nothing.
 * Without the interception it runs, only not scanning dynamic TLS, where
 * opver keeps no pointers.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "intercept_tls_get_addr=0";
}

static messages captured;

static void require_plugin(void)
{
	opver_runtime *runtime;

	if (access(ONEDNN_PLUGIN, R_OK) != 0)
		cr_skip_test("the oneDNN plugin was not built (configure found no oneDNN)");
	runtime = fixture_runtime(WITH_ONEDNN, &captured);
	if (strstr(captured.text, "declined") != NULL) {
		opver_runtime_destroy(runtime);
		cr_skip_test("the oneDNN plugin declines this CPU: %s",
			     captured.text);
	}
	opver_runtime_destroy(runtime);
	messages_clear(&captured);
}

/* dlclose must not unload oneDNN's OpenMP runtime under its own threads
 * (Makefile.am links the plugin -z nodelete): after a runtime that ran
 * the plugin is destroyed, the plugin and the libraries it brought are
 * still mapped. */
Test(onednn, plugin_and_its_libraries_stay_loaded_after_the_runtime)
{
	static const char *const libraries[] = { ONEDNN_PLUGIN, "libdnnl.so.2",
						 "libgomp.so.1" };

	require_plugin();
	for (size_t i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++) {
		void *handle = dlopen(libraries[i], RTLD_NOW | RTLD_NOLOAD);

		cr_assert_not_null(handle, "%s was unloaded", libraries[i]);
		dlclose(handle);
	}
}

typedef struct run {
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *it;
} run;

/* Starts `model_bytes` (copied by opver) or the file `path` on `config`
 * and invokes it on input bytes `input` (as many as input 0 has). */
static void start(run *r, const char *config, const uint8_t *model_bytes,
		  size_t model_size, const char *path, const void *input)
{
	r->runtime = fixture_runtime(config, &captured);
	if (path != NULL)
		cr_assert_eq(opver_model_open(r->runtime, path, &r->model),
			     OPVER_OK, "%s", captured.text);
	else
		cr_assert_eq(opver_model_open_memory(r->runtime, model_bytes,
						     model_size, &r->model),
			     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_interpreter_create(r->runtime, r->model, &r->it),
		     OPVER_OK, "%s", captured.text);
	memcpy(opver_interpreter_input(r->it, 0)->data, input,
	       opver_interpreter_input(r->it, 0)->bytes);
	cr_assert_eq(opver_interpreter_invoke(r->it), OPVER_OK, "%s",
		     captured.text);
}

static void stop(run *r)
{
	opver_interpreter_destroy(r->it);
	opver_model_close(r->model);
	opver_runtime_destroy(r->runtime);
}

/* How many nodes of op `op` the interpreter has, and how many of them
 * the oneDNN delegate runs. */
static void count_nodes(const run *r, int32_t op, int *nodes, int *onednn)
{
	*nodes = *onednn = 0;
	for (size_t n = 0; n < opver_interpreter_node_count(r->it); n++) {
		opver_node_info info;

		cr_assert_eq(opver_interpreter_node_info(r->it, n, &info),
			     OPVER_OK);
		if (info.op != op)
			continue;
		(*nodes)++;
		*onednn += info.delegate != NULL &&
			   strcmp(info.delegate, "onednn") == 0;
	}
}

/* The largest difference between the two runs' int8 output 0, in steps;
 * also how many elements differ. */
static int max_step_difference(const run *a, const run *b, size_t *differ)
{
	const opver_tensor *x = opver_interpreter_output(a->it, 0);
	const opver_tensor *y = opver_interpreter_output(b->it, 0);
	const int8_t *p = x->data, *q = y->data;
	int most = 0;

	cr_assert_eq(x->bytes, y->bytes);
	*differ = 0;
	for (size_t e = 0; e < x->bytes; e++) {
		int d = abs(p[e] - q[e]);

		most = d > most ? d : most;
		*differ += d != 0;
	}
	return most;
}

/* `n` pseudo-random int8 values from `state`. */
static void fill(int8_t *v, size_t n, uint32_t *state)
{
	for (size_t e = 0; e < n; e++) {
		*state = *state * 1103515245u + 12345u;
		v[e] = (int8_t)(*state >> 16);
	}
}

/* ------------------------------------------------------------- corpus */

static const char *const int8_cnns[] = {
	"mlperf_ic_resnet_int8",
	"mlperf_kws_ref_model_int8",
	"person_detect",
};

/* The ops the delegate claims; each in some model above. */
static const int32_t layer_ops[] = {
	OPVER_OP_CONV_2D,
	OPVER_OP_DEPTHWISE_CONV_2D,
	OPVER_OP_FULLY_CONNECTED,
};

/* Starts the corpus model `name` with oneDNN ahead of the reference
 * plugin (`dn`) and on the reference plugin alone (`ref`), both on the
 * same pseudo-random input: int8 bytes, or floats in [-1, 1). */
static void start_corpus_pair(const char *dir, const char *name,
			      uint32_t *state, run *dn, run *ref)
{
	char path[512];
	const opver_tensor *in;
	void *input;

	snprintf(path, sizeof(path), "%s/%s.tflite", dir, name);
	/* The input's size and type from a first, reference-only run. */
	ref->runtime = fixture_runtime(REFERENCE_ONLY, &captured);
	cr_assert_eq(opver_model_open(ref->runtime, path, &ref->model),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver_interpreter_create(ref->runtime, ref->model,
					      &ref->it),
		     OPVER_OK, "%s", captured.text);
	in = opver_interpreter_input(ref->it, 0);
	input = malloc(in->bytes);
	cr_assert_not_null(input);
	fill(input, in->bytes, state);
	if (in->type == OPVER_TYPE_FLOAT32)
		for (size_t e = 0; e < in->bytes / sizeof(float); e++)
			((float *)input)[e] =
				(float)((int8_t *)input)[e * sizeof(float)] /
				128.0f;
	stop(ref);
	start(dn, WITH_ONEDNN, NULL, 0, path, input);
	start(ref, REFERENCE_ONLY, NULL, 0, path, input);
	free(input);
}

Test(onednn, corpus_int8_cnns_run_their_layers_within_one_step)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	uint32_t state = 7;
	int seen[sizeof(layer_ops) / sizeof(layer_ops[0])] = { 0 };

	require_plugin();
	if (dir == NULL)
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	for (size_t m = 0; m < sizeof(int8_cnns) / sizeof(int8_cnns[0]);
	     m++) {
		run dn, ref;
		size_t differ;
		int nodes, on_onednn, steps;

		start_corpus_pair(dir, int8_cnns[m], &state, &dn, &ref);
		for (size_t o = 0; o < sizeof(layer_ops) / sizeof(layer_ops[0]);
		     o++) {
			count_nodes(&dn, layer_ops[o], &nodes, &on_onednn);
			cr_assert_eq(on_onednn, nodes,
				     "%s: %d of %d %s on oneDNN", int8_cnns[m],
				     on_onednn, nodes,
				     opver_op_name(layer_ops[o]));
			seen[o] += nodes;
		}
		steps = max_step_difference(&dn, &ref, &differ);
		cr_assert_leq(steps, 1, "%s: output %d steps from the reference",
			      int8_cnns[m], steps);
		stop(&dn);
		stop(&ref);
	}
	for (size_t o = 0; o < sizeof(layer_ops) / sizeof(layer_ops[0]); o++)
		cr_assert_gt(seen[o], 0, "no %s in the corpus's int8 CNNs",
			     opver_op_name(layer_ops[o]));
}

/* float32 CNNs whose convolutions are float32 throughout (the corpus's
 * float KWS model has hybrid int8 filters, which stay on the kernels). */
static const char *const float_cnns[] = {
	"mlperf_ic_resnet_float",
	"mlperf_vww_96_float",
};

/* The float32 ops oneDNN claims: in these models, every such node. */
static const opver_op float_ops[] = { OPVER_OP_CONV_2D,
				      OPVER_OP_DEPTHWISE_CONV_2D,
				      OPVER_OP_FULLY_CONNECTED };

/* oneDNN and the reference sum in different orders: the outputs agree to
 * float rounding, far below what a wrong scale, bias or clip gives. */
Test(onednn, corpus_float_cnns_run_their_convolutions_within_rounding)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	uint32_t state = 11;

	require_plugin();
	if (dir == NULL)
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	for (size_t m = 0; m < sizeof(float_cnns) / sizeof(float_cnns[0]);
	     m++) {
		run dn, ref;
		const opver_tensor *x, *y;
		float most = 0.0f, largest = 0.0f;
		int nodes, on_onednn, claimed = 0;

		start_corpus_pair(dir, float_cnns[m], &state, &dn, &ref);
		for (size_t o = 0; o < sizeof(float_ops) / sizeof(float_ops[0]);
		     o++) {
			count_nodes(&dn, float_ops[o], &nodes, &on_onednn);
			cr_assert_eq(on_onednn, nodes,
				     "%s: %d of %d %s on oneDNN", float_cnns[m],
				     on_onednn, nodes,
				     opver_op_name(float_ops[o]));
			claimed += on_onednn;
		}
		cr_assert_gt(claimed, 0, "%s", float_cnns[m]);
		x = opver_interpreter_output(dn.it, 0);
		y = opver_interpreter_output(ref.it, 0);
		cr_assert_eq(x->type, OPVER_TYPE_FLOAT32);
		cr_assert_eq(x->bytes, y->bytes);
		for (size_t e = 0; e < y->bytes / sizeof(float); e++) {
			float d = fabsf(((const float *)x->data)[e] -
					((const float *)y->data)[e]);

			most = d > most ? d : most;
			largest = fmaxf(largest,
					fabsf(((const float *)y->data)[e]));
		}
		cr_assert_leq(most, 1e-5f * fmaxf(1.0f, largest),
			      "%s: output %g from the reference (largest %g)",
			      float_cnns[m], (double)most, (double)largest);
		stop(&dn);
		stop(&ref);
	}
}

/* ------------------------------------------------------- built models */

/*
 * One int8 node: CONV_2D with input [1, h, w, c] and filter [oc, k, k, c];
 * DEPTHWISE_CONV_2D with filter [1, k, k, oc], oc a multiple of c (the
 * option depth_multiplier says oc / c, or `multiplier` when not 0);
 * FULLY_CONNECTED with input [h, w, c] (h * w rows of depth c), weights
 * [oc, c] and output [h, w, oc] with keep_num_dims, else [h * w, oc].
 */
typedef struct layer_case {
	int32_t op;
	int32_t h, w, c, oc, k;
	int32_t padding, stride, activation, dilation;
	bool per_channel;
	int64_t input_zero, output_zero, filter_zero;
	bool bias;
	bool keep_num_dims;
	int32_t multiplier;
} layer_case;

#define CONV OPVER_OP_CONV_2D
#define DW OPVER_OP_DEPTHWISE_CONV_2D
#define FC OPVER_OP_FULLY_CONNECTED
#define GEOMETRY(pad, stride, act, dilation) \
	OPVER_PADDING_##pad, (stride), OPVER_ACTIVATION_##act, (dilation)

static int32_t output_size(int32_t in, int32_t k, int32_t stride,
			   int32_t dilation, int32_t padding)
{
	int32_t span = (k - 1) * dilation + 1;

	return padding == OPVER_PADDING_SAME ? (in + stride - 1) / stride :
					       (in - span) / stride + 1;
}

/* The node's option struct and the version TFLite's rules give it. */
typedef union layer_params {
	opver_conv_params conv;
	opver_depthwise_conv_params depthwise;
	opver_fully_connected_params fc;
} layer_params;

static int32_t layer_options(const layer_case *lc, layer_params *p)
{
	if (lc->op == FC) {
		p->fc = (opver_fully_connected_params)
			OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS;
		p->fc.activation = lc->activation;
		p->fc.keep_num_dims = lc->keep_num_dims;
		return !lc->bias ? 6 : lc->keep_num_dims ? 5 : 4;
	}
	if (lc->op == DW) {
		p->depthwise = (opver_depthwise_conv_params){
			lc->padding, lc->stride, lc->stride,
			lc->multiplier != 0 ? lc->multiplier : lc->oc / lc->c,
			lc->activation, lc->dilation, lc->dilation
		};
		return 3;
	}
	p->conv = (opver_conv_params){ lc->padding, lc->stride, lc->stride,
				       lc->activation, lc->dilation,
				       lc->dilation, 0 };
	return 3;
}

/* Writes the case's model into *bytes (caller frees). */
static void build(const layer_case *lc, uint8_t **bytes, size_t *size,
		  uint32_t *state)
{
	int32_t oh = output_size(lc->h, lc->k, lc->stride, lc->dilation,
				 lc->padding);
	int32_t ow = output_size(lc->w, lc->k, lc->stride, lc->dilation,
				 lc->padding);
	int32_t scales = lc->per_channel ? lc->oc : 1;
	size_t filter_size = lc->op == FC ? (size_t)lc->oc * lc->c :
			     lc->op == DW ? (size_t)lc->k * lc->k * lc->oc :
					    (size_t)lc->oc * lc->k * lc->k * lc->c;
	/* Quantization for at least one channel: a case with no output
	 * channels still writes one scale. */
	size_t channels = lc->oc > 0 ? (size_t)lc->oc : 1;
	int8_t *filter = malloc(filter_size > 0 ? filter_size : 1);
	int32_t *bias = malloc(channels * sizeof(int32_t));
	float *filter_scales = malloc(channels * sizeof(float));
	float *bias_scales = malloc(channels * sizeof(float));
	int64_t *filter_zeros = calloc(channels, sizeof(int64_t));
	float in_scale = 0.05f, out_scale = 0.2f;
	layer_params params;
	int32_t version = layer_options(lc, &params);
	cf_tensor_desc tensors[4] = {
		{ OPVER_TYPE_INT8, 4, { 1, lc->h, lc->w, lc->c },
		  .quantized = true, .num_scales = 1, .scales = &in_scale,
		  .zero_points = &lc->input_zero },
		{ OPVER_TYPE_INT8, 4, { lc->oc, lc->k, lc->k, lc->c },
		  .quantized = true, .num_scales = scales,
		  .scales = filter_scales, .zero_points = filter_zeros,
		  .data = filter, .data_size = filter_size },
		{ OPVER_TYPE_INT32, 1, { lc->oc },
		  .quantized = true, .num_scales = scales,
		  .scales = bias_scales, .zero_points = filter_zeros,
		  .data = bias,
		  .data_size = (size_t)lc->oc * sizeof(int32_t) },
		{ OPVER_TYPE_INT8, 4, { 1, oh, ow, lc->oc },
		  .quantized = true, .num_scales = 1, .scales = &out_scale,
		  .zero_points = &lc->output_zero },
	};
	char error[256];

	cr_assert(filter && bias && filter_scales && bias_scales &&
		  filter_zeros);
	if (lc->op == DW) {
		tensors[1] = (cf_tensor_desc){
			OPVER_TYPE_INT8, 4, { 1, lc->k, lc->k, lc->oc },
			.quantized = true, .num_scales = scales,
			.scales = filter_scales, .zero_points = filter_zeros,
			.quantized_dimension = 3, .data = filter,
			.data_size = filter_size
		};
	} else if (lc->op == FC) {
		tensors[0].rank = 3;
		memcpy(tensors[0].dims,
		       (int32_t[]){ lc->h, lc->w, lc->c }, 3 * sizeof(int32_t));
		tensors[1].rank = 2;
		memcpy(tensors[1].dims, (int32_t[]){ lc->oc, lc->c },
		       2 * sizeof(int32_t));
		tensors[3].rank = lc->keep_num_dims ? 3 : 2;
		if (lc->keep_num_dims)
			memcpy(tensors[3].dims,
			       (int32_t[]){ lc->h, lc->w, lc->oc },
			       3 * sizeof(int32_t));
		else
			memcpy(tensors[3].dims,
			       (int32_t[]){ lc->h * lc->w, lc->oc },
			       2 * sizeof(int32_t));
	}
	fill(filter, filter_size, state);
	for (size_t o = 0; o < channels; o++) {
		*state = *state * 1103515245u + 12345u;
		bias[o] = (int32_t)(*state >> 16) % 4001 - 2000;
		filter_scales[o] = 0.002f + 0.0003f * (float)o;
		/* As TFLite's kernels require. */
		bias_scales[o] = in_scale * filter_scales[o];
		filter_zeros[o] = lc->filter_zero;
	}
	{
		const int32_t inputs[] = { 0, 1, lc->bias ? 2 : -1 };
		const int32_t outputs[] = { 3 };
		const cf_opcode_desc opcodes[] = { { lc->op, version, NULL } };
		const cf_operator_desc ops[] = {
			{ 0, inputs, lc->bias ? 3 : 2, outputs, 1, &params,
			  NULL, 0 },
		};
		const int32_t model_inputs[] = { 0 };
		const cf_model_desc desc = {
			tensors, 4, opcodes, 1, ops, 1, model_inputs, 1,
			outputs, 1,
		};

		cr_assert(cf_build_model(&desc, bytes, size, error,
					 sizeof(error)),
			  "%s", error);
	}
	free(filter);
	free(bias);
	free(filter_scales);
	free(bias_scales);
	free(filter_zeros);
}

static size_t input_bytes(const layer_case *lc)
{
	return (size_t)lc->h * lc->w * lc->c;
}

static const layer_case claimed_cases[] = {
	{ CONV, 7, 7, 64, 96, 1, GEOMETRY(SAME, 1, NONE, 1), true, -3, 5, 0, true, false, 0 },
	{ CONV, 16, 16, 16, 16, 3, GEOMETRY(SAME, 1, RELU, 1), true, -128, -128, 0, true, false, 0 },
	{ CONV, 16, 16, 8, 24, 3, GEOMETRY(SAME, 2, RELU6, 1), false, 17, -20, 0, true, false, 0 },
	{ CONV, 15, 17, 8, 8, 3, GEOMETRY(VALID, 2, NONE, 1), true, 0, 0, 0, false, false, 0 },
	{ CONV, 16, 16, 4, 8, 3, GEOMETRY(VALID, 2, RELU_N1_TO_1, 1), true, 9, 2, 0, true, false, 0 },
	{ CONV, 12, 12, 8, 8, 3, GEOMETRY(SAME, 1, NONE, 2), true, -7, 11, 0, true, false, 0 },
	{ CONV, 10, 9, 3, 16, 5, GEOMETRY(VALID, 1, RELU, 2), false, 50, -100, 0, true, false, 0 },
	{ CONV, 9, 9, 32, 40, 1, GEOMETRY(VALID, 2, NONE, 1), true, 1, 1, 0, true, false, 0 },
	/* Depth multiplier 1, 2 and 3; per-tensor and per-channel. */
	{ DW, 16, 16, 32, 32, 3, GEOMETRY(SAME, 1, RELU6, 1), true, -128, -128, 0, true, false, 0 },
	{ DW, 15, 13, 8, 8, 3, GEOMETRY(SAME, 2, NONE, 1), false, 17, -20, 0, true, false, 0 },
	{ DW, 12, 12, 8, 16, 3, GEOMETRY(VALID, 2, RELU, 1), true, 5, -3, 0, true, false, 0 },
	{ DW, 14, 14, 16, 16, 3, GEOMETRY(SAME, 1, NONE, 2), true, -7, 11, 0, false, false, 0 },
	{ DW, 11, 9, 3, 9, 5, GEOMETRY(VALID, 1, RELU_N1_TO_1, 1), true, 0, 2, 0, true, false, 0 },
	{ DW, 10, 10, 24, 48, 3, GEOMETRY(VALID, 1, RELU, 2), false, 50, -100, 0, true, false, 0 },
	/* One row and many, keep_num_dims, no bias. */
	{ FC, 1, 1, 256, 12, 1, GEOMETRY(VALID, 1, NONE, 1), false, -3, 5, 0, true, false, 0 },
	{ FC, 2, 3, 40, 24, 1, GEOMETRY(VALID, 1, RELU, 1), true, -128, -128, 0, false, true, 0 },
	{ FC, 4, 1, 33, 7, 1, GEOMETRY(VALID, 1, RELU6, 1), false, 17, -20, 0, true, false, 0 },
	{ FC, 5, 2, 64, 64, 1, GEOMETRY(VALID, 1, RELU_N1_TO_1, 1), true, 9, 2, 0, true, true, 0 },
};

Test(onednn, single_layers_run_on_onednn_within_one_step)
{
	uint32_t state = 12345;
	size_t total = 0, total_differ = 0;

	require_plugin();
	for (size_t i = 0; i < sizeof(claimed_cases) / sizeof(claimed_cases[0]);
	     i++) {
		const layer_case *lc = &claimed_cases[i];
		uint8_t *bytes;
		size_t size, differ;
		int8_t *input = malloc(input_bytes(lc));
		run dn, ref;
		int nodes, on_onednn, steps;

		cr_assert_not_null(input);
		build(lc, &bytes, &size, &state);
		fill(input, input_bytes(lc), &state);
		start(&dn, WITH_ONEDNN, bytes, size, NULL, input);
		start(&ref, REFERENCE_ONLY, bytes, size, NULL, input);
		count_nodes(&dn, lc->op, &nodes, &on_onednn);
		cr_assert_eq(on_onednn, 1, "case %zu not claimed: %s", i,
			     captured.text);
		steps = max_step_difference(&dn, &ref, &differ);
		cr_assert_leq(steps, 1, "case %zu: %d steps from the reference",
			      i, steps);
		total += opver_interpreter_output(dn.it, 0)->bytes;
		total_differ += differ;
		stop(&dn);
		stop(&ref);
		free(bytes);
		free(input);
	}
	/* One step is for ties only: nearly every element is exact. */
	cr_assert_lt(total_differ * 100, total, "%zu of %zu elements differ",
		     total_differ, total);
}

/* Nodes oneDNN would compute otherwise stay on the kernels, and say why. */
Test(onednn, refused_layers_stay_on_the_kernels_with_the_reason)
{
	static const struct {
		layer_case lc;
		const char *reason;
	} refused[] = {
		{ { CONV, 8, 8, 4, 4, 3, GEOMETRY(SAME, 1, NONE, 1), false, 0, 0, 3, true, false, 0 },
		  "oneDNN has no weight zero points" },
		{ { CONV, 8, 8, 4, 4, 3, GEOMETRY(SAME, 1, TANH, 1), true, 0, 0, 0, true, false, 0 },
		  "fused activation 4 not supported" },
		{ { DW, 8, 8, 4, 8, 3, GEOMETRY(SAME, 1, NONE, 1), false, 0, 0, -2, true, false, 0 },
		  "oneDNN has no weight zero points" },
		{ { DW, 8, 8, 4, 8, 3, GEOMETRY(SAME, 1, NONE, 1), true, 0, 0, 0, true, false, 3 },
		  "depth_multiplier 3, but the filter gives each input channel 2" },
		{ { FC, 2, 1, 16, 8, 1, GEOMETRY(VALID, 1, NONE, 1), false, 0, 0, 1, true, false, 0 },
		  "oneDNN has no weight zero points" },
		{ { FC, 2, 1, 16, 8, 1, GEOMETRY(VALID, 1, SIGN_BIT, 1), false, 0, 0, 0, true, false, 0 },
		  "fused activation 5 not supported" },
		{ { FC, 2, 1, 16, 8, 1, GEOMETRY(VALID, 1, RELU, 1), false, 0, 300, 0, true, false, 0 },
		  "an int8 zero point each" },
		{ { CONV, 4, 4, 2, 0, 1, GEOMETRY(VALID, 1, NONE, 1), false, 0, 0, 0, false, false, 0 },
		  "a tensor has no elements" },
	};
	uint32_t state = 99;

	require_plugin();
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const layer_case *lc = &refused[i].lc;
		layer_params params;
		char left[96];
		uint8_t *bytes;
		size_t size;
		opver_runtime *runtime;
		opver_model *model;
		opver_interpreter *it;
		opver_node_info info;

		snprintf(left, sizeof(left),
			 "node 0 (%s v%d) is left to other plugins",
			 opver_op_name(lc->op), (int)layer_options(lc, &params));
		build(lc, &bytes, &size, &state);
		runtime = fixture_runtime(WITH_ONEDNN, &captured);
		cr_assert_eq(opver_model_open_memory(runtime, bytes, size,
						     &model),
			     OPVER_OK, "%s", captured.text);
		/* Some have no int8 kernel either (TANH, a wrong
		 * depth_multiplier): creation may fail, but the claim is
		 * decided (and logged) first. */
		if (opver_interpreter_create(runtime, model, &it) ==
		    OPVER_OK) {
			cr_assert_eq(opver_interpreter_node_info(it, 0, &info),
				     OPVER_OK);
			cr_assert_null(info.delegate);
			opver_interpreter_destroy(it);
		}
		cr_assert(messages_line_has(&captured, "info:", left,
					    refused[i].reason, NULL),
			  "case %zu: %s", i, captured.text);
		opver_model_close(model);
		opver_runtime_destroy(runtime);
		messages_clear(&captured);
		free(bytes);
	}
}

/* opver-conformance on the plugin, the cases of each op it claims with
 * the declared one-step tolerance, load/unload hygiene included. */
Test(onednn, conformance_passes_with_one_step)
{
	static const char *const ops[] = { "CONV_2D", "DEPTHWISE_CONV_2D",
					   "FULLY_CONNECTED" };

	require_plugin();
	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		const char *argv[] = { OPVER_CONFORMANCE, "--steps", "1",
				       "--op", ops[o], "--reference",
				       REFERENCE_PLUGIN, ONEDNN_PLUGIN, NULL };
		char line[64], none[64];
		spawn_result r;

		snprintf(line, sizeof(line), "\n%s/delegate:onednn: ", ops[o]);
		snprintf(none, sizeof(none), "%s/delegate:onednn: 0 passed",
			 ops[o]);
		spawn_run(&r, argv);
		cr_assert_eq(r.status, 0, "%s: exit %d\n%.6000s\n%.2000s",
			     ops[o], r.status, r.out, r.err);
		cr_assert(strncmp(r.out, "hygiene: ", 9) == 0, "%s", r.out);
		cr_assert(strstr(r.out, line) != NULL, "%s", r.out);
		cr_assert(strstr(r.out, none) == NULL, "%s", r.out);
		spawn_free(&r);
	}
}
