/*
 * cases_reshape.c - RESHAPE cases.
 *
 * Variants cross every element type of fixed size with where the new
 * shape comes from (the new_shape option; a constant shape tensor; a shape
 * tensor the graph takes as input; neither, leaving the output tensor's
 * shape) and whether one entry is -1, to be inferred.  Each case draws
 * the input shape (rank 1-4, dimensions 1-4), an output shape of the same
 * element count (rank 1-4) and the data.  TFLite has RESHAPE version 1
 * only.
 */
#include <string.h>

#include "cases.h"

enum { FROM_OPTION, FROM_CONSTANT, FROM_INPUT, FROM_OUTPUT, NUM_SOURCES };
static const char *const source_names[NUM_SOURCES] = {
	"new_shape", "shape-constant", "shape-input", "output-tensor",
};

#define COUNT_SIZED(name, value, size) +((size) > 0)
enum { NUM_SIZED_TYPES = 0 OPVER_TYPE_MAP(COUNT_SIZED) };
#undef COUNT_SIZED

/* The index-th type with a fixed element size. */
static opver_type sized_type(int32_t index)
{
	for (int32_t type = 0; type < OPVER_TYPE_COUNT; type++)
		if (opver_type_size(type) > 0 && index-- == 0)
			return (opver_type)type;
	return OPVER_TYPE_FLOAT32;
}

/* A shape of rank 1-4 holding `elements`, each dimension a divisor of
 * what is left. */
static int32_t draw_factors(cf_rng *rng, int32_t elements, int32_t *dims)
{
	int32_t rank = cf_rng_int(rng, 1, 4);

	for (int32_t d = 0; d + 1 < rank; d++) {
		int32_t divisors[64], n = 0;

		for (int32_t i = 1; i <= elements && n < 64; i++)
			if (elements % i == 0)
				divisors[n++] = i;
		dims[d] = divisors[cf_rng_int(rng, 0, n - 1)];
		elements /= dims[d];
	}
	dims[rank - 1] = elements;
	return rank;
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	opver_type type = sized_type(variant % NUM_SIZED_TYPES);
	int32_t source = variant / NUM_SIZED_TYPES % NUM_SOURCES;
	bool infer = variant / (NUM_SIZED_TYPES * NUM_SOURCES) % 2 &&
		     source != FROM_OUTPUT;
	int32_t in_rank = cf_rng_int(rng, 1, 4), in_dims[4], out_dims[4];
	int32_t out_rank, elements = 1, shape[4], input, output, shape_tensor;

	for (int32_t d = 0; d < in_rank; d++) {
		in_dims[d] = cf_rng_int(rng, 1, 4);
		elements *= in_dims[d];
	}
	out_rank = draw_factors(rng, elements, out_dims);
	memcpy(shape, out_dims, sizeof(shape));
	if (infer)
		shape[cf_rng_int(rng, 0, out_rank - 1)] = -1;
	input = cf_case_tensor(c, type, in_rank, in_dims);
	output = cf_case_tensor(c, type, out_rank, out_dims);
	cf_case_input(c, input);
	c->output = output;
	if (source == FROM_OPTION) {
		c->has_params = true;
		c->params.reshape.num_dims = out_rank;
		memcpy(c->params.reshape.dims, shape,
		       (size_t)out_rank * sizeof(*shape));
	} else if (source == FROM_CONSTANT || source == FROM_INPUT) {
		int32_t *values = cf_case_alloc(c, sizeof(shape));

		if (values == NULL)
			return false;
		memcpy(values, shape, sizeof(shape));
		shape_tensor = cf_case_tensor(c, OPVER_TYPE_INT32, 1, &out_rank);
		cf_case_input(c, shape_tensor);
		if (source == FROM_CONSTANT) {
			c->tensors[shape_tensor].data = values;
			c->tensors[shape_tensor].data_size =
				(size_t)out_rank * sizeof(*values);
		} else {
			c->values[shape_tensor] = values;
		}
	}
	cf_case_param(c, "shape-from=%s infer=%s", source_names[source],
		      infer ? "yes" : "no");
	return cf_case_fill(c, input, rng, -100, 100, false);
}

const cf_generator cf_reshape_cases = {
	.op = OPVER_OP_RESHAPE,
	.num_variants = NUM_SIZED_TYPES * NUM_SOURCES * 2,
	.generate = generate,
};
