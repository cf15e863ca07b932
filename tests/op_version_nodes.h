/*
 * op_version_nodes.h - what the test_op_version_*.c suites share: shapes,
 * a node whose signature points at its own tensors, builders for the
 * tensors of the common op shapes, and expect(), which checks a node's
 * version and the fact its reason names. Defined in op_version_nodes.c.
 */
#ifndef OPVER_TESTS_OP_VERSION_NODES_H
#define OPVER_TESTS_OP_VERSION_NODES_H

#include <stddef.h>
#include <stdint.h>

#include "op_version.h"

#define COUNT(array) ((int32_t)(sizeof(array) / sizeof((array)[0])))

/* NHWC activations with 4 and 2 channels, a CONV_2D filter [out, h, w, in],
 * a DEPTHWISE_CONV_2D filter [1, h, w, c], FULLY_CONNECTED weights
 * [units, depth] and row vectors. */
extern const int32_t nhwc_4[4], nhwc_2[4];
extern const int32_t conv_filter_2x4[4], depthwise_filter_4[4];
extern const int32_t weights_2x4[2], row_4[2], row_2[2];
extern const int32_t vector_1[1], vector_2[1], vector_4[1];

/* Scales for tensors whose values the rules do not read. */
extern const float some_scales[4];

/* A node and the tensors its signature points to. */
typedef struct test_node {
	opver__op_signature sig;
	opver__tensor_signature inputs[4];
	opver__tensor_signature outputs[2]; /* TOPK_V2 has two */
} test_node;

opver__tensor_signature tensor(int32_t type, int32_t rank,
			       const int32_t *dims);
#define TENSOR(type, shape) tensor(OPVER_TYPE_##type, COUNT(shape), shape)
opver__tensor_signature scaled(opver__tensor_signature t,
			       int32_t count, const float *scale,
			       int32_t axis);
opver__tensor_signature unquantized(opver__tensor_signature t);

/* Returns n's signature (borrowed from n). */
const opver__op_signature *build(test_node *n, int32_t op,
				 const void *params, size_t params_size,
				 int32_t num_inputs, int32_t num_outputs);

void conv_tensors(test_node *n, int32_t input, int32_t filter,
		  int32_t output);
void depthwise_tensors(test_node *n, int32_t input, int32_t filter,
		       int32_t output);
void fc_tensors(test_node *n, int32_t input, int32_t weights,
		int32_t output);
void binary_tensors(test_node *n, int32_t a, int32_t b,
		    int32_t output);
void unary_tensors(test_node *n, int32_t input, int32_t output);

void expect(const opver__op_signature *sig, int32_t version,
	    const char *fact);

#endif
