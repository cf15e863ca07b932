/*
 * model_builder.c - writes a cf_model_desc as a .tflite FlatBuffer.
 *
 * FlatBuffers offsets (uoffset_t) point forward, so the writer works front
 * to back, depth first: it appends a table with placeholders for its
 * offset fields, then each child, and patches each placeholder with the
 * distance to the child once the child's position is known.  Vectors of
 * tables are written the same way: the vector of placeholders first, then
 * the tables.  Each table gets its own vtable, written just before it (no
 * deduplication: a case model has a handful of tables).  Positions are
 * counted from the start of the buffer, which the caller gets from
 * malloc(), so alignment counted from 0 is real alignment as long as the
 * bytes are kept at an address at least as aligned (the core copies them
 * into 64-byte aligned memory).  Multi-byte values are stored byte by
 * byte, little-endian as the format wants, whatever the host's order;
 * constant tensor data is copied as given.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_builder.h"
#include "model_options.h"
#include "schema/opver_ids.h"

/* The only Model.version there is. */
#define SCHEMA_VERSION 3
/* Buffer.data is declared force_align: 16. */
#define DATA_ALIGNMENT 16

typedef struct writer {
	uint8_t *data;          /* owned until handed to the caller */
	size_t size;
	size_t capacity;
	bool no_memory;         /* once set, nothing more is written */
} writer;

/* Appends n zero bytes and returns their position; 0 (the root offset,
 * never a valid target) after running out of memory. */
static size_t append(writer *w, size_t n)
{
	size_t pos = w->size;

	if (w->no_memory)
		return 0;
	if (n > w->capacity - w->size) {
		size_t capacity = w->capacity ? w->capacity : 1024;
		uint8_t *grown;

		while (n > capacity - w->size) {
			if (capacity > SIZE_MAX / 2) {
				w->no_memory = true;
				return 0;
			}
			capacity *= 2;
		}
		grown = realloc(w->data, capacity);
		if (grown == NULL) {
			w->no_memory = true;
			return 0;
		}
		w->data = grown;
		w->capacity = capacity;
	}
	memset(w->data + pos, 0, n);
	w->size += n;
	return pos;
}

/* Pads with zeros so that `ahead` bytes from now is a multiple of
 * `alignment` (a power of two). */
static void align(writer *w, size_t alignment, size_t ahead)
{
	size_t misalignment = (w->size + ahead) & (alignment - 1);

	if (misalignment != 0)
		append(w, alignment - misalignment);
}

static void put(writer *w, size_t pos, uint64_t value, size_t width)
{
	if (w->no_memory)
		return;
	for (size_t i = 0; i < width; i++)
		w->data[pos + i] = (uint8_t)(value >> (8 * i));
}

/* Points the uoffset at `field` to `target`, which lies after it. */
static void patch(writer *w, size_t field, size_t target)
{
	put(w, field, (uint32_t)(target - field), 4);
}

/*
 * Writes the vtable, then the table: its soffset, the 4-byte fields, then
 * the 1-byte ones, so that none needs padding.  field_pos[id] receives the
 * position of each field, for patching offsets.  Returns the table's
 * position.
 */
static size_t write_table(writer *w, const cf_table *t, size_t *field_pos)
{
	size_t vtable, pos, vtable_size = 4 + 2 * (size_t)t->num_ids;
	uint16_t offsets[MAX_FIELDS] = { 0 };
	size_t inline_size = 4;

	for (unsigned width = 4; width >= 1; width /= 4)
		for (unsigned id = 0; id < t->num_ids; id++)
			if (t->width[id] == width) {
				offsets[id] = (uint16_t)inline_size;
				inline_size += width;
			}
	align(w, 2, 0);
	vtable = append(w, vtable_size);
	align(w, 4, 0);
	pos = append(w, inline_size);
	if (w->no_memory)
		return 0;
	put(w, vtable, vtable_size, 2);
	put(w, vtable + 2, inline_size, 2);
	/* soffset: the vtable lies this many bytes before the table. */
	put(w, pos, (uint32_t)(pos - vtable), 4);
	for (unsigned id = 0; id < t->num_ids; id++) {
		put(w, vtable + 4 + 2 * id, offsets[id], 2);
		if (t->width[id] == 0)
			continue;
		put(w, pos + offsets[id], t->value[id], t->width[id]);
		if (field_pos != NULL)
			field_pos[id] = pos + offsets[id];
	}
	return pos;
}

