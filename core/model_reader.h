/*
 * model_reader.h - maps a .tflite file, verifies every offset, vtable,
 * vector, string and index in it, and decodes its subgraphs into an
 * opver__graph.  Constant tensor data stays in the mapping, so the reader
 * refuses models whose kernels or callers would write it (a node output
 * with constant data, a graph output sharing a constant's buffer) or load
 * it misaligned; decoding never takes more than the file's size
 * (flatbuffer.h).
 */
#ifndef OPVER_CORE_MODEL_READER_H
#define OPVER_CORE_MODEL_READER_H

#include "graph.h"
#include "report.h"

/* A mapped (or copied) model and its decoded graph. */
typedef struct opver__model_file {
	const uint8_t *bytes;   /* the read-only mapping, or the copy */
	size_t size;
	bool copied;            /* bytes is an aligned heap copy, not a mapping */
	opver__graph graph;
} opver__model_file;

/*
 * Maps `path` and decodes it into *file.  OPVER_ERROR_IO when the file
 * cannot be opened or mapped; OPVER_ERROR_INVALID_MODEL, after reporting
 * "PATH: what is wrong", when it is malformed.  On success the caller owns
 * the contents of *file; release with opver__model_file_close().
 */
opver_status opver__model_file_open(const char *path,
				    const opver__reporter *reporter,
				    opver__model_file *file);

/*
 * The same for `size` bytes at `data` (borrowed for the call), copied into
 * memory the file owns, aligned to OPVER__MODEL_ALIGNMENT so constant data
 * is as aligned as in a mapping.  `name` is used in messages.  Fails as
 * opver__model_file_open() does, with OPVER_ERROR_NOMEM when the copy
 * cannot be made.
 */
opver_status opver__model_file_copy(const void *data, size_t size,
				    const char *name,
				    const opver__reporter *reporter,
				    opver__model_file *file);

/* Alignment of a copied model's bytes: a cache line, like the arena's. */
#define OPVER__MODEL_ALIGNMENT 64

/*
 * The same for a buffer already in memory (tests, fuzzing).  `bytes` is
 * borrowed and must outlive the graph; `name` is used in messages.
 * Alignment of constant data is checked as file offsets, so `bytes` must
 * be aligned to at least 8 (malloc's is) for loads of it to be aligned.
 */
opver_status opver__model_decode(const uint8_t *bytes, size_t size,
				 const char *name,
				 const opver__reporter *reporter,
				 opver__graph *graph);

/* Frees what the graph owns.  Safe on a zeroed graph. */
void opver__graph_free(opver__graph *graph);

/* Unmaps and frees.  Safe on a zeroed file. */
void opver__model_file_close(opver__model_file *file);

#endif /* OPVER_CORE_MODEL_READER_H */
