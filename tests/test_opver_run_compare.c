/*
 * test_opver_run_compare.c - opver-run --compare and --dump-tensors, on
 * models whose every intermediate value is worked out by hand here.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "json_check.h"
#include "json_tree.h"
#include "opver_run_tool.h"

#define TEST_MODEL(name) TEST_MODEL_DIR "/" name ".tflite"

/* add_relu6_pair: a = relu6(x + y), b = a + a.  x + y = 7.5, 2, -1, 5.5,
 * so a = 6, 2, 0, 5.5 and b = 12, 4, 0, 11.  A RELU6 that clamps at 5
 * gives a = 5, 2, 0, 5 and b = 10, 4, 0, 10: node 0 differs by 1, node 1
 * by 2. */
static const float x[4] = { 4.0f, 1.5f, -3.0f, 5.0f };
static const float y[4] = { 3.5f, 0.5f, 2.0f, 0.5f };

static void write_inputs(char *x_path, char *y_path, size_t size)
{
	in_workdir(x_path, size, "x.raw");
	write_file(x_path, x, sizeof(x));
	in_workdir(y_path, size, "y.raw");
	write_file(y_path, y, sizeof(y));
}

/* A config whose wrong_relu6 ADD outranks the reference's. */
static void wrong_relu6_config(char *path, size_t size)
{
	static const char text[] =
		"[plugin.wrong_relu6]\nlibrary = %s/wrong_relu6.so\npriority = 100\n"
		"[plugin.reference]\nlibrary = %s\n";
	char content[1024];

	snprintf(content, sizeof(content), text, TEST_PLUGIN_DIR,
		 REFERENCE_PLUGIN);
	in_workdir(path, size, "wrong.ini");
	write_file(path, content, strlen(content));
}

Test(opver_run, compare_against_the_same_config_finds_no_difference)
{
	char x_path[128], y_path[128];
	spawn_result r;

	write_inputs(x_path, y_path, sizeof(x_path));
	run_tool(&r, "--config", config, "--compare", config,
		 TEST_MODEL("add_relu6_pair"), "-i", x_path, "-i", y_path, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "no node's outputs differ by more than 0\n") != NULL,
		  "%s", r.out);
	spawn_free(&r);
}

Test(opver_run, compare_names_the_first_node_that_diverges)
{
	char x_path[128], y_path[128], wrong[128];
	spawn_result r;

	write_inputs(x_path, y_path, sizeof(x_path));
	wrong_relu6_config(wrong, sizeof(wrong));
	run_tool(&r, "--config", config, "--compare", wrong,
		 TEST_MODEL("add_relu6_pair"), "-i", x_path, "-i", y_path, NULL);
	assert_status(&r, 5);
	cr_assert(strstr(r.out, "first divergent node: 0 (ADD): outputs differ by up to 1, more than the tolerance 0\n") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "wrong_relu6/") != NULL, "side b's kernel is named:\n%s", r.out);
	spawn_free(&r);

	/* Above the tolerance only node 1's 2 counts. */
	run_tool(&r, "--config", config, "--compare", wrong, "--tolerance",
		 "1.5", "--json", TEST_MODEL("add_relu6_pair"), "-i", x_path,
		 "-i", y_path, NULL);
	assert_status(&r, 5);
	cr_assert(json_is_object(r.out), "not a JSON object:\n%s", r.out);
	cr_assert(strstr(r.out, "\"first_divergent_node\": 1") != NULL, "%s", r.out);
	/* Both nodes run on kernels: the culprit is the node itself. */
	cr_assert(strstr(r.out, "\"earliest_culprit_node\": 1") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"max_abs_diff\": 2") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"max_abs_diff\": 1") != NULL, "%s", r.out);
	spawn_free(&r);

	run_tool(&r, "--config", config, "--compare", wrong, "--tolerance",
		 "2", TEST_MODEL("add_relu6_pair"), "-i", x_path, "-i", y_path,
		 NULL);
	assert_status(&r, 0);
	spawn_free(&r);
}

