/*
 * opver/ops.h - operator codes and the versioned parameter structs kernels
 * read instead of the model file.
 *
 *   opver_op                  builtin operator codes, numbered as in .tflite
 *   opver_activation          fused activation functions
 *   opver_padding             SAME / VALID
 *   opver_fully_connected_params, ...
 *                             one struct per op with options, decoded by the
 *                             core from the node's options table
 *
 * Parameter structs follow TFLite's versioning contract: a field is appended
 * at the end with a comment naming the op version that added it, and its
 * default reproduces the older behaviour, so a kernel written for an older
 * version reads a correct prefix.  The core fills every field it knows and
 * passes the filled size in opver_node.params_size.
 */
#ifndef OPVER_OPS_H
#define OPVER_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include <opver/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, code): builtin operators, codes as in the .tflite BuiltinOperator. */
#define OPVER_OP_MAP(X)                          \
	X(ADD, 0)                                \
	X(AVERAGE_POOL_2D, 1)                    \
	X(CONCATENATION, 2)                      \
	X(CONV_2D, 3)                            \
	X(DEPTHWISE_CONV_2D, 4)                  \
	X(DEPTH_TO_SPACE, 5)                     \
	X(DEQUANTIZE, 6)                         \
	X(EMBEDDING_LOOKUP, 7)                   \
	X(FLOOR, 8)                              \
	X(FULLY_CONNECTED, 9)                    \
	X(HASHTABLE_LOOKUP, 10)                  \
	X(L2_NORMALIZATION, 11)                  \
	X(L2_POOL_2D, 12)                        \
	X(LOCAL_RESPONSE_NORMALIZATION, 13)      \
	X(LOGISTIC, 14)                          \
	X(LSH_PROJECTION, 15)                    \
	X(LSTM, 16)                              \
	X(MAX_POOL_2D, 17)                       \
	X(MUL, 18)                               \
	X(RELU, 19)                              \
	X(RELU_N1_TO_1, 20)                      \
	X(RELU6, 21)                             \
	X(RESHAPE, 22)                           \
	X(RESIZE_BILINEAR, 23)                   \
	X(RNN, 24)                               \
	X(SOFTMAX, 25)                           \
	X(SPACE_TO_DEPTH, 26)                    \
	X(SVDF, 27)                              \
	X(TANH, 28)                              \
	X(CONCAT_EMBEDDINGS, 29)                 \
	X(SKIP_GRAM, 30)                         \
	X(CALL, 31)                              \
	X(CUSTOM, 32)                            \
	X(EMBEDDING_LOOKUP_SPARSE, 33)           \
	X(PAD, 34)                               \
	X(UNIDIRECTIONAL_SEQUENCE_RNN, 35)       \
	X(GATHER, 36)                            \
	X(BATCH_TO_SPACE_ND, 37)                 \
	X(SPACE_TO_BATCH_ND, 38)                 \
	X(TRANSPOSE, 39)                         \
	X(MEAN, 40)                              \
	X(SUB, 41)                               \
	X(DIV, 42)                               \
	X(SQUEEZE, 43)                           \
	X(UNIDIRECTIONAL_SEQUENCE_LSTM, 44)      \
	X(STRIDED_SLICE, 45)                     \
	X(BIDIRECTIONAL_SEQUENCE_RNN, 46)        \
	X(EXP, 47)                               \
	X(TOPK_V2, 48)                           \
	X(SPLIT, 49)                             \
	X(LOG_SOFTMAX, 50)                       \
	X(DELEGATE, 51)                          \
	X(BIDIRECTIONAL_SEQUENCE_LSTM, 52)       \
	X(CAST, 53)                              \
	X(PRELU, 54)                             \
	X(MAXIMUM, 55)                           \
	X(ARG_MAX, 56)                           \
	X(MINIMUM, 57)                           \
	X(LESS, 58)                              \
	X(NEG, 59)                               \
	X(PADV2, 60)                             \
	X(GREATER, 61)                           \
	X(GREATER_EQUAL, 62)                     \
	X(LESS_EQUAL, 63)                        \
	X(SELECT, 64)                            \
	X(SLICE, 65)                             \
	X(SIN, 66)                               \
	X(TRANSPOSE_CONV, 67)                    \
	X(SPARSE_TO_DENSE, 68)                   \
	X(TILE, 69)                              \
	X(EXPAND_DIMS, 70)                       \
	X(EQUAL, 71)                             \
	X(NOT_EQUAL, 72)                         \
	X(LOG, 73)                               \
	X(SUM, 74)                               \
	X(SQRT, 75)                              \
	X(RSQRT, 76)                             \
	X(SHAPE, 77)                             \
	X(POW, 78)                               \
	X(ARG_MIN, 79)                           \
	X(FAKE_QUANT, 80)                        \
	X(REDUCE_PROD, 81)                       \
	X(REDUCE_MAX, 82)                        \
	X(PACK, 83)                              \
	X(LOGICAL_OR, 84)                        \
	X(ONE_HOT, 85)                           \
	X(LOGICAL_AND, 86)                       \
	X(LOGICAL_NOT, 87)                       \
	X(UNPACK, 88)                            \
	X(REDUCE_MIN, 89)                        \
	X(FLOOR_DIV, 90)                         \
	X(REDUCE_ANY, 91)                        \
	X(SQUARE, 92)                            \
	X(ZEROS_LIKE, 93)                        \
	X(FILL, 94)                              \
	X(FLOOR_MOD, 95)                         \
	X(RANGE, 96)                             \
	X(RESIZE_NEAREST_NEIGHBOR, 97)           \
	X(LEAKY_RELU, 98)                        \
	X(SQUARED_DIFFERENCE, 99)                \
	X(MIRROR_PAD, 100)                       \
	X(ABS, 101)                              \
	X(SPLIT_V, 102)                          \
	X(UNIQUE, 103)                           \
	X(CEIL, 104)                             \
	X(REVERSE_V2, 105)                       \
	X(ADD_N, 106)                            \
	X(GATHER_ND, 107)                        \
	X(COS, 108)                              \
	X(WHERE, 109)                            \
	X(RANK, 110)                             \
	X(ELU, 111)                              \
	X(REVERSE_SEQUENCE, 112)                 \
	X(MATRIX_DIAG, 113)                      \
	X(QUANTIZE, 114)                         \
	X(MATRIX_SET_DIAG, 115)                  \
	X(ROUND, 116)                            \
	X(HARD_SWISH, 117)                       \
	X(IF, 118)                               \
	X(WHILE, 119)                            \
	X(NON_MAX_SUPPRESSION_V4, 120)           \
	X(NON_MAX_SUPPRESSION_V5, 121)           \
	X(SCATTER_ND, 122)                       \
	X(SELECT_V2, 123)                        \
	X(DENSIFY, 124)                          \
	X(SEGMENT_SUM, 125)                      \
	X(BATCH_MATMUL, 126)                     \
	X(PLACEHOLDER_FOR_GREATER_OP_CODES, 127) \
	X(CUMSUM, 128)                           \
	X(CALL_ONCE, 129)                        \
	X(BROADCAST_TO, 130)                     \
	X(RFFT2D, 131)                           \
	X(CONV_3D, 132)                          \
	X(IMAG, 133)                             \
	X(REAL, 134)                             \
	X(COMPLEX_ABS, 135)                      \
	X(HASHTABLE, 136)                        \
	X(HASHTABLE_FIND, 137)                   \
	X(HASHTABLE_IMPORT, 138)                 \
	X(HASHTABLE_SIZE, 139)                   \
	X(REDUCE_ALL, 140)                       \
	X(CONV_3D_TRANSPOSE, 141)                \
	X(VAR_HANDLE, 142)                       \
	X(READ_VARIABLE, 143)                    \
	X(ASSIGN_VARIABLE, 144)                  \
	X(BROADCAST_ARGS, 145)                   \
	X(RANDOM_STANDARD_NORMAL, 146)           \
	X(BUCKETIZE, 147)                        \
	X(RANDOM_UNIFORM, 148)                   \
	X(MULTINOMIAL, 149)                      \
	X(GELU, 150)                             \
	X(DYNAMIC_UPDATE_SLICE, 151)             \
	X(RELU_0_TO_1, 152)                      \
	X(UNSORTED_SEGMENT_PROD, 153)            \
	X(UNSORTED_SEGMENT_MAX, 154)             \
	X(UNSORTED_SEGMENT_SUM, 155)             \
	X(ATAN2, 156)                            \
	X(UNSORTED_SEGMENT_MIN, 157)             \
	X(SIGN, 158)                             \
	X(BITCAST, 159)                          \
	X(BITWISE_XOR, 160)                      \
	X(RIGHT_SHIFT, 161)                      \
	X(STABLEHLO_LOGISTIC, 162)               \
	X(STABLEHLO_ADD, 163)                    \
	X(STABLEHLO_DIVIDE, 164)                 \
	X(STABLEHLO_MULTIPLY, 165)               \
	X(STABLEHLO_MAXIMUM, 166)                \
	X(STABLEHLO_RESHAPE, 167)                \
	X(STABLEHLO_CLAMP, 168)                  \
	X(STABLEHLO_CONCATENATE, 169)            \
	X(STABLEHLO_BROADCAST_IN_DIM, 170)       \
	X(STABLEHLO_CONVOLUTION, 171)            \
	X(STABLEHLO_SLICE, 172)                  \
	X(STABLEHLO_CUSTOM_CALL, 173)            \
	X(STABLEHLO_REDUCE, 174)                 \
	X(STABLEHLO_ABS, 175)                    \
	X(STABLEHLO_AND, 176)                    \
	X(STABLEHLO_COSINE, 177)                 \
	X(STABLEHLO_EXPONENTIAL, 178)            \
	X(STABLEHLO_FLOOR, 179)                  \
	X(STABLEHLO_LOG, 180)                    \
	X(STABLEHLO_MINIMUM, 181)                \
	X(STABLEHLO_NEGATE, 182)                 \
	X(STABLEHLO_OR, 183)                     \
	X(STABLEHLO_POWER, 184)                  \
	X(STABLEHLO_REMAINDER, 185)              \
	X(STABLEHLO_RSQRT, 186)                  \
	X(STABLEHLO_SELECT, 187)                 \
	X(STABLEHLO_SUBTRACT, 188)               \
	X(STABLEHLO_TANH, 189)                   \
	X(STABLEHLO_SCATTER, 190)                \
	X(STABLEHLO_COMPARE, 191)                \
	X(STABLEHLO_CONVERT, 192)                \
	X(STABLEHLO_DYNAMIC_SLICE, 193)          \
	X(STABLEHLO_DYNAMIC_UPDATE_SLICE, 194)   \
	X(STABLEHLO_PAD, 195)                    \
	X(STABLEHLO_IOTA, 196)                   \
	X(STABLEHLO_DOT_GENERAL, 197)            \
	X(STABLEHLO_REDUCE_WINDOW, 198)          \
	X(STABLEHLO_SORT, 199)                   \
	X(STABLEHLO_WHILE, 200)                  \
	X(STABLEHLO_GATHER, 201)                 \
	X(STABLEHLO_TRANSPOSE, 202)              \
	X(DILATE, 203)                           \
	X(STABLEHLO_RNG_BIT_GENERATOR, 204)      \
	X(REDUCE_WINDOW, 205)                    \
	X(STABLEHLO_COMPOSITE, 206)              \
	X(COMPLEX, 207)

