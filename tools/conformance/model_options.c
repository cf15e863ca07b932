/*
 * model_options.c - each op's builtin options table, as model_builder.c
 * writes it, from the op's parameter struct (include/opver/ops.h): field
 * ids from schema/opver_ids.h, widths as the schema declares them.
 */
#include <string.h>

#include "model_builder.h"
#include "model_options.h"
#include "schema/opver_ids.h"

bool cf_has_options(int32_t op)
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
	case OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN:
	case OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM:
		return true;
	default:
		return false;
	}
}

uint8_t cf_options_table(int32_t op, const void *params, cf_table *t)
{
	switch (op) {
	case OPVER_OP_CONV_2D: {
		const opver_conv_params *p = params;

		cf_set_field(t, CONV_PADDING, 1, (uint32_t)p->padding);
		cf_set_field(t, CONV_STRIDE_W, 4, (uint32_t)p->stride_width);
		cf_set_field(t, CONV_STRIDE_H, 4, (uint32_t)p->stride_height);
		cf_set_field(t, CONV_ACTIVATION, 1, (uint32_t)p->activation);
		cf_set_field(t, CONV_DILATION_W, 4, (uint32_t)p->dilation_width);
		cf_set_field(t, CONV_DILATION_H, 4, (uint32_t)p->dilation_height);
		cf_set_field(t, CONV_QUANTIZED_BIAS_TYPE, 1,
			  (uint32_t)p->quantized_bias_type);
		return OPTIONS_CONV_2D;
	}
	case OPVER_OP_DEPTHWISE_CONV_2D: {
		const opver_depthwise_conv_params *p = params;

		cf_set_field(t, DW_PADDING, 1, (uint32_t)p->padding);
		cf_set_field(t, DW_STRIDE_W, 4, (uint32_t)p->stride_width);
		cf_set_field(t, DW_STRIDE_H, 4, (uint32_t)p->stride_height);
		cf_set_field(t, DW_DEPTH_MULTIPLIER, 4,
			  (uint32_t)p->depth_multiplier);
		cf_set_field(t, DW_ACTIVATION, 1, (uint32_t)p->activation);
		cf_set_field(t, DW_DILATION_W, 4, (uint32_t)p->dilation_width);
		cf_set_field(t, DW_DILATION_H, 4, (uint32_t)p->dilation_height);
		return OPTIONS_DEPTHWISE_CONV_2D;
	}
	case OPVER_OP_AVERAGE_POOL_2D:
	case OPVER_OP_MAX_POOL_2D:
	case OPVER_OP_L2_POOL_2D: {
		const opver_pool_params *p = params;

		cf_set_field(t, POOL_PADDING, 1, (uint32_t)p->padding);
		cf_set_field(t, POOL_STRIDE_W, 4, (uint32_t)p->stride_width);
		cf_set_field(t, POOL_STRIDE_H, 4, (uint32_t)p->stride_height);
		cf_set_field(t, POOL_FILTER_W, 4, (uint32_t)p->filter_width);
		cf_set_field(t, POOL_FILTER_H, 4, (uint32_t)p->filter_height);
		cf_set_field(t, POOL_ACTIVATION, 1, (uint32_t)p->activation);
		return OPTIONS_POOL_2D;
	}
	case OPVER_OP_FULLY_CONNECTED: {
		const opver_fully_connected_params *p = params;

		cf_set_field(t, FC_ACTIVATION, 1, (uint32_t)p->activation);
		cf_set_field(t, FC_WEIGHTS_FORMAT, 1, (uint32_t)p->weights_format);
		cf_set_field(t, FC_KEEP_NUM_DIMS, 1, p->keep_num_dims);
		cf_set_field(t, FC_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  p->asymmetric_quantize_inputs);
		cf_set_field(t, FC_QUANTIZED_BIAS_TYPE, 1,
			  (uint32_t)p->quantized_bias_type);
		return OPTIONS_FULLY_CONNECTED;
	}
	case OPVER_OP_SOFTMAX: {
		const opver_softmax_params *p = params;
		uint32_t bits;

		memcpy(&bits, &p->beta, sizeof(bits));
		cf_set_field(t, SOFTMAX_BETA, 4, bits);
		return OPTIONS_SOFTMAX;
	}
	case OPVER_OP_ADD: {
		const opver_add_params *p = params;

		cf_set_field(t, ADD_ACTIVATION, 1, (uint32_t)p->activation);
		cf_set_field(t, ADD_POT_SCALE_INT16, 1, p->pot_scale_int16);
		return OPTIONS_ADD;
	}
	case OPVER_OP_MUL: {
		const opver_mul_params *p = params;

		cf_set_field(t, MUL_ACTIVATION, 1, (uint32_t)p->activation);
		return OPTIONS_MUL;
	}
	case OPVER_OP_RESHAPE: {
		const opver_reshape_params *p = params;

		if (p->num_dims > 0)
			cf_set_field(t, RESHAPE_NEW_SHAPE, 4, 0);
		return OPTIONS_RESHAPE;
	}
	case OPVER_OP_QUANTIZE:
		return OPTIONS_QUANTIZE;
	case OPVER_OP_SUB: {
		const opver_sub_params *p = params;

		cf_set_field(t, SUB_ACTIVATION, 1, (uint32_t)p->activation);
		cf_set_field(t, SUB_POT_SCALE_INT16, 1, p->pot_scale_int16);
		return OPTIONS_SUB;
	}
	case OPVER_OP_DIV: {
		const opver_div_params *p = params;

		cf_set_field(t, DIV_ACTIVATION, 1, (uint32_t)p->activation);
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
		cf_set_field(t, LEAKY_RELU_ALPHA, 4, bits);
		return OPTIONS_LEAKY_RELU;
	}
	case OPVER_OP_GELU: {
		const opver_gelu_params *p = params;

		cf_set_field(t, GELU_APPROXIMATE, 1, p->approximate != 0);
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

		cf_set_field(t, REDUCER_KEEP_DIMS, 1, p->keep_dims);
		return OPTIONS_REDUCER;
	}
	case OPVER_OP_ARG_MAX:
	case OPVER_OP_ARG_MIN: {
		const opver_arg_min_max_params *p = params;

		/* The two tables have the field at the same id. */
		cf_set_field(t, ARG_MAX_OUTPUT_TYPE, 1, (uint32_t)p->output_type);
		return op == OPVER_OP_ARG_MAX ? OPTIONS_ARG_MAX
					      : OPTIONS_ARG_MIN;
	}
	case OPVER_OP_GATHER: {
		const opver_gather_params *p = params;

		cf_set_field(t, GATHER_AXIS, 4, (uint32_t)p->axis);
		cf_set_field(t, GATHER_BATCH_DIMS, 4, (uint32_t)p->batch_dims);
		return OPTIONS_GATHER;
	}
	case OPVER_OP_SHAPE: {
		const opver_shape_params *p = params;

		cf_set_field(t, SHAPE_OUT_TYPE, 1, (uint32_t)p->out_type);
		return OPTIONS_SHAPE;
	}
	case OPVER_OP_SPACE_TO_DEPTH: {
		const opver_space_depth_params *p = params;

		cf_set_field(t, SPACE_TO_DEPTH_BLOCK_SIZE, 4,
			  (uint32_t)p->block_size);
		return OPTIONS_SPACE_TO_DEPTH;
	}
	case OPVER_OP_DEPTH_TO_SPACE: {
		const opver_space_depth_params *p = params;

		cf_set_field(t, DEPTH_TO_SPACE_BLOCK_SIZE, 4,
			  (uint32_t)p->block_size);
		return OPTIONS_DEPTH_TO_SPACE;
	}
	case OPVER_OP_CONCATENATION: {
		const opver_concatenation_params *p = params;

		cf_set_field(t, CONCATENATION_AXIS, 4, (uint32_t)p->axis);
		cf_set_field(t, CONCATENATION_ACTIVATION, 1,
			  (uint32_t)p->activation);
		return OPTIONS_CONCATENATION;
	}
	case OPVER_OP_PAD:
		return OPTIONS_PAD;
	case OPVER_OP_PADV2:
		return OPTIONS_PADV2;
	case OPVER_OP_MIRROR_PAD: {
		const opver_mirror_pad_params *p = params;

		cf_set_field(t, MIRROR_PAD_MODE, 1, (uint32_t)p->mode);
		return OPTIONS_MIRROR_PAD;
	}
	case OPVER_OP_SPLIT: {
		const opver_split_params *p = params;

		cf_set_field(t, SPLIT_NUM_SPLITS, 4, (uint32_t)p->num_splits);
		return OPTIONS_SPLIT;
	}
	case OPVER_OP_SPLIT_V: {
		const opver_split_params *p = params;

		cf_set_field(t, SPLIT_V_NUM_SPLITS, 4, (uint32_t)p->num_splits);
		return OPTIONS_SPLIT_V;
	}
	case OPVER_OP_PACK: {
		const opver_pack_params *p = params;

		cf_set_field(t, PACK_VALUES_COUNT, 4, (uint32_t)p->values_count);
		cf_set_field(t, PACK_AXIS, 4, (uint32_t)p->axis);
		return OPTIONS_PACK;
	}
	case OPVER_OP_UNPACK: {
		const opver_unpack_params *p = params;

		cf_set_field(t, UNPACK_NUM, 4, (uint32_t)p->num);
		cf_set_field(t, UNPACK_AXIS, 4, (uint32_t)p->axis);
		return OPTIONS_UNPACK;
	}
	case OPVER_OP_SQUEEZE: {
		const opver_squeeze_params *p = params;

		if (p->num_dims > 0)
			cf_set_field(t, SQUEEZE_DIMS, 4, 0);
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

		cf_set_field(t, STRIDED_SLICE_BEGIN_MASK, 4,
			  (uint32_t)p->begin_mask);
		cf_set_field(t, STRIDED_SLICE_END_MASK, 4, (uint32_t)p->end_mask);
		cf_set_field(t, STRIDED_SLICE_ELLIPSIS_MASK, 4,
			  (uint32_t)p->ellipsis_mask);
		cf_set_field(t, STRIDED_SLICE_NEW_AXIS_MASK, 4,
			  (uint32_t)p->new_axis_mask);
		cf_set_field(t, STRIDED_SLICE_SHRINK_AXIS_MASK, 4,
			  (uint32_t)p->shrink_axis_mask);
		cf_set_field(t, STRIDED_SLICE_OFFSET, 1, p->offset != 0);
		return OPTIONS_STRIDED_SLICE;
	}
	case OPVER_OP_RESIZE_BILINEAR: {
		const opver_resize_bilinear_params *p = params;

		cf_set_field(t, RESIZE_BILINEAR_ALIGN_CORNERS, 1,
			  p->align_corners);
		cf_set_field(t, RESIZE_BILINEAR_HALF_PIXEL_CENTERS, 1,
			  p->half_pixel_centers);
		return OPTIONS_RESIZE_BILINEAR;
	}
	case OPVER_OP_RESIZE_NEAREST_NEIGHBOR: {
		const opver_resize_nearest_neighbor_params *p = params;

		cf_set_field(t, RESIZE_NN_ALIGN_CORNERS, 1, p->align_corners);
		cf_set_field(t, RESIZE_NN_HALF_PIXEL_CENTERS, 1,
			  p->half_pixel_centers);
		return OPTIONS_RESIZE_NEAREST_NEIGHBOR;
	}
	case OPVER_OP_TRANSPOSE_CONV: {
		const opver_transpose_conv_params *p = params;

		cf_set_field(t, TCONV_PADDING, 1, (uint32_t)p->padding);
		cf_set_field(t, TCONV_STRIDE_W, 4, (uint32_t)p->stride_width);
		cf_set_field(t, TCONV_STRIDE_H, 4, (uint32_t)p->stride_height);
		cf_set_field(t, TCONV_ACTIVATION, 1, (uint32_t)p->activation);
		cf_set_field(t, TCONV_QUANTIZED_BIAS_TYPE, 1,
			  (uint32_t)p->quantized_bias_type);
		return OPTIONS_TRANSPOSE_CONV;
	}
	case OPVER_OP_L2_NORMALIZATION: {
		const opver_l2_norm_params *p = params;

		cf_set_field(t, L2_NORM_ACTIVATION, 1, (uint32_t)p->activation);
		return OPTIONS_L2_NORM;
	}
	case OPVER_OP_BATCH_MATMUL: {
		const opver_batch_matmul_params *p = params;

		cf_set_field(t, BATCH_MATMUL_ADJ_X, 1, p->adj_x);
		cf_set_field(t, BATCH_MATMUL_ADJ_Y, 1, p->adj_y);
		cf_set_field(t, BATCH_MATMUL_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  p->asymmetric_quantize_inputs);
		return OPTIONS_BATCH_MATMUL;
	}
	case OPVER_OP_CUMSUM: {
		const opver_cumsum_params *p = params;

		cf_set_field(t, CUMSUM_EXCLUSIVE, 1, p->exclusive);
		cf_set_field(t, CUMSUM_REVERSE, 1, p->reverse);
		return OPTIONS_CUMSUM;
	}
	case OPVER_OP_SVDF: {
		const opver_svdf_params *p = params;

		cf_set_field(t, SVDF_RANK, 4, (uint32_t)p->rank);
		cf_set_field(t, SVDF_ACTIVATION, 1, (uint32_t)p->activation);
		cf_set_field(t, SVDF_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  p->asymmetric_quantize_inputs);
		return OPTIONS_SVDF;
	}
	case OPVER_OP_ONE_HOT: {
		const opver_one_hot_params *p = params;

		cf_set_field(t, ONE_HOT_AXIS, 4, (uint32_t)p->axis);
		return OPTIONS_ONE_HOT;
	}
	case OPVER_OP_LOCAL_RESPONSE_NORMALIZATION: {
		const opver_local_response_norm_params *p = params;
		uint32_t bits;

		cf_set_field(t, LRN_RADIUS, 4, (uint32_t)p->radius);
		memcpy(&bits, &p->bias, sizeof(bits));
		cf_set_field(t, LRN_BIAS, 4, bits);
		memcpy(&bits, &p->alpha, sizeof(bits));
		cf_set_field(t, LRN_ALPHA, 4, bits);
		memcpy(&bits, &p->beta, sizeof(bits));
		cf_set_field(t, LRN_BETA, 4, bits);
		return OPTIONS_LOCAL_RESPONSE_NORM;
	}
	case OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN: {
		const opver_sequence_rnn_params *p = params;

		cf_set_field(t, SEQUENCE_RNN_TIME_MAJOR, 1,
			  (uint32_t)p->time_major);
		cf_set_field(t, SEQUENCE_RNN_ACTIVATION, 1,
			  (uint32_t)p->activation);
		cf_set_field(t, SEQUENCE_RNN_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  (uint32_t)p->asymmetric_quantize_inputs);
		return OPTIONS_SEQUENCE_RNN;
	}
	case OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: {
		const opver_sequence_lstm_params *p = params;
		uint32_t bits;

		cf_set_field(t, SEQUENCE_LSTM_ACTIVATION, 1,
			  (uint32_t)p->activation);
		memcpy(&bits, &p->cell_clip, sizeof(bits));
		cf_set_field(t, SEQUENCE_LSTM_CELL_CLIP, 4, bits);
		memcpy(&bits, &p->proj_clip, sizeof(bits));
		cf_set_field(t, SEQUENCE_LSTM_PROJ_CLIP, 4, bits);
		cf_set_field(t, SEQUENCE_LSTM_TIME_MAJOR, 1,
			  (uint32_t)p->time_major);
		cf_set_field(t, SEQUENCE_LSTM_ASYMMETRIC_QUANTIZE_INPUTS, 1,
			  (uint32_t)p->asymmetric_quantize_inputs);
		cf_set_field(t, SEQUENCE_LSTM_DIAGONAL_RECURRENT_TENSORS, 1,
			  (uint32_t)p->diagonal_recurrent_tensors);
		return OPTIONS_UNIDIRECTIONAL_SEQUENCE_LSTM;
	}
	default: /* DEQUANTIZE: check_operator() let no other op through */
		return OPTIONS_DEQUANTIZE;
	}
}
