/*
 * sequence_lstm.c - UNIDIRECTIONAL_SEQUENCE_LSTM, float32: TFLite's LSTM
 * cell over a sequence, with its optional parts: CIFG (no input gate; it
 * is 1 - forget), peephole weights, a projection (with bias and
 * proj_clip), layer normalization of the gates, and cell_clip.  The
 * output state (input 18) and cell state (input 19) are variable tensors
 * that carry over steps and invokes.  Each step of each batch, as
 * TFLite's LstmStepFloat:
 *   gate = bias (0 with layer norm) + W_in . input + W_rec . output_state
 *          [+ peephole * cell_state] [normalized, times the layer norm
 *          coefficients, plus the bias], through the logistic function
 *          (input, forget and output gates) or the activation (cell gate);
 *   cell_state = forget * cell_state + input * cell_gate, clipped;
 *   the output gate is computed after it, its peephole reading the new
 *   cell state;
 *   output_state = output * activation(cell_state), projected and
 *   clipped; it is also the step's output.
 * Each matrix product's row sums from 0 and is then added, as TFLite's
 * MatrixBatchVectorMultiplyAccumulate.  TFLite leaves the cell output
 * unactivated garbage for activation NONE (ApplyActivationToVector
 * writes nothing); opver takes NONE as the identity.
 *
 * Hybrid (versions 2, and 3 with asymmetric_quantize_inputs): int8 input,
 * recurrent, peephole and projection weights (symmetric, per tensor), the
 * rest float.  As TFLite's LstmStepHybrid, each step quantizes the input
 * and the output state on the fly (and, for the projection, the cell
 * output), skipping all-zero vectors; the integer sums are scaled back by
 * the vector's scale times the weights'; peephole weights are
 * dequantized.
 */
#include <math.h>
#include <string.h>

#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
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

static const char *const gate_names[NUM_GATES] = { "input", "forget", "cell",
						   "output" };

typedef struct lstm_data {
	ref_sequence seq;
	int32_t cells, outputs;
	bool cifg, peephole, projection, layer_norm;
	int32_t activation;
	float cell_clip, proj_clip;
	int32_t scratch;   /* NUM_GATES + 1 rows of `cells` floats */
	/* hybrid: each int8 weight's scale by input index, and scratch for
	 * the quantized input, output state and cell output of a step. */
	bool hybrid, asymmetric;
	float scales[LSTM_MAX_INPUTS];
	int32_t quantized;
} lstm_data;

/* One step's input, output state or cell output, and (hybrid) the same
 * quantized. */
typedef struct lstm_vector {
	const float *values;
	ref_sequence_quantized q;
} lstm_vector;

/* Input i of the node, or NULL when omitted or past its inputs. */
static const opver_tensor *lstm_input(const opver_node *node, int32_t i)
{
	return i < node->num_inputs ? node->inputs[i] : NULL;
}

/* An optional tensor is absent, or a vector or matrix of `type` and
 * `rows` (x `cols` when cols > 0). */
