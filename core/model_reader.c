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
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flatbuffer.h"
#include "model_reader.h"
#include "op_params.h"
#include "schema/opver_ids.h"

/* The only Model.version there is (TFLite's TFLITE_SCHEMA_VERSION). */
#define SCHEMA_VERSION 3

/* Name of the metadata entry holding the converter's runtime estimate. */
#define MIN_RUNTIME_VERSION "min_runtime_version"

/* Bytes of constant data, wherever the buffer keeps them. */
typedef struct span {
	const uint8_t *data;    /* inside the mapping; NULL when empty */
	size_t size;
} span;

typedef struct op_code {
	int32_t op;
	int32_t version;
	const char *custom_name;        /* in the mapping; CUSTOM only */
} op_code;

typedef struct reader {
	opver__fb fb;
	const char *name;               /* the file, for messages */
	const opver__reporter *reporter;
	bool has_identifier;
	char where[128];                /* the part being read, for messages */
	uint32_t num_buffers;
	span *buffers;                  /* owned */
	/* NULL, or num_buffers slots of aligned buffer copies: owned until
	 * handed to the graph read. */
	uint8_t **copies;
	uint32_t num_codes;
	op_code *codes;                 /* owned */
	uint32_t num_subgraphs;
	uint32_t *subgraph_tensors;     /* owned; tensor count per subgraph */
} reader;

static void set_where(reader *r, const char *format, ...) OPVER__PRINTF(2, 3);

static void set_where(reader *r, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(r->where, sizeof(r->where), format, args);
	va_end(args);
}

/* Reports "FILE: WHERE: what" and returns `status`. */
static opver_status vfail(reader *r, opver_status status, const char *format,
			  va_list args) OPVER__PRINTF(3, 0);

static opver_status vfail(reader *r, opver_status status, const char *format,
			  va_list args)
{
	char what[512];

	vsnprintf(what, sizeof(what), format, args);
	opver__error(r->reporter, "%s: %s: %s%s", r->name, r->where, what,
		     r->has_identifier ? "" :
		     " (the file lacks the TFL3 identifier: is it a .tflite model?)");
	return status;
}

static opver_status invalid(reader *r, const char *format, ...)
	OPVER__PRINTF(2, 3);

static opver_status invalid(reader *r, const char *format, ...)
{
	opver_status status;
	va_list args;

	va_start(args, format);
	status = vfail(r, OPVER_ERROR_INVALID_MODEL, format, args);
	va_end(args);
	return status;
}

static opver_status unsupported(reader *r, const char *format, ...)
	OPVER__PRINTF(2, 3);

static opver_status unsupported(reader *r, const char *format, ...)
{
	opver_status status;
	va_list args;

	va_start(args, format);
	status = vfail(r, OPVER_ERROR_UNSUPPORTED, format, args);
	va_end(args);
	return status;
}

/* Reports the structural check that just failed. */
static opver_status broken(reader *r)
{
	return invalid(r, "%s", r->fb.error);
}

static opver_status no_memory(reader *r)
{
	opver__error(r->reporter, "%s: %s: out of memory", r->name, r->where);
	return OPVER_ERROR_NOMEM;
}

/* calloc that never asks for 0 bytes, so NULL always means failure. */
static void *allocate(size_t count, size_t size)
{
	return calloc(count ? count : 1, size);
}

/* A vector field whose length must fit the graph's int32 counts. */
static opver_status read_vector(reader *r, const opver__fb_table *table,
				unsigned id, const char *name,
				uint32_t elem_size, opver__fb_vector *out)
{
	if (!opver__fb_vector_field(&r->fb, table, id, name, elem_size, out))
		return broken(r);
	if (out->length > INT32_MAX)
		return unsupported(r, "%s has %u entries, more than opver handles",
				   name, out->length);
	return OPVER_OK;
}

/* Element `index` of a vector of tables. */
static opver_status read_element(reader *r, const opver__fb_vector *vector,
				 uint32_t index, const char *name,
				 opver__fb_table *out)
{
	if (!opver__fb_vector_table(&r->fb, vector, index, name, out))
		return broken(r);
	return OPVER_OK;
}

/*
 * Copies an index vector into a new array (*out, owned by the caller, set
 * even on failure) and checks every entry names one of num_tensors
 * tensors; -1 passes where optional inputs may be omitted.
 */
