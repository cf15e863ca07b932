/*
 * test_corpus_tflite.c - every case of the model corpus ($OPVER_MODEL_CORPUS,
 * models/README.md) end to end against TensorFlow Lite itself: the outputs
 * TFLite's builtin kernels computed, recorded by tests/oracle/record-corpus
 * into tests/oracle/corpus/MODEL/CASE.golden with a fingerprint of the model
 * and input files.
 *
 * The reference plugin's variant reference-tflite, which rescales int8
 * CONV_2D, FULLY_CONNECTED and BATCH_MATMUL once as TFLite's ruy GEMM does,
 * must give every integer output bit for bit.  The reference plugin, which
 * rounds twice everywhere as TFLite's reference kernels do, may differ in
 * the models of `reference_steps` by the measured number of steps
 * (tests/oracle/README says why).  Float outputs are compared within
 * FLOAT_RTOL of max(1, max |TFLite's output|) for both.
 *
 * A golden recorded on other files (a changed corpus) fails as stale; a
 * case TFLite refused is skipped with its reason; without the corpus every
 * case is skipped.  Neither node nor TFLite is needed.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus.h"
#include "oracle/oracle_golden.h"

#define GOLDENS TEST_SOURCE_DIR "/oracle/corpus"
#define FLOAT_RTOL 1e-5

/*
 * Integer steps by which the reference plugin's outputs may differ from
 * TFLite's, per model; 0 for any other.  Measured on every case of the
 * corpus (tests/oracle/README): only int8 CONV_2D, FULLY_CONNECTED and
 * BATCH_MATMUL round differently, and reference-tflite closes each.
 */
static const struct {
	const char *model;
	int steps;
} reference_steps[] = {
	/* 2 of 2 outputs of no_person, one step. */
	{ "person_detect", 1 },
	/* 2 of 10 outputs of random_seed1, 5 steps after SOFTMAX. */
	{ "mlperf_ic_resnet_int8", 5 },
};

/* What an output is compared with: TFLite's golden and the steps allowed. */
struct expectation {
	const oracle_golden *golden;
	int steps;
	/* Outputs compared so far. */
	size_t compared;
};

/* An integer element of `data`, of opver type `type`, as int64. */
static bool integer_at(int32_t type, const void *data, size_t i,
		       int64_t *value)
{
	switch (type) {
	case OPVER_TYPE_INT8:
		*value = ((const int8_t *)data)[i];
		return true;
	case OPVER_TYPE_UINT8:
		*value = ((const uint8_t *)data)[i];
		return true;
	case OPVER_TYPE_INT16:
		*value = ((const int16_t *)data)[i];
		return true;
	case OPVER_TYPE_INT32:
		*value = ((const int32_t *)data)[i];
		return true;
	default:
		return false;
	}
}

static bool compare_floats(const opver_tensor *got, const float *want,
			   size_t count, char *why, size_t why_size)
{
	const float *a = got->data;
	double scale = 1.0;

	for (size_t i = 0; i < count; i++)
		if (fabs(want[i]) > scale)
			scale = fabs(want[i]);
	for (size_t i = 0; i < count; i++)
		if (!(fabs((double)a[i] - want[i]) <= FLOAT_RTOL * scale)) {
			snprintf(why, why_size,
				 "element %zu is %.9g, TFLite %.9g (allowed %g)",
				 i, a[i], want[i], FLOAT_RTOL * scale);
			return false;
		}
	return true;
}

