/*
 * op_params.c - the per-op table behind opver__op_params_decode(): for each
 * op with a parameter struct, the BuiltinOptions union member it takes and
 * the fields of its options table, each with its id, type, schema default
 * and place in the struct, enums checked against the values ops.h knows.
 * The fields are data, decoded by one loop, so that an op's options cost
 * the core a few table rows rather than a function.  Defaults are those of
 * the schema, so a missing field or table keeps the oldest op version's
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

/* How an options field is stored in the file. */
typedef enum field_kind {
	FIELD_INT32,
	FIELD_BOOL,   /* stored as the 0 or 1 of an int32_t parameter */
	FIELD_FLOAT,
	FIELD_ENUM,   /* a byte, checked to lie in 0 .. max */
} field_kind;

/* One field of an options table and the parameter it fills. */
typedef struct options_field {
	uint8_t kind;      /* a field_kind */
	uint8_t id;        /* its id in the table (schema/opver_ids.h) */
	int8_t max;        /* FIELD_ENUM: the largest valid value */
	int8_t fallback;   /* the schema's default (floats: 0) */
	uint16_t offset;   /* of the int32_t or float it fills */
	const char *name;
} options_field;

#define INT32_FIELD(type, member, id, name, fallback) \
	{ FIELD_INT32, id, 0, fallback, offsetof(type, member), name }
#define BOOL_FIELD(type, member, id, name, fallback) \
	{ FIELD_BOOL, id, 0, fallback, offsetof(type, member), name }
#define FLOAT_FIELD(type, member, id, name) \
	{ FIELD_FLOAT, id, 0, 0, offsetof(type, member), name }
#define ENUM_FIELD(type, member, id, name, max) \
	{ FIELD_ENUM, id, max, 0, offsetof(type, member), name }
#define ACTIVATION_FIELD(type, member, id)                      \
	ENUM_FIELD(type, member, id, "fused_activation_function", \
		   OPVER_ACTIVATION_SIGN_BIT)
#define PADDING_FIELD(type, member, id) \
	ENUM_FIELD(type, member, id, "padding", OPVER_PADDING_VALID)
/* A TensorType field such as quantized_bias_type. */
#define TYPE_FIELD(type, member, id, name) \
	ENUM_FIELD(type, member, id, name, OPVER_TYPE_COUNT - 1)

static bool decode_field(options_reader *r, const options_field *f,
			 void *params)
{
	char *at = (char *)params + f->offset;
	bool ok, flag;
	int8_t value;

	switch (f->kind) {
	case FIELD_INT32:
		ok = opver__fb_int32(r->fb, r->table, f->id, f->name,
				     f->fallback, (int32_t *)(void *)at);
		break;
	case FIELD_BOOL:
		ok = opver__fb_bool(r->fb, r->table, f->id, f->name,
				    f->fallback != 0, &flag);
		if (ok)
			*(int32_t *)(void *)at = flag;
		break;
	case FIELD_FLOAT:
		ok = opver__fb_float(r->fb, r->table, f->id, f->name, 0.0f,
				     (float *)(void *)at);
		break;
	default:
		ok = opver__fb_int8(r->fb, r->table, f->id, f->name, 0,
				    &value);
		if (ok && (value < 0 || value > f->max)) {
			opver__error(r->reporter,
				     "%s: %s is %d; valid values are 0 to %d",
				     r->where, f->name, value, f->max);
			return false;
		}
		if (ok)
			*(int32_t *)(void *)at = value;
		break;
	}
	if (!ok)
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
	return ok;
}

/* Vector fields, which the loop does not read: a function each. */
typedef bool (*decode_fn)(options_reader *r, void *params);

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

static bool decode_squeeze(options_reader *r, void *params)
{
	opver_squeeze_params *p = params;
	opver__fb_vector dims;

	if (!opver__fb_vector_field(r->fb, r->table, SQUEEZE_DIMS,
				    "squeeze_dims", 4, &dims) ||
	    (dims.length <= OPVER_SQUEEZE_MAX_DIMS &&
	     !opver__fb_vector_int32(r->fb, &dims, "squeeze_dims", p->dims))) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	if (dims.length > OPVER_SQUEEZE_MAX_DIMS) {
		opver__error(r->reporter,
			     "%s: squeeze_dims has %u entries; at most %d are supported",
			     r->where, dims.length, OPVER_SQUEEZE_MAX_DIMS);
		return false;
	}
	p->num_dims = (int32_t)dims.length;
	return true;
}

