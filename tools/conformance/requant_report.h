/*
 * requant_report.h - for a mismatch in a quantized output, how the
 * requantization of its first differing element goes: the accumulator,
 * the effective rescale as TFLite's Q0.31 multiplier and shift, the zero
 * points, the value before the clamp, and each rounding on the way to the
 * reference's value, with ties named.
 */
#ifndef OPVER_CONFORMANCE_REQUANT_REPORT_H
#define OPVER_CONFORMANCE_REQUANT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <opver/opver.h>

#include "cases.h"
#include "text.h"

/*
 * For FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D with an int8, uint8
 * or int16 output, and ADD, MUL and SUB with an int8, uint8 or int16 one
 * (ADD's and SUB's int16 with general scales), and AVERAGE_POOL_2D with a
 * quantized one (its window's sum, count and rounded average): appends
 * the lines that derive output element `element` of the case, computed
 * here from the case's tensors as TFLite's reference kernels compute it (for
 * int16 outputs the accumulator, rescale and exact value only), and says
 * so when `reference` (the reference plugin's output, borrowed) holds
 * another value.  False, appending nothing, for any other case.
 */
bool cf_describe_requantization(cf_text *t, const cf_case *c, size_t element,
				const opver_tensor *reference);

#endif /* OPVER_CONFORMANCE_REQUANT_REPORT_H */
