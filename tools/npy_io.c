/*
 * npy_io.c - reads and writes NumPy .npy files: the magic, a version, a
 * little-endian header length, then a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), } padded with
 * spaces and a newline to a multiple of 64 bytes, then the elements in C
 * order.  The dict is parsed as the small grammar numpy writes, bounded by
 * the header length, never evaluated.  Tensor data is little-endian, as
 * the hosts opver runs on, so elements are copied as they are.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "npy_io.h"
#include "raw_io.h"

#define MAGIC "\x93NUMPY"
#define MAGIC_BYTES 6
/* Magic, version, and a 2-byte (1.0) or 4-byte (2.0) header length. */
#define PREFIX_V1 10
#define PREFIX_V2 12
/* Longer headers are refused before they are read: numpy's are a few
 * hundred bytes. */
#define MAX_HEADER_BYTES (UINT32_C(1) << 20)

static const struct {
	int32_t type;
	const char *descr;
} dtypes[] = {
	/* The first entry of a type is what writing uses. */
	{ OPVER_TYPE_FLOAT32, "<f4" },    { OPVER_TYPE_FLOAT16, "<f2" },
	{ OPVER_TYPE_FLOAT64, "<f8" },    { OPVER_TYPE_INT8, "|i1" },
	{ OPVER_TYPE_INT8, "<i1" },       { OPVER_TYPE_UINT8, "|u1" },
	{ OPVER_TYPE_UINT8, "<u1" },      { OPVER_TYPE_INT16, "<i2" },
	{ OPVER_TYPE_UINT16, "<u2" },     { OPVER_TYPE_INT32, "<i4" },
	{ OPVER_TYPE_UINT32, "<u4" },     { OPVER_TYPE_INT64, "<i8" },
	{ OPVER_TYPE_UINT64, "<u8" },     { OPVER_TYPE_BOOL, "|b1" },
	{ OPVER_TYPE_COMPLEX64, "<c8" },  { OPVER_TYPE_COMPLEX128, "<c16" },
};
#define NUM_DTYPES (sizeof(dtypes) / sizeof(dtypes[0]))

const char *npy_descr(int32_t type)
{
	for (size_t i = 0; i < NUM_DTYPES; i++)
		if (dtypes[i].type == type)
			return dtypes[i].descr;
	return NULL;
}

bool npy_named(const char *path)
{
	size_t length = strlen(path);

	return length >= 4 && strcmp(path + length - 4, ".npy") == 0;
}

bool npy_is_npy(const char *path)
{
	char magic[MAGIC_BYTES];
	struct stat st;
	bool found;
	FILE *file;

	if (npy_named(path))
		return true;
	/* Peeking at a pipe would eat what the raw reader needs. */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	file = fopen(path, "rb");
	if (file == NULL)
		return false;
	found = fread(magic, 1, sizeof(magic), file) == sizeof(magic) &&
		memcmp(magic, MAGIC, MAGIC_BYTES) == 0;
	fclose(file);
	return found;
}

/* The header dict's text, consumed from `at` to `end`. */
typedef struct cursor {
	const char *at;
	const char *end;
} cursor;

static void skip_space(cursor *c)
{
	while (c->at < c->end && (*c->at == ' ' || *c->at == '\t' ||
				  *c->at == '\n' || *c->at == '\r'))
		c->at++;
}

static bool take(cursor *c, char ch)
{
	skip_space(c);
	if (c->at == c->end || *c->at != ch)
		return false;
	c->at++;
	return true;
}

static bool take_word(cursor *c, const char *word)
{
	size_t length = strlen(word);

	skip_space(c);
	if ((size_t)(c->end - c->at) < length ||
	    memcmp(c->at, word, length) != 0)
		return false;
	c->at += length;
	return true;
}

/* A quoted string without escapes, shorter than out_size. */
static bool take_string(cursor *c, char *out, size_t out_size)
{
	const char *close;
	char quote;

	skip_space(c);
	if (c->at == c->end || (*c->at != '\'' && *c->at != '"'))
		return false;
	quote = *c->at;
	close = memchr(c->at + 1, quote, (size_t)(c->end - c->at - 1));
	if (close == NULL || (size_t)(close - c->at - 1) >= out_size)
		return false;
	memcpy(out, c->at + 1, (size_t)(close - c->at - 1));
	out[close - c->at - 1] = '\0';
	c->at = close + 1;
	return true;
}

static bool take_uint(cursor *c, uint64_t *value)
{
	skip_space(c);
	if (c->at == c->end || *c->at < '0' || *c->at > '9')
		return false;
	*value = 0;
	while (c->at < c->end && *c->at >= '0' && *c->at <= '9') {
		uint64_t digit = (uint64_t)(*c->at++ - '0');

		if (*value > (UINT64_MAX - digit) / 10)
			return false;
		*value = *value * 10 + digit;
	}
	return true;
}

