/*
 * refusals.h - the XNNPACK delegate's per-op checks (refusals.c), for
 * claims.c, which checks a node's types and operands before them.
 */
#ifndef OPVER_XNNPACK_REFUSALS_H
#define OPVER_XNNPACK_REFUSALS_H

#include <stdbool.h>
#include <stddef.h>

#include <opver/plugin.h>

/* NULL when XNNPACK computes the node's op, parameters and quantization as
 * TFLite does; otherwise why not, formatted into buf (size bytes). */
const char *xp_op_refusal(const opver_node *node, char *buf, size_t size);

/* An 8-bit tensor (int8 or uint8). */
bool xp_is_8bit(const opver_tensor *t);

/* An 8-bit tensor as XNNPACK's quantized values hold it: one usable scale
 * and a zero point its type can store; NULL, or why not (`what` naming
 * it) in buf. */
const char *xp_quant_refusal(const opver_tensor *t, const char *what,
			     char *buf, size_t size);

#endif /* OPVER_XNNPACK_REFUSALS_H */
