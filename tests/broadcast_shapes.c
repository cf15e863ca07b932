/* broadcast_shapes.c - the naive broadcasting model of broadcast_shapes.h. */
#include "broadcast_shapes.h"

#define SHAPE(...)                                                   \
	{                                                            \
		(int32_t)(sizeof((int32_t[]){ __VA_ARGS__ }) /        \
			  sizeof(int32_t)),                          \
			{ __VA_ARGS__ }                              \
	}
#define SCALAR { 0, { 0 } }

const bs_case bs_cases[] = {
	{ SCALAR, SHAPE(2, 3) },                      /* scalar first */
	{ SHAPE(2, 3), SCALAR },                      /* scalar second */
	{ SHAPE(1), SHAPE(4) },
	{ SHAPE(2, 3), SHAPE(3) },                    /* row */
	{ SHAPE(3), SHAPE(2, 3) },
	{ SHAPE(2, 3), SHAPE(2, 1) },                 /* column */
	{ SHAPE(4, 1), SHAPE(1, 5) },                 /* outer product */
	{ SHAPE(2, 1, 3), SHAPE(1, 4, 1) },
	{ SHAPE(1, 4, 4, 3), SHAPE(3) },              /* NHWC channels */
	{ SHAPE(2, 1, 3, 1), SHAPE(1, 2, 1, 4) },     /* 4-D both ways */
	{ SHAPE(1, 1, 5, 6), SHAPE(1, 1, 5, 6) },     /* same 4-D shape */
	{ SHAPE(2, 1, 2, 1, 3), SHAPE(1, 3, 1, 2, 1) }, /* 5-D */
	{ SHAPE(2, 2, 1, 3, 2), SHAPE(2, 1, 3, 2) },  /* 5-D and 4-D */
	{ SHAPE(2, 1, 2, 3, 2), SHAPE(2, 1, 2, 3, 2) }, /* same 5-D shape */
	{ SHAPE(2, 1, 2, 1, 2, 1), SHAPE(1, 2, 1, 2, 1, 2) }, /* 6-D */
	{ SHAPE(3, 1, 1), SHAPE(1, 1, 4) },
	{ SHAPE(1, 1), SHAPE(1) },                    /* one element */
	{ SHAPE(0, 3), SHAPE(1, 3) },                 /* empty output */
};
const size_t bs_num_cases = sizeof(bs_cases) / sizeof(bs_cases[0]);

size_t bs_elements(const bs_shape *s)
{
	size_t n = 1;

	for (int32_t d = 0; d < s->rank; d++)
		n *= (size_t)s->dims[d];
	return n;
}

/* Dimension d of `s` right-aligned against `rank` dimensions; 1 where s has
 * none. */
static int32_t aligned(const bs_shape *s, int32_t rank, int32_t d)
{
	const int32_t skipped = rank - s->rank;

	return d < skipped ? 1 : s->dims[d - skipped];
}

bs_shape bs_broadcast(const bs_shape *a, const bs_shape *b)
{
	bs_shape out = { a->rank > b->rank ? a->rank : b->rank, { 0 } };

	for (int32_t d = 0; d < out.rank; d++) {
		const int32_t x = aligned(a, out.rank, d);
		const int32_t y = aligned(b, out.rank, d);

		out.dims[d] = x == 1 ? y : x;
	}
	return out;
}

size_t bs_source(const bs_shape *in, const bs_shape *out, size_t flat)
{
	size_t index = 0, stride = 1;

	for (int32_t d = out->rank - 1; d >= 0; d--) {
		const size_t position = flat % (size_t)out->dims[d];
		const int32_t size = aligned(in, out->rank, d);

		flat /= (size_t)out->dims[d];
		if (size != 1)
			index += position * stride;
		stride *= (size_t)size;
	}
	return index;
}
