/*
 * elements.h - what the reference plugin's data-movement kernels (GATHER,
 * TILE, SPACE_TO_DEPTH, ...) share: element sizes, since an op that only
 * moves data is written once per element size rather than per type, and
 * the integer values of the index and shape tensors TFLite lets be INT16,
 * INT32 or INT64.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_ELEMENTS_H
#define OPVER_REFERENCE_ELEMENTS_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/* Bytes of one element of `type`; 0 for types without a fixed size
 * (STRING, INT4, RESOURCE, VARIANT) and for unknown values. */
static inline size_t ref_element_size(int32_t type)
{
	switch (type) {
#define REF_ELEMENT_SIZE_CASE(name, value, size) \
	case value:                              \
		return size;
		OPVER_TYPE_MAP(REF_ELEMENT_SIZE_CASE)
#undef REF_ELEMENT_SIZE_CASE
	default:
		return 0;
	}
}

/* The index types of GATHER and GATHER_ND. */
#define REF_INDEX_TYPES (OPVER_T(INT16) | OPVER_T(INT32) | OPVER_T(INT64))

/* Element i of an INT16, INT32 or INT64 tensor (a type prepare checked),
 * widened; for invoke-time loops, so inline. */
static inline int64_t ref_integer_at(const opver_tensor *t, size_t i)
{
	switch (t->type) {
	case OPVER_TYPE_INT16:
		return ((const int16_t *)t->data)[i];
	case OPVER_TYPE_INT32:
		return ((const int32_t *)t->data)[i];
	default:
		return ((const int64_t *)t->data)[i];
	}
}

/*
 * Checks a shape-giving input (TILE's multiples, BROADCAST_TO's shape,
 * FILL's dims): 1-D, of a type in `types`, with `count` entries.  `role`
 * names it in messages.
 */
opver_status ref_expect_vector(const opver_context *ctx, const char *role,
			       const opver_tensor *tensor, uint32_t types,
			       int32_t count);

/*
 * Whether the `count` values of the shape-giving tensor `shape` equal
 * `want` (count entries); when not, reports what `role` gives against what
 * the output '`output`' has.  Called from prepare for a constant tensor and
 * from invoke for one whose values come at run time.
 */
opver_status ref_expect_shape_values(const opver_context *ctx,
				     const char *role,
				     const opver_tensor *shape,
				     const int32_t *want, int32_t count,
				     const opver_tensor *output);

/*
 * Gives output 0 of the node the shape a constant shape-giving tensor's
 * `count` values state (ref_shape_output()), so the output keeps it
 * when inputs are resized.  A run-time tensor, and values no dimension
 * can have, leave the output alone for ref_expect_shape_values().
 */
opver_status ref_shape_from_values(const opver_context *ctx,
				   const opver_node *node,
				   const opver_tensor *shape, int32_t count);

/*
 * In invoke, for a shape-giving tensor `shape` (role `role`) whose values
 * come at run time: gives output 0 the shape its `count` values state
 * (ref_shape_output_at_invoke()); a negative value, or one past
 * INT32_MAX, is reported and fails the invoke.
 */
opver_status ref_shape_at_invoke(const opver_context *ctx,
				 const opver_node *node, const char *role,
				 const opver_tensor *shape, int32_t count);

#endif /* OPVER_REFERENCE_ELEMENTS_H */
