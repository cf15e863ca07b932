/*
 * test_opver_run_corpus.c - opver-run on the corpus's models: raw
 * outputs against the corpus's expected outputs, --explain, --benchmark, and
 * inputs that do not fit. Tests skip without $OPVER_MODEL_CORPUS.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "opver_run_tool.h"

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
	cr_assert(strstr(r.out, "5 runs after 1 warm-up, inputs zero-filled; 1 thread\n") !=
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
	cr_assert(strstr(r.out, "\"threads\": 1,") != NULL, "%s", r.out);
	spawn_free(&r);
	/* The header says how many threads the interpreter's pool has. */
	run_tool(&r, "--config", config, "--threads", "2", "--benchmark", "2",
		 model, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "2 runs after 1 warm-up, inputs zero-filled; 2 threads\n") != NULL,
		  "%s", r.out);
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