static opver_status read_indices(reader *r, const opver__fb_table *table,
				 unsigned id, const char *name,
				 int32_t num_tensors, bool allow_omitted,
				 int32_t *count, int32_t **out)
{
	opver__fb_vector vector;
	opver_status status;

	*count = 0;
	*out = NULL;
	status = read_vector(r, table, id, name, 4, &vector);
	if (status != OPVER_OK)
		return status;
	*out = allocate(vector.length, sizeof(**out));
	if (*out == NULL)
		return no_memory(r);
	*count = (int32_t)vector.length;
	if (!opver__fb_vector_int32(&r->fb, &vector, name, *out))
		return broken(r);
	for (int32_t i = 0; i < *count; i++) {
		int32_t index = (*out)[i];

		if (index == -1 && allow_omitted)
			continue;
		if (index < 0 || index >= num_tensors)
			return invalid(r, "%s[%d] is tensor %d, out of range (the subgraph has %d tensors)",
				       name, i, index, num_tensors);
	}
	return OPVER_OK;
}

/*
 * Resolves a byte range stored either in the FlatBuffer (`inline_bytes`) or,
 * in models over 2 GiB, after it: at file offset `offset` when it is above
 * 1 (0 and 1 are placeholders the writer leaves), `size` bytes long.
 */
static opver_status resolve_span(reader *r, const char *name,
				 const opver__fb_vector *inline_bytes,
				 uint64_t offset, uint64_t size, span *out)
{
	if (offset <= 1) {
		out->data = opver__fb_vector_bytes(&r->fb, inline_bytes);
		out->size = inline_bytes->length;
		return OPVER_OK;
	}
	if (inline_bytes->length != 0)
		return invalid(r, "%s are both inline and at file offset %llu",
			       name, (unsigned long long)offset);
	if (offset > r->fb.size || size > r->fb.size - offset)
		return invalid(r, "%s at file offset %llu, %llu bytes, run past the end of the %zu-byte file",
			       name, (unsigned long long)offset,
			       (unsigned long long)size, r->fb.size);
	out->data = size != 0 ? r->fb.data + offset : NULL;
	out->size = (size_t)size;
	return OPVER_OK;
}