/* Appends a vector's length and room for its elements, the elements
 * aligned to `alignment`; returns the vector's position (its length). */
static size_t write_vector(writer *w, size_t count, size_t elem_size,
			   size_t alignment)
{
	size_t pos;

	align(w, alignment > 4 ? alignment : 4, 4);
	pos = append(w, 4);
	put(w, pos, count, 4);
	append(w, count * elem_size);
	return pos;
}

static size_t write_int32s(writer *w, const int32_t *values, size_t count)
{
	size_t pos = write_vector(w, count, 4, 4);

	for (size_t i = 0; i < count; i++)
		put(w, pos + 4 + 4 * i, (uint32_t)values[i], 4);
	return pos;
}

static size_t write_string(writer *w, const char *text)
{
	size_t length = strlen(text);
	size_t pos = write_vector(w, length + 1, 1, 4);

	if (!w->no_memory)
		memcpy(w->data + pos + 4, text, length);
	put(w, pos, length, 4);    /* the NUL is not counted */
	return pos;
}

/* Writes a vector field's contents and points the field at them. */
static void int32s_field(writer *w, size_t field, const int32_t *values,
			 size_t count)
{
	patch(w, field, write_int32s(w, values, count));
}

/* ------------------------------------------------------------ validation */

typedef struct checker {
	char *error;
	size_t error_size;
} checker;

static bool refuse(const checker *c, const char *format, ...)
	OPVER__PRINTF(2, 3);

static bool refuse(const checker *c, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(c->error, c->error_size, format, args);
	va_end(args);
	return false;
}

static bool check_tensor(const checker *c, int32_t index,
			 const cf_tensor_desc *t)
{
	size_t elements = 1, type_size;

	if ((int)t->type < 0 || t->type >= OPVER_TYPE_COUNT)
		return refuse(c, "tensor %d: type %d is not a tensor type",
			      index, (int)t->type);
	if (t->rank < 0 || t->rank > CF_MAX_RANK)
		return refuse(c, "tensor %d: rank %d is outside 0..%d", index,
			      t->rank, CF_MAX_RANK);
	for (int32_t d = 0; d < t->rank; d++) {
		if (t->dims[d] < 0)
			return refuse(c, "tensor %d: dimension %d is %d",
				      index, d, t->dims[d]);
		if (t->dims[d] > 0 && elements > SIZE_MAX / (size_t)t->dims[d])
			return refuse(c, "tensor %d: too many elements", index);
		elements *= (size_t)t->dims[d];
	}
	if (t->data != NULL || t->data_size != 0) {
		type_size = opver_type_size(t->type);
		if (t->data == NULL)
			return refuse(c, "tensor %d: %zu bytes of data but no data",
				      index, t->data_size);
		if (type_size == 0)
			return refuse(c, "tensor %d: constant data of type %s, which has no fixed size",
				      index, opver_type_name(t->type));
		if (elements > SIZE_MAX / type_size ||
		    elements * type_size != t->data_size)
			return refuse(c, "tensor %d: %zu bytes of data for %zu %s elements",
				      index, t->data_size, elements,
				      opver_type_name(t->type));
	}
	if (t->num_scales < 0)
		return refuse(c, "tensor %d: %d scales", index, t->num_scales);
	if (t->num_scales > 0) {
		if (!t->quantized)
			return refuse(c, "tensor %d: scales without quantization",
				      index);
		if (t->scales == NULL || t->zero_points == NULL)
			return refuse(c, "tensor %d: %d scales but no scale or zero point array",
				      index, t->num_scales);
	}
	if (t->num_scales > 1 &&
	    (t->quantized_dimension < 0 || t->quantized_dimension >= t->rank ||
	     t->dims[t->quantized_dimension] != t->num_scales))
		return refuse(c, "tensor %d: %d scales along dimension %d do not match its shape",
			      index, t->num_scales, t->quantized_dimension);
	return true;
}

