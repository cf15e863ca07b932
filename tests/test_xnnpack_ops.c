/*
 * test_xnnpack_ops.c - the XNNPACK delegate's float32 RESIZE_BILINEAR,
 * DEPTH_TO_SPACE, PRELU, ELU and TRANSPOSE_CONV on small models built here
 * (tools/conformance/model_builder.c), each run in one runtime with the
 * delegate and in one with the reference plugin alone: the delegate must
 * take the nodes it claims and land within 1e-5 * max(1, max |reference|)
 * of the reference (XNNPACK interpolates, sums and takes exponentials in
 * another order or approximation); nodes XNNPACK would compute otherwise
 * than TFLite stay on the kernels with the reason logged.  RESIZE_BILINEAR's
 * sampling (corners, clamping at the edges) and ELU are checked against
 * values computed here too.  Every test skips when configure did not find
 * XNNPACK.
 *
 * TRANSPOSE_CONV's shapes here were also run through TFLite itself
 * (tflite_ref.js, its builtin kernels): the claimed ones agree within
 * 1.3e-7 relative; those the delegate refuses as not convolving back to
 * the input come out of TFLite's optimized kernel otherwise than from its
 * reference kernel (which the reference plugin and XNNPACK both follow).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conformance/model_builder.h"
#include "runtime_fixture.h"

#define WITH_XNNPACK                                            \
	"[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"  \
	"[plugin.xnnpack]\nlibrary = " XNNPACK_PLUGIN "\n"
#define REFERENCE_ONLY "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"
#define RTOL 1e-5

static messages captured;

static void require_plugin(void)
{
	if (access(XNNPACK_PLUGIN, R_OK) != 0)
		cr_skip_test("the XNNPACK plugin was not built (configure found no XNNPACK)");
}

/* The next `n` pseudo-random values in [-2, 2) from `state`. */
static void fill(float *v, size_t n, uint32_t *state)
{
	for (size_t e = 0; e < n; e++) {
		*state = *state * 1103515245u + 12345u;
		v[e] = (float)(*state >> 16 & 0xffff) / 16384.0f - 2.0f;
	}
}

typedef struct run {
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *it;
} run;

/* Runs `desc` over `config`: float32 inputs get fill()'s values from
 * state 12345 on, whatever the config, int32 inputs `ints` (borrowed, as
 * many elements as the int32 input has). */
static void start(run *r, const char *config, const cf_model_desc *desc,
		  const int32_t *ints)
{
	uint8_t *bytes;
	size_t size;
	char error[256];
	uint32_t state = 12345;

	r->runtime = fixture_runtime(config, &captured);
	cr_assert(cf_build_model(desc, &bytes, &size, error, sizeof(error)),
		  "%s", error);
	cr_assert_eq(opver_model_open_memory(r->runtime, bytes, size,
					     &r->model),
		     OPVER_OK, "%s", captured.text);
	free(bytes);
	cr_assert_eq(opver_interpreter_create(r->runtime, r->model, &r->it),
		     OPVER_OK, "%s", captured.text);
	for (size_t i = 0; i < opver_interpreter_input_count(r->it); i++) {
		opver_tensor *in = opver_interpreter_input(r->it, i);

		if (in->type == OPVER_TYPE_INT32) {
			cr_assert_not_null(ints);
			memcpy(in->data, ints, in->bytes);
			continue;
		}
		fill(in->data, in->bytes / sizeof(float), &state);
	}
	cr_assert_eq(opver_interpreter_invoke(r->it), OPVER_OK, "%s",
		     captured.text);
}

static void stop(run *r)
{
	opver_interpreter_destroy(r->it);
	opver_model_close(r->model);
	opver_runtime_destroy(r->runtime);
}

/* Runs `desc` with and without the delegate; asserts that nodes `claimed`
 * (a mask of node indices) ran on it, the others not, with `reason` among
 * the logged refusals when not NULL, and that the outputs agree within
 * RTOL.  The delegate's output is copied to `got` (when not NULL, as many
 * floats as the output has). */
