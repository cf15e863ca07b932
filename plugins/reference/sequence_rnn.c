/*
 * sequence_rnn.c - UNIDIRECTIONAL_SEQUENCE_RNN, float32: a fully connected
 * recurrent layer over a sequence.  The hidden state (input 4, a variable
 * tensor [batch, units]) carries over steps and invokes.  Each step of
 * each batch, as TFLite's RnnBatchStep: the output row is the bias, plus
 * weights . input, plus recurrent_weights . hidden (each dot product
 * summed on its own, then added), through the fused activation; it then
 * becomes the hidden state.
 *
 * Hybrid (versions 2, and 3 with asymmetric_quantize_inputs): int8
 * weights and recurrent weights (symmetric, per tensor), the rest float.
 * As TFLite's hybrid RnnBatchStep, the input row and the hidden state are
 * each quantized to int8 on the fly (skipped when all zero), their
 * integer sums scaled back by the row's scale times the weights' scale
 * and added to the bias.
 */
#include <stdbool.h>
#include <string.h>

#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"
#include "quantization.h"
#include "sequence.h"

enum {
	RNN_INPUT = 0,
	RNN_WEIGHTS = 1,
	RNN_RECURRENT = 2,
	RNN_BIAS = 3,
	RNN_HIDDEN = 4,
};

typedef struct rnn_data {
	ref_sequence seq;
	int32_t units;
	int32_t activation;
	/* hybrid: the weights' scales, and scratch for a quantized row. */
	bool hybrid, asymmetric;
	float weights_scale, recurrent_scale;
	int32_t quantized;
} rnn_data;

/* weights [units, input], recurrent [units, units], bias [units],
 * hidden [batch, units], as TFLite's Prepare checks them. */
static opver_status rnn_shapes(const opver_context *ctx,
			       const opver_node *node, rnn_data *d)
{
	const opver_tensor *weights = node->inputs[RNN_WEIGHTS];
	const opver_tensor *recurrent = node->inputs[RNN_RECURRENT];
	const opver_tensor *bias = node->inputs[RNN_BIAS];
	const opver_tensor *hidden = node->inputs[RNN_HIDDEN];
	opver_status status = ref_expect_rank(ctx, "weights", weights, 2);

	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "recurrent_weights", recurrent,
					 2);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "bias", bias, 1);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "hidden_state", hidden, 2);
	if (status != OPVER_OK)
		return status;
	d->units = weights->dims[0];
	if (weights->dims[1] != d->seq.size ||
	    recurrent->dims[0] != d->units || recurrent->dims[1] != d->units ||
	    bias->dims[0] != d->units || hidden->dims[0] != d->seq.batch ||
	    hidden->dims[1] != d->units) {
		OPVER_REPORT(ctx, "with %d units, an input size of %d and a batch of %d: weights must be [%d, %d], recurrent_weights [%d, %d], bias [%d] and hidden_state [%d, %d]",
			     (int)d->units, (int)d->seq.size, (int)d->seq.batch,
			     (int)d->units, (int)d->seq.size, (int)d->units,
			     (int)d->units, (int)d->units, (int)d->seq.batch,
			     (int)d->units);
		return OPVER_ERROR_INVALID_MODEL;
	}
	if (hidden->is_constant) {
		OPVER_REPORT(ctx, "hidden_state '%s' is constant; the RNN writes its state, so it must be a variable tensor",
			     hidden->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	return ref_sequence_shape_output(ctx, node, &d->seq, d->units);
}

/* The hybrid kernel's weight scales (symmetric, per tensor) and scratch
 * for the longer of an input row and the hidden state, quantized. */
static opver_status rnn_prepare_hybrid(const opver_context *ctx,
				       const opver_node *node, rnn_data *d)
{
	int32_t weights_zero, recurrent_zero;
	opver_status status = ref_per_tensor_quantization(
		ctx, "weights", node->inputs[RNN_WEIGHTS], &d->weights_scale,
		&weights_zero);

	if (status == OPVER_OK)
		status = ref_per_tensor_quantization(
			ctx, "recurrent_weights", node->inputs[RNN_RECURRENT],
			&d->recurrent_scale, &recurrent_zero);
	if (status != OPVER_OK)
		return status;
	if (weights_zero != 0 || recurrent_zero != 0) {
		OPVER_REPORT(ctx, "the hybrid RNN takes symmetric weights (zero point 0); weights have %d, recurrent_weights %d",
			     (int)weights_zero, (int)recurrent_zero);
		return OPVER_ERROR_UNSUPPORTED;
	}
	d->hybrid = true;
	return ref_request_scratch(
		ctx, (size_t)(d->seq.size > d->units ? d->seq.size : d->units),
		sizeof(int8_t), "a quantized input row or hidden state",
		&d->quantized);
}

static opver_status rnn_prepare(const opver_context *ctx, opver_node *node)
{
	rnn_data *d = node->op_data;
	opver_sequence_rnn_params params = OPVER_SEQUENCE_RNN_PARAMS_DEFAULTS;
	opver_status status = ref_check_arity(
		ctx, node, 5, 5, 1,
		"UNIDIRECTIONAL_SEQUENCE_RNN takes input, weights, recurrent_weights, bias, hidden_state and one output");

	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	status = ref_sequence_shape(ctx, "input", node->inputs[RNN_INPUT],
				    params.time_major != 0, &d->seq);
	if (status == OPVER_OK)
		status = rnn_shapes(ctx, node, d);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "hidden_state",
					 node->inputs[RNN_HIDDEN],
					 OPVER_TYPE_FLOAT32);
	if (status == OPVER_OK)
		status = ref_sequence_expect_activation(ctx,
							params.activation);
	d->activation = params.activation;
	d->asymmetric = params.asymmetric_quantize_inputs != 0;
	if (status == OPVER_OK &&
	    node->inputs[RNN_WEIGHTS]->type == OPVER_TYPE_INT8)
		status = rnn_prepare_hybrid(ctx, node, d);
	return status;
}

