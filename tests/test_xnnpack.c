/*
 * test_xnnpack.c - the XNNPACK delegate plugin (plugins/xnnpack) with the
 * reference plugin for what it leaves: the corpus's float models meet their
 * goldens and agree with the reference plugin alone; its int8 models meet
 * their goldens within a step more than the corpus allows, agree within
 * one step with the reference built to rescale once, and have every
 * convolution and fully connected node on the delegate, as has the uint8
 * MobileNet bench/mobilenet_uint8 writes; --explain shows the
 * partitions and, at info level, why a node stays on the kernels;
 * opver-conformance passes on it (its AVERAGE_POOL_2D, CONV_2D and
 * DEPTHWISE_CONV_2D cases with a stride above the window fail without the
 * explicit-padding workaround, its load/unload hygiene check without the
 * pinned library); its threads option works and is checked.  Every test
 * skips when configure did not find XNNPACK.
 *
 * Float tolerance: 1e-5 * max(1, max |reference|), opver-conformance's
 * default.  XNNPACK sums each dot product in another order than the
 * reference's sequential loops (SIMD lanes, fused multiply-adds), which
 * moves results by a few ulps per layer; the corpus models stay within
 * 2.2e-6 of the reference plugin (mlperf_ic_resnet_float).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"
#include "spawn.h"

#define RTOL 1e-5

/* The corpus's float models, whose nodes the delegate runs (but the
 * hybrid CONV_2D nodes of the keyword model). */
static const char *const float_models[] = {
	"hello_world_float",
	"magic_wand",
	"mlperf_ic_resnet_float",
	"mlperf_kws_ref_model_float32",
	"mlperf_vww_96_float",
	"test_conv_model",
};

/* The corpus's int8 and uint8 models: their CONV_2D, DEPTHWISE_CONV_2D
 * and FULLY_CONNECTED nodes run on the delegate. */
static const char *const quantized_models[] = {
	"hello_world_int8",
	"micro_speech_quantized",
	"mlperf_ic_resnet_int8",
	"mlperf_kws_ref_model_int8",
	"network_tester_model",
	"person_detect",
};

static bool listed(const char *const *models, size_t count,
		   const char *model)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(model, models[i]) == 0)
			return true;
	return false;
}

static void require_plugin(void)
{
	if (access(XNNPACK_PLUGIN, R_OK) != 0)
		cr_skip_test("the XNNPACK plugin was not built (configure found no XNNPACK)");
}

static const char *require_corpus(void)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");

	if (dir == NULL || *dir == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	return dir;
}

/* The reference plugin built to rescale once, as XNNPACK does. */
#define SINGLE_ROUNDING TEST_PLUGIN_DIR "/reference_single_rounding.so"

/* Writes a config loading the reference plugin (`reference`, NULL for
 * REFERENCE_PLUGIN) and, with `xnnpack`, the delegate with the section's
 * further `options` lines; path is a mkstemp template the caller
 * unlinks. */
static void write_config_with(char *path, const char *reference,
			      bool xnnpack, const char *options)
{
	int fd = mkstemp(path);
	FILE *file;

	cr_assert(fd >= 0, "cannot create a temporary config");
	file = fdopen(fd, "w");
	cr_assert_not_null(file);
	fprintf(file, "[plugin.reference]\nlibrary = %s\n",
		reference != NULL ? reference : REFERENCE_PLUGIN);
	if (xnnpack)
		fprintf(file, "[plugin.xnnpack]\nlibrary = %s\n%s",
			XNNPACK_PLUGIN, options);
	cr_assert_eq(fclose(file), 0);
}

static void write_config(char *path, bool xnnpack, const char *options)
{
	write_config_with(path, NULL, xnnpack, options);
}

#define MODELS(list) list, sizeof(list) / sizeof(*list)

/* The corpus cases of the `count` models `models`; caller frees. */
static long model_cases(const char *dir, const char *const *models,
			size_t count, corpus_case **cases)
{
	char error[256];
	long total = corpus_read_cases(dir, cases, error, sizeof(error));
	long kept = 0;

	cr_assert_geq(total, 0, "%s", error);
	for (long i = 0; i < total; i++)
		if (listed(models, count, (*cases)[i].model))
			(*cases)[kept++] = (*cases)[i];
	cr_assert_gt(kept, 0, "none of the models has cases in the corpus");
	return kept;
}

static long float_cases(const char *dir, corpus_case **cases)
{
	return model_cases(dir, MODELS(float_models), cases);
}

