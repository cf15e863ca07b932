/*
 * cases_slice.c - cases of the slicing ops: DYNAMIC_UPDATE_SLICE, SLICE
 * and STRIDED_SLICE.
 *
 * Variants cross each op's element types (TFLite's list for the op) with
 * the parameter branches that matter to it: begins and sizes as INT32 or
 * INT64, SLICE of rank 5, and every STRIDED_SLICE mask including
 * negative strides and offset.  Each case draws its shape (dimensions
 * 1-4), index tensors (constant, as converters store them) and data;
 * quantized tensors share one scale and zero point (cases_move.h).
 */
#include <string.h>

#include "cases_move.h"

/* ------------------------------------------------ DYNAMIC_UPDATE_SLICE */

/* Variants: the types but UINT8 (TFLite's kernel has none) with INT32 or
 * INT64 start indices, then FLOAT16 (version 3) and BFLOAT16 (version 6)
 * with INT32 ones.  Start indices are drawn past both ends of the room
 * the update leaves, to reach the clamping. */
static bool generate_dynamic_update_slice(int32_t variant, cf_rng *rng,
					  cf_case *c)
{
	const int32_t k = variant % (CF_NUM_MOVE_TYPES - 1);
	const bool half = variant >= 2 * (CF_NUM_MOVE_TYPES - 1);
	const opver_type type =
		!half ? cf_move_types[k + (k >= 2)]
		: variant % 2 ? OPVER_TYPE_BFLOAT16 : OPVER_TYPE_FLOAT16;
	const bool wide = !half && variant / (CF_NUM_MOVE_TYPES - 1);
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t update_dims[CF_MAX_RANK], start[CF_MAX_RANK];
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		update_dims[d] = cf_rng_int(rng, 1, dims[d]);
		start[d] = cf_rng_int(rng, -2, dims[d] - update_dims[d] + 2);
	}
	cf_move_input(c, rng, type, rank, dims, &q, &ok);
	cf_move_input(c, rng, type, rank, update_dims, &q, &ok);
	cf_move_indices(c, 1, &rank, start, wide, &ok);
	c->output = cf_move_tensor(c, type, rank, dims, &q, &ok);
	cf_case_param(c, "indices=%s rank=%d", wide ? "int64" : "int32",
		      (int)rank);
	return ok;
}

const cf_generator cf_dynamic_update_slice_cases = {
	.op = OPVER_OP_DYNAMIC_UPDATE_SLICE,
	.num_variants = 2 * (CF_NUM_MOVE_TYPES - 1) + 2,
	.generate = generate_dynamic_update_slice,
};

/* -------------------------------------------------------------- SLICE */

/* Variants: the types and UINT32 with INT32 or INT64 indices, then rank
 * 5. */
static bool generate_slice(int32_t variant, cf_rng *rng, cf_case *c)
{
	const bool rank5 = variant == 2 * CF_NUM_WIDE_TYPES;
	const opver_type type =
		rank5 ? OPVER_TYPE_FLOAT32
		      : cf_move_wide_type(variant % CF_NUM_WIDE_TYPES);
	const bool wide = !rank5 && variant / CF_NUM_WIDE_TYPES;
	int32_t rank = rank5 ? 5 : cf_rng_int(rng, 1, 4);
	int32_t dims[CF_MAX_RANK], out_dims[CF_MAX_RANK];
	int32_t begin[CF_MAX_RANK], size[CF_MAX_RANK];
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		begin[d] = cf_rng_int(rng, 0, dims[d] - 1);
		out_dims[d] = cf_rng_int(rng, 1, dims[d] - begin[d]);
		size[d] = out_dims[d] == dims[d] - begin[d] &&
					  cf_rng_int(rng, 0, 1)
				  ? -1
				  : out_dims[d];
	}
	cf_move_input(c, rng, type, rank, dims, &q, &ok);
	cf_move_indices(c, 1, &rank, begin, wide, &ok);
	cf_move_indices(c, 1, &rank, size, wide, &ok);
	c->output = cf_move_tensor(c, type, rank, out_dims, &q, &ok);
	cf_case_param(c, "indices=%s rank=%d", wide ? "int64" : "int32",
		      (int)rank);
	return ok;
}

const cf_generator cf_slice_cases = {
	.op = OPVER_OP_SLICE,
	.num_variants = 2 * CF_NUM_WIDE_TYPES + 1,
	.generate = generate_slice,
};

/* ------------------------------------------------------ STRIDED_SLICE */

enum {
	SS_PLAIN, SS_MASKS, SS_NEGATIVE, SS_SHRINK, SS_ELLIPSIS, SS_NEW_AXIS,
	SS_OFFSET, SS_NUM_KINDS
};
static const char *const ss_kinds[SS_NUM_KINDS] = {
	"plain", "begin-end-masks", "negative-strides", "shrink", "ellipsis",
	"new-axis", "offset",
};

/* Output count along a dimension of n with begin b, end e, stride s, as
 * TFLite clamps them (no masks). */
