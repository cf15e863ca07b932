/*
 * graph.h - a decoded model: what the model reader produces and the
 * resolver, planner and interpreter consume.
 *
 *   opver__graph_tensor  one tensor of the main subgraph
 *   opver__graph_node    one operator, its op code, stored version and
 *                        decoded parameter struct (ops.h)
 *   opver__graph         tensors, nodes in execution order, graph inputs
 *                        and outputs of subgraph 0, the model-wide fields,
 *                        and the model's other subgraphs (each an
 *                        opver__graph with only the per-subgraph fields)
 *
 * Every index in a graph has been verified by the reader: tensor indices are
 * in range (or -1 for an omitted optional input), constant data lies inside
 * the mapping, matches the tensor's byte size and is aligned for its
 * element type, and no node output has constant data (nor does a graph
 * output share a buffer with another constant), so nothing ever writes it.
 */
#ifndef OPVER_CORE_GRAPH_H
#define OPVER_CORE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opver/opver.h"

typedef struct opver__graph_tensor {
	opver_type type;
	int32_t rank;
	int32_t *dims;            /* owned by the graph; rank entries */
	/* Bytes of element data: elements * opver__element_size(). */
	size_t bytes;
	/* Constant data inside the mapping, or NULL for an activation. */
	const uint8_t *constant_data;
	/* A graph input the file gives a buffer: an activation (the mapping
	 * is read-only and callers write inputs) whose first contents are
	 * these bytes inside the mapping; NULL otherwise. */
	const uint8_t *initial_data;
	/* Owned by the graph (copied out of the file); count 0 when absent. */
	opver_quantization quant;
	const char *name;         /* borrowed from the mapping; never NULL */
	bool is_variable;
	/* The file has a quantization table for it, even an empty one. */
	bool has_quantization;
} opver__graph_tensor;

typedef struct opver__graph_node {
	int32_t op;               /* opver_op */
	const char *custom_name;  /* borrowed from the mapping; CUSTOM only */
	int32_t version;          /* stored version; 1 when absent */
	/* The version TFLite's rules require of the node (op_version.h), and
	 * why: one line, owned. */
	int32_t required_version;
	char *version_reason;
	int32_t num_inputs;
	int32_t *inputs;          /* owned; tensor indices, -1 = omitted */
	int32_t num_outputs;
	int32_t *outputs;         /* owned; tensor indices */
	/* The operator's intermediates: tensors whose quantization a kernel
	 * reads (TFLite's integer LSTM takes its gates' scales from them). */
	int32_t num_intermediates;
	int32_t *intermediates;   /* owned; tensor indices, -1 = omitted */
	/* Decoded options struct (ops.h), owned; NULL for ops without one. */
	void *params;
	size_t params_size;
	/* Borrowed from the mapping; NULL when absent. */
	const uint8_t *custom_options;
	size_t custom_options_size;
} opver__graph_node;

/* An input or output of a SignatureDef. */
typedef struct opver__signature_tensor {
	const char *name;       /* borrowed from the mapping; "" if absent */
	int32_t tensor;         /* index into the signature's subgraph */
} opver__signature_tensor;

/* A SignatureDef: a named entry point of the model. */
typedef struct opver__signature {
	const char *key;        /* borrowed from the mapping; "" if absent */
	int32_t subgraph;
	int32_t num_inputs;
	opver__signature_tensor *inputs;        /* owned */
	int32_t num_outputs;
	opver__signature_tensor *outputs;       /* owned */
} opver__signature;

typedef struct opver__graph {
	int32_t num_tensors;
	opver__graph_tensor *tensors;   /* owned */
	int32_t num_nodes;
	opver__graph_node *nodes;       /* owned; execution order */
	int32_t num_inputs;
	int32_t *inputs;                /* owned; tensor indices */
	int32_t num_outputs;
	int32_t *outputs;               /* owned; tensor indices */
	/* The "min_runtime_version" metadata, owned; NULL when absent. */
	char *min_runtime_version;
	/* The first TFLite release that runs every node at the larger of its
	 * stored and required version (op_version.h); static storage, NULL
	 * when no node's op is in TFLite's table. */
	const char *computed_runtime_version;
	/* Aligned copies of the buffers the file misaligns for their
	 * tensors' elements (model_reader.c), one slot per buffer, NULL for
	 * one not copied; owned, num_buffer_copies slots. */
	uint8_t **buffer_copies;
	uint32_t num_buffer_copies;
	/* The model's SignatureDefs, in file order; owned. */
	int32_t num_signatures;
	opver__signature *signatures;
	/* Subgraphs in the model, this one (subgraph 0) included; subgraph
	 * i > 0 is others[i - 1] (opver__graph_subgraph), owned, with only
	 * tensors, nodes, inputs and outputs set.  Every subgraph index in
	 * an IF, WHILE or CALL_ONCE node is in range and no subgraph calls
	 * itself, directly or through others (model_calls.h). */
	int32_t num_subgraphs;
	struct opver__graph *others;
} opver__graph;

/* Bytes per element of a tensor of `type`: opver_type_size()'s, but 4 for
 * a RESOURCE, whose elements are int32 handles, as TFLite stores them
 * (VAR_HANDLE writes them, and control flow passes them on). */
static inline size_t opver__element_size(opver_type type)
{
	return type == OPVER_TYPE_RESOURCE ? sizeof(int32_t) :
					     opver_type_size(type);
}

/* Subgraph `index` of the model whose subgraph 0 is `graph`, or NULL when
 * out of range.  Borrowed from `graph`. */
static inline const opver__graph *opver__graph_subgraph(
	const opver__graph *graph, int32_t index)
{
	if (index == 0)
		return graph;
	if (index < 0 || index >= graph->num_subgraphs)
		return NULL;
	return &graph->others[index - 1];
}

#endif /* OPVER_CORE_GRAPH_H */