static bool check_index(const checker *c, const char *what, int32_t index,
			int32_t value, int32_t count, bool may_omit)
{
	if ((value >= 0 && value < count) || (may_omit && value == -1))
		return true;
	return refuse(c, "%s %d: tensor index %d is outside 0..%d", what,
		      index, value, count - 1);
}

/* An array of `count` entries: non-negative count, present when needed. */
static bool check_array(const checker *c, const char *what,
			const void *array, int32_t count)
{
	if (count < 0)
		return refuse(c, "%s: count %d", what, count);
	if (count > 0 && array == NULL)
		return refuse(c, "%s: %d entries but no array", what, count);
	return true;
}

/* An operator without intermediates. */
static const cf_intermediates none = { NULL, 0 };

static bool check_operator(const checker *c, const cf_model_desc *desc,
			   int32_t index, const cf_intermediates *between)
{
	const cf_operator_desc *op = &desc->operators[index];
	int32_t code;

	if (op->opcode_index < 0 || op->opcode_index >= desc->num_opcodes)
		return refuse(c, "operator %d: operator code %d is outside 0..%d",
			      index, op->opcode_index, desc->num_opcodes - 1);
	if (!check_array(c, "operator inputs", op->inputs, op->num_inputs) ||
	    !check_array(c, "operator outputs", op->outputs, op->num_outputs) ||
	    !check_array(c, "operator intermediates", between->tensors,
			 between->count))
		return false;
	for (int32_t i = 0; i < between->count; i++)
		if (!check_index(c, "operator intermediate", i,
				 between->tensors[i], desc->num_tensors, true))
			return false;
	for (int32_t i = 0; i < op->num_inputs; i++)
		if (!check_index(c, "operator input", i, op->inputs[i],
				 desc->num_tensors, true))
			return false;
	for (int32_t i = 0; i < op->num_outputs; i++)
		if (!check_index(c, "operator output", i, op->outputs[i],
				 desc->num_tensors, false))
			return false;
	code = desc->opcodes[op->opcode_index].op;
	if (op->custom_options_size > 0 &&
	    (code != OPVER_OP_CUSTOM || op->custom_options == NULL))
		return refuse(c, "operator %d: custom options of %s",
			      index, op->custom_options == NULL ?
					     "no bytes" : "a builtin op");
	if (op->params != NULL && !cf_has_options(code))
		return refuse(c, "operator %d: cannot write options of %s",
			      index, opver_op_name(code));
	if (code == OPVER_OP_RESHAPE && op->params != NULL) {
		const opver_reshape_params *p = op->params;

		if (p->num_dims < 0 || p->num_dims > OPVER_RESHAPE_MAX_DIMS)
			return refuse(c, "operator %d: new_shape of %d entries",
				      index, p->num_dims);
	}
	if (code == OPVER_OP_SQUEEZE && op->params != NULL) {
		const opver_squeeze_params *p = op->params;

		if (p->num_dims < 0 || p->num_dims > OPVER_SQUEEZE_MAX_DIMS)
			return refuse(c, "operator %d: squeeze_dims of %d entries",
				      index, p->num_dims);
	}
	return true;
}

static bool check_model(const checker *c, const cf_model_desc *desc,
			const cf_intermediates *intermediates)
{
	if (!check_array(c, "tensors", desc->tensors, desc->num_tensors) ||
	    !check_array(c, "operator codes", desc->opcodes,
			 desc->num_opcodes) ||
	    !check_array(c, "operators", desc->operators,
			 desc->num_operators) ||
	    !check_array(c, "graph inputs", desc->inputs, desc->num_inputs) ||
	    !check_array(c, "graph outputs", desc->outputs, desc->num_outputs))
		return false;
	for (int32_t i = 0; i < desc->num_tensors; i++)
		if (!check_tensor(c, i, &desc->tensors[i]))
			return false;
	for (int32_t i = 0; i < desc->num_opcodes; i++) {
		const cf_opcode_desc *code = &desc->opcodes[i];

		if (code->op == OPVER_OP_CUSTOM) {
			if (code->custom_code == NULL)
				return refuse(c, "operator code %d: a custom op without a name",
					      i);
		} else if (strcmp(opver_op_name(code->op), "UNKNOWN") == 0) {
			return refuse(c, "operator code %d: %d is not a builtin op",
				      i, code->op);
		} else if (code->custom_code != NULL) {
			return refuse(c, "operator code %d: builtin %s with a custom name",
				      i, opver_op_name(code->op));
		}
		if (code->version < 1)
			return refuse(c, "operator code %d: version %d", i,
				      code->version);
	}
	for (int32_t i = 0; i < desc->num_operators; i++)
		if (!check_operator(c, desc, i,
				    intermediates != NULL ? &intermediates[i]
							  : &none))
			return false;
	for (int32_t i = 0; i < desc->num_inputs; i++)
		if (!check_index(c, "graph input", i, desc->inputs[i],
				 desc->num_tensors, false))
			return false;
	for (int32_t i = 0; i < desc->num_outputs; i++)
		if (!check_index(c, "graph output", i, desc->outputs[i],
				 desc->num_tensors, false))
			return false;
	return true;
}

