/*
 * claims.h - what the oneDNN delegate claims: its typed claims, and the
 * per-node checks that keep every other node on the kernels with a reason.
 */
#ifndef OPVER_ONEDNN_CLAIMS_H
#define OPVER_ONEDNN_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include <opver/plugin.h>

#define DN_NUM_CLAIMS 3
extern const opver_delegate_op *const dn_claims[DN_NUM_CLAIMS];

/* NULL when the delegate computes `node` as TFLite does (within one
 * output step); otherwise why not, written to `buf` (`size` bytes). */
const char *dn_refusal(const opver_node *node, char *buf, size_t size);

/* The range activation `activation` leaves, as TFLite clamps it
 * (infinite ends where it leaves the value be); false for an activation
 * oneDNN is not given. */
bool dn_activation_bounds(int32_t activation, float *lo, float *hi);

/* The quantized range of `out` that activation `activation` leaves, as
 * TFLite computes it; false for an activation oneDNN is not given. */
bool dn_activation_range(int32_t activation, const opver_tensor *out,
			 int32_t *qmin, int32_t *qmax);

#endif /* OPVER_ONEDNN_CLAIMS_H */
