/*
 * resize.c - RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (float32, uint8,
 * int8, int16), computed as TensorFlow Lite's kernels compute them.  Input
 * [N, H, W, C], a size tensor (int32 [2]: new height, new width), output
 * [N, new H, new W, C].
 *
 * Each output row y (and column x) reads the input at y * scale, with
 * scale input size / output size, or (input size - 1) / (output size - 1)
 * under align_corners; half_pixel_centers samples at (y + 0.5) * scale -
 * 0.5 instead.  Nearest neighbor copies the element at the floor of that
 * position (rounded under align_corners), clamped to the input; bilinear
 * weighs the two rows and two columns around it.  Float bilinear computes
 * in float; int8 and int16 bilinear in TFLite's fixed point, positions in
 * 1/1024 of a pixel, and round the weighted sum of 2^20 half away from zero
 * (once, half up, in the single-rounding build).  uint8 bilinear is
 * TFLite's legacy kernel: the float weights and sum, plus 0.5, truncated.
 * Quantized resizing works on the stored integers, as TFLite does: it does
 * not rescale.
 *
 * Prepare takes the output size from the size tensor when it is constant
 * (checked against the output tensor), else from the output tensor, and
 * computes each output row's and column's source positions; invoke only
 * interpolates.
 *
 * Version ranges (TFLite's op_version rules):
 *   RESIZE_BILINEAR          1 float32, uint8; 2 int8; 3 half_pixel_centers;
 *                            4 int16
 *   RESIZE_NEAREST_NEIGHBOR  1 float32, uint8; 2 int8; 3 align_corners or
 *                            half_pixel_centers; 4 int16
 * Every kernel computes both options, so each covers 1..4.
 *
 * uint8 bilinear follows the kernel every TFLite build registers (its
 * optimized one; the oracle runs it): TFLite's reference kernel, which no
 * build registers by default, truncates the same float sum without the
 * 0.5.  The optimized kernel's own path for 8x upsampling with
 * half_pixel_centers (depth a multiple of 8) sums in 8.8 fixed point, which
 * gives the same result: its weights are multiples of 1/16, so the float
 * sum is exact there too.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "node_checks.h"
#include "node_memory.h"

enum { RESIZE_INPUT = 0, RESIZE_SIZE = 1 };

/* Where output row (or column) i reads the input. */
typedef struct resize_source {
	int32_t lower;    /* bilinear: first row; nearest: the row */
	int32_t upper;    /* bilinear: second row */
	float position;   /* float bilinear: the real position */
	int32_t position_10; /* integer bilinear: position in 1/1024 */
} resize_source;

typedef struct resize_data {
	int32_t batches;
	int32_t channels;
	int32_t in_height, in_width;
	int32_t out_height, out_width;
	size_t element_size;
	/* out_height rows, then out_width columns, in node memory: owned by
	 * the core, valid until the interpreter is destroyed. */
	resize_source *rows;
	resize_source *cols;
} resize_data;

/* The options of either op, which share their layout. */
typedef struct resize_options {
	int32_t align_corners;
	int32_t half_pixel_centers;
} resize_options;

/* Fills data's shape: input [N, H, W, C] and output of `type`, the size
 * tensor int32 [2], its values (when constant) equal to the output's
 * height and width. */
