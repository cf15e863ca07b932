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
#include "schema/opver_ids.h"

/* The only Model.version there is. */
#define SCHEMA_VERSION 3
/* Buffer.data is declared force_align: 16. */
#define DATA_ALIGNMENT 16
/* The most fields any table written here has. */
#define MAX_FIELDS 8

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

/* A table about to be written: per field id, its width (0: absent) and
 * value; an offset field is 4 bytes wide with its value patched later. */
typedef struct table {
	uint8_t width[MAX_FIELDS];
	uint32_t value[MAX_FIELDS];
	unsigned num_ids;       /* highest id present + 1 */
} table;

static void set_field(table *t, unsigned id, unsigned width, uint32_t value)
{
	t->width[id] = (uint8_t)width;
	t->value[id] = value;
	if (id + 1 > t->num_ids)
		t->num_ids = id + 1;
}

/*
 * Writes the vtable, then the table: its soffset, the 4-byte fields, then
 * the 1-byte ones, so that none needs padding.  field_pos[id] receives the
 * position of each field, for patching offsets.  Returns the table's
 * position.
 */
static size_t write_table(writer *w, const table *t, size_t *field_pos)
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

/* Whether the builder can write options for `op`. */
static bool has_options(int32_t op)
{
	switch (op) {
	case OPVER_OP_CONV_2D:
	case OPVER_OP_DEPTHWISE_CONV_2D:
	case OPVER_OP_AVERAGE_POOL_2D:
	case OPVER_OP_MAX_POOL_2D:
	case OPVER_OP_L2_POOL_2D:
	case OPVER_OP_FULLY_CONNECTED:
	case OPVER_OP_SOFTMAX:
	case OPVER_OP_ADD:
	case OPVER_OP_MUL:
	case OPVER_OP_RESHAPE:
	case OPVER_OP_QUANTIZE:
	case OPVER_OP_DEQUANTIZE:
	case OPVER_OP_SUB:
	case OPVER_OP_DIV:
	case OPVER_OP_MAXIMUM:
	case OPVER_OP_MINIMUM:
	case OPVER_OP_SQUARED_DIFFERENCE:
	case OPVER_OP_LEAKY_RELU:
	case OPVER_OP_GELU:
	case OPVER_OP_MEAN:
	case OPVER_OP_SUM:
	case OPVER_OP_REDUCE_MAX:
	case OPVER_OP_REDUCE_MIN:
	case OPVER_OP_REDUCE_PROD:
	case OPVER_OP_REDUCE_ANY:
	case OPVER_OP_REDUCE_ALL:
	case OPVER_OP_ARG_MAX:
	case OPVER_OP_ARG_MIN:
	case OPVER_OP_GATHER:
	case OPVER_OP_SHAPE:
	case OPVER_OP_SPACE_TO_DEPTH:
	case OPVER_OP_DEPTH_TO_SPACE:
	case OPVER_OP_CONCATENATION:
	case OPVER_OP_PAD:
	case OPVER_OP_PADV2:
	case OPVER_OP_MIRROR_PAD:
	case OPVER_OP_SPLIT:
	case OPVER_OP_SPLIT_V:
	case OPVER_OP_PACK:
	case OPVER_OP_UNPACK:
	case OPVER_OP_SQUEEZE:
	case OPVER_OP_EXPAND_DIMS:
	case OPVER_OP_TRANSPOSE:
	case OPVER_OP_SLICE:
	case OPVER_OP_STRIDED_SLICE:
	case OPVER_OP_RESIZE_BILINEAR:
	case OPVER_OP_RESIZE_NEAREST_NEIGHBOR:
	case OPVER_OP_TRANSPOSE_CONV:
	case OPVER_OP_L2_NORMALIZATION:
	case OPVER_OP_BATCH_MATMUL:
	case OPVER_OP_CUMSUM:
	case OPVER_OP_SVDF:
	case OPVER_OP_ONE_HOT:
	case OPVER_OP_LOCAL_RESPONSE_NORMALIZATION:
		return true;
	default:
		return false;
	}
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

static bool check_operator(const checker *c, const cf_model_desc *desc,
			   int32_t index)
{
	const cf_operator_desc *op = &desc->operators[index];
	int32_t code;

	if (op->opcode_index < 0 || op->opcode_index >= desc->num_opcodes)
		return refuse(c, "operator %d: operator code %d is outside 0..%d",
			      index, op->opcode_index, desc->num_opcodes - 1);
	if (!check_array(c, "operator inputs", op->inputs, op->num_inputs) ||
	    !check_array(c, "operator outputs", op->outputs, op->num_outputs))
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
	if (op->params != NULL && !has_options(code))
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

static bool check_model(const checker *c, const cf_model_desc *desc)
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

		if (code->op == OPVER_OP_CUSTOM ||
		    strcmp(opver_op_name(code->op), "UNKNOWN") == 0)
			return refuse(c, "operator code %d: %d is not a builtin op",
				      i, code->op);
		if (code->version < 1)
			return refuse(c, "operator code %d: version %d", i,
				      code->version);
	}
	for (int32_t i = 0; i < desc->num_operators; i++)
		if (!check_operator(c, desc, i))
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
	table t = { 0 };

	/* The deprecated byte holds codes up to 127; larger ones say 127
	 * (PLACEHOLDER_FOR_GREATER_OP_CODES) and live in builtin_code. */
	set_field(&t, CODE_DEPRECATED_BUILTIN_CODE, 1,
		  (uint32_t)(code->op < 127 ? code->op : 127));
	set_field(&t, CODE_VERSION, 4, (uint32_t)code->version);
	set_field(&t, CODE_BUILTIN_CODE, 4, (uint32_t)code->op);
	patch(w, slot, write_table(w, &t, NULL));
}