/* out[r] += weights[r] . x for float weights, or for int8 weights (of
 * `scale`) with x quantized into `quantized`. */
static void rnn_accumulate(const rnn_data *d, const opver_tensor *weights,
			   float scale, int32_t cols, const float *x,
			   int8_t *quantized, float *out)
{
	ref_sequence_quantized q = { .quantized = quantized };

	if (!d->hybrid) {
		ref_sequence_multiply_accumulate(weights->data, d->units, cols,
						 x, out);
		return;
	}
	ref_sequence_quantize(x, (size_t)cols, d->asymmetric, &q);
	ref_sequence_hybrid_accumulate(weights->data, scale, d->units, cols,
				       &q, out);
}

static opver_status rnn_invoke(const opver_context *ctx, opver_node *node)
{
	const rnn_data *d = node->op_data;
	const ref_sequence *seq = &d->seq;
	const float *input = node->inputs[RNN_INPUT]->data;
	const float *bias = node->inputs[RNN_BIAS]->data;
	float *hidden_state = node->inputs[RNN_HIDDEN]->data;
	float *output = node->outputs[0]->data;
	const size_t units = (size_t)d->units;
	int8_t *quantized = d->hybrid ? ref_scratch(ctx, d->quantized) : NULL;

	if (d->hybrid && quantized == NULL)
		return OPVER_ERROR;
	for (int32_t b = 0; b < seq->batch; b++) {
		float *hidden = hidden_state + (size_t)b * units;

		for (int32_t t = 0; t < seq->time; t++) {
			const size_t row = ref_sequence_row(seq, t, b);
			float *out = output + row * units;

			memcpy(out, bias, units * sizeof(float));
			rnn_accumulate(d, node->inputs[RNN_WEIGHTS],
				       d->weights_scale, seq->size,
				       input + row * (size_t)seq->size,
				       quantized, out);
			rnn_accumulate(d, node->inputs[RNN_RECURRENT],
				       d->recurrent_scale, d->units, hidden,
				       quantized, out);
			ref_sequence_activate(d->activation, out, units);
			memcpy(hidden, out, units * sizeof(float));
		}
	}
	return OPVER_OK;
}

const opver_kernel ref_sequence_rnn = {
	OPVER_KERNEL("sequence_rnn", UNIDIRECTIONAL_SEQUENCE_RNN, 1, 1),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(FLOAT32),
			     OPVER_T(FLOAT32), OPVER_T(FLOAT32)),
		OPVER_OUTPUT(OPVER_T(FLOAT32)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(rnn_data),
	.prepare = rnn_prepare, .invoke = rnn_invoke,
};

const opver_kernel ref_sequence_rnn_hybrid = {
	OPVER_KERNEL("sequence_rnn_hybrid", UNIDIRECTIONAL_SEQUENCE_RNN, 2, 3),
	REF_SIGNATURES(OPVER_SIGNATURE(
		OPVER_INPUTS(OPVER_T(FLOAT32), OPVER_T(INT8), OPVER_T(INT8),
			     OPVER_T(FLOAT32)),
		OPVER_OUTPUT(OPVER_T(FLOAT32)))),
	REF_KERNEL_TRAITS,
	.op_data_size = sizeof(rnn_data),
	.prepare = rnn_prepare, .invoke = rnn_invoke,
};