typedef enum opver_op {
#define OPVER__OP_ENUM(name, code) OPVER_OP_##name = code,
	OPVER_OP_MAP(OPVER__OP_ENUM)
#undef OPVER__OP_ENUM
} opver_op;

/* Fused activation, values as in .tflite ActivationFunctionType. */
typedef enum opver_activation {
	OPVER_ACTIVATION_NONE = 0,
	OPVER_ACTIVATION_RELU = 1,
	OPVER_ACTIVATION_RELU_N1_TO_1 = 2,
	OPVER_ACTIVATION_RELU6 = 3,
	OPVER_ACTIVATION_TANH = 4,
	OPVER_ACTIVATION_SIGN_BIT = 5
} opver_activation;

/* Padding, values as in .tflite Padding. */
typedef enum opver_padding {
	OPVER_PADDING_SAME = 0,
	OPVER_PADDING_VALID = 1
} opver_padding;

/* Weight layout of FULLY_CONNECTED, values as in .tflite. */
typedef enum opver_fc_weights_format {
	OPVER_FC_WEIGHTS_DEFAULT = 0,
	OPVER_FC_WEIGHTS_SHUFFLED4x16INT8 = 1
} opver_fc_weights_format;

/*
 * Parameter structs, one per op that has options, filled by the core from
 * the node's builtin options.  Every field has the default the .tflite
 * schema gives it, used when the model omits it; the comment on a field
 * names the op version that introduced its non-default values.  Fields are
 * int32_t (enums and flags included) or float, so no struct has padding.
 *
 * Structs are append-only (common.h's append rule): a field added later
 * starts at or beyond the older sizeof, and a kernel built against a newer
 * header than the core's reads it only when opver_node.params_size covers
 * it.  OPVER_X_PARAMS_DEFAULTS initializes a struct with every default;
 * opver_read_params() (plugin.h) copies what the core filled over it.
 */

