/*
 * sequence_lstm_int8.c - UNIDIRECTIONAL_SEQUENCE_LSTM, full integer
 * (version 1 with int8 input): TFLite's 8x8->16 integer LSTM.  int8 input,
 * output and output state, int8 weights (symmetric, per tensor), int32
 * biases, an int16 cell state whose scale is a power of two, int16
 * peephole weights and layer norm coefficients, int32 projection bias.
 *
 * The scale of each gate's pre-activation and of the hidden state (the
 * cell output before the projection) are not in the node's tensors: the
 * converter stores them as the operator's five intermediates (input,
 * forget, cell and output gate, hidden; ABI 2.4's node->intermediates).
 * Without layer norm the gates are Q3.12 (scale 2^-12) whatever the first
 * four say.  Each step of each batch, as TFLite's LstmStepInteger8x8_16:
 *   gate (int16) = input . W_in + output_state . W_rec, each product
 *        summed in int32 with the zero points folded into the bias and
 *        rescaled to the gate's scale, saturating; the peephole's
 *        weight * cell_state rescaled and added; with layer norm,
 *        normalized in fixed point and scaled by the coefficients and
 *        the bias; then gemmlowp's fixed-point logistic (tanh for the
 *        cell gate), Q3.12 in, Q0.15 out;
 *   cell_state = forget * cell_state + input * cell_gate, rounded shifts,
 *        saturating, clipped (input = 1 - forget with CIFG);
 *   hidden (int8) = output_gate * tanh(cell_state) rescaled;
 *   output_state = hidden, or its projection, rescaled and clipped; it is
 *        the step's output.
 * Without layer norm the gate biases are added before the rescale; with
 * it, inside the normalization, as TFLite.
 */
#include <math.h>
#include <string.h>

#include "dot.h"
#include "fixed_point.h"
#include "kernels.h"
#include "node_memory.h"
#include "quantization.h"
#include "sequence_lstm_shape.h"

/* The intermediates: one per gate, then the hidden state. */
enum { INTERMEDIATE_HIDDEN = NUM_GATES, NUM_INTERMEDIATES };

typedef struct rescale {
	int32_t multiplier;
	int shift;
} rescale;

typedef struct gate_data {
	rescale input, recurrent, peephole, norm;
	int32_t variance_guard;
	/* Persistent, `cells` each: the bias (without layer norm) plus
	 * -zero point times each weight row's sum, per product. */
	int32_t *input_bias, *recurrent_bias;
} gate_data;

typedef struct lstm8_data {
	ref_lstm_shape shape;
	gate_data gates[NUM_GATES];
	int cell_log2;          /* the cell state's scale is 2^cell_log2 */
	rescale hidden, projection;
	int32_t hidden_zero, output_zero;
	int32_t *projection_bias; /* persistent, `outputs` */
	int16_t cell_clip;      /* quantized; 0: none */
	int8_t proj_clip;       /* quantized; 0: none */
	int32_t gate_scratch;   /* NUM_GATES rows of `cells` int16 */
	int32_t hidden_scratch; /* `cells` int8 */
} lstm8_data;

/* The scale of quantized tensor `t`, whose zero point must be 0 when
 * `symmetric`; *zero may be NULL then. */
static opver_status lstm8_scale(const opver_context *ctx,
				const opver_tensor *t, bool symmetric,
				float *scale, int32_t *zero)
{
	int32_t z;
	opver_status status =
		ref_per_tensor_quantization(ctx, t->name, t, scale, &z);

	if (status != OPVER_OK)
		return status;
	if (symmetric && z != 0) {
		OPVER_REPORT(ctx, "the integer LSTM takes symmetric weights (zero point 0); '%s' has %d",
			     t->name, (int)z);
		return OPVER_ERROR_UNSUPPORTED;
	}
	if (zero != NULL)
		*zero = z;
	return OPVER_OK;
}

/* A constant tensor: the kernel folds weights into its biases and reads
 * biases and coefficients at prepare. */
static opver_status lstm8_constant(const opver_context *ctx,
				   const opver_tensor *t)
{
	if (t == NULL || t->is_constant)
		return OPVER_OK;
	OPVER_REPORT(ctx, "the integer LSTM needs '%s' constant", t->name);
	return OPVER_ERROR_UNSUPPORTED;
}