static opver_status read_buffers(reader *r, const opver__fb_table *model)
{
	opver__fb_vector buffers;
	opver_status status;

	status = read_vector(r, model, MODEL_BUFFERS, "buffers", 4, &buffers);
	if (status != OPVER_OK)
		return status;
	r->buffers = allocate(buffers.length, sizeof(*r->buffers));
	if (r->buffers == NULL)
		return no_memory(r);
	r->num_buffers = buffers.length;
	for (uint32_t i = 0; i < buffers.length; i++) {
		opver__fb_table buffer;
		opver__fb_vector data;
		uint64_t offset, size;

		set_where(r, "buffer %u", i);
		status = read_element(r, &buffers, i, "buffer", &buffer);
		if (status != OPVER_OK)
			return status;
		if (!opver__fb_vector_field(&r->fb, &buffer, BUFFER_DATA,
					    "data", 1, &data) ||
		    !opver__fb_uint64(&r->fb, &buffer, BUFFER_OFFSET, "offset",
				      0, &offset) ||
		    !opver__fb_uint64(&r->fb, &buffer, BUFFER_SIZE, "size", 0,
				      &size))
			return broken(r);
		status = resolve_span(r, "data", &data, offset, size,
				      &r->buffers[i]);
		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

static opver_status read_op_codes(reader *r, const opver__fb_table *model)
{
	opver__fb_vector codes;
	opver_status status;

	status = read_vector(r, model, MODEL_OPERATOR_CODES, "operator_codes",
			     4, &codes);
	if (status != OPVER_OK)
		return status;
	r->codes = allocate(codes.length, sizeof(*r->codes));
	if (r->codes == NULL)
		return no_memory(r);
	r->num_codes = codes.length;
	for (uint32_t i = 0; i < codes.length; i++) {
		opver__fb_table code;
		int8_t deprecated_code;
		int32_t builtin_code, version;
		const char *custom_code;
		op_code *c = &r->codes[i];

		set_where(r, "operator code %u", i);
		status = read_element(r, &codes, i, "operator code", &code);
		if (status != OPVER_OK)
			return status;
		if (!opver__fb_int8(&r->fb, &code, CODE_DEPRECATED_BUILTIN_CODE,
				    "deprecated_builtin_code", 0,
				    &deprecated_code) ||
		    !opver__fb_string_field(&r->fb, &code, CODE_CUSTOM_CODE,
					    "custom_code", &custom_code,
					    NULL) ||
		    !opver__fb_int32(&r->fb, &code, CODE_VERSION, "version", 1,
				     &version) ||
		    !opver__fb_int32(&r->fb, &code, CODE_BUILTIN_CODE,
				     "builtin_code", 0, &builtin_code))
			return broken(r);
		/* Old files only have the byte-sized field (builtin_code
		 * then reads 0); newer ones write both. */
		c->op = deprecated_code > builtin_code ? deprecated_code :
							 builtin_code;
		if (c->op < 0)
			return invalid(r, "op code %d is not a builtin operator",
				       c->op);
		if (version < 1)
			return invalid(r, "version %d is invalid (versions start at 1)",
				       version);
		if (c->op == OPVER_OP_CUSTOM && custom_code == NULL)
			return invalid(r, "CUSTOM op has no custom_code naming it");
		c->version = version;
		c->custom_name = c->op == OPVER_OP_CUSTOM ? custom_code : NULL;
	}
	return OPVER_OK;
}

/* Number of elements of a shape, false on overflow. */
static bool count_elements(const int32_t *dims, int32_t rank, size_t *count)
{
	size_t n = 1;

	for (int32_t i = 0; i < rank; i++) {
		size_t dim = (size_t)dims[i];

		if (dim != 0 && n > SIZE_MAX / dim)
			return false;
		n *= dim;
	}
	*count = n;
	return true;
}

/* Copies the quantization parameters into owned arrays of tensor->quant. */
static opver_status read_quantization(reader *r,
				      const opver__fb_table *quantization,
				      opver__graph_tensor *tensor)
{
	opver__fb_vector min, max, scale, zero_point;
	opver__fb_table details;
	uint8_t details_type;
	int32_t axis, count;
	float *scales = NULL;
	int64_t *zero_points = NULL;
	opver_status status;

	if (!opver__fb_union_field(&r->fb, quantization, QUANT_DETAILS_TYPE,
				   "details", &details_type, &details) ||
	    !opver__fb_int32(&r->fb, quantization, QUANT_DIMENSION,
			     "quantized_dimension", 0, &axis))
		return broken(r);
	if (details_type != 0)
		return unsupported(r, "custom quantization (details type %u) is not supported",
				   details_type);
	status = read_vector(r, quantization, QUANT_MIN, "min", 4, &min);
	if (status == OPVER_OK)
		status = read_vector(r, quantization, QUANT_MAX, "max", 4,
				     &max);
	if (status == OPVER_OK)
		status = read_vector(r, quantization, QUANT_SCALE, "scale", 4,
				     &scale);
	if (status == OPVER_OK)
		status = read_vector(r, quantization, QUANT_ZERO_POINT,
				     "zero_point", 8, &zero_point);
	if (status != OPVER_OK)
		return status;
	/* No scale: not quantized (min and max alone are converter notes). */
	if (scale.length == 0)
		return OPVER_OK;
	count = (int32_t)scale.length;
	if (zero_point.length != 1 && zero_point.length != scale.length)
		return invalid(r, "quantization has %d scales but %u zero points (need 1 or %d)",
			       count, zero_point.length, count);
	if (count == 1) {
		axis = 0;
	} else {
		/*
		 * person_detect quantizes 1-D bias tensors along dimension 3,
		 * the channel dimension of the conv they feed.  TFLite Micro
		 * runs it because the bias has one scale per element anyway;
		 * accept the same and give the only dimension there is.
		 */
		if (tensor->rank == 1 && axis >= 1 &&
		    tensor->dims[0] == count)
			axis = 0;
		if (axis < 0 || axis >= tensor->rank)
			return invalid(r, "quantized_dimension %d is not a dimension of this rank-%d tensor",
				       axis, tensor->rank);
		if (tensor->dims[axis] != count)
			return invalid(r, "%d per-channel scales for dimension %d, which has %d entries",
				       count, axis, tensor->dims[axis]);
	}
	scales = allocate((size_t)count, sizeof(*scales));
	zero_points = allocate((size_t)count, sizeof(*zero_points));
	if (scales == NULL || zero_points == NULL) {
		status = no_memory(r);
		goto out;
	}
	if (!opver__fb_vector_float(&r->fb, &scale, "scale", scales) ||
	    !opver__fb_vector_int64(&r->fb, &zero_point, "zero_point",
				    zero_points)) {
		status = broken(r);
		goto out;
	}
	/* One shared zero point is spread over every channel, so kernels
	 * can always index zero_point[channel]. */
	for (int32_t i = (int32_t)zero_point.length; i < count; i++)
		zero_points[i] = zero_points[0];
	tensor->quant.count = count;
	tensor->quant.scale = scales;
	tensor->quant.zero_point = zero_points;
	tensor->quant.axis = axis;
	return OPVER_OK;
out:
	free(scales);
	free(zero_points);
	return status;
}

/* The alignment loads of a type's elements need: their size, or for a
 * complex number that of its parts; 1 for types of no fixed size. */
static size_t type_alignment(opver_type type)
{
	size_t size = opver_type_size(type);

	if (type == OPVER_TYPE_COMPLEX64 || type == OPVER_TYPE_COMPLEX128)
		return size / 2;
	return size != 0 ? size : 1;
}

/* Frees `count` slots of buffer copies and the array. */
static void free_copies(uint8_t **copies, uint32_t count)
{
	for (uint32_t i = 0; copies != NULL && i < count; i++)
		free(copies[i]);
	free(copies);
}

/* Points *data at an aligned copy of buffer `index`, made at most once per
 * buffer, so the copies never exceed the file's size. */
static opver_status aligned_copy(reader *r, uint32_t index,
				 const uint8_t **data)
{
	const span *buffer = &r->buffers[index];

	if (r->copies == NULL) {
		r->copies = allocate(r->num_buffers, sizeof(*r->copies));
		if (r->copies == NULL)
			return no_memory(r);
	}
	if (r->copies[index] == NULL) {
		/* malloc aligns for every element type. */
		r->copies[index] = malloc(buffer->size);
		if (r->copies[index] == NULL)
			return no_memory(r);
		memcpy(r->copies[index], buffer->data, buffer->size);
	}
	*data = r->copies[index];
	return OPVER_OK;
}

/*
 * Decodes tensor `index`; *buffer_index is the buffer it names.  Constant
 * data must be aligned for the tensor's elements, since kernels load them
 * in place as floats or int64s.  Writers align buffer data (the schema
 * forces 16 bytes on inline data), so constants stay in the mapping; but
 * published models exist whose int64 biases sit 4 bytes off (ML-zoo's
 * int16 DS-CNN, TFLite Micro's SEANet layers), which TFLite reads in place
 * all the same, so a misaligned buffer is copied once to an aligned place
 * rather than refused.  Offsets are checked in the file, whose bytes are
 * mapped or copied at an alignment above any element's
 * (OPVER__MODEL_ALIGNMENT).
 */
static opver_status read_tensor(reader *r, const opver__fb_vector *tensors,
				uint32_t subgraph, uint32_t index,
				opver__graph_tensor *tensor,
				uint32_t *buffer_index)
{
	opver__fb_table table, quantization, sparsity;
	opver__fb_vector shape;
	int8_t type;
	uint32_t buffer;
	size_t elements, type_size, align, offset;
	const span *data;
	opver_status status;

	*buffer_index = 0;
	set_where(r, "tensor %u of subgraph %u", index, subgraph);
	status = read_element(r, tensors, index, "tensor", &table);
	if (status == OPVER_OK)
		status = read_vector(r, &table, TENSOR_SHAPE, "shape", 4,
				     &shape);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_int8(&r->fb, &table, TENSOR_TYPE, "type", 0, &type) ||
	    !opver__fb_uint32(&r->fb, &table, TENSOR_BUFFER, "buffer", 0,
			      &buffer) ||
	    !opver__fb_string_field(&r->fb, &table, TENSOR_NAME, "name",
				    &tensor->name, NULL) ||
	    !opver__fb_table_field(&r->fb, &table, TENSOR_QUANTIZATION,
				   "quantization", &quantization) ||
	    !opver__fb_bool(&r->fb, &table, TENSOR_IS_VARIABLE, "is_variable",
			    false, &tensor->is_variable) ||
	    !opver__fb_table_field(&r->fb, &table, TENSOR_SPARSITY, "sparsity",
				   &sparsity))
		return broken(r);
	*buffer_index = buffer;
	if (tensor->name == NULL)
		tensor->name = "";
	if (sparsity.pos != 0)
		return unsupported(r, "sparse tensors are not supported");
	if (type < 0 || type >= OPVER_TYPE_COUNT)
		return invalid(r, "type %d is not a tensor type", type);
	tensor->type = (opver_type)type;

	tensor->dims = allocate(shape.length, sizeof(*tensor->dims));
	if (tensor->dims == NULL)
		return no_memory(r);
	tensor->rank = (int32_t)shape.length;
	if (!opver__fb_vector_int32(&r->fb, &shape, "shape", tensor->dims))
		return broken(r);
	for (int32_t i = 0; i < tensor->rank; i++)
		if (tensor->dims[i] < 0)
			return invalid(r, "dimension %d is %d; sizes cannot be negative",
				       i, tensor->dims[i]);
	type_size = opver_type_size(tensor->type);
	if (!count_elements(tensor->dims, tensor->rank, &elements) ||
	    (type_size != 0 && elements > SIZE_MAX / type_size))
		return invalid(r, "the shape's byte size overflows");
	tensor->bytes = elements * type_size;

	/* Buffer 0, and any empty buffer, means no constant data. */
	if (buffer >= r->num_buffers)
		return invalid(r, "buffer %u out of range (model has %u buffers)",
			       buffer, r->num_buffers);
	data = &r->buffers[buffer];
	if (buffer != 0 && data->size != 0) {
		/* Types without a fixed element size take the buffer's. */
		if (type_size == 0)
			tensor->bytes = data->size;
		if (data->size != tensor->bytes)
			return invalid(r, "buffer %u holds %zu bytes, but %zu %s elements need %zu",
				       buffer, data->size, elements,
				       opver_type_name(tensor->type),
				       tensor->bytes);
		align = type_alignment(tensor->type);
		offset = (size_t)(data->data - r->fb.data);
		tensor->constant_data = data->data;
		if (offset % align != 0) {
			status = aligned_copy(r, buffer, &tensor->constant_data);
			if (status != OPVER_OK)
				return status;
		}
	}
	tensor->has_quantization = quantization.pos != 0;
	if (quantization.pos != 0)
		return read_quantization(r, &quantization, tensor);
	return OPVER_OK;
}

static opver_status read_operator(reader *r, const opver__fb_vector *operators,
				  uint32_t subgraph, uint32_t index,
				  int32_t num_tensors, opver__graph_node *node)
{
	opver__fb_table table, options;
	opver__fb_vector custom_options, mutating;
	uint64_t large_offset, large_size;
	uint32_t opcode_index;
	uint8_t options_type;
	int32_t num_intermediates;
	int32_t *intermediates;
	const op_code *code;
	char where[sizeof(r->where) + 256];
	span custom;
	opver_status status;

	set_where(r, "node %u of subgraph %u", index, subgraph);
	status = read_element(r, operators, index, "operator", &table);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_uint32(&r->fb, &table, OPERATOR_OPCODE_INDEX,
			      "opcode_index", 0, &opcode_index))
		return broken(r);
	if (opcode_index >= r->num_codes)
		return invalid(r, "opcode_index %u out of range (model has %u operator codes)",
			       opcode_index, r->num_codes);
	code = &r->codes[opcode_index];
	node->op = code->op;
	node->version = code->version;
	node->custom_name = code->custom_name;
	set_where(r, "node %u (%s%s%s v%d) of subgraph %u", index,
		  opver_op_name(node->op), node->custom_name ? " " : "",
		  node->custom_name ? node->custom_name : "", node->version,
		  subgraph);

	status = read_indices(r, &table, OPERATOR_INPUTS, "inputs",
			      num_tensors, true, &node->num_inputs,
			      &node->inputs);
	if (status == OPVER_OK)
		status = read_indices(r, &table, OPERATOR_OUTPUTS, "outputs",
				      num_tensors, false, &node->num_outputs,
				      &node->outputs);
	if (status != OPVER_OK)
		return status;
	/* Intermediates are kernel-internal tensors; checked, not kept. */
	status = read_indices(r, &table, OPERATOR_INTERMEDIATES,
			      "intermediates", num_tensors, false,
			      &num_intermediates, &intermediates);
	free(intermediates);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_vector_field(&r->fb, &table,
				    OPERATOR_MUTATING_VARIABLE_INPUTS,
				    "mutating_variable_inputs", 1, &mutating) ||
	    !opver__fb_vector_field(&r->fb, &table, OPERATOR_CUSTOM_OPTIONS,
				    "custom_options", 1, &custom_options) ||
	    !opver__fb_uint64(&r->fb, &table,
			      OPERATOR_LARGE_CUSTOM_OPTIONS_OFFSET,
			      "large_custom_options_offset", 0,
			      &large_offset) ||
	    !opver__fb_uint64(&r->fb, &table,
			      OPERATOR_LARGE_CUSTOM_OPTIONS_SIZE,
			      "large_custom_options_size", 0, &large_size) ||
	    !opver__fb_union_field(&r->fb, &table,
				   OPERATOR_BUILTIN_OPTIONS_TYPE,
				   "builtin_options", &options_type, &options))
		return broken(r);
	if (mutating.length != 0 &&
	    mutating.length != (uint32_t)node->num_inputs)
		return invalid(r, "mutating_variable_inputs has %u entries for %d inputs",
			       mutating.length, node->num_inputs);
	status = resolve_span(r, "custom options", &custom_options,
			      large_offset, large_size, &custom);
	if (status != OPVER_OK)
		return status;
	node->custom_options = custom.data;
	node->custom_options_size = custom.size;

	snprintf(where, sizeof(where), "%s: %s", r->name, r->where);
	return opver__op_params_decode(&r->fb, node->op, options_type,
				       &options, where, r->reporter,
				       &node->params, &node->params_size);
}