/* FULLY_CONNECTED: inputs (input, weights, optional bias), one output. */
typedef struct opver_fully_connected_params {
	/* An opver_activation. */
	int32_t activation;
	/* Version 2: an opver_fc_weights_format; default
	 * OPVER_FC_WEIGHTS_DEFAULT. */
	int32_t weights_format;
	/* Version 5: 1 keeps the input's leading dimensions; default 0. */
	int32_t keep_num_dims;
	/* Version 9 (hybrid kernels): 1 quantizes inputs asymmetrically;
	 * default 0. */
	int32_t asymmetric_quantize_inputs;
	/* Version 11 (int16 activations): the bias type the quantizer chose,
	 * OPVER_TYPE_INT32 or OPVER_TYPE_INT64; 0 (FLOAT32) when unset. */
	int32_t quantized_bias_type;
} opver_fully_connected_params;
OPVER_ABI_ENDS_AT(opver_fully_connected_params, quantized_bias_type);
#define OPVER_FULLY_CONNECTED_PARAMS_DEFAULTS \
	{ OPVER_ACTIVATION_NONE, OPVER_FC_WEIGHTS_DEFAULT, 0, 0, 0 }

/* CONV_2D: inputs (input [N,H,W,C], filter [O,KH,KW,C/groups], optional
 * bias [O]), one output [N,OH,OW,O]. */
