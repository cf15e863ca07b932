/*
 * test_opver_run.c - runs the built opver-run as a user would (posix_spawn,
 * stdout and stderr captured) and checks its exit statuses, its one-line
 * errors and its output: raw files against the corpus's expected outputs,
 * JSON that parses, and a model whose op version no plugin covers.  Each
 * test gets a temporary directory holding a config that names the
 * reference plugin.  Tests that need $OPVER_MODEL_CORPUS skip without it.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <opver/opver.h>

#include "spawn.h"

#define MAX_ARGS 32

/* The temporary directory of the running test and its config file. */
static char workdir[] = "/tmp/opver-run-test-XXXXXX";
static char config[sizeof(workdir) + 16];

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *file = fopen(path, "wb");

	cr_assert(file != NULL, "cannot create %s: %s", path, strerror(errno));
	cr_assert(fwrite(data, 1, size, file) == size, "cannot write %s", path);
	cr_assert(fclose(file) == 0, "cannot write %s", path);
}

/* Reads a whole file; the caller frees the result. */
static unsigned char *read_file(const char *path, size_t *size)
{
	unsigned char *data = NULL;
	FILE *file = fopen(path, "rb");
	long length;

	cr_assert(file != NULL, "cannot open %s: %s", path, strerror(errno));
	cr_assert(fseek(file, 0, SEEK_END) == 0);
	length = ftell(file);
	cr_assert(length >= 0);
	rewind(file);
	data = malloc((size_t)length + 1);
	cr_assert(data != NULL);
	cr_assert(fread(data, 1, (size_t)length, file) == (size_t)length,
		  "cannot read %s", path);
	fclose(file);
	*size = (size_t)length;
	return data;
}

static void in_workdir(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", workdir, name);
}

static void make_workdir(void)
{
	static const char text[] = "[plugin.reference]\nlibrary = %s\n";
	char content[1024];

	cr_assert(mkdtemp(workdir) != NULL, "mkdtemp: %s", strerror(errno));
	in_workdir(config, sizeof(config), "opver.ini");
	snprintf(content, sizeof(content), text, REFERENCE_PLUGIN);
	write_file(config, content, strlen(content));
}

static void remove_workdir(void)
{
	DIR *dir = opendir(workdir);
	struct dirent *entry;
	char path[4096];

	if (dir == NULL)
		return;
	while ((entry = readdir(dir)) != NULL) {
		if (strcmp(entry->d_name, ".") == 0 ||
		    strcmp(entry->d_name, "..") == 0)
			continue;
		in_workdir(path, sizeof(path), entry->d_name);
		unlink(path);
	}
	closedir(dir);
	rmdir(workdir);
}

TestSuite(opver_run, .init = make_workdir, .fini = remove_workdir);

/* Runs opver-run with the NULL-terminated arguments after `r`. */
static void run_tool(spawn_result *r, ...)
{
	const char *args[MAX_ARGS] = { OPVER_RUN };
	const char *arg;
	va_list list;
	int argc = 1;

	va_start(list, r);
	while ((arg = va_arg(list, const char *)) != NULL) {
		cr_assert(argc < MAX_ARGS - 1);
		args[argc++] = arg;
	}
	va_end(list);
	spawn_run(r, args);
}

static void assert_status(const spawn_result *r, int status)
{
	cr_assert(r->status == status,
		  "exit status %d, expected %d\nstdout:\n%s\nstderr:\n%s",
		  r->status, status, r->out, r->err);
}

/* Errors are exactly one line on stderr. */
static void assert_one_error_line(const spawn_result *r)
{
	size_t length = strlen(r->err);

	cr_assert(length > 0 && r->err[length - 1] == '\n' &&
			  strchr(r->err, '\n') == r->err + length - 1,
		  "expected one line on stderr, got:\n%s", r->err);
}