/* Another tensor with constant data from the buffer of tensor t, or -1. */
static int32_t constant_sharing(const opver__graph *graph,
				const uint32_t *buffer_of, int32_t t)
{
	for (int32_t i = 0; i < graph->num_tensors; i++)
		if (i != t && buffer_of[i] == buffer_of[t] &&
		    graph->tensors[i].constant_data != NULL)
			return i;
	return -1;
}

/*
 * Constant data stays in the file's bytes: a read-only mapping, where a
 * write faults, or the copy of opver_model_open_memory(), which every
 * interpreter of the model shares, where a write corrupts the weights of
 * all.  Kernels write their nodes' outputs and the state in variable
 * tensors, so neither may have constant data (TFLite refuses variables
 * with a buffer too); and applications are handed the data pointer of
 * each graph output, so no graph output may share its buffer with another
 * constant tensor.  Graph inputs with a buffer are activations
 * initialised from it (read_subgraph), so writing them is safe, and
 * constants may share a buffer with each other.
 */
static opver_status check_written_tensors(reader *r, const opver__graph *graph,
					  const uint32_t *buffer_of)
{
	uint32_t *users;
	opver_status status = OPVER_OK;

	for (int32_t t = 0; t < graph->num_tensors; t++)
		if (graph->tensors[t].is_variable &&
		    graph->tensors[t].constant_data != NULL)
			return invalid(r, "tensor %d \"%s\" is a variable, which kernels write, but has constant data in buffer %u; give it an empty buffer (0)",
				       t, graph->tensors[t].name, buffer_of[t]);
	for (int32_t n = 0; n < graph->num_nodes; n++) {
		const opver__graph_node *node = &graph->nodes[n];

		for (int32_t i = 0; i < node->num_outputs; i++) {
			int32_t t = node->outputs[i];
			int32_t other;
			char shared[128] = "";

			if (graph->tensors[t].constant_data == NULL)
				continue;
			other = constant_sharing(graph, buffer_of, t);
			if (other >= 0)
				snprintf(shared, sizeof(shared),
					 ", shared with constant tensor %d \"%s\"",
					 other, graph->tensors[other].name);
			return invalid(r, "tensor %d \"%s\" is an output of node %d (%s%s%s v%d) but has constant data in buffer %u%s; kernels write their outputs, so give it an empty buffer (0)",
				       t, graph->tensors[t].name, n,
				       opver_op_name(node->op),
				       node->custom_name ? " " : "",
				       node->custom_name ? node->custom_name :
							   "",
				       node->version, buffer_of[t], shared);
		}
	}
	/* Constant tensors per buffer, so that graph outputs are checked in
	 * linear time whatever their number. */
	users = allocate(r->num_buffers, sizeof(*users));
	if (users == NULL)
		return no_memory(r);
	for (int32_t t = 0; t < graph->num_tensors; t++)
		if (graph->tensors[t].constant_data != NULL)
			users[buffer_of[t]]++;
	for (int32_t i = 0; status == OPVER_OK && i < graph->num_outputs; i++) {
		int32_t t = graph->outputs[i];
		int32_t other;

		if (graph->tensors[t].constant_data == NULL ||
		    users[buffer_of[t]] < 2)
			continue;
		other = constant_sharing(graph, buffer_of, t);
		status = invalid(r, "tensor %d \"%s\", graph output %d, shares buffer %u with constant tensor %d \"%s\"; applications may write outputs, so give the output a buffer of its own",
				 t, graph->tensors[t].name, i, buffer_of[t],
				 other, graph->tensors[other].name);
	}
	free(users);
	return status;
}

