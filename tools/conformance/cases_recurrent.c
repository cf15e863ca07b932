/*
 * cases_recurrent.c - UNIDIRECTIONAL_SEQUENCE_RNN and _LSTM cases, float32,
 * one invoke from the zero state (the states are variable tensors, no
 * graph inputs): the steps of the sequence carry the state.  Each case
 * draws the batch (1-2), steps (1-4), input size (1-5), units or cells
 * (1-5; 2-5 with layer norm) and, with a projection, the output size
 * (1-4); weights, biases
 * and inputs lie in [-1, 1].
 * RNN variants: batch-major TANH, time-major RELU, batch-major NONE,
 * time-major RELU6; hybrid (int8 weights and recurrent weights, scales
 * drawn from [0.002, 0.02)) batch-major TANH, and with
 * asymmetric_quantize_inputs time-major RELU.
 * LSTM variants (the cell activation TANH unless said): plain; time-major
 * CIFG; peephole; projection with bias, proj_clip and cell_clip; layer
 * norm (24 inputs); CIFG with peephole, layer norm and projection without
 * bias; RELU with cell_clip; hybrid (int8 input, recurrent, peephole and
 * projection weights) with peepholes, projection and layer norm, and
 * with asymmetric_quantize_inputs time-major CIFG with peepholes.
 */
#include "cases.h"

/* The sequence [time, batch, size] or [batch, time, size]. */
static int32_t sequence_tensor(cf_case *c, bool time_major, int32_t time,
			       int32_t batch, int32_t size)
{
	const int32_t dims[3] = { time_major ? time : batch,
				  time_major ? batch : time, size };

	return cf_case_tensor(c, OPVER_TYPE_FLOAT32, 3, dims);
}

/* A constant float32 vector or matrix of values in [-1, 1], appended to
 * the node's inputs. */
static bool weight_input(cf_case *c, cf_rng *rng, int32_t rows,
			 int32_t cols)
{
	const int32_t dims[2] = { rows, cols };
	const int32_t t = cf_case_tensor(c, OPVER_TYPE_FLOAT32,
					 cols > 0 ? 2 : 1, dims);

	cf_case_input(c, t);
	return cf_case_fill(c, t, rng, -1, 1, true);
}

/* A constant int8 vector (cols 0) or matrix, symmetric per tensor,
 * appended to the node's inputs. */
static bool int8_weight_input(cf_case *c, cf_rng *rng, int32_t rows,
			      int32_t cols)
{
	const int32_t dims[2] = { rows, cols };
	const int32_t t = cf_case_tensor(c, OPVER_TYPE_INT8, cols > 0 ? 2 : 1,
					 dims);

	cf_case_input(c, t);
	return cf_case_fill(c, t, rng, -127, 127, true) &&
	       cf_case_quantize_random(c, t, rng, 0.002f, 0.02f, 0, 0);
}

/* A zero-filled variable state [batch, size], appended to the inputs. */
static void state_input(cf_case *c, int32_t batch, int32_t size)
{
	const int32_t t = cf_case_tensor(c, OPVER_TYPE_FLOAT32, 2,
					 (const int32_t[]){ batch, size });

	c->tensors[t].is_variable = true;
	cf_case_input(c, t);
}

enum { RNN_TANH, RNN_TIME_MAJOR_RELU, RNN_NONE, RNN_TIME_MAJOR_RELU6,
       RNN_HYBRID, RNN_HYBRID_ASYMMETRIC, NUM_RNN_VARIANTS };