/* Every case of `models` meets its corpus check with the delegate. */
static void meet_corpus_goldens(const char *const *models, size_t n)
{
	char config[] = "/tmp/opver-xnnpack-XXXXXX";
	const char *dir;
	corpus_case *cases = NULL;
	long count;

	require_plugin();
	dir = require_corpus();
	count = model_cases(dir, models, n, &cases);
	write_config(config, true, "");
	for (long i = 0; i < count; i++) {
		char message[2048];
		corpus_outcome outcome = corpus_run_case(dir, config, &cases[i],
							 message,
							 sizeof(message));

		if (outcome != CORPUS_PASSED)
			unlink(config);
		cr_assert_eq(outcome, CORPUS_PASSED, "%s/%s: %s",
			     cases[i].model, cases[i].name, message);
	}
	unlink(config);
	free(cases);
}

Test(xnnpack, float_models_meet_corpus_goldens)
{
	meet_corpus_goldens(MODELS(float_models));
}

/* What one quantized case's outputs are checked against. */
typedef struct golden {
	const char *dir;
	const corpus_case *c;
	int steps;
} golden;

/* The steps of a case's "int:N" check, 0 for "exact". */
static int check_steps(const corpus_case *c)
{
	const char *at = strstr(c->check, "int:");

	return at != NULL ? atoi(at + 4) : 0;
}

/* Output `index` (int8, as in every quantized corpus model) within
 * g->steps of the case's golden. */
static bool within_golden(void *user_data, size_t index,
			  const opver_tensor *output, char *why,
			  size_t why_size)
{
	const golden *g = user_data;
	char path[1024];
	int8_t *want = malloc(output->bytes);
	const int8_t *got = output->data;
	FILE *file;
	bool ok = want != NULL;

	snprintf(path, sizeof(path), "%s/cases/%s/%s/expected%zu.raw", g->dir,
		 g->c->model, g->c->name, index);
	file = fopen(path, "rb");
	ok = ok && output->type == OPVER_TYPE_INT8 && file != NULL &&
	     fread(want, 1, output->bytes, file) == output->bytes;
	if (!ok)
		snprintf(why, why_size, "cannot compare with %s", path);
	for (size_t i = 0; ok && i < output->bytes; i++)
		if (abs(got[i] - want[i]) > g->steps) {
			snprintf(why, why_size,
				 "element %zu: %d, golden %d (%d steps allowed)",
				 i, got[i], want[i], g->steps);
			ok = false;
		}
	if (file != NULL)
		fclose(file);
	free(want);
	return ok;
}

/*
 * The quantized models' outputs are their goldens' within one step more
 * than the corpus allows: most goldens are the second engine's, which
 * rescales once as XNNPACK does (they agree exactly), but a bit-exact
 * upstream golden of TFLite's double rounding is one step away.
 */
Test(xnnpack, quantized_models_meet_corpus_goldens)
{
	char config[] = "/tmp/opver-xnnpack-XXXXXX";
	const char *dir;
	corpus_case *cases = NULL;
	long count;

	require_plugin();
	dir = require_corpus();
	count = model_cases(dir, MODELS(quantized_models), &cases);
	write_config(config, true, "");
	for (long i = 0; i < count; i++) {
		golden g = { dir, &cases[i], check_steps(&cases[i]) + 1 };
		char message[2048];
		corpus_outcome outcome = corpus_run_outputs(dir, config,
			&cases[i], within_golden, &g, message,
			sizeof(message));

		if (outcome != CORPUS_PASSED)
			unlink(config);
		cr_assert_eq(outcome, CORPUS_PASSED, "%s/%s: %s",
			     cases[i].model, cases[i].name, message);
	}
	unlink(config);
	free(cases);
}

/* Runs `model` on `input` with `config`, writing its first output to
 * `output`. */
static void run_model(const char *config, const char *model,
		      const char *input, const char *output)
{
	const char *argv[] = { OPVER_RUN, "--config", config, model, "-i",
			       input, "-o", output, NULL };
	spawn_result r;

	spawn_run(&r, argv);
	cr_assert_eq(r.status, 0, "%s: exit %d\n%s", model, r.status, r.err);
	spawn_free(&r);
}

