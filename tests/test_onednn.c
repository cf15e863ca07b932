/*
 * test_onednn.c - the oneDNN delegate plugin (plugins/onednn), stacked
 * ahead of the reference plugin: int8 CONV_2D nodes run on oneDNN and land
 * within one output step of the reference plugin alone (oneDNN rescales in
 * float, TFLite and the reference in fixed point: a tie may round apart),
 * on the corpus's int8 CNNs and on single convolutions built here over the
 * geometry and quantization a convolution can have (1x1 and 3x3, strides,
 * SAME and VALID padding, dilation, per-tensor and per-channel filters,
 * zero points, fused activations).  What it refuses stays on the kernels,
 * with the reason logged; opver-conformance passes on it with one step of
 * integer tolerance.  Every test skips when configure did not find
 * oneDNN or the CPU has no VNNI (the plugin then declines to load).
 */
#include <criterion/criterion.h>
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

typedef struct run {
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *it;
} run;

/* Starts `model_bytes` (copied by opver) or the file `path` on `config`
 * and invokes it on int8 input bytes `input` (as many as input 0 has). */
static void start(run *r, const char *config, const uint8_t *model_bytes,
		  size_t model_size, const char *path, const int8_t *input)
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

Test(onednn, corpus_int8_cnns_run_their_convolutions_within_one_step)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	char path[512];
	uint32_t state = 7;

	require_plugin();
	if (dir == NULL)
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	for (size_t m = 0; m < sizeof(int8_cnns) / sizeof(int8_cnns[0]);
	     m++) {
		run dn, ref;
		int8_t *input;
		size_t bytes, differ;
		int nodes, on_onednn, steps;

		snprintf(path, sizeof(path), "%s/%s.tflite", dir, int8_cnns[m]);
		/* The input's size from a first, reference-only run. */
		ref.runtime = fixture_runtime(REFERENCE_ONLY, &captured);
		cr_assert_eq(opver_model_open(ref.runtime, path, &ref.model),
			     OPVER_OK, "%s", captured.text);
		cr_assert_eq(opver_interpreter_create(ref.runtime, ref.model,
						      &ref.it),
			     OPVER_OK, "%s", captured.text);
		bytes = opver_interpreter_input(ref.it, 0)->bytes;
		stop(&ref);
		input = malloc(bytes);
		cr_assert_not_null(input);
		fill(input, bytes, &state);
		start(&dn, WITH_ONEDNN, NULL, 0, path, input);
		start(&ref, REFERENCE_ONLY, NULL, 0, path, input);
		count_nodes(&dn, OPVER_OP_CONV_2D, &nodes, &on_onednn);
		cr_assert_gt(nodes, 0, "%s", int8_cnns[m]);
		cr_assert_eq(on_onednn, nodes, "%s: %d of %d CONV_2D on oneDNN",
			     int8_cnns[m], on_onednn, nodes);
		steps = max_step_difference(&dn, &ref, &differ);
		cr_assert_leq(steps, 1, "%s: output %d steps from the reference",
			      int8_cnns[m], steps);
		stop(&dn);
		stop(&ref);
		free(input);
	}
}

/* ------------------------------------------------------- built models */

/* One int8 CONV_2D: input [1, h, w, c], filter [oc, k, k, c]. */
typedef struct conv_case {
	int32_t h, w, c, oc, k;
	opver_conv_params params;
	bool per_channel;
	int64_t input_zero, output_zero, filter_zero;
	bool bias;
} conv_case;

#define PARAMS(pad, stride, act, dilation) \
	{ OPVER_PADDING_##pad, (stride), (stride), OPVER_ACTIVATION_##act, \
	  (dilation), (dilation), 0 }

static int32_t output_size(int32_t in, int32_t k, int32_t stride,
			   int32_t dilation, int32_t padding)
{
	int32_t span = (k - 1) * dilation + 1;

	return padding == OPVER_PADDING_SAME ? (in + stride - 1) / stride :
					       (in - span) / stride + 1;
}