/* bias[r] (or 0) + zero * the sum of row r of the int8 [rows, cols]
 * weights, as TFLite's PrecomputeZeroPointTimesWeightWithBias, in its
 * int32 arithmetic: wrapping (computed unsigned). */
static int32_t *lstm8_fold(const opver_context *ctx, const opver_tensor *w,
			   const opver_tensor *bias, int32_t zero,
			   int32_t rows, int32_t cols)
{
	const int8_t *weights = w->data;
	int32_t *out = ref_persistent(ctx, (size_t)rows, sizeof(int32_t),
				      "the LSTM's folded biases");

	if (out == NULL)
		return NULL;
	for (int32_t r = 0; r < rows; r++) {
		uint32_t sum = 0;

		for (int32_t c = 0; c < cols; c++)
			sum += (uint32_t)(int32_t)
				weights[(size_t)r * (size_t)cols + (size_t)c];
		out[r] = (int32_t)((bias != NULL
					    ? (uint32_t)((const int32_t *)
								 bias->data)[r]
					    : 0u) +
				   (uint32_t)zero * sum);
	}
	return out;
}

/* *out from a real factor computed as TFLite computes it (in float). */
static opver_status lstm8_rescale(const opver_context *ctx, float real,
				  const char *what, rescale *out)
{
	return ref_quantize_rescale(ctx, (double)real, &out->multiplier,
				    &out->shift, "%s", what);
}

/* The scales of the gates' pre-activations and of the hidden state, from
 * the intermediates. */
static opver_status lstm8_intermediates(const opver_context *ctx,
					const opver_node *node,
					const lstm8_data *d, float *scales,
					int32_t *hidden_zero)
{
	if (!OPVER_NODE_HAS(node, intermediates) ||
	    node->num_intermediates != NUM_INTERMEDIATES) {
		OPVER_REPORT(ctx, "the integer LSTM reads its gates' and hidden state's scales from 5 intermediate tensors; the node has %d",
			     OPVER_NODE_HAS(node, intermediates)
				     ? (int)node->num_intermediates
				     : 0);
		return OPVER_ERROR_INVALID_MODEL;
	}
	for (int32_t i = 0; i < NUM_INTERMEDIATES; i++) {
		const opver_tensor *t = node->intermediates[i];
		int32_t zero;
		opver_status status;

		/* Gates are Q3.12 without layer norm. */
		if (i < NUM_GATES && !d->shape.layer_norm) {
			scales[i] = 1.0f / 4096.0f;
			continue;
		}
		if (t == NULL) {
			OPVER_REPORT(ctx, "intermediate %d of the integer LSTM is omitted", (int)i);
			return OPVER_ERROR_INVALID_MODEL;
		}
		status = lstm8_scale(ctx, t, false, &scales[i], &zero);
		if (status != OPVER_OK)
			return status;
		/* TFLite quantizes the hidden state with the negated zero
		 * point (its outputs match only so), and folds that into the
		 * projection's bias, so only a model without projection sees
		 * it. */
		if (i == INTERMEDIATE_HIDDEN)
			*hidden_zero = -zero;
	}
	return OPVER_OK;
}

