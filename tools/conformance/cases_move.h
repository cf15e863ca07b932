/*
 * cases_move.h - what the data-movement case generators share
 * (cases_movement.c, cases_slice.c): TFLite's element types of the
 * byte-moving kernels, one scale and zero point for a case's quantized
 * tensors, and the tensors, graph inputs and constant index tensors they
 * add to a case.
 */
#ifndef OPVER_CONFORMANCE_CASES_MOVE_H
#define OPVER_CONFORMANCE_CASES_MOVE_H

#include "cases.h"

/* TFLite's element types of the byte-moving kernels, in variant order. */
enum { CF_NUM_MOVE_TYPES = 7 };
extern const opver_type cf_move_types[CF_NUM_MOVE_TYPES];

/* cf_move_types, then UINT32 (CONCATENATION, SLICE, STRIDED_SLICE). */
#define CF_NUM_WIDE_TYPES (CF_NUM_MOVE_TYPES + 1)
opver_type cf_move_wide_type(int32_t index);

/* INT8, UINT8 and INT16. */
bool cf_move_quantized_type(opver_type type);

/* One scale and zero point for the case's quantized tensors. */
typedef struct cf_move_quant {
	float scale;
	int64_t zero_point;
} cf_move_quant;

/* A scale in [0.01, 1) and a zero point of the type's usual range. */
cf_move_quant cf_move_draw_quant(cf_rng *rng, opver_type type);

/* A tensor of `type`, quantized with q when the type is; *ok false when
 * out of memory. */
int32_t cf_move_tensor(cf_case *c, opver_type type, int32_t rank,
		       const int32_t *dims, const cf_move_quant *q, bool *ok);

/* The graph input of `type` and shape, with random data. */
int32_t cf_move_input(cf_case *c, cf_rng *rng, opver_type type, int32_t rank,
		      const int32_t *dims, const cf_move_quant *q, bool *ok);

/* A constant INT32 (or INT64 when wide) tensor of shape dims holding
 * `values`, added as the node's next input. */
int32_t cf_move_indices(cf_case *c, int32_t rank, const int32_t *dims,
			const int32_t *values, bool wide, bool *ok);

/* A shape of `rank` dimensions of 1-4. */
void cf_move_draw_shape(cf_rng *rng, int32_t rank, int32_t *dims);

#endif /* OPVER_CONFORMANCE_CASES_MOVE_H */
