/*
 * corpus.h - the model corpus (see models/README.md): real .tflite files
 * made by other projects, with raw inputs and expected outputs, listed one
 * case per row in cases.tsv.  This module reads the case list, runs one case
 * through the public host API exactly as an application would, and evaluates
 * the case's checks on the first output.  It knows nothing of Criterion, so
 * a failure comes back as a message naming the case, the check, the first
 * mismatching element and the values.
 */
#ifndef OPVER_TESTS_CORPUS_H
#define OPVER_TESTS_CORPUS_H

#include <stdbool.h>
#include <stddef.h>

#include <criterion/parameterized.h>
#include <opver/opver.h>

#define CORPUS_FIELD_SIZE 64
#define CORPUS_CHECK_SIZE 128

/* One row of cases.tsv.  Fixed-size fields, so an array of cases can be
 * copied into memory shared with test processes without pointer fixups. */
typedef struct corpus_case {
	char model[CORPUS_FIELD_SIZE];
	char name[CORPUS_FIELD_SIZE];
	int num_inputs;
	/* Checks joined with ';', e.g. "argmax:2;int:2". */
	char check[CORPUS_CHECK_SIZE];
	/* The source column says the expected output is the second engine's
	 * (Arm NN, whose integer rescale rounds once). */
	bool second_engine;
} corpus_case;

/*
 * Reads DIR/cases.tsv.  Returns the number of cases and sets *cases (caller
 * owns; release with free()), or returns -1 with the reason in `error`.
 */
long corpus_read_cases(const char *dir, corpus_case **cases, char *error,
		       size_t error_size);

/* One parameterized test's parameter: a row, or why there are no rows. */
typedef struct corpus_param {
	corpus_case row;
	/* Set when the corpus is not configured: the test skips. */
	bool no_corpus;
	/* Set when cases.tsv cannot be read: the test fails with it. */
	char problem[256];
} corpus_param;

/*
 * A corpus_param per row of $OPVER_MODEL_CORPUS/cases.tsv, or one saying
 * why there are none, for ParameterizedTestParameters.  They live in
 * memory shared with the test processes, which Criterion frees.
 */
struct criterion_test_params corpus_test_params(void);

typedef enum corpus_outcome {
	CORPUS_PASSED,
	/* The model ran and a check failed, or a step failed. */
	CORPUS_FAILED,
	/* No loaded kernel handles an op version the model needs. */
	CORPUS_UNRESOLVED
} corpus_outcome;

/*
 * Runs one case with the plugins named by the ini file `config_path` and
 * evaluates its checks.  Unless it passes, `message` says why: for a failed
 * check the check, the first mismatching index, got and expected; for
 * CORPUS_UNRESOLVED the resolver's report.
 */
corpus_outcome corpus_run_case(const char *dir, const char *config_path,
			       const corpus_case *c, char *message,
			       size_t message_size);

/*
 * Checks output `index` of a case that ran; false with the reason in
 * `why` (why_size bytes).  `output` is borrowed for the call.
 */
typedef bool (*corpus_output_check)(void *user_data, size_t index,
				    const opver_tensor *output, char *why,
				    size_t why_size);

/*
 * Runs one case as corpus_run_case() does, then hands every output, in
 * order, to `check` instead of evaluating the case's checks; stops at the
 * first output it rejects, with `message` naming the case, the output and
 * check's reason.
 */
corpus_outcome corpus_run_outputs(const char *dir, const char *config_path,
				  const corpus_case *c,
				  corpus_output_check check, void *user_data,
				  char *message, size_t message_size);

#endif /* OPVER_TESTS_CORPUS_H */
