/*
 * test_opver_run_signature.c - opver-run --signature KEY on
 * tests/models/two_signatures ("double": x + x on subgraph 0, "square":
 * x * x on subgraph 1), -i and -o as NAME=FILE, --explain's signature
 * list, and opver-run on control flow (while_double, worked out by hand
 * and matching TFLite: 3 doubled until >= 100 is 192), also under
 * --max-loop-iterations, and on resource variables (var_accumulate).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opver_run_tool.h"

static void model_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s.tflite", TEST_MODEL_DIR, name);
}

Test(opver_run, signature_runs_its_own_subgraph_with_named_files)
{
	const float x[3] = { 1.0f, -2.0f, 3.0f };
	char model[512], in[64], out[64], in_arg[80], out_arg[80];
	unsigned char *bytes;
	size_t size;
	spawn_result r;
	float y[3];

	model_path(model, sizeof(model), "two_signatures");
	in_workdir(in, sizeof(in), "x.raw");
	in_workdir(out, sizeof(out), "y.raw");
	write_file(in, x, sizeof(x));
	snprintf(in_arg, sizeof(in_arg), "x=%s", in);
	snprintf(out_arg, sizeof(out_arg), "y=%s", out);
	run_tool(&r, "--config", config, "--signature", "square", "-i",
		 in_arg, "-o", out_arg, model, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	bytes = read_file(out, &size);
	cr_assert_eq(size, sizeof(y));
	memcpy(y, bytes, sizeof(y));
	free(bytes);
	cr_expect_eq(y[0], 1.0f);
	cr_expect_eq(y[1], 4.0f);
	cr_expect_eq(y[2], 9.0f);

	run_tool(&r, "--config", config, "--signature", "double", "-i",
		 in_arg, model, NULL);
	assert_status(&r, 0);
	cr_expect(strstr(r.out, ": 2 -4 6") != NULL, "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, signature_errors_name_what_exists)
{
	char model[512], in_arg[80];
	spawn_result r;

	model_path(model, sizeof(model), "two_signatures");
	snprintf(in_arg, sizeof(in_arg), "z=%s/x.raw", workdir);
	run_tool(&r, "--config", config, "--signature", "cube", model, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_expect(strstr(r.err, "no signature 'cube'; its signatures are 'double', 'square'") != NULL,
		  "%s", r.err);
	spawn_free(&r);

	run_tool(&r, "--config", config, "--signature", "square", "-i",
		 in_arg, model, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_expect(strstr(r.err, "signature 'square' has no input named 'z'") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, explain_lists_the_signatures)
{
	char model[512];
	spawn_result r;

	model_path(model, sizeof(model), "two_signatures");
	run_tool(&r, "--config", config, "--explain", model, NULL);
	assert_status(&r, 0);
	cr_expect(strstr(r.out, "signature 'double' on subgraph 0: inputs x (tensor 0); outputs y (tensor 1)") != NULL,
		  "%s", r.out);
	cr_expect(strstr(r.out, "signature 'square' on subgraph 1: inputs x (tensor 0); outputs y (tensor 1)") != NULL,
		  "%s", r.out);
	spawn_free(&r);
}

/* while_double and its inputs x = 3, limit = 100 written to the work
 * directory: 6 passes of doubling, to 192. */
static void while_double_inputs(char model[512], char xs[64], char ls[64])
{
	const float x = 3.0f, limit = 100.0f;

	model_path(model, 512, "while_double");
	in_workdir(xs, 64, "x.raw");
	in_workdir(ls, 64, "limit.raw");
	write_file(xs, &x, sizeof(x));
	write_file(ls, &limit, sizeof(limit));
}

Test(opver_run, while_runs_and_explain_names_the_core)
{
	char model[512], xs[64], ls[64];
	spawn_result r;

	while_double_inputs(model, xs, ls);
	run_tool(&r, "--config", config, "--explain", "-i", xs, "-i", ls,
		 model, NULL);
	assert_status(&r, 0);
	cr_expect(strstr(r.out, "opver core/control flow") != NULL, "%s",
		  r.out);
	cr_expect(strstr(r.out, "output 0 'x_final' FLOAT32[1]: 192\n") != NULL,
		  "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, max_loop_iterations_fails_a_longer_loop)
{
	char model[512], xs[64], ls[64];
	spawn_result r;

	while_double_inputs(model, xs, ls);
	/* 3 to 192 takes 6 passes. */
	run_tool(&r, "--config", config, "--max-loop-iterations", "6", "-i",
		 xs, "-i", ls, model, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	run_tool(&r, "--config", config, "--max-loop-iterations", "5", "-i",
		 xs, "-i", ls, model, NULL);
	assert_status(&r, 1);
	assert_one_error_line(&r);
	cr_expect(strstr(r.err, "still looping after 5 passes") != NULL, "%s",
		  r.err);
	spawn_free(&r);
}

/* var_accumulate with x = [0.5, -1, 2]: the variable starts at [1, 2, 3]
 * (CALL_ONCE), so one run gives [1.5, 1, 5], as TFLite does. */
Test(opver_run, resource_variables_run_and_explain_names_the_core)
{
	const float x[3] = { 0.5f, -1.0f, 2.0f };
	char model[512], xs[64];
	spawn_result r;

	model_path(model, sizeof(model), "var_accumulate");
	in_workdir(xs, sizeof(xs), "x.raw");
	write_file(xs, x, sizeof(x));
	run_tool(&r, "--config", config, "--explain", "-i", xs, model, NULL);
	assert_status(&r, 0);
	cr_expect(strstr(r.out, "VAR_HANDLE                1        1                           opver core/resource variable         TFLite's rules give VAR_HANDLE a single version\n") != NULL,
		  "%s", r.out);
	cr_expect(strstr(r.out, "RESOURCE,FLOAT32         opver core/resource variable") != NULL,
		  "%s", r.out);
	cr_expect(strstr(r.out, "output 0 'y' FLOAT32[1,3]: 1.5 1 5\n") != NULL,
		  "%s", r.out);
	spawn_free(&r);
	run_tool(&r, "--config", config, "--check", model, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
}