static void compare_ints(const cf_model_desc *desc, uint32_t claimed,
			 const char *reason, const int32_t *ints, float *got)
{
	run x, ref;
	const opver_tensor *out, *want;
	const float *a, *b;
	size_t n;
	double most = 1.0;

	messages_clear(&captured);
	start(&x, WITH_XNNPACK, desc, ints);
	for (size_t k = 0; k < opver_interpreter_node_count(x.it); k++) {
		opver_node_info info;
		bool delegated;

		cr_assert_eq(opver_interpreter_node_info(x.it, k, &info),
			     OPVER_OK);
		delegated = info.delegate != NULL &&
			    strcmp(info.delegate, "xnnpack") == 0;
		cr_assert_eq(delegated, (claimed >> k & 1) != 0,
			     "node %zu %s the delegate\n%s", k,
			     delegated ? "ran on" : "did not run on",
			     captured.text);
	}
	if (reason != NULL)
		cr_assert(messages_line_has(&captured, "stays on the kernels",
					    reason, NULL),
			  "no refusal '%s' in\n%s", reason, captured.text);
	start(&ref, REFERENCE_ONLY, desc, ints);
	out = opver_interpreter_output(x.it, 0);
	want = opver_interpreter_output(ref.it, 0);
	cr_assert_eq(out->bytes, want->bytes);
	a = out->data;
	b = want->data;
	n = want->bytes / sizeof(float);
	for (size_t i = 0; i < n; i++)
		most = fmax(most, fabs(b[i]));
	for (size_t i = 0; i < n; i++)
		cr_expect_leq(fabs(a[i] - b[i]), RTOL * most,
			      "element %zu: delegate %.9g, reference %.9g", i,
			      (double)a[i], (double)b[i]);
	if (got != NULL && n > 0)
		memcpy(got, a, n * sizeof(float));
	stop(&x);
	stop(&ref);
}

/* Asserts the delegate refuses `desc`'s nodes with `reason`, for a model
 * the reference kernels reject too (TFLite would fail on it). */