/* -------------------------------------------------------------- writing */

static void write_operator_code(writer *w, size_t slot,
				const cf_opcode_desc *code)
{
	size_t pos[MAX_FIELDS];
	cf_table t = { 0 };

	/* The deprecated byte holds codes up to 127; larger ones say 127
	 * (PLACEHOLDER_FOR_GREATER_OP_CODES) and live in builtin_code. */
	cf_set_field(&t, CODE_DEPRECATED_BUILTIN_CODE, 1,
		  (uint32_t)(code->op < 127 ? code->op : 127));
	cf_set_field(&t, CODE_VERSION, 4, (uint32_t)code->version);
	cf_set_field(&t, CODE_BUILTIN_CODE, 4, (uint32_t)code->op);
	if (code->custom_code != NULL)
		cf_set_field(&t, CODE_CUSTOM_CODE, 4, 0);
	patch(w, slot, write_table(w, &t, pos));
	if (code->custom_code != NULL)
		patch(w, pos[CODE_CUSTOM_CODE],
		      write_string(w, code->custom_code));
}

static void write_quantization(writer *w, size_t field,
			       const cf_tensor_desc *tensor)
{
	size_t pos[MAX_FIELDS], vector;
	cf_table t = { 0 };
	int32_t n = tensor->num_scales;

	if (n > 0) {
		cf_set_field(&t, QUANT_SCALE, 4, 0);
		cf_set_field(&t, QUANT_ZERO_POINT, 4, 0);
		cf_set_field(&t, QUANT_DIMENSION, 4,
			  (uint32_t)tensor->quantized_dimension);
	}
	patch(w, field, write_table(w, &t, pos));
	if (n == 0)
		return;
	vector = write_vector(w, (size_t)n, 4, 4);
	for (int32_t i = 0; i < n; i++) {
		uint32_t bits;

		memcpy(&bits, &tensor->scales[i], sizeof(bits));
		put(w, vector + 4 + 4 * (size_t)i, bits, 4);
	}
	patch(w, pos[QUANT_SCALE], vector);
	vector = write_vector(w, (size_t)n, 8, 8);
	for (int32_t i = 0; i < n; i++)
		put(w, vector + 4 + 8 * (size_t)i,
		    (uint64_t)tensor->zero_points[i], 8);
	patch(w, pos[QUANT_ZERO_POINT], vector);
}

static void write_tensor(writer *w, size_t slot, int32_t index,
			 const cf_tensor_desc *tensor, uint32_t buffer)
{
	size_t pos[MAX_FIELDS];
	cf_table t = { 0 };
	char name[32];

	cf_set_field(&t, TENSOR_SHAPE, 4, 0);
	cf_set_field(&t, TENSOR_TYPE, 1, (uint32_t)tensor->type);
	cf_set_field(&t, TENSOR_BUFFER, 4, buffer);
	cf_set_field(&t, TENSOR_NAME, 4, 0);
	if (tensor->quantized)
		cf_set_field(&t, TENSOR_QUANTIZATION, 4, 0);
	if (tensor->is_variable)
		cf_set_field(&t, TENSOR_IS_VARIABLE, 1, 1);
	patch(w, slot, write_table(w, &t, pos));
	int32s_field(w, pos[TENSOR_SHAPE], tensor->dims, (size_t)tensor->rank);
	snprintf(name, sizeof(name), "t%d", (int)index);
	patch(w, pos[TENSOR_NAME],
	      write_string(w, tensor->name ? tensor->name : name));
	if (tensor->quantized)
		write_quantization(w, pos[TENSOR_QUANTIZATION], tensor);
}

