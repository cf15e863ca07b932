/*
 * node_checks.h - the checks every reference kernel's prepare makes of its
 * node before computing anything: how many tensors it has, which are
 * present, their types and ranks, and the spatial geometry of windowed ops
 * (convolutions and pooling), with where an output position's window falls
 * on the input, for their invokes.  Each check reports one line through the
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
opver_status ref_check_arity(const opver_context *ctx, const opver_node *node,
			     int32_t min_inputs, int32_t max_inputs,
			     int32_t num_outputs, const char *usage);

/* The tensor has the given type. */
opver_status ref_expect_type(const opver_context *ctx, const char *role,
			     const opver_tensor *tensor, int32_t type);

/* The tensor has one of the types of `mask`, a mask of a type signature
 * (OPVER_TYPE_BIT; 0 accepts every type). */
opver_status ref_expect_type_in(const opver_context *ctx, const char *role,
				const opver_tensor *tensor, uint32_t mask);

/* The tensor has the given rank. */
opver_status ref_expect_rank(const opver_context *ctx, const char *role,
			     const opver_tensor *tensor, int32_t rank);

/* Both tensors have the same shape (rank and every dimension). */
bool ref_same_shape(const opver_tensor *a, const opver_tensor *b);

/*
 * Gives output `output` of the node the shape dims[0, rank) that its
 * inputs and options imply: through the host's resize_output (ABI 2.2),
 * so shapes follow resized inputs, else by checking the model states it.
 * The mismatch message says what gives that shape (`source`: "this
 * convolution gives").
 */
opver_status ref_shape_output(const opver_context *ctx,
			      const opver_node *node, int32_t output,
			      const int32_t *dims, int32_t rank,
			      const char *source);

/*
 * In prepare, for output `output` whose shape follows from input values
 * known only at invoke: marks it dynamic (set_output_dynamic, ABI 2.4),
 * so that invoke gives it its shape with ref_shape_output_at_invoke().
 * Without the service, or where the host keeps the model's shape (an
 * output a delegate reads), invoke checks the output has the shape the
 * values give.  *deferred (unless NULL) says whether it was marked.
 */
opver_status ref_defer_output(const opver_context *ctx, int32_t output,
			      bool *deferred);

/*
 * In invoke: gives output `output` the shape dims[0, rank) that input
 * values give, through resize_output (ABI 2.4: a dynamic output gets its
 * buffer here, before the kernel writes it; any other accepts only the
 * shape it has), else checks it as ref_expect_shape() does.
 */
opver_status ref_shape_output_at_invoke(const opver_context *ctx,
					const opver_node *node,
					int32_t output, const int32_t *dims,
					int32_t rank, const char *source);

/* The check ref_shape_output() makes without the service: `tensor` (an
 * output) has shape dims[0, rank); for invoke-time checks. */
opver_status ref_expect_shape(const opver_context *ctx,
			      const opver_tensor *tensor, const int32_t *dims,
			      int32_t rank, const char *source);

/* The most dimensions an output shape built with ref_dims has. */
#define REF_DIMS_MAX 16

/* An output shape put together from input dimensions, for
 * ref_shape_dims(); too_long once more than REF_DIMS_MAX were added. */
typedef struct ref_dims {
	int32_t rank;
	bool too_long;
	int32_t dims[REF_DIMS_MAX];
} ref_dims;

/* Appends dimension `size`. */
void ref_dims_push(ref_dims *shape, int32_t size);

/* Appends dimensions [begin, end) of `tensor` (none when end <= begin). */
void ref_dims_append(ref_dims *shape, const opver_tensor *tensor,
		     int32_t begin, int32_t end);

/* ref_shape_output() with `shape`; an over-long shape is reported (the
 * op is named by `source`) and refused as unsupported. */
opver_status ref_shape_dims(const opver_context *ctx, const opver_node *node,
			    int32_t output, const ref_dims *shape,
			    const char *source);

/* ref_shape_dims() in invoke: ref_shape_output_at_invoke(). */
opver_status ref_shape_dims_at_invoke(const opver_context *ctx,
				      const opver_node *node, int32_t output,
				      const ref_dims *shape,
				      const char *source);