/* Gate g's rescales, folded biases and layer norm scale. */
static opver_status lstm8_prepare_gate(const opver_context *ctx,
				       const opver_node *node, lstm8_data *d,
				       int32_t g, float input_scale,
				       int32_t input_zero, float state_scale,
				       int32_t state_zero, float gate_scale)
{
	gate_data *gd = &d->gates[g];
	const opver_tensor *w_in = ref_lstm_input(node, LSTM_INPUT_WEIGHTS + g);
	const opver_tensor *w_rec =
		ref_lstm_input(node, LSTM_RECURRENT_WEIGHTS + g);
	const opver_tensor *peephole =
		g == GATE_CELL ? NULL
			       : ref_lstm_input(node, ref_lstm_peephole(g));
	const opver_tensor *norm = ref_lstm_input(node, LSTM_LAYER_NORM + g);
	const opver_tensor *bias = ref_lstm_input(node, LSTM_BIAS + g);
	float w_scale, scale;
	opver_status status;

	status = lstm8_scale(ctx, w_in, true, &w_scale, NULL);
	if (status == OPVER_OK)
		status = lstm8_rescale(ctx, w_scale * input_scale / gate_scale,
				       "input weights x input / gate scale",
				       &gd->input);
	if (status == OPVER_OK)
		status = lstm8_scale(ctx, w_rec, true, &w_scale, NULL);
	if (status == OPVER_OK)
		status = lstm8_rescale(ctx, w_scale * state_scale / gate_scale,
				       "recurrent weights x output state / gate scale",
				       &gd->recurrent);
	if (status == OPVER_OK && peephole != NULL)
		status = lstm8_scale(ctx, peephole, true, &w_scale, NULL);
	if (status == OPVER_OK && peephole != NULL)
		/* TFLite's std::pow(2, cell_scale) is a double. */
		status = lstm8_rescale(
			ctx,
			(float)(ldexp(1.0, d->cell_log2) * (double)w_scale /
				(double)gate_scale),
			"cell state x peephole weights / gate scale",
			&gd->peephole);
	if (status == OPVER_OK && norm != NULL) {
		status = lstm8_scale(ctx, norm, false, &scale, NULL);
		if (status == OPVER_OK)
			status = lstm8_rescale(ctx, scale,
					       "layer norm coefficients' scale",
					       &gd->norm);
		/* The normalized values are rescaled 2^12 further. */
		if (status == OPVER_OK &&
		    gd->norm.shift + 12 > REF_MAX_RESCALE_SHIFT) {
			OPVER_REPORT(ctx, "layer norm coefficients '%s' have a scale of %g; the integer LSTM takes one below 2^18",
				     norm->name, (double)scale);
			status = OPVER_ERROR_UNSUPPORTED;
		}
		if (status != OPVER_OK)
			return status;
		/* TFLite's guard against a variance of 0, as an int32. */
		scale *= 10000.0f;
		if (scale >= 2147483520.0f)
			gd->variance_guard = INT32_MAX;
		else
			gd->variance_guard = scale < 1.0f ? 1 : (int32_t)scale;
	}
	if (status != OPVER_OK)
		return status;
	gd->input_bias = lstm8_fold(ctx, w_in, d->shape.layer_norm ? NULL : bias,
				    -input_zero, d->shape.cells,
				    d->shape.seq.size);
	gd->recurrent_bias = lstm8_fold(ctx, w_rec, NULL, -state_zero,
					d->shape.cells, d->shape.outputs);
	return gd->input_bias != NULL && gd->recurrent_bias != NULL
		? OPVER_OK : OPVER_ERROR_NOMEM;
}

