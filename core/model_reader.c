/*
 * model_reader.c - maps a .tflite file and decodes it into an opver__graph,
 * checking everything on the way: the FlatBuffer structure through the
 * checked reader of flatbuffer.h, then the model's own rules (indices of
 * tensors, buffers, operator codes and subgraphs; shapes, byte sizes and
 * quantization).  Subgraph 0 becomes the graph; the other subgraphs are
 * decoded the same way and dropped, so they are checked just as well.
 * Constant data and names stay in the mapping; everything else the graph
 * holds is copied out.
 *
 * The "TFL3" file identifier is optional, as it is for TFLite, which never
 * checks it: files without one are accepted, and when such a file fails
 * to decode, the message says the identifier is missing too.
 *
 * This file maps the file and decodes the model table and its metadata;
 * the checked reads are model_fields.h's, buffers and tensors
 * model_tensors.h's, operators, subgraphs and signatures
 * model_subgraphs.h's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model_calls.h"
#include "model_fields.h"
#include "model_reader.h"
#include "model_subgraphs.h"
#include "model_tensors.h"
#include "model_variables.h"
#include "schema/opver_ids.h"

/* The only Model.version there is (TFLite's TFLITE_SCHEMA_VERSION). */
#define SCHEMA_VERSION 3

/* Name of the metadata entry holding the converter's runtime estimate. */
#define MIN_RUNTIME_VERSION "min_runtime_version"

/* Frees `count` slots of buffer copies and the array. */
static void free_copies(uint8_t **copies, uint32_t count)
{
	for (uint32_t i = 0; copies != NULL && i < count; i++)
		free(copies[i]);
	free(copies);
}

/* Copies a NUL-padded printable string out of a buffer. */
static opver_status read_version_string(opver__model_reader *r,
					const opver__model_span *data,
					char **out)
{
	const uint8_t *end = data->size ? memchr(data->data, 0, data->size) :
					  NULL;
	size_t length = end != NULL ? (size_t)(end - data->data) : data->size;

	for (size_t i = 0; i < length; i++)
		if (data->data[i] < 0x20 || data->data[i] > 0x7e)
			return opver__model_invalid(r, "byte %zu of the version string is not printable (0x%02x)",
						    i, data->data[i]);
	*out = malloc(length + 1);
	if (*out == NULL)
		return opver__model_no_memory(r);
	if (length != 0)
		memcpy(*out, data->data, length);
	(*out)[length] = '\0';
	return OPVER_OK;
}

static opver_status read_metadata(opver__model_reader *r,
				  const opver__fb_table *model,
				  opver__graph *graph)
{
	opver__fb_vector metadata;
	int32_t count, *indices;
	opver_status status;

	opver__model_where(r, "model");
	status = opver__model_vector(r, model, MODEL_METADATA, "metadata", 4,
				     &metadata);
	if (status != OPVER_OK)
		return status;
	for (uint32_t i = 0; i < metadata.length; i++) {
		opver__fb_table entry;
		const char *name;
		size_t length;
		uint32_t buffer;

		opver__model_where(r, "metadata %u", i);
		status = opver__model_element(r, &metadata, i, "metadata", &entry);
		if (status != OPVER_OK)
			return status;
		if (!opver__fb_string_field(&r->fb, &entry, METADATA_NAME,
					    "name", &name, &length) ||
		    !opver__fb_uint32(&r->fb, &entry, METADATA_BUFFER,
				      "buffer", 0, &buffer))
			return opver__model_broken(r);
		if (buffer >= r->num_buffers)
			return opver__model_invalid(r, "buffer %u out of range (model has %u buffers)",
						    buffer, r->num_buffers);
		if (name == NULL || graph->min_runtime_version != NULL ||
		    length != strlen(MIN_RUNTIME_VERSION) ||
		    memcmp(name, MIN_RUNTIME_VERSION, length) != 0)
			continue;
		opver__model_where(r, "metadata %u (" MIN_RUNTIME_VERSION ")", i);
		status = read_version_string(r, &r->buffers[buffer],
					     &graph->min_runtime_version);
		if (status != OPVER_OK)
			return status;
	}

	/* The older metadata list: buffer indices, checked but unused. */
	opver__model_where(r, "model");
	status = opver__model_indices(r, model, MODEL_METADATA_BUFFER, "metadata_buffer",
				      (int32_t)r->num_buffers, false, &count,
				      &indices);
	free(indices);
	return status;
}

static opver_status read_model(opver__model_reader *r, opver__graph *graph)
{
	opver__fb_table model;
	uint32_t version;
	const char *description;
	opver_status status;

	opver__model_where(r, "model");
	if (!opver__fb_root(&r->fb, &model) ||
	    !opver__fb_uint32(&r->fb, &model, MODEL_VERSION, "version", 0,
			      &version) ||
	    !opver__fb_string_field(&r->fb, &model, MODEL_DESCRIPTION,
				    "description", &description, NULL))
		return opver__model_broken(r);
	if (version != SCHEMA_VERSION)
		return opver__model_invalid(r, "schema version %u is not a .tflite schema version (expected %d)",
					    version, SCHEMA_VERSION);
	status = opver__model_read_buffers(r, &model);
	if (status == OPVER_OK)
		status = opver__model_read_op_codes(r, &model);
	if (status == OPVER_OK)
		status = opver__model_read_subgraphs(r, &model, graph);
	if (status == OPVER_OK)
		status = opver__model_check_calls(r, graph);
	if (status == OPVER_OK)
		status = opver__model_check_variables(r, graph);
	if (status == OPVER_OK)
		status = read_metadata(r, &model, graph);
	if (status == OPVER_OK)
		status = opver__model_read_signatures(r, &model, graph);
	return status;
}