typedef struct opver_conv_params {
	/* An opver_padding. */
	int32_t padding;
	int32_t stride_width;
	int32_t stride_height;
	/* An opver_activation. */
	int32_t activation;
	/* Dilation predates versioning; default 1. */
	int32_t dilation_width;
	int32_t dilation_height;
	/* Version 8 (int16 activations): bias type as in FULLY_CONNECTED. */
	int32_t quantized_bias_type;
} opver_conv_params;
OPVER_ABI_ENDS_AT(opver_conv_params, quantized_bias_type);
#define OPVER_CONV_PARAMS_DEFAULTS \
	{ OPVER_PADDING_SAME, 0, 0, OPVER_ACTIVATION_NONE, 1, 1, 0 }

/* DEPTHWISE_CONV_2D: inputs (input [N,H,W,C], filter [1,KH,KW,C*M],
 * optional bias [C*M]), one output [N,OH,OW,C*M]. */
typedef struct opver_depthwise_conv_params {
	/* An opver_padding. */
	int32_t padding;
	int32_t stride_width;
	int32_t stride_height;
	/* M, output channels per input channel.  Redundant with the filter's
	 * shape, and 0 in some files; kernels derive it from the shapes. */
	int32_t depth_multiplier;
	/* An opver_activation. */
	int32_t activation;
	/* Version 2 when either is not 1; default 1. */
	int32_t dilation_width;
	int32_t dilation_height;
} opver_depthwise_conv_params;
OPVER_ABI_ENDS_AT(opver_depthwise_conv_params, dilation_height);
#define OPVER_DEPTHWISE_CONV_PARAMS_DEFAULTS \
	{ OPVER_PADDING_SAME, 0, 0, 0, OPVER_ACTIVATION_NONE, 1, 1 }

/* AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D: one input [N,H,W,C], one
 * output. */
typedef struct opver_pool_params {
	/* An opver_padding. */
	int32_t padding;
	int32_t stride_width;
	int32_t stride_height;
	int32_t filter_width;
	int32_t filter_height;
	/* An opver_activation. */
	int32_t activation;
} opver_pool_params;
OPVER_ABI_ENDS_AT(opver_pool_params, activation);
#define OPVER_POOL_PARAMS_DEFAULTS \
	{ OPVER_PADDING_SAME, 0, 0, 0, 0, OPVER_ACTIVATION_NONE }

/* SOFTMAX: one input, one output, along the last dimension. */
typedef struct opver_softmax_params {
	/* Default 0, as the schema says (converters always write it). */
	float beta;
} opver_softmax_params;
OPVER_ABI_ENDS_AT(opver_softmax_params, beta);
#define OPVER_SOFTMAX_PARAMS_DEFAULTS { 0.0f }

/* ADD: two inputs, broadcast, one output. */
typedef struct opver_add_params {
	/* An opver_activation. */
	int32_t activation;
	/* Version 3 when 0 for int16: scales need not be powers of two.
	 * Default 1. */
	int32_t pot_scale_int16;
} opver_add_params;
OPVER_ABI_ENDS_AT(opver_add_params, pot_scale_int16);
#define OPVER_ADD_PARAMS_DEFAULTS { OPVER_ACTIVATION_NONE, 1 }

/* MUL: two inputs, broadcast, one output. */
typedef struct opver_mul_params {
	/* An opver_activation. */
	int32_t activation;
} opver_mul_params;
OPVER_ABI_ENDS_AT(opver_mul_params, activation);
#define OPVER_MUL_PARAMS_DEFAULTS { OPVER_ACTIVATION_NONE }

/* The most dimensions a RESHAPE's new_shape option can list. */
#define OPVER_RESHAPE_MAX_DIMS 8

/* RESHAPE: input, optional shape tensor (int32, takes precedence), one
 * output. */
typedef struct opver_reshape_params {
	/* Entries of new_shape; 0 when the option is absent (the shape then
	 * comes from the second input or the output tensor). */
	int32_t num_dims;
	/* Up to one entry may be -1: inferred from the element count. */
	int32_t dims[OPVER_RESHAPE_MAX_DIMS];
} opver_reshape_params;
OPVER_ABI_ENDS_AT(opver_reshape_params, dims);
#define OPVER_RESHAPE_PARAMS_DEFAULTS { 0, { 0 } }

/* SUB: two inputs, broadcast, one output. */
typedef struct opver_sub_params {
	/* An opver_activation.  Version 1. */
	int32_t activation;
	/* Version 5 when 0 for int16: scales need not be powers of two.
	 * Default 1. */
	int32_t pot_scale_int16;
} opver_sub_params;
OPVER_ABI_ENDS_AT(opver_sub_params, pot_scale_int16);
#define OPVER_SUB_PARAMS_DEFAULTS { OPVER_ACTIVATION_NONE, 1 }

