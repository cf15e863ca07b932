/*
 * sequence.h - what the recurrent sequence kernels (UNIDIRECTIONAL_SEQUENCE
 * _RNN and _LSTM) share: the [time, batch, size] or [batch, time, size]
 * layout of their input and output, TFLite's vector activations (its
 * tensor_utils::ApplyActivationToVector), and its matrix-times-batch
 * product, summed in TFLite's order so float results round alike, float
 * or hybrid (int8 weights times a vector quantized on the fly).
 *
 * Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_SEQUENCE_H
#define OPVER_REFERENCE_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/* A sequence input's dimensions. */
typedef struct ref_sequence {
	int32_t time, batch, size;
	bool time_major;
} ref_sequence;

/* Reads a rank-3 sequence tensor (`role` names it in errors): [time,
 * batch, size] when time_major, else [batch, time, size]. */
opver_status ref_sequence_shape(const opver_context *ctx, const char *role,
				const opver_tensor *tensor, bool time_major,
				ref_sequence *seq);

/* Gives output 0 of the node the input's layout with `size` last
 * (ref_shape_output()), so it follows a resized time or batch. */
opver_status ref_sequence_shape_output(const opver_context *ctx,
				       const opver_node *node,
				       const ref_sequence *seq, int32_t size);

/* The row of step `t` of batch `b` in a sequence of `seq`'s layout. */
static inline size_t ref_sequence_row(const ref_sequence *seq, int32_t t,
				      int32_t b)
{
	return seq->time_major
		? (size_t)t * (size_t)seq->batch + (size_t)b
		: (size_t)b * (size_t)seq->time + (size_t)t;
}

/* The activations the recurrent kernels apply: NONE, RELU, RELU_N1_TO_1,
 * RELU6 and TANH (SIGN_BIT is refused). */
opver_status ref_sequence_expect_activation(const opver_context *ctx,
					    int32_t activation);

/* v[i] = activation(v[i]) for an accepted activation, and SIGN_BIT (1
 * where the sign bit is set, else 0), which SVDF takes. */
void ref_sequence_activate(int32_t activation, float *v, size_t n);

/* v[i] = the logistic function of v[i], as the gates of an LSTM. */
void ref_sequence_sigmoid(float *v, size_t n);

/* out[r] += weights[r] . x for each of `rows` rows of `cols`, each dot
 * product summed from 0 before it is added. */
void ref_sequence_multiply_accumulate(const float *weights, int32_t rows,
				      int32_t cols, const float *x,
				      float *out);

/* A float vector quantized to int8 for the hybrid kernels: `quantized`
 * (the caller's scratch), its scale and zero point; `zero` when every
 * element is 0, where TFLite skips quantizing and multiplying. */
typedef struct ref_sequence_quantized {
	int8_t *quantized;
	float scale;
	int32_t zero_point;
	bool zero;
} ref_sequence_quantized;

/* Quantizes x[0..n-1] into q->quantized, symmetrically or asymmetrically
 * as TFLite's hybrid kernels (ref_hybrid_quantize()). */
void ref_sequence_quantize(const float *x, size_t n, bool asymmetric,
			   ref_sequence_quantized *q);

/* out[r] += (weights[r] . q, less q's zero point times the row's sum)
 * times q's scale times `weights_scale`, for each of `rows` rows of
 * `cols` int8 weights; nothing when q is all zeros. */
void ref_sequence_hybrid_accumulate(const int8_t *weights,
				    float weights_scale, int32_t rows,
				    int32_t cols,
				    const ref_sequence_quantized *q,
				    float *out);

#endif /* OPVER_REFERENCE_SEQUENCE_H */
