/*
 * model_fields.h - the state of one model decoding and the checked reads
 * every part of the model reader shares: vectors, tables of a vector,
 * tensor index lists and byte spans, each checked against the file, and
 * the messages that name the file and the part being read.  Every check
 * that fails reports "FILE: WHERE: what" and returns the status to fail
 * with.
 */
#ifndef OPVER_CORE_MODEL_FIELDS_H
#define OPVER_CORE_MODEL_FIELDS_H

#include "flatbuffer.h"
#include "graph.h"
#include "report.h"

/* Bytes of constant data, wherever the buffer keeps them. */
typedef struct opver__model_span {
	const uint8_t *data;    /* inside the mapping; NULL when empty */
	size_t size;
} opver__model_span;

typedef struct opver__model_op_code {
	int32_t op;
	int32_t version;
	const char *custom_name;        /* in the mapping; CUSTOM only */
} opver__model_op_code;

/* One decoding, from opver__model_decode() to its end. */
typedef struct opver__model_reader {
	opver__fb fb;
	const char *name;               /* borrowed; the file, for messages */
	const opver__reporter *reporter;        /* borrowed */
	bool has_identifier;
	char where[128];                /* the part being read, for messages */
	uint32_t num_buffers;
	opver__model_span *buffers;     /* owned */
	/* NULL, or num_buffers slots of aligned buffer copies: owned until
	 * handed to the graph read. */
	uint8_t **copies;
	uint32_t num_codes;
	opver__model_op_code *codes;    /* owned */
	uint32_t num_subgraphs;
	uint32_t *subgraph_tensors;     /* owned; tensor count per subgraph */
} opver__model_reader;

/* Names the part being read in later messages. */
void opver__model_where(opver__model_reader *r, const char *format, ...)
	OPVER__PRINTF(2, 3);

/* Reports and returns OPVER_ERROR_INVALID_MODEL. */
opver_status opver__model_invalid(opver__model_reader *r,
				  const char *format, ...)
	OPVER__PRINTF(2, 3);

/* Reports and returns OPVER_ERROR_UNSUPPORTED. */
opver_status opver__model_unsupported(opver__model_reader *r,
				      const char *format, ...)
	OPVER__PRINTF(2, 3);

/* Reports the structural check that just failed. */
opver_status opver__model_broken(opver__model_reader *r);

/* Reports and returns OPVER_ERROR_NOMEM. */
opver_status opver__model_no_memory(opver__model_reader *r);

/* calloc that never asks for 0 bytes, so NULL always means failure.
 * Caller owns the result; release with free(). */
void *opver__model_allocate(size_t count, size_t size);

/* A vector field whose length must fit the graph's int32 counts. */
opver_status opver__model_vector(opver__model_reader *r,
				 const opver__fb_table *table, unsigned id,
				 const char *name, uint32_t elem_size,
				 opver__fb_vector *out);

/* Element `index` of a vector of tables. */
opver_status opver__model_element(opver__model_reader *r,
				  const opver__fb_vector *vector,
				  uint32_t index, const char *name,
				  opver__fb_table *out);

/*
 * Copies an index vector into a new array (*out, owned by the caller, set
 * even on failure) and checks every entry names one of num_tensors
 * tensors; -1 passes where optional inputs may be omitted.
 */
opver_status opver__model_indices(opver__model_reader *r,
				  const opver__fb_table *table, unsigned id,
				  const char *name, int32_t num_tensors,
				  bool allow_omitted, int32_t *count,
				  int32_t **out);

/*
 * Resolves a byte range stored either in the FlatBuffer (`inline_bytes`) or,
 * in models over 2 GiB, after it: at file offset `offset` when it is above
 * 1 (0 and 1 are placeholders the writer leaves), `size` bytes long.
 */
opver_status opver__model_resolve_span(opver__model_reader *r,
				       const char *name,
				       const opver__fb_vector *inline_bytes,
				       uint64_t offset, uint64_t size,
				       opver__model_span *out);

#endif /* OPVER_CORE_MODEL_FIELDS_H */