static opver_status lstm_expect(const opver_context *ctx,
				const opver_tensor *t, const char *role,
				const char *gate, int32_t type, int32_t rows,
				int32_t cols)
{
	const int32_t rank = cols > 0 ? 2 : 1;
	const char *type_name = type == OPVER_TYPE_INT8 ? "int8" : "float32";

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
			       const opver_node *node, lstm_data *d)
{
	const bool has_input_weights =
		lstm_input(node, LSTM_INPUT_WEIGHTS) != NULL;
	const bool has_input_recurrent =
		lstm_input(node, LSTM_RECURRENT_WEIGHTS) != NULL;
	const bool has_input_bias = lstm_input(node, LSTM_BIAS) != NULL;
	bool ok;

	d->cifg = !has_input_weights;
	d->peephole = lstm_input(node, LSTM_PEEPHOLE + 1) != NULL;
	d->projection = lstm_input(node, LSTM_PROJECTION) != NULL;
	d->layer_norm = lstm_input(node, LSTM_LAYER_NORM + 1) != NULL;
	ok = has_input_recurrent == has_input_weights &&
	     has_input_bias == has_input_weights;
	/* Peepholes: forget and output together, input only without CIFG. */
	ok = ok && (lstm_input(node, LSTM_PEEPHOLE + 2) != NULL) ==
			   d->peephole &&
	     (lstm_input(node, LSTM_PEEPHOLE) == NULL ||
	      (d->peephole && !d->cifg)) &&
	     (!d->peephole || d->cifg ||
	      lstm_input(node, LSTM_PEEPHOLE) != NULL);
	ok = ok && (d->projection ||
		    lstm_input(node, LSTM_PROJECTION_BIAS) == NULL);
	for (int32_t g = GATE_CELL; g <= GATE_OUTPUT; g++)
		ok = ok && (lstm_input(node, LSTM_LAYER_NORM + g) != NULL) ==
				   d->layer_norm;
	ok = ok && (lstm_input(node, LSTM_LAYER_NORM) != NULL) ==
			   (d->layer_norm && !d->cifg);
	for (int32_t g = GATE_FORGET; g < NUM_GATES; g++)
		ok = ok && lstm_input(node, LSTM_INPUT_WEIGHTS + g) != NULL &&
		     lstm_input(node, LSTM_RECURRENT_WEIGHTS + g) != NULL &&
		     lstm_input(node, LSTM_BIAS + g) != NULL;
	ok = ok && lstm_input(node, LSTM_OUTPUT_STATE) != NULL &&
	     lstm_input(node, LSTM_CELL_STATE) != NULL;
	if (ok)
		return OPVER_OK;
	OPVER_REPORT(ctx, "the LSTM's optional tensors are incomplete: the input gate's weights, recurrent weights and bias come together (or none, CIFG); forget and output peepholes together, the input's only without CIFG; a projection bias only with projection weights; layer norm coefficients for every gate (the input's only without CIFG); the forget, cell and output gates' weights and biases and both states are required");
	return OPVER_ERROR_INVALID_MODEL;
}

