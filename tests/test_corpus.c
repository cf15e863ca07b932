/*
 * test_corpus.c - runs every case of the model corpus ($OPVER_MODEL_CORPUS,
 * see models/README.md) through the public API with the reference plugin
 * (and the test plugin providing the custom op "testing_op"), one
 * parameterized test per row of cases.tsv.
 *
 * Each case runs with the integer arithmetic its expected output was
 * computed with.  Upstream goldens come from TFLite, whose rescale rounds
 * twice by default (the reference plugin's default, which network_tester's
 * golden checks bit for bit).  Second-engine goldens come from Arm NN,
 * which rounds once, as TFLite built with TFLITE_SINGLE_ROUNDING does: on
 * full-range random inputs a one-step difference per convolution grows
 * past the tolerance through SOFTMAX (mlperf_kws_ref_model_int8 and
 * mlperf_ic_resnet_int8, random_seed1), so those cases run the reference
 * plugin built with REF_SINGLE_ROUNDING.  Every case of the models in
 * required_models must pass.  A case of any other model whose ops have no
 * kernel yet is reported as skipped with the resolver's message, never as a
 * pass; if it does resolve, its checks must hold.  Without the corpus every
 * case is skipped.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"

/* Models whose every case must pass: the whole corpus. */
static const char *const required_models[] = {
	"hello_world_float",
	"hello_world_int8",
	"litert_mul_add_signature_def",
	"litert_single_mul_a8w8",
	"litert_test_model_versioned_ops",
	"magic_wand",
	"micro_speech_quantized",
	"mlperf_ic_resnet_float",
	"mlperf_ic_resnet_int8",
	"mlperf_kws_ref_model_float32",
	"mlperf_kws_ref_model_int8",
	"mlperf_vww_96_float",
	"network_tester_model",
	"person_detect",
	"seanet_add0_int16",
	"simple_add_model",
	"test_conv_model",
};

/*
 * Runs `row` with a temporary config loading the reference plugin (built
 * with single rounding when `single_rounding`), and the custom-op plugin
 * when `with_custom_op`.  The config is removed as soon as the case has
 * run, so no test leaves one behind whether it passes, fails or skips.
 */
static corpus_outcome run_with_plugins(const char *dir, const corpus_case *row,
				       bool with_custom_op,
				       bool single_rounding, char *message,
				       size_t message_size)
{
	char config_path[] = "/tmp/opver-corpus-XXXXXX";
	int fd = mkstemp(config_path);
	corpus_outcome outcome;
	FILE *file;

	cr_assert(fd >= 0, "cannot create a temporary config");
	file = fdopen(fd, "w");
	cr_assert(file != NULL);
	if (single_rounding)
		fprintf(file, "[plugin.reference]\nlibrary = %s/reference_single_rounding.so\n",
			TEST_PLUGIN_DIR);
	else
		fprintf(file, "[plugin.reference]\nlibrary = %s\n", REFERENCE_PLUGIN);
	if (with_custom_op)
		fprintf(file, "[plugin.testing_op]\nlibrary = %s/testing_op.so\n",
			TEST_PLUGIN_DIR);
	if (fclose(file) != 0) {
		unlink(config_path);
		cr_assert_fail("cannot write %s", config_path);
	}
	outcome = corpus_run_case(dir, config_path, row, message,
				  message_size);
	unlink(config_path);
	return outcome;
}

ParameterizedTestParameters(corpus, case_passes)
{
	return corpus_test_params();
}

static bool is_required(const char *model)
{
	for (size_t i = 0;
	     i < sizeof(required_models) / sizeof(required_models[0]); i++)
		if (strcmp(model, required_models[i]) == 0)
			return true;
	return false;
}

ParameterizedTest(corpus_param *param, corpus, case_passes)
{
	const corpus_case *row = &param->row;
	corpus_outcome outcome;
	char message[2048];

	if (param->no_corpus)
		cr_skip_test("OPVER_MODEL_CORPUS is not set: corpus cases skipped");
	cr_assert(param->problem[0] == '\0', "%s", param->problem);
	cr_log_info("corpus case %s/%s (%s; %s rounding)", row->model,
		    row->name, row->check,
		    row->second_engine ? "single" : "TFLite's default double");
	outcome = run_with_plugins(getenv("OPVER_MODEL_CORPUS"), row, true,
				   row->second_engine, message,
				   sizeof(message));
	if (outcome == CORPUS_UNRESOLVED && !is_required(row->model))
		cr_skip_test("%s", message);
	cr_assert(outcome == CORPUS_PASSED, "%s", message);
}

/* Without a plugin for its custom op, the versioned-ops model is refused
 * with the custom op's name and the version it needs. */
Test(corpus, custom_op_needs_its_plugin)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	const corpus_case row = { .model = "litert_test_model_versioned_ops",
				  .name = "load_only", .num_inputs = 2,
				  .check = "none" };
	char message[2048];

	if (dir == NULL || *dir == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	cr_assert_eq(run_with_plugins(dir, &row, false, false, message,
				      sizeof(message)),
		     CORPUS_UNRESOLVED, "%s", message);
	cr_assert(strstr(message, "node 1 (testing_op): the model needs testing_op version 2") != NULL,
		  "%s", message);
}
