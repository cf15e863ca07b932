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

static bool decode_sub(options_reader *r, void *params)
{
	opver_sub_params *p = params;

	return read_activation(r, SUB_ACTIVATION, &p->activation) &&
	       read_bool(r, SUB_POT_SCALE_INT16, "pot_scale_int16", true,
			 &p->pot_scale_int16);
}

static bool decode_div(options_reader *r, void *params)
{
	opver_div_params *p = params;

	return read_activation(r, DIV_ACTIVATION, &p->activation);
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

static bool decode_leaky_relu(options_reader *r, void *params)
{
	opver_leaky_relu_params *p = params;

	if (!opver__fb_float(r->fb, r->table, LEAKY_RELU_ALPHA, "alpha", 0.0f,
			     &p->alpha)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	return true;
}

static bool decode_gelu(options_reader *r, void *params)
{
	opver_gelu_params *p = params;

	return read_bool(r, GELU_APPROXIMATE, "approximate", false,
			 &p->approximate);
}

static bool decode_reducer(options_reader *r, void *params)
{
	opver_reducer_params *p = params;

	return read_bool(r, REDUCER_KEEP_DIMS, "keep_dims", false,
			 &p->keep_dims);
}

/* ArgMaxOptions and ArgMinOptions: the same field at the same id. */
static bool decode_arg_min_max(options_reader *r, void *params)
{
	opver_arg_min_max_params *p = params;

	_Static_assert(ARG_MAX_OUTPUT_TYPE == ARG_MIN_OUTPUT_TYPE,
		       "ArgMaxOptions and ArgMinOptions share one decoder");
	return read_tensor_type(r, ARG_MAX_OUTPUT_TYPE, "output_type",
				&p->output_type);
}

static bool decode_gather(options_reader *r, void *params)
{
	opver_gather_params *p = params;

	return read_int32(r, GATHER_AXIS, "axis", 0, &p->axis) &&
	       read_int32(r, GATHER_BATCH_DIMS, "batch_dims", 0,
			  &p->batch_dims);
}

static bool decode_shape(options_reader *r, void *params)
{
	opver_shape_params *p = params;

	return read_tensor_type(r, SHAPE_OUT_TYPE, "out_type", &p->out_type);
}

/* SPACE_TO_DEPTH and DEPTH_TO_SPACE: their two tables hold block_size at
 * the same id, so one decoder reads both. */
_Static_assert(SPACE_TO_DEPTH_BLOCK_SIZE == DEPTH_TO_SPACE_BLOCK_SIZE,
	       "SpaceToDepthOptions and DepthToSpaceOptions differ");

static bool decode_block_size(options_reader *r, void *params)
{
	opver_space_depth_params *p = params;

	return read_int32(r, SPACE_TO_DEPTH_BLOCK_SIZE, "block_size", 0,
			  &p->block_size);
}

static bool decode_concatenation(options_reader *r, void *params)
{
	opver_concatenation_params *p = params;

	return read_int32(r, CONCATENATION_AXIS, "axis", 0, &p->axis) &&
	       read_activation(r, CONCATENATION_ACTIVATION, &p->activation);
}

static bool decode_mirror_pad(options_reader *r, void *params)
{
	opver_mirror_pad_params *p = params;

	return read_enum(r, MIRROR_PAD_MODE, "mode",
			 OPVER_MIRROR_PAD_SYMMETRIC, &p->mode);
}

static bool decode_split(options_reader *r, void *params)
{
	opver_split_params *p = params;

	return read_int32(r, SPLIT_NUM_SPLITS, "num_splits", 0,
			  &p->num_splits);
}

static bool decode_split_v(options_reader *r, void *params)
{
	opver_split_params *p = params;

	return read_int32(r, SPLIT_V_NUM_SPLITS, "num_splits", 0,
			  &p->num_splits);
}

static bool decode_pack(options_reader *r, void *params)
{
	opver_pack_params *p = params;

	return read_int32(r, PACK_VALUES_COUNT, "values_count", 0,
			  &p->values_count) &&
	       read_int32(r, PACK_AXIS, "axis", 0, &p->axis);
}

static bool decode_unpack(options_reader *r, void *params)
{
	opver_unpack_params *p = params;

	return read_int32(r, UNPACK_NUM, "num", 0, &p->num) &&
	       read_int32(r, UNPACK_AXIS, "axis", 0, &p->axis);
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

static bool decode_strided_slice(options_reader *r, void *params)
{
	opver_strided_slice_params *p = params;

	return read_int32(r, STRIDED_SLICE_BEGIN_MASK, "begin_mask", 0,
			  &p->begin_mask) &&
	       read_int32(r, STRIDED_SLICE_END_MASK, "end_mask", 0,
			  &p->end_mask) &&
	       read_int32(r, STRIDED_SLICE_ELLIPSIS_MASK, "ellipsis_mask", 0,
			  &p->ellipsis_mask) &&
	       read_int32(r, STRIDED_SLICE_NEW_AXIS_MASK, "new_axis_mask", 0,
			  &p->new_axis_mask) &&
	       read_int32(r, STRIDED_SLICE_SHRINK_AXIS_MASK,
			  "shrink_axis_mask", 0, &p->shrink_axis_mask) &&
	       read_bool(r, STRIDED_SLICE_OFFSET, "offset", false,
			 &p->offset);
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
	{ OPVER_OP_SUB, OPTIONS_SUB, "SubOptions", sizeof(opver_sub_params),
	  decode_sub },
	{ OPVER_OP_DIV, OPTIONS_DIV, "DivOptions", sizeof(opver_div_params),
	  decode_div },
	{ OPVER_OP_MAXIMUM, OPTIONS_MAXIMUM_MINIMUM, "MaximumMinimumOptions",
	  0, decode_nothing },
	{ OPVER_OP_MINIMUM, OPTIONS_MAXIMUM_MINIMUM, "MaximumMinimumOptions",
	  0, decode_nothing },
	{ OPVER_OP_SQUARED_DIFFERENCE, OPTIONS_SQUARED_DIFFERENCE,
	  "SquaredDifferenceOptions", 0, decode_nothing },
	{ OPVER_OP_LEAKY_RELU, OPTIONS_LEAKY_RELU, "LeakyReluOptions",
	  sizeof(opver_leaky_relu_params), decode_leaky_relu },
	{ OPVER_OP_GELU, OPTIONS_GELU, "GeluOptions",
	  sizeof(opver_gelu_params), decode_gelu },
	{ OPVER_OP_MEAN, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), decode_reducer },
	{ OPVER_OP_SUM, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), decode_reducer },
	{ OPVER_OP_REDUCE_MAX, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), decode_reducer },
	{ OPVER_OP_REDUCE_MIN, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), decode_reducer },
	{ OPVER_OP_REDUCE_PROD, OPTIONS_REDUCER, "ReducerOptions",
	  sizeof(opver_reducer_params), decode_reducer },
	{ OPVER_OP_ARG_MAX, OPTIONS_ARG_MAX, "ArgMaxOptions",
	  sizeof(opver_arg_min_max_params), decode_arg_min_max },
	{ OPVER_OP_ARG_MIN, OPTIONS_ARG_MIN, "ArgMinOptions",
	  sizeof(opver_arg_min_max_params), decode_arg_min_max },
	{ OPVER_OP_GATHER, OPTIONS_GATHER, "GatherOptions",
	  sizeof(opver_gather_params), decode_gather },
	{ OPVER_OP_GATHER_ND, OPTIONS_GATHER_ND, "GatherNdOptions", 0,
	  decode_nothing },
	{ OPVER_OP_TILE, OPTIONS_TILE, "TileOptions", 0, decode_nothing },
	{ OPVER_OP_BROADCAST_TO, OPTIONS_BROADCAST_TO, "BroadcastToOptions", 0,
	  decode_nothing },
	{ OPVER_OP_SHAPE, OPTIONS_SHAPE, "ShapeOptions",
	  sizeof(opver_shape_params), decode_shape },
	{ OPVER_OP_FILL, OPTIONS_FILL, "FillOptions", 0, decode_nothing },
	{ OPVER_OP_ZEROS_LIKE, OPTIONS_ZEROS_LIKE, "ZerosLikeOptions", 0,
	  decode_nothing },
	/* Kernels take CAST's types from its tensors. */
	{ OPVER_OP_CAST, OPTIONS_CAST, "CastOptions", 0, decode_nothing },
	{ OPVER_OP_SPACE_TO_DEPTH, OPTIONS_SPACE_TO_DEPTH,
	  "SpaceToDepthOptions", sizeof(opver_space_depth_params),
	  decode_block_size },
	{ OPVER_OP_DEPTH_TO_SPACE, OPTIONS_DEPTH_TO_SPACE,
	  "DepthToSpaceOptions", sizeof(opver_space_depth_params),
	  decode_block_size },
	{ OPVER_OP_SPACE_TO_BATCH_ND, OPTIONS_SPACE_TO_BATCH_ND,
	  "SpaceToBatchNDOptions", 0, decode_nothing },
	{ OPVER_OP_BATCH_TO_SPACE_ND, OPTIONS_BATCH_TO_SPACE_ND,
	  "BatchToSpaceNDOptions", 0, decode_nothing },
	{ OPVER_OP_CONCATENATION, OPTIONS_CONCATENATION,
	  "ConcatenationOptions", sizeof(opver_concatenation_params),
	  decode_concatenation },
	{ OPVER_OP_PAD, OPTIONS_PAD, "PadOptions", 0, decode_nothing },
	{ OPVER_OP_PADV2, OPTIONS_PADV2, "PadV2Options", 0, decode_nothing },
	{ OPVER_OP_MIRROR_PAD, OPTIONS_MIRROR_PAD, "MirrorPadOptions",
	  sizeof(opver_mirror_pad_params), decode_mirror_pad },
	{ OPVER_OP_SPLIT, OPTIONS_SPLIT, "SplitOptions",
	  sizeof(opver_split_params), decode_split },
	{ OPVER_OP_SPLIT_V, OPTIONS_SPLIT_V, "SplitVOptions",
	  sizeof(opver_split_params), decode_split_v },
	{ OPVER_OP_PACK, OPTIONS_PACK, "PackOptions",
	  sizeof(opver_pack_params), decode_pack },
	{ OPVER_OP_UNPACK, OPTIONS_UNPACK, "UnpackOptions",
	  sizeof(opver_unpack_params), decode_unpack },
	{ OPVER_OP_SQUEEZE, OPTIONS_SQUEEZE, "SqueezeOptions",
	  sizeof(opver_squeeze_params), decode_squeeze },
	{ OPVER_OP_EXPAND_DIMS, OPTIONS_EXPAND_DIMS, "ExpandDimsOptions", 0,
	  decode_nothing },
	{ OPVER_OP_TRANSPOSE, OPTIONS_TRANSPOSE, "TransposeOptions", 0,
	  decode_nothing },
	{ OPVER_OP_SLICE, OPTIONS_SLICE, "SliceOptions", 0, decode_nothing },
	{ OPVER_OP_STRIDED_SLICE, OPTIONS_STRIDED_SLICE, "StridedSliceOptions",
	  sizeof(opver_strided_slice_params), decode_strided_slice },
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
