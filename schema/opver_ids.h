/*
 * opver_ids.h - the field ids and union type codes of schema/opver.fbs,
 * for the code that reads and writes the FlatBuffer by hand: the core's
 * model reader (core/model_*.c) and options decoder
 * (core/op_params.c), and opver-conformance's model writer
 * (tools/conformance/model_builder.c).
 *
 *   OPVER_SCHEMA_FIELDS         X(name, id, table, field): one row per
 *                               field id
 *   OPVER_SCHEMA_UNION_MEMBERS  X(name, code, union, member): one row per
 *                               union type code
 *
 * Each list expands to an anonymous enum of its names, and
 * tests/test_schema_ids.c walks the same lists to check every row against
 * opver.fbs.  A field's id is its position in its table declaration,
 * counting from 0, with a union field taking two ids as flatc counts them:
 * FIELD_type (the type code, a ubyte), then FIELD (the table).  A union
 * member's type code is the value opver.fbs gives it (TFLite's); 0 is
 * NONE.  Adding a row here is all it takes to name another id.
 *
 * Plain enums and no includes: the header serves the core and tools that
 * see only the public API alike.
 */
#ifndef OPVER_SCHEMA_OPVER_IDS_H
#define OPVER_SCHEMA_OPVER_IDS_H

#define OPVER_SCHEMA_FIELDS(X) \
	X(MODEL_VERSION, 0, "Model", "version") \
	X(MODEL_OPERATOR_CODES, 1, "Model", "operator_codes") \
	X(MODEL_SUBGRAPHS, 2, "Model", "subgraphs") \
	X(MODEL_DESCRIPTION, 3, "Model", "description") \
	X(MODEL_BUFFERS, 4, "Model", "buffers") \
	X(MODEL_METADATA_BUFFER, 5, "Model", "metadata_buffer") \
	X(MODEL_METADATA, 6, "Model", "metadata") \
	X(MODEL_SIGNATURE_DEFS, 7, "Model", "signature_defs") \
	\
	X(CODE_DEPRECATED_BUILTIN_CODE, 0, \
	  "OperatorCode", "deprecated_builtin_code") \
	X(CODE_CUSTOM_CODE, 1, "OperatorCode", "custom_code") \
	X(CODE_VERSION, 2, "OperatorCode", "version") \
	X(CODE_BUILTIN_CODE, 3, "OperatorCode", "builtin_code") \
	\
	X(SUBGRAPH_TENSORS, 0, "SubGraph", "tensors") \
	X(SUBGRAPH_INPUTS, 1, "SubGraph", "inputs") \
	X(SUBGRAPH_OUTPUTS, 2, "SubGraph", "outputs") \
	X(SUBGRAPH_OPERATORS, 3, "SubGraph", "operators") \
	X(SUBGRAPH_NAME, 4, "SubGraph", "name") \
	\
	X(TENSOR_SHAPE, 0, "Tensor", "shape") \
	X(TENSOR_TYPE, 1, "Tensor", "type") \
	X(TENSOR_BUFFER, 2, "Tensor", "buffer") \
	X(TENSOR_NAME, 3, "Tensor", "name") \
	X(TENSOR_QUANTIZATION, 4, "Tensor", "quantization") \
	X(TENSOR_IS_VARIABLE, 5, "Tensor", "is_variable") \
	X(TENSOR_SPARSITY, 6, "Tensor", "sparsity") \
	\
	X(QUANT_MIN, 0, "QuantizationParameters", "min") \
	X(QUANT_MAX, 1, "QuantizationParameters", "max") \
	X(QUANT_SCALE, 2, "QuantizationParameters", "scale") \
	X(QUANT_ZERO_POINT, 3, "QuantizationParameters", "zero_point") \
	X(QUANT_DETAILS_TYPE, 4, "QuantizationParameters", "details_type") \
	X(QUANT_DETAILS, 5, "QuantizationParameters", "details") \
	X(QUANT_DIMENSION, 6, "QuantizationParameters", "quantized_dimension") \
	\
	X(OPERATOR_OPCODE_INDEX, 0, "Operator", "opcode_index") \
	X(OPERATOR_INPUTS, 1, "Operator", "inputs") \
	X(OPERATOR_OUTPUTS, 2, "Operator", "outputs") \
	X(OPERATOR_BUILTIN_OPTIONS_TYPE, 3, \
	  "Operator", "builtin_options_type") \
	X(OPERATOR_BUILTIN_OPTIONS, 4, "Operator", "builtin_options") \
	X(OPERATOR_CUSTOM_OPTIONS, 5, "Operator", "custom_options") \
	X(OPERATOR_CUSTOM_OPTIONS_FORMAT, 6, \
	  "Operator", "custom_options_format") \
	X(OPERATOR_MUTATING_VARIABLE_INPUTS, 7, \
	  "Operator", "mutating_variable_inputs") \
	X(OPERATOR_INTERMEDIATES, 8, "Operator", "intermediates") \
	X(OPERATOR_LARGE_CUSTOM_OPTIONS_OFFSET, 9, \
	  "Operator", "large_custom_options_offset") \
	X(OPERATOR_LARGE_CUSTOM_OPTIONS_SIZE, 10, \
	  "Operator", "large_custom_options_size") \
	\
	X(BUFFER_DATA, 0, "Buffer", "data") \
	X(BUFFER_OFFSET, 1, "Buffer", "offset") \
	X(BUFFER_SIZE, 2, "Buffer", "size") \
	\
	X(METADATA_NAME, 0, "Metadata", "name") \
	X(METADATA_BUFFER, 1, "Metadata", "buffer") \
	\
	X(TENSOR_MAP_NAME, 0, "TensorMap", "name") \
	X(TENSOR_MAP_TENSOR_INDEX, 1, "TensorMap", "tensor_index") \
	\
	X(SIGNATURE_INPUTS, 0, "SignatureDef", "inputs") \
	X(SIGNATURE_OUTPUTS, 1, "SignatureDef", "outputs") \
	X(SIGNATURE_KEY, 2, "SignatureDef", "signature_key") \
	X(SIGNATURE_DEPRECATED_TAG, 3, "SignatureDef", "deprecated_tag") \
	X(SIGNATURE_SUBGRAPH_INDEX, 4, "SignatureDef", "subgraph_index") \
	\
	X(CONV_PADDING, 0, "Conv2DOptions", "padding") \
	X(CONV_STRIDE_W, 1, "Conv2DOptions", "stride_w") \
	X(CONV_STRIDE_H, 2, "Conv2DOptions", "stride_h") \
	X(CONV_ACTIVATION, 3, "Conv2DOptions", "fused_activation_function") \
	X(CONV_DILATION_W, 4, "Conv2DOptions", "dilation_w_factor") \
	X(CONV_DILATION_H, 5, "Conv2DOptions", "dilation_h_factor") \
	X(CONV_QUANTIZED_BIAS_TYPE, 6, "Conv2DOptions", "quantized_bias_type") \
	\
	X(DW_PADDING, 0, "DepthwiseConv2DOptions", "padding") \
	X(DW_STRIDE_W, 1, "DepthwiseConv2DOptions", "stride_w") \
	X(DW_STRIDE_H, 2, "DepthwiseConv2DOptions", "stride_h") \
	X(DW_DEPTH_MULTIPLIER, 3, \
	  "DepthwiseConv2DOptions", "depth_multiplier") \
	X(DW_ACTIVATION, 4, \
	  "DepthwiseConv2DOptions", "fused_activation_function") \
	X(DW_DILATION_W, 5, "DepthwiseConv2DOptions", "dilation_w_factor") \
	X(DW_DILATION_H, 6, "DepthwiseConv2DOptions", "dilation_h_factor") \
	\
	X(POOL_PADDING, 0, "Pool2DOptions", "padding") \
	X(POOL_STRIDE_W, 1, "Pool2DOptions", "stride_w") \
	X(POOL_STRIDE_H, 2, "Pool2DOptions", "stride_h") \
	X(POOL_FILTER_W, 3, "Pool2DOptions", "filter_width") \
	X(POOL_FILTER_H, 4, "Pool2DOptions", "filter_height") \
	X(POOL_ACTIVATION, 5, "Pool2DOptions", "fused_activation_function") \
	\
	X(FC_ACTIVATION, 0, \
	  "FullyConnectedOptions", "fused_activation_function") \
	X(FC_WEIGHTS_FORMAT, 1, "FullyConnectedOptions", "weights_format") \
	X(FC_KEEP_NUM_DIMS, 2, "FullyConnectedOptions", "keep_num_dims") \
	X(FC_ASYMMETRIC_QUANTIZE_INPUTS, 3, \
	  "FullyConnectedOptions", "asymmetric_quantize_inputs") \
	X(FC_QUANTIZED_BIAS_TYPE, 4, \
	  "FullyConnectedOptions", "quantized_bias_type") \
	\
	X(SOFTMAX_BETA, 0, "SoftmaxOptions", "beta") \
	\
	X(ADD_ACTIVATION, 0, "AddOptions", "fused_activation_function") \
	X(ADD_POT_SCALE_INT16, 1, "AddOptions", "pot_scale_int16") \
	\
	X(RESHAPE_NEW_SHAPE, 0, "ReshapeOptions", "new_shape") \
	\
	X(MUL_ACTIVATION, 0, "MulOptions", "fused_activation_function") \
	\
	X(SUB_ACTIVATION, 0, "SubOptions", "fused_activation_function") \
	X(SUB_POT_SCALE_INT16, 1, "SubOptions", "pot_scale_int16") \
	\
	X(DIV_ACTIVATION, 0, "DivOptions", "fused_activation_function") \
	\
	X(LEAKY_RELU_ALPHA, 0, "LeakyReluOptions", "alpha") \
	\
	X(GELU_APPROXIMATE, 0, "GeluOptions", "approximate") \
	\
	X(REDUCER_KEEP_DIMS, 0, "ReducerOptions", "keep_dims") \
	\
	X(ARG_MAX_OUTPUT_TYPE, 0, "ArgMaxOptions", "output_type") \
	\
	X(ARG_MIN_OUTPUT_TYPE, 0, "ArgMinOptions", "output_type") \
	\
	X(GATHER_AXIS, 0, "GatherOptions", "axis") \
	X(GATHER_BATCH_DIMS, 1, "GatherOptions", "batch_dims") \
	\
	X(SHAPE_OUT_TYPE, 0, "ShapeOptions", "out_type") \
	\
	X(SPACE_TO_DEPTH_BLOCK_SIZE, 0, "SpaceToDepthOptions", "block_size") \
	\
	X(DEPTH_TO_SPACE_BLOCK_SIZE, 0, "DepthToSpaceOptions", "block_size") \
	\
	X(CONCATENATION_AXIS, 0, "ConcatenationOptions", "axis") \
	X(CONCATENATION_ACTIVATION, 1, \
	  "ConcatenationOptions", "fused_activation_function") \
	\
	X(MIRROR_PAD_MODE, 0, "MirrorPadOptions", "mode") \
	\
	X(SPLIT_NUM_SPLITS, 0, "SplitOptions", "num_splits") \
	\
	X(SPLIT_V_NUM_SPLITS, 0, "SplitVOptions", "num_splits") \
	\
	X(PACK_VALUES_COUNT, 0, "PackOptions", "values_count") \
	X(PACK_AXIS, 1, "PackOptions", "axis") \
	\
	X(UNPACK_NUM, 0, "UnpackOptions", "num") \
	X(UNPACK_AXIS, 1, "UnpackOptions", "axis") \
	\
	X(SQUEEZE_DIMS, 0, "SqueezeOptions", "squeeze_dims") \
	\
	X(STRIDED_SLICE_BEGIN_MASK, 0, "StridedSliceOptions", "begin_mask") \
	X(STRIDED_SLICE_END_MASK, 1, "StridedSliceOptions", "end_mask") \
	X(STRIDED_SLICE_ELLIPSIS_MASK, 2, \
	  "StridedSliceOptions", "ellipsis_mask") \
	X(STRIDED_SLICE_NEW_AXIS_MASK, 3, \
	  "StridedSliceOptions", "new_axis_mask") \
	X(STRIDED_SLICE_SHRINK_AXIS_MASK, 4, \
	  "StridedSliceOptions", "shrink_axis_mask") \
	X(STRIDED_SLICE_OFFSET, 5, "StridedSliceOptions", "offset") \
	\
	X(L2_NORM_ACTIVATION, 0, "L2NormOptions", "fused_activation_function") \
	\
	X(RESIZE_BILINEAR_ALIGN_CORNERS, 2, \
	  "ResizeBilinearOptions", "align_corners") \
	X(RESIZE_BILINEAR_HALF_PIXEL_CENTERS, 3, \
	  "ResizeBilinearOptions", "half_pixel_centers") \
	\
	X(TCONV_PADDING, 0, "TransposeConvOptions", "padding") \
	X(TCONV_STRIDE_W, 1, "TransposeConvOptions", "stride_w") \
	X(TCONV_STRIDE_H, 2, "TransposeConvOptions", "stride_h") \
	X(TCONV_ACTIVATION, 3, \
	  "TransposeConvOptions", "fused_activation_function") \
	X(TCONV_QUANTIZED_BIAS_TYPE, 4, \
	  "TransposeConvOptions", "quantized_bias_type") \
	\
	X(RESIZE_NN_ALIGN_CORNERS, 0, \
	  "ResizeNearestNeighborOptions", "align_corners") \
	X(RESIZE_NN_HALF_PIXEL_CENTERS, 1, \
	  "ResizeNearestNeighborOptions", "half_pixel_centers") \
	\
	X(BATCH_MATMUL_ADJ_X, 0, "BatchMatMulOptions", "adj_x") \
	X(BATCH_MATMUL_ADJ_Y, 1, "BatchMatMulOptions", "adj_y") \
	X(BATCH_MATMUL_ASYMMETRIC_QUANTIZE_INPUTS, 2, \
	  "BatchMatMulOptions", "asymmetric_quantize_inputs") \
	\
	X(CUMSUM_EXCLUSIVE, 0, "CumsumOptions", "exclusive") \
	X(CUMSUM_REVERSE, 1, "CumsumOptions", "reverse") \
	\
	X(SVDF_RANK, 0, "SVDFOptions", "rank") \
	X(SVDF_ACTIVATION, 1, "SVDFOptions", "fused_activation_function") \
	X(SVDF_ASYMMETRIC_QUANTIZE_INPUTS, 2, \
	  "SVDFOptions", "asymmetric_quantize_inputs") \
	\
	X(ONE_HOT_AXIS, 0, "OneHotOptions", "axis") \
	\
	X(IF_THEN_SUBGRAPH_INDEX, 0, "IfOptions", "then_subgraph_index") \
	X(IF_ELSE_SUBGRAPH_INDEX, 1, "IfOptions", "else_subgraph_index") \
	X(WHILE_COND_SUBGRAPH_INDEX, 0, "WhileOptions", "cond_subgraph_index") \
	X(WHILE_BODY_SUBGRAPH_INDEX, 1, "WhileOptions", "body_subgraph_index") \
	X(CALL_ONCE_INIT_SUBGRAPH_INDEX, 0, "CallOnceOptions", \
	  "init_subgraph_index") \
	X(VAR_HANDLE_CONTAINER, 0, "VarHandleOptions", "container") \
	X(VAR_HANDLE_SHARED_NAME, 1, "VarHandleOptions", "shared_name") \
	\
	X(LRN_RADIUS, 0, "LocalResponseNormalizationOptions", "radius") \
	X(LRN_BIAS, 1, "LocalResponseNormalizationOptions", "bias") \
	X(LRN_ALPHA, 2, "LocalResponseNormalizationOptions", "alpha") \
	X(LRN_BETA, 3, "LocalResponseNormalizationOptions", "beta") \
	\
	X(SEQUENCE_RNN_TIME_MAJOR, 0, "SequenceRNNOptions", "time_major") \
	X(SEQUENCE_RNN_ACTIVATION, 1, \
	  "SequenceRNNOptions", "fused_activation_function") \
	X(SEQUENCE_RNN_ASYMMETRIC_QUANTIZE_INPUTS, 2, \
	  "SequenceRNNOptions", "asymmetric_quantize_inputs") \
	\
	X(SEQUENCE_LSTM_ACTIVATION, 0, \
	  "UnidirectionalSequenceLSTMOptions", "fused_activation_function") \
	X(SEQUENCE_LSTM_CELL_CLIP, 1, \
	  "UnidirectionalSequenceLSTMOptions", "cell_clip") \
	X(SEQUENCE_LSTM_PROJ_CLIP, 2, \
	  "UnidirectionalSequenceLSTMOptions", "proj_clip") \
	X(SEQUENCE_LSTM_TIME_MAJOR, 3, \
	  "UnidirectionalSequenceLSTMOptions", "time_major") \
	X(SEQUENCE_LSTM_ASYMMETRIC_QUANTIZE_INPUTS, 4, \
	  "UnidirectionalSequenceLSTMOptions", "asymmetric_quantize_inputs") \
	X(SEQUENCE_LSTM_DIAGONAL_RECURRENT_TENSORS, 5, \
	  "UnidirectionalSequenceLSTMOptions", "diagonal_recurrent_tensors")