/* The float32 elements of `path`; *count is set; caller frees. */
static float *read_floats(const char *path, size_t *count)
{
	FILE *file = fopen(path, "rb");
	float *values;
	long bytes;

	cr_assert_not_null(file, "cannot open %s", path);
	cr_assert_eq(fseek(file, 0, SEEK_END), 0);
	bytes = ftell(file);
	rewind(file);
	cr_assert_gt(bytes, 0);
	values = malloc((size_t)bytes);
	cr_assert_not_null(values);
	*count = (size_t)bytes / sizeof(float);
	cr_assert_eq(fread(values, sizeof(float), *count, file), *count);
	fclose(file);
	return values;
}

Test(xnnpack, float_models_agree_with_the_reference_plugin)
{
	char with[] = "/tmp/opver-xnnpack-XXXXXX";
	char without[] = "/tmp/opver-xnnpack-XXXXXX";
	char got_path[] = "/tmp/opver-xnnpack-out-XXXXXX";
	char want_path[] = "/tmp/opver-xnnpack-ref-XXXXXX";
	const char *dir;
	corpus_case *cases = NULL;
	long count;

	require_plugin();
	dir = require_corpus();
	count = float_cases(dir, &cases);
	write_config(with, true, "");
	write_config(without, false, "");
	close(mkstemp(got_path));
	close(mkstemp(want_path));
	for (long i = 0; i < count; i++) {
		char model[1024], input[1024];
		size_t n, m;
		float *got, *want;
		double largest = 1.0, worst = 0.0;

		snprintf(model, sizeof(model), "%s/%s.tflite", dir,
			 cases[i].model);
		snprintf(input, sizeof(input), "%s/cases/%s/%s/in0.raw", dir,
			 cases[i].model, cases[i].name);
		run_model(with, model, input, got_path);
		run_model(without, model, input, want_path);
		got = read_floats(got_path, &n);
		want = read_floats(want_path, &m);
		cr_assert_eq(n, m);
		for (size_t k = 0; k < n; k++) {
			largest = fmax(largest, fabs(want[k]));
			worst = fmax(worst, fabs((double)got[k] - want[k]));
		}
		cr_expect_leq(worst, RTOL * largest,
			      "%s/%s: differs from the reference plugin by %g",
			      cases[i].model, cases[i].name, worst);
		free(got);
		free(want);
	}
	unlink(with);
	unlink(without);
	unlink(got_path);
	unlink(want_path);
	free(cases);
}

/* The bytes of `path`; *count is set; caller frees. */
static int8_t *read_bytes(const char *path, size_t *count)
{
	FILE *file = fopen(path, "rb");
	int8_t *bytes;
	long size;

	cr_assert_not_null(file, "cannot open %s", path);
	cr_assert_eq(fseek(file, 0, SEEK_END), 0);
	size = ftell(file);
	rewind(file);
	cr_assert_gt(size, 0);
	bytes = malloc((size_t)size);
	cr_assert_not_null(bytes);
	*count = (size_t)size;
	cr_assert_eq(fread(bytes, 1, *count, file), *count);
	fclose(file);
	return bytes;
}

/*
 * Within one step of the reference plugin built to rescale once, as
 * XNNPACK does.  Against the default reference (TFLite's double rounding)
 * the end outputs drift further where SOFTMAX amplifies a one-step
 * difference: up to 8 steps on the full-range random inputs.
 */
Test(xnnpack, quantized_models_agree_with_the_single_rounding_reference)
{
	char with[] = "/tmp/opver-xnnpack-XXXXXX";
	char without[] = "/tmp/opver-xnnpack-XXXXXX";
	char got_path[] = "/tmp/opver-xnnpack-out-XXXXXX";
	char want_path[] = "/tmp/opver-xnnpack-ref-XXXXXX";
	const char *dir;
	corpus_case *cases = NULL;
	long count;

	require_plugin();
	dir = require_corpus();
	count = model_cases(dir, MODELS(quantized_models), &cases);
	write_config(with, true, "");
	write_config_with(without, SINGLE_ROUNDING, false, "");
	close(mkstemp(got_path));
	close(mkstemp(want_path));
	for (long i = 0; i < count; i++) {
		char model[1024], input[1024];
		size_t n, m;
		int8_t *got, *want;

		snprintf(model, sizeof(model), "%s/%s.tflite", dir,
			 cases[i].model);
		snprintf(input, sizeof(input), "%s/cases/%s/%s/in0.raw", dir,
			 cases[i].model, cases[i].name);
		run_model(with, model, input, got_path);
		run_model(without, model, input, want_path);
		got = read_bytes(got_path, &n);
		want = read_bytes(want_path, &m);
		cr_assert_eq(n, m);
		for (size_t k = 0; k < n; k++)
			cr_expect_leq(abs(got[k] - want[k]), 1,
				      "%s/%s: element %zu is %d, the reference's %d",
				      cases[i].model, cases[i].name, k, got[k],
				      want[k]);
		free(got);
		free(want);
	}
	unlink(with);
	unlink(without);
	unlink(got_path);
	unlink(want_path);
	free(cases);
}