static void write_operator(writer *w, size_t slot, const cf_model_desc *desc,
			   const cf_operator_desc *op,
			   const cf_intermediates *between)
{
	int32_t code = desc->opcodes[op->opcode_index].op;
	size_t pos[MAX_FIELDS], options_pos[MAX_FIELDS];
	cf_table t = { 0 }, options = { 0 };
	uint8_t type = 0;

	if (op->params != NULL)
		type = cf_options_table(code, op->params, &options);
	cf_set_field(&t, OPERATOR_OPCODE_INDEX, 4, (uint32_t)op->opcode_index);
	cf_set_field(&t, OPERATOR_INPUTS, 4, 0);
	cf_set_field(&t, OPERATOR_OUTPUTS, 4, 0);
	if (between->count > 0)
		cf_set_field(&t, OPERATOR_INTERMEDIATES, 4, 0);
	if (type != 0) {
		cf_set_field(&t, OPERATOR_BUILTIN_OPTIONS_TYPE, 1, type);
		cf_set_field(&t, OPERATOR_BUILTIN_OPTIONS, 4, 0);
	}
	/* custom_options_format left out: FLEXBUFFERS, the default. */
	if (op->custom_options_size > 0)
		cf_set_field(&t, OPERATOR_CUSTOM_OPTIONS, 4, 0);
	patch(w, slot, write_table(w, &t, pos));
	int32s_field(w, pos[OPERATOR_INPUTS], op->inputs,
		     (size_t)op->num_inputs);
	int32s_field(w, pos[OPERATOR_OUTPUTS], op->outputs,
		     (size_t)op->num_outputs);
	if (op->custom_options_size > 0) {
		size_t vector = write_vector(w, op->custom_options_size, 1, 4);

		if (!w->no_memory)
			memcpy(w->data + vector + 4, op->custom_options,
			       op->custom_options_size);
		patch(w, pos[OPERATOR_CUSTOM_OPTIONS], vector);
	}
	if (between->count > 0)
		int32s_field(w, pos[OPERATOR_INTERMEDIATES], between->tensors,
			     (size_t)between->count);
	if (type == 0)
		return;
	patch(w, pos[OPERATOR_BUILTIN_OPTIONS],
	      write_table(w, &options, options_pos));
	if (code == OPVER_OP_RESHAPE && options.num_ids > 0) {
		const opver_reshape_params *p = op->params;

		int32s_field(w, options_pos[RESHAPE_NEW_SHAPE], p->dims,
			     (size_t)p->num_dims);
	}
	if (code == OPVER_OP_SQUEEZE && options.num_ids > 0) {
		const opver_squeeze_params *p = op->params;

		int32s_field(w, options_pos[SQUEEZE_DIMS], p->dims,
			     (size_t)p->num_dims);
	}
}

static void write_subgraph(writer *w, size_t slot, const cf_model_desc *desc,
			   const cf_intermediates *intermediates)
{
	size_t pos[MAX_FIELDS], vector;
	cf_table t = { 0 };
	uint32_t buffer = 0;

	cf_set_field(&t, SUBGRAPH_TENSORS, 4, 0);
	cf_set_field(&t, SUBGRAPH_INPUTS, 4, 0);
	cf_set_field(&t, SUBGRAPH_OUTPUTS, 4, 0);
	cf_set_field(&t, SUBGRAPH_OPERATORS, 4, 0);
	cf_set_field(&t, SUBGRAPH_NAME, 4, 0);
	patch(w, slot, write_table(w, &t, pos));

	vector = write_vector(w, (size_t)desc->num_tensors, 4, 4);
	patch(w, pos[SUBGRAPH_TENSORS], vector);
	for (int32_t i = 0; i < desc->num_tensors; i++) {
		const cf_tensor_desc *tensor = &desc->tensors[i];

		/* Buffers are numbered in tensor order, after buffer 0. */
		write_tensor(w, vector + 4 + 4 * (size_t)i, i, tensor,
			     tensor->data != NULL ? ++buffer : 0);
	}
	int32s_field(w, pos[SUBGRAPH_INPUTS], desc->inputs,
		     (size_t)desc->num_inputs);
	int32s_field(w, pos[SUBGRAPH_OUTPUTS], desc->outputs,
		     (size_t)desc->num_outputs);
	vector = write_vector(w, (size_t)desc->num_operators, 4, 4);
	patch(w, pos[SUBGRAPH_OPERATORS], vector);
	for (int32_t i = 0; i < desc->num_operators; i++)
		write_operator(w, vector + 4 + 4 * (size_t)i, desc,
			       &desc->operators[i],
			       intermediates != NULL ? &intermediates[i] : &none);
	patch(w, pos[SUBGRAPH_NAME], write_string(w, "main"));
}