static void refused(const cf_model_desc *desc, const char *reason)
{
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *it = NULL;
	uint8_t *bytes;
	size_t size;
	char error[256];

	messages_clear(&captured);
	runtime = fixture_runtime(WITH_XNNPACK, &captured);
	cr_assert(cf_build_model(desc, &bytes, &size, error, sizeof(error)),
		  "%s", error);
	cr_assert_eq(opver_model_open_memory(runtime, bytes, size, &model),
		     OPVER_OK, "%s", captured.text);
	free(bytes);
	cr_assert_neq(opver_interpreter_create(runtime, model, &it), OPVER_OK);
	cr_assert(messages_line_has(&captured, "stays on the kernels", reason,
				    NULL),
		  "no refusal '%s' in\n%s", reason, captured.text);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

static void compare(const cf_model_desc *desc, uint32_t claimed,
		    const char *reason)
{
	compare_ints(desc, claimed, reason, NULL, NULL);
}

/* A float32 tensor of the given shape, constant when `data` is. */
#define F32_TENSOR(r, d, ptr, sz)                                      \
	{ .type = OPVER_TYPE_FLOAT32, .rank = (r), .dims = d,          \
	  .data = (ptr), .data_size = (sz) }
#define DIMS(...) { __VA_ARGS__ }

/* ------------------------------------------------------ RESIZE_BILINEAR */

/* RESIZE_BILINEAR v`version` of a [1, h, w, 1] input to [1, oh, ow, 1],
 * the size constant unless `size_is_input`; the delegate's output in got. */
static void resize(int32_t version, bool align_corners, bool half_pixel,
		   int32_t h, int32_t w, int32_t oh, int32_t ow,
		   bool size_is_input, uint32_t claimed, const char *reason,
		   float *got)
{
	const int32_t size[2] = { oh, ow };
	const cf_tensor_desc tensors[3] = {
		F32_TENSOR(4, DIMS(1, h, w, 1), NULL, 0),
		{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { 2 },
		  .data = size_is_input ? NULL : size,
		  .data_size = size_is_input ? 0 : sizeof(size) },
		F32_TENSOR(4, DIMS(1, oh, ow, 1), NULL, 0),
	};
	const cf_opcode_desc code = { OPVER_OP_RESIZE_BILINEAR, version, NULL };
	const opver_resize_bilinear_params p = {
		.align_corners = align_corners,
		.half_pixel_centers = half_pixel,
	};
	const int32_t in[2] = { 0, 1 }, out[1] = { 2 };
	const cf_operator_desc op = { 0, in, 2, out, 1, &p, NULL, 0 };
	const cf_model_desc desc = { tensors, 3, &code, 1, &op, 1,
				     in, size_is_input ? 2 : 1, out, 1 };

	/* TFLite (and the reference) reject both samplings at once. */
	if (align_corners && half_pixel)
		refused(&desc, reason);
	else
		compare_ints(&desc, claimed, reason, size, got);
}

/* Bilinear interpolation of a 2x2 input v (v00 v01 v10 v11) at row
 * position py and column position px, each within 0..1. */
static float bilinear(const float *v, float py, float px)
{
	return v[0] + (v[1] - v[0]) * px + (v[2] - v[0]) * py +
	       (v[3] - v[2] - v[1] + v[0]) * px * py;
}

/* A 2x2 input resized to 4x4 samples at the positions below (each
 * clamped to 0..1) in each mode, as TFLite's reference computes them:
 * plain y * 2/4, aligned corners y * 1/3, half-pixel (y + 0.5) * 2/4 -
 * 0.5. */
static void check_corners(bool align_corners, bool half_pixel,
			  const float pos[4])
{
	float got[16], v[4];
	uint32_t state = 12345;

	require_plugin();
	resize(3, align_corners, half_pixel, 2, 2, 4, 4, false, 0x1, NULL,
	       got);
	fill(v, 4, &state);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++)
			cr_expect_float_eq(got[y * 4 + x],
					   bilinear(v, pos[y], pos[x]), 1e-5,
					   "(%d, %d)", y, x);
}

Test(xnnpack_ops, resize_plain_samples_at_y_times_scale)
{
	static const float pos[4] = { 0.0f, 0.5f, 1.0f, 1.0f };

	check_corners(false, false, pos);
}

Test(xnnpack_ops, resize_align_corners_maps_corners_onto_corners)
{
	static const float pos[4] = { 0.0f, 1.0f / 3, 2.0f / 3, 1.0f };

	check_corners(true, false, pos);
}

/* (y + 0.5) / 2 - 0.5: -0.25 and 1.25 clamp to the edge pixels. */
Test(xnnpack_ops, resize_half_pixel_centers_clamp_at_the_edges)
{
	static const float pos[4] = { 0.0f, 0.25f, 0.75f, 1.0f };

	check_corners(false, true, pos);
}

/* Down to one pixel (plain and aligned corners sample pixel 0, TFLite's
 * aligned scale needing two outputs; half-pixel 0.5 * 3 - 0.5, the
 * centre), up and down by odd ratios: as the reference in each mode. */
Test(xnnpack_ops, resize_other_shapes_match_the_reference)
{
	require_plugin();
	for (int mode = 0; mode < 3; mode++) {
		bool align = mode == 1, half = mode == 2;

		resize(half ? 3 : 1, align, half, 3, 3, 1, 1, false, 0x1,
		       NULL, NULL);
		resize(half ? 3 : 1, align, half, 5, 3, 7, 8, false, 0x1,
		       NULL, NULL);
		resize(half ? 3 : 1, align, half, 6, 7, 4, 2, false, 0x1,
		       NULL, NULL);
	}
}

Test(xnnpack_ops, resize_xnnpack_cannot_sample_stays_on_the_kernels)
{
	require_plugin();
	resize(3, true, true, 3, 3, 5, 5, false, 0x0,
	       "align_corners with half_pixel_centers", NULL);
	resize(1, false, false, 3, 3, 5, 5, true, 0x0,
	       "size must be a constant", NULL);
}

