/*
 * test_opver_run_resize.c - opver-run --input-shape end to end on corpus
 * models (skipped without $OPVER_MODEL_CORPUS): a batch of 3 in one -i
 * file gives, row for row, what three batch-1 runs of the same rows give,
 * on the reference plugin and on the XNNPACK plugin as a drop-in; shapes
 * the library or a kernel refuses exit 2 with one line naming why.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Runs the resnet under `with` (a config path) on `input`, resized to
 * `shape` unless NULL, output 0 to out.raw; returns its bytes (caller
 * frees) and their count. */
static unsigned char *run_resnet(const char *with, const char *shape,
				      const char *input, size_t *size)
{
	char model[512], output[128];
	spawn_result r;

	corpus_file(model, sizeof(model), RESNET);
	in_workdir(output, sizeof(output), "out.raw");
	if (shape != NULL)
		run_tool(&r, "--config", with, "--input-shape", shape,
			 model, "-i", input, "-o", output, NULL);
	else
		run_tool(&r, "--config", with, model, "-i", input, "-o",
			 output, NULL);
	assert_status(&r, 0);
	spawn_free(&r);
	return read_file(output, size);
}

/* A batch of rows `cases` under config `with` gives, row for row, what
 * batch-1 runs of the rows give. */
static void batch_row_for_row(const char *with)
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
		alone[r] = run_resnet(with, NULL, path, &size);
		cr_assert_eq(size, OUT_BYTES);
		free(row);
	}
	in_workdir(path, sizeof(path), "batch.raw");
	write_file(path, batch, 3 * ROW_BYTES);
	got = run_resnet(with, "0=3,32,32,3", path, &size);
	cr_assert_eq(size, 3 * OUT_BYTES, "output of %zu bytes", size);
	for (int r = 0; r < 3; r++) {
		cr_expect(memcmp(got + r * OUT_BYTES, alone[r], OUT_BYTES) == 0,
			  "row %d differs from its batch-1 run", r);
		free(alone[r]);
	}
	free(got);
	free(batch);
}

Test(opver_run, input_shape_runs_a_batch_row_for_row)
{
	batch_row_for_row(config);
}

/*
 * The XNNPACK plugin installed as a drop-in (its library in the plugin
 * directory, its fragment plugins/xnnpack/xnnpack.ini in opver.d, no
 * section of its own in the config): a batch of 3 runs on its
 * partitions, rebuilt for the new shape (the benchmark's per-node table
 * shows the partition's inner operators, and the setup line the time the
 * re-allocation took), row for row as batch 1 does.
 */
Test(opver_run, input_shape_runs_a_batch_on_the_xnnpack_drop_in)
{
	char dropin[128], dir[128], plugin[160], fragment[160], model[512];
	unsigned char *text;
	spawn_result r;
	size_t size;
	FILE *file;

	if (access(XNNPACK_PLUGIN, R_OK) != 0)
		cr_skip_test("the XNNPACK plugin was not built");
	corpus_file(model, sizeof(model), RESNET);
	in_workdir(dir, sizeof(dir), "plugins");
	cr_assert_eq(mkdir(dir, 0755), 0);
	snprintf(plugin, sizeof(plugin), "%s/xnnpack.so", dir);
	cr_assert_eq(symlink(XNNPACK_PLUGIN, plugin), 0);
	in_workdir(dir, sizeof(dir), "opver.d");
	cr_assert_eq(mkdir(dir, 0755), 0);
	snprintf(fragment, sizeof(fragment), "%s/xnnpack.ini", dir);
	text = read_file(XNNPACK_FRAGMENT, &size);
	write_file(fragment, text, size);
	free(text);
	in_workdir(dropin, sizeof(dropin), "dropin.ini");
	file = fopen(dropin, "w");
	cr_assert_not_null(file);
	fprintf(file, "[opver]\nplugin_path = plugins\nfragment_dir = opver.d\n"
		      "[plugin.reference]\nlibrary = %s\n", REFERENCE_PLUGIN);
	cr_assert_eq(fclose(file), 0);

	batch_row_for_row(dropin);
	run_tool(&r, "--config", dropin, "--input-shape", "0=3,32,32,3",
		 "--benchmark", "1", model, NULL);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "      node 14 FULLY_CONNECTED") != NULL,
		  "%s", r.out);
	cr_assert(strstr(r.out, "ms, allocate_tensors after --input-shape ") !=
			  NULL,
		  "%s", r.out);
	spawn_free(&r);
	unlink(plugin);
	unlink(fragment);
	rmdir(dir);
	in_workdir(dir, sizeof(dir), "plugins");
	rmdir(dir);
	unlink(dropin);
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
