/*
 * movement.h - the index arithmetic the data-movement kernels share (PAD,
 * MIRROR_PAD, SLICE, STRIDED_SLICE, TRANSPOSE, CONCATENATION, SPLIT, PACK,
 * ...).  These ops never look at an element's value, only at its size, so
 * each is written once for every element type of a given size:
 *
 *   ref_move_axis()       an axis option or tensor value checked against a
 *                         rank and made non-negative
 *   ref_move_indices()    the values of a small int32 or int64 tensor of
 *                         positions, sizes or paddings
 *   ref_gather_plan       a plan that fills each output element from an
 *                         input element picked along each output dimension
 *                         by an affine index (start + i * step) over
 *                         permuted input strides, an index that falls
 *                         outside the input giving the pad value or a
 *                         mirrored element; planned in prepare, run in
 *                         invoke
 *   ref_move_outer()      the rows and row sizes that join or split a
 *                         tensor along one axis (CONCATENATION, SPLIT,
 *                         PACK, UNPACK)
 */
#ifndef OPVER_REFERENCE_MOVEMENT_H
#define OPVER_REFERENCE_MOVEMENT_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/* The most dimensions a data-movement kernel handles, counting those
 * STRIDED_SLICE adds. */
#define REF_MOVE_MAX_DIMS 8

/* The element types of TFLite's byte-moving kernels (each op's manifest
 * narrows or widens this to TFLite's list for it). */
#define REF_MOVE_TYPES                                                    \
	(OPVER_T(FLOAT32) | OPVER_T(INT32) | OPVER_T(UINT8) | OPVER_T(INT64) | \
	 OPVER_T(BOOL) | OPVER_T(INT16) | OPVER_T(INT8))

/*
 * *out = axis, or axis + rank when negative, reporting and failing when
 * that is outside [0, rank).  `what` names the axis ("option axis").
 */
opver_status ref_move_axis(const opver_context *ctx, const char *what,
			   int64_t axis, int32_t rank, int32_t *out);

/*
 * Reads the `count` values of `tensor` (role `role`: "paddings"), an INT32
 * or INT64 tensor of exactly count elements, into values.  The caller
 * checked the type; the data must be there (constant, or invoke).
 */
void ref_move_indices(const opver_tensor *tensor, int32_t count,
		      int64_t *values);

/* `tensor` (role `role`: "output 1") has the type of `input`. */
opver_status ref_move_same_type(const opver_context *ctx, const char *role,
				const opver_tensor *tensor,
				const opver_tensor *input);

/* `tensor` (role `role`) is INT32 or INT64 with `count` elements. */
opver_status ref_move_index_tensor(const opver_context *ctx, const char *role,
				   const opver_tensor *tensor, size_t count);

/* Whether every tensor of `tensors` that is not NULL is constant, so that
 * prepare can read their values. */
bool ref_move_all_constant(int32_t count, opver_tensor *const *tensors);

/* What an output index whose input index falls outside the input takes. */
enum {
	REF_GATHER_PAD = 0,       /* the plan's pad value */
	REF_GATHER_REFLECT = 1,   /* mirrored, the edge not repeated */
	REF_GATHER_SYMMETRIC = 2  /* mirrored, the edge repeated */
};

/* One output dimension of a gather: output index i reads input index
 * start + i * step along an input dimension of `size` elements that lie
 * `stride` elements apart. */
typedef struct ref_gather_dim {
	int32_t count;
	int32_t start;
	int32_t step;
	int32_t size;
	int64_t stride;
} ref_gather_dim;

typedef struct ref_gather_plan {
	int32_t rank;                 /* output dimensions; 0: one element */
	int32_t outside;              /* a REF_GATHER_ value */
	size_t element;               /* bytes per element, 1 to 8 */
	unsigned char pad[8];         /* the pad value's bytes */
	ref_gather_dim dims[REF_MOVE_MAX_DIMS];
} ref_gather_plan;

/*
 * A plan that copies `input` (element bytes per element) unchanged:
 * output dimension d reads input dimension d from index 0 with step 1 and
 * counts input->dims[d].  Kernels then change what differs.  Fails when the
 * input has more than REF_MOVE_MAX_DIMS dimensions.
 */
opver_status ref_gather_identity(const opver_context *ctx,
				 const opver_tensor *input, ref_gather_plan *plan);

/* Gives the node's output 0 the shape the plan's counts give
 * (ref_move_shape_output()), naming `op` in the message ("this PAD
 * gives ..."). */
opver_status ref_gather_check_output(const opver_context *ctx,
				     const ref_gather_plan *plan,
				     const opver_node *node, const char *op,
				     bool at_invoke);

/* Fills output from input as the plan says.  For invoke. */
void ref_gather_run(const ref_gather_plan *plan, const void *input, void *output);

/*
 * For joining or splitting `t` along `axis`: the rows before it (the
 * product of the dimensions before axis) and the elements of one row from
 * axis on (the product of the dimensions from axis to the end).
 */
void ref_move_outer(const opver_tensor *t, int32_t axis, size_t *rows,
		    size_t *row_elements);

/*
 * Copies `count` parts into `whole`, or `whole` into them: row r of the
 * whole is row r of part 0, then of part 1, and so on, row of part k
 * being part_bytes[k] bytes.  The parts are the data of tensors[k].
 */
void ref_move_join(size_t rows, int32_t count, const size_t *part_bytes,
		   opver_tensor *const *parts, void *whole);
void ref_move_split(size_t rows, int32_t count, const size_t *part_bytes,
		    const void *whole, opver_tensor *const *parts);

/* `tensor` (role `role`) has shape `dims` (rank entries); `source` says
 * what gives that shape ("this SPLIT gives"). */
opver_status ref_move_expect_shape(const opver_context *ctx, const char *role,
				   const opver_tensor *tensor, int32_t rank,
				   const int32_t *dims, const char *source);

/* Gives output `output` of the node the shape `dims` (rank entries)
 * through the host's resize_output (ref_shape_output()), so it follows
 * resized inputs; `at_invoke` (a shape that depends on a run-time
 * tensor), through ref_shape_output_at_invoke(), which gives an output
 * the kernel deferred (ref_defer_output()) its shape and buffer; without
 * the services, checks it with ref_move_expect_shape() and the role
 * "output" (or "output K" for a node of several outputs). */
opver_status ref_move_shape_output(const opver_context *ctx,
				   const opver_node *node, int32_t output,
				   int32_t rank, const int32_t *dims,
				   const char *source, bool at_invoke);

/* Both tensors have the same per-tensor quantization, or neither is
 * quantized. */
bool ref_move_same_quantization(const opver_tensor *a, const opver_tensor *b);

/* The size in bytes of one element of `type` (0 for types without a
 * fixed size). */
size_t ref_move_element_size(int32_t type);

#endif /* OPVER_REFERENCE_MOVEMENT_H */