/* ------------------------------------------------------- DEPTH_TO_SPACE */

static void depth_to_space(int32_t block, uint32_t claimed,
			   const char *reason)
{
	const cf_tensor_desc tensors[2] = {
		F32_TENSOR(4, DIMS(2, 3, 2, 3 * block * block), NULL, 0),
		F32_TENSOR(4, DIMS(2, 3 * block, 2 * block, 3), NULL, 0),
	};
	const cf_opcode_desc code = { OPVER_OP_DEPTH_TO_SPACE, 1, NULL };
	const opver_space_depth_params p = { .block_size = block };
	const int32_t in[1] = { 0 }, out[1] = { 1 };
	const cf_operator_desc op = { 0, in, 1, out, 1, &p, NULL, 0 };
	const cf_model_desc desc = { tensors, 2, &code, 1, &op, 1,
				     in, 1, out, 1 };

	compare(&desc, claimed, reason);
}

Test(xnnpack_ops, depth_to_space)
{
	require_plugin();
	depth_to_space(2, 0x1, NULL);
	depth_to_space(3, 0x1, NULL);
	depth_to_space(1, 0x0, "block_size 1: XNNPACK needs 2 or more");
}

/* ---------------------------------------------------------------- PRELU */

/* PRELU of a [2, 3, 4, 5] input; alpha of `rank` dimensions (the last
 * `rank` of alpha_dims), constant unless `alpha_is_input`. */
static void prelu(int32_t rank, const int32_t alpha_dims[4],
		  bool alpha_is_input, uint32_t claimed, const char *reason)
{
	float alpha[120];
	cf_tensor_desc tensors[3] = {
		F32_TENSOR(4, DIMS(2, 3, 4, 5), NULL, 0),
		F32_TENSOR(rank, DIMS(0), NULL, 0),
		F32_TENSOR(4, DIMS(2, 3, 4, 5), NULL, 0),
	};
	const cf_opcode_desc code = { OPVER_OP_PRELU, 1, NULL };
	const int32_t in[2] = { 0, 1 }, out[1] = { 2 };
	const cf_operator_desc op = { 0, in, 2, out, 1, NULL, NULL, 0 };
	const cf_model_desc desc = { tensors, 3, &code, 1, &op, 1,
				     in, alpha_is_input ? 2 : 1, out, 1 };
	size_t count = 1;

	for (int32_t d = 0; d < rank; d++) {
		tensors[1].dims[d] = alpha_dims[4 - rank + d];
		count *= (size_t)alpha_dims[4 - rank + d];
	}
	for (size_t i = 0; i < count; i++)
		alpha[i] = 0.05f * (float)i - 0.5f;
	if (!alpha_is_input) {
		tensors[1].data = alpha;
		tensors[1].data_size = count * sizeof(float);
	}
	compare(&desc, claimed, reason);
}

Test(xnnpack_ops, prelu_with_a_slope_per_channel)
{
	static const int32_t channels[4] = { 1, 1, 1, 5 };

	require_plugin();
	prelu(1, channels, false, 0x1, NULL);
	prelu(3, channels, false, 0x1, NULL);
	prelu(4, channels, false, 0x1, NULL);
}

Test(xnnpack_ops, prelu_other_slopes_stay_on_the_kernels)
{
	static const int32_t channels[4] = { 1, 1, 1, 5 };
	static const int32_t inner[4] = { 1, 3, 4, 5 };
	static const int32_t one[4] = { 1, 1, 1, 1 };

	require_plugin();
	prelu(2, inner, false, 0x0, "alpha is not one slope per channel");
	prelu(1, one, false, 0x0, "alpha is not one slope per channel");
	prelu(1, channels, true, 0x0, "alpha must be constant");
}

/* ------------------------------------------------------------------ ELU */