/* Writes the case's model into *bytes (caller frees). */
static void build(const conv_case *cc, uint8_t **bytes, size_t *size,
		  uint32_t *state)
{
	int32_t oh = output_size(cc->h, cc->k, cc->params.stride_height,
				 cc->params.dilation_height,
				 cc->params.padding);
	int32_t ow = output_size(cc->w, cc->k, cc->params.stride_width,
				 cc->params.dilation_width,
				 cc->params.padding);
	size_t filter_size = (size_t)cc->oc * cc->k * cc->k * cc->c;
	int8_t *filter = malloc(filter_size);
	int32_t *bias = malloc((size_t)cc->oc * sizeof(int32_t));
	float *filter_scales = malloc((size_t)cc->oc * sizeof(float));
	int64_t *filter_zeros = calloc((size_t)cc->oc, sizeof(int64_t));
	float in_scale = 0.05f, out_scale = 0.2f;
	char error[256];

	cr_assert(filter && bias && filter_scales && filter_zeros);
	fill(filter, filter_size, state);
	for (int32_t o = 0; o < cc->oc; o++) {
		*state = *state * 1103515245u + 12345u;
		bias[o] = (int32_t)(*state >> 16) % 4001 - 2000;
		filter_scales[o] = 0.002f + 0.0003f * (float)o;
		filter_zeros[o] = cc->filter_zero;
	}
	{
		int32_t scales = cc->per_channel ? cc->oc : 1;
		const cf_tensor_desc tensors[] = {
			{ OPVER_TYPE_INT8, 4, { 1, cc->h, cc->w, cc->c },
			  .quantized = true, .num_scales = 1,
			  .scales = &in_scale,
			  .zero_points = &cc->input_zero },
			{ OPVER_TYPE_INT8, 4, { cc->oc, cc->k, cc->k, cc->c },
			  .quantized = true, .num_scales = scales,
			  .scales = filter_scales,
			  .zero_points = filter_zeros,
			  .data = filter, .data_size = filter_size },
			{ OPVER_TYPE_INT32, 1, { cc->oc },
			  .quantized = true, .num_scales = 1,
			  .scales = &in_scale, .zero_points = filter_zeros,
			  .data = bias,
			  .data_size = (size_t)cc->oc * sizeof(int32_t) },
			{ OPVER_TYPE_INT8, 4, { 1, oh, ow, cc->oc },
			  .quantized = true, .num_scales = 1,
			  .scales = &out_scale,
			  .zero_points = &cc->output_zero },
		};
		const int32_t inputs[] = { 0, 1, cc->bias ? 2 : -1 };
		const int32_t outputs[] = { 3 };
		const cf_opcode_desc opcodes[] = { { OPVER_OP_CONV_2D, 3 } };
		const cf_operator_desc ops[] = {
			{ 0, inputs, 3, outputs, 1, &cc->params },
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
	free(filter_zeros);
}

static const conv_case claimed_cases[] = {
	{ 7, 7, 64, 96, 1, PARAMS(SAME, 1, NONE, 1), true, -3, 5, 0, true },
	{ 16, 16, 16, 16, 3, PARAMS(SAME, 1, RELU, 1), true, -128, -128, 0, true },
	{ 16, 16, 8, 24, 3, PARAMS(SAME, 2, RELU6, 1), false, 17, -20, 0, true },
	{ 15, 17, 8, 8, 3, PARAMS(VALID, 2, NONE, 1), true, 0, 0, 0, false },
	{ 16, 16, 4, 8, 3, PARAMS(VALID, 2, RELU_N1_TO_1, 1), true, 9, 2, 0, true },
	{ 12, 12, 8, 8, 3, PARAMS(SAME, 1, NONE, 2), true, -7, 11, 0, true },
	{ 10, 9, 3, 16, 5, PARAMS(VALID, 1, RELU, 2), false, 50, -100, 0, true },
	{ 9, 9, 32, 40, 1, PARAMS(VALID, 2, NONE, 1), true, 1, 1, 0, true },
};

Test(onednn, single_convolutions_run_on_onednn_within_one_step)
{
	uint32_t state = 12345;
	size_t total = 0, total_differ = 0;

	require_plugin();
	for (size_t i = 0; i < sizeof(claimed_cases) / sizeof(claimed_cases[0]);
	     i++) {
		const conv_case *cc = &claimed_cases[i];
		uint8_t *bytes;
		size_t size, differ, input_size = (size_t)cc->h * cc->w * cc->c;
		int8_t *input = malloc(input_size);
		run dn, ref;
		int nodes, on_onednn, steps;

		cr_assert_not_null(input);
		build(cc, &bytes, &size, &state);
		fill(input, input_size, &state);
		start(&dn, WITH_ONEDNN, bytes, size, NULL, input);
		start(&ref, REFERENCE_ONLY, bytes, size, NULL, input);
		count_nodes(&dn, OPVER_OP_CONV_2D, &nodes, &on_onednn);
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
Test(onednn, refused_convolutions_stay_on_the_kernels_with_the_reason)
{
	static const struct {
		conv_case cc;
		const char *reason;
	} refused[] = {
		{ { 8, 8, 4, 4, 3, PARAMS(SAME, 1, NONE, 1), false, 0, 0, 3,
		    true },
		  "oneDNN has no weight zero points" },
		{ { 8, 8, 4, 4, 3, PARAMS(SAME, 1, TANH, 1), true, 0, 0, 0,
		    true },
		  "fused activation 4 not supported" },
	};
	uint32_t state = 99;

	require_plugin();
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		const conv_case *cc = &refused[i].cc;
		size_t input_size = (size_t)cc->h * cc->w * cc->c;
		int8_t *input = calloc(input_size, 1);
		uint8_t *bytes;
		size_t size;
		opver_runtime *runtime;
		opver_model *model;
		opver_interpreter *it;
		opver_node_info info;

		cr_assert_not_null(input);
		build(cc, &bytes, &size, &state);
		runtime = fixture_runtime(WITH_ONEDNN, &captured);
		cr_assert_eq(opver_model_open_memory(runtime, bytes, size,
						     &model),
			     OPVER_OK, "%s", captured.text);
		/* TANH has no int8 kernel either: creation may fail, but
		 * the claim is decided (and logged) first. */
		if (opver_interpreter_create(runtime, model, &it) ==
		    OPVER_OK) {
			cr_assert_eq(opver_interpreter_node_info(it, 0, &info),
				     OPVER_OK);
			cr_assert_null(info.delegate);
			opver_interpreter_destroy(it);
		}
		cr_assert(messages_line_has(&captured, "info:",
					    "node 0 (CONV_2D v3) is left to other plugins",
					    refused[i].reason, NULL),
			  "%s", captured.text);
		opver_model_close(model);
		opver_runtime_destroy(runtime);
		messages_clear(&captured);
		free(bytes);
		free(input);
	}
}

/* opver-conformance on the plugin, CONV_2D cases with the declared
 * one-step tolerance, load/unload hygiene included. */
Test(onednn, conformance_passes_with_one_step)
{
	const char *argv[] = { OPVER_CONFORMANCE, "--steps", "1", "--op",
			       "CONV_2D", "--reference", REFERENCE_PLUGIN,
			       ONEDNN_PLUGIN, NULL };
	spawn_result r;

	require_plugin();
	spawn_run(&r, argv);
	cr_assert_eq(r.status, 0, "exit %d\n%.6000s\n%.2000s", r.status, r.out,
		     r.err);
	cr_assert(strncmp(r.out, "hygiene: ", 9) == 0, "%s", r.out);
	cr_assert(strstr(r.out, "\nCONV_2D/delegate:onednn: ") != NULL, "%s",
		  r.out);
	cr_assert(strstr(r.out, "CONV_2D/delegate:onednn: 0 passed") == NULL,
		  "%s", r.out);
	spawn_free(&r);
}