static opver_status read_subgraph(reader *r, const opver__fb_vector *subgraphs,
				  uint32_t index, opver__graph *graph)
{
	opver__fb_table table;
	opver__fb_vector tensors, operators;
	const char *name;
	uint32_t *buffer_of = NULL;     /* the buffer of each tensor */
	opver_status status;

	set_where(r, "subgraph %u", index);
	status = read_element(r, subgraphs, index, "subgraph", &table);
	if (status == OPVER_OK)
		status = read_vector(r, &table, SUBGRAPH_TENSORS, "tensors", 4,
				     &tensors);
	if (status == OPVER_OK)
		status = read_vector(r, &table, SUBGRAPH_OPERATORS,
				     "operators", 4, &operators);
	if (status != OPVER_OK)
		return status;
	if (!opver__fb_string_field(&r->fb, &table, SUBGRAPH_NAME, "name",
				    &name, NULL))
		return broken(r);

	graph->tensors = allocate(tensors.length, sizeof(*graph->tensors));
	graph->nodes = allocate(operators.length, sizeof(*graph->nodes));
	buffer_of = allocate(tensors.length, sizeof(*buffer_of));
	if (graph->tensors == NULL || graph->nodes == NULL ||
	    buffer_of == NULL) {
		status = no_memory(r);
		goto out;
	}
	graph->num_tensors = (int32_t)tensors.length;
	graph->num_nodes = (int32_t)operators.length;
	r->subgraph_tensors[index] = tensors.length;
	for (uint32_t i = 0; status == OPVER_OK && i < tensors.length; i++)
		status = read_tensor(r, &tensors, index, i, &graph->tensors[i],
				     &buffer_of[i]);
	if (status != OPVER_OK)
		goto out;

	set_where(r, "subgraph %u", index);
	status = read_indices(r, &table, SUBGRAPH_INPUTS, "inputs",
			      graph->num_tensors, false, &graph->num_inputs,
			      &graph->inputs);
	if (status == OPVER_OK)
		status = read_indices(r, &table, SUBGRAPH_OUTPUTS, "outputs",
				      graph->num_tensors, false,
				      &graph->num_outputs, &graph->outputs);
	for (int32_t i = 0; status == OPVER_OK && i < graph->num_inputs; i++) {
		opver__graph_tensor *input = &graph->tensors[graph->inputs[i]];

		if (input->constant_data != NULL) {
			input->initial_data = input->constant_data;
			input->constant_data = NULL;
		}
	}
	for (uint32_t i = 0; status == OPVER_OK && i < operators.length; i++)
		status = read_operator(r, &operators, index, i,
				       graph->num_tensors, &graph->nodes[i]);
	if (status == OPVER_OK) {
		set_where(r, "subgraph %u", index);
		status = check_written_tensors(r, graph, buffer_of);
	}
out:
	free(buffer_of);
	return status;
}

