/*
 * cases_resize.c - RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR cases.
 *
 * Variants cross the types (float32, int8, int16, uint8) with the
 * sampling: plain, align_corners, half_pixel_centers and, for nearest
 * neighbor, both (bilinear refuses both).  Each case draws the batch (1-2), the input size (1-6 each way),
 * the new size (1-12 each way: shrinking and growing), the channels (1-5)
 * and the data; the size is a constant input.  Quantized resizing keeps
 * the stored integers, so input and output share their quantization.
 * RESIZE_BILINEAR ends with hard variants (issue 16), int8 and int16 with
 * each sampling but both: growth by exactly 2 each way puts the weights at
 * quarters and halves, so that one output in 2 (one axis interpolated) to
 * one in 16 lies on a tie of TFLite's fixed-point rounding, in both signs;
 * zero points at the type's ends or middle (cases_hard.h), values over
 * the whole type.
 */
#include "cases_hard.h"

enum { FLOAT32, INT8, INT16, UINT8, NUM_TYPES };
enum { PLAIN, ALIGN_CORNERS, HALF_PIXEL_CENTERS, BOTH, NUM_MODES };

static const char *const mode_names[NUM_MODES] = {
	"plain", "align_corners", "half_pixel_centers", "both",
};

static int32_t num_modes(int32_t op)
{
	return op == OPVER_OP_RESIZE_BILINEAR ? BOTH : NUM_MODES;
}

static bool generate(int32_t variant, cf_rng *rng, cf_case *c)
{
	static const opver_type types[NUM_TYPES] = {
		OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8, OPVER_TYPE_INT16,
		OPVER_TYPE_UINT8,
	};
	int32_t kind = variant % NUM_TYPES;
	int32_t mode = variant / NUM_TYPES % num_modes(c->op);
	bool align = mode == ALIGN_CORNERS || mode == BOTH;
	bool half = mode == HALF_PIXEL_CENTERS || mode == BOTH;
	int32_t in_dims[4], out_dims[4], two = 2, input, size, output;
	int32_t *hw = cf_case_alloc(c, 2 * sizeof(int32_t));

	if (hw == NULL)
		return false;
	in_dims[0] = cf_rng_int(rng, 1, 2);
	in_dims[1] = cf_rng_int(rng, 1, 6);
	in_dims[2] = cf_rng_int(rng, 1, 6);
	in_dims[3] = cf_rng_int(rng, 1, 5);
	hw[0] = cf_rng_int(rng, 1, 12);
	hw[1] = cf_rng_int(rng, 1, 12);
	out_dims[0] = in_dims[0];
	out_dims[1] = hw[0];
	out_dims[2] = hw[1];
	out_dims[3] = in_dims[3];
	input = cf_case_tensor(c, types[kind], 4, in_dims);
	size = cf_case_tensor(c, OPVER_TYPE_INT32, 1, &two);
	output = cf_case_tensor(c, types[kind], 4, out_dims);
	c->tensors[size].data = hw;
	c->tensors[size].data_size = 2 * sizeof(int32_t);
	cf_case_input(c, input);
	cf_case_input(c, size);
	c->output = output;
	c->has_params = true;
	/* Both ops' structs are align_corners, half_pixel_centers. */
	if (c->op == OPVER_OP_RESIZE_BILINEAR)
		c->params.resize_bilinear =
			(opver_resize_bilinear_params){ align, half };
	else
		c->params.resize_nearest_neighbor =
			(opver_resize_nearest_neighbor_params){ align, half };
	if (kind != FLOAT32) {
		float scale = cf_rng_float(rng, 0.01f, 0.1f);
		int64_t zero_point = kind == INT8    ? cf_rng_int(rng, -20, 20)
				     : kind == UINT8 ? cf_rng_int(rng, 100, 150)
						     : 0;

		if (!cf_case_quantize(c, input, scale, zero_point) ||
		    !cf_case_quantize(c, output, scale, zero_point))
			return false;
	}
	cf_case_param(c, "size=%dx%d sampling=%s", hw[0], hw[1],
		      mode_names[mode]);
	switch (kind) {
	case FLOAT32:
		return cf_case_fill(c, input, rng, -8, 8, false);
	case INT8:
		return cf_case_fill(c, input, rng, -128, 127, false);
	case INT16:
		return cf_case_fill(c, input, rng, -32768, 32767, false);
	default: /* UINT8: random bytes */
		return cf_case_fill(c, input, rng, 0, 255, false);
	}
}

/* Hard variant v (see the top of the file). */
static bool generate_bilinear_hard(int32_t v, cf_rng *rng, cf_case *c)
{
	const opver_type type = v % 2 ? OPVER_TYPE_INT16 : OPVER_TYPE_INT8;
	const int32_t mode = v / 2 % BOTH;
	int32_t in_dims[4], out_dims[4], two = 2, input, size, output;
	int32_t *hw = cf_case_alloc(c, 2 * sizeof(int32_t)), zero;
	const float scale = type == OPVER_TYPE_INT16 ? 0x1p-12f : 0x1p-5f;
	cf_hard hard;

	if (hw == NULL)
		return false;
	cf_hard_draw(&hard, CF_SPOT_TIES, rng);
	in_dims[0] = out_dims[0] = cf_rng_int(rng, 1, 2);
	in_dims[1] = cf_rng_int(rng, 2, 5);
	in_dims[2] = cf_rng_int(rng, 2, 5);
	in_dims[3] = out_dims[3] = cf_rng_int(rng, 1, 4);
	hw[0] = out_dims[1] = 2 * in_dims[1];
	hw[1] = out_dims[2] = 2 * in_dims[2];
	input = cf_case_tensor(c, type, 4, in_dims);
	size = cf_case_tensor(c, OPVER_TYPE_INT32, 1, &two);
	output = cf_case_tensor(c, type, 4, out_dims);
	c->tensors[size].data = hw;
	c->tensors[size].data_size = 2 * sizeof(int32_t);
	cf_case_input(c, input);
	cf_case_input(c, size);
	c->output = output;
	c->has_params = true;
	c->params.resize_bilinear = (opver_resize_bilinear_params){
		mode == ALIGN_CORNERS, mode == HALF_PIXEL_CENTERS
	};
	zero = cf_hard_zero_point(&hard, CF_HARD_INPUT, type, rng);
	cf_case_param(c, "size=%dx%d sampling=%s zero_point=%d", hw[0], hw[1],
		      mode_names[mode], (int)zero);
	return cf_case_quantize(c, input, scale, zero) &&
	       cf_case_quantize(c, output, scale, zero) &&
	       cf_hard_fill(c, input, rng, INT16_MAX, false);
}

static bool generate_bilinear(int32_t variant, cf_rng *rng, cf_case *c)
{
	if (variant >= NUM_TYPES * BOTH)
		return generate_bilinear_hard(variant - NUM_TYPES * BOTH, rng,
					      c);
	return generate(variant, rng, c);
}

const cf_generator cf_resize_bilinear_cases = {
	.op = OPVER_OP_RESIZE_BILINEAR,
	.num_variants = NUM_TYPES * BOTH + 2 * BOTH,
	.generate = generate_bilinear,
};

const cf_generator cf_resize_nearest_neighbor_cases = {
	.op = OPVER_OP_RESIZE_NEAREST_NEIGHBOR,
	.num_variants = NUM_TYPES * NUM_MODES,
	.generate = generate,
};
