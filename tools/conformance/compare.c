/* compare.c - output comparison and its one-line account of a mismatch. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "describe.h"

static float float_at(const opver_tensor *t, size_t i)
{
	return ((const float *)t->data)[i];
}

/* "[0,2,1,5]": flat index i of a tensor, as coordinates. */
static void add_coordinates(cf_text *t, const opver_tensor *tensor, size_t i)
{
	size_t coordinates[8] = { 0 };
	int32_t rank = tensor->rank < 8 ? tensor->rank : 8;

	for (int32_t d = rank; d-- > 0;) {
		size_t dim = tensor->dims[d] > 0 ? (size_t)tensor->dims[d] : 1;

		coordinates[d] = i % dim;
		i /= dim;
	}
	cf_text_add(t, "[");
	for (int32_t d = 0; d < rank; d++)
		cf_text_add(t, "%s%zu", d ? "," : "", coordinates[d]);
	cf_text_add(t, "]");
}

/* Whether the differences of `type`'s elements are counted in steps:
 * the quantized integer types. */
static bool stepped(int32_t type)
{
	return type == OPVER_TYPE_INT8 || type == OPVER_TYPE_UINT8 ||
	       type == OPVER_TYPE_INT16;
}

/* An element of a stepped type as a number. */
static int32_t step_at(const opver_tensor *t, size_t i)
{
	if (t->type == OPVER_TYPE_INT8)
		return ((const int8_t *)t->data)[i];
	if (t->type == OPVER_TYPE_INT16)
		return ((const int16_t *)t->data)[i];
	return ((const uint8_t *)t->data)[i];
}

bool cf_compare_outputs(const opver_tensor *got, const opver_tensor *want,
			double rtol, int32_t steps, cf_text *why,
			size_t *first_out)
{
	size_t n, size, mismatches = 0, first = 0;
	/* The largest difference of integer outputs, in steps. */
	int32_t largest_steps = 0;
	bool floats = want->type == OPVER_TYPE_FLOAT32;
	bool bytes = want->type == OPVER_TYPE_INT8 ||
		     want->type == OPVER_TYPE_UINT8;
	/* `steps` allows 8-bit outputs only; int16 ones match exactly. */
	const int32_t allowed = bytes ? steps : 0;
	double tolerance = 0;

	*first_out = 0;
	if (got->type != want->type || got->bytes != want->bytes) {
		cf_text_add(why, "mismatch: the plugin's output is %s of %zu bytes, the reference's %s of %zu bytes\n",
			    opver_type_name(got->type), got->bytes,
			    opver_type_name(want->type), want->bytes);
		return false;
	}
	n = opver_tensor_elements(want);
	size = opver_type_size(want->type);
	if (floats) {
		double largest = 1;

		for (size_t i = 0; i < n; i++)
			largest = fmax(largest, fabs(float_at(want, i)));
		tolerance = rtol * largest;
	}
	for (size_t i = 0; i < n; i++) {
		bool same;

		if (floats) {
			double a = float_at(got, i), b = float_at(want, i);

			same = (isnan(a) && isnan(b)) || fabs(a - b) <= tolerance;
		} else if (stepped(want->type)) {
			const int32_t d = abs(step_at(got, i) - step_at(want, i));

			same = d <= allowed;
			if (d > largest_steps)
				largest_steps = d;
		} else {
			same = memcmp((const uint8_t *)got->data + i * size,
				      (const uint8_t *)want->data + i * size,
				      size) == 0;
		}
		if (!same && mismatches++ == 0)
			first = i;
	}
	if (mismatches == 0)
		return true;
	*first_out = first;
	cf_text_add(why, "mismatch: output element %zu ", first);
	add_coordinates(why, want, first);
	cf_text_add(why, ": plugin ");
	cf_describe_element(why, got->type, got->data, first);
	cf_text_add(why, ", reference ");
	cf_describe_element(why, want->type, want->data, first);
	cf_text_add(why, "; %zu of %zu elements differ", mismatches, n);
	if (largest_steps == 1)
		cf_text_add(why, ", " CF_ONE_STEP);
	if (floats)
		cf_text_add(why, " (tolerance %.3g)\n", tolerance);
	else if (bytes && steps > 0)
		cf_text_add(why, " (tolerance %d steps)\n", (int)steps);
	else
		cf_text_add(why, " (must match exactly)\n");
	return false;
}