opver_status opver__model_decode(const uint8_t *bytes, size_t size,
				 const char *name,
				 const opver__reporter *reporter,
				 opver__graph *graph)
{
	opver__model_reader r = { .name = name, .reporter = reporter };
	opver_status status;

	memset(graph, 0, sizeof(*graph));
	opver__fb_init(&r.fb, bytes, size);
	r.has_identifier = opver__fb_has_identifier(&r.fb, "TFL3");
	status = read_model(&r, graph);
	if (status != OPVER_OK) {
		opver__graph_free(graph);
		free_copies(r.copies, r.num_buffers);
	} else {
		graph->buffer_copies = r.copies;
		graph->num_buffer_copies = r.copies != NULL ? r.num_buffers : 0;
		if (!r.has_identifier)
			opver__info(reporter, "%s: no TFL3 file identifier; read as a .tflite model all the same",
				    name);
	}
	free(r.buffers);
	free(r.codes);
	free(r.subgraph_tensors);
	return status;
}

/* Decodes the bytes *file holds; on failure releases them. */
static opver_status decode_file(opver__model_file *file, const char *name,
				const opver__reporter *reporter)
{
	opver_status status;

	status = opver__model_decode(file->bytes, file->size, name, reporter,
				     &file->graph);
	if (status != OPVER_OK)
		opver__model_file_close(file);
	return status;
}

opver_status opver__model_file_open(const char *path,
				    const opver__reporter *reporter,
				    opver__model_file *file)
{
	struct stat st;
	void *mapping;
	opver_status status;
	int fd;

	memset(file, 0, sizeof(*file));
	/* O_NONBLOCK: opening a FIFO would wait for a writer before the
	 * S_ISREG check below; it changes nothing for a regular file. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		opver__error(reporter, "%s: cannot open: %s", path,
			     strerror(errno));
		return OPVER_ERROR_IO;
	}
	if (fstat(fd, &st) != 0) {
		opver__error(reporter, "%s: cannot stat: %s", path,
			     strerror(errno));
		status = OPVER_ERROR_IO;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		opver__error(reporter, "%s: not a regular file", path);
		status = OPVER_ERROR_IO;
		goto out;
	}
	if (st.st_size == 0) {
		opver__error(reporter, "%s: the file is empty, not a .tflite model",
			     path);
		status = OPVER_ERROR_INVALID_MODEL;
		goto out;
	}
	if ((uintmax_t)st.st_size > SIZE_MAX) {
		opver__error(reporter, "%s: too large to map (%jd bytes)", path,
			     (intmax_t)st.st_size);
		status = OPVER_ERROR_IO;
		goto out;
	}
	mapping = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (mapping == MAP_FAILED) {
		opver__error(reporter, "%s: cannot map: %s", path,
			     strerror(errno));
		status = OPVER_ERROR_IO;
		goto out;
	}
	file->bytes = mapping;
	file->size = (size_t)st.st_size;
	status = decode_file(file, path, reporter);
out:
	close(fd);
	return status;
}

opver_status opver__model_file_copy(const void *data, size_t size,
				    const char *name,
				    const opver__reporter *reporter,
				    opver__model_file *file)
{
	size_t rounded;
	void *copy;

	memset(file, 0, sizeof(*file));
	if (size == 0 || data == NULL) {
		opver__error(reporter, "%s: %s, not a .tflite model", name,
			     data == NULL ? "no data" : "the buffer is empty");
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* aligned_alloc wants a multiple of the alignment. */
	if (size > SIZE_MAX - OPVER__MODEL_ALIGNMENT) {
		opver__error(reporter, "%s: too large to copy (%zu bytes)",
			     name, size);
		return OPVER_ERROR_NOMEM;
	}
	rounded = (size + OPVER__MODEL_ALIGNMENT - 1) &
		  ~(size_t)(OPVER__MODEL_ALIGNMENT - 1);
	copy = aligned_alloc(OPVER__MODEL_ALIGNMENT, rounded);
	if (copy == NULL) {
		opver__error(reporter, "%s: out of memory copying %zu bytes",
			     name, size);
		return OPVER_ERROR_NOMEM;
	}
	memcpy(copy, data, size);
	file->bytes = copy;
	file->size = size;
	file->copied = true;
	return decode_file(file, name, reporter);
}

void opver__graph_free(opver__graph *graph)
{
	for (int32_t i = 0; i < graph->num_tensors; i++) {
		opver__graph_tensor *t = &graph->tensors[i];

		free(t->dims);
		/* The graph owns its quantization arrays (graph.h). */
		free((void *)t->quant.scale);
		free((void *)t->quant.zero_point);
	}
	for (int32_t i = 0; i < graph->num_nodes; i++) {
		free(graph->nodes[i].inputs);
		free(graph->nodes[i].outputs);
		free(graph->nodes[i].intermediates);
		free(graph->nodes[i].params);
		free(graph->nodes[i].version_reason);
	}
	free(graph->tensors);
	free(graph->nodes);
	free(graph->inputs);
	free(graph->outputs);
	free(graph->min_runtime_version);
	free_copies(graph->buffer_copies, graph->num_buffer_copies);
	for (int32_t i = 0; i < graph->num_signatures; i++) {
		free(graph->signatures[i].inputs);
		free(graph->signatures[i].outputs);
	}
	free(graph->signatures);
	for (int32_t i = 1; i < graph->num_subgraphs; i++)
		opver__graph_free(&graph->others[i - 1]);
	free(graph->others);
	memset(graph, 0, sizeof(*graph));
}

void opver__model_file_close(opver__model_file *file)
{
	opver__graph_free(&file->graph);
	if (file->copied)
		free((void *)file->bytes);
	else if (file->bytes != NULL)
		munmap((void *)file->bytes, file->size);
	memset(file, 0, sizeof(*file));
}