/* The fields of each options table, in the order of the schema. */
static const options_field conv_fields[] = {
	PADDING_FIELD(opver_conv_params, padding, CONV_PADDING),
	INT32_FIELD(opver_conv_params, stride_width, CONV_STRIDE_W,
		    "stride_w", 0),
	INT32_FIELD(opver_conv_params, stride_height, CONV_STRIDE_H,
		    "stride_h", 0),
	ACTIVATION_FIELD(opver_conv_params, activation, CONV_ACTIVATION),
	INT32_FIELD(opver_conv_params, dilation_width, CONV_DILATION_W,
		    "dilation_w_factor", 1),
	INT32_FIELD(opver_conv_params, dilation_height, CONV_DILATION_H,
		    "dilation_h_factor", 1),
	TYPE_FIELD(opver_conv_params, quantized_bias_type,
		   CONV_QUANTIZED_BIAS_TYPE, "quantized_bias_type"),
};
static const options_field depthwise_conv_fields[] = {
	PADDING_FIELD(opver_depthwise_conv_params, padding, DW_PADDING),
	INT32_FIELD(opver_depthwise_conv_params, stride_width, DW_STRIDE_W,
		    "stride_w", 0),
	INT32_FIELD(opver_depthwise_conv_params, stride_height, DW_STRIDE_H,
		    "stride_h", 0),
	INT32_FIELD(opver_depthwise_conv_params, depth_multiplier,
		    DW_DEPTH_MULTIPLIER, "depth_multiplier", 0),
	ACTIVATION_FIELD(opver_depthwise_conv_params, activation,
			 DW_ACTIVATION),
	INT32_FIELD(opver_depthwise_conv_params, dilation_width,
		    DW_DILATION_W, "dilation_w_factor", 1),
	INT32_FIELD(opver_depthwise_conv_params, dilation_height,
		    DW_DILATION_H, "dilation_h_factor", 1),
};
static const options_field pool_fields[] = {
	PADDING_FIELD(opver_pool_params, padding, POOL_PADDING),
	INT32_FIELD(opver_pool_params, stride_width, POOL_STRIDE_W,
		    "stride_w", 0),
	INT32_FIELD(opver_pool_params, stride_height, POOL_STRIDE_H,
		    "stride_h", 0),
	INT32_FIELD(opver_pool_params, filter_width, POOL_FILTER_W,
		    "filter_width", 0),
	INT32_FIELD(opver_pool_params, filter_height, POOL_FILTER_H,
		    "filter_height", 0),
	ACTIVATION_FIELD(opver_pool_params, activation, POOL_ACTIVATION),
};
static const options_field fully_connected_fields[] = {
	ACTIVATION_FIELD(opver_fully_connected_params, activation,
			 FC_ACTIVATION),
	ENUM_FIELD(opver_fully_connected_params, weights_format,
		   FC_WEIGHTS_FORMAT, "weights_format",
		   OPVER_FC_WEIGHTS_SHUFFLED4x16INT8),
	BOOL_FIELD(opver_fully_connected_params, keep_num_dims,
		   FC_KEEP_NUM_DIMS, "keep_num_dims", 0),
	BOOL_FIELD(opver_fully_connected_params, asymmetric_quantize_inputs,
		   FC_ASYMMETRIC_QUANTIZE_INPUTS, "asymmetric_quantize_inputs",
		   0),
	TYPE_FIELD(opver_fully_connected_params, quantized_bias_type,
		   FC_QUANTIZED_BIAS_TYPE, "quantized_bias_type"),
};
static const options_field softmax_fields[] = {
	FLOAT_FIELD(opver_softmax_params, beta, SOFTMAX_BETA, "beta"),
};
static const options_field add_fields[] = {
	ACTIVATION_FIELD(opver_add_params, activation, ADD_ACTIVATION),
	BOOL_FIELD(opver_add_params, pot_scale_int16, ADD_POT_SCALE_INT16,
		   "pot_scale_int16", 1),
};
static const options_field mul_fields[] = {
	ACTIVATION_FIELD(opver_mul_params, activation, MUL_ACTIVATION),
};
static const options_field sub_fields[] = {
	ACTIVATION_FIELD(opver_sub_params, activation, SUB_ACTIVATION),
	BOOL_FIELD(opver_sub_params, pot_scale_int16, SUB_POT_SCALE_INT16,
		   "pot_scale_int16", 1),
};
static const options_field div_fields[] = {
	ACTIVATION_FIELD(opver_div_params, activation, DIV_ACTIVATION),
};
static const options_field leaky_relu_fields[] = {
	FLOAT_FIELD(opver_leaky_relu_params, alpha, LEAKY_RELU_ALPHA,
		    "alpha"),
};
static const options_field gelu_fields[] = {
	BOOL_FIELD(opver_gelu_params, approximate, GELU_APPROXIMATE,
		   "approximate", 0),
};
static const options_field reducer_fields[] = {
	BOOL_FIELD(opver_reducer_params, keep_dims, REDUCER_KEEP_DIMS,
		   "keep_dims", 0),
};
static const options_field arg_max_fields[] = {
	TYPE_FIELD(opver_arg_min_max_params, output_type, ARG_MAX_OUTPUT_TYPE,
		   "output_type"),
};
static const options_field arg_min_fields[] = {
	TYPE_FIELD(opver_arg_min_max_params, output_type, ARG_MIN_OUTPUT_TYPE,
		   "output_type"),
};
static const options_field gather_fields[] = {
	INT32_FIELD(opver_gather_params, axis, GATHER_AXIS, "axis", 0),
	INT32_FIELD(opver_gather_params, batch_dims, GATHER_BATCH_DIMS,
		    "batch_dims", 0),
};
static const options_field shape_fields[] = {
	TYPE_FIELD(opver_shape_params, out_type, SHAPE_OUT_TYPE, "out_type"),
};
static const options_field space_to_depth_fields[] = {
	INT32_FIELD(opver_space_depth_params, block_size,
		    SPACE_TO_DEPTH_BLOCK_SIZE, "block_size", 0),
};
static const options_field depth_to_space_fields[] = {
	INT32_FIELD(opver_space_depth_params, block_size,
		    DEPTH_TO_SPACE_BLOCK_SIZE, "block_size", 0),
};
static const options_field concatenation_fields[] = {
	INT32_FIELD(opver_concatenation_params, axis, CONCATENATION_AXIS,
		    "axis", 0),
	ACTIVATION_FIELD(opver_concatenation_params, activation,
			 CONCATENATION_ACTIVATION),
};
static const options_field mirror_pad_fields[] = {
	ENUM_FIELD(opver_mirror_pad_params, mode, MIRROR_PAD_MODE, "mode",
		   OPVER_MIRROR_PAD_SYMMETRIC),
};
static const options_field split_fields[] = {
	INT32_FIELD(opver_split_params, num_splits, SPLIT_NUM_SPLITS,
		    "num_splits", 0),
};
static const options_field split_v_fields[] = {
	INT32_FIELD(opver_split_params, num_splits, SPLIT_V_NUM_SPLITS,
		    "num_splits", 0),
};
static const options_field pack_fields[] = {
	INT32_FIELD(opver_pack_params, values_count, PACK_VALUES_COUNT,
		    "values_count", 0),
	INT32_FIELD(opver_pack_params, axis, PACK_AXIS, "axis", 0),
};
static const options_field unpack_fields[] = {
	INT32_FIELD(opver_unpack_params, num, UNPACK_NUM, "num", 0),
	INT32_FIELD(opver_unpack_params, axis, UNPACK_AXIS, "axis", 0),
};
static const options_field strided_slice_fields[] = {
	INT32_FIELD(opver_strided_slice_params, begin_mask,
		    STRIDED_SLICE_BEGIN_MASK, "begin_mask", 0),
	INT32_FIELD(opver_strided_slice_params, end_mask,
		    STRIDED_SLICE_END_MASK, "end_mask", 0),
	INT32_FIELD(opver_strided_slice_params, ellipsis_mask,
		    STRIDED_SLICE_ELLIPSIS_MASK, "ellipsis_mask", 0),
	INT32_FIELD(opver_strided_slice_params, new_axis_mask,
		    STRIDED_SLICE_NEW_AXIS_MASK, "new_axis_mask", 0),
	INT32_FIELD(opver_strided_slice_params, shrink_axis_mask,
		    STRIDED_SLICE_SHRINK_AXIS_MASK, "shrink_axis_mask", 0),
	BOOL_FIELD(opver_strided_slice_params, offset, STRIDED_SLICE_OFFSET,
		   "offset", 0),
};
static const options_field resize_bilinear_fields[] = {
	BOOL_FIELD(opver_resize_bilinear_params, align_corners,
		   RESIZE_BILINEAR_ALIGN_CORNERS, "align_corners", 0),
	BOOL_FIELD(opver_resize_bilinear_params, half_pixel_centers,
		   RESIZE_BILINEAR_HALF_PIXEL_CENTERS, "half_pixel_centers", 0),
};
static const options_field resize_nearest_neighbor_fields[] = {
	BOOL_FIELD(opver_resize_nearest_neighbor_params, align_corners,
		   RESIZE_NN_ALIGN_CORNERS, "align_corners", 0),
	BOOL_FIELD(opver_resize_nearest_neighbor_params, half_pixel_centers,
		   RESIZE_NN_HALF_PIXEL_CENTERS, "half_pixel_centers", 0),
};
static const options_field transpose_conv_fields[] = {
	PADDING_FIELD(opver_transpose_conv_params, padding, TCONV_PADDING),
	INT32_FIELD(opver_transpose_conv_params, stride_width, TCONV_STRIDE_W,
		    "stride_w", 0),
	INT32_FIELD(opver_transpose_conv_params, stride_height,
		    TCONV_STRIDE_H, "stride_h", 0),
	ACTIVATION_FIELD(opver_transpose_conv_params, activation,
			 TCONV_ACTIVATION),
	TYPE_FIELD(opver_transpose_conv_params, quantized_bias_type,
		   TCONV_QUANTIZED_BIAS_TYPE, "quantized_bias_type"),
};
static const options_field l2_norm_fields[] = {
	ACTIVATION_FIELD(opver_l2_norm_params, activation, L2_NORM_ACTIVATION),
};
static const options_field batch_matmul_fields[] = {
	BOOL_FIELD(opver_batch_matmul_params, adj_x, BATCH_MATMUL_ADJ_X,
		   "adj_x", 0),
	BOOL_FIELD(opver_batch_matmul_params, adj_y, BATCH_MATMUL_ADJ_Y,
		   "adj_y", 0),
	BOOL_FIELD(opver_batch_matmul_params, asymmetric_quantize_inputs,
		   BATCH_MATMUL_ASYMMETRIC_QUANTIZE_INPUTS,
		   "asymmetric_quantize_inputs", 0),
};
static const options_field cumsum_fields[] = {
	BOOL_FIELD(opver_cumsum_params, exclusive, CUMSUM_EXCLUSIVE,
		   "exclusive", 0),
	BOOL_FIELD(opver_cumsum_params, reverse, CUMSUM_REVERSE, "reverse", 0),
};
static const options_field svdf_fields[] = {
	INT32_FIELD(opver_svdf_params, rank, SVDF_RANK, "rank", 0),
	ACTIVATION_FIELD(opver_svdf_params, activation, SVDF_ACTIVATION),
	BOOL_FIELD(opver_svdf_params, asymmetric_quantize_inputs,
		   SVDF_ASYMMETRIC_QUANTIZE_INPUTS,
		   "asymmetric_quantize_inputs", 0),
};
static const options_field local_response_norm_fields[] = {
	INT32_FIELD(opver_local_response_norm_params, radius, LRN_RADIUS,
		    "radius", 0),
	FLOAT_FIELD(opver_local_response_norm_params, bias, LRN_BIAS, "bias"),
	FLOAT_FIELD(opver_local_response_norm_params, alpha, LRN_ALPHA,
		    "alpha"),
	FLOAT_FIELD(opver_local_response_norm_params, beta, LRN_BETA, "beta"),
};
static const options_field one_hot_fields[] = {
	INT32_FIELD(opver_one_hot_params, axis, ONE_HOT_AXIS, "axis", 0),
};
static const options_field if_fields[] = {
	INT32_FIELD(opver_if_params, then_subgraph_index,
		    IF_THEN_SUBGRAPH_INDEX, "then_subgraph_index", 0),
	INT32_FIELD(opver_if_params, else_subgraph_index,
		    IF_ELSE_SUBGRAPH_INDEX, "else_subgraph_index", 0),
};
static const options_field while_fields[] = {
	INT32_FIELD(opver_while_params, cond_subgraph_index,
		    WHILE_COND_SUBGRAPH_INDEX, "cond_subgraph_index", 0),
	INT32_FIELD(opver_while_params, body_subgraph_index,
		    WHILE_BODY_SUBGRAPH_INDEX, "body_subgraph_index", 0),
};
static const options_field call_once_fields[] = {
	INT32_FIELD(opver_call_once_params, init_subgraph_index,
		    CALL_ONCE_INIT_SUBGRAPH_INDEX, "init_subgraph_index", 0),
};

