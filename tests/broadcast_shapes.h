/*
 * broadcast_shapes.h - a naive model of TFLite's broadcasting for the ADD
 * and MUL suites: the shapes they run over, the output shape two shapes
 * broadcast to, and which input element each output element reads.  Kept
 * deliberately simple (one output element at a time, by division) so that
 * it can check the kernels' planned walk.
 */
#ifndef OPVER_TESTS_BROADCAST_SHAPES_H
#define OPVER_TESTS_BROADCAST_SHAPES_H

#include <stddef.h>
#include <stdint.h>

#define BS_MAX_RANK 6
/* Enough elements for every case in bs_cases. */
#define BS_MAX_ELEMENTS 256

typedef struct bs_shape {
	int32_t rank;
	int32_t dims[BS_MAX_RANK];
} bs_shape;

/* Two input shapes that broadcast together. */
typedef struct bs_case {
	bs_shape a;
	bs_shape b;
} bs_case;

/* Scalars, rows, columns, 4-D, 5-D and 6-D shapes, same shapes and an empty
 * output. */
extern const bs_case bs_cases[];
extern const size_t bs_num_cases;

size_t bs_elements(const bs_shape *s);

/* The shape a and b broadcast to (they must be broadcastable). */
bs_shape bs_broadcast(const bs_shape *a, const bs_shape *b);

/* The flat index into `in`, right-aligned against `out`, of the element
 * that output element `flat` reads. */
size_t bs_source(const bs_shape *in, const bs_shape *out, size_t flat);

#endif /* OPVER_TESTS_BROADCAST_SHAPES_H */
