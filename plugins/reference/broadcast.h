/*
 * broadcast.h - TensorFlow Lite's broadcasting of elementwise binary ops
 * (ADD, MUL): two inputs of up to six dimensions, right-aligned, each
 * dimension equal to the output's or 1, combined into an output of exactly
 * the broadcast shape.
 *
 * Prepare turns the three shapes into a ref_broadcast plan: dimensions of
 * size 1 are dropped, neighbours that broadcast the same way are merged, and
 * the innermost merged dimension becomes a "run" that invoke walks with a
 * plain contiguous loop.  In a run both inputs advance with the output, or
 * one of them repeats a single element.  The dimensions around the runs are
 * stepped through with per-input strides (0 where an input broadcasts).
 * Inputs of the same shape give one run over every element.
 *
 * REF_BROADCAST_DEFINE() writes, for a kernel, the function that applies its
 * element operation over a plan; the operation is a static inline function
 * called directly, so each run's loop inlines it and can be vectorized.
 * All of it is internal to the plugin.
 */
#ifndef OPVER_REFERENCE_BROADCAST_H
#define OPVER_REFERENCE_BROADCAST_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/* The most dimensions TFLite broadcasts. */
#define REF_BROADCAST_MAX_RANK 6

/* How the inputs move along one run of output elements. */
typedef enum ref_run_kind {
	REF_RUN_ELEMENTWISE,   /* both inputs advance with the output */
	REF_RUN_INPUT1_REPEATS, /* input 1 holds one element for the run */
	REF_RUN_INPUT2_REPEATS  /* input 2 holds one element for the run */
} ref_run_kind;

/* How to walk the output of a broadcast, as prepare computed it. */
typedef struct ref_broadcast {
	size_t runs;       /* number of runs; 0 when the output is empty */
	size_t run_length; /* output elements per run */
	ref_run_kind kind;
	/* The merged dimensions around the runs, outermost first. */
	int32_t outer_rank;
	size_t outer_size[REF_BROADCAST_MAX_RANK];
	/* Elements each input moves by per step of an outer dimension. */
	size_t stride1[REF_BROADCAST_MAX_RANK];
	size_t stride2[REF_BROADCAST_MAX_RANK];
} ref_broadcast;

/* Where a walk over a plan is: the outer index and each input's offset. */
typedef struct ref_broadcast_cursor {
	size_t index[REF_BROADCAST_MAX_RANK];
	size_t offset1;
	size_t offset2;
} ref_broadcast_cursor;

/*
 * Checks that `in1` and `in2` broadcast to exactly the shape of `out` (at
 * most REF_BROADCAST_MAX_RANK dimensions, none negative) and fills `plan`.
 * Reports and fails otherwise.
 */
opver_status ref_broadcast_plan(const opver_context *ctx,
				const opver_tensor *in1,
				const opver_tensor *in2,
				const opver_tensor *out, ref_broadcast *plan);

/*
 * Through the host's resize_output, gives output 0 of the kernel's node the shape
 * inputs[0, count) broadcast to (right-aligned, each dimension equal or
 * 1), so it follows resized inputs.  Inputs that do not broadcast, more
 * than REF_BROADCAST_MAX_RANK dimensions and hosts without the service
 * leave the output alone, for the op's own shape checks to report.
 */
opver_status ref_broadcast_shape_output(const opver_context *ctx,
					const opver_tensor *const *inputs,
					int32_t count);

/*
 * The checks every elementwise binary op makes: two inputs and one output,
 * all present and of `type`, broadcasting as above; the output is given
 * the inputs' broadcast shape through the host's resize_output when the
 * host has it.  `op` names the op in messages ("ADD").
 */
opver_status ref_binary_prepare(const opver_context *ctx,
				const opver_node *node, opver_type type,
				const char *op, ref_broadcast *plan);

/* Moves the cursor to the next run: an odometer over the outer dimensions. */
static inline void ref_broadcast_next(const ref_broadcast *plan,
				      ref_broadcast_cursor *cursor)
{
	for (int32_t d = plan->outer_rank - 1; d >= 0; d--) {
		cursor->offset1 += plan->stride1[d];
		cursor->offset2 += plan->stride2[d];
		if (++cursor->index[d] < plan->outer_size[d])
			return;
		cursor->offset1 -= plan->stride1[d] * plan->outer_size[d];
		cursor->offset2 -= plan->stride2[d] * plan->outer_size[d];
		cursor->index[d] = 0;
	}
}

/*
 * Defines
 *   static void name(const ref_broadcast *plan, const type *in1,
 *                    const type *in2, type *out, const data_type *data)
 * which sets each output element to element(a, b, data), with a and b the
 * input elements the plan pairs with it.  `element` must be a function
 * (normally static inline) taking (type, type, const data_type *) and
 * returning type.
 */
#define REF_BROADCAST_DEFINE(name, type, data_type, element) \
	REF_BROADCAST_DEFINE_TO(name, type, type, data_type, element)

/* REF_BROADCAST_DEFINE() for an op whose output elements are of another
 * type, `out_type` (the comparisons' BOOL, as uint8_t). */
#define REF_BROADCAST_DEFINE_TO(name, type, out_type, data_type, element)   \
	static void name(const ref_broadcast *plan, const type *in1,        \
			 const type *in2, out_type *out,                    \
			 const data_type *data)                             \
	{                                                                   \
		const size_t n = plan->run_length;                          \
		ref_broadcast_cursor cursor = { { 0 }, 0, 0 };              \
                                                                            \
		for (size_t run = 0; run < plan->runs; run++, out += n) {   \
			const type *a = in1 + cursor.offset1;               \
			const type *b = in2 + cursor.offset2;               \
                                                                            \
			switch (plan->kind) {                               \
			case REF_RUN_ELEMENTWISE:                           \
				for (size_t i = 0; i < n; i++)              \
					out[i] = element(a[i], b[i], data); \
				break;                                      \
			case REF_RUN_INPUT1_REPEATS:                        \
				for (size_t i = 0; i < n; i++)              \
					out[i] = element(*a, b[i], data);   \
				break;                                      \
			case REF_RUN_INPUT2_REPEATS:                        \
				for (size_t i = 0; i < n; i++)              \
					out[i] = element(a[i], *b, data);   \
				break;                                      \
			}                                                   \
			ref_broadcast_next(plan, &cursor);                  \
		}                                                           \
	}

#endif /* OPVER_REFERENCE_BROADCAST_H */
