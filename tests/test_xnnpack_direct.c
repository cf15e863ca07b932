/*
 * test_xnnpack_direct.c - bench/xnnpack_direct, the XNNPACK plugin's graph
 * driven directly for make bench: built with the plugin's sources, it
 * times the partitions alone, lists the nodes it leaves untimed, finds
 * that its runs reproduce the partitions' outputs, and its output check
 * accepts opver-run's output with the reference plugin and rejects a
 * wrong one.  Built here so that it cannot rot unnoticed (make
 * bench is not CI).  Every test skips when configure did not find XNNPACK
 * or OPVER_MODEL_CORPUS is not set.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spawn.h"

static const char *require_corpus(void)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");

	if (access(XNNPACK_DIRECT, X_OK) != 0)
		cr_skip_test("bench/xnnpack_direct was not built (configure found no XNNPACK)");
	if (dir == NULL || *dir == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	return dir;
}

/* A config with the reference plugin alone; path is a mkstemp template
 * the caller unlinks. */
static void write_config(char *path)
{
	int fd = mkstemp(path);
	FILE *file;

	cr_assert(fd >= 0, "cannot create a temporary config");
	file = fdopen(fd, "w");
	cr_assert_not_null(file);
	fprintf(file, "[plugin.reference]\nlibrary = %s\n", REFERENCE_PLUGIN);
	cr_assert_eq(fclose(file), 0);
}

/* MODEL's path and its first case's input in the corpus. */
static void corpus_paths(const char *model_name, const char *case_name,
			 char *model, char *input, size_t size)
{
	const char *dir = require_corpus();

	snprintf(model, size, "%s/%s.tflite", dir, model_name);
	snprintf(input, size, "%s/cases/%s/%s/in0.raw", dir, model_name,
		 case_name);
}

/* Output 0 of `model` on `input` with the reference plugin, into
 * `output`. */
static void reference_output(const char *config, const char *model,
			     const char *input, const char *output)
{
	const char *argv[] = { OPVER_RUN, "--config", config, model, "-i",
			       input, "-o", output, NULL };
	spawn_result r;

	spawn_run(&r, argv);
	cr_assert_eq(r.status, 0, "%s: exit %d\n%s", model, r.status, r.err);
	spawn_free(&r);
}

/* Runs the bench on `model` with `threads` (a string), 3 runs, checking
 * output 0 against `expect`. */
static void run_direct(spawn_result *r, const char *config,
		       const char *threads, const char *model,
		       const char *input, const char *expect)
{
	const char *argv[] = { XNNPACK_DIRECT, "--config", config,
			       "--threads", threads, "--runs", "3", "-i",
			       input, "--expect", expect, model, NULL };

	spawn_run(r, argv);
}

Test(xnnpack_direct, float_model_matches_the_reference_plugin)
{
	char config[] = "/tmp/opver-direct-XXXXXX";
	char expect[] = "/tmp/opver-direct-ref-XXXXXX";
	char model[1024], input[1024];
	const char *threads[] = { "1", "2" };
	spawn_result r;

	corpus_paths("mlperf_ic_resnet_float", "ic_input_u8f32", model, input,
		     sizeof(model));
	write_config(config);
	close(mkstemp(expect));
	reference_output(config, model, input, expect);
	for (size_t t = 0; t < 2; t++) {
		run_direct(&r, config, threads[t], model, input, expect);
		cr_expect_eq(r.status, 0, "threads %s: exit %d\n%s\n%s",
			     threads[t], r.status, r.out, r.err);
		cr_expect(strstr(r.out, "partitions: 1, running 16 of 16 nodes") !=
				  NULL,
			  "%s", r.out);
		cr_expect(strstr(r.out, "\nlatency_ms: median ") != NULL, "%s",
			  r.out);
		cr_expect(strstr(r.out, "\noutput 0: matches ") != NULL, "%s",
			  r.out);
		cr_expect(strstr(r.out, "\ndirect runs: write the partitions' outputs of opver's invoke, bit for bit\n") !=
				  NULL,
			  "%s", r.out);
		spawn_free(&r);
	}
	unlink(config);
	unlink(expect);
}

Test(xnnpack_direct, unclaimed_nodes_are_listed_and_not_timed)
{
	char config[] = "/tmp/opver-direct-XXXXXX";
	char expect[] = "/tmp/opver-direct-ref-XXXXXX";
	char model[1024], input[1024];
	const char *first = "node 0 (CONV_2D v2) not claimed, not timed: input 1 is not float32\n";
	spawn_result r;

	/* Its hybrid CONV_2D nodes (int8 filters) stay on the kernels. */
	corpus_paths("mlperf_kws_ref_model_float32", "kws_input_dequant", model, input,
		     sizeof(model));
	write_config(config);
	close(mkstemp(expect));
	reference_output(config, model, input, expect);
	run_direct(&r, config, "1", model, input, expect);
	unlink(config);
	unlink(expect);
	cr_assert_eq(r.status, 0, "exit %d\n%s\n%s", r.status, r.out, r.err);
	cr_assert(strncmp(r.out, first, strlen(first)) == 0, "%s", r.out);
	cr_assert(strstr(r.out, "\npartitions: 5, running 8 of 13 nodes") !=
			  NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "\noutput 0: matches ") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(xnnpack_direct, a_wrong_output_is_a_mismatch)
{
	char config[] = "/tmp/opver-direct-XXXXXX";
	char expect[] = "/tmp/opver-direct-ref-XXXXXX";
	char model[1024], input[1024];
	const float wrong[10] = { 1.0f };
	spawn_result r;
	FILE *file;

	corpus_paths("mlperf_ic_resnet_float", "ic_input_u8f32", model, input,
		     sizeof(model));
	write_config(config);
	close(mkstemp(expect));
	file = fopen(expect, "wb");
	cr_assert_not_null(file);
	cr_assert_eq(fwrite(wrong, sizeof(wrong), 1, file), 1);
	cr_assert_eq(fclose(file), 0);
	run_direct(&r, config, "1", model, input, expect);
	unlink(config);
	unlink(expect);
	cr_assert_eq(r.status, 1, "exit %d\n%s\n%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "\noutput 0: MISMATCH with ") != NULL, "%s",
		  r.out);
	spawn_free(&r);
}

Test(xnnpack_direct, usage_errors_exit_2)
{
	const char *argv[] = { XNNPACK_DIRECT, "--threads", "0", "model",
			       NULL };
	spawn_result r;

	require_corpus();
	spawn_run(&r, argv);
	cr_assert_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "usage: xnnpack_direct") != NULL, "%s", r.err);
	spawn_free(&r);
}
