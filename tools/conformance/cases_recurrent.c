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
 * Full-integer LSTM variants (int8 input and output, int8 weights, int16
 * cell state at 2^-11 or 2^-12, int32 biases; the gates' and hidden
 * state's scales in the node's five intermediates): plain; time-major
 * CIFG; layer norm (int16 coefficients); time-major projection with bias,
 * cell_clip and proj_clip; CIFG with int16 peepholes and layer norm.
 */
#include <math.h>

#include "cases.h"

/* The sequence [time, batch, size] or [batch, time, size] of `type`. */
static int32_t typed_sequence_tensor(cf_case *c, opver_type type,
				     bool time_major, int32_t time,
				     int32_t batch, int32_t size)
{
	const int32_t dims[3] = { time_major ? time : batch,
				  time_major ? batch : time, size };

	return cf_case_tensor(c, type, 3, dims);
}

/* A float32 sequence. */
static int32_t sequence_tensor(cf_case *c, bool time_major, int32_t time,
			       int32_t batch, int32_t size)
{
	return typed_sequence_tensor(c, OPVER_TYPE_FLOAT32, time_major, time,
				     batch, size);
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

/* The integer variants come after the others, so that the others' cases
 * stay as recorded. */
enum { LSTM_PLAIN, LSTM_TIME_MAJOR_CIFG, LSTM_PEEPHOLE, LSTM_PROJECTION,
       LSTM_LAYER_NORM, LSTM_CIFG_ALL, LSTM_RELU_CLIP, LSTM_HYBRID,
       LSTM_HYBRID_ASYMMETRIC, LSTM_INT8, LSTM_INT8_TIME_MAJOR_CIFG,
       LSTM_INT8_LAYER_NORM, LSTM_INT8_PROJECTION, LSTM_INT8_PEEPHOLE,
       NUM_LSTM_VARIANTS };

/* The optional parts of a variant. */
typedef struct lstm_parts {
	bool time_major, cifg, peephole, projection, projection_bias,
		layer_norm, hybrid, asymmetric, integer;
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
	[LSTM_INT8] = { .integer = true },
	[LSTM_INT8_TIME_MAJOR_CIFG] = { .time_major = true, .cifg = true,
					.integer = true },
	[LSTM_INT8_LAYER_NORM] = { .layer_norm = true, .integer = true },
	[LSTM_INT8_PROJECTION] = { .time_major = true, .projection = true,
				   .projection_bias = true, .integer = true },
	[LSTM_INT8_PEEPHOLE] = { .cifg = true, .peephole = true,
				 .layer_norm = true, .integer = true },
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

static bool generate_lstm_int8(const lstm_parts *p, cf_rng *rng,
			       cf_case *c);

static bool generate_lstm(int32_t variant, cf_rng *rng, cf_case *c)
{
	const lstm_parts *p = &lstm_variants[variant];

	if (p->integer)
		return generate_lstm_int8(p, rng, c);
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

/* A quantized tensor of `type` and shape dims[0..rank-1] with `scale` and
 * `zero`; its values in [lo, hi] are constant data when `constant`, else
 * (lo > hi) it gets none: a variable or an intermediate. */
static int32_t quantized_tensor(cf_case *c, cf_rng *rng, opver_type type,
				int32_t rank, const int32_t *dims, double lo,
				double hi, float scale, int64_t zero, bool *ok)
{
	const int32_t t = cf_case_tensor(c, type, rank, dims);

	*ok = *ok && cf_case_quantize(c, t, scale, zero) &&
	      (lo > hi || cf_case_fill(c, t, rng, lo, hi, true));
	return t;
}

/* An optional constant vector [cells] of int16 or int32 values in
 * [-magnitude, magnitude] (or [magnitude / 6, magnitude] when
 * `positive`) with `scale`, appended to the node's inputs; -1 when absent. */
static void int_vector_input(cf_case *c, cf_rng *rng, bool present,
			     opver_type type, int32_t cells, double magnitude,
			     bool positive, float scale, bool *ok)
{
	cf_case_input(c, present ? quantized_tensor(c, rng, type, 1, &cells,
						    positive ? magnitude / 6
							     : -magnitude,
						    magnitude, scale, 0, ok)
				 : -1);
}

/*
 * The integer LSTM: TFLite's 8x8->16 kernel.  Weights are symmetric int8
 * (scales up to 0.02: gate sums of a few units), gate biases raw int32 in
 * the accumulator's units (about +-1 real), with layer norm in the
 * normalization's Q10 units instead; the output state, output and (when
 * there is no projection) hidden state share one quantization, as a
 * converter writes them.
 */
static bool generate_lstm_int8(const lstm_parts *p, cf_rng *rng,
			       cf_case *c)
{
	const int32_t batch = cf_rng_int(rng, 1, 2);
	const int32_t time = cf_rng_int(rng, 1, 4);
	const int32_t size = cf_rng_int(rng, 1, 5);
	const int32_t cells = cf_rng_int(rng, 2, 5);
	const int32_t outputs = p->projection ? cf_rng_int(rng, 1, 4) : cells;
	const int32_t cell_log2 = -cf_rng_int(rng, 11, 12);
	const float input_scale = cf_rng_float(rng, 0.005f, 0.01f);
	const int64_t input_zero = cf_rng_int(rng, -20, 20);
	const float hidden_scale = cf_rng_float(rng, 0.006f, 0.01f);
	const int64_t hidden_zero = cf_rng_int(rng, -10, 10);
	const float state_scale =
		p->projection ? cf_rng_float(rng, 0.02f, 0.05f) : hidden_scale;
	const int64_t state_zero =
		p->projection ? cf_rng_int(rng, -10, 10) : hidden_zero;
	const float norm_scale = cf_rng_float(rng, 3e-5f, 1e-4f);
	const int32_t state_dims[2][2] = { { batch, outputs },
					   { batch, cells } };
	opver_sequence_lstm_params *params = &c->params.sequence_lstm;
	const int32_t input = typed_sequence_tensor(c, OPVER_TYPE_INT8,
						    p->time_major, time, batch,
						    size);
	bool ok = cf_case_quantize(c, input, input_scale, input_zero) &&
		  cf_case_fill(c, input, rng, -128, 127, false);

	cf_case_input(c, input);
	for (int g = 0; g < 8 && ok; g++) {
		if (g % 4 == 0 && p->cifg)
			cf_case_input(c, -1);
		else
			ok = int8_weight_input(c, rng, cells,
					       g < 4 ? size : outputs);
	}
	for (int g = 0; g < 3; g++)
		int_vector_input(c, rng, p->peephole && (g > 0 || !p->cifg),
				 OPVER_TYPE_INT16, cells, 32767, false,
				 cf_rng_float(rng, 1e-5f, 5e-5f), &ok);
	/* About +-1 over the accumulator's scale, or the Q10 layer norm's. */
	for (int g = 0; g < 4; g++)
		int_vector_input(c, rng, g > 0 || !p->cifg, OPVER_TYPE_INT32,
				 cells,
				 p->layer_norm ? 1024.0 / norm_scale : 5000.0,
				 false, 1e-4f, &ok);
	if (p->projection && ok)
		ok = int8_weight_input(c, rng, outputs, cells);
	else
		cf_case_input(c, -1);
	int_vector_input(c, rng, p->projection_bias, OPVER_TYPE_INT32, outputs,
			 10000.0, false, 1e-4f, &ok);
	for (int s = 0; s < 2; s++) {
		const int32_t t = quantized_tensor(
			c, rng, s == 0 ? OPVER_TYPE_INT8 : OPVER_TYPE_INT16, 2,
			state_dims[s], 1, 0,
			s == 0 ? state_scale : ldexpf(1.0f, cell_log2),
			s == 0 ? state_zero : 0, &ok);

		c->tensors[t].is_variable = true;
		cf_case_input(c, t);
	}
	for (int g = 0; g < 4; g++)
		int_vector_input(c, rng, p->layer_norm && (g > 0 || !p->cifg),
				 OPVER_TYPE_INT16, cells, 32767, true,
				 norm_scale, &ok);
	c->output = typed_sequence_tensor(c, OPVER_TYPE_INT8, p->time_major,
					  time, batch, outputs);
	ok = ok && cf_case_quantize(c, c->output, state_scale, state_zero);
	/* The gates' pre-activation scales (Q3.12 without layer norm), then
	 * the hidden state's. */
	for (int g = 0; g < 4; g++) {
		const float gate_scale = p->layer_norm
			? cf_rng_float(rng, 5e-5f, 3e-4f) : 1.0f / 4096.0f;

		c->intermediates[c->num_intermediates++] = quantized_tensor(
			c, rng, OPVER_TYPE_INT16, 1, (const int32_t[]){ 1 }, 1,
			0, gate_scale, 0, &ok);
	}
	c->intermediates[c->num_intermediates++] = quantized_tensor(
		c, rng, OPVER_TYPE_INT8, 1, (const int32_t[]){ 1 }, 1, 0,
		hidden_scale, hidden_zero, &ok);
	c->has_params = true;
	params->activation = OPVER_ACTIVATION_TANH;
	params->time_major = p->time_major;
	params->cell_clip = p->projection ? cf_rng_float(rng, 0.5f, 3.0f) : 0;
	params->proj_clip = p->projection ? cf_rng_float(rng, 0.5f, 2.0f) : 0;
	cf_case_param(c, "int8 batch=%d time=%d input=%d cells=%d outputs=%d time_major=%d cifg=%d peephole=%d projection=%d/%d layer_norm=%d cell_scale=2^%d clip=%g/%g",
		      (int)batch, (int)time, (int)size, (int)cells,
		      (int)outputs, (int)p->time_major, (int)p->cifg,
		      (int)p->peephole, (int)p->projection,
		      (int)p->projection_bias, (int)p->layer_norm,
		      (int)cell_log2, (double)params->cell_clip,
		      (double)params->proj_clip);
	return ok;
}

const cf_generator cf_sequence_lstm_cases = {
	.op = OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
	.num_variants = NUM_LSTM_VARIANTS,
	.generate = generate_lstm,
};
