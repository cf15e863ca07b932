/*
 * test_opver_select.c - opver-select and the selective reference build,
 * end to end: the kernels it selects for hello_world_int8 are what
 * tests/plugins/reference_selected was built from (as ./configure
 * --with-reference-kernels builds the reference plugin), that plugin runs
 * the model to its golden output, and a model outside the selection fails
 * with the usual exit-4 message.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_tree.h"
#include "opver_run_tool.h"

#define SELECTED_PLUGIN TEST_PLUGIN_DIR "/reference_selected.so"
#define SELECTION_LIST TEST_SOURCE_DIR "/selection/hello_world_int8.kernels"

static void run_select(spawn_result *r, const char *const *args)
{
	const char *argv[16] = { OPVER_SELECT };
	int argc = 1;

	for (; *args != NULL; args++)
		argv[argc++] = *args;
	spawn_run(r, argv);
}

/* The kernel names of a list file, without its comments. */
static char *list_names(const char *path)
{
	size_t size, used = 0;
	char *text = (char *)read_file(path, &size), *names = calloc(size + 1, 1);
	char *line = text;

	cr_assert_not_null(names);
	text = realloc(text, size + 1);
	text[size] = '\0';
	for (line = text; line != NULL && *line != '\0';) {
		char *end = strchr(line, '\n');
		size_t length = end ? (size_t)(end - line) + 1 : strlen(line);

		if (line[0] != '#') {
			memcpy(names + used, line, length);
			used += length;
		}
		line += length;
	}
	free(text);
	return names;
}

Test(opver_run, select_lists_the_kernels_a_selective_build_needs)
{
	char model[4096];
	spawn_result r;
	char *expected = list_names(SELECTION_LIST);

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	run_select(&r, (const char *const[]){ "--config", config, "--kernels",
					      "reference", model, NULL });
	assert_status(&r, 0);
	cr_assert_str_eq(r.out, expected);
	spawn_free(&r);
	free(expected);
}

Test(opver_run, select_prints_a_config_that_binds_as_before)
{
	char model[4096], selected[128], input[4096], output[128];
	unsigned char *got, *want;
	size_t got_size, want_size;
	const json_value *plugins, *kernels;
	json_value *document;
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	run_select(&r, (const char *const[]){ "--config", config, model, NULL });
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "\n[plugin.reference]\n") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\nkernels = fully_connected_int8\n") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, ";   FULLY_CONNECTED v4 (INT8,INT8,INT32) -> reference/fully_connected_int8:") != NULL,
		  "%s", r.out);
	in_workdir(selected, sizeof(selected), "selected.ini");
	write_file(selected, r.out, strlen(r.out));
	spawn_free(&r);

	/* The selected config computes what the full one does, within the
	 * corpus check's 6 steps of the golden (cases.tsv: int:6). */
	corpus_file(input, sizeof(input), "cases/hello_world_int8/q-63/in0.raw");
	in_workdir(output, sizeof(output), "selected0.raw");
	run_tool(&r, "--config", selected, model, "-i", input, "-o", output, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	got = read_file(output, &got_size);
	in_workdir(output, sizeof(output), "full0.raw");
	run_tool(&r, "--config", config, model, "-i", input, "-o", output, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	want = read_file(output, &want_size);
	cr_assert_eq(got_size, 1);
	cr_assert_eq(want_size, 1);
	cr_assert_eq(got[0], want[0]);
	free(want);
	corpus_file(input, sizeof(input), "cases/hello_world_int8/q-63/expected0.raw");
	want = read_file(input, &want_size);
	cr_assert_leq(abs((int8_t)got[0] - (int8_t)want[0]), 6);
	free(got);
	free(want);

	run_tool(&r, "--config", selected, "--list-plugins", NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "kernels: 1\n") != NULL, "%s", r.out);
	spawn_free(&r);

	run_select(&r, (const char *const[]){ "--config", config, "--json",
					      model, NULL });
	assert_status(&r, 0);
	document = json_tree_parse(r.out);
	cr_assert_not_null(document, "%s", r.out);
	plugins = json_tree_get(document, "plugins");
	cr_assert_eq(plugins->count, 1, "%s", r.out);
	kernels = json_tree_get(&plugins->items[0], "kernels");
	cr_assert_eq(kernels->count, 1, "%s", r.out);
	cr_assert_str_eq(kernels->items[0].string, "fully_connected_int8");
	cr_assert_str_eq(json_tree_get(&json_tree_get(document, "needs")->items[0],
				       "op")->string, "FULLY_CONNECTED");
	json_tree_free(document);
	spawn_free(&r);
}