/* Whether an --explain node line is a CONV_2D, DEPTHWISE_CONV_2D or
 * FULLY_CONNECTED node. */
static bool is_filter_node(const char *line)
{
	char op[64];

	return sscanf(line, "%*d %63s", op) == 1 &&
	       (strcmp(op, "CONV_2D") == 0 ||
		strcmp(op, "DEPTHWISE_CONV_2D") == 0 ||
		strcmp(op, "FULLY_CONNECTED") == 0);
}

/* Every convolution and fully connected node of the quantized models
 * runs on the delegate: a claim regression cannot pass as a slower run
 * on the reference kernels. */
Test(xnnpack, quantized_filter_nodes_run_on_the_delegate)
{
	char config[] = "/tmp/opver-xnnpack-XXXXXX";
	const char *dir;

	require_plugin();
	dir = require_corpus();
	write_config(config, true, "");
	for (size_t i = 0; i < sizeof(quantized_models) /
			       sizeof(*quantized_models); i++) {
		char model[1024];
		const char *argv[] = { OPVER_RUN, "--config", config,
				       "--explain", model, NULL };
		spawn_result r;
		int filters = 0;

		snprintf(model, sizeof(model), "%s/%s.tflite", dir,
			 quantized_models[i]);
		spawn_run(&r, argv);
		cr_assert_eq(r.status, 0, "%s", r.err);
		for (char *line = strtok(r.out, "\n"); line != NULL;
		     line = strtok(NULL, "\n")) {
			if (!is_filter_node(line))
				continue;
			filters++;
			cr_expect(strstr(line, "delegate xnnpack") != NULL,
				  "%s: %s", quantized_models[i], line);
		}
		cr_expect_gt(filters, 0, "%s: no filter nodes listed",
			     quantized_models[i]);
		spawn_free(&r);
	}
	unlink(config);
}

/* bench/mobilenet_uint8's model: every convolution on the delegate, and
 * logits (output 0, uint8) within one step of the reference built to
 * rescale once, over 28 layers. */
Test(xnnpack, uint8_mobilenet_runs_on_the_delegate)
{
	char with[] = "/tmp/opver-xnnpack-XXXXXX";
	char without[] = "/tmp/opver-xnnpack-XXXXXX";
	char model[] = "/tmp/opver-mobilenet-XXXXXX";
	char input[] = "/tmp/opver-mobilenet-in-XXXXXX";
	char got_path[] = "/tmp/opver-xnnpack-out-XXXXXX";
	char want_path[] = "/tmp/opver-xnnpack-ref-XXXXXX";
	const char *generate[] = { MOBILENET_UINT8, model, input, NULL };
	const char *explain[] = { OPVER_RUN, "--config", with, "--explain",
				  model, NULL };
	spawn_result r;
	int filters = 0;
	size_t n, m;
	uint8_t *got, *want;

	require_plugin();
	write_config(with, true, "");
	write_config_with(without, SINGLE_ROUNDING, false, "");
	close(mkstemp(model));
	close(mkstemp(input));
	close(mkstemp(got_path));
	close(mkstemp(want_path));
	spawn_run(&r, generate);
	cr_assert_eq(r.status, 0, "%s", r.err);
	spawn_free(&r);
	spawn_run(&r, explain);
	cr_assert_eq(r.status, 0, "%s", r.err);
	for (char *line = strtok(r.out, "\n"); line != NULL;
	     line = strtok(NULL, "\n")) {
		if (!is_filter_node(line))
			continue;
		filters++;
		cr_expect(strstr(line, "delegate xnnpack") != NULL, "%s", line);
	}
	cr_expect_eq(filters, 28);
	spawn_free(&r);
	run_model(with, model, input, got_path);
	run_model(without, model, input, want_path);
	got = (uint8_t *)read_bytes(got_path, &n);
	want = (uint8_t *)read_bytes(want_path, &m);
	cr_assert_eq(n, m);
	cr_assert_eq(n, 1001);
	for (size_t k = 0; k < n; k++)
		cr_expect_leq(abs(got[k] - want[k]), 1,
			      "logit %zu is %d, the reference's %d", k, got[k],
			      want[k]);
	free(got);
	free(want);
	unlink(with);
	unlink(without);
	unlink(model);
	unlink(input);
	unlink(got_path);
	unlink(want_path);
}

