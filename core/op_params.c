/*
 * op_params.c - the per-op table behind opver__op_params_decode(): for each
 * op with a parameter struct, the BuiltinOptions union member it takes and
 * the function that copies the options table into the struct, checking
 * every enum against the values ops.h knows.  Defaults are those of the
 * schema, so a missing field or table keeps the oldest op version's
 * behaviour.
 */
#include <stddef.h>
#include <stdlib.h>

#include "op_params.h"
#include "schema/opver_ids.h"

/* What a decode function reads from and reports to. */
typedef struct options_reader {
	opver__fb *fb;
	const opver__fb_table *table;   /* pos 0: absent, every field default */
	const char *where;
	const opver__reporter *reporter;
} options_reader;

/* Fills `params` (zeroed, the entry's size); false after reporting. */
typedef bool (*decode_fn)(options_reader *r, void *params);

/* Reads a byte enum field and checks it lies in 0 .. max. */
static bool read_enum(options_reader *r, unsigned id, const char *field,
		      int8_t max, int32_t *out)
{
	int8_t value;

	if (!opver__fb_int8(r->fb, r->table, id, field, 0, &value)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	if (value < 0 || value > max) {
		opver__error(r->reporter,
			     "%s: %s is %d; valid values are 0 to %d",
			     r->where, field, value, max);
		return false;
	}
	*out = value;
	return true;
}

/* A bool field, stored as the 0 or 1 of the int32_t parameter fields. */
static bool read_bool(options_reader *r, unsigned id, const char *field,
		      bool def, int32_t *out)
{
	bool value;

	if (!opver__fb_bool(r->fb, r->table, id, field, def, &value)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	*out = value;
	return true;
}

static bool read_int32(options_reader *r, unsigned id, const char *field,
		       int32_t def, int32_t *out)
{
	if (!opver__fb_int32(r->fb, r->table, id, field, def, out)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	return true;
}

static bool read_activation(options_reader *r, unsigned id, int32_t *out)
{
	return read_enum(r, id, "fused_activation_function",
			 OPVER_ACTIVATION_SIGN_BIT, out);
}

static bool read_padding(options_reader *r, unsigned id, int32_t *out)
{
	return read_enum(r, id, "padding", OPVER_PADDING_VALID, out);
}

/* A TensorType field such as quantized_bias_type. */
static bool read_tensor_type(options_reader *r, unsigned id,
			     const char *field, int32_t *out)
{
	return read_enum(r, id, field, OPVER_TYPE_COUNT - 1, out);
}

static bool decode_fully_connected(options_reader *r, void *params)
{
	opver_fully_connected_params *p = params;

	return read_activation(r, FC_ACTIVATION, &p->activation) &&
	       read_enum(r, FC_WEIGHTS_FORMAT, "weights_format",
			 OPVER_FC_WEIGHTS_SHUFFLED4x16INT8, &p->weights_format) &&
	       read_bool(r, FC_KEEP_NUM_DIMS, "keep_num_dims", false,
			 &p->keep_num_dims) &&
	       read_bool(r, FC_ASYMMETRIC_QUANTIZE_INPUTS,
			 "asymmetric_quantize_inputs", false,
			 &p->asymmetric_quantize_inputs) &&
	       read_tensor_type(r, FC_QUANTIZED_BIAS_TYPE,
				"quantized_bias_type", &p->quantized_bias_type);
}

static bool decode_conv(options_reader *r, void *params)
{
	opver_conv_params *p = params;

	return read_padding(r, CONV_PADDING, &p->padding) &&
	       read_int32(r, CONV_STRIDE_W, "stride_w", 0, &p->stride_width) &&
	       read_int32(r, CONV_STRIDE_H, "stride_h", 0, &p->stride_height) &&
	       read_activation(r, CONV_ACTIVATION, &p->activation) &&
	       read_int32(r, CONV_DILATION_W, "dilation_w_factor", 1,
			  &p->dilation_width) &&
	       read_int32(r, CONV_DILATION_H, "dilation_h_factor", 1,
			  &p->dilation_height) &&
	       read_tensor_type(r, CONV_QUANTIZED_BIAS_TYPE,
				"quantized_bias_type",
				&p->quantized_bias_type);
}

static bool decode_depthwise_conv(options_reader *r, void *params)
{
	opver_depthwise_conv_params *p = params;

	return read_padding(r, DW_PADDING, &p->padding) &&
	       read_int32(r, DW_STRIDE_W, "stride_w", 0, &p->stride_width) &&
	       read_int32(r, DW_STRIDE_H, "stride_h", 0, &p->stride_height) &&
	       read_int32(r, DW_DEPTH_MULTIPLIER, "depth_multiplier", 0,
			  &p->depth_multiplier) &&
	       read_activation(r, DW_ACTIVATION, &p->activation) &&
	       read_int32(r, DW_DILATION_W, "dilation_w_factor", 1,
			  &p->dilation_width) &&
	       read_int32(r, DW_DILATION_H, "dilation_h_factor", 1,
			  &p->dilation_height);
}

static bool decode_pool(options_reader *r, void *params)
{
	opver_pool_params *p = params;

	return read_padding(r, POOL_PADDING, &p->padding) &&
	       read_int32(r, POOL_STRIDE_W, "stride_w", 0, &p->stride_width) &&
	       read_int32(r, POOL_STRIDE_H, "stride_h", 0, &p->stride_height) &&
	       read_int32(r, POOL_FILTER_W, "filter_width", 0,
			  &p->filter_width) &&
	       read_int32(r, POOL_FILTER_H, "filter_height", 0,
			  &p->filter_height) &&
	       read_activation(r, POOL_ACTIVATION, &p->activation);
}

static bool decode_softmax(options_reader *r, void *params)
{
	opver_softmax_params *p = params;

	if (!opver__fb_float(r->fb, r->table, SOFTMAX_BETA, "beta", 0.0f,
			     &p->beta)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	return true;
}

static bool decode_add(options_reader *r, void *params)
{
	opver_add_params *p = params;

	return read_activation(r, ADD_ACTIVATION, &p->activation) &&
	       read_bool(r, ADD_POT_SCALE_INT16, "pot_scale_int16", true,
			 &p->pot_scale_int16);
}

static bool decode_mul(options_reader *r, void *params)
{
	opver_mul_params *p = params;

	return read_activation(r, MUL_ACTIVATION, &p->activation);
}

/* A vector of at most `max` ints (RESHAPE's new_shape, SQUEEZE's
 * squeeze_dims) into dims, its length into *count. */
static bool read_dims(options_reader *r, unsigned id, const char *field,
		      uint32_t max, int32_t *count, int32_t *dims)
{
	opver__fb_vector v;

	if (!opver__fb_vector_field(r->fb, r->table, id, field, 4, &v) ||
	    (v.length <= max &&
	     !opver__fb_vector_int32(r->fb, &v, field, dims))) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	if (v.length > max) {
		opver__error(r->reporter,
			     "%s: %s has %u entries; at most %u are supported",
			     r->where, field, v.length, max);
		return false;
	}
	*count = (int32_t)v.length;
	return true;
}

static bool decode_reshape(options_reader *r, void *params)
{
	opver_reshape_params *p = params;

	return read_dims(r, RESHAPE_NEW_SHAPE, "new_shape",
			 OPVER_RESHAPE_MAX_DIMS, &p->num_dims, p->dims);
}

static bool decode_squeeze(options_reader *r, void *params)
{
	opver_squeeze_params *p = params;

	return read_dims(r, SQUEEZE_DIMS, "squeeze_dims",
			 OPVER_SQUEEZE_MAX_DIMS, &p->num_dims, p->dims);
}

/*
 * Options tables of int32 fields and byte enums (bools: 0 to 1), all
 * defaulting to 0, are rows of data rather than code (libopver's .text
 * budget): one row per field, read by read_fields().
 */
typedef struct field_row {
	uint8_t id;
	uint8_t offset;   /* of the int32_t field in the struct */
	int8_t max;       /* byte enum: 0 .. max; -1: an int field */
	const char *name;
} field_row;

#define INT_FIELD(type, member, id, name) \
	{ id, offsetof(type, member), -1, name }
#define BYTE_FIELD(type, member, id, max, name) \
	{ id, offsetof(type, member), max, name }

static const field_row concatenation_fields[] = {
	INT_FIELD(opver_concatenation_params, axis, CONCATENATION_AXIS, "axis"),
	BYTE_FIELD(opver_concatenation_params, activation,
		   CONCATENATION_ACTIVATION, OPVER_ACTIVATION_SIGN_BIT,
		   "fused_activation_function"),
};
static const field_row mirror_pad_fields[] = {
	BYTE_FIELD(opver_mirror_pad_params, mode, MIRROR_PAD_MODE,
		   OPVER_MIRROR_PAD_SYMMETRIC, "mode"),
};
static const field_row split_fields[] = {
	INT_FIELD(opver_split_params, num_splits, SPLIT_NUM_SPLITS,
		  "num_splits"),
};
static const field_row split_v_fields[] = {
	INT_FIELD(opver_split_params, num_splits, SPLIT_V_NUM_SPLITS,
		  "num_splits"),
};
static const field_row pack_fields[] = {
	INT_FIELD(opver_pack_params, values_count, PACK_VALUES_COUNT,
		  "values_count"),
	INT_FIELD(opver_pack_params, axis, PACK_AXIS, "axis"),
};
static const field_row unpack_fields[] = {
	INT_FIELD(opver_unpack_params, num, UNPACK_NUM, "num"),
	INT_FIELD(opver_unpack_params, axis, UNPACK_AXIS, "axis"),
};
static const field_row strided_slice_fields[] = {
	INT_FIELD(opver_strided_slice_params, begin_mask,
		  STRIDED_SLICE_BEGIN_MASK, "begin_mask"),
	INT_FIELD(opver_strided_slice_params, end_mask,
		  STRIDED_SLICE_END_MASK, "end_mask"),
	INT_FIELD(opver_strided_slice_params, ellipsis_mask,
		  STRIDED_SLICE_ELLIPSIS_MASK, "ellipsis_mask"),
	INT_FIELD(opver_strided_slice_params, new_axis_mask,
		  STRIDED_SLICE_NEW_AXIS_MASK, "new_axis_mask"),
	INT_FIELD(opver_strided_slice_params, shrink_axis_mask,
		  STRIDED_SLICE_SHRINK_AXIS_MASK, "shrink_axis_mask"),
	BYTE_FIELD(opver_strided_slice_params, offset, STRIDED_SLICE_OFFSET,
		   1, "offset"),
};

static bool read_fields(options_reader *r, void *params,
			const field_row *rows, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		int32_t *field = (int32_t *)((char *)params + rows[i].offset);

		if (!(rows[i].max < 0
			      ? read_int32(r, rows[i].id, rows[i].name, 0, field)
			      : read_enum(r, rows[i].id, rows[i].name,
					  rows[i].max, field)))
			return false;
	}
	return true;
}

/* Ops whose options table carries nothing: the struct-less entries below
 * still check that a given table is of the right union type. */
static bool decode_nothing(options_reader *r, void *params)
{
	(void)r;
	(void)params;
	return true;
}

/*
 * Ops with options.  options_type is the op's member of the BuiltinOptions
 * union (its type code, schema/opver_ids.h); size 0 means the op has no
 * parameter struct.
 */
#define FIELDS(rows) rows, sizeof(rows) / sizeof(rows[0])
static const struct op_params_entry {
	int32_t op;
	uint8_t options_type;
	const char *options_name;
	size_t size;
	decode_fn decode;      /* NULL: the rows of `fields` */
	const field_row *fields;
	size_t num_fields;
} entries[] = {
	{ OPVER_OP_CONV_2D, OPTIONS_CONV_2D, "Conv2DOptions",
	  sizeof(opver_conv_params), decode_conv, NULL, 0 },
	{ OPVER_OP_DEPTHWISE_CONV_2D, OPTIONS_DEPTHWISE_CONV_2D,
	  "DepthwiseConv2DOptions", sizeof(opver_depthwise_conv_params),
	  decode_depthwise_conv, NULL, 0 },
	{ OPVER_OP_AVERAGE_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), decode_pool, NULL, 0 },
	{ OPVER_OP_MAX_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), decode_pool, NULL, 0 },
	{ OPVER_OP_L2_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), decode_pool, NULL, 0 },
	{ OPVER_OP_FULLY_CONNECTED, OPTIONS_FULLY_CONNECTED,
	  "FullyConnectedOptions", sizeof(opver_fully_connected_params),
	  decode_fully_connected, NULL, 0 },
	{ OPVER_OP_SOFTMAX, OPTIONS_SOFTMAX, "SoftmaxOptions",
	  sizeof(opver_softmax_params), decode_softmax, NULL, 0 },
	{ OPVER_OP_ADD, OPTIONS_ADD, "AddOptions", sizeof(opver_add_params),
	  decode_add, NULL, 0 },
	{ OPVER_OP_RESHAPE, OPTIONS_RESHAPE, "ReshapeOptions",
	  sizeof(opver_reshape_params), decode_reshape, NULL, 0 },
	{ OPVER_OP_MUL, OPTIONS_MUL, "MulOptions", sizeof(opver_mul_params),
	  decode_mul, NULL, 0 },
	{ OPVER_OP_DEQUANTIZE, OPTIONS_DEQUANTIZE, "DequantizeOptions", 0,
	  decode_nothing, NULL, 0 },
	{ OPVER_OP_QUANTIZE, OPTIONS_QUANTIZE, "QuantizeOptions", 0,
	  decode_nothing, NULL, 0 },
	{ OPVER_OP_CONCATENATION, OPTIONS_CONCATENATION,
	  "ConcatenationOptions", sizeof(opver_concatenation_params), NULL,
	  FIELDS(concatenation_fields) },
	{ OPVER_OP_PAD, OPTIONS_PAD, "PadOptions", 0, decode_nothing, NULL, 0 },
	{ OPVER_OP_PADV2, OPTIONS_PADV2, "PadV2Options", 0, decode_nothing, NULL, 0 },
	{ OPVER_OP_MIRROR_PAD, OPTIONS_MIRROR_PAD, "MirrorPadOptions",
	  sizeof(opver_mirror_pad_params), NULL, FIELDS(mirror_pad_fields) },
	{ OPVER_OP_SPLIT, OPTIONS_SPLIT, "SplitOptions",
	  sizeof(opver_split_params), NULL, FIELDS(split_fields) },
	{ OPVER_OP_SPLIT_V, OPTIONS_SPLIT_V, "SplitVOptions",
	  sizeof(opver_split_params), NULL, FIELDS(split_v_fields) },
	{ OPVER_OP_PACK, OPTIONS_PACK, "PackOptions",
	  sizeof(opver_pack_params), NULL, FIELDS(pack_fields) },
	{ OPVER_OP_UNPACK, OPTIONS_UNPACK, "UnpackOptions",
	  sizeof(opver_unpack_params), NULL, FIELDS(unpack_fields) },
	{ OPVER_OP_SQUEEZE, OPTIONS_SQUEEZE, "SqueezeOptions",
	  sizeof(opver_squeeze_params), decode_squeeze, NULL, 0 },
	{ OPVER_OP_EXPAND_DIMS, OPTIONS_EXPAND_DIMS, "ExpandDimsOptions", 0,
	  decode_nothing, NULL, 0 },
	{ OPVER_OP_TRANSPOSE, OPTIONS_TRANSPOSE, "TransposeOptions", 0,
	  decode_nothing, NULL, 0 },
	{ OPVER_OP_SLICE, OPTIONS_SLICE, "SliceOptions", 0, decode_nothing, NULL, 0 },
	{ OPVER_OP_STRIDED_SLICE, OPTIONS_STRIDED_SLICE, "StridedSliceOptions",
	  sizeof(opver_strided_slice_params), NULL,
	  FIELDS(strided_slice_fields) },
};

opver_status opver__op_params_decode(opver__fb *fb, int32_t op,
				     uint8_t options_type,
				     const opver__fb_table *options,
				     const char *where,
				     const opver__reporter *reporter,
				     void **params, size_t *params_size)
{
	const struct op_params_entry *entry = NULL;
	options_reader r = { fb, options, where, reporter };
	void *p;

	*params = NULL;
	*params_size = 0;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (entries[i].op == op)
			entry = &entries[i];
	if (entry == NULL)
		return OPVER_OK;
	if (options_type != 0 && options_type != entry->options_type) {
		opver__error(reporter,
			     "%s: builtin_options is of union type %u; %s takes %s (type %u)",
			     where, options_type, opver_op_name(op),
			     entry->options_name, entry->options_type);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (entry->size == 0)
		return OPVER_OK;
	p = calloc(1, entry->size);
	if (p == NULL) {
		opver__error(reporter, "%s: out of memory for parameters",
			     where);
		return OPVER_ERROR_NOMEM;
	}
	if (!(entry->decode != NULL
		      ? entry->decode(&r, p)
		      : read_fields(&r, p, entry->fields, entry->num_fields))) {
		free(p);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*params = p;
	*params_size = entry->size;
	return OPVER_OK;
}