static int32_t ss_count(int32_t n, int32_t b, int32_t e, int32_t s)
{
	int32_t count;

	b = b < 0 ? b + n : b;
	e = e < 0 ? e + n : e;
	if (s > 0) {
		b = b < 0 ? 0 : b > n ? n : b;
		e = e < 0 ? 0 : e > n ? n : e;
		count = (e - b + s - 1) / s;
	} else {
		b = b < -1 ? -1 : b > n - 1 ? n - 1 : b;
		e = e < -1 ? -1 : e > n - 1 ? n - 1 : e;
		count = (b - e - s - 1) / -s;
	}
	return count < 0 ? 0 : count;
}

/*
 * Every kind draws a spec over rank 1-4 (the ellipsis and new axis kinds
 * rewrite one entry); begin and end lie in [-n, n], strides in 1-2 (or
 * -2..-1).  Each dimension's output count is computed here, independently
 * of the kernels' planning.
 */
static bool generate_strided_slice(int32_t variant, cf_rng *rng, cf_case *c)
{
	const opver_type type = cf_move_wide_type(variant % CF_NUM_WIDE_TYPES);
	const int32_t kind = variant / CF_NUM_WIDE_TYPES;
	int32_t rank = cf_rng_int(rng, 1, 4), dims[CF_MAX_RANK];
	int32_t begin[CF_MAX_RANK + 1], end[CF_MAX_RANK + 1];
	int32_t stride[CF_MAX_RANK + 1], out_dims[CF_MAX_RANK + 1];
	int32_t count = rank, out_rank = 0;
	opver_strided_slice_params *p = &c->params.strided_slice;
	cf_move_quant q = cf_move_draw_quant(rng, type);
	bool ok = true;

	cf_move_draw_shape(rng, rank, dims);
	for (int32_t d = 0; d < rank; d++) {
		int32_t n = dims[d], b, e, s;

		s = cf_rng_int(rng, 1, 2);
		if (kind == SS_NEGATIVE && cf_rng_int(rng, 0, 1))
			s = -s;
		b = cf_rng_int(rng, -n, n);
		e = cf_rng_int(rng, -n, n);
		begin[d] = b;
		end[d] = e;
		stride[d] = s;
		if (kind == SS_MASKS && cf_rng_int(rng, 0, 1)) {
			p->begin_mask |= 1 << d;
			b = s > 0 ? 0 : n - 1;
		}
		if (kind == SS_MASKS && cf_rng_int(rng, 0, 1)) {
			p->end_mask |= 1 << d;
			e = s > 0 ? n : -n - 1;
		}
		if (kind == SS_OFFSET) {
			/* end counts from begin, which lies inside. */
			b = begin[d] = cf_rng_int(rng, 0, n - 1);
			end[d] = cf_rng_int(rng, 0, n - b);
			e = b + end[d];
		}
		if (kind == SS_SHRINK && cf_rng_int(rng, 0, 1)) {
			/* One element at an index inside the dimension. */
			begin[d] = cf_rng_int(rng, -n, n - 1);
			end[d] = begin[d] + 1;
			stride[d] = 1;
			p->shrink_axis_mask |= 1 << d;
			continue;
		}
		out_dims[out_rank++] = ss_count(n, b, e, s);
	}
	if (kind == SS_ELLIPSIS) {
		/* Entry 0 becomes the ellipsis: dimension 0 whole. */
		p->ellipsis_mask = 1;
		out_dims[0] = dims[0];
	}
	if (kind == SS_NEW_AXIS) {
		/* An extra entry in front inserts a dimension of 1. */
		memmove(begin + 1, begin, (size_t)rank * sizeof(*begin));
		memmove(end + 1, end, (size_t)rank * sizeof(*end));
		memmove(stride + 1, stride, (size_t)rank * sizeof(*stride));
		memmove(out_dims + 1, out_dims,
			(size_t)out_rank * sizeof(*out_dims));
		begin[0] = end[0] = 0;
		stride[0] = 1;
		out_dims[0] = 1;
		out_rank++;
		count++;
		p->new_axis_mask = 1;
	}
	p->offset = kind == SS_OFFSET;
	cf_move_input(c, rng, type, rank, dims, &q, &ok);
	cf_move_indices(c, 1, &count, begin, false, &ok);
	cf_move_indices(c, 1, &count, end, false, &ok);
	cf_move_indices(c, 1, &count, stride, false, &ok);
	c->output = cf_move_tensor(c, type, out_rank, out_dims, &q, &ok);
	c->has_params = true;
	cf_case_param(c, "kind=%s begin_mask=%d end_mask=%d shrink=%d",
		      ss_kinds[kind], (int)p->begin_mask, (int)p->end_mask,
		      (int)p->shrink_axis_mask);
	return ok;
}

const cf_generator cf_strided_slice_cases = {
	.op = OPVER_OP_STRIDED_SLICE,
	.num_variants = CF_NUM_WIDE_TYPES * SS_NUM_KINDS,
	.generate = generate_strided_slice,
};