static bool generate_rnn(int32_t variant, cf_rng *rng, cf_case *c)
{
	static const int32_t activations[] = {
		OPVER_ACTIVATION_TANH, OPVER_ACTIVATION_RELU,
		OPVER_ACTIVATION_NONE, OPVER_ACTIVATION_RELU6,
		OPVER_ACTIVATION_TANH, OPVER_ACTIVATION_RELU,
	};
	const bool time_major = variant == RNN_TIME_MAJOR_RELU ||
				variant == RNN_TIME_MAJOR_RELU6 ||
				variant == RNN_HYBRID_ASYMMETRIC;
	const bool hybrid = variant >= RNN_HYBRID;
	const int32_t batch = cf_rng_int(rng, 1, 2);
	const int32_t time = cf_rng_int(rng, 1, 4);
	const int32_t size = cf_rng_int(rng, 1, 5);
	const int32_t units = cf_rng_int(rng, 1, 5);
	const int32_t input = sequence_tensor(c, time_major, time, batch, size);
	bool ok;

	cf_case_input(c, input);
	ok = cf_case_fill(c, input, rng, -1, 1, false) &&
	     (hybrid ? int8_weight_input(c, rng, units, size) &&
			       int8_weight_input(c, rng, units, units)
		     : weight_input(c, rng, units, size) &&
			       weight_input(c, rng, units, units)) &&
	     weight_input(c, rng, units, 0);
	state_input(c, batch, units);
	c->output = sequence_tensor(c, time_major, time, batch, units);
	c->has_params = true;
	c->params.sequence_rnn.time_major = time_major;
	c->params.sequence_rnn.activation = activations[variant];
	c->params.sequence_rnn.asymmetric_quantize_inputs =
		variant == RNN_HYBRID_ASYMMETRIC;
	cf_case_param(c, "batch=%d time=%d input=%d units=%d time_major=%d activation=%d hybrid=%d asymmetric=%d",
		      (int)batch, (int)time, (int)size, (int)units,
		      (int)time_major, (int)activations[variant], (int)hybrid,
		      (int)(variant == RNN_HYBRID_ASYMMETRIC));
	return ok;
}

const cf_generator cf_sequence_rnn_cases = {
	.op = OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN,
	.num_variants = NUM_RNN_VARIANTS,
	.generate = generate_rnn,
};

enum { LSTM_PLAIN, LSTM_TIME_MAJOR_CIFG, LSTM_PEEPHOLE, LSTM_PROJECTION,
       LSTM_LAYER_NORM, LSTM_CIFG_ALL, LSTM_RELU_CLIP, LSTM_HYBRID,
       LSTM_HYBRID_ASYMMETRIC, NUM_LSTM_VARIANTS };

/* The optional parts of a variant. */
typedef struct lstm_parts {
	bool time_major, cifg, peephole, projection, projection_bias,
		layer_norm, hybrid, asymmetric;
} lstm_parts;

static const lstm_parts lstm_variants[NUM_LSTM_VARIANTS] = {
	[LSTM_TIME_MAJOR_CIFG] = { .time_major = true, .cifg = true },
	[LSTM_PEEPHOLE] = { .peephole = true },
	[LSTM_PROJECTION] = { .projection = true, .projection_bias = true },
	[LSTM_LAYER_NORM] = { .layer_norm = true },
	[LSTM_CIFG_ALL] = { .cifg = true, .peephole = true,
			    .projection = true, .layer_norm = true },
	[LSTM_HYBRID] = { .peephole = true, .projection = true,
			  .projection_bias = true, .layer_norm = true,
			  .hybrid = true },
	[LSTM_HYBRID_ASYMMETRIC] = { .time_major = true, .cifg = true,
				     .peephole = true, .hybrid = true,
				     .asymmetric = true },
};

/* Appends an optional input: a weight when `present` (int8 when
 * `quantized`), else -1. */
static bool optional_input(cf_case *c, cf_rng *rng, bool present,
			   bool quantized, int32_t rows, int32_t cols)
{
	if (!present) {
		cf_case_input(c, -1);
		return true;
	}
	return quantized ? int8_weight_input(c, rng, rows, cols)
			 : weight_input(c, rng, rows, cols);
}

/* The 24 inputs in TFLite's order, gate by gate (input, forget, cell,
 * output). */