static void write_quantization(writer *w, size_t field,
			       const cf_tensor_desc *tensor)
{
	size_t pos[MAX_FIELDS], vector;
	table t = { 0 };
	int32_t n = tensor->num_scales;

	if (n > 0) {
		set_field(&t, QUANT_SCALE, 4, 0);
		set_field(&t, QUANT_ZERO_POINT, 4, 0);
		set_field(&t, QUANT_DIMENSION, 4,
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
	table t = { 0 };
	char name[32];

	set_field(&t, TENSOR_SHAPE, 4, 0);
	set_field(&t, TENSOR_TYPE, 1, (uint32_t)tensor->type);
	set_field(&t, TENSOR_BUFFER, 4, buffer);
	set_field(&t, TENSOR_NAME, 4, 0);
	if (tensor->quantized)
		set_field(&t, TENSOR_QUANTIZATION, 4, 0);
	if (tensor->is_variable)
		set_field(&t, TENSOR_IS_VARIABLE, 1, 1);
	patch(w, slot, write_table(w, &t, pos));
	int32s_field(w, pos[TENSOR_SHAPE], tensor->dims, (size_t)tensor->rank);
	snprintf(name, sizeof(name), "t%d", (int)index);
	patch(w, pos[TENSOR_NAME],
	      write_string(w, tensor->name ? tensor->name : name));
	if (tensor->quantized)
		write_quantization(w, pos[TENSOR_QUANTIZATION], tensor);
}

/*
 * Fills `t` with the options table of `op` from its parameter struct and
 * returns the union type code.  RESHAPE's new_shape and SQUEEZE's
 * squeeze_dims are vectors, written by the caller.
 */
static uint8_t options_table(int32_t op, const void *params, table *t)
{
	switch (op) {
	case OPVER_OP_CONV_2D: {
		const opver_conv_params *p = params;

		set_field(t, CONV_PADDING, 1, (uint32_t)p->padding);
		set_field(t, CONV_STRIDE_W, 4, (uint32_t)p->stride_width);
		set_field(t, CONV_STRIDE_H, 4, (uint32_t)p->stride_height);
		set_field(t, CONV_ACTIVATION, 1, (uint32_t)p->activation);
		set_field(t, CONV_DILATION_W, 4, (uint32_t)p->dilation_width);
		set_field(t, CONV_DILATION_H, 4, (uint32_t)p->dilation_height);
		set_field(t, CONV_QUANTIZED_BIAS_TYPE, 1,
			  (uint32_t)p->quantized_bias_type);
		return OPTIONS_CONV_2D;
	}
	case OPVER_OP_DEPTHWISE_CONV_2D: {
		const opver_depthwise_conv_params *p = params;

		set_field(t, DW_PADDING, 1, (uint32_t)p->padding);
		set_field(t, DW_STRIDE_W, 4, (uint32_t)p->stride_width);
		set_field(t, DW_STRIDE_H, 4, (uint32_t)p->stride_height);
		set_field(t, DW_DEPTH_MULTIPLIER, 4,
			  (uint32_t)p->depth_multiplier);
		set_field(t, DW_ACTIVATION, 1, (uint32_t)p->activation);
		set_field(t, DW_DILATION_W, 4, (uint32_t)p->dilation_width);
		set_field(t, DW_DILATION_H, 4, (uint32_t)p->dilation_height);
		return OPTIONS_DEPTHWISE_CONV_2D;
	}
	case OPVER_OP_AVERAGE_POOL_2D:
	case OPVER_OP_MAX_POOL_2D:
	case OPVER_OP_L2_POOL_2D: {
		const opver_pool_params *p = params;

		set_field(t, POOL_PADDING, 1, (uint32_t)p->padding);
		set_field(t, POOL_STRIDE_W, 4, (uint32_t)p->stride_width);
		set_field(t, POOL_STRIDE_H, 4, (uint32_t)p->stride_height);
		set_field(t, POOL_FILTER_W, 4, (uint32_t)p->filter_width);
		set_field(t, POOL_FILTER_H, 4, (uint32_t)p->filter_height);
		set_field(t, POOL_ACTIVATION, 1, (uint32_t)p->activation);
		return OPTIONS_POOL_2D;
	}
	case OPVER_OP_FULLY_CONNECTED: {
		const opver_fully_connected_params *p = params;

		set_field(t, FC_ACTIVATION, 1, (uint32_t)p->activation);
		set_field(t, FC_WEIGHTS_FORMAT, 1, (uint32_t)p->weights_format);
		set_field(t, FC_KEEP_NUM_DIMS, 1, p->keep_num_dims);
		set_field(t, FC_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  p->asymmetric_quantize_inputs);
		set_field(t, FC_QUANTIZED_BIAS_TYPE, 1,
			  (uint32_t)p->quantized_bias_type);
		return OPTIONS_FULLY_CONNECTED;
	}
	case OPVER_OP_SOFTMAX: {
		const opver_softmax_params *p = params;
		uint32_t bits;

		memcpy(&bits, &p->beta, sizeof(bits));
		set_field(t, SOFTMAX_BETA, 4, bits);
		return OPTIONS_SOFTMAX;
	}
	case OPVER_OP_ADD: {
		const opver_add_params *p = params;

		set_field(t, ADD_ACTIVATION, 1, (uint32_t)p->activation);
		set_field(t, ADD_POT_SCALE_INT16, 1, p->pot_scale_int16);
		return OPTIONS_ADD;
	}
	case OPVER_OP_MUL: {
		const opver_mul_params *p = params;

		set_field(t, MUL_ACTIVATION, 1, (uint32_t)p->activation);
		return OPTIONS_MUL;
	}
	case OPVER_OP_RESHAPE: {
		const opver_reshape_params *p = params;

		if (p->num_dims > 0)
			set_field(t, RESHAPE_NEW_SHAPE, 4, 0);
		return OPTIONS_RESHAPE;
	}
	case OPVER_OP_QUANTIZE:
		return OPTIONS_QUANTIZE;
	case OPVER_OP_SUB: {
		const opver_sub_params *p = params;

		set_field(t, SUB_ACTIVATION, 1, (uint32_t)p->activation);
		set_field(t, SUB_POT_SCALE_INT16, 1, p->pot_scale_int16);
		return OPTIONS_SUB;
	}
	case OPVER_OP_DIV: {
		const opver_div_params *p = params;

		set_field(t, DIV_ACTIVATION, 1, (uint32_t)p->activation);
		return OPTIONS_DIV;
	}
	case OPVER_OP_MAXIMUM:
	case OPVER_OP_MINIMUM:
		return OPTIONS_MAXIMUM_MINIMUM;
	case OPVER_OP_SQUARED_DIFFERENCE:
		return OPTIONS_SQUARED_DIFFERENCE;
	case OPVER_OP_LEAKY_RELU: {
		const opver_leaky_relu_params *p = params;
		uint32_t bits;

		memcpy(&bits, &p->alpha, sizeof(bits));
		set_field(t, LEAKY_RELU_ALPHA, 4, bits);
		return OPTIONS_LEAKY_RELU;
	}
	case OPVER_OP_GELU: {
		const opver_gelu_params *p = params;

		set_field(t, GELU_APPROXIMATE, 1, p->approximate != 0);
		return OPTIONS_GELU;
	}
	case OPVER_OP_MEAN:
	case OPVER_OP_SUM:
	case OPVER_OP_REDUCE_MAX:
	case OPVER_OP_REDUCE_MIN:
	case OPVER_OP_REDUCE_PROD:
	case OPVER_OP_REDUCE_ANY:
	case OPVER_OP_REDUCE_ALL: {
		const opver_reducer_params *p = params;

		set_field(t, REDUCER_KEEP_DIMS, 1, p->keep_dims);
		return OPTIONS_REDUCER;
	}
	case OPVER_OP_ARG_MAX:
	case OPVER_OP_ARG_MIN: {
		const opver_arg_min_max_params *p = params;

		/* The two tables have the field at the same id. */
		set_field(t, ARG_MAX_OUTPUT_TYPE, 1, (uint32_t)p->output_type);
		return op == OPVER_OP_ARG_MAX ? OPTIONS_ARG_MAX
					      : OPTIONS_ARG_MIN;
	}
	case OPVER_OP_GATHER: {
		const opver_gather_params *p = params;

		set_field(t, GATHER_AXIS, 4, (uint32_t)p->axis);
		set_field(t, GATHER_BATCH_DIMS, 4, (uint32_t)p->batch_dims);
		return OPTIONS_GATHER;
	}
	case OPVER_OP_SHAPE: {
		const opver_shape_params *p = params;

		set_field(t, SHAPE_OUT_TYPE, 1, (uint32_t)p->out_type);
		return OPTIONS_SHAPE;
	}
	case OPVER_OP_SPACE_TO_DEPTH: {
		const opver_space_depth_params *p = params;

		set_field(t, SPACE_TO_DEPTH_BLOCK_SIZE, 4,
			  (uint32_t)p->block_size);
		return OPTIONS_SPACE_TO_DEPTH;
	}
	case OPVER_OP_DEPTH_TO_SPACE: {
		const opver_space_depth_params *p = params;

		set_field(t, DEPTH_TO_SPACE_BLOCK_SIZE, 4,
			  (uint32_t)p->block_size);
		return OPTIONS_DEPTH_TO_SPACE;
	}
	case OPVER_OP_CONCATENATION: {
		const opver_concatenation_params *p = params;

		set_field(t, CONCATENATION_AXIS, 4, (uint32_t)p->axis);
		set_field(t, CONCATENATION_ACTIVATION, 1,
			  (uint32_t)p->activation);
		return OPTIONS_CONCATENATION;
	}
	case OPVER_OP_PAD:
		return OPTIONS_PAD;
	case OPVER_OP_PADV2:
		return OPTIONS_PADV2;
	case OPVER_OP_MIRROR_PAD: {
		const opver_mirror_pad_params *p = params;

		set_field(t, MIRROR_PAD_MODE, 1, (uint32_t)p->mode);
		return OPTIONS_MIRROR_PAD;
	}
	case OPVER_OP_SPLIT: {
		const opver_split_params *p = params;

		set_field(t, SPLIT_NUM_SPLITS, 4, (uint32_t)p->num_splits);
		return OPTIONS_SPLIT;
	}
	case OPVER_OP_SPLIT_V: {
		const opver_split_params *p = params;

		set_field(t, SPLIT_V_NUM_SPLITS, 4, (uint32_t)p->num_splits);
		return OPTIONS_SPLIT_V;
	}
	case OPVER_OP_PACK: {
		const opver_pack_params *p = params;

		set_field(t, PACK_VALUES_COUNT, 4, (uint32_t)p->values_count);
		set_field(t, PACK_AXIS, 4, (uint32_t)p->axis);
		return OPTIONS_PACK;
	}
	case OPVER_OP_UNPACK: {
		const opver_unpack_params *p = params;

		set_field(t, UNPACK_NUM, 4, (uint32_t)p->num);
		set_field(t, UNPACK_AXIS, 4, (uint32_t)p->axis);
		return OPTIONS_UNPACK;
	}
	case OPVER_OP_SQUEEZE: {
		const opver_squeeze_params *p = params;

		if (p->num_dims > 0)
			set_field(t, SQUEEZE_DIMS, 4, 0);
		return OPTIONS_SQUEEZE;
	}
	case OPVER_OP_EXPAND_DIMS:
		return OPTIONS_EXPAND_DIMS;
	case OPVER_OP_TRANSPOSE:
		return OPTIONS_TRANSPOSE;
	case OPVER_OP_SLICE:
		return OPTIONS_SLICE;
	case OPVER_OP_STRIDED_SLICE: {
		const opver_strided_slice_params *p = params;

		set_field(t, STRIDED_SLICE_BEGIN_MASK, 4,
			  (uint32_t)p->begin_mask);
		set_field(t, STRIDED_SLICE_END_MASK, 4, (uint32_t)p->end_mask);
		set_field(t, STRIDED_SLICE_ELLIPSIS_MASK, 4,
			  (uint32_t)p->ellipsis_mask);
		set_field(t, STRIDED_SLICE_NEW_AXIS_MASK, 4,
			  (uint32_t)p->new_axis_mask);
		set_field(t, STRIDED_SLICE_SHRINK_AXIS_MASK, 4,
			  (uint32_t)p->shrink_axis_mask);
		set_field(t, STRIDED_SLICE_OFFSET, 1, p->offset != 0);
		return OPTIONS_STRIDED_SLICE;
	}
	case OPVER_OP_RESIZE_BILINEAR: {
		const opver_resize_bilinear_params *p = params;

		set_field(t, RESIZE_BILINEAR_ALIGN_CORNERS, 1,
			  p->align_corners);
		set_field(t, RESIZE_BILINEAR_HALF_PIXEL_CENTERS, 1,
			  p->half_pixel_centers);
		return OPTIONS_RESIZE_BILINEAR;
	}
	case OPVER_OP_RESIZE_NEAREST_NEIGHBOR: {
		const opver_resize_nearest_neighbor_params *p = params;

		set_field(t, RESIZE_NN_ALIGN_CORNERS, 1, p->align_corners);
		set_field(t, RESIZE_NN_HALF_PIXEL_CENTERS, 1,
			  p->half_pixel_centers);
		return OPTIONS_RESIZE_NEAREST_NEIGHBOR;
	}
	case OPVER_OP_TRANSPOSE_CONV: {
		const opver_transpose_conv_params *p = params;

		set_field(t, TCONV_PADDING, 1, (uint32_t)p->padding);
		set_field(t, TCONV_STRIDE_W, 4, (uint32_t)p->stride_width);
		set_field(t, TCONV_STRIDE_H, 4, (uint32_t)p->stride_height);
		set_field(t, TCONV_ACTIVATION, 1, (uint32_t)p->activation);
		set_field(t, TCONV_QUANTIZED_BIAS_TYPE, 1,
			  (uint32_t)p->quantized_bias_type);
		return OPTIONS_TRANSPOSE_CONV;
	}
	case OPVER_OP_L2_NORMALIZATION: {
		const opver_l2_norm_params *p = params;

		set_field(t, L2_NORM_ACTIVATION, 1, (uint32_t)p->activation);
		return OPTIONS_L2_NORM;
	}
	case OPVER_OP_BATCH_MATMUL: {
		const opver_batch_matmul_params *p = params;

		set_field(t, BATCH_MATMUL_ADJ_X, 1, p->adj_x);
		set_field(t, BATCH_MATMUL_ADJ_Y, 1, p->adj_y);
		set_field(t, BATCH_MATMUL_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  p->asymmetric_quantize_inputs);
		return OPTIONS_BATCH_MATMUL;
	}
	case OPVER_OP_CUMSUM: {
		const opver_cumsum_params *p = params;

		set_field(t, CUMSUM_EXCLUSIVE, 1, p->exclusive);
		set_field(t, CUMSUM_REVERSE, 1, p->reverse);
		return OPTIONS_CUMSUM;
	}
	case OPVER_OP_SVDF: {
		const opver_svdf_params *p = params;

		set_field(t, SVDF_RANK, 4, (uint32_t)p->rank);
		set_field(t, SVDF_ACTIVATION, 1, (uint32_t)p->activation);
		set_field(t, SVDF_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  p->asymmetric_quantize_inputs);
		return OPTIONS_SVDF;
	}
	case OPVER_OP_ONE_HOT: {
		const opver_one_hot_params *p = params;

		set_field(t, ONE_HOT_AXIS, 4, (uint32_t)p->axis);
		return OPTIONS_ONE_HOT;
	}
	case OPVER_OP_LOCAL_RESPONSE_NORMALIZATION: {
		const opver_local_response_norm_params *p = params;
		uint32_t bits;

		set_field(t, LRN_RADIUS, 4, (uint32_t)p->radius);
		memcpy(&bits, &p->bias, sizeof(bits));
		set_field(t, LRN_BIAS, 4, bits);
		memcpy(&bits, &p->alpha, sizeof(bits));
		set_field(t, LRN_ALPHA, 4, bits);
		memcpy(&bits, &p->beta, sizeof(bits));
		set_field(t, LRN_BETA, 4, bits);
		return OPTIONS_LOCAL_RESPONSE_NORM;
	}
	default: /* DEQUANTIZE: check_operator() let no other op through */
		return OPTIONS_DEQUANTIZE;
	}
}

static void write_operator(writer *w, size_t slot, const cf_model_desc *desc,
			   const cf_operator_desc *op)
{
	int32_t code = desc->opcodes[op->opcode_index].op;
	size_t pos[MAX_FIELDS], options_pos[MAX_FIELDS];
	table t = { 0 }, options = { 0 };
	uint8_t type = 0;

	if (op->params != NULL)
		type = options_table(code, op->params, &options);
	set_field(&t, OPERATOR_OPCODE_INDEX, 4, (uint32_t)op->opcode_index);
	set_field(&t, OPERATOR_INPUTS, 4, 0);
	set_field(&t, OPERATOR_OUTPUTS, 4, 0);
	if (type != 0) {
		set_field(&t, OPERATOR_BUILTIN_OPTIONS_TYPE, 1, type);
		set_field(&t, OPERATOR_BUILTIN_OPTIONS, 4, 0);
	}
	patch(w, slot, write_table(w, &t, pos));
	int32s_field(w, pos[OPERATOR_INPUTS], op->inputs,
		     (size_t)op->num_inputs);
	int32s_field(w, pos[OPERATOR_OUTPUTS], op->outputs,
		     (size_t)op->num_outputs);
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

static void write_subgraph(writer *w, size_t slot, const cf_model_desc *desc)
{
	size_t pos[MAX_FIELDS], vector;
	table t = { 0 };
	uint32_t buffer = 0;

	set_field(&t, SUBGRAPH_TENSORS, 4, 0);
	set_field(&t, SUBGRAPH_INPUTS, 4, 0);
	set_field(&t, SUBGRAPH_OUTPUTS, 4, 0);
	set_field(&t, SUBGRAPH_OPERATORS, 4, 0);
	set_field(&t, SUBGRAPH_NAME, 4, 0);
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
			       &desc->operators[i]);
	patch(w, pos[SUBGRAPH_NAME], write_string(w, "main"));
}

static void write_buffers(writer *w, size_t field, const cf_model_desc *desc)
{
	size_t count = 1, vector, slot;
	table empty = { 0 };

	for (int32_t i = 0; i < desc->num_tensors; i++)
		count += desc->tensors[i].data != NULL;
	vector = write_vector(w, count, 4, 4);
	patch(w, field, vector);
	patch(w, vector + 4, write_table(w, &empty, NULL));
	slot = vector + 8;
	for (int32_t i = 0; i < desc->num_tensors; i++) {
		const cf_tensor_desc *tensor = &desc->tensors[i];
		size_t pos[MAX_FIELDS], data;
		table t = { 0 };

		if (tensor->data == NULL)
			continue;
		set_field(&t, BUFFER_DATA, 4, 0);
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
	const checker c = { error, error_size };
	writer w = { 0 };
	size_t pos[MAX_FIELDS], vector;
	table model = { 0 };

	*bytes = NULL;
	*size = 0;
	if (error_size > 0)
		error[0] = '\0';
	if (!check_model(&c, desc))
		return false;

	/* The root offset, then the file identifier. */
	append(&w, 8);
	if (!w.no_memory)
		memcpy(w.data + 4, "TFL3", 4);
	set_field(&model, MODEL_VERSION, 4, SCHEMA_VERSION);
	set_field(&model, MODEL_OPERATOR_CODES, 4, 0);
	set_field(&model, MODEL_SUBGRAPHS, 4, 0);
	set_field(&model, MODEL_DESCRIPTION, 4, 0);
	set_field(&model, MODEL_BUFFERS, 4, 0);
	patch(&w, 0, write_table(&w, &model, pos));

	vector = write_vector(&w, (size_t)desc->num_opcodes, 4, 4);
	patch(&w, pos[MODEL_OPERATOR_CODES], vector);
	for (int32_t i = 0; i < desc->num_opcodes; i++)
		write_operator_code(&w, vector + 4 + 4 * (size_t)i,
				    &desc->opcodes[i]);
	vector = write_vector(&w, 1, 4, 4);
	patch(&w, pos[MODEL_SUBGRAPHS], vector);
	write_subgraph(&w, vector + 4, desc);
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