Test(xnnpack_ops, elu_is_expm1_below_zero)
{
	const cf_tensor_desc tensors[2] = {
		F32_TENSOR(3, DIMS(4, 7, 9), NULL, 0),
		F32_TENSOR(3, DIMS(4, 7, 9), NULL, 0),
	};
	const cf_opcode_desc code = { OPVER_OP_ELU, 1, NULL };
	const int32_t in[1] = { 0 }, out[1] = { 1 };
	const cf_operator_desc op = { 0, in, 1, out, 1, NULL, NULL, 0 };
	const cf_model_desc desc = { tensors, 2, &code, 1, &op, 1,
				     in, 1, out, 1 };
	float got[4 * 7 * 9], x[4 * 7 * 9];
	uint32_t state = 12345;

	require_plugin();
	compare_ints(&desc, 0x1, NULL, NULL, got);
	fill(x, 4 * 7 * 9, &state);
	for (size_t i = 0; i < 4 * 7 * 9; i++)
		cr_expect_float_eq(got[i], x[i] < 0.0f ? expm1f(x[i]) : x[i],
				   1e-5, "x = %.9g", (double)x[i]);
}

/* ------------------------------------------------------- TRANSPOSE_CONV */

typedef struct tconv_case {
	int32_t version;
	int32_t padding;
	int32_t stride_h, stride_w;
	int32_t activation;
	int32_t in_h, in_w;    /* input [2, in_h, in_w, 3] */
	int32_t k_h, k_w;      /* filter [4, k_h, k_w, 3] */
	int32_t out_h, out_w;  /* output [2, out_h, out_w, 4] */
	uint32_t flags;        /* TC_* */
} tconv_case;

enum {
	TC_BIAS = 1,
	TC_SHAPE_INPUT = 2,     /* output_shape a model input */
	TC_FILTER_INPUT = 4,    /* the filter a model input */
};

static void transpose_conv(const tconv_case *c, uint32_t claimed,
			   const char *reason)
{
	const int32_t shape[4] = { 2, c->out_h, c->out_w, 4 };
	float filter[4 * 5 * 5 * 3], bias[4] = { 0.5f, -1.0f, 0.25f, 2.0f };
	size_t filter_size = (size_t)(4 * c->k_h * c->k_w * 3) *
			     sizeof(float);
	bool shape_is_input = c->flags & TC_SHAPE_INPUT;
	bool filter_is_input = c->flags & TC_FILTER_INPUT;
	const cf_tensor_desc tensors[5] = {
		{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { 4 },
		  .data = shape_is_input ? NULL : shape,
		  .data_size = shape_is_input ? 0 : sizeof(shape) },
		F32_TENSOR(4, DIMS(4, c->k_h, c->k_w, 3),
			   filter_is_input ? NULL : filter,
			   filter_is_input ? 0 : filter_size),
		F32_TENSOR(4, DIMS(2, c->in_h, c->in_w, 3), NULL, 0),
		F32_TENSOR(1, DIMS(4), bias, sizeof(bias)),
		F32_TENSOR(4, DIMS(2, c->out_h, c->out_w, 4), NULL, 0),
	};
	const cf_opcode_desc code = { OPVER_OP_TRANSPOSE_CONV, c->version,
				      NULL };
	const opver_transpose_conv_params p = {
		.padding = c->padding, .stride_width = c->stride_w,
		.stride_height = c->stride_h, .activation = c->activation,
	};
	const int32_t in[4] = { 0, 1, 2, c->flags & TC_BIAS ? 3 : -1 };
	const int32_t out[1] = { 4 };
	/* Model inputs: the input, then what the case makes non-constant
	 * (at most one). */
	const int32_t model_in[2] = { 2, shape_is_input ? 0 : 1 };
	const cf_operator_desc op = { 0, in, 4, out, 1, &p, NULL, 0 };
	const cf_model_desc desc = {
		tensors, 5, &code, 1, &op, 1, model_in,
		shape_is_input || filter_is_input ? 2 : 1, out, 1
	};

	for (size_t i = 0; i < sizeof(filter) / sizeof(filter[0]); i++)
		filter[i] = (float)((int)(i * 37 % 19) - 9) / 8.0f;
	compare_ints(&desc, claimed, reason, shape, NULL);
}

