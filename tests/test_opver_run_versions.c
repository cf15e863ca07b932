/*
 * test_opver_run_versions.c - opver-run on models whose op versions no
 * plugin covers or that store a version below the one they need: exit
 * statuses, --check and --explain.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opver/opver.h>

#include "json_check.h"
#include "opver_run_tool.h"

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
	cr_assert_str_empty(r.err, "--check prints only its summary");
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

/* Running it instead fails with one line that names the three nodes once,
 * and --log-level debug adds each node's own message. */
Test(opver_run, unresolved_nodes_of_one_need_share_a_message)
{
	char model[128], input[4096];
	spawn_result r;

	patched_hello_world(model, sizeof(model), "fc_v98.tflite", 98);
	corpus_file(input, sizeof(input), "cases/hello_world_int8/q-63/in0.raw");
	run_tool(&r, "--config", config, model, "-i", input, NULL);
	assert_status(&r, 4);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "nodes 0, 1, 2 (FULLY_CONNECTED): the model needs FULLY_CONNECTED version 98") != NULL,
		  "%s", r.err);
	cr_assert(strstr(r.err, "node 1 (") == NULL, "%s", r.err);
	spawn_free(&r);

	run_tool(&r, "--log-level", "debug", "--config", config, model, "-i",
		 input, NULL);
	assert_status(&r, 4);
	for (int n = 0; n < 3; n++) {
		char line[64];

		snprintf(line, sizeof(line),
			 "debug: node %d (FULLY_CONNECTED): the model needs", n);
		cr_assert(strstr(r.err, line) != NULL, "%s\n%s", line, r.err);
	}
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

/* The custom op TFLite_Detection_PostProcess: version 1 by the rules,
 * bound to the reference's kernel. */
Test(opver_run, explain_gives_the_detection_custom_op_its_version)
{
	spawn_result r;

	run_tool(&r, "--explain", "--config", config,
		 TEST_MODEL_DIR "/detection_fast.tflite", NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "   0  CUSTOM(TFLite_Detection_PostProcess)      1        1  FLOAT32,FLOAT32,FLOAT32  reference/detection_postprocess      custom ops are not versioned by TFLite's rules\n") != NULL,
		  "%s", r.out);
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
	cr_assert_str_empty(r.err, "the JSON carries what is missing");
	spawn_free(&r);

	run_tool(&r, "--explain", "--config", config, model, NULL);
	assert_status(&r, 4);
	cr_assert(strstr(r.out, "! 3 nodes have no kernel or delegate;") != NULL,
		  "%s", r.out);
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
	cr_assert(strstr(r.out, "FULLY_CONNECTED version 4 for (INT8,INT8,INT32) (stored as 3; required: ") != NULL,
		  "%s", r.out);
	cr_assert_str_empty(r.err);
	spawn_free(&r);

	/* At info level the core's message says what the plugin offers. */
	run_tool(&r, "--check", "--strict-versions", "--log-level", "info",
		 "--config", old_config, model, NULL);
	assert_status(&r, 4);
	cr_assert(strstr(r.err, "(stored as 3;") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "Plugin 'old_fc' handles versions 1-3") != NULL,
		  "%s", r.err);
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