/* Fills `path` with a file of the corpus, or skips the test without it. */
static void corpus_file(char *path, size_t size, const char *name)
{
	const char *corpus = getenv("OPVER_MODEL_CORPUS");

	if (corpus == NULL || *corpus == '\0') {
		/* Criterion runs .fini after a pass or a failure, not after
		 * a skip. */
		remove_workdir();
		cr_skip_test("OPVER_MODEL_CORPUS is not set");
	}
	snprintf(path, size, "%s/%s", corpus, name);
}

/* ------------------------------------------------------ a JSON checker */

/* A strict recursive-descent JSON syntax check (RFC 8259), enough to know
 * the tool's output parses; keys are checked separately by search. */
struct json_text {
	const char *p;
	int depth;
};

static bool json_value(struct json_text *j);

static void json_space(struct json_text *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static bool json_literal(struct json_text *j, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(j->p, word, n) != 0)
		return false;
	j->p += n;
	return true;
}

static bool json_string_token(struct json_text *j)
{
	if (*j->p++ != '"')
		return false;
	while (*j->p != '"') {
		if ((unsigned char)*j->p < 0x20)
			return false;
		if (*j->p == '\\') {
			j->p++;
			if (*j->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!j->p[i] ||
					    !strchr("0123456789abcdefABCDEF",
						    j->p[i]))
						return false;
				j->p += 4;
			} else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
				return false;
			}
		}
		j->p++;
	}
	j->p++;
	return true;
}

static bool json_digits(struct json_text *j)
{
	const char *start = j->p;

	while (*j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start;
}

static bool json_number(struct json_text *j)
{
	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (!json_digits(j))
		return false;
	if (*j->p == '.') {
		j->p++;
		if (!json_digits(j))
			return false;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!json_digits(j))
			return false;
	}
	return true;
}

/* An object (close '}') or an array (close ']'), opening already read. */
static bool json_container(struct json_text *j, char close)
{
	if (++j->depth > 64)
		return false;
	json_space(j);
	if (*j->p == close) {
		j->p++;
		j->depth--;
		return true;
	}
	for (;;) {
		if (close == '}') {
			if (!json_string_token(j))
				return false;
			json_space(j);
			if (*j->p++ != ':')
				return false;
		}
		if (!json_value(j))
			return false;
		json_space(j);
		if (*j->p == close)
			break;
		if (*j->p++ != ',')
			return false;
		json_space(j);
	}
	j->p++;
	j->depth--;
	return true;
}

static bool json_value(struct json_text *j)
{
	json_space(j);
	switch (*j->p) {
	case '{':
		j->p++;
		return json_container(j, '}');
	case '[':
		j->p++;
		return json_container(j, ']');
	case '"':
		return json_string_token(j);
	case 't':
		return json_literal(j, "true");
	case 'f':
		return json_literal(j, "false");
	case 'n':
		return json_literal(j, "null");
	}
	return json_number(j);
}

/* True when `text` is exactly one JSON object. */
static bool json_is_object(const char *text)
{
	struct json_text j = { .p = text };

	json_space(&j);
	if (*j.p != '{' || !json_value(&j))
		return false;
	json_space(&j);
	return *j.p == '\0';
}

Test(opver_run, json_checker_rejects_invalid_documents)
{
	cr_assert(json_is_object("{\"a\": [1, -2.5e3, \"x\\n\", null, true]}"));
	cr_assert(!json_is_object("{\"a\": [1,]}"));
	cr_assert(!json_is_object("{\"a\": \"tab\there\"}"));
	cr_assert(!json_is_object("{\"a\": 1} {}"));
	cr_assert(!json_is_object("{\"a\" 1}"));
}

/* ------------------------------------------------- command-line handling */