/* ref_shape_output() with the shape of tensor `like` (an elementwise
 * op's input). */
opver_status ref_shape_like(const opver_context *ctx, const opver_node *node,
			    int32_t output, const opver_tensor *like);

/*
 * The node of an elementwise unary op: one input of type `in` and one
 * output of type `out`, both present; the output gets the input's shape
 * (ref_shape_like()).  `usage` as
 * for ref_check_arity().
 */
opver_status ref_check_unary(const opver_context *ctx, const opver_node *node,
			     int32_t in, int32_t out, const char *usage);

/* The input of an op along the last axis as [rows, depth]. */
typedef struct ref_rows {
	size_t rows;
	size_t depth; /* the last dimension */
} ref_rows;

/*
 * ref_check_unary() with types `in` and `out`, for an op along the last
 * axis (SOFTMAX, LOG_SOFTMAX), whose input needs rank 1 or more; fills
 * *rows.  `op` names the op in messages.
 */
opver_status ref_check_rows(const opver_context *ctx, const opver_node *node,
			    int32_t in, int32_t out, const char *op,
			    ref_rows *rows);

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
 * Fills out and pad of the height and width windows from their other
 * fields and the padding scheme: SAME gives ceil(in / stride) outputs,
 * VALID ceil((in - effective filter + 1) / stride), with effective filter
 * (filter - 1) * dilation + 1.  Reports and fails when a size, stride or
 * dilation is not positive, the dilated filter spans more than INT32_MAX
 * elements, the padding is unknown or VALID leaves no output; messages
 * name the dimension ("height: ...").
 */
opver_status ref_windows_compute(const opver_context *ctx, int32_t padding,
				 ref_window *height, ref_window *width);

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

/*
 * One output position of a 2-D windowed op: its batch, where the window's
 * tap (0, 0) lands on the input (possibly in the padding), and the taps
 * that land inside the input, rows [y_begin, y_end) and columns
 * [x_begin, x_end) of the filter.
 */
typedef struct ref_window_position {
	int32_t batch;
	int64_t in_y, in_x;
	int32_t y_begin, y_end;
	int32_t x_begin, x_end;
} ref_window_position;

/* Output positions of `batches` batches of rows.out x cols.out. */
static inline size_t ref_window_positions(int32_t batches,
					  const ref_window *rows,
					  const ref_window *cols)
{
	return (size_t)batches * (size_t)rows->out * (size_t)cols->out;
}

/* Output position `position`, counted in NHW order. */
static inline ref_window_position ref_window_at(const ref_window *rows,
						const ref_window *cols,
						size_t position)
{
	const size_t per_batch = (size_t)rows->out * (size_t)cols->out;
	const size_t within = position % per_batch;
	ref_window_position p;

	p.batch = (int32_t)(position / per_batch);
	p.in_y = (int64_t)(within / (size_t)cols->out) * rows->stride -
		 rows->pad;
	p.in_x = (int64_t)(within % (size_t)cols->out) * cols->stride -
		 cols->pad;
	ref_window_taps(rows, p.in_y, &p.y_begin, &p.y_end);
	ref_window_taps(cols, p.in_x, &p.x_begin, &p.x_end);
	return p;
}

/* Index of the input element [batch, y, x, 0] under tap (y_tap, x_tap) of
 * position `p`, in an input of rows.in x cols.in x `depth`. */
static inline size_t ref_window_input_index(const ref_window *rows,
					    const ref_window *cols,
					    size_t depth,
					    const ref_window_position *p,
					    int32_t y_tap, int32_t x_tap)
{
	const size_t y = (size_t)(p->in_y + (int64_t)y_tap * rows->dilation);
	const size_t x = (size_t)(p->in_x + (int64_t)x_tap * cols->dilation);

	return (((size_t)p->batch * (size_t)rows->in + y) * (size_t)cols->in +
		x) *
	       depth;
}

#endif /* OPVER_REFERENCE_NODE_CHECKS_H */