static opver_status resize_check_node(const opver_context *ctx,
				      const opver_node *node, int32_t type,
				      const char *usage, resize_data *data)
{
	const opver_tensor *input, *size, *output;
	opver_status status;

	status = ref_check_arity(ctx, node, 2, 2, 1, usage);
	if (status != OPVER_OK)
		return status;
	input = node->inputs[RESIZE_INPUT];
	size = node->inputs[RESIZE_SIZE];
	output = node->outputs[0];
	status = ref_expect_type(ctx, "input", input, type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "output", output, type);
	if (status == OPVER_OK)
		status = ref_expect_type(ctx, "size", size, OPVER_TYPE_INT32);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "input", input, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "output", output, 4);
	if (status == OPVER_OK)
		status = ref_expect_rank(ctx, "size", size, 1);
	if (status != OPVER_OK)
		return status;
	if (size->dims[0] != 2) {
		OPVER_REPORT(ctx,
			     "size '%s' has %d elements; it must hold the new height and width",
			     size->name, (int)size->dims[0]);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->batches = input->dims[0];
	data->in_height = input->dims[1];
	data->in_width = input->dims[2];
	data->channels = input->dims[3];
	/* Not constant: its values exist only at invoke, and the output's
	 * shape, fixed before running, stands. */
	if (size->is_constant) {
		const int32_t *hw = size->data;

		data->out_height = hw[0];
		data->out_width = hw[1];
	} else {
		data->out_height = output->dims[1];
		data->out_width = output->dims[2];
	}
	if (data->out_height <= 0 || data->out_width <= 0) {
		OPVER_REPORT(ctx, "the new size %dx%d is not positive",
			     (int)data->out_height, (int)data->out_width);
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* An input without rows or columns has nothing to sample from. */
	if (data->in_height <= 0 || data->in_width <= 0) {
		OPVER_REPORT(ctx, "input '%s' has no rows or columns to resize",
			     input->name);
		return OPVER_ERROR_INVALID_MODEL;
	}
	data->element_size = type == OPVER_TYPE_FLOAT32 ? sizeof(float)
			     : type == OPVER_TYPE_INT16 ? sizeof(int16_t)
							 : 1;
	return ref_shape_output(ctx, node, 0,
				(const int32_t[4]){ data->batches,
						    data->out_height,
						    data->out_width,
						    data->channels },
				4, "the input and size give");
}

/* Node memory for the sources of every output row and column. */
static opver_status resize_allocate(const opver_context *ctx,
				    resize_data *data)
{
	data->rows = ref_persistent(ctx,
				    (size_t)data->out_height +
					    (size_t)data->out_width,
				    sizeof(resize_source), "resize positions");
	if (data->rows == NULL)
		return OPVER_ERROR_NOMEM;
	data->cols = data->rows + data->out_height;
	return OPVER_OK;
}

/* Input size / output size, or under align_corners (with more than one
 * output) (input size - 1) / (output size - 1), in float as TFLite. */
static float resize_scale(int32_t in, int32_t out, bool align_corners)
{
	if (align_corners && out > 1)
		return (float)(in - 1) / (float)(out - 1);
	return (float)in / (float)out;
}

/* ------------------------------------------------------------ bilinear */

/* The float positions of `out` outputs over `in` inputs. */
static void bilinear_float_sources(resize_source *s, int32_t in,
				   int32_t out, const resize_options *o)
{
	const float scale = resize_scale(in, out, o->align_corners);

	for (int32_t i = 0; i < out; i++) {
		const float p = o->half_pixel_centers
					? ((float)i + 0.5f) * scale - 0.5f
					: (float)i * scale;
		const int32_t lower = (int32_t)floorf(p);
		const int32_t upper = (int32_t)ceilf(p);

		s[i].position = p;
		s[i].lower = lower > 0 ? lower : 0;
		s[i].upper = upper < in - 1 ? upper : in - 1;
	}
}

/* The fixed-point positions (1/1024 of a pixel) of `out` outputs over
 * `in` inputs; the scale is rounded to 1/1024 first, as in TFLite. */
static void bilinear_integer_sources(resize_source *s, int32_t in,
				     int32_t out, const resize_options *o)
{
	int64_t scale_10 = (((int64_t)in << 10) + out / 2) / out;

	if (o->align_corners && out > 1)
		scale_10 = (((int64_t)(in - 1) << 10) + (out - 1) / 2) /
			   (out - 1);
	for (int32_t i = 0; i < out; i++) {
		const int64_t p = o->half_pixel_centers
					  ? i * scale_10 + scale_10 / 2 - 512
					  : i * scale_10;
		/* C division truncates toward zero, as TFLite's. */
		const int64_t lower = p / 1024;
		const int64_t upper = (p + 1023) / 1024;

		s[i].position_10 = (int32_t)p;
		s[i].lower = lower > 0 ? (int32_t)lower : 0;
		s[i].upper = upper < in - 1 ? (int32_t)upper : in - 1;
	}
}

static opver_status bilinear_prepare(const opver_context *ctx,
				     opver_node *node, int32_t type)
{
	resize_data *data = node->op_data;
	opver_resize_bilinear_params params =
		OPVER_RESIZE_BILINEAR_PARAMS_DEFAULTS;
	resize_options o;
	opver_status status;

	status = resize_check_node(ctx, node, type,
				   "RESIZE_BILINEAR takes an input, a size tensor and one output",
				   data);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	o = (resize_options){ params.align_corners,
			      params.half_pixel_centers };
	if (o.align_corners && o.half_pixel_centers) {
		OPVER_REPORT(ctx,
			     "align_corners and half_pixel_centers are both set; TFLite allows one at most");
		return OPVER_ERROR_INVALID_MODEL;
	}
	/* Positions in 1/1024 pixel must fit TFLite's int32 arithmetic. */
	if (type != OPVER_TYPE_FLOAT32 && type != OPVER_TYPE_UINT8 &&
	    (((int64_t)data->in_height << 10) + data->out_height > INT32_MAX ||
	     ((int64_t)data->in_width << 10) + data->out_width > INT32_MAX)) {
		OPVER_REPORT(ctx,
			     "an input of %dx%d overflows the fixed-point positions",
			     (int)data->in_height, (int)data->in_width);
		return OPVER_ERROR_UNSUPPORTED;
	}
	status = resize_allocate(ctx, data);
	if (status != OPVER_OK)
		return status;
	if (type == OPVER_TYPE_FLOAT32 || type == OPVER_TYPE_UINT8) {
		bilinear_float_sources(data->rows, data->in_height,
				       data->out_height, &o);
		bilinear_float_sources(data->cols, data->in_width,
				       data->out_width, &o);
	} else {
		bilinear_integer_sources(data->rows, data->in_height,
					 data->out_height, &o);
		bilinear_integer_sources(data->cols, data->in_width,
					 data->out_width, &o);
	}
	return OPVER_OK;
}

static opver_status bilinear_float32_prepare(const opver_context *ctx,
					     opver_node *node)
{
	return bilinear_prepare(ctx, node, OPVER_TYPE_FLOAT32);
}

static opver_status bilinear_uint8_prepare(const opver_context *ctx,
					   opver_node *node)
{
	return bilinear_prepare(ctx, node, OPVER_TYPE_UINT8);
}

static opver_status bilinear_int8_prepare(const opver_context *ctx,
					  opver_node *node)
{
	return bilinear_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status bilinear_int16_prepare(const opver_context *ctx,
					   opver_node *node)
{
	return bilinear_prepare(ctx, node, OPVER_TYPE_INT16);
}

/* Index of element [b, y, x, 0] of the input. */
static size_t resize_input_index(const resize_data *d, int32_t b, int32_t y,
				 int32_t x)
{
	return (((size_t)b * (size_t)d->in_height + (size_t)y) *
			(size_t)d->in_width +
		(size_t)x) *
	       (size_t)d->channels;
}

static opver_status bilinear_float32_invoke(const opver_context *ctx,
					    opver_node *node)
{
	const resize_data *d = node->op_data;
	const float *input = node->inputs[RESIZE_INPUT]->data;
	float *out = node->outputs[0]->data;

	(void)ctx;
	for (int32_t b = 0; b < d->batches; b++)
		for (int32_t y = 0; y < d->out_height; y++) {
			const resize_source *r = &d->rows[y];
			/* Weights as TFLite forms them, from the clamped
			 * lower row. */
			const float dy = r->position - (float)r->lower;

			for (int32_t x = 0; x < d->out_width; x++) {
				const resize_source *c = &d->cols[x];
				const float dx = c->position - (float)c->lower;
				const float *ll = input + resize_input_index(
							d, b, r->lower, c->lower);
				const float *ul = input + resize_input_index(
							d, b, r->upper, c->lower);
				const float *lu = input + resize_input_index(
							d, b, r->lower, c->upper);
				const float *uu = input + resize_input_index(
							d, b, r->upper, c->upper);

				for (int32_t ch = 0; ch < d->channels; ch++)
					*out++ = ll[ch] * (1 - dy) * (1 - dx) +
						 ul[ch] * dy * (1 - dx) +
						 lu[ch] * (1 - dy) * dx +
						 uu[ch] * dy * dx;
			}
		}
	return OPVER_OK;
}

/* TFLite's legacy uint8 kernel: each output pixel's four weights in
 * float, the sum of the elements times them in that order (lower row:
 * lower, upper column; then the upper row), plus 0.5, truncated. */
static opver_status bilinear_uint8_invoke(const opver_context *ctx,
					  opver_node *node)
{
	const resize_data *d = node->op_data;
	const uint8_t *input = node->inputs[RESIZE_INPUT]->data;
	uint8_t *out = node->outputs[0]->data;

	(void)ctx;
	for (int32_t b = 0; b < d->batches; b++)
		for (int32_t y = 0; y < d->out_height; y++) {
			const resize_source *r = &d->rows[y];
			const float dy = r->position - (float)r->lower;

			for (int32_t x = 0; x < d->out_width; x++) {
				const resize_source *c = &d->cols[x];
				const float dx = c->position - (float)c->lower;
				/* Each weight is rounded to float on its
				 * own, as TFLite stores them. */
				const float w_ll = (1 - dy) * (1 - dx);
				const float w_lu = (1 - dy) * dx;
				const float w_ul = dy * (1 - dx);
				const float w_uu = dy * dx;
				const uint8_t *ll = input + resize_input_index(
							d, b, r->lower, c->lower);
				const uint8_t *lu = input + resize_input_index(
							d, b, r->lower, c->upper);
				const uint8_t *ul = input + resize_input_index(
							d, b, r->upper, c->lower);
				const uint8_t *uu = input + resize_input_index(
							d, b, r->upper, c->upper);

				for (int32_t ch = 0; ch < d->channels; ch++) {
					float sum = (float)ll[ch] * w_ll;

					/* One rounding per step, in TFLite's
					 * order, whatever the compiler's
					 * contraction. */
					sum = sum + (float)lu[ch] * w_lu;
					sum = sum + (float)ul[ch] * w_ul;
					sum = sum + (float)uu[ch] * w_uu;
					*out++ = (uint8_t)(int32_t)(sum + 0.5f);
				}
			}
		}
	return OPVER_OK;
}

/* The weighted sum of 2^20 back to an element: half away from zero, or
 * once half up in the single-rounding build, as TFLite's two builds. */
static inline int32_t bilinear_round_20(int64_t sum)
{
#ifdef REF_SINGLE_ROUNDING
	/* An arithmetic shift: floor division. */
	const int64_t shifted = sum + (INT64_C(1) << 19);

	return (int32_t)(shifted >= 0 ? shifted / (INT64_C(1) << 20)
				      : -((-shifted + (INT64_C(1) << 20) - 1) /
					  (INT64_C(1) << 20)));
#else
	return (int32_t)((sum + (sum > 0 ? (INT64_C(1) << 19)
					 : -(INT64_C(1) << 19))) /
			 (INT64_C(1) << 20));
#endif
}

/* The integer kernels differ only in the element type; loading through
 * this keeps one loop for both. */
static inline int64_t resize_load(const void *base, size_t index,
				  size_t element_size)
{
	return element_size == 1 ? ((const int8_t *)base)[index]
				 : ((const int16_t *)base)[index];
}

static opver_status bilinear_integer_invoke(const opver_context *ctx,
					    opver_node *node)
{
	const resize_data *d = node->op_data;
	const void *input = node->inputs[RESIZE_INPUT]->data;
	void *output = node->outputs[0]->data;
	const size_t es = d->element_size;
	size_t o = 0;

	(void)ctx;
	for (int32_t b = 0; b < d->batches; b++)
		for (int32_t y = 0; y < d->out_height; y++) {
			const resize_source *r = &d->rows[y];
			const int64_t wy = r->position_10 - r->lower * 1024;

			for (int32_t x = 0; x < d->out_width; x++) {
				const resize_source *c = &d->cols[x];
				const int64_t wx =
					c->position_10 - c->lower * 1024;
				const size_t ll = resize_input_index(
					d, b, r->lower, c->lower);
				const size_t ul = resize_input_index(
					d, b, r->upper, c->lower);
				const size_t lu = resize_input_index(
					d, b, r->lower, c->upper);
				const size_t uu = resize_input_index(
					d, b, r->upper, c->upper);

				for (int32_t ch = 0; ch < d->channels;
				     ch++, o++) {
					const int64_t sum =
						resize_load(input, ll + ch, es) *
							(1024 - wy) *
							(1024 - wx) +
						resize_load(input, ul + ch, es) *
							wy * (1024 - wx) +
						resize_load(input, lu + ch, es) *
							(1024 - wy) * wx +
						resize_load(input, uu + ch, es) *
							wy * wx;
					const int32_t v =
						bilinear_round_20(sum);

					if (es == 1)
						((int8_t *)output)[o] =
							(int8_t)v;
					else
						((int16_t *)output)[o] =
							(int16_t)v;
				}
			}
		}
	return OPVER_OK;
}

/* ----------------------------------------------------- nearest neighbor */

/* The input row (or column) each of `out` outputs copies. */
static void nearest_sources(resize_source *s, int32_t in, int32_t out,
			    const resize_options *o)
{
	const float scale = resize_scale(in, out, o->align_corners);
	const float offset = o->half_pixel_centers ? 0.5f : 0.0f;

	for (int32_t i = 0; i < out; i++) {
		const float p = ((float)i + offset) * scale;
		int32_t v = o->align_corners ? (int32_t)roundf(p)
					     : (int32_t)floorf(p);

		v = v < in - 1 ? v : in - 1;
		if (o->half_pixel_centers && v < 0)
			v = 0;
		s[i].lower = v;
	}
}

static opver_status nearest_prepare(const opver_context *ctx,
				    opver_node *node, int32_t type)
{
	resize_data *data = node->op_data;
	opver_resize_nearest_neighbor_params params =
		OPVER_RESIZE_NEAREST_NEIGHBOR_PARAMS_DEFAULTS;
	resize_options o;
	opver_status status;

	status = resize_check_node(ctx, node, type,
				   "RESIZE_NEAREST_NEIGHBOR takes an input, a size tensor and one output",
				   data);
	if (status != OPVER_OK)
		return status;
	opver_read_params(node, &params, sizeof(params));
	o = (resize_options){ params.align_corners,
			      params.half_pixel_centers };
	status = resize_allocate(ctx, data);
	if (status != OPVER_OK)
		return status;
	nearest_sources(data->rows, data->in_height, data->out_height, &o);
	nearest_sources(data->cols, data->in_width, data->out_width, &o);
	return OPVER_OK;
}

static opver_status nearest_float32_prepare(const opver_context *ctx,
					    opver_node *node)
{
	return nearest_prepare(ctx, node, OPVER_TYPE_FLOAT32);
}

static opver_status nearest_uint8_prepare(const opver_context *ctx,
					  opver_node *node)
{
	return nearest_prepare(ctx, node, OPVER_TYPE_UINT8);
}

static opver_status nearest_int8_prepare(const opver_context *ctx,
					 opver_node *node)
{
	return nearest_prepare(ctx, node, OPVER_TYPE_INT8);
}

static opver_status nearest_int16_prepare(const opver_context *ctx,
					  opver_node *node)
{
	return nearest_prepare(ctx, node, OPVER_TYPE_INT16);
}

/* A copy of one input pixel (all channels) per output pixel. */
static opver_status nearest_invoke(const opver_context *ctx, opver_node *node)
{
	const resize_data *d = node->op_data;
	const unsigned char *input = node->inputs[RESIZE_INPUT]->data;
	unsigned char *out = node->outputs[0]->data;
	const size_t pixel = (size_t)d->channels * d->element_size;

	(void)ctx;
	for (int32_t b = 0; b < d->batches; b++)
		for (int32_t y = 0; y < d->out_height; y++)
			for (int32_t x = 0; x < d->out_width; x++) {
				memcpy(out,
				       input + resize_input_index(
						       d, b, d->rows[y].lower,
						       d->cols[x].lower) *
						       d->element_size,
				       pixel);
				out += pixel;
			}
	return OPVER_OK;
}

/* ------------------------------------------------------------- manifest */

/* A kernel of this file: name, op, the type of input and output, prepare
 * and invoke. */
#define RESIZE_KERNEL(kernel_name, op, type, prepare_fn, invoke_fn)       \
	{                                                                  \
		OPVER_KERNEL(kernel_name, op, 1, 4),                       \
		REF_SIGNATURES(OPVER_SIGNATURE(                            \
			OPVER_INPUTS(OPVER_T(type), OPVER_T(INT32)),       \
			OPVER_OUTPUT(OPVER_T(type)))),                     \
		REF_KERNEL_TRAITS,                                         \
		.op_data_size = sizeof(resize_data),                       \
		.prepare = prepare_fn, .invoke = invoke_fn,                \
	}

const opver_kernel ref_resize_bilinear_float32 =
	RESIZE_KERNEL("resize_bilinear_float32", RESIZE_BILINEAR, FLOAT32,
		      bilinear_float32_prepare, bilinear_float32_invoke);
const opver_kernel ref_resize_bilinear_uint8 =
	RESIZE_KERNEL("resize_bilinear_uint8", RESIZE_BILINEAR, UINT8,
		      bilinear_uint8_prepare, bilinear_uint8_invoke);
const opver_kernel ref_resize_bilinear_int8 =
	RESIZE_KERNEL("resize_bilinear_int8", RESIZE_BILINEAR, INT8,
		      bilinear_int8_prepare, bilinear_integer_invoke);
const opver_kernel ref_resize_bilinear_int16 =
	RESIZE_KERNEL("resize_bilinear_int16", RESIZE_BILINEAR, INT16,
		      bilinear_int16_prepare, bilinear_integer_invoke);
const opver_kernel ref_resize_nearest_neighbor_float32 =
	RESIZE_KERNEL("resize_nearest_neighbor_float32",
		      RESIZE_NEAREST_NEIGHBOR, FLOAT32,
		      nearest_float32_prepare, nearest_invoke);
const opver_kernel ref_resize_nearest_neighbor_uint8 =
	RESIZE_KERNEL("resize_nearest_neighbor_uint8",
		      RESIZE_NEAREST_NEIGHBOR, UINT8, nearest_uint8_prepare,
		      nearest_invoke);
const opver_kernel ref_resize_nearest_neighbor_int8 =
	RESIZE_KERNEL("resize_nearest_neighbor_int8",
		      RESIZE_NEAREST_NEIGHBOR, INT8, nearest_int8_prepare,
		      nearest_invoke);
const opver_kernel ref_resize_nearest_neighbor_int16 =
	RESIZE_KERNEL("resize_nearest_neighbor_int16",
		      RESIZE_NEAREST_NEIGHBOR, INT16, nearest_int16_prepare,
		      nearest_invoke);
