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
#define OPVER_OP_MAP(X)                 \
	X(ADD, 0)                       \
	X(AVERAGE_POOL_2D, 1)           \
	X(CONCATENATION, 2)             \
	X(CONV_2D, 3)                   \
	X(DEPTHWISE_CONV_2D, 4)         \
	X(DEPTH_TO_SPACE, 5)            \
	X(DEQUANTIZE, 6)                \
	X(EMBEDDING_LOOKUP, 7)          \
	X(FLOOR, 8)                     \
	X(FULLY_CONNECTED, 9)           \
	X(HASHTABLE_LOOKUP, 10)         \
	X(L2_NORMALIZATION, 11)         \
	X(L2_POOL_2D, 12)               \
	X(LOCAL_RESPONSE_NORMALIZATION, 13) \
	X(LOGISTIC, 14)                 \
	X(LSH_PROJECTION, 15)           \
	X(LSTM, 16)                     \
	X(MAX_POOL_2D, 17)              \
	X(MUL, 18)                      \
	X(RELU, 19)                     \
	X(RELU_N1_TO_1, 20)             \
	X(RELU6, 21)                    \
	X(RESHAPE, 22)                  \
	X(RESIZE_BILINEAR, 23)          \
	X(RNN, 24)                      \
	X(SOFTMAX, 25)                  \
	X(SPACE_TO_DEPTH, 26)           \
	X(SVDF, 27)                     \
	X(TANH, 28)                     \
	X(CONCAT_EMBEDDINGS, 29)        \
	X(SKIP_GRAM, 30)                \
	X(CALL, 31)                     \
	X(CUSTOM, 32)                   \
	X(QUANTIZE, 114)

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

/* FULLY_CONNECTED: inputs (input, weights, optional bias), one output. */
typedef struct opver_fully_connected_params {
	opver_activation activation;
	/* Version 2: default OPVER_FC_WEIGHTS_DEFAULT. */
	opver_fc_weights_format weights_format;
	/* Version 5: keep the input's leading dimensions; default false. */
	bool keep_num_dims;
	/* Version 7: hybrid kernels quantize inputs asymmetrically; default false. */
	bool asymmetric_quantize_inputs;
} opver_fully_connected_params;

#ifdef __cplusplus
}
#endif

#endif /* OPVER_OPS_H */