Test(opver_run, help_exits_0)
{
	spawn_result r;

	run_tool(&r, "--help", NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "Usage: opver-run") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "Exit status") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, version_exits_0)
{
	spawn_result r;

	run_tool(&r, "--version", NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "opver-run (opver) ") == r.out, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, unknown_option_exits_2)
{
	spawn_result r;

	run_tool(&r, "--frobnicate", "model.tflite", NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "--frobnicate") != NULL, "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, option_without_argument_exits_2)
{
	spawn_result r;

	run_tool(&r, "model.tflite", "-i", NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "'-i' needs an argument") != NULL, "%s",
		  r.err);
	spawn_free(&r);
}

Test(opver_run, missing_model_exits_2)
{
	spawn_result r;

	run_tool(&r, "--config", config, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "MODEL") != NULL, "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, bad_benchmark_count_exits_2)
{
	spawn_result r;

	run_tool(&r, "--benchmark", "0", "model.tflite", NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	spawn_free(&r);
}

Test(opver_run, bad_thread_count_exits_2)
{
	static const char *const bad[] = { "0", "257", "two" };
	spawn_result r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_tool(&r, "--threads", bad[i], "model.tflite", NULL);
		assert_status(&r, 2);
		assert_one_error_line(&r);
		cr_assert(strstr(r.err, "--threads needs a thread count from 1 to 256") != NULL,
			  "%s", r.err);
		spawn_free(&r);
	}
}

Test(opver_run, nonexistent_model_exits_3)
{
	char model[128];
	spawn_result r;

	in_workdir(model, sizeof(model), "no-such-model.tflite");
	run_tool(&r, "--config", config, model, NULL);
	assert_status(&r, 3);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, model) != NULL, "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, garbage_model_exits_3)
{
	static const char garbage[] =
		"This is not a FlatBuffer, just text long enough to have a "
		"root offset and a file identifier that are both wrong.\n";
	char model[128];
	spawn_result r;

	in_workdir(model, sizeof(model), "garbage.tflite");
	write_file(model, garbage, sizeof(garbage) - 1);
	run_tool(&r, "--config", config, model, NULL);
	assert_status(&r, 3);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, model) != NULL, "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, unreadable_config_exits_2)
{
	char missing[128];
	spawn_result r;

	in_workdir(missing, sizeof(missing), "missing.ini");
	run_tool(&r, "--config", missing, "model.tflite", NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, missing) != NULL, "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, list_plugins_names_the_reference_plugin)
{
	spawn_result r;

	run_tool(&r, "--list-plugins", "--config", config, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "reference (" REFERENCE_PLUGIN ")") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "FULLY_CONNECTED") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, list_plugins_json_parses)
{
	spawn_result r;

	run_tool(&r, "--config", config, "--json", "--list-plugins", NULL);
	assert_status(&r, 0);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "\"plugins\": [") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"file\": \"" REFERENCE_PLUGIN "\"") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "\"max_version\": ") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* ------------------------------------------------ runs on corpus models */

Test(opver_run, hello_world_float_output_matches_expected)
{
	char model[4096], input[4096], expected_path[4096], output[128];
	unsigned char *got, *expected;
	size_t got_size, expected_size;
	float g, e;
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	corpus_file(input, sizeof(input), "cases/hello_world_float/x1/in0.raw");
	corpus_file(expected_path, sizeof(expected_path),
		    "cases/hello_world_float/x1/expected0.raw");
	in_workdir(output, sizeof(output), "out0.raw");
	run_tool(&r, "-i", input, "--config", config, model, "-o", output,
		 NULL);
	assert_status(&r, 0);
	cr_assert(r.err[0] == '\0', "unexpected stderr:\n%s", r.err);
	got = read_file(output, &got_size);
	expected = read_file(expected_path, &expected_size);
	cr_assert(got_size == sizeof(float) && expected_size == sizeof(float),
		  "output has %zu bytes, expected0.raw %zu", got_size,
		  expected_size);
	memcpy(&g, got, sizeof(g));
	memcpy(&e, expected, sizeof(e));
	/* cases.tsv: hello_world_float x1 is float:0.05:0. */
	cr_assert(fabsf(g - e) <= 0.05f, "got %g, expected %g", g, e);
	free(got);
	free(expected);
	spawn_free(&r);
}

