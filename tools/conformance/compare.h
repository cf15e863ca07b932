/*
 * compare.h - a plugin's output against the reference's: floats within a
 * stated relative tolerance, every other type bit-exact.
 */
#ifndef OPVER_CONFORMANCE_COMPARE_H
#define OPVER_CONFORMANCE_COMPARE_H

#include <stdbool.h>

#include <opver/opver.h>

#include "text.h"

/*
 * True when `got` (the plugin's) agrees with `want` (the reference's):
 * same type and size, and every FLOAT32 element within rtol * max(1,
 * max |want|) of the reference (NaN agreeing with NaN), every INT8 and
 * UINT8 element within `steps` of it, every element of another type bit
 * for bit.  Otherwise appends to `why` one line with the first
 * mismatching element (index, coordinates, both values), how many differ
 * (INT8, UINT8 and INT16 ones: CF_ONE_STEP when none by more) and the
 * tolerance, and sets *first to that element's index (0 when the sizes
 * differ).  Both tensors borrowed.
 */
#define CF_ONE_STEP "each by one step"

bool cf_compare_outputs(const opver_tensor *got, const opver_tensor *want,
			double rtol, int32_t steps, cf_text *why,
			size_t *first);

#endif /* OPVER_CONFORMANCE_COMPARE_H */
