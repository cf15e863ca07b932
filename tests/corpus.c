/* corpus.c - reads the corpus case list, runs a case through the public
 * API and evaluates the checks of its `check` column. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opver/opver.h>

#include "../tools/raw_io.h"
#include "corpus.h"

/* Copies a tab-separated field into a fixed-size one; false if too long. */
static bool copy_field(char *dst, size_t size, const char *src)
{
	if (strlen(src) >= size)
		return false;
	strcpy(dst, src);
	return true;
}

static bool parse_row(char *line, corpus_case *c)
{
	char *fields[4], *rest = line, *end;

	line[strcspn(line, "\r\n")] = '\0';
	for (int i = 0; i < 4; i++) {
		fields[i] = strsep(&rest, "\t");
		if (fields[i] == NULL)
			return false;
	}
	c->num_inputs = (int)strtol(fields[2], &end, 10);
	/* The source column follows; what matters of it is whether the
	 * expected output is the second engine's. */
	c->second_engine = rest != NULL && strstr(rest, "second engine") != NULL;
	return *fields[2] != '\0' && *end == '\0' && c->num_inputs >= 0 &&
	       copy_field(c->model, sizeof(c->model), fields[0]) &&
	       copy_field(c->name, sizeof(c->name), fields[1]) &&
	       copy_field(c->check, sizeof(c->check), fields[3]);
}