Test(opver_run, prints_outputs_without_o)
{
	char model[4096], input[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	corpus_file(input, sizeof(input), "cases/hello_world_int8/q0/in0.raw");
	run_tool(&r, "--config", config, model, "-i", input, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "output 0 '") == r.out, "%s", r.out);
	cr_assert(strstr(r.out, " INT8[1,1]: ") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, explain_json_parses)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	run_tool(&r, "--explain", "--json", "--config", config, model, NULL);
	assert_status(&r, 0);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "\"nodes\": [") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"index\": 0") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"op\": \"FULLY_CONNECTED\"") != NULL, "%s",
		  r.out);
	cr_assert(strstr(r.out, "\"version\": 4") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"plugin\": \"reference\"") != NULL, "%s",
		  r.out);
	cr_assert(strstr(r.out, "\"min_runtime_version\": {") != NULL, "%s",
		  r.out);
	spawn_free(&r);
}

Test(opver_run, explain_text_names_op_and_plugin)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	run_tool(&r, "--explain", "--config", config, model, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "FULLY_CONNECTED") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "reference/") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* The file each plugin came from: which build of the reference plugin
 * (reference or its variant reference-tflite) a config loads. */
Test(opver_run, explain_names_each_plugin_file)
{
	char model[4096], line[4300];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	run_tool(&r, "--explain", "--config", config, model, NULL);
	assert_status(&r, 0);
	snprintf(line, sizeof(line), "plugin reference: %s (name reference, version ",
		 REFERENCE_PLUGIN);
	cr_assert(strstr(r.out, line) != NULL, "%s", r.out);
	spawn_free(&r);
	run_tool(&r, "--explain", "--json", "--config", config, model, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "\"plugins\": [") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, json_escapes_the_model_path)
{
	char model[4096], copy[256];
	unsigned char *data;
	spawn_result r;
	size_t size;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	/* A quote, a backslash, a tab and UTF-8 in the path must survive. */
	in_workdir(copy, sizeof(copy), "a \"b\\c\td\xc3\xa9.tflite");
	data = read_file(model, &size);
	write_file(copy, data, size);
	free(data);
	run_tool(&r, "--explain", "--json", "--config", config, copy, NULL);
	assert_status(&r, 0);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "a \\\"b\\\\c\\td\xc3\xa9.tflite\"") != NULL,
		  "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, benchmark_reports_latency)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	run_tool(&r, "--config", config, "--benchmark", "5", model, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "5 runs after 1 warm-up, inputs zero-filled") !=
			  NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "median") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "setup: interpreter creation ") != NULL,
		  "%s", r.out);
	spawn_free(&r);
	run_tool(&r, "--config", config, "--benchmark", "3", "--json", model,
		 NULL);
	assert_status(&r, 0);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "\"latency_ms\": {") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"interpreter_create_ms\": ") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "\"first_invoke_ms\": ") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"invocations\": 3") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, wrong_size_input_exits_2)
{
	char model[4096], input[128];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	in_workdir(input, sizeof(input), "short.raw");
	write_file(input, "abc", 3);
	run_tool(&r, "--config", config, model, "-i", input, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "input 0 '") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "has 3 bytes, the model's FLOAT32[1,1] input needs 4") !=
			  NULL,
		  "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, wrong_input_count_exits_2)
{
	char model[4096], input[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	corpus_file(input, sizeof(input), "cases/hello_world_float/x1/in0.raw");
	run_tool(&r, "--config", config, model, "-i", input, "-i", input,
		 NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "has 1 input but -i was given 2 times") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, run_without_inputs_exits_2)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_float.tflite");
	run_tool(&r, "--config", config, model, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "-i FILE") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* ------------------------------------- a model needing a newer version */

static uint32_t read_u32(const unsigned char *data, size_t size, size_t at)
{
	uint32_t value;

	cr_assert(at <= size && size - at >= 4, "offset %zu out of bounds", at);
	memcpy(&value, data + at, 4);
	return value;
}

static uint16_t read_u16(const unsigned char *data, size_t size, size_t at)
{
	uint16_t value;

	cr_assert(at <= size && size - at >= 2, "offset %zu out of bounds", at);
	memcpy(&value, data + at, 2);
	return value;
}

/* Where field `field` of the table at `table` is stored, or 0 if absent. */
static size_t field_at(const unsigned char *data, size_t size, size_t table,
		       int field)
{
	size_t vtable = table - (size_t)(int32_t)read_u32(data, size, table);
	size_t slot = 4 + 2 * (size_t)field;
	uint16_t offset;

	if (slot + 2 > read_u16(data, size, vtable))
		return 0;
	offset = read_u16(data, size, vtable + slot);
	return offset ? table + offset : 0;
}

/* Follows the uoffset stored at `at`. */
static size_t follow(const unsigned char *data, size_t size, size_t at)
{
	return at + read_u32(data, size, at);
}

/*
 * Sets the stored version of the model's FULLY_CONNECTED OperatorCode.
 * Model.operator_codes is field 1; OperatorCode has
 * deprecated_builtin_code (0, int8), version (2, int32) and builtin_code
 * (3, int32).  hello_world_int8 stores version 4 explicitly, so the int32
 * is patched in place.
 */
static void set_fully_connected_version(unsigned char *data, size_t size,
					int32_t version)
{
	size_t root = read_u32(data, size, 0);
	size_t codes = field_at(data, size, root, 1);
	size_t vector, count;

	cr_assert(codes != 0, "the model has no operator_codes");
	vector = follow(data, size, codes);
	count = read_u32(data, size, vector);
	for (size_t i = 0; i < count; i++) {
		size_t code = follow(data, size, vector + 4 + 4 * i);
		size_t deprecated = field_at(data, size, code, 0);
		size_t builtin = field_at(data, size, code, 3);
		size_t at = field_at(data, size, code, 2);
		int32_t op = 0;

		if (builtin)
			op = (int32_t)read_u32(data, size, builtin);
		cr_assert(deprecated < size);
		if (deprecated && (int8_t)data[deprecated] > op)
			op = (int8_t)data[deprecated];
		if (op != OPVER_OP_FULLY_CONNECTED)
			continue;
		cr_assert(at != 0,
			  "the FULLY_CONNECTED code has no version field (default 1) to patch");
		read_u32(data, size, at);
		memcpy(data + at, &version, sizeof(version));
		return;
	}
	cr_assert_fail("the model has no FULLY_CONNECTED operator code");
}

Test(opver_run, unsupported_op_version_exits_4)
{
	char model[4096], patched[128], input[4096];
	unsigned char *data;
	spawn_result r;
	size_t size;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	corpus_file(input, sizeof(input), "cases/hello_world_int8/q0/in0.raw");
	data = read_file(model, &size);
	set_fully_connected_version(data, size, 99);
	in_workdir(patched, sizeof(patched), "fc_v99.tflite");
	write_file(patched, data, size);
	free(data);
	run_tool(&r, "--config", config, patched, "-i", input, NULL);
	assert_status(&r, 4);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "FULLY_CONNECTED") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "99") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* ------------------------------------------- versions: --check, --explain */