static bool check_output(void *user_data, size_t index,
			 const opver_tensor *got, char *why, size_t why_size)
{
	struct expectation *e = user_data;
	const void *want;
	size_t count;

	if (index >= (size_t)e->golden->num_outputs) {
		snprintf(why, why_size, "TFLite's golden has %d output(s)",
			 (int)e->golden->num_outputs);
		return false;
	}
	if (got->bytes != e->golden->bytes[index]) {
		snprintf(why, why_size, "%zu bytes, TFLite's %zu", got->bytes,
			 e->golden->bytes[index]);
		return false;
	}
	e->compared++;
	want = oracle_golden_output(e->golden, (int32_t)index);
	count = opver_tensor_elements(got);
	if (got->type == OPVER_TYPE_FLOAT32)
		return compare_floats(got, want, count, why, why_size);
	for (size_t i = 0; i < count; i++) {
		int64_t a, b;

		if (!integer_at(got->type, got->data, i, &a) ||
		    !integer_at(got->type, want, i, &b)) {
			snprintf(why, why_size, "type %s is not compared",
				 opver_type_name(got->type));
			return false;
		}
		if (llabs(a - b) > e->steps) {
			snprintf(why, why_size,
				 "element %zu is %" PRId64 ", TFLite %" PRId64
				 " (%d step(s) allowed)",
				 i, a, b, e->steps);
			return false;
		}
	}
	return true;
}

/* Runs the case with `plugin` alone in place of the reference plugin and
 * compares every output with TFLite's, allowing `steps`. */
static void check_case(const corpus_param *param, const char *plugin,
		       int steps)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	const corpus_case *row = &param->row;
	char path[4096], error[256], message[1024];
	char config_path[] = "/tmp/opver-corpus-tflite-XXXXXX";
	oracle_golden golden;
	struct expectation e = { &golden, steps, 0 };
	corpus_outcome outcome;
	uint64_t fingerprint;
	FILE *file;
	int fd;

	if (param->no_corpus)
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	cr_assert(param->problem[0] == '\0', "%s", param->problem);
	snprintf(path, sizeof(path), "%s/%s/%s.golden", GOLDENS, row->model,
		 row->name);
	if (!oracle_golden_read(path, &golden, error, sizeof(error))) {
		oracle_golden_free(&golden);
		cr_assert_fail("%s/%s: %s; record it with tests/oracle/record-corpus",
			       row->model, row->name, error);
	}
	cr_assert(oracle_corpus_fingerprint(dir, row->model, row->name,
					    row->num_inputs, &fingerprint),
		  "%s/%s: cannot read the model or its inputs", row->model,
		  row->name);
	if (fingerprint != golden.fingerprint) {
		oracle_golden_free(&golden);
		cr_assert_fail("%s/%s: stale golden: recorded on other files (fingerprint %016" PRIx64 ", the corpus's %016" PRIx64 "); record it again with tests/oracle/record-corpus",
			       row->model, row->name, golden.fingerprint,
			       fingerprint);
	}
	if (golden.refused) {
		oracle_golden_free(&golden);
		cr_skip_test("%s/%s: TFLite refused the model: %s", row->model,
			     row->name, golden.refusal);
	}
	fd = mkstemp(config_path);
	cr_assert(fd >= 0, "cannot create a temporary config");
	file = fdopen(fd, "w");
	cr_assert(file != NULL);
	fprintf(file, "[plugin.reference]\nlibrary = %s\n", plugin);
	cr_assert(fclose(file) == 0, "cannot write %s", config_path);
	outcome = corpus_run_outputs(dir, config_path, row, check_output, &e,
				     message, sizeof(message));
	unlink(config_path);
	oracle_golden_free(&golden);
	cr_assert(outcome == CORPUS_PASSED, "%s", message);
	cr_assert(e.compared == (size_t)golden.num_outputs,
		  "%s/%s: %zu output(s), TFLite's %d", row->model, row->name,
		  e.compared, (int)golden.num_outputs);
}

ParameterizedTestParameters(corpus_tflite, variant_is_bit_exact)
{
	return corpus_test_params();
}

ParameterizedTest(corpus_param *param, corpus_tflite,
		  variant_is_bit_exact)
{
	check_case(param, REFERENCE_TFLITE_PLUGIN, 0);
}

ParameterizedTestParameters(corpus_tflite, reference_within_measured_steps)
{
	return corpus_test_params();
}

ParameterizedTest(corpus_param *param, corpus_tflite,
		  reference_within_measured_steps)
{
	int steps = 0;

	for (size_t i = 0;
	     i < sizeof(reference_steps) / sizeof(reference_steps[0]); i++)
		if (strcmp(param->row.model, reference_steps[i].model) == 0)
			steps = reference_steps[i].steps;
	check_case(param, REFERENCE_PLUGIN, steps);
}
