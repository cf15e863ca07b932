/*
 * sequence.c - the recurrent kernels' shared layout checks, activations
 * and matrix product (sequence.h).
 */
#include <math.h>

#include "dot.h"
#include "hybrid.h"
#include "node_checks.h"
#include "sequence.h"

opver_status ref_sequence_shape(const opver_context *ctx, const char *role,
				const opver_tensor *tensor, bool time_major,
				ref_sequence *seq)
{
	opver_status status = ref_expect_rank(ctx, role, tensor, 3);

	if (status != OPVER_OK)
		return status;
	seq->time_major = time_major;
	seq->time = tensor->dims[time_major ? 0 : 1];
	seq->batch = tensor->dims[time_major ? 1 : 0];
	seq->size = tensor->dims[2];
	return OPVER_OK;
}

opver_status ref_sequence_shape_output(const opver_context *ctx,
				       const opver_node *node,
				       const ref_sequence *seq, int32_t size)
{
	const int32_t first = seq->time_major ? seq->time : seq->batch;
	const int32_t second = seq->time_major ? seq->batch : seq->time;

	return ref_shape_output(ctx, node, 0,
				(const int32_t[]){ first, second, size }, 3,
				seq->time_major ?
				"the input's [time, batch] and the units give" :
				"the input's [batch, time] and the units give");
}

opver_status ref_sequence_expect_activation(const opver_context *ctx,
					    int32_t activation)
{
	if (activation >= OPVER_ACTIVATION_NONE &&
	    activation <= OPVER_ACTIVATION_TANH)
		return OPVER_OK;
	OPVER_REPORT(ctx, "fused activation %d is not supported: only NONE, RELU, RELU_N1_TO_1, RELU6 and TANH are",
		     (int)activation);
	return OPVER_ERROR_UNSUPPORTED;
}

static float clampf(float x, float lo, float hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

void ref_sequence_activate(int32_t activation, float *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (activation) {
		case OPVER_ACTIVATION_RELU:
			v[i] = v[i] < 0.0f ? 0.0f : v[i];
			break;
		case OPVER_ACTIVATION_RELU_N1_TO_1:
			v[i] = clampf(v[i], -1.0f, 1.0f);
			break;
		case OPVER_ACTIVATION_RELU6:
			v[i] = clampf(v[i], 0.0f, 6.0f);
			break;
		case OPVER_ACTIVATION_TANH:
			v[i] = tanhf(v[i]);
			break;
		case OPVER_ACTIVATION_SIGN_BIT:
			v[i] = signbit(v[i]) ? 1.0f : 0.0f;
			break;
		default:
			break;
		}
	}
}

void ref_sequence_sigmoid(float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = 1.0f / (1.0f + expf(-v[i]));
}

void ref_sequence_multiply_accumulate(const float *weights, int32_t rows,
				      int32_t cols, const float *x,
				      float *out)
{
	for (int32_t r = 0; r < rows; r++)
		out[r] += ref_dot_float(0.0f,
					weights + (size_t)r * (size_t)cols, x,
					(size_t)cols);
}

void ref_sequence_quantize(const float *x, size_t n, bool asymmetric,
			   ref_sequence_quantized *q)
{
	q->zero = true;
	for (size_t i = 0; i < n && q->zero; i++)
		q->zero = x[i] == 0.0f;
	if (!q->zero)
		ref_hybrid_quantize(x, n, asymmetric, q->quantized, &q->scale,
				    &q->zero_point);
}

void ref_sequence_hybrid_accumulate(const int8_t *weights,
				    float weights_scale, int32_t rows,
				    int32_t cols,
				    const ref_sequence_quantized *q,
				    float *out)
{
	/* As TFLite: the vector's scale times the weights', in float. */
	const float scale = q->scale * weights_scale;

	if (q->zero)
		return;
	for (int32_t r = 0; r < rows; r++)
		out[r] += (float)ref_hybrid_row_dot(
				  weights + (size_t)r * (size_t)cols,
				  q->quantized, (size_t)cols, q->zero_point) *
			  scale;
}