/* `text` with every space and newline removed, in place. */
static const char *without_space(char *text)
{
	char *to = text;

	for (const char *from = text; *from != '\0'; from++)
		if (*from != ' ' && *from != '\n')
			*to++ = *from;
	*to = '\0';
	return text;
}

/* hello_world_int8 with its FULLY_CONNECTED stored as `version`, in the
 * workdir as `name`; `path` receives its path. */
static void patched_hello_world(char *path, size_t path_size,
				const char *name, int32_t version)
{
	char model[4096];
	unsigned char *data;
	size_t size;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	data = read_file(model, &size);
	set_fully_connected_version(data, size, version);
	in_workdir(path, path_size, name);
	write_file(path, data, size);
	free(data);
}

Test(opver_run, check_runnable_model_exits_0)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	run_tool(&r, "--check", "--config", config, model, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, ": can run") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, check_lists_what_is_missing_and_exits_4)
{
	char model[128];
	spawn_result r;

	patched_hello_world(model, sizeof(model), "fc_v99.tflite", 99);
	run_tool(&r, "--check", "--config", config, model, NULL);
	assert_status(&r, 4);
	cr_assert(strstr(r.out, ": cannot run") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "  FULLY_CONNECTED version 99 for (INT8,INT8,INT32): nodes 0, 1, 2\n") != NULL,
		  "%s", r.out);
	spawn_free(&r);

	run_tool(&r, "--check", "--json", "--config", config, model, NULL);
	assert_status(&r, 4);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "\"runnable\": false") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"version\": 99") != NULL, "%s", r.out);
	cr_assert(strstr(without_space(r.out), "\"nodes\":[0,1,2]") != NULL,
		  "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, check_takes_no_run_options)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	run_tool(&r, "--check", "--benchmark", "3", "--config", config, model,
		 NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	spawn_free(&r);
}