static opver_status read_subgraphs(reader *r, const opver__fb_table *model,
				   opver__graph *graph)
{
	opver__fb_vector subgraphs;
	opver_status status;

	status = read_vector(r, model, MODEL_SUBGRAPHS, "subgraphs", 4,
			     &subgraphs);
	if (status != OPVER_OK)
		return status;
	if (subgraphs.length == 0)
		return invalid(r, "the model has no subgraph");
	r->subgraph_tensors = allocate(subgraphs.length,
				       sizeof(*r->subgraph_tensors));
	if (r->subgraph_tensors == NULL)
		return no_memory(r);
	r->num_subgraphs = subgraphs.length;
	status = read_subgraph(r, &subgraphs, 0, graph);
	for (uint32_t i = 1; status == OPVER_OK && i < subgraphs.length; i++) {
		opver__graph other = { 0 };

		status = read_subgraph(r, &subgraphs, i, &other);
		opver__graph_free(&other);
	}
	return status;
}

/* Copies a NUL-padded printable string out of a buffer. */
static opver_status read_version_string(reader *r, const span *data,
					char **out)
{
	const uint8_t *end = data->size ? memchr(data->data, 0, data->size) :
					  NULL;
	size_t length = end != NULL ? (size_t)(end - data->data) : data->size;

	for (size_t i = 0; i < length; i++)
		if (data->data[i] < 0x20 || data->data[i] > 0x7e)
			return invalid(r, "byte %zu of the version string is not printable (0x%02x)",
				       i, data->data[i]);
	*out = malloc(length + 1);
	if (*out == NULL)
		return no_memory(r);
	if (length != 0)
		memcpy(*out, data->data, length);
	(*out)[length] = '\0';
	return OPVER_OK;
}

