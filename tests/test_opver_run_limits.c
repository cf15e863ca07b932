/*
 * test_opver_run_limits.c - opver-run on models a kernel rejects, and
 * its arena and tensor size limits.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "opver_run_tool.h"

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