/* hello_world_int8's FULLY_CONNECTED: int8 input and weights need version
 * 4 (stored 4); FULLY_CONNECTED 4 first shipped in TFLite 1.14.0. */
Test(opver_run, explain_json_gives_required_versions)
{
	char model[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	run_tool(&r, "--explain", "--json", "--config", config, model, NULL);
	assert_status(&r, 0);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "\"required_version\": 4") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"reason\": \"") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"stored_below_required\": false") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"computed\": \"1.14.0\"") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, explain_flags_a_stored_version_below_the_required_one)
{
	char model[128];
	spawn_result r;

	patched_hello_world(model, sizeof(model), "fc_v1.tflite", 1);
	run_tool(&r, "--explain", "--config", config, model, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "       1        4! ") != NULL, "%s", r.out);
	/* hello_world_int8 has three FULLY_CONNECTED nodes. */
	cr_assert(strstr(r.out, "! 3 nodes store a version below") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* An unresolvable model is still explained node by node, and exits 4. */
Test(opver_run, explain_shows_unbound_nodes_and_exits_4)
{
	char model[128];
	spawn_result r;

	patched_hello_world(model, sizeof(model), "fc_v99.tflite", 99);
	run_tool(&r, "--explain", "--json", "--config", config, model, NULL);
	assert_status(&r, 4);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "\"plugin\": null") != NULL, "%s", r.out);
	cr_assert(strstr(r.err, "version 99") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* A plugin claiming int8 FULLY_CONNECTED 1-3 takes a node stored as 3,
 * unless --strict-versions asks for the required 4. */
Test(opver_run, strict_versions_resolves_at_the_required_version)
{
	static const char text[] = "[plugin.old_fc]\nlibrary = %s/old_fc.so\n";
	char model[128], old_config[128], content[1024];
	spawn_result r;

	patched_hello_world(model, sizeof(model), "fc_v3.tflite", 3);
	in_workdir(old_config, sizeof(old_config), "old.ini");
	snprintf(content, sizeof(content), text, TEST_PLUGIN_DIR);
	write_file(old_config, content, strlen(content));

	run_tool(&r, "--check", "--config", old_config, model, NULL);
	assert_status(&r, 0);
	spawn_free(&r);

	run_tool(&r, "--check", "--strict-versions", "--config", old_config,
		 model, NULL);
	assert_status(&r, 4);
	cr_assert(strstr(r.out, "FULLY_CONNECTED version 4 for") != NULL, "%s", r.out);
	cr_assert(strstr(r.err, "(stored as 3;") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* The corpus's stored-below-required nodes, as its README lists them:
 * litert_single_mul_a8w8 stores its int8 MUL as version 1 (TFLite's rules
 * give 2) and person_detect its int8 CONV_2D as version 2 (rules: 3). */
Test(opver_run, explain_json_flags_the_corpus_stored_below_required_nodes)
{
	static const struct {
		const char *model;
		const char *node;
	} cases[] = {
		{ "litert_single_mul_a8w8.tflite",
		  "\"op\":\"MUL\",\"custom_name\":null,\"version\":1,\"required_version\":2," },
		{ "person_detect.tflite",
		  "\"op\":\"CONV_2D\",\"custom_name\":null,\"version\":2,\"required_version\":3," },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char model[4096];
		spawn_result r;

		corpus_file(model, sizeof(model), cases[i].model);
		run_tool(&r, "--explain", "--json", "--config", config, model,
			 NULL);
		assert_status(&r, 0);
		cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
		cr_assert(strstr(without_space(r.out), cases[i].node) != NULL,
			  "%s: %s", cases[i].model, r.out);
		cr_assert(strstr(r.out, "\"stored_below_required\":true") != NULL,
			  "%s", r.out);
		spawn_free(&r);
	}
}

/* Without a plugin for its custom op, the corpus's versioned-ops model
 * exits 4 naming the op and the version it needs. */
Test(opver_run, missing_custom_op_exits_4)
{
	char model[4096], in0[4096], in1[4096];
	spawn_result r;

	corpus_file(model, sizeof(model), "litert_test_model_versioned_ops.tflite");
	corpus_file(in0, sizeof(in0), "cases/litert_test_model_versioned_ops/load_only/in0.raw");
	corpus_file(in1, sizeof(in1), "cases/litert_test_model_versioned_ops/load_only/in1.raw");
	run_tool(&r, "--config", config, model, "-i", in0, "-i", in1, NULL);
	assert_status(&r, 4);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "node 1 (testing_op): the model needs testing_op version 2") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

/* ------------------------------------ models a kernel rejects, limits */

#define TEST_MODEL(name) TEST_MODEL_DIR "/" name ".tflite"

/* fc_int8 and its variants take one [1, 4] int8 input. */
static void int8x4_input(char *path, size_t size)
{
	static const int8_t zeros[4];

	in_workdir(path, size, "in.raw");
	write_file(path, zeros, sizeof(zeros));
}

/* A model whose bias a kernel's prepare finds the wrong length is invalid:
 * exit 3, as README and opver-run(1) say, not 1. */
Test(opver_run, model_a_kernel_rejects_exits_3)
{
	char input[128];
	spawn_result r;

	int8x4_input(input, sizeof(input));
	run_tool(&r, "--config", config, TEST_MODEL("fc_int8_bad_bias"), "-i",
		 input, NULL);
	assert_status(&r, 3);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "bias 'bias' has 3 elements") != NULL, "%s",
		  r.err);
	cr_assert(strstr(r.err, "prepare rejected the model as invalid") !=
			  NULL,
		  "%s", r.err);
	spawn_free(&r);
}

/* --check prepares what it can bind, so it catches the same model. */
Test(opver_run, check_exits_3_for_a_model_a_kernel_rejects)
{
	spawn_result r;

	run_tool(&r, "--check", "--config", config,
		 TEST_MODEL("fc_int8_bad_bias"), NULL);
	assert_status(&r, 3);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "bias 'bias' has 3 elements") != NULL, "%s",
		  r.err);
	cr_assert_eq(r.out[0], '\0', "%s", r.out);
	spawn_free(&r);

	run_tool(&r, "--check", "--json", "--config", config,
		 TEST_MODEL("fc_int8_bad_bias"), NULL);
	assert_status(&r, 3);
	assert_one_error_line(&r);
	spawn_free(&r);

	run_tool(&r, "--check", "--config", config, TEST_MODEL("fc_int8"),
		 NULL);
	assert_status(&r, 0);
	spawn_free(&r);
}

