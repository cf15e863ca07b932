/*
 * window.h - where a spatial op's output element reads its input, for
 * mismatch reports: the padding resolved as TFLite resolves it and the
 * input window of the element.
 */
#ifndef OPVER_CONFORMANCE_WINDOW_H
#define OPVER_CONFORMANCE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include "cases.h"
#include "text.h"

/*
 * For CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV and the pools (NHWC):
 * appends a line with the padding of each side ("padding: top 0 bottom
 * 1 left 1 right 1 (SAME; total 1 rows, 2 columns)") and one with the
 * input rows and columns that the case's output element `element` (a
 * flat index) reads, and whether they reach into the padding.  False,
 * appending nothing, for any other op.
 */
bool cf_describe_window(cf_text *t, const cf_case *c, size_t element);

#endif /* OPVER_CONFORMANCE_WINDOW_H */