static void write_buffers(writer *w, size_t field, const cf_model_desc *desc)
{
	size_t count = 1, vector, slot;
	cf_table empty = { 0 };

	for (int32_t i = 0; i < desc->num_tensors; i++)
		count += desc->tensors[i].data != NULL;
	vector = write_vector(w, count, 4, 4);
	patch(w, field, vector);
	patch(w, vector + 4, write_table(w, &empty, NULL));
	slot = vector + 8;
	for (int32_t i = 0; i < desc->num_tensors; i++) {
		const cf_tensor_desc *tensor = &desc->tensors[i];
		size_t pos[MAX_FIELDS], data;
		cf_table t = { 0 };

		if (tensor->data == NULL)
			continue;
		cf_set_field(&t, BUFFER_DATA, 4, 0);
		patch(w, slot, write_table(w, &t, pos));
		slot += 4;
		data = write_vector(w, tensor->data_size, 1, DATA_ALIGNMENT);
		if (!w->no_memory)
			memcpy(w->data + data + 4, tensor->data,
			       tensor->data_size);
		patch(w, pos[BUFFER_DATA], data);
	}
}

bool cf_build_model(const cf_model_desc *desc, uint8_t **bytes, size_t *size,
		    char *error, size_t error_size)
{
	return cf_build_model_with_intermediates(desc, NULL, bytes, size,
						 error, error_size);
}

bool cf_build_model_with_intermediates(const cf_model_desc *desc,
				       const cf_intermediates *intermediates,
				       uint8_t **bytes, size_t *size,
				       char *error, size_t error_size)
{
	const checker c = { error, error_size };
	writer w = { 0 };
	size_t pos[MAX_FIELDS], vector;
	cf_table model = { 0 };

	*bytes = NULL;
	*size = 0;
	if (error_size > 0)
		error[0] = '\0';
	if (!check_model(&c, desc, intermediates))
		return false;

	/* The root offset, then the file identifier. */
	append(&w, 8);
	if (!w.no_memory)
		memcpy(w.data + 4, "TFL3", 4);
	cf_set_field(&model, MODEL_VERSION, 4, SCHEMA_VERSION);
	cf_set_field(&model, MODEL_OPERATOR_CODES, 4, 0);
	cf_set_field(&model, MODEL_SUBGRAPHS, 4, 0);
	cf_set_field(&model, MODEL_DESCRIPTION, 4, 0);
	cf_set_field(&model, MODEL_BUFFERS, 4, 0);
	patch(&w, 0, write_table(&w, &model, pos));

	vector = write_vector(&w, (size_t)desc->num_opcodes, 4, 4);
	patch(&w, pos[MODEL_OPERATOR_CODES], vector);
	for (int32_t i = 0; i < desc->num_opcodes; i++)
		write_operator_code(&w, vector + 4 + 4 * (size_t)i,
				    &desc->opcodes[i]);
	vector = write_vector(&w, 1, 4, 4);
	patch(&w, pos[MODEL_SUBGRAPHS], vector);
	write_subgraph(&w, vector + 4, desc, intermediates);
	patch(&w, pos[MODEL_DESCRIPTION],
	      write_string(&w, "opver-conformance case"));
	write_buffers(&w, pos[MODEL_BUFFERS], desc);

	if (w.no_memory) {
		free(w.data);
		return refuse(&c, "out of memory writing the model");
	}
	*bytes = w.data;
	*size = w.size;
	return true;
}