static const options_field sequence_rnn_fields[] = {
	BOOL_FIELD(opver_sequence_rnn_params, time_major,
		   SEQUENCE_RNN_TIME_MAJOR, "time_major", 0),
	ACTIVATION_FIELD(opver_sequence_rnn_params, activation,
			 SEQUENCE_RNN_ACTIVATION),
	BOOL_FIELD(opver_sequence_rnn_params, asymmetric_quantize_inputs,
		   SEQUENCE_RNN_ASYMMETRIC_QUANTIZE_INPUTS,
		   "asymmetric_quantize_inputs", 0),
};
static const options_field sequence_lstm_fields[] = {
	ACTIVATION_FIELD(opver_sequence_lstm_params, activation,
			 SEQUENCE_LSTM_ACTIVATION),
	FLOAT_FIELD(opver_sequence_lstm_params, cell_clip,
		    SEQUENCE_LSTM_CELL_CLIP, "cell_clip"),
	FLOAT_FIELD(opver_sequence_lstm_params, proj_clip,
		    SEQUENCE_LSTM_PROJ_CLIP, "proj_clip"),
	BOOL_FIELD(opver_sequence_lstm_params, time_major,
		   SEQUENCE_LSTM_TIME_MAJOR, "time_major", 0),
	BOOL_FIELD(opver_sequence_lstm_params, asymmetric_quantize_inputs,
		   SEQUENCE_LSTM_ASYMMETRIC_QUANTIZE_INPUTS,
		   "asymmetric_quantize_inputs", 0),
	BOOL_FIELD(opver_sequence_lstm_params, diagonal_recurrent_tensors,
		   SEQUENCE_LSTM_DIAGONAL_RECURRENT_TENSORS,
		   "diagonal_recurrent_tensors", 0),
};