Test(xnnpack_ops, transpose_conv_same_and_valid)
{
	static const tconv_case cases[] = {
		/* SAME: TFLite's padding of a convolution over the output. */
		{ 1, OPVER_PADDING_SAME, 2, 2, 0, 3, 4, 3, 3, 6, 8, 0 },
		{ 1, OPVER_PADDING_SAME, 2, 3, 0, 3, 2, 4, 5, 5, 6, 0 },
		{ 3, OPVER_PADDING_SAME, 3, 1, 0, 2, 3, 2, 3, 6, 3, TC_BIAS },
		/* VALID, the output the scattered input's full extent. */
		{ 1, OPVER_PADDING_VALID, 2, 2, 0, 3, 3, 3, 3, 7, 7, 0 },
		{ 3, OPVER_PADDING_VALID, 1, 2, 0, 4, 2, 2, 3, 5, 5, TC_BIAS },
		/* Stride above the kernel: gaps of bias only. */
		{ 3, OPVER_PADDING_VALID, 3, 3, 0, 2, 2, 2, 2, 5, 5, TC_BIAS },
	};

	require_plugin();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		transpose_conv(&cases[i], 0x1, NULL);
}

/* An output_shape longer than the scattered input, by less than the
 * stride, that still convolves back to the input: XNNPACK's adjustment,
 * rows and columns of bias only (each case agrees with TFLite's builtin
 * kernel too). */
Test(xnnpack_ops, transpose_conv_output_shape_extends_the_output)
{
	static const tconv_case cases[] = {
		{ 3, OPVER_PADDING_VALID, 2, 2, 0, 3, 3, 3, 3, 8, 7, TC_BIAS },
		{ 3, OPVER_PADDING_VALID, 3, 3, 0, 2, 2, 2, 2, 6, 7, TC_BIAS },
		{ 3, OPVER_PADDING_SAME, 3, 3, 0, 2, 2, 2, 2, 6, 5, TC_BIAS },
		{ 1, OPVER_PADDING_SAME, 3, 1, 0, 2, 3, 2, 3, 6, 3, 0 },
	};

	require_plugin();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		transpose_conv(&cases[i], 0x1, NULL);
}

Test(xnnpack_ops, transpose_conv_fused_activation_is_version_4)
{
	static const tconv_case cases[] = {
		{ 4, OPVER_PADDING_SAME, 2, 2, OPVER_ACTIVATION_RELU, 3, 4, 3,
		  3, 6, 8, TC_BIAS },
		{ 4, OPVER_PADDING_VALID, 2, 1, OPVER_ACTIVATION_RELU6, 3, 4, 3,
		  2, 7, 5, TC_BIAS },
		{ 4, OPVER_PADDING_SAME, 1, 2, OPVER_ACTIVATION_RELU_N1_TO_1, 3,
		  4, 2, 2, 3, 8, 0 },
	};

	require_plugin();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		transpose_conv(&cases[i], 0x1, NULL);
}

/* Output shapes whose convolution is not the input (TFLite's builtin
 * kernel computes them otherwise than its reference kernel, and than
 * XNNPACK), non-constant output_shape or filter. */
Test(xnnpack_ops, transpose_conv_tflite_disagrees_stays_on_the_kernels)
{
	static const tconv_case shapes[] = {
		{ 3, OPVER_PADDING_VALID, 2, 2, 0, 3, 3, 3, 3, 9, 7, TC_BIAS },
		{ 3, OPVER_PADDING_VALID, 2, 2, 0, 3, 3, 3, 3, 8, 6, TC_BIAS },
		{ 3, OPVER_PADDING_SAME, 2, 2, 0, 3, 3, 3, 3, 7, 5, TC_BIAS },
		{ 1, OPVER_PADDING_VALID, 2, 2, 0, 4, 4, 3, 3, 3, 3, 0 },
	};
	static const tconv_case shape_input = {
		1, OPVER_PADDING_SAME, 2, 2, 0, 3, 4, 3, 3, 6, 8, TC_SHAPE_INPUT
	};
	static const tconv_case filter_input = {
		1, OPVER_PADDING_SAME, 2, 2, 0, 3, 4, 3, 3, 6, 8,
		TC_FILTER_INPUT
	};

	require_plugin();
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		transpose_conv(&shapes[i], 0x0,
			       "does not convolve back to the input's");
	transpose_conv(&shape_input, 0x0, "output_shape must be a constant");
	transpose_conv(&filter_input, 0x0, "filter and bias must be constant");
}