static opver_status lstm8_prepare(const opver_context *ctx, opver_node *node)
{
	lstm8_data *d = node->op_data;
	opver_sequence_lstm_params params =
		OPVER_SEQUENCE_LSTM_PARAMS_DEFAULTS;
	static const ref_lstm_types types = {
		.weights = OPVER_TYPE_INT8, .peephole = OPVER_TYPE_INT16,
		.bias = OPVER_TYPE_INT32, .layer_norm = OPVER_TYPE_INT16,
		.projection_bias = OPVER_TYPE_INT32,
		.output_state = OPVER_TYPE_INT8,
		.cell_state = OPVER_TYPE_INT16,
	};
	const opver_tensor *output_state, *cell_state;
	float scales[NUM_INTERMEDIATES], input_scale, state_scale, output_scale,
		cell_scale, w_scale;
	int32_t input_zero, output_zero;
	opver_status status;

	opver_read_params(node, &params, sizeof(params));
	status = ref_lstm_check(ctx, node, &params, &types, &d->shape);
	if (status != OPVER_OK)
		return status;
	if (params.activation != OPVER_ACTIVATION_TANH) {
		OPVER_REPORT(ctx, "the integer LSTM's cell activation must be TANH");
		return OPVER_ERROR_UNSUPPORTED;
	}
	/* TFLite's integer peephole runs over n_output cells. */
	if (d->shape.peephole && d->shape.outputs != d->shape.cells) {
		OPVER_REPORT(ctx, "the integer LSTM takes peephole weights only when the output size (%d) is the number of cells (%d)",
			     (int)d->shape.outputs, (int)d->shape.cells);
		return OPVER_ERROR_UNSUPPORTED;
	}
	for (int32_t i = 1; i < node->num_inputs && status == OPVER_OK; i++)
		if (i != LSTM_OUTPUT_STATE && i != LSTM_CELL_STATE)
			status = lstm8_constant(ctx, node->inputs[i]);
	output_state = node->inputs[LSTM_OUTPUT_STATE];
	cell_state = node->inputs[LSTM_CELL_STATE];
	if (status == OPVER_OK)
		status = lstm8_scale(ctx, node->inputs[LSTM_INPUT], false,
				     &input_scale, &input_zero);
	if (status == OPVER_OK)
		status = lstm8_scale(ctx, output_state, false, &state_scale,
				     &d->output_zero);
	if (status == OPVER_OK)
		status = lstm8_scale(ctx, node->outputs[0], false,
				     &output_scale, &output_zero);
	if (status == OPVER_OK)
		status = lstm8_scale(ctx, cell_state, true, &cell_scale, NULL);
	if (status != OPVER_OK)
		return status;
	/* The output is a copy of the output state. */
	if (output_scale != state_scale || output_zero != d->output_zero) {
		OPVER_REPORT(ctx, "the integer LSTM's output must be quantized as its output state '%s'",
			     output_state->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* TFLite's bounds; ref_tanh16_bits() covers 2^-15 to 2^-11. */
	if (!ref_checked_log2(cell_scale, &d->cell_log2) ||
	    d->cell_log2 > -11 || d->cell_log2 < -15) {
		OPVER_REPORT(ctx, "the integer LSTM's cell state '%s' must have a power-of-two scale from 2^-15 to 2^-11; it has %g",
			     cell_state->name, (double)cell_scale);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = lstm8_intermediates(ctx, node, d, scales, &d->hidden_zero);
	for (int32_t g = d->shape.cifg ? GATE_FORGET : GATE_INPUT;
	     g < NUM_GATES && status == OPVER_OK; g++)
		status = lstm8_prepare_gate(ctx, node, d, g, input_scale,
					    input_zero, state_scale,
					    d->output_zero, scales[g]);
	if (status == OPVER_OK)
		status = lstm8_rescale(
			ctx,
			(float)(ldexp(1.0, -15) / (double)scales[INTERMEDIATE_HIDDEN] *
				ldexp(1.0, -15)),
			"2^-30 / hidden scale", &d->hidden);
	if (status == OPVER_OK && d->shape.projection) {
		const opver_tensor *w = node->inputs[LSTM_PROJECTION];

		status = lstm8_scale(ctx, w, true, &w_scale, NULL);
		if (status == OPVER_OK)
			status = lstm8_rescale(
				ctx,
				w_scale * scales[INTERMEDIATE_HIDDEN] / state_scale,
				"projection weights x hidden / output state scale",
				&d->projection);
		if (status != OPVER_OK)
			return status;
		d->projection_bias = lstm8_fold(
			ctx, w, ref_lstm_input(node, LSTM_PROJECTION_BIAS),
			-d->hidden_zero, d->shape.outputs, d->shape.cells);
		if (d->projection_bias == NULL)
			return OPVER_ERROR_NOMEM;
	}
	if (status != OPVER_OK)
		return status;
	if (params.cell_clip > 0.0f)
		d->cell_clip = (int16_t)ref_clamp_float(
			params.cell_clip / cell_scale, -32768.0f, 32767.0f);
	if (params.proj_clip > 0.0f)
		d->proj_clip = (int8_t)ref_clamp_float(
			params.proj_clip / state_scale, -128.0f, 127.0f);
	status = ref_request_scratch(ctx,
				     (size_t)NUM_GATES * (size_t)d->shape.cells,
				     sizeof(int16_t), "the gates of one step",
				     &d->gate_scratch);
	if (status != OPVER_OK)
		return status;
	return ref_request_scratch(ctx, (size_t)d->shape.cells, sizeof(int8_t),
				   "the hidden state of one step",
				   &d->hidden_scratch);
}

/* rescale(x) + add, saturated to [min, max]: the sum in 64 bits, where
 * TFLite's int32 overflows only for hostile scales. */
static int32_t lstm8_rescale_add(int32_t x, const rescale *r, int32_t add,
				 int32_t min, int32_t max)
{
	const int64_t sum = (int64_t)ref_multiply_by_quantized_multiplier(
				    x, r->multiplier, r->shift) +
			    add;

	return sum < min ? min : sum > max ? max : (int32_t)sum;
}

/* bias[row] + weights[row] . x, wrapping as TFLite's int32 accumulator. */
static int32_t lstm8_row(const int8_t *weights, const int32_t *bias,
			 int32_t row, int32_t cols, const int8_t *x)
{
	return (int32_t)((uint32_t)bias[row] +
			 ref_dot_int8(x, 0, weights + (size_t)row * (size_t)cols,
				      0, (size_t)cols));
}

/* out[r] += rescale(bias[r] + weights[r] . x), saturating to int16, for
 * `rows` rows of `cols` int8 weights. */
static void lstm8_accumulate(const int8_t *weights, const int32_t *bias,
			     const rescale *r, int32_t rows, int32_t cols,
			     const int8_t *x, int16_t *out)
{
	for (int32_t row = 0; row < rows; row++)
		out[row] = (int16_t)lstm8_rescale_add(
			lstm8_row(weights, bias, row, cols, x), r, out[row],
			INT16_MIN, INT16_MAX);
}

/* TFLite's integer layer norm of one gate: mean and variance in fixed
 * point (the variance floored at the guard), each value normalized with
 * an inverse square root multiplier, times the coefficient plus the bias
 * in Q10, then rescaled by the coefficients' scale. */
static void lstm8_layer_norm(int16_t *v, const int16_t *coefficients,
			     const int32_t *bias, const gate_data *gd,
			     int32_t n)
{
	int64_t sum = 0, squares = 0;
	int32_t mean, variance, inverse;
	int shift;

	for (int32_t i = 0; i < n; i++) {
		sum += v[i];
		squares += (int32_t)v[i] * v[i];
	}
	mean = (int32_t)(sum * 1024 / n);
	variance = (int32_t)((squares * ((1 << 20) / n) -
			      (int64_t)mean * mean) /
			     (1 << 20));
	if (variance < 1)
		variance = gd->variance_guard;
	ref_inv_sqrt_multiplier(variance, &inverse, &shift);
	for (int32_t i = 0; i < n; i++) {
		const int32_t normalized = ref_multiply_by_quantized_multiplier(
			1024 * v[i] - mean, inverse, shift);
		/* TFLite multiplies in int32 without a check; it wraps. */
		const int64_t scaled = (int32_t)((uint32_t)normalized *
							 (uint32_t)(int32_t)coefficients[i] +
						 (uint32_t)bias[i]);
		const int32_t q10 =
			(int32_t)((scaled > 0 ? scaled + 512 : scaled - 512) /
				  1024);

		v[i] = (int16_t)ref_clamp_int32(
			ref_multiply_by_quantized_multiplier(
				q10, gd->norm.multiplier, gd->norm.shift + 12),
			INT16_MIN, INT16_MAX);
	}
}

/* Gate g of one step, from the input x, the output state h and (peephole)
 * the cell state c. */
static void lstm8_gate(const lstm8_data *d, const opver_node *node,
		       int32_t g, const int8_t *x, const int8_t *h,
		       const int16_t *c, int16_t *gate)
{
	const gate_data *gd = &d->gates[g];
	const int32_t cells = d->shape.cells;
	const opver_tensor *peephole =
		g == GATE_CELL ? NULL
			       : ref_lstm_input(node, ref_lstm_peephole(g));

	memset(gate, 0, (size_t)cells * sizeof(int16_t));
	lstm8_accumulate(node->inputs[LSTM_INPUT_WEIGHTS + g]->data,
			 gd->input_bias, &gd->input, cells, d->shape.seq.size,
			 x, gate);
	lstm8_accumulate(node->inputs[LSTM_RECURRENT_WEIGHTS + g]->data,
			 gd->recurrent_bias, &gd->recurrent, cells,
			 d->shape.outputs, h, gate);
	if (peephole != NULL) {
		const int16_t *w = peephole->data;

		for (int32_t i = 0; i < cells; i++)
			gate[i] = (int16_t)lstm8_rescale_add(
				(int32_t)w[i] * c[i], &gd->peephole, gate[i],
				INT16_MIN, INT16_MAX);
	}
	if (d->shape.layer_norm)
		lstm8_layer_norm(gate,
				 node->inputs[LSTM_LAYER_NORM + g]->data,
				 node->inputs[LSTM_BIAS + g]->data, gd, cells);
	for (int32_t i = 0; i < cells; i++)
		gate[i] = g == GATE_CELL ? ref_tanh16(gate[i])
					 : ref_logistic16(gate[i]);
}

/* a * b / 2^shift rounded, as TFLite's CwiseMul of two int16 vectors. */
static int16_t lstm8_mul(int16_t a, int16_t b, int shift)
{
	return (int16_t)ref_rounding_divide_by_pot((int32_t)a * b, shift);
}

/* One step of one batch: h and c are its states, updated in place. */
static void lstm8_step(const lstm8_data *d, const opver_node *node,
		       const int8_t *x, int8_t *h, int16_t *c, int16_t *gates,
		       int8_t *hidden)
{
	const int32_t cells = d->shape.cells;
	int16_t *input = gates + (size_t)GATE_INPUT * (size_t)cells;
	int16_t *forget = gates + (size_t)GATE_FORGET * (size_t)cells;
	int16_t *cell = gates + (size_t)GATE_CELL * (size_t)cells;
	int16_t *output = gates + (size_t)GATE_OUTPUT * (size_t)cells;
	const int tanh_bits = 15 + d->cell_log2;

	for (int32_t g = d->shape.cifg ? GATE_FORGET : GATE_INPUT;
	     g < GATE_OUTPUT; g++)
		lstm8_gate(d, node, g, x, h, c,
			   gates + (size_t)g * (size_t)cells);
	for (int32_t i = 0; i < cells; i++) {
		const int16_t in = d->shape.cifg ? (int16_t)(INT16_MAX - forget[i])
						 : input[i];
		int32_t sum = lstm8_mul(forget[i], c[i], 15) +
			      lstm8_mul(in, cell[i], 30 + d->cell_log2);

		sum = ref_clamp_int32(sum, INT16_MIN, INT16_MAX);
		if (d->cell_clip > 0)
			sum = ref_clamp_int32(sum, -d->cell_clip, d->cell_clip);
		c[i] = (int16_t)sum;
	}
	lstm8_gate(d, node, GATE_OUTPUT, x, h, c, output);
	for (int32_t i = 0; i < cells; i++)
		hidden[i] = (int8_t)lstm8_rescale_add(
			(int32_t)output[i] * ref_tanh16_bits(c[i], tanh_bits),
			&d->hidden, d->hidden_zero, INT8_MIN, INT8_MAX);
	if (!d->shape.projection) {
		memcpy(h, hidden, (size_t)cells);
		return;
	}
	const int8_t *w = node->inputs[LSTM_PROJECTION]->data;

	for (int32_t row = 0; row < d->shape.outputs; row++) {
		int32_t acc = lstm8_rescale_add(
			lstm8_row(w, d->projection_bias, row, cells, hidden),
			&d->projection, d->output_zero, INT8_MIN, INT8_MAX);

		if (d->proj_clip > 0)
			acc = ref_clamp_int32(acc, -d->proj_clip, d->proj_clip);
		h[row] = (int8_t)acc;
	}
}

static opver_status lstm8_invoke(const opver_context *ctx, opver_node *node)
{
	const lstm8_data *d = node->op_data;
	const ref_sequence *seq = &d->shape.seq;
	const int8_t *input = node->inputs[LSTM_INPUT]->data;
	int8_t *output_state = node->inputs[LSTM_OUTPUT_STATE]->data;
	int16_t *cell_state = node->inputs[LSTM_CELL_STATE]->data;
	int8_t *output = node->outputs[0]->data;
	int16_t *gates = ref_scratch(ctx, d->gate_scratch);
	int8_t *hidden = ref_scratch(ctx, d->hidden_scratch);
	const size_t outputs = (size_t)d->shape.outputs;

	if (gates == NULL || hidden == NULL)
		return OPVER_ERROR;
	for (int32_t b = 0; b < seq->batch; b++) {
		int8_t *h = output_state + (size_t)b * outputs;
		int16_t *c = cell_state + (size_t)b * (size_t)d->shape.cells;

		for (int32_t t = 0; t < seq->time; t++) {
			const size_t row = ref_sequence_row(seq, t, b);

			lstm8_step(d, node, input + row * (size_t)seq->size, h,
				   c, gates, hidden);
			memcpy(output + row * outputs, h, outputs);
		}
	}
	return OPVER_OK;
}

const opver_kernel ref_sequence_lstm_int8 = {
	OPVER_KERNEL("sequence_lstm_int8", UNIDIRECTIONAL_SEQUENCE_LSTM, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(INT8), OPVER_T(INT8) | OPVER_TYPE_BIT_ABSENT,
			     OPVER_T(INT8), OPVER_T(INT8)),
		OPVER_OUTPUT(OPVER_T(INT8)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(lstm8_data),
	.prepare = lstm8_prepare, .invoke = lstm8_invoke,
};
