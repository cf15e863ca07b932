/*
 * test_npy_io.c - opver-run's .npy reader and writer (tools/npy_io.c):
 * headers numpy writes parse, hostile ones are clear errors (a table of
 * truncations, lengths, dicts and shapes), and every dtype round-trips
 * through a file with its shape.  Headers are built here byte by byte, as
 * numpy's format documentation describes them.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/npy_io.h"

/* A version 1.0 (or 2.0) file: prefix, `dict` as given (no padding), then
 * `data_bytes` zero bytes.  Returns the size written to `out`. */
static size_t build(uint8_t *out, size_t room, int version, const char *dict,
		    size_t data_bytes)
{
	size_t length = strlen(dict), prefix = version == 1 ? 10 : 12;

	cr_assert_leq(prefix + length + data_bytes, room);
	memcpy(out, "\x93NUMPY", 6);
	out[6] = (uint8_t)version;
	out[7] = 0;
	out[8] = (uint8_t)length;
	out[9] = (uint8_t)(length >> 8);
	if (version == 2) {
		out[10] = (uint8_t)(length >> 16);
		out[11] = (uint8_t)(length >> 24);
	}
	memcpy(out + prefix, dict, length);
	memset(out + prefix + length, 0, data_bytes);
	return prefix + length + data_bytes;
}

Test(npy_io, headers_numpy_writes_parse)
{
	uint8_t bytes[256];
	char error[256] = "";
	npy_header header;
	size_t size;

	size = build(bytes, sizeof(bytes), 1,
		     "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }      \n",
		     12);
	cr_assert_eq(npy_parse_header(bytes, size, &header, error,
				      sizeof(error)), NPY_OK, "%s", error);
	cr_assert_eq(header.type, OPVER_TYPE_FLOAT32);
	cr_assert_eq(header.rank, 2);
	cr_assert_eq(header.dims[0], 1);
	cr_assert_eq(header.dims[1], 3);
	cr_assert_eq(header.data_bytes, 12);
	cr_assert_eq(header.data_offset, size - 12);

	/* 2.0, double quotes, keys in another order, a 1-tuple, no
	 * trailing comma. */
	size = build(bytes, sizeof(bytes), 2,
		     "{\"shape\": (5,), \"fortran_order\": False, \"descr\": \"|b1\"}\n",
		     5);
	cr_assert_eq(npy_parse_header(bytes, size, &header, error,
				      sizeof(error)), NPY_OK, "%s", error);
	cr_assert_eq(header.type, OPVER_TYPE_BOOL);
	cr_assert_eq(header.rank, 1);
	cr_assert_eq(header.dims[0], 5);

	/* A scalar: shape (). */
	size = build(bytes, sizeof(bytes), 1,
		     "{'descr': '<i8', 'fortran_order': False, 'shape': (), }\n",
		     8);
	cr_assert_eq(npy_parse_header(bytes, size, &header, error,
				      sizeof(error)), NPY_OK, "%s", error);
	cr_assert_eq(header.rank, 0);
	cr_assert_eq(header.data_bytes, 8);
}

/* A header that must be refused, and a word its message must hold. */
struct hostile {
	const char *what;
	int version;
	const char *dict;       /* NULL: the raw bytes below instead */
	const char *raw;
	size_t raw_size;
	/* Declared header length past the real one, to run off the end. */
	uint32_t extra_length;
	const char *says;
};