static opver_status read_metadata(reader *r, const opver__fb_table *model,
				  opver__graph *graph)
{
	opver__fb_vector metadata;
	int32_t count, *indices;
	opver_status status;

	set_where(r, "model");
	status = read_vector(r, model, MODEL_METADATA, "metadata", 4,
			     &metadata);
	if (status != OPVER_OK)
		return status;
	for (uint32_t i = 0; i < metadata.length; i++) {
		opver__fb_table entry;
		const char *name;
		size_t length;
		uint32_t buffer;

		set_where(r, "metadata %u", i);
		status = read_element(r, &metadata, i, "metadata", &entry);
		if (status != OPVER_OK)
			return status;
		if (!opver__fb_string_field(&r->fb, &entry, METADATA_NAME,
					    "name", &name, &length) ||
		    !opver__fb_uint32(&r->fb, &entry, METADATA_BUFFER,
				      "buffer", 0, &buffer))
			return broken(r);
		if (buffer >= r->num_buffers)
			return invalid(r, "buffer %u out of range (model has %u buffers)",
				       buffer, r->num_buffers);
		if (name == NULL || graph->min_runtime_version != NULL ||
		    length != strlen(MIN_RUNTIME_VERSION) ||
		    memcmp(name, MIN_RUNTIME_VERSION, length) != 0)
			continue;
		set_where(r, "metadata %u (" MIN_RUNTIME_VERSION ")", i);
		status = read_version_string(r, &r->buffers[buffer],
					     &graph->min_runtime_version);
		if (status != OPVER_OK)
			return status;
	}

	/* The older metadata list: buffer indices, checked but unused. */
	set_where(r, "model");
	status = read_indices(r, model, MODEL_METADATA_BUFFER,
			      "metadata_buffer", (int32_t)r->num_buffers, false,
			      &count, &indices);
	free(indices);
	return status;
}

