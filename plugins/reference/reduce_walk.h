/*
 * reduce_walk.h - what the reductions (reduce.c) share with their
 * quantized side (reduce_quantized.c): the plan of a reduction's input as
 * runs of reduced and kept dimensions, the walk over it, the node data
 * prepare fills, and access to integer elements.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_REDUCE_WALK_H
#define OPVER_REFERENCE_REDUCE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

#include "kernels.h"

enum { REDUCE_INPUT = 0, REDUCE_AXIS = 1 };

/* The most dimensions an input may have. */
#define REDUCE_MAX_DIMS 8

/*
 * The input as runs of dimensions that are all reduced or all kept (dims
 * of size 1 dropped), with the output offset each run's index moves.
 */
typedef struct reduce_plan {
	int32_t rank;
	int32_t dims[REDUCE_MAX_DIMS];
	uint8_t reduced[REDUCE_MAX_DIMS];
	size_t out_stride[REDUCE_MAX_DIMS]; /* 0 for a reduced run */
	size_t inputs;                      /* input elements */
	size_t outputs;                     /* output elements */
	size_t count;                       /* inputs per output */
} reduce_plan;

/* Where the walk is: the input element, its output element, the index in
 * each run, and how many reduced runs have a nonzero index (0 at the
 * first input of each output). */
typedef struct reduce_walk {
	size_t in;
	size_t out;
	int32_t index[REDUCE_MAX_DIMS];
	int32_t reduced_nonzero;
} reduce_walk;

/* Moves to the next input element; false after the last. */
static REF_ALWAYS_INLINE bool reduce_step(const reduce_plan *p,
					  reduce_walk *w)
{
	w->in++;
	for (int32_t d = p->rank - 1; d >= 0; d--) {
		if (++w->index[d] < p->dims[d]) {
			w->out += p->out_stride[d];
			w->reduced_nonzero += p->reduced[d] && w->index[d] == 1;
			return true;
		}
		w->out -= (size_t)(p->dims[d] - 1) * p->out_stride[d];
		w->reduced_nonzero -= p->reduced[d];
		w->index[d] = 0;
	}
	return false;
}

/* Visits every input element: `body` runs with `w` at it. */
#define REDUCE_WALK(plan, w, body)                               \
	do {                                                     \
		reduce_walk w = { 0 };                           \
		if ((plan)->inputs > 0)                          \
			do {                                     \
				body;                            \
			} while (reduce_step((plan), &w));       \
	} while (0)

/* How invoke computes, chosen in prepare. */
typedef enum reduce_method {
	REDUCE_FOLD,           /* MAX, MIN, SUM, PROD in the element type */
	REDUCE_MEAN_FLOAT,
	REDUCE_MEAN_INTEGER,   /* truncated integer mean */
	REDUCE_MEAN_RESCALED,  /* quantized mean, float rescale */
	REDUCE_MEAN_SPATIAL,   /* int8 4-D mean over axes 1 and 2 */
	REDUCE_MEAN_SPATIAL_LEGACY, /* uint8 (int8 in reference-tflite) */
	REDUCE_SUM_RESCALED,   /* 8-bit sum to another quantization */
	REDUCE_PROD_QUANTIZED,
} reduce_method;

typedef struct reduce_data {
	reduce_plan plan;
	/* 1 when the axis tensor is computed by the graph: invoke plans. */
	int32_t runtime_axis;
	int32_t op;
	int32_t type;
	int32_t method; /* a reduce_method */
	int32_t input_zero_point;
	int32_t output_zero_point;
	float scale;    /* input scale / output scale, in float */
	int32_t bias;   /* REDUCE_MEAN_SPATIAL_LEGACY */
	int32_t multiplier;
	int shift;
	int32_t qmin, qmax;
	int32_t accumulators; /* scratch index, outputs x int64 */
} reduce_data;

/* An element of an integer tensor, widened; and back, wrapping. */
static REF_ALWAYS_INLINE int64_t reduce_load(int32_t type, const void *data,
					     size_t i)
{
	switch (type) {
	case OPVER_TYPE_UINT8:
		return ((const uint8_t *)data)[i];
	case OPVER_TYPE_INT8:
		return ((const int8_t *)data)[i];
	case OPVER_TYPE_INT16:
		return ((const int16_t *)data)[i];
	case OPVER_TYPE_INT32:
		return ((const int32_t *)data)[i];
	default:
		return ((const int64_t *)data)[i];
	}
}

static REF_ALWAYS_INLINE void reduce_store(int32_t type, void *data, size_t i,
					   int64_t value)
{
	switch (type) {
	case OPVER_TYPE_UINT8:
		((uint8_t *)data)[i] = (uint8_t)value;
		break;
	case OPVER_TYPE_INT8:
		((int8_t *)data)[i] = (int8_t)(uint8_t)value;
		break;
	case OPVER_TYPE_INT16:
		((int16_t *)data)[i] = (int16_t)(uint16_t)value;
		break;
	case OPVER_TYPE_INT32:
		((int32_t *)data)[i] = (int32_t)(uint32_t)value;
		break;
	default:
		((int64_t *)data)[i] = value;
		break;
	}
}

/* Picks the method of a quantized input, or of an integer input that
 * TFLite does not rescale, and its constants; `spatial` for TFLite's 4-D
 * MEAN path.  Reports and fails on quantization TFLite refuses. */
opver_status ref_reduce_prepare_integer(const opver_context *ctx,
					const opver_node *node,
					bool spatial, reduce_data *data);

/* The quantized means and sums, from the sums in acc (outputs x int64,
 * borrowed), into out. */
void ref_reduce_finish(const reduce_data *data, int64_t *acc, void *out);

/* Quantized int8 and int16 REDUCE_PROD of `in` into out, with acc
 * (outputs x int64, borrowed) as scratch. */
void ref_reduce_prod_quantized(const reduce_data *data, const void *in,
			       int64_t *acc, void *out);

#endif /* OPVER_REFERENCE_REDUCE_WALK_H */
