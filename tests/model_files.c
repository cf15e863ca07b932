/*
 * model_files.c - what the test_model_reader_*.c suites share
 * (model_files.h): the model_reader suite and its reporters, opening the
 * models built from tests/models and reading their bytes.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_files.h"

messages captured, ignored;
opver__reporter capturing, silent;

void model_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s.tflite", TEST_MODEL_DIR, name);
}

opver_status open_model(const char *name, opver__model_file *file)
{
	char path[4096];

	model_path(path, sizeof(path), name);
	return opver__model_file_open(path, &capturing, file);
}

void open_good(const char *name, opver__model_file *file)
{
	opver_status status = open_model(name, file);

	cr_assert_eq(status, OPVER_OK, "%s: %s; messages:\n%s", name,
		     opver_status_name(status), captured.text);
	cr_assert_eq(messages_total(&captured), 0, "unexpected messages:\n%s",
		     captured.text);
}

/* Reads a whole file into a new buffer (free() it). */
static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *bytes;
	long length;

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	length = ftell(f);
	cr_assert_gt(length, 0);
	rewind(f);
	bytes = malloc((size_t)length);
	cr_assert_not_null(bytes);
	cr_assert_eq(fread(bytes, 1, (size_t)length, f), (size_t)length);
	fclose(f);
	*size = (size_t)length;
	return bytes;
}

uint8_t *slurp_model(const char *name, size_t *size)
{
	char path[4096];

	model_path(path, sizeof(path), name);
	return slurp(path, size);
}

void assert_dims(const opver__graph_tensor *t, int32_t rank,
		 const int32_t *dims)
{
	cr_assert_eq(t->rank, rank, "tensor %s: rank %d, expected %d",
		     t->name, t->rank, rank);
	for (int32_t i = 0; i < rank; i++)
		cr_assert_eq(t->dims[i], dims[i], "tensor %s: dim %d", t->name,
			     i);
}

void assert_indices(int32_t count, const int32_t *got,
		    int32_t expected_count, const int32_t *expected)
{
	cr_assert_eq(count, expected_count);
	for (int32_t i = 0; i < count; i++)
		cr_assert_eq(got[i], expected[i], "index %d", i);
}

/* True when [p, p + n) lies inside the mapping of `file`. */
bool in_mapping(const opver__model_file *file, const uint8_t *p,
		size_t n)
{
	return p >= file->bytes && p <= file->bytes + file->size &&
	       n <= (size_t)(file->bytes + file->size - p);
}

float float_at(const uint8_t *data, size_t index)
{
	float value;

	memcpy(&value, data + index * sizeof(value), sizeof(value));
	return value;
}

void setup(void)
{
	messages_clear(&captured);
	capturing = messages_reporter(&captured);
	silent = messages_reporter(&ignored);
}

TestSuite(model_reader, .init = setup);
