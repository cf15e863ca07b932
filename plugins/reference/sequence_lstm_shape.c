/*
 * sequence_lstm_shape.c - the checks every UNIDIRECTIONAL_SEQUENCE_LSTM
 * kernel makes at prepare (sequence_lstm_shape.h).
 */
#include "node_checks.h"
#include "sequence_lstm_shape.h"

static const char *const gate_names[NUM_GATES] = { "input", "forget", "cell",
						   "output" };

/* The types the LSTM kernels take, named as in their messages. */
static const char *lstm_type_name(int32_t type)
{
	switch (type) {
	case OPVER_TYPE_FLOAT32: return "float32";
	case OPVER_TYPE_INT8: return "int8";
	case OPVER_TYPE_INT16: return "int16";
	case OPVER_TYPE_INT32: return "int32";
	default: return "another type";
	}
}

/* An optional tensor is absent, or a vector or matrix of `type` and
 * `rows` (x `cols` when cols > 0). */
static opver_status lstm_expect(const opver_context *ctx,
				const opver_tensor *t, const char *role,
				const char *gate, int32_t type, int32_t rows,
				int32_t cols)
{
	const int32_t rank = cols > 0 ? 2 : 1;
	const char *type_name = lstm_type_name(type);

	if (t == NULL)
		return OPVER_OK;
	if (t->type != type || t->rank != rank || t->dims[0] != rows ||
	    (cols > 0 && t->dims[1] != cols)) {
		if (cols > 0)
			OPVER_REPORT(ctx, "%s%s%s '%s' must be %s [%d, %d]",
				     gate, *gate ? " " : "", role, t->name,
				     type_name, (int)rows, (int)cols);
		else
			OPVER_REPORT(ctx, "%s%s%s '%s' must be %s [%d]", gate,
				     *gate ? " " : "", role, t->name, type_name,
				     (int)rows);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

/* Which optional parts the node has, and that it has each part whole, as
 * TFLite's CheckInputTensorDimensions requires. */
static opver_status lstm_parts(const opver_context *ctx,
			       const opver_node *node, ref_lstm_shape *d)
{
	const bool has_input_weights =
		ref_lstm_input(node, LSTM_INPUT_WEIGHTS) != NULL;
	const bool has_input_recurrent =
		ref_lstm_input(node, LSTM_RECURRENT_WEIGHTS) != NULL;
	const bool has_input_bias = ref_lstm_input(node, LSTM_BIAS) != NULL;
	bool ok;

	d->cifg = !has_input_weights;
	d->peephole = ref_lstm_input(node, LSTM_PEEPHOLE + 1) != NULL;
	d->projection = ref_lstm_input(node, LSTM_PROJECTION) != NULL;
	d->layer_norm = ref_lstm_input(node, LSTM_LAYER_NORM + 1) != NULL;
	ok = has_input_recurrent == has_input_weights &&
	     has_input_bias == has_input_weights;
	/* Peepholes: forget and output together, input only without CIFG. */
	ok = ok && (ref_lstm_input(node, LSTM_PEEPHOLE + 2) != NULL) ==
			   d->peephole &&
	     (ref_lstm_input(node, LSTM_PEEPHOLE) == NULL ||
	      (d->peephole && !d->cifg)) &&
	     (!d->peephole || d->cifg ||
	      ref_lstm_input(node, LSTM_PEEPHOLE) != NULL);
	ok = ok && (d->projection ||
		    ref_lstm_input(node, LSTM_PROJECTION_BIAS) == NULL);
	for (int32_t g = GATE_CELL; g <= GATE_OUTPUT; g++)
		ok = ok && (ref_lstm_input(node, LSTM_LAYER_NORM + g) !=
			    NULL) == d->layer_norm;
	ok = ok && (ref_lstm_input(node, LSTM_LAYER_NORM) != NULL) ==
			   (d->layer_norm && !d->cifg);
	for (int32_t g = GATE_FORGET; g < NUM_GATES; g++)
		ok = ok &&
		     ref_lstm_input(node, LSTM_INPUT_WEIGHTS + g) != NULL &&
		     ref_lstm_input(node, LSTM_RECURRENT_WEIGHTS + g) != NULL &&
		     ref_lstm_input(node, LSTM_BIAS + g) != NULL;
	ok = ok && ref_lstm_input(node, LSTM_OUTPUT_STATE) != NULL &&
	     ref_lstm_input(node, LSTM_CELL_STATE) != NULL;
	if (ok)
		return OPVER_OK;
	OPVER_REPORT(ctx, "the LSTM's optional tensors are incomplete: the input gate's weights, recurrent weights and bias come together (or none, CIFG); forget and output peepholes together, the input's only without CIFG; a projection bias only with projection weights; layer norm coefficients for every gate (the input's only without CIFG); the forget, cell and output gates' weights and biases and both states are required");
	return OPVER_ERROR_INVALID_MODEL;
}

/* Every present weight's shape and type, and the states'. */
static opver_status lstm_shapes(const opver_context *ctx,
				const opver_node *node,
				const ref_lstm_types *types, ref_lstm_shape *d)
{
	const opver_tensor *forget = node->inputs[LSTM_INPUT_WEIGHTS + 1];
	const opver_tensor *recurrent =
		node->inputs[LSTM_RECURRENT_WEIGHTS + GATE_OUTPUT];
	opver_status status = ref_expect_rank(ctx, "input_to_forget_weights",
					      forget, 2);

	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "recurrent_to_output_weights",
					 recurrent, 2);
	if (status != OPVER_OK)
		return status;
	d->cells = forget->dims[0];
	d->outputs = recurrent->dims[1];
	for (int32_t g = 0; g < NUM_GATES && status == OPVER_OK; g++) {
		const char *gate = gate_names[g];

		status = lstm_expect(ctx,
				     ref_lstm_input(node, LSTM_INPUT_WEIGHTS + g),
				     "input weights", gate, types->weights,
				     d->cells, d->seq.size);
		if (status == OPVER_OK)
			status = lstm_expect(
				ctx,
				ref_lstm_input(node, LSTM_RECURRENT_WEIGHTS + g),
				"recurrent weights", gate, types->weights,
				d->cells, d->outputs);
		if (status == OPVER_OK)
			status = lstm_expect(ctx,
					     ref_lstm_input(node, LSTM_BIAS + g),
					     "bias", gate, types->bias,
					     d->cells, 0);
		if (status == OPVER_OK)
			status = lstm_expect(
				ctx, ref_lstm_input(node, LSTM_LAYER_NORM + g),
				"layer norm coefficients", gate,
				types->layer_norm, d->cells, 0);
		if (status == OPVER_OK && g != GATE_CELL)
			status = lstm_expect(
				ctx, ref_lstm_input(node, ref_lstm_peephole(g)),
				"peephole weights", gate, types->peephole,
				d->cells, 0);
	}
	if (status == OPVER_OK)
		status = lstm_expect(ctx, ref_lstm_input(node, LSTM_PROJECTION),
				     "projection weights", "", types->weights,
				     d->outputs, d->cells);
	if (status == OPVER_OK)
		status = lstm_expect(ctx,
				     ref_lstm_input(node, LSTM_PROJECTION_BIAS),
				     "projection bias", "",
				     types->projection_bias, d->outputs, 0);
	if (status == OPVER_OK)
		status = lstm_expect(ctx, node->inputs[LSTM_OUTPUT_STATE],
				     "output_state", "", types->output_state,
				     d->seq.batch, d->outputs);
	if (status == OPVER_OK)
		status = lstm_expect(ctx, node->inputs[LSTM_CELL_STATE],
				     "cell_state", "", types->cell_state,
				     d->seq.batch, d->cells);
	if (status != OPVER_OK)
		return status;
	if (!d->projection && d->outputs != d->cells) {
		OPVER_REPORT(ctx, "without projection weights the output size (%d) must be the number of cells (%d)",
			     (int)d->outputs, (int)d->cells);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return OPVER_OK;
}

opver_status ref_lstm_check(const opver_context *ctx, const opver_node *node,
			    const opver_sequence_lstm_params *params,
			    const ref_lstm_types *types, ref_lstm_shape *shape)
{
	opver_status status;

	if (node->num_inputs != 20 && node->num_inputs != LSTM_MAX_INPUTS) {
		OPVER_REPORT(ctx, "UNIDIRECTIONAL_SEQUENCE_LSTM takes 24 inputs (20 without layer normalization); the node has %d",
			     (int)node->num_inputs);
		return OPVER_ERROR_INVALID_MODEL;
	}
	status = ref_check_arity(ctx, node, 1, LSTM_MAX_INPUTS, 1,
				 "UNIDIRECTIONAL_SEQUENCE_LSTM takes input, its weights, biases and states, and one output");
	if (status != OPVER_OK)
		return status;
	if (params->diagonal_recurrent_tensors) {
		OPVER_REPORT(ctx, "diagonal_recurrent_tensors (version 4) is not supported");
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_sequence_shape(ctx, "input", node->inputs[LSTM_INPUT],
				    params->time_major != 0, &shape->seq);
	if (status == OPVER_OK)
		status = lstm_parts(ctx, node, shape);
	if (status == OPVER_OK)
		status = lstm_shapes(ctx, node, types, shape);
	if (status == OPVER_OK)
		status = ref_sequence_shape_output(ctx, node, &shape->seq,
						   shape->outputs);
	for (int32_t s = LSTM_OUTPUT_STATE;
	     s <= LSTM_CELL_STATE && status == OPVER_OK; s++) {
		if (node->inputs[s]->is_constant) {
			OPVER_REPORT(ctx, "state '%s' is constant; the LSTM writes its states, so they must be variable tensors",
				     node->inputs[s]->name);
			status = OPVER_ERROR_INVALID_MODEL;
		}
	}
	return status;
}