long corpus_read_cases(const char *dir, corpus_case **cases, char *error,
		       size_t error_size)
{
	corpus_case *list = NULL, *grown;
	size_t capacity = 0, line_size = 0;
	char path[4096], *line = NULL;
	long count = 0, number = 0;
	FILE *file;

	snprintf(path, sizeof(path), "%s/cases.tsv", dir);
	file = fopen(path, "r");
	if (file == NULL) {
		snprintf(error, error_size, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	while (getline(&line, &line_size, file) != -1) {
		number++;
		/* The first row is the header. */
		if (number == 1 || line[0] == '\n')
			continue;
		if ((size_t)count == capacity) {
			capacity = capacity ? 2 * capacity : 64;
			grown = realloc(list, capacity * sizeof(*list));
			if (grown == NULL) {
				snprintf(error, error_size, "out of memory");
				count = -1;
				break;
			}
			list = grown;
		}
		if (!parse_row(line, &list[count])) {
			snprintf(error, error_size,
				 "%s:%ld: expected model, case, inputs, check and source separated by tabs",
				 path, number);
			count = -1;
			break;
		}
		count++;
	}
	free(line);
	fclose(file);
	if (count < 0)
		free(list);
	else
		*cases = list;
	return count;
}

/* A run in progress: the API objects and the messages the library logs. */
struct run {
	const char *dir;
	const corpus_case *c;
	char *message;
	size_t message_size;
	char errors[1024];
	size_t errors_used;
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *interpreter;
};

static void on_log(void *user_data, opver_log_level level, const char *text)
{
	struct run *run = user_data;
	size_t room = sizeof(run->errors) - run->errors_used;
	int n;

	if (level != OPVER_LOG_ERROR || room <= 1)
		return;
	n = snprintf(run->errors + run->errors_used, room, "%s%s",
		     run->errors_used ? "; " : "", text);
	run->errors_used += (size_t)n < room ? (size_t)n : room - 1;
}

/* Sets the message, prefixed with the case, and returns `outcome`. */
static corpus_outcome report(struct run *run, corpus_outcome outcome,
			     const char *format, ...) OPVER__PRINTF(3, 4);

static corpus_outcome report(struct run *run, corpus_outcome outcome,
			     const char *format, ...)
{
	size_t used;
	va_list args;

	used = (size_t)snprintf(run->message, run->message_size, "%s/%s: ",
				run->c->model, run->c->name);
	if (used < run->message_size) {
		va_start(args, format);
		vsnprintf(run->message + used, run->message_size - used,
			  format, args);
		va_end(args);
	}
	return outcome;
}

/* Reports a failed API call with what the library logged about it. */
static corpus_outcome api_failure(struct run *run, corpus_outcome outcome,
				  const char *call, opver_status status)
{
	return report(run, outcome, "%s failed with %s: %s", call,
		      opver_status_name(status),
		      run->errors_used ? run->errors :
					 opver_status_message(status));
}

static void case_file(const struct run *run, const char *file, char *path,
		      size_t size)
{
	snprintf(path, size, "%s/cases/%s/%s/%s", run->dir, run->c->model,
		 run->c->name, file);
}

static bool element(const opver_tensor *t, size_t i, double *value)
{
	raw_value v;

	if (!raw_element(t->type, t->data, i, &v))
		return false;
	*value = raw_value_double(&v);
	return true;
}

/* exact, int:N and float:ATOL:RTOL: every element against expected0.raw. */
static corpus_outcome compare(struct run *run, const char *check,
			      const opver_tensor *got,
			      const opver_tensor *expected, double atol,
			      double rtol)
{
	size_t n = opver_tensor_elements(got);
	bool is_float = got->type == OPVER_TYPE_FLOAT32 ||
			got->type == OPVER_TYPE_FLOAT64;
	double g, e;

	if (strcmp(check, "exact") != 0 &&
	    is_float != (strncmp(check, "float:", 6) == 0))
		return report(run, CORPUS_FAILED,
			      "check %s does not apply to a %s output", check,
			      opver_type_name(got->type));
	for (size_t i = 0; i < n; i++) {
		if (!element(got, i, &g) || !element(expected, i, &e))
			return report(run, CORPUS_FAILED,
				      "check %s: %s outputs cannot be compared",
				      check, opver_type_name(got->type));
		/* Written so that NaN fails. */
		if (!(fabs(g - e) <= atol + rtol * fabs(e)))
			return report(run, CORPUS_FAILED,
				      "check %s: element %zu of %zu: got %.9g, expected %.9g",
				      check, i, n, g, e);
	}
	return CORPUS_PASSED;
}

static corpus_outcome argmax(struct run *run, const char *check,
			     const opver_tensor *got, size_t k)
{
	size_t n = opver_tensor_elements(got), best = 0;
	double value, best_value = 0;

	for (size_t i = 0; i < n; i++) {
		if (!element(got, i, &value))
			return report(run, CORPUS_FAILED,
				      "check %s: %s outputs cannot be compared",
				      check, opver_type_name(got->type));
		if (i == 0 || value > best_value) {
			best = i;
			best_value = value;
		}
	}
	if (n == 0 || best != k)
		return report(run, CORPUS_FAILED,
			      "check %s: the largest element is %zu (%.9g), expected %zu",
			      check, best, best_value, k);
	return CORPUS_PASSED;
}

static corpus_outcome order(struct run *run, const char *check,
			    const opver_tensor *got, size_t i, size_t j)
{
	size_t n = opver_tensor_elements(got);
	double a, b;

	if (i >= n || j >= n || !element(got, i, &a) || !element(got, j, &b))
		return report(run, CORPUS_FAILED,
			      "check %s: cannot read elements %zu and %zu of %zu",
			      check, i, j, n);
	if (!(a > b))
		return report(run, CORPUS_FAILED,
			      "check %s: element %zu is %.9g, not greater than element %zu, %.9g",
			      check, i, a, j, b);
	return CORPUS_PASSED;
}

/* Loads expected0.raw into a tensor shaped like the output, once. */
static corpus_outcome load_expected(struct run *run, const opver_tensor *got,
				    opver_tensor *expected)
{
	char path[4096], error[512];

	if (expected->data != NULL)
		return CORPUS_PASSED;
	*expected = *got;
	expected->data = malloc(got->bytes ? got->bytes : 1);
	if (expected->data == NULL)
		return report(run, CORPUS_FAILED, "out of memory");
	case_file(run, "expected0.raw", path, sizeof(path));
	if (raw_read_tensor(path, expected, "output", error, sizeof(error)) !=
	    RAW_OK)
		return report(run, CORPUS_FAILED, "%s", error);
	return CORPUS_PASSED;
}

/* Evaluates one check of the check column. */
static corpus_outcome evaluate(struct run *run, const char *check,
			       const opver_tensor *got, opver_tensor *expected)
{
	unsigned long i, j;
	double atol, rtol;
	char tail;
	int tolerance;

	if (strcmp(check, "none") == 0)
		return CORPUS_PASSED;
	if (sscanf(check, "argmax:%lu%c", &i, &tail) == 1)
		return argmax(run, check, got, i);
	if (sscanf(check, "order:%lu>%lu%c", &i, &j, &tail) == 2)
		return order(run, check, got, i, j);
	if (strcmp(check, "exact") == 0) {
		atol = rtol = 0;
	} else if (sscanf(check, "int:%d%c", &tolerance, &tail) == 1 &&
		   tolerance >= 0) {
		atol = tolerance;
		rtol = 0;
	} else if (sscanf(check, "float:%lf:%lf%c", &atol, &rtol, &tail) !=
		   2) {
		return report(run, CORPUS_FAILED, "unknown check '%s'", check);
	}
	if (load_expected(run, got, expected) != CORPUS_PASSED)
		return CORPUS_FAILED;
	return compare(run, check, got, expected, atol, rtol);
}

static corpus_outcome load_inputs(struct run *run)
{
	size_t count = opver_interpreter_input_count(run->interpreter);
	char file[32], path[4096], error[512];

	if (count != (size_t)run->c->num_inputs)
		return report(run, CORPUS_FAILED,
			      "the model has %zu inputs, cases.tsv says %d",
			      count, run->c->num_inputs);
	for (size_t i = 0; i < count; i++) {
		opver_tensor *t = opver_interpreter_input(run->interpreter, i);

		snprintf(file, sizeof(file), "in%zu.raw", i);
		case_file(run, file, path, sizeof(path));
		if (raw_read_tensor(path, t, "input", error, sizeof(error)) !=
		    RAW_OK)
			return report(run, CORPUS_FAILED, "input %zu: %s", i,
				      error);
	}
	return CORPUS_PASSED;
}

/* Loads the model with the plugins of `config_path`, reads the case's
 * inputs and invokes the interpreter. */
static corpus_outcome run_model(struct run *run, const char *config_path)
{
	opver_runtime_options options;
	corpus_outcome outcome;
	char path[4096];
	opver_status status;

	opver_runtime_options_init(&options);
	options.config_path = config_path;
	options.log = on_log;
	options.log_user_data = run;
	status = opver_runtime_create(&options, &run->runtime);
	if (status != OPVER_OK)
		return api_failure(run, CORPUS_FAILED, "opver_runtime_create",
				   status);
	snprintf(path, sizeof(path), "%s/%s.tflite", run->dir, run->c->model);
	status = opver_model_open(run->runtime, path, &run->model);
	if (status != OPVER_OK)
		return api_failure(run, CORPUS_FAILED, "opver_model_open",
				   status);
	status = opver_interpreter_create(run->runtime, run->model,
					  &run->interpreter);
	if (status == OPVER_ERROR_UNRESOLVED)
		return api_failure(run, CORPUS_UNRESOLVED,
				   "opver_interpreter_create", status);
	if (status != OPVER_OK)
		return api_failure(run, CORPUS_FAILED,
				   "opver_interpreter_create", status);
	outcome = load_inputs(run);
	if (outcome != CORPUS_PASSED)
		return outcome;
	status = opver_interpreter_invoke(run->interpreter);
	if (status != OPVER_OK)
		return api_failure(run, CORPUS_FAILED,
				   "opver_interpreter_invoke", status);
	return CORPUS_PASSED;
}

static corpus_outcome run_case(struct run *run, const char *config_path)
{
	opver_tensor expected = { .data = NULL };
	corpus_outcome outcome = run_model(run, config_path);
	const opver_tensor *got;
	char checks[CORPUS_CHECK_SIZE], *rest, *check;

	if (outcome != CORPUS_PASSED)
		return outcome;
	got = opver_interpreter_output(run->interpreter, 0);
	if (got == NULL)
		return report(run, CORPUS_FAILED, "the model has no output");
	strcpy(checks, run->c->check);
	rest = checks;
	while (outcome == CORPUS_PASSED &&
	       (check = strsep(&rest, ";")) != NULL)
		outcome = evaluate(run, check, got, &expected);
	free(expected.data);
	return outcome;
}

corpus_outcome corpus_run_case(const char *dir, const char *config_path,
			       const corpus_case *c, char *message,
			       size_t message_size)
{
	struct run run = {
		.dir = dir,
		.c = c,
		.message = message,
		.message_size = message_size,
	};
	corpus_outcome outcome;

	message[0] = '\0';
	outcome = run_case(&run, config_path);
	opver_interpreter_destroy(run.interpreter);
	opver_model_close(run.model);
	opver_runtime_destroy(run.runtime);
	return outcome;
}

corpus_outcome corpus_run_outputs(const char *dir, const char *config_path,
				  const corpus_case *c,
				  corpus_output_check check, void *user_data,
				  char *message, size_t message_size)
{
	struct run run = {
		.dir = dir,
		.c = c,
		.message = message,
		.message_size = message_size,
	};
	corpus_outcome outcome;
	size_t count;

	message[0] = '\0';
	outcome = run_model(&run, config_path);
	count = outcome == CORPUS_PASSED ?
			opver_interpreter_output_count(run.interpreter) : 0;
	for (size_t i = 0; outcome == CORPUS_PASSED && i < count; i++) {
		char why[512] = "";

		if (!check(user_data, i,
			   opver_interpreter_output(run.interpreter, i), why,
			   sizeof(why)))
			outcome = report(&run, CORPUS_FAILED, "output %zu: %s",
					 i, why);
	}
	opver_interpreter_destroy(run.interpreter);
	opver_model_close(run.model);
	opver_runtime_destroy(run.runtime);
	return outcome;
}

static void free_params(struct criterion_test_params *params)
{
	cr_free(params->params);
}

struct criterion_test_params corpus_test_params(void)
{
	const char *dir = getenv("OPVER_MODEL_CORPUS");
	corpus_param *params;
	corpus_case *cases = NULL;
	char error[256];
	long count = 0;

	if (dir != NULL && *dir != '\0')
		count = corpus_read_cases(dir, &cases, error, sizeof(error));
	params = cr_calloc(count > 0 ? (size_t)count : 1, sizeof(*params));
	if (dir == NULL || *dir == '\0') {
		params[0].no_corpus = true;
		count = 1;
	} else if (count <= 0) {
		snprintf(params[0].problem, sizeof(params[0].problem), "%s",
			 count < 0 ? error : "cases.tsv lists no cases");
		count = 1;
	} else {
		for (long i = 0; i < count; i++)
			params[i].row = cases[i];
	}
	free(cases);
	return cr_make_param_array(corpus_param, params, (size_t)count,
				   free_params);
}