static bool lstm_inputs(cf_case *c, cf_rng *rng, const lstm_parts *p,
			int32_t size, int32_t cells, int32_t outputs,
			int32_t batch)
{
	bool ok = true;

	const bool q = p->hybrid;

	for (int g = 0; g < 4; g++)
		ok = ok && optional_input(c, rng, g > 0 || !p->cifg, q, cells,
					  size);
	for (int g = 0; g < 4; g++)
		ok = ok && optional_input(c, rng, g > 0 || !p->cifg, q, cells,
					  outputs);
	for (int g = 0; g < 3; g++)
		ok = ok && optional_input(c, rng,
					  p->peephole && (g > 0 || !p->cifg),
					  q, cells, 0);
	for (int g = 0; g < 4; g++)
		ok = ok && optional_input(c, rng, g > 0 || !p->cifg, false,
					  cells, 0);
	ok = ok &&
	     optional_input(c, rng, p->projection, q, outputs, cells) &&
	     optional_input(c, rng, p->projection_bias, false, outputs, 0);
	state_input(c, batch, outputs);
	state_input(c, batch, cells);
	for (int g = 0; g < 4; g++)
		ok = ok && optional_input(c, rng,
					  p->layer_norm && (g > 0 || !p->cifg),
					  false, cells, 0);
	return ok;
}

static bool generate_lstm(int32_t variant, cf_rng *rng, cf_case *c)
{
	const lstm_parts *p = &lstm_variants[variant];
	const int32_t batch = cf_rng_int(rng, 1, 2);
	const int32_t time = cf_rng_int(rng, 1, 4);
	const int32_t size = cf_rng_int(rng, 1, 5);
	/* Layer norm makes a single cell's gates their biases. */
	const int32_t cells = cf_rng_int(rng, p->layer_norm ? 2 : 1, 5);
	const int32_t outputs = p->projection ? cf_rng_int(rng, 1, 4) : cells;
	const int32_t input = sequence_tensor(c, p->time_major, time, batch,
					      size);
	opver_sequence_lstm_params *params = &c->params.sequence_lstm;
	bool ok;

	cf_case_input(c, input);
	ok = cf_case_fill(c, input, rng, -1, 1, false) &&
	     lstm_inputs(c, rng, p, size, cells, outputs, batch);
	c->output = sequence_tensor(c, p->time_major, time, batch, outputs);
	c->has_params = true;
	params->activation = variant == LSTM_RELU_CLIP ? OPVER_ACTIVATION_RELU
						       : OPVER_ACTIVATION_TANH;
	params->time_major = p->time_major;
	params->asymmetric_quantize_inputs = p->asymmetric;
	/* Clips low enough that some values reach them. */
	params->cell_clip = variant == LSTM_PROJECTION ||
					    variant == LSTM_RELU_CLIP
				    ? cf_rng_float(rng, 0.2f, 0.6f)
				    : 0.0f;
	params->proj_clip = variant == LSTM_PROJECTION
				    ? cf_rng_float(rng, 0.1f, 0.4f)
				    : 0.0f;
	cf_case_param(c, "batch=%d time=%d input=%d cells=%d outputs=%d time_major=%d cifg=%d peephole=%d projection=%d/%d layer_norm=%d hybrid=%d/%d activation=%d clip=%g/%g",
		      (int)batch, (int)time, (int)size, (int)cells,
		      (int)outputs, (int)p->time_major, (int)p->cifg,
		      (int)p->peephole, (int)p->projection,
		      (int)p->projection_bias, (int)p->layer_norm,
		      (int)p->hybrid, (int)p->asymmetric,
		      (int)params->activation, (double)params->cell_clip,
		      (double)params->proj_clip);
	return ok;
}

const cf_generator cf_sequence_lstm_cases = {
	.op = OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
	.num_variants = NUM_LSTM_VARIANTS,
	.generate = generate_lstm,
};
