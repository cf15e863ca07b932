/*
 * op_version.h - TensorFlow Lite's operator-version rules: the smallest
 * version of an op that can express a node, from its tensor types,
 * quantization and parameters, and the first TFLite runtime release that
 * runs each (op, version).
 *
 * The rules work on a signature, the facts of one node they look at, so
 * that every branch can be tested without a model file; the model reader
 * builds one per node with opver__op_signature_from_graph().
 */
#ifndef OPVER_CORE_OP_VERSION_H
#define OPVER_CORE_OP_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/* What the rules see of one tensor. */
typedef struct opver__tensor_signature {
	/* opver_type; -1 for an omitted optional input. */
	int32_t type;
	int32_t rank;
	/* rank entries; borrowed. */
	const int32_t *dims;
	/* True when the tensor has a quantization table at all, even an
	 * empty one (TFLite's "input_quantized" for ADD and MUL). */
	bool has_quantization;
	/* Scales, borrowed; count 0 when not quantized. */
	int32_t quant_count;
	const float *scale;
	int32_t quant_axis;
	bool is_sparse;
	bool is_constant;
} opver__tensor_signature;

/* What the rules see of one node. */
typedef struct opver__op_signature {
	int32_t op;
	/* The decoded parameter struct of ops.h, or NULL; borrowed.  A NULL
	 * or short struct reads as the schema's defaults. */
	const void *params;
	size_t params_size;
	int32_t num_inputs;
	const opver__tensor_signature *inputs;   /* borrowed */
	int32_t num_outputs;
	const opver__tensor_signature *outputs;  /* borrowed */
} opver__op_signature;

/* Room for the longest reason opver__op_required_version() writes. */
#define OPVER__VERSION_REASON_SIZE 160

/*
 * The smallest version of sig->op that can express the node, following
 * TFLite's published rules for CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D, RESHAPE, SOFTMAX, ADD,
 * MUL, QUANTIZE and DEQUANTIZE (1 for every other op, as TFLite's default
 * and for CUSTOM).  Writes to `reason` (reason_size bytes, always
 * NUL-terminated) one line saying which tensor type or parameter decided
 * it, e.g. "int8 input and filter, int8 output".  A signature missing
 * a tensor a rule looks at gives 1 with a reason saying so.
 */
int32_t opver__op_required_version(const opver__op_signature *sig,
				   char *reason, size_t reason_size);

/*
 * Fills sig and tensors (the caller's, node->num_inputs + num_outputs
 * entries) from node `node_index` of `graph`: tensors[0 ..] are the
 * inputs, then the outputs.  An omitted input (index -1) keeps its entry,
 * with type -1; is_sparse is always false, as the model reader rejects
 * sparse tensors.
 */
void opver__op_signature_from_graph(const opver__graph *graph,
				    int32_t node_index,
				    opver__op_signature *sig,
				    opver__tensor_signature *tensors);

/* op_releases.c */

/*
 * The first TFLite runtime release that runs `version` of `op`, as
 * "X.Y.Z" (static storage), from TFLite's table; NULL when the table has
 * no entry for the pair (custom ops, versions the table does not know).
 */
const char *opver__op_runtime_version(int32_t op, int32_t version);

/*
 * Compares two "X.Y.Z" release strings numerically component by component;
 * a missing component counts as smaller ("1.14" < "1.14.0").  Negative,
 * zero or positive like strcmp.
 */
int opver__compare_runtime_versions(const char *a, const char *b);

#endif /* OPVER_CORE_OP_VERSION_H */