static const struct hostile hostile[] = {
	{ "empty file", 1, NULL, "", 0, 0, "magic" },
	{ "wrong magic", 1, NULL, "\x93NUMPX\x01\x00\x10\x00", 10, 0, "magic" },
	{ "magic only", 1, NULL, "\x93NUMPY", 6, 0, "prefix" },
	{ "no header length", 1, NULL, "\x93NUMPY\x01\x00\x10", 9, 0, "prefix" },
	{ "2.0 length cut", 2, NULL, "\x93NUMPY\x02\x00\x10\x00\x00", 11, 0,
	  "prefix" },
	{ "version 3.0", 1, NULL, "\x93NUMPY\x03\x00\x00\x00", 10, 0,
	  "version 3.0" },
	{ "version 1.1", 1, NULL, "\x93NUMPY\x01\x01\x00\x00", 10, 0,
	  "version 1.1" },
	{ "length past the file", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", NULL, 0,
	  100, "past the end" },
	{ "2.0 length of 4 GiB", 2, "{", NULL, 0, 0xfffffff0u, "past the end" },
	{ "not a dict", 1, "['descr']", NULL, 0, 0, "not a dict" },
	{ "unterminated dict", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", NULL, 0, 0,
	  "unterminated" },
	{ "unterminated key", 1, "{'descr", NULL, 0, 0, "unterminated" },
	{ "unterminated shape", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2", NULL, 0,
	  0, "shape" },
	{ "unknown key", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
	  NULL, 0, 0, "unknown key 'x'" },
	{ "repeated key", 1,
	  "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}",
	  NULL, 0, 0, "second key" },
	{ "missing shape", 1, "{'descr': '<f4', 'fortran_order': False}", NULL,
	  0, 0, "lacks shape" },
	{ "Fortran order", 1,
	  "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", NULL,
	  0, 0, "Fortran" },
	{ "big-endian", 1,
	  "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", NULL,
	  0, 0, "'>f4'" },
	{ "object dtype", 1,
	  "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", NULL,
	  0, 0, "'|O'" },
	{ "structured dtype", 1,
	  "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}",
	  NULL, 0, 0, "descr" },
	{ "negative dimension", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", NULL,
	  0, 0, "shape" },
	{ "dimension past 2^64", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,), }",
	  NULL, 0, 0, "shape" },
	{ "shape product overflows", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
	  NULL, 0, 0, "overflows" },
	{ "too many dimensions", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }",
	  NULL, 0, 0, "more than 16" },
	{ "text after the dict", 1,
	  "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x", NULL,
	  0, 0, "after its dict" },
	{ "fortran_order not a bool", 1,
	  "{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", NULL, 0, 0,
	  "neither True nor False" },
	{ "NUL in the dict", 1, NULL,
	  "\x93NUMPY\x01\x00\x03\x00{\0}", 13, 0, "dict" },
};

Test(npy_io, hostile_headers_are_clear_errors)
{
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		const struct hostile *h = &hostile[i];
		uint8_t bytes[512];
		char error[256] = "";
		npy_header header;
		size_t size;

		if (h->dict != NULL) {
			size = build(bytes, sizeof(bytes), h->version,
				     h->dict, 0);
			if (h->extra_length != 0) {
				uint32_t length = (uint32_t)strlen(h->dict) +
						  h->extra_length;

				bytes[8] = (uint8_t)length;
				bytes[9] = (uint8_t)(length >> 8);
				if (h->version == 2) {
					bytes[10] = (uint8_t)(length >> 16);
					bytes[11] = (uint8_t)(length >> 24);
				}
			}
		} else {
			memcpy(bytes, h->raw, h->raw_size);
			size = h->raw_size;
		}
		/* The exact size, so that ASan sees any read past it. */
		uint8_t *exact = malloc(size + 1);

		cr_assert_not_null(exact);
		memcpy(exact, bytes, size);
		cr_assert_eq(npy_parse_header(exact, size, &header, error,
					      sizeof(error)),
			     NPY_ERROR_FORMAT, "%s: accepted", h->what);
		cr_assert_not_null(strstr(error, h->says),
				   "%s: '%s' does not say '%s'", h->what, error,
				   h->says);
		free(exact);
	}
}

/* Every type numpy has a dtype for, with a shape of its own. */
Test(npy_io, every_dtype_round_trips_with_its_shape)
{
	static const int32_t types[] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT64,
		OPVER_TYPE_INT8,    OPVER_TYPE_UINT8,   OPVER_TYPE_INT16,
		OPVER_TYPE_UINT16,  OPVER_TYPE_INT32,   OPVER_TYPE_UINT32,
		OPVER_TYPE_INT64,   OPVER_TYPE_UINT64,  OPVER_TYPE_BOOL,
		OPVER_TYPE_COMPLEX64, OPVER_TYPE_COMPLEX128,
	};
	char path[] = "/tmp/opver-npy-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		int32_t dims[3] = { 2, (int32_t)i % 3 + 1, 3 };
		size_t bytes = 6 * (size_t)dims[1] * opver_type_size(types[i]);
		uint8_t *data = malloc(bytes), *back = calloc(1, bytes);
		opver_tensor tensor = {
			.struct_size = sizeof(tensor), .type = types[i],
			.rank = 3, .dims = dims, .data = data, .bytes = bytes,
			.name = "t",
		};
		opver_tensor read_back = tensor;
		char error[256] = "";
		int32_t wrong[3] = { 2, dims[1], 4 };

		cr_assert_not_null(npy_descr(types[i]));
		for (size_t b = 0; b < bytes; b++)
			data[b] = (uint8_t)(b * 7 + i);
		if (types[i] == OPVER_TYPE_BOOL)
			for (size_t b = 0; b < bytes; b++)
				data[b] &= 1;
		cr_assert_eq(npy_write_tensor(path, &tensor, error,
					      sizeof(error)), NPY_OK, "%s",
			     error);
		/* Read by its magic; written only by its name. */
		cr_assert(npy_is_npy(path), "the magic marks %s", path);
		cr_assert_not(npy_named(path));
		read_back.data = back;
		cr_assert_eq(npy_read_tensor(path, &read_back, "input", error,
					     sizeof(error)),
			     NPY_OK, "%s: %s", opver_type_name(types[i]),
			     error);
		cr_assert_eq(memcmp(data, back, bytes), 0, "%s",
			     opver_type_name(types[i]));

		/* The same file for another shape or type is a mismatch
		 * that names both. */
		read_back.dims = wrong;
		cr_assert_eq(npy_read_tensor(path, &read_back, "input", error,
					     sizeof(error)),
			     NPY_ERROR_MISMATCH);
		cr_assert_not_null(strstr(error, ", 3)"), "%s", error);
		cr_assert_not_null(strstr(error, ", 4)"), "%s", error);
		read_back.dims = dims;
		read_back.type = types[i] == OPVER_TYPE_INT8 ? OPVER_TYPE_UINT8
							     : OPVER_TYPE_INT8;
		cr_assert_eq(npy_read_tensor(path, &read_back, "input", error,
					     sizeof(error)),
			     NPY_ERROR_MISMATCH, "%s", error);
		free(data);
		free(back);
	}
	unlink(path);
}

