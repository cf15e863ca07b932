/*
 * test_xnnpack.c - the XNNPACK delegate plugin (plugins/xnnpack) with the
 * reference plugin for what it leaves: the corpus's float models meet their
 * goldens and agree with the reference plugin alone; --explain shows the
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

/* Writes a config loading the reference plugin and, with `xnnpack`, the
 * delegate with the section's further `options` lines; path is a mkstemp
 * template the caller unlinks. */
static void write_config(char *path, bool xnnpack, const char *options)
{
	int fd = mkstemp(path);
	FILE *file;

	cr_assert(fd >= 0, "cannot create a temporary config");
	file = fdopen(fd, "w");
	cr_assert_not_null(file);
	fprintf(file, "[plugin.reference]\nlibrary = %s\n", REFERENCE_PLUGIN);
	if (xnnpack)
		fprintf(file, "[plugin.xnnpack]\nlibrary = %s\n%s",
			XNNPACK_PLUGIN, options);
	cr_assert_eq(fclose(file), 0);
}

static bool is_float_model(const char *model)
{
	for (size_t i = 0; i < sizeof(float_models) / sizeof(*float_models);
	     i++)
		if (strcmp(model, float_models[i]) == 0)
			return true;
	return false;
}

/* The corpus cases of the float models; caller frees. */
static long float_cases(const char *dir, corpus_case **cases)
{
	char error[256];
	long count = corpus_read_cases(dir, cases, error, sizeof(error));
	long kept = 0;

	cr_assert_geq(count, 0, "%s", error);
	for (long i = 0; i < count; i++)
		if (is_float_model((*cases)[i].model))
			(*cases)[kept++] = (*cases)[i];
	cr_assert_gt(kept, 0, "no float model cases in the corpus");
	return kept;
}

Test(xnnpack, float_models_meet_corpus_goldens)
{
	char config[] = "/tmp/opver-xnnpack-XXXXXX";
	const char *dir;
	corpus_case *cases = NULL;
	long count;

	require_plugin();
	dir = require_corpus();
	count = float_cases(dir, &cases);
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
	/* Exit status 0: every check passed, the load/unload hygiene
	 * included (skipped under AddressSanitizer, whose heap it cannot
	 * measure); among the ops, those the padding workaround is for. */
	cr_assert(strncmp(r.out, "hygiene: ", 9) == 0, "%s", r.out);
	cr_assert(strstr(r.out, "\nAVERAGE_POOL_2D/delegate:xnnpack: ") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "\nCONV_2D/delegate:xnnpack: ") != NULL, "%s",
		  r.out);
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