/* DIV: two inputs, broadcast, one output. */
typedef struct opver_div_params {
	/* An opver_activation.  Version 1. */
	int32_t activation;
} opver_div_params;
OPVER_ABI_ENDS_AT(opver_div_params, activation);
#define OPVER_DIV_PARAMS_DEFAULTS { OPVER_ACTIVATION_NONE }
/* LEAKY_RELU: one input, one output of its shape. */
typedef struct opver_leaky_relu_params {
	/* Version 1: the slope below zero.  Default 0, as the schema says. */
	float alpha;
} opver_leaky_relu_params;
OPVER_ABI_ENDS_AT(opver_leaky_relu_params, alpha);
#define OPVER_LEAKY_RELU_PARAMS_DEFAULTS { 0.0f }

/* GELU: one input, one output of its shape. */
typedef struct opver_gelu_params {
	/* Version 1: 1 for the tanh approximation, 0 (default) for the exact
	 * erf form. */
	int32_t approximate;
} opver_gelu_params;
OPVER_ABI_ENDS_AT(opver_gelu_params, approximate);
#define OPVER_GELU_PARAMS_DEFAULTS { 0 }
/* MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD: inputs (input, axis: a
 * constant int32 tensor of the dimensions to reduce, negative counting from
 * the end, repeats allowed), one output. */
typedef struct opver_reducer_params {
	/* Version 1: 1 keeps each reduced dimension as size 1; default 0. */
	int32_t keep_dims;
} opver_reducer_params;
OPVER_ABI_ENDS_AT(opver_reducer_params, keep_dims);
#define OPVER_REDUCER_PARAMS_DEFAULTS { 0 }

/* ARG_MAX, ARG_MIN: inputs (input, axis: a one-element int32 or int64
 * tensor), one output of the index type. */
typedef struct opver_arg_min_max_params {
	/* Version 1: the output's type, OPVER_TYPE_INT32 or OPVER_TYPE_INT64;
	 * the schema's default is 0 (FLOAT32), which no kernel accepts. */
	int32_t output_type;
} opver_arg_min_max_params;
OPVER_ABI_ENDS_AT(opver_arg_min_max_params, output_type);
#define OPVER_ARG_MIN_MAX_PARAMS_DEFAULTS { OPVER_TYPE_FLOAT32 }
/* GATHER: input, positions (INT32 or INT64; INT16 from version 6), one
 * output: input[:axis] + positions[batch_dims:] + input[axis + 1:]. */
typedef struct opver_gather_params {
	/* The input dimension gathered along; negative counts from the last.
	 * Default 0. */
	int32_t axis;
	/* Version 5 when not 0: leading dimensions input and positions share,
	 * one gather per batch; negative counts from the positions' rank.
	 * Default 0. */
	int32_t batch_dims;
} opver_gather_params;
OPVER_ABI_ENDS_AT(opver_gather_params, batch_dims);
#define OPVER_GATHER_PARAMS_DEFAULTS { 0, 0 }

/* SHAPE: any input, one 1-D output holding the input's dimensions. */
typedef struct opver_shape_params {
	/* The output's type, OPVER_TYPE_INT32 or OPVER_TYPE_INT64.  Default 0
	 * (FLOAT32, as the schema says), which no kernel computes. */
	int32_t out_type;
} opver_shape_params;
OPVER_ABI_ENDS_AT(opver_shape_params, out_type);
#define OPVER_SHAPE_PARAMS_DEFAULTS { 0 }

/* SPACE_TO_DEPTH and DEPTH_TO_SPACE: one input [N,H,W,C], one output. */
typedef struct opver_space_depth_params {
	/* Side of the square of pixels moved to or from the channels.
	 * Default 0, which no kernel computes. */
	int32_t block_size;
} opver_space_depth_params;
OPVER_ABI_ENDS_AT(opver_space_depth_params, block_size);
#define OPVER_SPACE_DEPTH_PARAMS_DEFAULTS { 0 }
/* CONCATENATION: one or more inputs of one type and rank, one output. */
typedef struct opver_concatenation_params {
	/* The dimension joined; negative counts from the last (version 1). */
	int32_t axis;
	/* An opver_activation (version 1); TFLite computes only NONE. */
	int32_t activation;
} opver_concatenation_params;
OPVER_ABI_ENDS_AT(opver_concatenation_params, activation);
#define OPVER_CONCATENATION_PARAMS_DEFAULTS { 0, OPVER_ACTIVATION_NONE }

/* How MIRROR_PAD mirrors, values as in .tflite MirrorPadMode. */
typedef enum opver_mirror_pad_mode {
	OPVER_MIRROR_PAD_REFLECT = 0,   /* the edge element is not repeated */
	OPVER_MIRROR_PAD_SYMMETRIC = 1  /* the edge element is repeated */
} opver_mirror_pad_mode;

