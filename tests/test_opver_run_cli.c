/*
 * test_opver_run_cli.c - runs the built opver-run as a user would
 * (posix_spawn, stdout and stderr captured) and checks its command-line
 * handling: exit statuses, one-line errors, --list-plugins; and the JSON
 * checker the suites use. Each test gets a temporary directory holding a
 * config that names the reference plugin (opver_run_tool.h).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "json_check.h"
#include "opver_run_tool.h"

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