Test(opver_run, compare_and_tolerance_refuse_what_does_not_go_with_them)
{
	spawn_result r;

	run_tool(&r, "--config", config, "--tolerance", "1",
		 TEST_MODEL("add_relu6_pair"), NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	spawn_free(&r);
	run_tool(&r, "--config", config, "--compare", config, "--tolerance",
		 "-1", TEST_MODEL("add_relu6_pair"), NULL);
	assert_status(&r, 2);
	spawn_free(&r);
	run_tool(&r, "--config", config, "--compare", config, "--check",
		 TEST_MODEL("add_relu6_pair"), NULL);
	assert_status(&r, 2);
	spawn_free(&r);
	/* --explain alone does not run the model: nothing to dump. */
	run_tool(&r, "--config", config, "--explain", "--dump-tensors",
		 "/nonexistent", TEST_MODEL("add_relu6_pair"), NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	spawn_free(&r);
}

/* Reads a dumped float32[1,4] tensor: a version 1.0 .npy file, whose
 * header length is the little-endian uint16 at byte 8. */
static void assert_dumped(const char *dir, int tensor, const float *expected)
{
	char path[256];
	unsigned char *data;
	size_t size, header;
	char dict[256];
	float values[4];

	snprintf(path, sizeof(path), "%s/tensor_%d.npy", dir, tensor);
	data = read_file(path, &size);
	cr_assert_gt(size, 10);
	cr_assert(memcmp(data, "\x93NUMPY\x01", 7) == 0, "%s", path);
	header = 10 + (size_t)data[8] + 256 * (size_t)data[9];
	cr_assert_eq(size, header + sizeof(values), "%s: %zu bytes", path, size);
	cr_assert_lt(header, sizeof(dict));
	memcpy(dict, data, header);
	dict[header] = '\0';
	cr_assert(strstr(dict + 10, "'descr': '<f4'") != NULL, "%s", path);
	memcpy(values, data + header, sizeof(values));
	for (int i = 0; i < 4; i++)
		cr_assert_float_eq(values[i], expected[i], 0, "tensor %d[%d]",
				   tensor, i);
	free(data);
}

Test(opver_run, dump_tensors_writes_every_intermediate)
{
	static const float a[4] = { 6.0f, 2.0f, 0.0f, 5.5f };
	static const float b[4] = { 12.0f, 4.0f, 0.0f, 11.0f };
	char x_path[128], y_path[128], dir[128], index[160];
	unsigned char *text;
	json_value *entries;
	size_t size;
	spawn_result r;

	write_inputs(x_path, y_path, sizeof(x_path));
	in_workdir(dir, sizeof(dir), "dump");
	run_tool(&r, "--config", config, "--dump-tensors", dir,
		 TEST_MODEL("add_relu6_pair"), "-i", x_path, "-i", y_path, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	assert_dumped(dir, 0, x);
	assert_dumped(dir, 1, y);
	assert_dumped(dir, 2, a);
	assert_dumped(dir, 3, b);
	snprintf(index, sizeof(index), "%s/index.json", dir);
	text = read_file(index, &size);
	text = realloc(text, size + 1);
	text[size] = '\0';
	entries = json_tree_parse((const char *)text);
	cr_assert_not_null(entries, "%s", text);
	/* x, y, a, b in tensor order; a and b name the node that wrote them. */
	cr_assert_eq(entries->kind, JSON_ARRAY, "%s", text);
	cr_assert_eq(entries->count, 4, "%s", text);
	cr_assert_str_eq(json_tree_get(&entries->items[2], "file")->string, "tensor_2.npy");
	cr_assert_str_eq(json_tree_get(&entries->items[2], "name")->string, "a");
	cr_assert_eq(json_tree_get(&entries->items[2], "node")->number, 0);
	cr_assert_eq(json_tree_get(&entries->items[3], "node")->number, 1);
	cr_assert_str_eq(json_tree_get(&entries->items[3], "plugin")->string, "reference");
	cr_assert_eq(json_tree_get(&entries->items[0], "node")->kind, JSON_NULL);
	json_tree_free(entries);
	free(text);
}