/* Checks the tensor maps of a signature against its subgraph. */
static opver_status read_tensor_maps(reader *r, const opver__fb_table *table,
				     unsigned id, const char *name,
				     uint32_t num_tensors)
{
	opver__fb_vector maps;
	opver_status status;

	status = read_vector(r, table, id, name, 4, &maps);
	for (uint32_t i = 0; status == OPVER_OK && i < maps.length; i++) {
		opver__fb_table map;
		const char *alias;
		uint32_t tensor;

		status = read_element(r, &maps, i, name, &map);
		if (status != OPVER_OK)
			break;
		if (!opver__fb_string_field(&r->fb, &map, TENSOR_MAP_NAME,
					    "name", &alias, NULL) ||
		    !opver__fb_uint32(&r->fb, &map, TENSOR_MAP_TENSOR_INDEX,
				      "tensor_index", 0, &tensor))
			return broken(r);
		if (tensor >= num_tensors)
			return invalid(r, "%s[%u] is tensor %u, out of range (the subgraph has %u tensors)",
				       name, i, tensor, num_tensors);
	}
	return status;
}

static opver_status read_signatures(reader *r, const opver__fb_table *model)
{
	opver__fb_vector signatures;
	opver_status status;

	set_where(r, "model");
	status = read_vector(r, model, MODEL_SIGNATURE_DEFS, "signature_defs",
			     4, &signatures);
	for (uint32_t i = 0; status == OPVER_OK && i < signatures.length; i++) {
		opver__fb_table signature;
		const char *key;
		uint32_t subgraph;

		set_where(r, "signature %u", i);
		status = read_element(r, &signatures, i, "signature", &signature);
		if (status != OPVER_OK)
			break;
		if (!opver__fb_string_field(&r->fb, &signature, SIGNATURE_KEY,
					    "signature_key", &key, NULL) ||
		    !opver__fb_uint32(&r->fb, &signature,
				      SIGNATURE_SUBGRAPH_INDEX,
				      "subgraph_index", 0, &subgraph))
			return broken(r);
		if (subgraph >= r->num_subgraphs)
			return invalid(r, "subgraph_index %u out of range (model has %u subgraphs)",
				       subgraph, r->num_subgraphs);
		status = read_tensor_maps(r, &signature, SIGNATURE_INPUTS,
					  "inputs", r->subgraph_tensors[subgraph]);
		if (status == OPVER_OK)
			status = read_tensor_maps(r, &signature,
						  SIGNATURE_OUTPUTS, "outputs",
						  r->subgraph_tensors[subgraph]);
	}
	return status;
}

static opver_status read_model(reader *r, opver__graph *graph)
{
	opver__fb_table model;
	uint32_t version;
	const char *description;
	opver_status status;

	set_where(r, "model");
	if (!opver__fb_root(&r->fb, &model) ||
	    !opver__fb_uint32(&r->fb, &model, MODEL_VERSION, "version", 0,
			      &version) ||
	    !opver__fb_string_field(&r->fb, &model, MODEL_DESCRIPTION,
				    "description", &description, NULL))
		return broken(r);
	if (version != SCHEMA_VERSION)
		return invalid(r, "schema version %u is not a .tflite schema version (expected %d)",
			       version, SCHEMA_VERSION);
	status = read_buffers(r, &model);
	if (status == OPVER_OK)
		status = read_op_codes(r, &model);
	if (status == OPVER_OK)
		status = read_subgraphs(r, &model, graph);
	if (status == OPVER_OK)
		status = read_metadata(r, &model, graph);
	if (status == OPVER_OK)
		status = read_signatures(r, &model);
	return status;
}

opver_status opver__model_decode(const uint8_t *bytes, size_t size,
				 const char *name,
				 const opver__reporter *reporter,
				 opver__graph *graph)
{
	reader r = { .name = name, .reporter = reporter };
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
		free(graph->nodes[i].params);
		free(graph->nodes[i].version_reason);
	}
	free(graph->tensors);
	free(graph->nodes);
	free(graph->inputs);
	free(graph->outputs);
	free(graph->min_runtime_version);
	free_copies(graph->buffer_copies, graph->num_buffer_copies);
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