/* MIRROR_PAD: input, paddings [rank, 2], one output. */
typedef struct opver_mirror_pad_params {
	/* An opver_mirror_pad_mode (version 1). */
	int32_t mode;
} opver_mirror_pad_params;
OPVER_ABI_ENDS_AT(opver_mirror_pad_params, mode);
#define OPVER_MIRROR_PAD_PARAMS_DEFAULTS { OPVER_MIRROR_PAD_REFLECT }

/* SPLIT (axis, input) and SPLIT_V (input, size_splits, axis): one output
 * per part. */
typedef struct opver_split_params {
	/* How many parts, the node's output count (version 1). */
	int32_t num_splits;
} opver_split_params;
OPVER_ABI_ENDS_AT(opver_split_params, num_splits);
#define OPVER_SPLIT_PARAMS_DEFAULTS { 0 }

/* PACK: values_count inputs of one shape, one output of one more
 * dimension. */
typedef struct opver_pack_params {
	/* The node's input count (version 1). */
	int32_t values_count;
	/* The new dimension; negative counts from the end (version 1). */
	int32_t axis;
} opver_pack_params;
OPVER_ABI_ENDS_AT(opver_pack_params, axis);
#define OPVER_PACK_PARAMS_DEFAULTS { 0, 0 }

/* UNPACK: one input, `num` outputs of one dimension less. */
typedef struct opver_unpack_params {
	/* The node's output count (version 1). */
	int32_t num;
	/* The dimension removed; negative counts from the end (version 1). */
	int32_t axis;
} opver_unpack_params;
OPVER_ABI_ENDS_AT(opver_unpack_params, axis);
#define OPVER_UNPACK_PARAMS_DEFAULTS { 0, 0 }

/* The most dimensions a SQUEEZE's squeeze_dims option can list. */
#define OPVER_SQUEEZE_MAX_DIMS 8

/* SQUEEZE: one input, one output without some dimensions of size 1. */
typedef struct opver_squeeze_params {
	/* Entries of squeeze_dims; 0 removes every dimension of size 1
	 * (version 1). */
	int32_t num_dims;
	/* Negative entries count from the end (version 1). */
	int32_t dims[OPVER_SQUEEZE_MAX_DIMS];
} opver_squeeze_params;
OPVER_ABI_ENDS_AT(opver_squeeze_params, dims);
#define OPVER_SQUEEZE_PARAMS_DEFAULTS { 0, { 0 } }

/* STRIDED_SLICE: input, begin, end, strides (1-D int32), one output.  Bit
 * i of a mask applies to entry i of begin, end and strides. */
typedef struct opver_strided_slice_params {
	/* Version 1: begin ignored, the slice starts at the first element in
	 * the stride's direction. */
	int32_t begin_mask;
	/* Version 1: end ignored, the slice runs to the last element. */
	int32_t end_mask;
	/* Version 6 when set: the entry stands for every dimension the
	 * others do not name. */
	int32_t ellipsis_mask;
	/* Version 6 when set: the entry inserts a dimension of size 1. */
	int32_t new_axis_mask;
	/* Version 1: the entry takes one element and drops its dimension. */
	int32_t shrink_axis_mask;
	/* Version 8 when 1: end counts from begin; default 0. */
	int32_t offset;
} opver_strided_slice_params;
OPVER_ABI_ENDS_AT(opver_strided_slice_params, offset);
#define OPVER_STRIDED_SLICE_PARAMS_DEFAULTS { 0, 0, 0, 0, 0, 0 }
/* RESIZE_BILINEAR: input [N,H,W,C], size (int32 [2]: new height, width),
 * one output [N,new H,new W,C]. */
typedef struct opver_resize_bilinear_params {
	/* 1 maps the corner pixels of input and output onto each other;
	 * default 0.  Predates versioning. */
	int32_t align_corners;
	/* Version 3: 1 samples at pixel centres; default 0. */
	int32_t half_pixel_centers;
} opver_resize_bilinear_params;
OPVER_ABI_ENDS_AT(opver_resize_bilinear_params, half_pixel_centers);
#define OPVER_RESIZE_BILINEAR_PARAMS_DEFAULTS { 0, 0 }

/* RESIZE_NEAREST_NEIGHBOR: as RESIZE_BILINEAR. */
typedef struct opver_resize_nearest_neighbor_params {
	/* Version 3: 1 maps the corner pixels onto each other; default 0. */
	int32_t align_corners;
	/* Version 3: 1 samples at pixel centres; default 0. */
	int32_t half_pixel_centers;
} opver_resize_nearest_neighbor_params;
OPVER_ABI_ENDS_AT(opver_resize_nearest_neighbor_params, half_pixel_centers);
#define OPVER_RESIZE_NEAREST_NEIGHBOR_PARAMS_DEFAULTS { 0, 0 }

