/*
 * cases_move.c - what the data-movement case generators share
 * (cases_move.h).
 */
#include "cases_move.h"

const opver_type cf_move_types[CF_NUM_MOVE_TYPES] = {
	OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_UINT8,
	OPVER_TYPE_INT16, OPVER_TYPE_INT32, OPVER_TYPE_INT64, OPVER_TYPE_BOOL,
};

opver_type cf_move_wide_type(int32_t index)
{
	return index < CF_NUM_MOVE_TYPES ? cf_move_types[index]
					 : OPVER_TYPE_UINT32;
}

bool cf_move_quantized_type(opver_type type)
{
	return type == OPVER_TYPE_INT8 || type == OPVER_TYPE_UINT8 ||
	       type == OPVER_TYPE_INT16;
}

cf_move_quant cf_move_draw_quant(cf_rng *rng, opver_type type)
{
	cf_move_quant q = { cf_rng_float(rng, 0.01f, 1.0f), 0 };

	if (type == OPVER_TYPE_INT8)
		q.zero_point = cf_rng_int(rng, -20, 20);
	else if (type == OPVER_TYPE_UINT8)
		q.zero_point = cf_rng_int(rng, 100, 150);
	return q;
}

/* A tensor of `type`, quantized with q when the type is. */
int32_t cf_move_tensor(cf_case *c, opver_type type, int32_t rank,
		       const int32_t *dims, const cf_move_quant *q, bool *ok)
{
	int32_t t = cf_case_tensor(c, type, rank, dims);

	if (cf_move_quantized_type(type) && !cf_case_quantize(c, t, q->scale,
						     q->zero_point))
		*ok = false;
	return t;
}

/* The graph input of `type` and shape, with random data. */
int32_t cf_move_input(cf_case *c, cf_rng *rng, opver_type type, int32_t rank,
		      const int32_t *dims, const cf_move_quant *q, bool *ok)
{
	int32_t t = cf_move_tensor(c, type, rank, dims, q, ok);

	cf_case_input(c, t);
	if (!cf_case_fill(c, t, rng, -100, 100, false))
		*ok = false;
	return t;
}

/* A constant INT32 (or INT64 when wide) tensor of shape dims holding
 * `values`, added as the node's next input. */
int32_t cf_move_indices(cf_case *c, int32_t rank, const int32_t *dims,
			const int32_t *values, bool wide, bool *ok)
{
	int32_t t = cf_case_tensor(c, wide ? OPVER_TYPE_INT64
					   : OPVER_TYPE_INT32,
				   rank, dims);
	size_t n = 1, size = wide ? 8 : 4;
	void *data;

	for (int32_t d = 0; d < rank; d++)
		n *= (size_t)dims[d];
	data = cf_case_alloc(c, n * size);
	if (data == NULL) {
		*ok = false;
		return t;
	}
	for (size_t i = 0; i < n; i++) {
		if (wide)
			((int64_t *)data)[i] = values[i];
		else
			((int32_t *)data)[i] = values[i];
	}
	c->tensors[t].data = data;
	c->tensors[t].data_size = n * size;
	cf_case_input(c, t);
	return t;
}

/* A shape of `rank` dimensions of 1-4. */
void cf_move_draw_shape(cf_rng *rng, int32_t rank, int32_t *dims)
{
	for (int32_t d = 0; d < rank; d++)
		dims[d] = cf_rng_int(rng, 1, 4);
}