/* Every present weight's shape, and the states'. */
static opver_status lstm_shapes(const opver_context *ctx,
				const opver_node *node, lstm_data *d)
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
	d->hybrid = forget->type == OPVER_TYPE_INT8;
	const int32_t weights = d->hybrid ? OPVER_TYPE_INT8 : OPVER_TYPE_FLOAT32;

	for (int32_t g = 0; g < NUM_GATES && status == OPVER_OK; g++) {
		const char *gate = gate_names[g];

		status = lstm_expect(ctx,
				     lstm_input(node, LSTM_INPUT_WEIGHTS + g),
				     "input weights", gate, weights, d->cells,
				     d->seq.size);
		if (status == OPVER_OK)
			status = lstm_expect(
				ctx, lstm_input(node, LSTM_RECURRENT_WEIGHTS + g),
				"recurrent weights", gate, weights, d->cells,
				d->outputs);
		if (status == OPVER_OK)
			status = lstm_expect(ctx,
					     lstm_input(node, LSTM_BIAS + g),
					     "bias", gate, OPVER_TYPE_FLOAT32,
					     d->cells, 0);
		if (status == OPVER_OK)
			status = lstm_expect(
				ctx, lstm_input(node, LSTM_LAYER_NORM + g),
				"layer norm coefficients", gate,
				OPVER_TYPE_FLOAT32, d->cells, 0);
		if (status == OPVER_OK && g != GATE_CELL)
			status = lstm_expect(
				ctx,
				lstm_input(node, LSTM_PEEPHOLE + g -
							 (g > GATE_CELL)),
				"peephole weights", gate, weights, d->cells,
				0);
	}
	if (status == OPVER_OK)
		status = lstm_expect(ctx, lstm_input(node, LSTM_PROJECTION),
				     "projection weights", "", weights,
				     d->outputs, d->cells);
	if (status == OPVER_OK)
		status = lstm_expect(ctx,
				     lstm_input(node, LSTM_PROJECTION_BIAS),
				     "projection bias", "", OPVER_TYPE_FLOAT32,
				     d->outputs, 0);
	if (status == OPVER_OK)
		status = lstm_expect(ctx, node->inputs[LSTM_OUTPUT_STATE],
				     "output_state", "", OPVER_TYPE_FLOAT32,
				     d->seq.batch, d->outputs);
	if (status == OPVER_OK)
		status = lstm_expect(ctx, node->inputs[LSTM_CELL_STATE],
				     "cell_state", "", OPVER_TYPE_FLOAT32,
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

/* The hybrid kernel's weight scales (symmetric, per tensor) and scratch
 * for a step's quantized input, output state and cell output. */
static opver_status lstm_prepare_hybrid(const opver_context *ctx,
					const opver_node *node, lstm_data *d)
{
	static const int32_t weights[] = {
		LSTM_INPUT_WEIGHTS, LSTM_INPUT_WEIGHTS + 1,
		LSTM_INPUT_WEIGHTS + 2, LSTM_INPUT_WEIGHTS + 3,
		LSTM_RECURRENT_WEIGHTS, LSTM_RECURRENT_WEIGHTS + 1,
		LSTM_RECURRENT_WEIGHTS + 2, LSTM_RECURRENT_WEIGHTS + 3,
		LSTM_PEEPHOLE, LSTM_PEEPHOLE + 1, LSTM_PEEPHOLE + 2,
		LSTM_PROJECTION,
	};

	for (size_t i = 0; i < sizeof(weights) / sizeof(weights[0]); i++) {
		const opver_tensor *t = lstm_input(node, weights[i]);
		int32_t zero;
		opver_status status;

		if (t == NULL)
			continue;
		status = ref_per_tensor_quantization(ctx, t->name, t,
						     &d->scales[weights[i]],
						     &zero);
		if (status != OPVER_OK)
			return status;
		if (zero != 0) {
			OPVER_REPORT(ctx, "the hybrid LSTM takes symmetric weights (zero point 0); '%s' has %d",
				     t->name, (int)zero);
			return OPVER_ERROR_UNSUPPORTED;
		}
	}
	return ref_request_scratch(ctx,
				   (size_t)d->seq.size + (size_t)d->outputs +
					   (size_t)d->cells,
				   sizeof(int8_t),
				   "the quantized input, output state and cell output",
				   &d->quantized);
}

static opver_status lstm_prepare(const opver_context *ctx, opver_node *node)
{
	lstm_data *d = node->op_data;
	opver_sequence_lstm_params params =
		OPVER_SEQUENCE_LSTM_PARAMS_DEFAULTS;
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
	opver_read_params(node, &params, sizeof(params));
	if (params.diagonal_recurrent_tensors) {
		OPVER_REPORT(ctx, "diagonal_recurrent_tensors (version 4) is not supported");
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = ref_sequence_shape(ctx, "input", node->inputs[LSTM_INPUT],
				    params.time_major != 0, &d->seq);
	if (status == OPVER_OK)
		status = lstm_parts(ctx, node, d);
	if (status == OPVER_OK)
		status = lstm_shapes(ctx, node, d);
	if (status == OPVER_OK)
		status = ref_sequence_shape_output(ctx, node, &d->seq,
						   d->outputs);
	if (status == OPVER_OK)
		status = ref_sequence_expect_activation(ctx,
							params.activation);
	for (int32_t s = LSTM_OUTPUT_STATE;
	     s <= LSTM_CELL_STATE && status == OPVER_OK; s++) {
		if (node->inputs[s]->is_constant) {
			OPVER_REPORT(ctx, "state '%s' is constant; the LSTM writes its states, so they must be variable tensors",
				     node->inputs[s]->name);
			status = OPVER_ERROR_INVALID_MODEL;
		}
	}
	if (status != OPVER_OK)
		return status;
	d->activation = params.activation;
	d->cell_clip = params.cell_clip;
	d->proj_clip = params.proj_clip;
	d->asymmetric = params.asymmetric_quantize_inputs != 0;
	if (d->hybrid)
		status = lstm_prepare_hybrid(ctx, node, d);
	if (status != OPVER_OK)
		return status;
	return ref_request_scratch(ctx,
				   (size_t)(NUM_GATES + 1) * (size_t)d->cells,
				   sizeof(float), "the gates of one step",
				   &d->scratch);
}

/* Data of input i, or NULL when omitted. */
static const float *lstm_floats(const opver_node *node, int32_t i)
{
	const opver_tensor *t = lstm_input(node, i);

	return t != NULL ? t->data : NULL;
}

/* v clipped to +-clip when clip is above 0. */
static void lstm_clip(float *v, size_t n, float clip)
{
	if (!(clip > 0.0f))
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = v[i] < -clip ? -clip : v[i] > clip ? clip : v[i];
}

/* Mean 0 and variance 1 (plus 1e-8, as TFLite), in TFLite's order. */
static void lstm_normalize(float *v, int32_t n)
{
	float sum = 0.0f, squares = 0.0f, inverse;

	for (int32_t i = 0; i < n; i++)
		sum += v[i];
	const float mean = sum / (float)n;

	for (int32_t i = 0; i < n; i++)
		squares += (v[i] - mean) * (v[i] - mean);
	inverse = 1.0f / sqrtf(squares / (float)n + 1e-8f);
	for (int32_t i = 0; i < n; i++)
		v[i] = (v[i] - mean) * inverse;
}

/* out[r] += weights[r] . v for the weights of input i, float or int8. */
static void lstm_accumulate(const lstm_data *d, const opver_node *node,
			    int32_t i, int32_t rows, int32_t cols,
			    const lstm_vector *v, float *out)
{
	const void *weights = lstm_input(node, i)->data;

	if (d->hybrid)
		ref_sequence_hybrid_accumulate(weights, d->scales[i], rows,
					       cols, &v->q, out);
	else
		ref_sequence_multiply_accumulate(weights, rows, cols,
						 v->values, out);
}

/* One gate of one step: its pre-activation from the input, the output
 * state and (peephole) the cell state, normalized, then activated. */
static void lstm_gate(const lstm_data *d, const opver_node *node,
		      int32_t g, const lstm_vector *x, const lstm_vector *h,
		      const float *c, float *gate)
{
	const size_t cells = (size_t)d->cells;
	const float *bias = lstm_floats(node, LSTM_BIAS + g);
	const float *norm = lstm_floats(node, LSTM_LAYER_NORM + g);
	const int32_t peephole = g == GATE_CELL ? -1
		: LSTM_PEEPHOLE + g - (g > GATE_CELL);

	if (d->layer_norm)
		memset(gate, 0, cells * sizeof(float));
	else
		memcpy(gate, bias, cells * sizeof(float));
	lstm_accumulate(d, node, LSTM_INPUT_WEIGHTS + g, d->cells,
			d->seq.size, x, gate);
	lstm_accumulate(d, node, LSTM_RECURRENT_WEIGHTS + g, d->cells,
			d->outputs, h, gate);
	if (peephole >= 0 && lstm_input(node, peephole) != NULL) {
		const void *w = lstm_input(node, peephole)->data;

		/* Hybrid peepholes are dequantized first, as TFLite. */
		for (size_t i = 0; i < cells; i++)
			gate[i] += (d->hybrid ? d->scales[peephole] *
							(float)((const int8_t *)w)[i]
					      : ((const float *)w)[i]) *
				   c[i];
	}
	if (d->layer_norm) {
		lstm_normalize(gate, d->cells);
		for (size_t i = 0; i < cells; i++)
			gate[i] = gate[i] * norm[i] + bias[i];
	}
	if (g == GATE_CELL)
		ref_sequence_activate(d->activation, gate, cells);
	else
		ref_sequence_sigmoid(gate, cells);
}

/* One step of one batch: h and c are its states, updated in place;
 * `quantized` is the hybrid kernel's scratch. */
static void lstm_step(const lstm_data *d, const opver_node *node,
		      const float *x, float *h, float *c, float *gates,
		      int8_t *quantized)
{
	const size_t cells = (size_t)d->cells;
	float *input = gates + GATE_INPUT * cells;
	float *forget = gates + GATE_FORGET * cells;
	float *cell = gates + GATE_CELL * cells;
	float *output = gates + GATE_OUTPUT * cells;
	float *hidden = gates + NUM_GATES * cells;
	lstm_vector xv = { .values = x }, hv = { .values = h },
		    hidden_v = { .values = hidden };

	if (d->hybrid) {
		/* The scratch holds the three, one after the other. */
		xv.q.quantized = quantized;
		hv.q.quantized = quantized + d->seq.size;
		hidden_v.q.quantized = hv.q.quantized + d->outputs;
		ref_sequence_quantize(x, (size_t)d->seq.size, d->asymmetric,
				      &xv.q);
		ref_sequence_quantize(h, (size_t)d->outputs, d->asymmetric,
				      &hv.q);
	}
	for (int32_t g = d->cifg ? GATE_FORGET : GATE_INPUT; g < GATE_OUTPUT;
	     g++)
		lstm_gate(d, node, g, &xv, &hv, c, gates + (size_t)g * cells);
	for (size_t i = 0; i < cells; i++) {
		c[i] = forget[i] * c[i];
		c[i] += cell[i] * (d->cifg ? 1.0f - forget[i] : input[i]);
	}
	lstm_clip(c, cells, d->cell_clip);
	lstm_gate(d, node, GATE_OUTPUT, &xv, &hv, c, output);
	memcpy(hidden, c, cells * sizeof(float));
	ref_sequence_activate(d->activation, hidden, cells);
	for (size_t i = 0; i < cells; i++)
		hidden[i] = output[i] * hidden[i];
	if (!d->projection) {
		memcpy(h, hidden, cells * sizeof(float));
		return;
	}
	if (lstm_floats(node, LSTM_PROJECTION_BIAS) != NULL)
		memcpy(h, lstm_floats(node, LSTM_PROJECTION_BIAS),
		       (size_t)d->outputs * sizeof(float));
	else
		memset(h, 0, (size_t)d->outputs * sizeof(float));
	if (d->hybrid)
		ref_sequence_quantize(hidden, cells, d->asymmetric,
				      &hidden_v.q);
	lstm_accumulate(d, node, LSTM_PROJECTION, d->outputs, d->cells,
			&hidden_v, h);
	lstm_clip(h, (size_t)d->outputs, d->proj_clip);
}

static opver_status lstm_invoke(const opver_context *ctx, opver_node *node)
{
	const lstm_data *d = node->op_data;
	const ref_sequence *seq = &d->seq;
	const float *input = node->inputs[LSTM_INPUT]->data;
	float *output_state = node->inputs[LSTM_OUTPUT_STATE]->data;
	float *cell_state = node->inputs[LSTM_CELL_STATE]->data;
	float *output = node->outputs[0]->data;
	float *gates = ref_scratch(ctx, d->scratch);
	int8_t *quantized = d->hybrid ? ref_scratch(ctx, d->quantized) : NULL;
	const size_t outputs = (size_t)d->outputs;

	if (gates == NULL || (d->hybrid && quantized == NULL))
		return OPVER_ERROR;
	for (int32_t b = 0; b < seq->batch; b++) {
		float *h = output_state + (size_t)b * outputs;
		float *c = cell_state + (size_t)b * (size_t)d->cells;

		for (int32_t t = 0; t < seq->time; t++) {
			const size_t row = ref_sequence_row(seq, t, b);

			lstm_step(d, node, input + row * (size_t)seq->size, h,
				  c, gates, quantized);
			memcpy(output + row * outputs, h,
			       outputs * sizeof(float));
		}
	}
	return OPVER_OK;
}

const opver_kernel ref_sequence_lstm = {
	OPVER_KERNEL("sequence_lstm", UNIDIRECTIONAL_SEQUENCE_LSTM, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(FLOAT32),
			     OPVER_T(FLOAT32) | OPVER_TYPE_BIT_ABSENT,
			     OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
		OPVER_OUTPUT(OPVER_T(FLOAT32)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(lstm_data),
	.prepare = lstm_prepare, .invoke = lstm_invoke,
};

const opver_kernel ref_sequence_lstm_hybrid = {
	OPVER_KERNEL("sequence_lstm_hybrid", UNIDIRECTIONAL_SEQUENCE_LSTM, 2, 3),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(FLOAT32),
			     OPVER_T(INT8) | OPVER_TYPE_BIT_ABSENT,
			     OPVER_T(INT8), OPVER_T(INT8)),
		OPVER_OUTPUT(OPVER_T(FLOAT32)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(lstm_data),
	.prepare = lstm_prepare, .invoke = lstm_invoke,
};