/* TRANSPOSE_CONV: inputs (output_shape int32 [4], filter [O,KH,KW,C],
 * input [N,H,W,C], version 3: optional bias [O]), one output
 * [N,OH,OW,O]. */
typedef struct opver_transpose_conv_params {
	/* An opver_padding. */
	int32_t padding;
	int32_t stride_width;
	int32_t stride_height;
	/* Version 4: an opver_activation; default OPVER_ACTIVATION_NONE. */
	int32_t activation;
	/* Version 5 (int16 activations): bias type as in FULLY_CONNECTED. */
	int32_t quantized_bias_type;
} opver_transpose_conv_params;
OPVER_ABI_ENDS_AT(opver_transpose_conv_params, quantized_bias_type);
#define OPVER_TRANSPOSE_CONV_PARAMS_DEFAULTS \
	{ OPVER_PADDING_SAME, 0, 0, OPVER_ACTIVATION_NONE, 0 }

/* L2_NORMALIZATION: one input, one output, along the last dimension. */
typedef struct opver_l2_norm_params {
	/* An opver_activation (TFLite's kernels take NONE only). */
	int32_t activation;
} opver_l2_norm_params;
OPVER_ABI_ENDS_AT(opver_l2_norm_params, activation);
#define OPVER_L2_NORM_PARAMS_DEFAULTS { OPVER_ACTIVATION_NONE }

/* BATCH_MATMUL: inputs x [..., M, K] and y [..., K, N] (batch dimensions
 * broadcast), one output [..., M, N]. */
typedef struct opver_batch_matmul_params {
	/* 1 takes x transposed ([..., K, M]); default 0. */
	int32_t adj_x;
	/* 1 takes y transposed ([..., N, K]); default 0. */
	int32_t adj_y;
	/* Version 4 (hybrid kernels): 1 quantizes inputs asymmetrically;
	 * default 0. */
	int32_t asymmetric_quantize_inputs;
} opver_batch_matmul_params;
OPVER_ABI_ENDS_AT(opver_batch_matmul_params, asymmetric_quantize_inputs);
#define OPVER_BATCH_MATMUL_PARAMS_DEFAULTS { 0, 0, 0 }

/* CUMSUM: inputs (input, axis: an INT32 tensor of one element), one output
 * of the input's shape: the running sums along the axis. */
typedef struct opver_cumsum_params {
	/* 1 leaves each element out of its own sum (the first sum is 0);
	 * default 0.  Version 1. */
	int32_t exclusive;
	/* 1 sums from the last element of the axis to the first; default 0.
	 * Version 1. */
	int32_t reverse;
} opver_cumsum_params;
OPVER_ABI_ENDS_AT(opver_cumsum_params, reverse);
#define OPVER_CUMSUM_PARAMS_DEFAULTS { 0, 0 }

/* SVDF: inputs (input [batch, input_size], weights_feature
 * [num_filters, input_size], weights_time [num_filters, memory_size],
 * bias [num_units] or omitted, state: a variable tensor [batch,
 * memory_size * num_filters]), one output [batch, num_units], where
 * num_units = num_filters / rank. */
typedef struct opver_svdf_params {
	/* Filters per unit, at least 1; default 0 (a model must set it).
	 * Version 1. */
	int32_t rank;
	/* An opver_activation; default OPVER_ACTIVATION_NONE.  Version 1. */
	int32_t activation;
	/* Version 4 (hybrid kernels): 1 quantizes inputs asymmetrically;
	 * default 0. */
	int32_t asymmetric_quantize_inputs;
} opver_svdf_params;
OPVER_ABI_ENDS_AT(opver_svdf_params, asymmetric_quantize_inputs);
#define OPVER_SVDF_PARAMS_DEFAULTS { 0, OPVER_ACTIVATION_NONE, 0 }

/* ONE_HOT: inputs (indices: INT32 or INT64, depth: an INT32 of one
 * element, on_value, off_value: of the output's type), one output: the
 * indices' shape with a dimension of `depth` inserted at `axis`, on_value
 * where the index equals the position along it, off_value elsewhere. */
typedef struct opver_one_hot_params {
	/* Where the new dimension goes, -1 (last) to the indices' rank;
	 * default 0, the schema's (converters write -1 for TensorFlow's
	 * default).  Version 1. */
	int32_t axis;
} opver_one_hot_params;
OPVER_ABI_ENDS_AT(opver_one_hot_params, axis);
#define OPVER_ONE_HOT_PARAMS_DEFAULTS { 0 }

/* LOCAL_RESPONSE_NORMALIZATION: one 4-D input, one output of its shape:
 * each element times (bias + alpha * the sum of the squares of the
 * elements within `radius` of it along the last dimension) ^ -beta. */
