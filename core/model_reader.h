/*
 * model_reader.h - maps a .tflite file, verifies every offset, vtable,
 * vector, string and index in it, and decodes its main subgraph into an
 * opver__graph.  Constant tensor data stays in the mapping.
 */
#ifndef OPVER_CORE_MODEL_READER_H
#define OPVER_CORE_MODEL_READER_H

#include "graph.h"
#include "report.h"

/* A mapped model and its decoded graph. */
typedef struct opver__model_file {
	const uint8_t *bytes;   /* the read-only mapping */
	size_t size;
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
 * The same for a buffer already in memory (tests, fuzzing).  `bytes` is
 * borrowed and must outlive the graph; `name` is used in messages.
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