/* "(1, 2, 3)", "(3,)" or "()". */
static bool take_shape(cursor *c, npy_header *header, char *error,
		       size_t error_size)
{
	if (!take(c, '('))
		goto bad;
	header->rank = 0;
	while (!take(c, ')')) {
		if (header->rank == NPY_MAX_RANK) {
			snprintf(error, error_size,
				 "shape has more than %d dimensions",
				 NPY_MAX_RANK);
			return false;
		}
		if (!take_uint(c, &header->dims[header->rank++]))
			goto bad;
		if (!take(c, ',')) {
			if (!take(c, ')'))
				goto bad;
			break;
		}
	}
	return true;
bad:
	snprintf(error, error_size,
		 "shape is not a tuple of non-negative integers below 2^64");
	return false;
}

/* One "key: value" of the dict; `seen` has a bit per key read. */
static bool take_member(cursor *c, npy_header *header, unsigned *seen,
			char *error, size_t error_size)
{
	char key[16];
	unsigned bit;

	if (!take_string(c, key, sizeof(key)) || !take(c, ':')) {
		snprintf(error, error_size, "header dict is unterminated or has a key that is not a short string");
		return false;
	}
	bit = strcmp(key, "descr") == 0 ? 1 :
	      strcmp(key, "fortran_order") == 0 ? 2 :
	      strcmp(key, "shape") == 0 ? 4 : 0;
	if (bit == 0 || (*seen & bit)) {
		snprintf(error, error_size, "header has %s key '%s'",
			 bit ? "a second" : "an unknown", key);
		return false;
	}
	*seen |= bit;
	if (bit == 1) {
		if (!take_string(c, header->descr, sizeof(header->descr))) {
			snprintf(error, error_size, "descr is not a short string");
			return false;
		}
		return true;
	}
	if (bit == 2) {
		if (take_word(c, "False"))
			return true;
		snprintf(error, error_size, take_word(c, "True") ?
			 "data is in Fortran order; only C order is supported (numpy.ascontiguousarray)" :
			 "fortran_order is neither True nor False");
		return false;
	}
	return take_shape(c, header, error, error_size);
}

/* The dict, then only padding. */
static bool parse_dict(cursor *c, npy_header *header, char *error,
		       size_t error_size)
{
	unsigned seen = 0;

	if (!take(c, '{')) {
		snprintf(error, error_size, "header is not a dict");
		return false;
	}
	while (!take(c, '}')) {
		if (!take_member(c, header, &seen, error, error_size))
			return false;
		if (!take(c, ',')) {
			if (!take(c, '}')) {
				snprintf(error, error_size,
					 "header dict is unterminated");
				return false;
			}
			break;
		}
	}
	skip_space(c);
	if (c->at != c->end) {
		snprintf(error, error_size, "header has text after its dict");
		return false;
	}
	if (seen != 7) {
		snprintf(error, error_size, "header lacks %s",
			 !(seen & 1) ? "descr" : !(seen & 2) ? "fortran_order"
							     : "shape");
		return false;
	}
	return true;
}

/* The type of header->descr, and data_bytes from it and the shape. */
static bool size_data(npy_header *header, char *error, size_t error_size)
{
	uint64_t bytes;
	size_t i;

	for (i = 0; i < NUM_DTYPES; i++)
		if (strcmp(dtypes[i].descr, header->descr) == 0)
			break;
	if (i == NUM_DTYPES) {
		snprintf(error, error_size,
			 "dtype '%s' is not one opver reads (little-endian numbers and bool)",
			 header->descr);
		return false;
	}
	header->type = dtypes[i].type;
	bytes = opver_type_size(header->type);
	for (int32_t d = 0; d < header->rank; d++) {
		if (header->dims[d] != 0 && bytes > UINT64_MAX / header->dims[d]) {
			snprintf(error, error_size,
				 "shape's byte size overflows 64 bits");
			return false;
		}
		bytes *= header->dims[d];
	}
	header->data_bytes = bytes;
	return true;
}