typedef struct opver_local_response_norm_params {
	/* Default 0, as the schema says, for each; version 1. */
	int32_t radius;
	float bias;
	float alpha;
	float beta;
} opver_local_response_norm_params;
OPVER_ABI_ENDS_AT(opver_local_response_norm_params, beta);
#define OPVER_LOCAL_RESPONSE_NORM_PARAMS_DEFAULTS { 0, 0.0f, 0.0f, 0.0f }

/* UNIDIRECTIONAL_SEQUENCE_RNN: inputs (input [time, batch, input_size]
 * when time_major, else [batch, time, input_size]; weights [units,
 * input_size]; recurrent_weights [units, units]; bias [units];
 * hidden_state: a variable tensor [batch, units]), one output of the
 * input's layout with `units` last.  Each step: hidden = activation(
 * weights . input + recurrent_weights . hidden + bias), its output. */
typedef struct opver_sequence_rnn_params {
	/* 1: time is the first dimension; default 0.  Version 1. */
	int32_t time_major;
	/* An opver_activation; default OPVER_ACTIVATION_NONE.  Version 1. */
	int32_t activation;
	/* Version 3 (hybrid kernels): 1 quantizes inputs asymmetrically;
	 * default 0. */
	int32_t asymmetric_quantize_inputs;
} opver_sequence_rnn_params;
OPVER_ABI_ENDS_AT(opver_sequence_rnn_params, asymmetric_quantize_inputs);
#define OPVER_SEQUENCE_RNN_PARAMS_DEFAULTS { 0, OPVER_ACTIVATION_NONE, 0 }

/* UNIDIRECTIONAL_SEQUENCE_LSTM: TFLite's 24 inputs (20 without the layer
 * norm coefficients; optional ones omitted as -1): input, the input and
 * recurrent weights of the input (optional: CIFG), forget, cell and
 * output gates, the peephole weights (optional), the four gate biases,
 * projection weights and bias (optional), output_state and cell_state
 * (variable tensors), and four layer norm coefficients (optional).  One
 * output: the input's layout with the output size last. */
typedef struct opver_sequence_lstm_params {
	/* The cell's activation (the cell gate's and the output's), an
	 * opver_activation; default OPVER_ACTIVATION_NONE.  Version 1. */
	int32_t activation;
	/* Above 0: the cell state is clipped to +-cell_clip; default 0.
	 * Version 1. */
	float cell_clip;
	/* Above 0: the projection is clipped to +-proj_clip; default 0.
	 * Version 1. */
	float proj_clip;
	/* 1: time is the first dimension; default 0.  Version 1. */
	int32_t time_major;
	/* Version 3 (hybrid kernels): 1 quantizes inputs asymmetrically;
	 * default 0. */
	int32_t asymmetric_quantize_inputs;
	/* Version 4: 1 makes the recurrent weights diagonal (vectors);
	 * default 0. */
	int32_t diagonal_recurrent_tensors;
} opver_sequence_lstm_params;
OPVER_ABI_ENDS_AT(opver_sequence_lstm_params, diagonal_recurrent_tensors);
#define OPVER_SEQUENCE_LSTM_PARAMS_DEFAULTS \
	{ OPVER_ACTIVATION_NONE, 0.0f, 0.0f, 0, 0, 0 }

/*
 * IF, WHILE and CALL_ONCE run other subgraphs of the model.  The core runs
 * them itself (a kernel cannot call a subgraph), so no plugin sees these;
 * they are public for node_info and tools.  Indices are subgraphs of the
 * model, checked by the model reader: in range, and never calling back
 * into a subgraph that is running.
 *
 * IF: input 0 a BOOL of one element, the others the branch's inputs; the
 * outputs are the branch's outputs.
 */
typedef struct opver_if_params {
	int32_t then_subgraph_index;    /* version 1 */
	int32_t else_subgraph_index;    /* version 1 */
} opver_if_params;
OPVER_ABI_ENDS_AT(opver_if_params, else_subgraph_index);
#define OPVER_IF_PARAMS_DEFAULTS { 0, 0 }

/* WHILE: the inputs are the loop-carried values; cond takes them and gives
 * one BOOL, body takes them and gives their next values; the outputs are
 * the values once cond gives false. */
typedef struct opver_while_params {
	int32_t cond_subgraph_index;    /* version 1 */
	int32_t body_subgraph_index;    /* version 1 */
} opver_while_params;
OPVER_ABI_ENDS_AT(opver_while_params, body_subgraph_index);
#define OPVER_WHILE_PARAMS_DEFAULTS { 0, 0 }

/* CALL_ONCE: no inputs or outputs; runs a subgraph without inputs or
 * outputs on the interpreter's first invoke (it initialises variables). */
typedef struct opver_call_once_params {
	int32_t init_subgraph_index;    /* version 1 */
} opver_call_once_params;
OPVER_ABI_ENDS_AT(opver_call_once_params, init_subgraph_index);
#define OPVER_CALL_ONCE_PARAMS_DEFAULTS { 0 }

#ifdef __cplusplus
}
#endif

#endif /* OPVER_OPS_H */
