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
#include "sequence_lstm_shape.h"

typedef struct lstm_data {
	ref_lstm_shape shape;
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
		const opver_tensor *t = ref_lstm_input(node, weights[i]);
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
				   (size_t)d->shape.seq.size + (size_t)d->shape.outputs +
					   (size_t)d->shape.cells,
				   sizeof(int8_t),
				   "the quantized input, output state and cell output",
				   &d->quantized);
}

static opver_status lstm_prepare(const opver_context *ctx, opver_node *node)
{
	lstm_data *d = node->op_data;
	opver_sequence_lstm_params params =
		OPVER_SEQUENCE_LSTM_PARAMS_DEFAULTS;
	const opver_tensor *forget =
		ref_lstm_input(node, LSTM_INPUT_WEIGHTS + GATE_FORGET);
	ref_lstm_types types = {
		.weights = OPVER_TYPE_FLOAT32, .peephole = OPVER_TYPE_FLOAT32,
		.bias = OPVER_TYPE_FLOAT32, .layer_norm = OPVER_TYPE_FLOAT32,
		.projection_bias = OPVER_TYPE_FLOAT32,
		.output_state = OPVER_TYPE_FLOAT32,
		.cell_state = OPVER_TYPE_FLOAT32,
	};
	opver_status status;

	opver_read_params(node, &params, sizeof(params));
	d->hybrid = forget != NULL && forget->type == OPVER_TYPE_INT8;
	if (d->hybrid)
		types.weights = types.peephole = OPVER_TYPE_INT8;
	status = ref_lstm_check(ctx, node, &params, &types, &d->shape);
	if (status == OPVER_OK)
		status = ref_sequence_expect_activation(ctx,
							params.activation);
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
				   (size_t)(NUM_GATES + 1) *
					   (size_t)d->shape.cells,
				   sizeof(float), "the gates of one step",
				   &d->scratch);
}

/* Data of input i, or NULL when omitted. */
static const float *lstm_floats(const opver_node *node, int32_t i)
{
	const opver_tensor *t = ref_lstm_input(node, i);

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
	const void *weights = ref_lstm_input(node, i)->data;

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
	const size_t cells = (size_t)d->shape.cells;
	const float *bias = lstm_floats(node, LSTM_BIAS + g);
	const float *norm = lstm_floats(node, LSTM_LAYER_NORM + g);
	const int32_t peephole = ref_lstm_peephole(g);

	if (d->shape.layer_norm)
		memset(gate, 0, cells * sizeof(float));
	else
		memcpy(gate, bias, cells * sizeof(float));
	lstm_accumulate(d, node, LSTM_INPUT_WEIGHTS + g, d->shape.cells,
			d->shape.seq.size, x, gate);
	lstm_accumulate(d, node, LSTM_RECURRENT_WEIGHTS + g, d->shape.cells,
			d->shape.outputs, h, gate);
	if (peephole >= 0 && ref_lstm_input(node, peephole) != NULL) {
		const void *w = ref_lstm_input(node, peephole)->data;

		/* Hybrid peepholes are dequantized first, as TFLite. */
		for (size_t i = 0; i < cells; i++)
			gate[i] += (d->hybrid ? d->scales[peephole] *
							(float)((const int8_t *)w)[i]
					      : ((const float *)w)[i]) *
				   c[i];
	}
	if (d->shape.layer_norm) {
		lstm_normalize(gate, d->shape.cells);
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
	const size_t cells = (size_t)d->shape.cells;
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
		hv.q.quantized = quantized + d->shape.seq.size;
		hidden_v.q.quantized = hv.q.quantized + d->shape.outputs;
		ref_sequence_quantize(x, (size_t)d->shape.seq.size, d->asymmetric,
				      &xv.q);
		ref_sequence_quantize(h, (size_t)d->shape.outputs, d->asymmetric,
				      &hv.q);
	}
	for (int32_t g = d->shape.cifg ? GATE_FORGET : GATE_INPUT; g < GATE_OUTPUT;
	     g++)
		lstm_gate(d, node, g, &xv, &hv, c, gates + (size_t)g * cells);
	for (size_t i = 0; i < cells; i++) {
		c[i] = forget[i] * c[i];
		c[i] += cell[i] * (d->shape.cifg ? 1.0f - forget[i] : input[i]);
	}
	lstm_clip(c, cells, d->cell_clip);
	lstm_gate(d, node, GATE_OUTPUT, &xv, &hv, c, output);
	memcpy(hidden, c, cells * sizeof(float));
	ref_sequence_activate(d->activation, hidden, cells);
	for (size_t i = 0; i < cells; i++)
		hidden[i] = output[i] * hidden[i];
	if (!d->shape.projection) {
		memcpy(h, hidden, cells * sizeof(float));
		return;
	}
	if (lstm_floats(node, LSTM_PROJECTION_BIAS) != NULL)
		memcpy(h, lstm_floats(node, LSTM_PROJECTION_BIAS),
		       (size_t)d->shape.outputs * sizeof(float));
	else
		memset(h, 0, (size_t)d->shape.outputs * sizeof(float));
	if (d->hybrid)
		ref_sequence_quantize(hidden, cells, d->asymmetric,
				      &hidden_v.q);
	lstm_accumulate(d, node, LSTM_PROJECTION, d->shape.outputs, d->shape.cells,
			&hidden_v, h);
	lstm_clip(h, (size_t)d->shape.outputs, d->proj_clip);
}

static opver_status lstm_invoke(const opver_context *ctx, opver_node *node)
{
	const lstm_data *d = node->op_data;
	const ref_sequence *seq = &d->shape.seq;
	const float *input = node->inputs[LSTM_INPUT]->data;
	float *output_state = node->inputs[LSTM_OUTPUT_STATE]->data;
	float *cell_state = node->inputs[LSTM_CELL_STATE]->data;
	float *output = node->outputs[0]->data;
	float *gates = ref_scratch(ctx, d->scratch);
	int8_t *quantized = d->hybrid ? ref_scratch(ctx, d->quantized) : NULL;
	const size_t outputs = (size_t)d->shape.outputs;

	if (gates == NULL || (d->hybrid && quantized == NULL))
		return OPVER_ERROR;
	for (int32_t b = 0; b < seq->batch; b++) {
		float *h = output_state + (size_t)b * outputs;
		float *c = cell_state + (size_t)b * (size_t)d->shape.cells;

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