Test(opver_run, select_refuses_a_model_the_config_cannot_run)
{
	static const char empty[] = "[opver]\n";
	char model[4096], path[128];
	spawn_result r;

	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	in_workdir(path, sizeof(path), "empty.ini");
	write_file(path, empty, strlen(empty));
	run_select(&r, (const char *const[]){ "--config", path, model, NULL });
	assert_status(&r, 4);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "node 0 (FULLY_CONNECTED v4) has no kernel or delegate") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

/* The plugin built from the list runs hello_world_int8 and nothing else:
 * person_detect needs kernels it was built without. */
Test(opver_run, selective_build_runs_its_models_only)
{
	static const char text[] =
		"[plugin.reference]\nlibrary = " SELECTED_PLUGIN "\n";
	char model[4096], input[4096], path[128];
	spawn_result r;

	in_workdir(path, sizeof(path), "selective.ini");
	write_file(path, text, strlen(text));
	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	corpus_file(input, sizeof(input), "cases/hello_world_int8/q-63/in0.raw");
	run_tool(&r, "--config", path, model, "-i", input, NULL);
	assert_status(&r, 0);
	spawn_free(&r);

	corpus_file(model, sizeof(model), "person_detect.tflite");
	run_tool(&r, "--config", path, "--check", model, NULL);
	assert_status(&r, 4);
	cr_assert(strstr(r.out, "  CONV_2D version 2 for (INT8,INT8,INT32): nodes") != NULL,
		  "%s", r.out);
	spawn_free(&r);

	run_tool(&r, "--config", path, "--list-plugins", NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "kernels: 1\n") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "fully_connected_int8") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* A kernels = name the plugin lacks is a warning with the section's place;
 * the named kernels it has are kept. */
Test(opver_run, kernels_naming_a_missing_kernel_warns)
{
	static const char text[] = "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN
				   "\nkernels = softmax_int8, no_such_kernel\n";
	char path[128], place[256];
	spawn_result r;

	in_workdir(path, sizeof(path), "missing.ini");
	write_file(path, text, strlen(text));
	run_tool(&r, "--config", path, "--list-plugins", NULL);
	assert_status(&r, 0);
	/* Line 3 holds the kernels = line. */
	snprintf(place, sizeof(place),
		 "warning: %s:3: [plugin.reference] kernels names 'no_such_kernel'",
		 path);
	cr_assert(strstr(r.err, place) != NULL, "%s", r.err);
	cr_assert(strstr(r.out, "kernels: 1\n") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "softmax_int8") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* A model needing a kernel that kernels = left out says so, naming the
 * line, rather than that the plugin has no such kernel. */
Test(opver_run, a_kernel_left_out_by_kernels_is_named_as_such)
{
	static const char text[] = "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN
				   "\nkernels = softmax_int8\n";
	char model[4096], input[4096], path[128], place[256];
	spawn_result r;

	in_workdir(path, sizeof(path), "softmax_only.ini");
	write_file(path, text, strlen(text));
	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	corpus_file(input, sizeof(input), "cases/hello_world_int8/q-63/in0.raw");
	run_tool(&r, "--config", path, model, "-i", input, NULL);
	assert_status(&r, 4);
	snprintf(place, sizeof(place),
		 "Plugin 'reference' has no FULLY_CONNECTED kernel among those kernels = keeps (%s:3).",
		 path);
	cr_assert(strstr(r.err, place) != NULL, "%s", r.err);
	spawn_free(&r);
}

/* A section's options are carried into the selected config. */
Test(opver_run, select_keeps_a_plugins_options)
{
	static const char text[] = "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN
				   "\nflavour = plain\n";
	char model[4096], path[128];
	spawn_result r;

	in_workdir(path, sizeof(path), "options.ini");
	write_file(path, text, strlen(text));
	corpus_file(model, sizeof(model), "hello_world_int8.tflite");
	run_select(&r, (const char *const[]){ "--config", path, model, NULL });
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "\nflavour = plain\n") != NULL, "%s", r.out);
	spawn_free(&r);
}

/* The core runs CALL_ONCE and the resource-variable nodes of
 * var_accumulate: only ADD needs a plugin kernel (opver-select indexed
 * past its plugin table for such nodes and crashed). */
Test(opver_run, select_needs_no_plugin_for_what_the_core_runs)
{
	char model[512];
	spawn_result r;

	snprintf(model, sizeof(model), "%s/var_accumulate.tflite",
		 TEST_MODEL_DIR);
	run_select(&r, (const char *const[]){ "--config", config, "--kernels",
					      "reference", model, NULL });
	assert_status(&r, 0);
	cr_expect_str_eq(r.out, "add_float32\n");
	spawn_free(&r);
}
