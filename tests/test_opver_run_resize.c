/*
 * test_opver_run_resize.c - opver-run --input-shape end to end on corpus
 * models (skipped without $OPVER_MODEL_CORPUS): a batch of 3 in one -i
 * file gives, row for row, what three batch-1 runs of the same rows give;
 * shapes the library or a kernel refuses exit 2 with one line naming why.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opver_run_tool.h"

#define RESNET "mlperf_ic_resnet_float.tflite"
#define ROW_BYTES (32 * 32 * 3 * sizeof(float))
#define OUT_BYTES (10 * sizeof(float))

/* The resnet input of corpus case `name`, one row. */
static unsigned char *resnet_row(const char *name)
{
	char path[512], file[128];
	unsigned char *row;
	size_t size;

	snprintf(file, sizeof(file), "cases/mlperf_ic_resnet_float/%s/in0.raw",
		 name);
	corpus_file(path, sizeof(path), file);
	row = read_file(path, &size);
	cr_assert_eq(size, ROW_BYTES);
	return row;
}

/* Runs the resnet on `input` with the extra arguments, output 0 to
 * out.raw; returns its bytes (caller frees) and their count. */
static unsigned char *run_resnet(const char *shape, const char *input,
				 size_t *size)
{
	char model[512], output[128];
	spawn_result r;

	corpus_file(model, sizeof(model), RESNET);
	in_workdir(output, sizeof(output), "out.raw");
	if (shape != NULL)
		run_tool(&r, "--config", config, "--input-shape", shape,
			 model, "-i", input, "-o", output, NULL);
	else
		run_tool(&r, "--config", config, model, "-i", input, "-o",
			 output, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	return read_file(output, size);
}

Test(opver_run, input_shape_runs_a_batch_row_for_row)
{
	const char *cases[3] = { "random_seed1", "ic_input_u8f32",
				 "random_seed1" };
	unsigned char *batch = malloc(3 * ROW_BYTES), *alone[3], *got;
	char path[128];
	size_t size;

	for (int r = 0; r < 3; r++) {
		unsigned char *row = resnet_row(cases[r]);

		memcpy(batch + r * ROW_BYTES, row, ROW_BYTES);
		in_workdir(path, sizeof(path), "row.raw");
		write_file(path, row, ROW_BYTES);
		alone[r] = run_resnet(NULL, path, &size);
		cr_assert_eq(size, OUT_BYTES);
		free(row);
	}
	in_workdir(path, sizeof(path), "batch.raw");
	write_file(path, batch, 3 * ROW_BYTES);
	got = run_resnet("0=3,32,32,3", path, &size);
	cr_assert_eq(size, 3 * OUT_BYTES, "output of %zu bytes", size);
	for (int r = 0; r < 3; r++) {
		cr_expect(memcmp(got + r * OUT_BYTES, alone[r], OUT_BYTES) == 0,
			  "row %d differs from its batch-1 run", r);
		free(alone[r]);
	}
	free(got);
	free(batch);
}

/* -i takes the resized input's size, and the output is shown with its
 * new shape. */
Test(opver_run, input_shape_sizes_inputs_and_outputs)
{
	unsigned char *zeros = calloc(2, ROW_BYTES);
	char model[512], input[128];
	spawn_result r;

	corpus_file(model, sizeof(model), RESNET);
	in_workdir(input, sizeof(input), "two.raw");
	write_file(input, zeros, 2 * ROW_BYTES);
	run_tool(&r, "--config", config, "--input-shape", "0=2,32,32,3",
		 model, "-i", input, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "FLOAT32[2,10]") != NULL, "%s", r.out);
	spawn_free(&r);
	write_file(input, zeros, ROW_BYTES);
	run_tool(&r, "--config", config, "--input-shape", "0=2,32,32,3",
		 model, "-i", input, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "input 0") != NULL, "%s", r.err);
	spawn_free(&r);
	free(zeros);
}

Test(opver_run, input_shape_a_node_refuses_exits_2_naming_it)
{
	char model[512];
	spawn_result r;

	corpus_file(model, sizeof(model), "person_detect.tflite");
	run_tool(&r, "--config", config, "--input-shape", "0=3,96,96,1",
		 "--benchmark", "1", model, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "node 29 (RESHAPE v1, kernel 'reshape' of plugin 'reference')") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, input_shape_refuses_a_zero_dimension)
{
	char model[512];
	spawn_result r;

	corpus_file(model, sizeof(model), RESNET);
	run_tool(&r, "--config", config, "--input-shape", "0=0,32,32,3",
		 "--benchmark", "1", model, NULL);
	assert_status(&r, 2);
	assert_one_error_line(&r);
	cr_assert(strstr(r.err, "--input-shape 0: resize_input: dimension 0 of input 0 ('input_1') is 0; every dimension must be at least 1") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

Test(opver_run, input_shape_needs_index_and_dimensions)
{
	static const char *const bad[] = { "3,32", "0=", "0=1,,2", "x=1",
					   "0=1,2,3,4,5,6,7,8,9", "0=1;2" };
	spawn_result r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		run_tool(&r, "--config", config, "--input-shape", bad[i],
			 "m.tflite", NULL);
		assert_status(&r, 2);
		cr_assert(strstr(r.err, "--input-shape takes INDEX=D0,D1,...") !=
				  NULL,
			  "%s: %s", bad[i], r.err);
		spawn_free(&r);
	}
	run_tool(&r, "--check", "--input-shape", "0=1", "m.tflite", NULL);
	assert_status(&r, 2);
	cr_assert(strstr(r.err, "--input-shape resizes the inputs of a run") !=
			  NULL,
		  "%s", r.err);
	spawn_free(&r);
}
