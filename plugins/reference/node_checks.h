/*
 * node_checks.h - the checks every reference kernel's prepare makes of its
 * node before computing anything: how many tensors it has, which are
 * present, their types and ranks, and the spatial geometry of windowed ops
 * (convolutions and pooling).  Each check reports one line through the
 * host naming the tensor by its role ("input", "filter", ...) and returns
 * OPVER_ERROR_INVALID_MODEL for a malformed node or OPVER_ERROR_UNSUPPORTED
 * for a valid one this kernel does not compute.
 */
#ifndef OPVER_REFERENCE_NODE_CHECKS_H
#define OPVER_REFERENCE_NODE_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include <opver/plugin.h>

/*
 * The node has min_inputs..max_inputs inputs and exactly num_outputs
 * outputs, the first min_inputs inputs and every output present (inputs
 * past min_inputs are optional and may be NULL).  `usage` says what the
 * op takes, e.g. "CONV_2D takes input, filter, an optional bias and one
 * output".
 */
opver_status ref_check_arity(const opver_host *host, const opver_node *node,
			     int32_t min_inputs, int32_t max_inputs,
			     int32_t num_outputs, const char *usage);

/* The tensor has the given type. */
opver_status ref_expect_type(const opver_host *host, const char *role,
			     const opver_tensor *tensor, opver_type type);

/* The tensor has the given rank. */
opver_status ref_expect_rank(const opver_host *host, const char *role,
			     const opver_tensor *tensor, int32_t rank);

/* Both tensors have the same shape (rank and every dimension). */
bool ref_same_shape(const opver_tensor *a, const opver_tensor *b);

/*
 * The node of an elementwise unary op: one input of type `in` and one
 * output of type `out`, both present and of the same shape.  `usage` as
 * for ref_check_arity().
 */
opver_status ref_check_unary(const opver_host *host, const opver_node *node,
			     opver_type in, opver_type out, const char *usage);

/* One spatial dimension of a windowed op, as TFLite computes it. */
typedef struct ref_window {
	int32_t in;       /* input size */
	int32_t filter;   /* filter size, before dilation */
	int32_t stride;
	int32_t dilation; /* 1 for pooling */
	int32_t out;      /* output size */
	int32_t pad;      /* padding before the first element; the odd
			   * remainder of SAME padding goes after the last */
} ref_window;

/*
 * Fills w->out and w->pad from the other fields and the padding scheme:
 * SAME gives ceil(in / stride) outputs, VALID ceil((in - effective filter
 * + 1) / stride), with effective filter (filter - 1) * dilation + 1.
 * Reports and fails when a size, stride or dilation is not positive, the
 * dilated filter spans more than INT32_MAX elements, the padding is
 * unknown or VALID leaves no output.  `what` names the
 * dimension in messages ("height", "width").
 */
opver_status ref_window_compute(const opver_host *host, const char *what,
				opver_padding padding, ref_window *w);

/*
 * The filter taps [*begin, *end) of a window placed at input position
 * `origin` (that of tap 0, possibly in the padding) that land on the
 * input: the taps k in [0, w->filter) with 0 <= origin + k * w->dilation
 * < w->in.  Empty (begin == end) when none do.  For invoke-time loops, so
 * inline.
 */
static inline void ref_window_taps(const ref_window *w, int64_t origin,
				   int32_t *begin, int32_t *end)
{
	int64_t first = 0, last = 0;

	if (origin < 0)
		first = (-origin + w->dilation - 1) / w->dilation;
	if (origin < w->in)
		last = ((int64_t)w->in - origin + w->dilation - 1) /
		       w->dilation;
	if (last > w->filter)
		last = w->filter;
	if (first > last)
		first = last;
	*begin = (int32_t)first;
	*end = (int32_t)last;
}

#endif /* OPVER_REFERENCE_NODE_CHECKS_H */
