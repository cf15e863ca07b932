/*
 * sequence_lstm_shape.h - what the UNIDIRECTIONAL_SEQUENCE_LSTM kernels
 * (float and hybrid in sequence_lstm.c, full-integer in
 * sequence_lstm_int8.c) check alike at prepare: the 20 or 24 inputs and
 * which optional parts are present (TFLite's CheckInputTensorDimensions),
 * every tensor's shape and type, the output's layout and the states being
 * variables.
 *
 * Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_SEQUENCE_LSTM_SHAPE_H
#define OPVER_REFERENCE_SEQUENCE_LSTM_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

#include <opver/plugin.h>

#include "sequence.h"

enum {
	LSTM_INPUT = 0,
	LSTM_INPUT_WEIGHTS = 1,     /* input, forget, cell, output: 1-4 */
	LSTM_RECURRENT_WEIGHTS = 5, /* 5-8 */
	LSTM_PEEPHOLE = 9,          /* input, forget, output: 9-11 */
	LSTM_BIAS = 12,             /* 12-15 */
	LSTM_PROJECTION = 16,
	LSTM_PROJECTION_BIAS = 17,
	LSTM_OUTPUT_STATE = 18,
	LSTM_CELL_STATE = 19,
	LSTM_LAYER_NORM = 20,       /* 20-23 */
	LSTM_MAX_INPUTS = 24,
};

/* The gates, in the order of their tensors. */
enum { GATE_INPUT, GATE_FORGET, GATE_CELL, GATE_OUTPUT, NUM_GATES };

/* The peephole input of gate g (the cell gate has none: -1). */
static inline int32_t ref_lstm_peephole(int32_t g)
{
	return g == GATE_CELL ? -1 : LSTM_PEEPHOLE + g - (g > GATE_CELL);
}

/* Input i of the node, or NULL when omitted or past its inputs. */
static inline const opver_tensor *ref_lstm_input(const opver_node *node,
						 int32_t i)
{
	return i < node->num_inputs ? node->inputs[i] : NULL;
}

/* The opver_type each kind of tensor must have. */
typedef struct ref_lstm_types {
	int32_t weights, peephole, bias, layer_norm, projection_bias;
	int32_t output_state, cell_state;
} ref_lstm_types;

/* The sizes and parts of a node that passed ref_lstm_check(). */
typedef struct ref_lstm_shape {
	ref_sequence seq;
	int32_t cells, outputs;
	bool cifg, peephole, projection, layer_norm;
} ref_lstm_shape;

/*
 * Checks the node's inputs (parts, shapes, `types`), output and states,
 * as TFLite's Prepare, and fills *shape; reports what is wrong.
 */
opver_status ref_lstm_check(const opver_context *ctx, const opver_node *node,
			    const opver_sequence_lstm_params *params,
			    const ref_lstm_types *types, ref_lstm_shape *shape);

#endif /* OPVER_REFERENCE_SEQUENCE_LSTM_SHAPE_H */
