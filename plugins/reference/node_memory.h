/*
 * node_memory.h - the memory a reference kernel takes for its node, on top
 * of its op_data:
 *
 *   persistent  filled once in prepare and read by every invoke (per-channel
 *               multipliers, lookup tables); allocate_persistent
 *   scratch     working memory of one invoke, worth nothing afterwards
 *               (accumulators, a quantized copy of the input); requested in
 *               prepare, planned by the core into its arena with the
 *               tensors, looked up by index in invoke
 *
 * Each helper reports what it could not get, naming `what` it was for.
 */
#ifndef OPVER_REFERENCE_NODE_MEMORY_H
#define OPVER_REFERENCE_NODE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/*
 * Zeroed persistent memory for `count` elements of `size` bytes, or NULL
 * after reporting.  Only in prepare.  Owned by the core, which frees it with
 * the interpreter; valid until then.
 */
void *ref_persistent(const opver_context *ctx, size_t count, size_t size,
		     const char *what);

/*
 * Asks, in prepare, for scratch of `count` elements of `size` bytes and
 * stores its index in *index for ref_scratch().  Reports and fails when the
 * core cannot plan it.
 */
opver_status ref_request_scratch(const opver_context *ctx, size_t count,
				 size_t size, const char *what,
				 int32_t *index);

/*
 * The scratch `index` requested in prepare, in invoke, or NULL after
 * reporting (the core hands out every index its node requested, so only a
 * broken core gives NULL).  Borrowed from the core's arena; valid during
 * this invoke.
 */
void *ref_scratch(const opver_context *ctx, int32_t index);

#endif /* OPVER_REFERENCE_NODE_MEMORY_H */