Test(opver_run, max_arena_over_the_plan_exits_1_naming_both_sizes)
{
	char input[128];
	spawn_result r;

	int8x4_input(input, sizeof(input));
	run_tool(&r, "--max-arena", "1", "--config", config,
		 TEST_MODEL("fc_int8"), "-i", input, NULL);
	assert_status(&r, 1);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "need an arena of ") != NULL &&
			  strstr(r.err, "at most 1 bytes are allowed") != NULL,
		  "%s", r.err);
	spawn_free(&r);

	/* --check plans the arena too. */
	run_tool(&r, "--check", "--max-arena", "1", "--config", config,
		 TEST_MODEL("fc_int8"), NULL);
	assert_status(&r, 1);
	spawn_free(&r);

	run_tool(&r, "--max-arena", "1048576", "--config", config,
		 TEST_MODEL("fc_int8"), "-i", input, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
}

Test(opver_run, max_arena_from_the_config_and_overridden)
{
	static const char text[] =
		"[opver]\nmax_arena_bytes = 7\n[plugin.reference]\nlibrary = %s\n";
	char content[1024], limited[128], input[128];
	spawn_result r;

	int8x4_input(input, sizeof(input));
	in_workdir(limited, sizeof(limited), "limited.ini");
	snprintf(content, sizeof(content), text, REFERENCE_PLUGIN);
	write_file(limited, content, strlen(content));
	run_tool(&r, "--config", limited, TEST_MODEL("fc_int8"), "-i", input,
		 NULL);
	assert_status(&r, 1);
	cr_assert(strstr(r.err, "at most 7 bytes are allowed") != NULL, "%s",
		  r.err);
	spawn_free(&r);

	run_tool(&r, "--max-arena", "4096", "--config", limited,
		 TEST_MODEL("fc_int8"), "-i", input, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
}

Test(opver_run, bad_max_arena_exits_2)
{
	const char *bad[] = { "0", "-1", "12k", "", "99999999999999999999999" };
	spawn_result r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_tool(&r, "--max-arena", bad[i], "--config", config,
			 TEST_MODEL("fc_int8"), NULL);
		assert_status(&r, 2);
		assert_one_error_line(&r);
		cr_assert(strstr(r.err, "--max-arena") != NULL, "%s", r.err);
		spawn_free(&r);
	}
}