/* ---------------------------------------------------- one partition */

/* TRANSPOSE_CONV, PRELU, DEPTH_TO_SPACE, ELU and RESIZE_BILINEAR in a
 * row: one XNNPACK subgraph. */
Test(xnnpack_ops, the_new_ops_chain_in_one_partition)
{
	static const int32_t shape[4] = { 1, 6, 8, 4 }, size[2] = { 5, 7 };
	static const float alpha[4] = { 0.1f, -0.2f, 0.3f, 0.0f };
	float filter[4 * 3 * 3 * 3];
	const cf_tensor_desc tensors[10] = {
		F32_TENSOR(4, DIMS(1, 3, 4, 3), NULL, 0),
		{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { 4 },
		  .data = shape, .data_size = sizeof(shape) },
		F32_TENSOR(4, DIMS(4, 3, 3, 3), filter, sizeof(filter)),
		F32_TENSOR(4, DIMS(1, 6, 8, 4), NULL, 0),
		F32_TENSOR(1, DIMS(4), alpha, sizeof(alpha)),
		F32_TENSOR(4, DIMS(1, 6, 8, 4), NULL, 0),
		F32_TENSOR(4, DIMS(1, 12, 16, 1), NULL, 0),
		F32_TENSOR(4, DIMS(1, 12, 16, 1), NULL, 0),
		{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { 2 },
		  .data = size, .data_size = sizeof(size) },
		F32_TENSOR(4, DIMS(1, 5, 7, 1), NULL, 0),
	};
	const cf_opcode_desc codes[5] = {
		{ OPVER_OP_TRANSPOSE_CONV, 1, NULL },
		{ OPVER_OP_PRELU, 1, NULL },
		{ OPVER_OP_DEPTH_TO_SPACE, 1, NULL }, { OPVER_OP_ELU, 1, NULL },
		{ OPVER_OP_RESIZE_BILINEAR, 3, NULL },
	};
	const opver_transpose_conv_params tc = {
		.padding = OPVER_PADDING_SAME, .stride_width = 2,
		.stride_height = 2,
	};
	const opver_space_depth_params d2s = { .block_size = 2 };
	const opver_resize_bilinear_params rs = { .half_pixel_centers = 1 };
	const int32_t tc_in[3] = { 1, 2, 0 }, tc_out[1] = { 3 };
	const int32_t pr_in[2] = { 3, 4 }, pr_out[1] = { 5 };
	const int32_t ds_in[1] = { 5 }, ds_out[1] = { 6 };
	const int32_t el_in[1] = { 6 }, el_out[1] = { 7 };
	const int32_t rs_in[2] = { 7, 8 }, rs_out[1] = { 9 };
	const cf_operator_desc ops[5] = {
		{ 0, tc_in, 3, tc_out, 1, &tc, NULL, 0 },
		{ 1, pr_in, 2, pr_out, 1, NULL, NULL, 0 },
		{ 2, ds_in, 1, ds_out, 1, &d2s, NULL, 0 },
		{ 3, el_in, 1, el_out, 1, NULL, NULL, 0 },
		{ 4, rs_in, 2, rs_out, 1, &rs, NULL, 0 },
	};
	const int32_t inputs[1] = { 0 }, outputs[1] = { 9 };
	const cf_model_desc desc = { tensors, 10, codes, 5, ops, 5,
				     inputs, 1, outputs, 1 };

	require_plugin();
	for (size_t i = 0; i < sizeof(filter) / sizeof(filter[0]); i++)
		filter[i] = (float)((int)(i * 29 % 17) - 8) / 8.0f;
	compare(&desc, 0x1f, NULL);
}