#define OPVER_SCHEMA_UNION_MEMBERS(X) \
	X(OPTIONS_CONV_2D, 1, "BuiltinOptions", "Conv2DOptions") \
	X(OPTIONS_DEPTHWISE_CONV_2D, 2, \
	  "BuiltinOptions", "DepthwiseConv2DOptions") \
	X(OPTIONS_POOL_2D, 5, "BuiltinOptions", "Pool2DOptions") \
	X(OPTIONS_SVDF, 6, "BuiltinOptions", "SVDFOptions") \
	X(OPTIONS_FULLY_CONNECTED, 8, \
	  "BuiltinOptions", "FullyConnectedOptions") \
	X(OPTIONS_SOFTMAX, 9, "BuiltinOptions", "SoftmaxOptions") \
	X(OPTIONS_CONCATENATION, 10, "BuiltinOptions", "ConcatenationOptions") \
	X(OPTIONS_ADD, 11, "BuiltinOptions", "AddOptions") \
	X(OPTIONS_L2_NORM, 12, "BuiltinOptions", "L2NormOptions") \
	X(OPTIONS_LOCAL_RESPONSE_NORM, 13, "BuiltinOptions", \
	  "LocalResponseNormalizationOptions") \
	X(OPTIONS_RESIZE_BILINEAR, 15, \
	  "BuiltinOptions", "ResizeBilinearOptions") \
	X(OPTIONS_RESHAPE, 17, "BuiltinOptions", "ReshapeOptions") \
	X(OPTIONS_SPACE_TO_DEPTH, 19, "BuiltinOptions", "SpaceToDepthOptions") \
	X(OPTIONS_MUL, 21, "BuiltinOptions", "MulOptions") \
	X(OPTIONS_PAD, 22, "BuiltinOptions", "PadOptions") \
	X(OPTIONS_GATHER, 23, "BuiltinOptions", "GatherOptions") \
	X(OPTIONS_BATCH_TO_SPACE_ND, 24, \
	  "BuiltinOptions", "BatchToSpaceNDOptions") \
	X(OPTIONS_SPACE_TO_BATCH_ND, 25, \
	  "BuiltinOptions", "SpaceToBatchNDOptions") \
	X(OPTIONS_TRANSPOSE, 26, "BuiltinOptions", "TransposeOptions") \
	X(OPTIONS_REDUCER, 27, "BuiltinOptions", "ReducerOptions") \
	X(OPTIONS_SUB, 28, "BuiltinOptions", "SubOptions") \
	X(OPTIONS_DIV, 29, "BuiltinOptions", "DivOptions") \
	X(OPTIONS_SQUEEZE, 30, "BuiltinOptions", "SqueezeOptions") \
	X(OPTIONS_SEQUENCE_RNN, 31, "BuiltinOptions", "SequenceRNNOptions") \
	X(OPTIONS_STRIDED_SLICE, 32, "BuiltinOptions", "StridedSliceOptions") \
	X(OPTIONS_SPLIT, 35, "BuiltinOptions", "SplitOptions") \
	X(OPTIONS_CAST, 37, "BuiltinOptions", "CastOptions") \
	X(OPTIONS_DEQUANTIZE, 38, "BuiltinOptions", "DequantizeOptions") \
	X(OPTIONS_MAXIMUM_MINIMUM, 39, \
	  "BuiltinOptions", "MaximumMinimumOptions") \
	X(OPTIONS_ARG_MAX, 40, "BuiltinOptions", "ArgMaxOptions") \
	X(OPTIONS_PADV2, 43, "BuiltinOptions", "PadV2Options") \
	X(OPTIONS_SLICE, 48, "BuiltinOptions", "SliceOptions") \
	X(OPTIONS_TRANSPOSE_CONV, 49, \
	  "BuiltinOptions", "TransposeConvOptions") \
	X(OPTIONS_TILE, 51, "BuiltinOptions", "TileOptions") \
	X(OPTIONS_EXPAND_DIMS, 52, "BuiltinOptions", "ExpandDimsOptions") \
	X(OPTIONS_SHAPE, 55, "BuiltinOptions", "ShapeOptions") \
	X(OPTIONS_ARG_MIN, 57, "BuiltinOptions", "ArgMinOptions") \
	X(OPTIONS_PACK, 59, "BuiltinOptions", "PackOptions") \
	X(OPTIONS_ONE_HOT, 61, "BuiltinOptions", "OneHotOptions") \
	X(OPTIONS_UNPACK, 64, "BuiltinOptions", "UnpackOptions") \
	X(OPTIONS_ZEROS_LIKE, 67, "BuiltinOptions", "ZerosLikeOptions") \
	X(OPTIONS_FILL, 68, "BuiltinOptions", "FillOptions") \
	X(OPTIONS_UNIDIRECTIONAL_SEQUENCE_LSTM, 71, \
	  "BuiltinOptions", "UnidirectionalSequenceLSTMOptions") \
	X(OPTIONS_RESIZE_NEAREST_NEIGHBOR, 74, \
	  "BuiltinOptions", "ResizeNearestNeighborOptions") \
	X(OPTIONS_LEAKY_RELU, 75, "BuiltinOptions", "LeakyReluOptions") \
	X(OPTIONS_SQUARED_DIFFERENCE, 76, \
	  "BuiltinOptions", "SquaredDifferenceOptions") \
	X(OPTIONS_MIRROR_PAD, 77, "BuiltinOptions", "MirrorPadOptions") \
	X(OPTIONS_SPLIT_V, 79, "BuiltinOptions", "SplitVOptions") \
	X(OPTIONS_GATHER_ND, 83, "BuiltinOptions", "GatherNdOptions") \
	X(OPTIONS_QUANTIZE, 89, "BuiltinOptions", "QuantizeOptions") \
	X(OPTIONS_IF, 92, "BuiltinOptions", "IfOptions") \
	X(OPTIONS_WHILE, 93, "BuiltinOptions", "WhileOptions") \
	X(OPTIONS_DEPTH_TO_SPACE, 94, "BuiltinOptions", "DepthToSpaceOptions") \
	X(OPTIONS_BATCH_MATMUL, 101, "BuiltinOptions", "BatchMatMulOptions") \
	X(OPTIONS_CUMSUM, 102, "BuiltinOptions", "CumsumOptions") \
	X(OPTIONS_CALL_ONCE, 103, "BuiltinOptions", "CallOnceOptions") \
	X(OPTIONS_BROADCAST_TO, 104, "BuiltinOptions", "BroadcastToOptions") \
	X(OPTIONS_VAR_HANDLE, 111, "BuiltinOptions", "VarHandleOptions") \
	X(OPTIONS_READ_VARIABLE, 112, "BuiltinOptions", "ReadVariableOptions") \
	X(OPTIONS_ASSIGN_VARIABLE, 113, "BuiltinOptions", \
	  "AssignVariableOptions") \
	X(OPTIONS_GELU, 116, "BuiltinOptions", "GeluOptions")

#define OPVER_SCHEMA_ENUMERATOR_(name, value, container, member) name = value,
enum { OPVER_SCHEMA_FIELDS(OPVER_SCHEMA_ENUMERATOR_) };
enum { OPVER_SCHEMA_UNION_MEMBERS(OPVER_SCHEMA_ENUMERATOR_) };
#undef OPVER_SCHEMA_ENUMERATOR_

#endif /* OPVER_SCHEMA_OPVER_IDS_H */