/* fc_int8's largest tensors (weights, bias) take 8 bytes. */
Test(opver_run, max_tensor_exits_1_naming_the_tensor)
{
	char input[128];
	spawn_result r;

	int8x4_input(input, sizeof(input));
	run_tool(&r, "--max-tensor", "7", "--config", config,
		 TEST_MODEL("fc_int8"), "-i", input, NULL);
	assert_status(&r, 1);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "tensor 1 'weights' takes 8 bytes") != NULL &&
			  strstr(r.err, "--max-tensor") != NULL,
		  "%s", r.err);
	spawn_free(&r);

	/* --check applies it too. */
	run_tool(&r, "--check", "--max-tensor", "7", "--config", config,
		 TEST_MODEL("fc_int8"), NULL);
	assert_status(&r, 1);
	spawn_free(&r);

	run_tool(&r, "--max-tensor", "8", "--config", config,
		 TEST_MODEL("fc_int8"), "-i", input, NULL);
	assert_status(&r, 0);
	spawn_free(&r);

	run_tool(&r, "--max-tensor", "0", "--config", config,
		 TEST_MODEL("fc_int8"), NULL);
	assert_status(&r, 2);
	cr_assert(strstr(r.err, "--max-tensor needs a byte count") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

/* A zero-element input has no data to zero-fill (memset of NULL, even of
 * 0 bytes, is undefined: UBSan runs this). */
Test(opver_run, benchmark_of_an_empty_input_exits_0)
{
	spawn_result r;

	run_tool(&r, "--benchmark", "2", "--config", config,
		 TEST_MODEL("fc_float_empty"), NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "latency") != NULL, "%s", r.out);
	spawn_free(&r);
}