Test(npy_io, outputs_are_npy_by_name_only)
{
	cr_assert(npy_named("out.npy"));
	cr_assert(npy_named("/tmp/dir.raw/.npy"));
	cr_assert_not(npy_named("out.npy.raw"));
	cr_assert_not(npy_named("npy"));
	cr_assert_not(npy_named(""));
}

Test(npy_io, written_header_is_aligned_and_data_follows_exactly)
{
	char path[] = "/tmp/opver-npy-XXXXXX";
	int32_t dims[1] = { 3 };
	int8_t data[3] = { -1, 0, 1 };
	opver_tensor tensor = {
		.struct_size = sizeof(tensor), .type = OPVER_TYPE_INT8,
		.rank = 1, .dims = dims, .data = data, .bytes = 3, .name = "t",
	};
	char error[256] = "", expected[] =
		"{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }";
	uint8_t file[256];
	size_t size;
	FILE *in;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(npy_write_tensor(path, &tensor, error, sizeof(error)),
		     NPY_OK, "%s", error);
	in = fopen(path, "rb");
	size = fread(file, 1, sizeof(file), in);
	fclose(in);
	unlink(path);
	/* 10 + 57 + a newline pass 64: padded to 128, length 118. */
	cr_assert_eq(size, 128 + 3);
	cr_assert_eq(memcmp(file, "\x93NUMPY\x01\x00\x76\x00", 10), 0);
	cr_assert_eq(memcmp(file + 10, expected, strlen(expected)), 0);
	cr_assert_eq(file[127], '\n');
	cr_assert_eq(memcmp(file + 128, data, 3), 0);
}

Test(npy_io, truncated_data_and_trailing_bytes_are_errors)
{
	char path[] = "/tmp/opver-npy-XXXXXX";
	int32_t dims[1] = { 4 };
	float data[4] = { 0 };
	opver_tensor tensor = {
		.struct_size = sizeof(tensor), .type = OPVER_TYPE_FLOAT32,
		.rank = 1, .dims = dims, .data = data, .bytes = 16, .name = "t",
	};
	uint8_t bytes[256];
	char error[256] = "";
	const char *dict =
		"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, bytes, build(bytes, sizeof(bytes), 1, dict, 15)),
		     (ssize_t)strlen(dict) + 10 + 15);
	close(fd);
	cr_assert_eq(npy_read_tensor(path, &tensor, "input", error,
				     sizeof(error)), NPY_ERROR_FORMAT);
	cr_assert_not_null(strstr(error, "ends after 15 of its 16"), "%s",
			   error);
	fd = open(path, O_WRONLY | O_TRUNC);
	cr_assert_eq(write(fd, bytes, build(bytes, sizeof(bytes), 1, dict, 17)),
		     (ssize_t)strlen(dict) + 10 + 17);
	close(fd);
	cr_assert_eq(npy_read_tensor(path, &tensor, "input", error,
				     sizeof(error)), NPY_ERROR_FORMAT);
	cr_assert_not_null(strstr(error, "bytes past"), "%s", error);
	unlink(path);
}
