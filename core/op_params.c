/*
 * op_params.c - the per-op table behind opver__op_params_decode(): for each
 * op with a parameter struct, the BuiltinOptions union member it takes and
 * the function that copies the options table into the struct, checking
 * every enum against the values ops.h knows.  Defaults are those of the
 * schema, so a missing field or table keeps the oldest op version's
 * behaviour.
 */
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

static bool decode_reshape(options_reader *r, void *params)
{
	opver_reshape_params *p = params;
	opver__fb_vector shape;

	if (!opver__fb_vector_field(r->fb, r->table, RESHAPE_NEW_SHAPE,
				    "new_shape", 4, &shape) ||
	    (shape.length <= OPVER_RESHAPE_MAX_DIMS &&
	     !opver__fb_vector_int32(r->fb, &shape, "new_shape", p->dims))) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	if (shape.length > OPVER_RESHAPE_MAX_DIMS) {
		opver__error(r->reporter,
			     "%s: new_shape has %u dimensions; at most %d are supported",
			     r->where, shape.length, OPVER_RESHAPE_MAX_DIMS);
		return false;
	}
	p->num_dims = (int32_t)shape.length;
	return true;
}

static bool decode_resize_bilinear(options_reader *r, void *params)
{
	opver_resize_bilinear_params *p = params;

	return read_bool(r, RESIZE_BILINEAR_ALIGN_CORNERS, "align_corners",
			 false, &p->align_corners) &&
	       read_bool(r, RESIZE_BILINEAR_HALF_PIXEL_CENTERS,
			 "half_pixel_centers", false, &p->half_pixel_centers);
}

static bool decode_resize_nearest_neighbor(options_reader *r, void *params)
{
	opver_resize_nearest_neighbor_params *p = params;

	return read_bool(r, RESIZE_NN_ALIGN_CORNERS, "align_corners", false,
			 &p->align_corners) &&
	       read_bool(r, RESIZE_NN_HALF_PIXEL_CENTERS, "half_pixel_centers",
			 false, &p->half_pixel_centers);
}

static bool decode_transpose_conv(options_reader *r, void *params)
{
	opver_transpose_conv_params *p = params;

	return read_padding(r, TCONV_PADDING, &p->padding) &&
	       read_int32(r, TCONV_STRIDE_W, "stride_w", 0,
			  &p->stride_width) &&
	       read_int32(r, TCONV_STRIDE_H, "stride_h", 0,
			  &p->stride_height) &&
	       read_activation(r, TCONV_ACTIVATION, &p->activation) &&
	       read_tensor_type(r, TCONV_QUANTIZED_BIAS_TYPE,
				"quantized_bias_type",
				&p->quantized_bias_type);
}

static bool decode_l2_norm(options_reader *r, void *params)
{
	opver_l2_norm_params *p = params;

	return read_activation(r, L2_NORM_ACTIVATION, &p->activation);
}

static bool decode_batch_matmul(options_reader *r, void *params)
{
	opver_batch_matmul_params *p = params;

	return read_bool(r, BATCH_MATMUL_ADJ_X, "adj_x", false, &p->adj_x) &&
	       read_bool(r, BATCH_MATMUL_ADJ_Y, "adj_y", false, &p->adj_y) &&
	       read_bool(r, BATCH_MATMUL_ASYMMETRIC_QUANTIZE_INPUTS,
			 "asymmetric_quantize_inputs", false,
			 &p->asymmetric_quantize_inputs);
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
static const struct op_params_entry {
	int32_t op;
	uint8_t options_type;
	const char *options_name;
	size_t size;
	decode_fn decode;
} entries[] = {
	{ OPVER_OP_CONV_2D, OPTIONS_CONV_2D, "Conv2DOptions",
	  sizeof(opver_conv_params), decode_conv },
	{ OPVER_OP_DEPTHWISE_CONV_2D, OPTIONS_DEPTHWISE_CONV_2D,
	  "DepthwiseConv2DOptions", sizeof(opver_depthwise_conv_params),
	  decode_depthwise_conv },
	{ OPVER_OP_AVERAGE_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), decode_pool },
	{ OPVER_OP_MAX_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), decode_pool },
	{ OPVER_OP_L2_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), decode_pool },
	{ OPVER_OP_FULLY_CONNECTED, OPTIONS_FULLY_CONNECTED,
	  "FullyConnectedOptions", sizeof(opver_fully_connected_params),
	  decode_fully_connected },
	{ OPVER_OP_SOFTMAX, OPTIONS_SOFTMAX, "SoftmaxOptions",
	  sizeof(opver_softmax_params), decode_softmax },
	{ OPVER_OP_ADD, OPTIONS_ADD, "AddOptions", sizeof(opver_add_params),
	  decode_add },
	{ OPVER_OP_RESHAPE, OPTIONS_RESHAPE, "ReshapeOptions",
	  sizeof(opver_reshape_params), decode_reshape },
	{ OPVER_OP_MUL, OPTIONS_MUL, "MulOptions", sizeof(opver_mul_params),
	  decode_mul },
	{ OPVER_OP_DEQUANTIZE, OPTIONS_DEQUANTIZE, "DequantizeOptions", 0,
	  decode_nothing },
	{ OPVER_OP_QUANTIZE, OPTIONS_QUANTIZE, "QuantizeOptions", 0,
	  decode_nothing },
	{ OPVER_OP_RESIZE_BILINEAR, OPTIONS_RESIZE_BILINEAR,
	  "ResizeBilinearOptions", sizeof(opver_resize_bilinear_params),
	  decode_resize_bilinear },
	{ OPVER_OP_RESIZE_NEAREST_NEIGHBOR, OPTIONS_RESIZE_NEAREST_NEIGHBOR,
	  "ResizeNearestNeighborOptions",
	  sizeof(opver_resize_nearest_neighbor_params),
	  decode_resize_nearest_neighbor },
	{ OPVER_OP_TRANSPOSE_CONV, OPTIONS_TRANSPOSE_CONV,
	  "TransposeConvOptions", sizeof(opver_transpose_conv_params),
	  decode_transpose_conv },
	{ OPVER_OP_L2_NORMALIZATION, OPTIONS_L2_NORM, "L2NormOptions",
	  sizeof(opver_l2_norm_params), decode_l2_norm },
	{ OPVER_OP_BATCH_MATMUL, OPTIONS_BATCH_MATMUL, "BatchMatMulOptions",
	  sizeof(opver_batch_matmul_params), decode_batch_matmul },
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
	if (!entry->decode(&r, p)) {
		free(p);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*params = p;
	*params_size = entry->size;
	return OPVER_OK;
}