/* The prefix: its bytes (10 or 12) and the header length after it. */
static npy_status read_prefix(const uint8_t *bytes, size_t size,
			      size_t *prefix, uint64_t *length, char *error,
			      size_t error_size)
{
	if (size < MAGIC_BYTES || memcmp(bytes, MAGIC, MAGIC_BYTES) != 0) {
		snprintf(error, error_size,
			 "does not start with the .npy magic \\x93NUMPY");
		return NPY_ERROR_FORMAT;
	}
	if (size < 8) {
		snprintf(error, error_size, "ends inside the .npy prefix");
		return NPY_ERROR_FORMAT;
	}
	if ((bytes[6] != 1 && bytes[6] != 2) || bytes[7] != 0) {
		snprintf(error, error_size,
			 "is .npy version %u.%u; versions 1.0 and 2.0 are supported",
			 bytes[6], bytes[7]);
		return NPY_ERROR_FORMAT;
	}
	*prefix = bytes[6] == 1 ? PREFIX_V1 : PREFIX_V2;
	if (size < *prefix) {
		snprintf(error, error_size, "ends inside the .npy prefix");
		return NPY_ERROR_FORMAT;
	}
	*length = (uint64_t)bytes[8] | (uint64_t)bytes[9] << 8;
	if (*prefix == PREFIX_V2)
		*length |= (uint64_t)bytes[10] << 16 |
			   (uint64_t)bytes[11] << 24;
	return NPY_OK;
}

npy_status npy_parse_header(const uint8_t *bytes, size_t size,
			    npy_header *header, char *error,
			    size_t error_size)
{
	uint64_t length;
	size_t prefix;
	cursor c;

	memset(header, 0, sizeof(*header));
	if (read_prefix(bytes, size, &prefix, &length, error, error_size) !=
	    NPY_OK)
		return NPY_ERROR_FORMAT;
	if (length > size - prefix) {
		snprintf(error, error_size,
			 "has a header of %llu bytes that runs past the end of the file",
			 (unsigned long long)length);
		return NPY_ERROR_FORMAT;
	}
	c.at = (const char *)bytes + prefix;
	c.end = c.at + length;
	header->data_offset = prefix + (size_t)length;
	if (!parse_dict(&c, header, error, error_size) ||
	    !size_data(header, error, error_size))
		return NPY_ERROR_FORMAT;
	return NPY_OK;
}

/* "(1, 3)" into text. */
static void format_shape(const uint64_t *dims, int32_t rank, char *text,
			 size_t text_size)
{
	size_t used = (size_t)snprintf(text, text_size, "(");

	for (int32_t d = 0; d < rank && used < text_size; d++)
		used += (size_t)snprintf(text + used, text_size - used,
					 "%s%llu", d ? ", " : "",
					 (unsigned long long)dims[d]);
	if (used < text_size)
		snprintf(text + used, text_size - used, rank == 1 ? ",)" : ")");
}

/* Whether the header's dtype and shape are the tensor's. */
static bool matches(const npy_header *header, const opver_tensor *tensor)
{
	if (header->type != tensor->type || header->rank != tensor->rank)
		return false;
	for (int32_t d = 0; d < header->rank; d++)
		if (header->dims[d] != (uint64_t)tensor->dims[d])
			return false;
	return header->data_bytes == tensor->bytes;
}

static npy_status mismatch(const char *path, const npy_header *header,
			   const opver_tensor *tensor, const char *role,
			   char *error, size_t error_size)
{
	uint64_t dims[NPY_MAX_RANK];
	char found[256], expected[256], signature[128];
	int32_t rank = tensor->rank < NPY_MAX_RANK ? tensor->rank
						   : NPY_MAX_RANK;

	for (int32_t d = 0; d < rank; d++)
		dims[d] = (uint64_t)tensor->dims[d];
	format_shape(header->dims, header->rank, found, sizeof(found));
	format_shape(dims, rank, expected, sizeof(expected));
	raw_format_signature(tensor, signature, sizeof(signature));
	snprintf(error, error_size,
		 "%s has dtype '%s' and shape %s; the model's %s %s needs dtype '%s' and shape %s",
		 path, header->descr, found, signature, role,
		 npy_descr(tensor->type), expected);
	return NPY_ERROR_MISMATCH;
}

static npy_status no_dtype(const char *path, const opver_tensor *tensor,
			   const char *role, char *error, size_t error_size)
{
	char signature[128];

	raw_format_signature(tensor, signature, sizeof(signature));
	snprintf(error, error_size,
		 "%s: the model's %s %s has no numpy dtype; use a raw file",
		 path, signature, role);
	return NPY_ERROR_MISMATCH;
}