Test(xnnpack, explain_shows_partitions_and_reasons)
{
	char config[] = "/tmp/opver-xnnpack-XXXXXX";
	char model[1024];
	const char *argv[] = { OPVER_RUN, "--config", config, "--explain",
			       "--log-level", "info", model, NULL };
	spawn_result r;

	require_plugin();
	snprintf(model, sizeof(model), "%s/mlperf_kws_ref_model_float32.tflite",
		 require_corpus());
	write_config(config, true, "");
	spawn_run(&r, argv);
	unlink(config);
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* The float32 DEPTHWISE_CONV_2D between hybrid convolutions. */
	cr_assert(strstr(r.out, "   1  DEPTHWISE_CONV_2D         1        1  FLOAT32,FLOAT32,FLOAT32  delegate xnnpack (plugin xnnpack)") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "reference/conv_2d_hybrid") != NULL, "%s",
		  r.out);
	cr_assert(strstr(r.err, "plugin 'xnnpack': node 0 (CONV_2D v2) stays on the kernels: input 1 is not float32") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

Test(xnnpack, conformance_passes)
{
	/* One step for int8 and uint8: XNNPACK rescales once, in float,
	 * where the reference rounds TFLite's fixed-point way. */
	const char *argv[] = { OPVER_CONFORMANCE, "--steps", "1",
			       "--reference", REFERENCE_PLUGIN, XNNPACK_PLUGIN,
			       NULL };
	spawn_result r;

	require_plugin();
	spawn_run(&r, argv);
	cr_assert_eq(r.status, 0, "exit %d\n%.6000s\n%.2000s", r.status, r.out,
		     r.err);
	/* Every op the delegate claims, so that no claim goes untested;
	 * among them, those the padding workaround is for. */
	static const char *const claimed[] = {
		"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD", "MUL",
		"SUB", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE",
		"AVERAGE_POOL_2D", "MAX_POOL_2D", "MEAN", "PAD", "RESHAPE",
		"SOFTMAX", "RELU", "RELU6", "RELU_N1_TO_1", "LOGISTIC",
		"HARD_SWISH", "LEAKY_RELU", "ELU", "PRELU", "QUANTIZE",
		"DEQUANTIZE", "RESIZE_BILINEAR", "DEPTH_TO_SPACE",
		"TRANSPOSE_CONV", "ABS", "NEG", "SQUARE", "SQRT", "FLOOR",
		"CEIL", "ROUND",
	};
	/* Exit status 0: every check passed, the load/unload hygiene
	 * included (skipped under AddressSanitizer, whose heap it cannot
	 * measure). */
	cr_assert(strncmp(r.out, "hygiene: ", 9) == 0, "%s", r.out);
	for (size_t i = 0; i < sizeof(claimed) / sizeof(*claimed); i++) {
		char line[64];

		snprintf(line, sizeof(line), "\n%s/delegate:xnnpack: ",
			 claimed[i]);
		cr_expect(strstr(r.out, line) != NULL,
			  "no delegate cases for %s", claimed[i]);
	}
	spawn_free(&r);
}

Test(xnnpack, threads_option_runs_and_is_checked)
{
	char good[] = "/tmp/opver-xnnpack-XXXXXX";
	char bad[] = "/tmp/opver-xnnpack-XXXXXX";
	char model[1024], input[1024];
	const char *dir;
	const char *argv[] = { OPVER_RUN, "--config", bad, model, NULL };
	spawn_result r;

	require_plugin();
	dir = require_corpus();
	snprintf(model, sizeof(model), "%s/mlperf_vww_96_float.tflite", dir);
	snprintf(input, sizeof(input), "%s/cases/mlperf_vww_96_float/vww_input0/in0.raw",
		 dir);
	write_config(good, true, "threads = 2\n");
	write_config(bad, true, "threads = 0\n");
	run_model(good, model, input, "/dev/null");
	spawn_run(&r, argv);
	unlink(good);
	unlink(bad);
	cr_assert(strstr(r.err, "threads = '0': expected 1 to 64") != NULL,
		  "exit %d\n%s", r.status, r.err);
	spawn_free(&r);
}