/* The two strings of VAR_HANDLE, borrowed from the file: the params
 * outlive the decoding, as long as the model is open. */
static bool decode_var_handle(options_reader *r, void *params)
{
	opver_var_handle_params *p = params;

	if (!opver__fb_string_field(r->fb, r->table, VAR_HANDLE_CONTAINER,
				    "container", &p->container, NULL) ||
	    !opver__fb_string_field(r->fb, r->table, VAR_HANDLE_SHARED_NAME,
				    "shared_name", &p->shared_name, NULL)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	if (p->container == NULL)
		p->container = "";
	if (p->shared_name == NULL)
		p->shared_name = "";
	return true;
}

/* An entry's fields: an array of them, or none. */
#define FIELDS(array) array, sizeof(array) / sizeof((array)[0]), NULL
#define NO_FIELDS NULL, 0

/*
 * Ops with options.  options_type is the op's member of the BuiltinOptions
 * union (its type code, schema/opver_ids.h); size 0 means the op has no
 * parameter struct (its options table is still checked to be of the right
 * union type).
 */
static const struct op_params_entry {
	int32_t op;
	uint8_t options_type;
	const char *options_name;
	size_t size;
	const options_field *fields;
	size_t num_fields;
	decode_fn decode;   /* vector fields, or NULL */
} entries[] = {
	{ OPVER_OP_CONV_2D, OPTIONS_CONV_2D, "Conv2DOptions",
	  sizeof(opver_conv_params), FIELDS(conv_fields) },
	{ OPVER_OP_DEPTHWISE_CONV_2D, OPTIONS_DEPTHWISE_CONV_2D,
	  "DepthwiseConv2DOptions", sizeof(opver_depthwise_conv_params),
	  FIELDS(depthwise_conv_fields) },
	{ OPVER_OP_AVERAGE_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), FIELDS(pool_fields) },
	{ OPVER_OP_MAX_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), FIELDS(pool_fields) },
	{ OPVER_OP_L2_POOL_2D, OPTIONS_POOL_2D, "Pool2DOptions",
	  sizeof(opver_pool_params), FIELDS(pool_fields) },
	{ OPVER_OP_FULLY_CONNECTED, OPTIONS_FULLY_CONNECTED,
	  "FullyConnectedOptions", sizeof(opver_fully_connected_params),
	  FIELDS(fully_connected_fields) },
	{ OPVER_OP_SOFTMAX, OPTIONS_SOFTMAX, "SoftmaxOptions",
	  sizeof(opver_softmax_params), FIELDS(softmax_fields) },
	{ OPVER_OP_ADD, OPTIONS_ADD, "AddOptions", sizeof(opver_add_params),
	  FIELDS(add_fields) },
	{ OPVER_OP_RESHAPE, OPTIONS_RESHAPE, "ReshapeOptions",
	  sizeof(opver_reshape_params), NO_FIELDS, decode_reshape },
	{ OPVER_OP_MUL, OPTIONS_MUL, "MulOptions", sizeof(opver_mul_params),
	  FIELDS(mul_fields) },
	{ OPVER_OP_DEQUANTIZE, OPTIONS_DEQUANTIZE, "DequantizeOptions", 0,
	  NO_FIELDS, NULL },
	{ OPVER_OP_QUANTIZE, OPTIONS_QUANTIZE, "QuantizeOptions", 0,
	  NO_FIELDS, NULL },
	{ OPVER_OP_SUB, OPTIONS_SUB, "SubOptions", sizeof(opver_sub_params),
	  FIELDS(sub_fields) },
	{ OPVER_OP_DIV, OPTIONS_DIV, "DivOptions", sizeof(opver_div_params),
	  FIELDS(div_fields) },
	{ OPVER_OP_MAXIMUM, OPTIONS_MAXIMUM_MINIMUM, "MaximumMinimumOptions",
	  0, NO_FIELDS, NULL },
	{ OPVER_OP_MINIMUM, OPTIONS_MAXIMUM_MINIMUM, "MaximumMinimumOptions",
	  0, NO_FIELDS, NULL },
	{ OPVER_OP_SQUARED_DIFFERENCE, OPTIONS_SQUARED_DIFFERENCE,
	  "SquaredDifferenceOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_LEAKY_RELU, OPTIONS_LEAKY_RELU, "LeakyReluOptions",
	  sizeof(opver_leaky_relu_params), FIELDS(leaky_relu_fields) },
	{ OPVER_OP_GELU, OPTIONS_GELU, "GeluOptions",
	  sizeof(opver_gelu_params), FIELDS(gelu_fields) },
	{ OPVER_OP_MEAN, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), FIELDS(reducer_fields) },
	{ OPVER_OP_SUM, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), FIELDS(reducer_fields) },
	{ OPVER_OP_REDUCE_MAX, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), FIELDS(reducer_fields) },
	{ OPVER_OP_REDUCE_MIN, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), FIELDS(reducer_fields) },
	{ OPVER_OP_REDUCE_PROD, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), FIELDS(reducer_fields) },
	{ OPVER_OP_REDUCE_ANY, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), FIELDS(reducer_fields) },
	{ OPVER_OP_REDUCE_ALL, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), FIELDS(reducer_fields) },
	{ OPVER_OP_ARG_MAX, OPTIONS_ARG_MAX, "ArgMaxOptions",
	  sizeof(opver_arg_min_max_params), FIELDS(arg_max_fields) },
	{ OPVER_OP_ARG_MIN, OPTIONS_ARG_MIN, "ArgMinOptions",
	  sizeof(opver_arg_min_max_params), FIELDS(arg_min_fields) },
	{ OPVER_OP_GATHER, OPTIONS_GATHER, "GatherOptions",
	  sizeof(opver_gather_params), FIELDS(gather_fields) },
	{ OPVER_OP_GATHER_ND, OPTIONS_GATHER_ND, "GatherNdOptions", 0,
	  NO_FIELDS, NULL },
	{ OPVER_OP_TILE, OPTIONS_TILE, "TileOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_BROADCAST_TO, OPTIONS_BROADCAST_TO, "BroadcastToOptions", 0,
	  NO_FIELDS, NULL },
	{ OPVER_OP_SHAPE, OPTIONS_SHAPE, "ShapeOptions",
	  sizeof(opver_shape_params), FIELDS(shape_fields) },
	{ OPVER_OP_FILL, OPTIONS_FILL, "FillOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_ZEROS_LIKE, OPTIONS_ZEROS_LIKE, "ZerosLikeOptions", 0,
	  NO_FIELDS, NULL },
	/* Kernels take CAST's types from its tensors. */
	{ OPVER_OP_CAST, OPTIONS_CAST, "CastOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_SPACE_TO_DEPTH, OPTIONS_SPACE_TO_DEPTH,
	  "SpaceToDepthOptions", sizeof(opver_space_depth_params),
	  FIELDS(space_to_depth_fields) },
	{ OPVER_OP_DEPTH_TO_SPACE, OPTIONS_DEPTH_TO_SPACE,
	  "DepthToSpaceOptions", sizeof(opver_space_depth_params),
	  FIELDS(depth_to_space_fields) },
	{ OPVER_OP_SPACE_TO_BATCH_ND, OPTIONS_SPACE_TO_BATCH_ND,
	  "SpaceToBatchNDOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_BATCH_TO_SPACE_ND, OPTIONS_BATCH_TO_SPACE_ND,
	  "BatchToSpaceNDOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_CONCATENATION, OPTIONS_CONCATENATION,
	  "ConcatenationOptions", sizeof(opver_concatenation_params),
	  FIELDS(concatenation_fields) },
	{ OPVER_OP_PAD, OPTIONS_PAD, "PadOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_PADV2, OPTIONS_PADV2, "PadV2Options", 0, NO_FIELDS, NULL },
	{ OPVER_OP_MIRROR_PAD, OPTIONS_MIRROR_PAD, "MirrorPadOptions",
	  sizeof(opver_mirror_pad_params), FIELDS(mirror_pad_fields) },
	{ OPVER_OP_SPLIT, OPTIONS_SPLIT, "SplitOptions",
	  sizeof(opver_split_params), FIELDS(split_fields) },
	{ OPVER_OP_SPLIT_V, OPTIONS_SPLIT_V, "SplitVOptions",
	  sizeof(opver_split_params), FIELDS(split_v_fields) },
	{ OPVER_OP_PACK, OPTIONS_PACK, "PackOptions",
	  sizeof(opver_pack_params), FIELDS(pack_fields) },
	{ OPVER_OP_UNPACK, OPTIONS_UNPACK, "UnpackOptions",
	  sizeof(opver_unpack_params), FIELDS(unpack_fields) },
	{ OPVER_OP_SQUEEZE, OPTIONS_SQUEEZE, "SqueezeOptions",
	  sizeof(opver_squeeze_params), NO_FIELDS, decode_squeeze },
	{ OPVER_OP_EXPAND_DIMS, OPTIONS_EXPAND_DIMS, "ExpandDimsOptions", 0,
	  NO_FIELDS, NULL },
	{ OPVER_OP_TRANSPOSE, OPTIONS_TRANSPOSE, "TransposeOptions", 0,
	  NO_FIELDS, NULL },
	{ OPVER_OP_SLICE, OPTIONS_SLICE, "SliceOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_STRIDED_SLICE, OPTIONS_STRIDED_SLICE, "StridedSliceOptions",
	  sizeof(opver_strided_slice_params), FIELDS(strided_slice_fields) },
	{ OPVER_OP_RESIZE_BILINEAR, OPTIONS_RESIZE_BILINEAR,
	  "ResizeBilinearOptions", sizeof(opver_resize_bilinear_params),
	  FIELDS(resize_bilinear_fields) },
	{ OPVER_OP_RESIZE_NEAREST_NEIGHBOR, OPTIONS_RESIZE_NEAREST_NEIGHBOR,
	  "ResizeNearestNeighborOptions",
	  sizeof(opver_resize_nearest_neighbor_params),
	  FIELDS(resize_nearest_neighbor_fields) },
	{ OPVER_OP_TRANSPOSE_CONV, OPTIONS_TRANSPOSE_CONV,
	  "TransposeConvOptions", sizeof(opver_transpose_conv_params),
	  FIELDS(transpose_conv_fields) },
	{ OPVER_OP_L2_NORMALIZATION, OPTIONS_L2_NORM, "L2NormOptions",
	  sizeof(opver_l2_norm_params), FIELDS(l2_norm_fields) },
	{ OPVER_OP_BATCH_MATMUL, OPTIONS_BATCH_MATMUL, "BatchMatMulOptions",
	  sizeof(opver_batch_matmul_params), FIELDS(batch_matmul_fields) },
	{ OPVER_OP_CUMSUM, OPTIONS_CUMSUM, "CumsumOptions",
	  sizeof(opver_cumsum_params), FIELDS(cumsum_fields) },
	{ OPVER_OP_SVDF, OPTIONS_SVDF, "SVDFOptions",
	  sizeof(opver_svdf_params), FIELDS(svdf_fields) },
	{ OPVER_OP_ONE_HOT, OPTIONS_ONE_HOT, "OneHotOptions",
	  sizeof(opver_one_hot_params), FIELDS(one_hot_fields) },
	{ OPVER_OP_LOCAL_RESPONSE_NORMALIZATION, OPTIONS_LOCAL_RESPONSE_NORM,
	  "LocalResponseNormalizationOptions",
	  sizeof(opver_local_response_norm_params),
	  FIELDS(local_response_norm_fields) },
	{ OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN, OPTIONS_SEQUENCE_RNN,
	  "SequenceRNNOptions", sizeof(opver_sequence_rnn_params),
	  FIELDS(sequence_rnn_fields) },
	{ OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
	  OPTIONS_UNIDIRECTIONAL_SEQUENCE_LSTM,
	  "UnidirectionalSequenceLSTMOptions",
	  sizeof(opver_sequence_lstm_params), FIELDS(sequence_lstm_fields) },
	{ OPVER_OP_IF, OPTIONS_IF, "IfOptions", sizeof(opver_if_params),
	  FIELDS(if_fields) },
	{ OPVER_OP_WHILE, OPTIONS_WHILE, "WhileOptions",
	  sizeof(opver_while_params), FIELDS(while_fields) },
	{ OPVER_OP_CALL_ONCE, OPTIONS_CALL_ONCE, "CallOnceOptions",
	  sizeof(opver_call_once_params), FIELDS(call_once_fields) },
	{ OPVER_OP_VAR_HANDLE, OPTIONS_VAR_HANDLE, "VarHandleOptions",
	  sizeof(opver_var_handle_params), NO_FIELDS, decode_var_handle },
	{ OPVER_OP_READ_VARIABLE, OPTIONS_READ_VARIABLE,
	  "ReadVariableOptions", 0, NO_FIELDS, NULL },
	{ OPVER_OP_ASSIGN_VARIABLE, OPTIONS_ASSIGN_VARIABLE,
	  "AssignVariableOptions", 0, NO_FIELDS, NULL },
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
	for (size_t i = 0; i < entry->num_fields; i++) {
		if (!decode_field(&r, &entry->fields[i], p)) {
			free(p);
			return OPVER_ERROR_INVALID_MODEL;
		}
	}
	if (entry->decode != NULL && !entry->decode(&r, p)) {
		free(p);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*params = p;
	*params_size = entry->size;
	return OPVER_OK;
}
