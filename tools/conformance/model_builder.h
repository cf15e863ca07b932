/*
 * model_builder.h - writes a .tflite model (the FlatBuffer of
 * schema/opver.fbs, TFLite's format) from a small description held in
 * memory, for the conformance cases.
 *
 *   cf_tensor_desc    one tensor: type, shape, quantization, optional
 *                     constant data
 *   cf_opcode_desc    one operator code: builtin op and version
 *   cf_operator_desc  one node: its operator code, tensors and the op's
 *                     parameter struct from opver/ops.h
 *   cf_model_desc     one subgraph of all of the above, with its inputs and
 *                     outputs
 *
 * The writer gives every constant tensor a buffer of its own (buffer 0 is
 * the empty one the format reserves), its data 16-byte aligned, and writes
 * both the deprecated and the current builtin code of each operator code.
 */
#ifndef OPVER_CONFORMANCE_MODEL_BUILDER_H
#define OPVER_CONFORMANCE_MODEL_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/opver.h>

/* The largest rank a described tensor may have (TRANSPOSE's version 8
 * goes past 6). */
#define CF_MAX_RANK 8

typedef struct cf_tensor_desc {
	opver_type type;
	int32_t rank;
	int32_t dims[CF_MAX_RANK];
	/* Borrowed; NULL writes "tINDEX". */
	const char *name;
	/*
	 * Whether to write a quantization table at all; an empty one (0
	 * scales) is a fact the op-version rules of ADD and MUL look at.
	 * num_scales scales and as many zero points (borrowed), per channel
	 * along quantized_dimension when more than one.
	 */
	bool quantized;
	int32_t num_scales;
	const float *scales;
	const int64_t *zero_points;
	int32_t quantized_dimension;
	/* Constant data in host byte order, data_size bytes (elements x the
	 * type's size), borrowed; NULL for a tensor the graph computes or
	 * takes as input. */
	const void *data;
	size_t data_size;
	/* Written as a variable tensor (is_variable): state an op keeps
	 * across invokes, such as SVDF's; it has no data and is no graph
	 * input. */
	bool is_variable;
} cf_tensor_desc;

typedef struct cf_opcode_desc {
	/* A builtin opver_op, or OPVER_OP_CUSTOM with custom_code. */
	int32_t op;
	/* >= 1 */
	int32_t version;
	/* The custom op's name (borrowed) with OPVER_OP_CUSTOM, else
	 * NULL. */
	const char *custom_code;
} cf_opcode_desc;

typedef struct cf_operator_desc {
	int32_t opcode_index;
	/* Tensor indices, borrowed; -1 in inputs for an omitted optional
	 * input. */
	const int32_t *inputs;
	int32_t num_inputs;
	const int32_t *outputs;
	int32_t num_outputs;
	/*
	 * The parameter struct of the operator code's op, from ops.h
	 * (opver_depthwise_conv_params for DEPTHWISE_CONV_2D, ...),
	 * borrowed; written as the op's options table.  NULL writes none.
	 * Ops with options: CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV,
	 * FULLY_CONNECTED, BATCH_MATMUL, the pools (AVERAGE_POOL_2D,
	 * MAX_POOL_2D, L2_POOL_2D), SOFTMAX, ADD, MUL, SUB, DIV, LEAKY_RELU,
	 * GELU, the reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN,
	 * REDUCE_PROD, REDUCE_ANY, REDUCE_ALL), ARG_MAX, ARG_MIN, RESHAPE, GATHER, SHAPE,
	 * SPACE_TO_DEPTH, DEPTH_TO_SPACE, CONCATENATION, MIRROR_PAD, SPLIT,
	 * SPLIT_V, PACK, UNPACK, SQUEEZE, TRANSPOSE, STRIDED_SLICE,
	 * RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, L2_NORMALIZATION,
	 * CUMSUM, SVDF, ONE_HOT, LOCAL_RESPONSE_NORMALIZATION,
	 * UNIDIRECTIONAL_SEQUENCE_RNN and UNIDIRECTIONAL_SEQUENCE_LSTM;
	 * ops whose options table is empty (QUANTIZE, DEQUANTIZE, MAXIMUM,
	 * MINIMUM, SQUARED_DIFFERENCE, PAD, PADV2, EXPAND_DIMS, SLICE) get
	 * it written.  Other ops take NULL.
	 */
	const void *params;
	/* A custom op's options (custom_options, FlexBuffers), borrowed;
	 * NULL and 0 for none. */
	const uint8_t *custom_options;
	size_t custom_options_size;
} cf_operator_desc;

/* An operator's intermediates: `count` tensor indices (borrowed; -1 for
 * an omitted one), tensors no operator computes whose quantization the
 * kernel reads, as the integer LSTM's gate scales. */
typedef struct cf_intermediates {
	const int32_t *tensors;
	int32_t count;
} cf_intermediates;

typedef struct cf_model_desc {
	/* All borrowed. */
	const cf_tensor_desc *tensors;
	int32_t num_tensors;
	const cf_opcode_desc *opcodes;
	int32_t num_opcodes;
	const cf_operator_desc *operators;
	int32_t num_operators;
	const int32_t *inputs;
	int32_t num_inputs;
	const int32_t *outputs;
	int32_t num_outputs;
} cf_model_desc;

/*
 * Writes the model.  On success *bytes holds *size bytes; the caller owns
 * them and releases them with free().  On failure (a description that
 * breaks the rules above: an index out of range, a shape that does not
 * match its data, quantization arrays missing, an op it cannot write
 * options for; or no memory) returns false with *bytes NULL and a one-line
 * reason in error (error_size bytes, always NUL-terminated).
 */
bool cf_build_model(const cf_model_desc *desc, uint8_t **bytes, size_t *size,
		    char *error, size_t error_size);

/* As cf_build_model(), writing operator i's intermediates from
 * intermediates[i] (desc->num_operators entries, borrowed). */
bool cf_build_model_with_intermediates(const cf_model_desc *desc,
				       const cf_intermediates *intermediates,
				       uint8_t **bytes, size_t *size,
				       char *error, size_t error_size);

#endif /* OPVER_CONFORMANCE_MODEL_BUILDER_H */