/* Reads the prefix and header of `file` into *header. */
static npy_status read_header(FILE *file, const char *path,
			      npy_header *header, char *error,
			      size_t error_size)
{
	uint8_t start[PREFIX_V2], *bytes;
	char reason[384];
	size_t got, prefix;
	uint64_t length;
	npy_status status;

	/* Never past the prefix: the data follows it. */
	got = fread(start, 1, PREFIX_V1, file);
	if (got == PREFIX_V1 && start[6] == 2)
		got += fread(start + got, 1, PREFIX_V2 - PREFIX_V1, file);
	status = read_prefix(start, got, &prefix, &length, reason,
			     sizeof(reason));
	if (status == NPY_OK && length > MAX_HEADER_BYTES) {
		snprintf(reason, sizeof(reason),
			 "has a header of %llu bytes; opver reads headers up to %u",
			 (unsigned long long)length,
			 (unsigned)MAX_HEADER_BYTES);
		status = NPY_ERROR_FORMAT;
	}
	if (status != NPY_OK) {
		snprintf(error, error_size, "%s %s", path, reason);
		return status;
	}
	bytes = malloc(prefix + (size_t)length);
	if (bytes == NULL) {
		snprintf(error, error_size, "%s: out of memory for its header",
			 path);
		return NPY_ERROR_IO;
	}
	memcpy(bytes, start, got);
	got += fread(bytes + got, 1, prefix + (size_t)length - got, file);
	status = npy_parse_header(bytes, got, header, reason, sizeof(reason));
	free(bytes);
	if (status != NPY_OK)
		snprintf(error, error_size, "%s %s", path, reason);
	return status;
}

npy_status npy_read_tensor(const char *path, opver_tensor *tensor,
			   const char *role, char *error, size_t error_size)
{
	npy_status status;
	npy_header header;
	size_t got = 0;
	FILE *file;

	if (npy_descr(tensor->type) == NULL)
		return no_dtype(path, tensor, role, error, error_size);
	file = fopen(path, "rb");
	if (file == NULL) {
		snprintf(error, error_size, "cannot open %s: %s", path,
			 strerror(errno));
		return NPY_ERROR_IO;
	}
	status = read_header(file, path, &header, error, error_size);
	if (status == NPY_OK && !matches(&header, tensor))
		status = mismatch(path, &header, tensor, role, error,
				  error_size);
	if (status == NPY_OK) {
		if (tensor->bytes > 0)
			got = fread(tensor->data, 1, tensor->bytes, file);
		if (got != tensor->bytes) {
			snprintf(error, error_size,
				 "%s ends after %zu of its %zu data bytes",
				 path, got, tensor->bytes);
			status = NPY_ERROR_FORMAT;
		} else if (fgetc(file) != EOF) {
			snprintf(error, error_size,
				 "%s has bytes past the %zu its shape and dtype give",
				 path, tensor->bytes);
			status = NPY_ERROR_FORMAT;
		}
	}
	if (status == NPY_OK && ferror(file)) {
		snprintf(error, error_size, "cannot read %s", path);
		status = NPY_ERROR_IO;
	}
	fclose(file);
	return status;
}

npy_status npy_write_tensor(const char *path, const opver_tensor *tensor,
			    char *error, size_t error_size)
{
	const char *descr = npy_descr(tensor->type);
	uint64_t dims[NPY_MAX_RANK];
	char shape[NPY_MAX_RANK * 24 + 8], dict[NPY_MAX_RANK * 24 + 192];
	uint8_t prefix[PREFIX_V2];
	size_t length, prefix_bytes;
	bool ok;
	FILE *file;

	if (descr == NULL)
		return no_dtype(path, tensor, "output", error, error_size);
	if (tensor->rank > NPY_MAX_RANK) {
		snprintf(error, error_size, "%s: rank %d is past the %d of .npy files opver writes",
			 path, tensor->rank, NPY_MAX_RANK);
		return NPY_ERROR_MISMATCH;
	}
	for (int32_t d = 0; d < tensor->rank; d++)
		dims[d] = (uint64_t)tensor->dims[d];
	format_shape(dims, tensor->rank, shape, sizeof(shape));
	length = (size_t)snprintf(dict, sizeof(dict),
				  "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
				  descr, shape);
	/* Spaces and a newline up to a multiple of 64 bytes, as numpy
	 * aligns the data; the short headers here always fit 1.0. */
	while ((PREFIX_V1 + length + 1) % 64 != 0)
		dict[length++] = ' ';
	dict[length++] = '\n';
	memcpy(prefix, MAGIC, MAGIC_BYTES);
	prefix[6] = 1;
	prefix[7] = 0;
	prefix[8] = (uint8_t)(length & 0xff);
	prefix[9] = (uint8_t)(length >> 8);
	prefix_bytes = PREFIX_V1;

	file = fopen(path, "wb");
	if (file == NULL) {
		snprintf(error, error_size, "cannot create %s: %s", path,
			 strerror(errno));
		return NPY_ERROR_IO;
	}
	ok = fwrite(prefix, 1, prefix_bytes, file) == prefix_bytes &&
	     fwrite(dict, 1, length, file) == length &&
	     (tensor->bytes == 0 ||
	      fwrite(tensor->data, 1, tensor->bytes, file) == tensor->bytes);
	if (fclose(file) != 0)
		ok = false;
	if (!ok) {
		snprintf(error, error_size, "cannot write %s: %s", path,
			 strerror(errno));
		return NPY_ERROR_IO;
	}
	return NPY_OK;
}
