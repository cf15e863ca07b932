/*
 * npy_io.h - NumPy .npy tensor files for opver-run's -i and -o: format
 * versions 1.0 and 2.0, C order, little-endian dtypes of the opver types
 * that have one.  A file is .npy when its name ends in ".npy" or it starts
 * with the "\x93NUMPY" magic; anything else stays raw (raw_io.h).  The
 * dtype and shape must be the tensor's exactly.  A malformed or hostile
 * header is an error naming the file and what is wrong, never a crash.
 * Errors are written, as one line, into a caller's buffer.
 */
#ifndef OPVER_TOOLS_NPY_IO_H
#define OPVER_TOOLS_NPY_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/opver.h>

typedef enum npy_status {
	NPY_OK = 0,
	/* The file could not be opened, read or written. */
	NPY_ERROR_IO,
	/* Not a .npy file opver reads: bad magic, version, header or size. */
	NPY_ERROR_FORMAT,
	/* A well-formed file whose dtype or shape is not the tensor's. */
	NPY_ERROR_MISMATCH
} npy_status;

/* The most dimensions a header may give. */
#define NPY_MAX_RANK 16

/* A parsed header. */
typedef struct npy_header {
	int32_t type;           /* the opver type of the dtype */
	char descr[8];          /* the dtype as written, "<f4" */
	int32_t rank;
	uint64_t dims[NPY_MAX_RANK];
	/* Bytes of the magic, version, length and header: where the data
	 * starts. */
	size_t data_offset;
	/* Bytes of data the shape and dtype make. */
	uint64_t data_bytes;
} npy_header;

/* Whether `path` ends in ".npy": how an output is chosen to be one. */
bool npy_named(const char *path);

/* Whether `path` is a .npy file to read: its name, else (when it is a
 * regular file) its first bytes. */
bool npy_is_npy(const char *path);

/* The dtype of an opver type ("<f4", "|i1"), or NULL when numpy has
 * none (STRING, INT4, BFLOAT16, ...).  Static. */
const char *npy_descr(int32_t type);

/*
 * Parses the magic, version and header dict at the start of the `size`
 * bytes at `bytes` (at least the whole header) into *header.
 * NPY_ERROR_FORMAT, with the reason in `error`, when they are malformed:
 * truncated, a header length past `size`, an unterminated dict, an
 * unknown key or dtype, Fortran order, a shape whose byte size overflows.
 */
npy_status npy_parse_header(const uint8_t *bytes, size_t size,
			    npy_header *header, char *error,
			    size_t error_size);

/*
 * Reads `path` into tensor->data (tensor->bytes bytes), after checking
 * that its dtype and shape are the tensor's.  `role` names the tensor in
 * messages ("input").
 */
npy_status npy_read_tensor(const char *path, opver_tensor *tensor,
			   const char *role, char *error, size_t error_size);

/* Writes the tensor, with its dtype and shape, to `path`, replacing it.
 * NPY_ERROR_MISMATCH when its type has no dtype. */
npy_status npy_write_tensor(const char *path, const opver_tensor *tensor,
			    char *error, size_t error_size);

#endif /* OPVER_TOOLS_NPY_IO_H */
