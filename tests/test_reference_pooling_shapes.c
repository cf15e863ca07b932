/*
 * test_reference_pooling_shapes.c - the pools on random shapes against a
 * naive reference written here.
 */
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "pool_harness.h"

/* ------------------------------------------- random shapes, naive check */

TestSuite(pool_shapes, .init = setup, .fini = teardown);

struct shape_case {
	int32_t n, h, w, c;
	int32_t filter_h, filter_w, stride_h, stride_w;
	opver_padding padding;
};

ParameterizedTestParameters(pool_shapes, match_a_naive_reference)
{
	static struct shape_case cases[] = {
		{ 1, 5, 5, 1, 3, 3, 1, 1, OPVER_PADDING_SAME },
		{ 2, 7, 6, 3, 3, 2, 2, 2, OPVER_PADDING_SAME },
		{ 1, 8, 8, 4, 2, 2, 2, 2, OPVER_PADDING_VALID },
		{ 3, 9, 4, 5, 4, 3, 3, 1, OPVER_PADDING_VALID },
		{ 1, 6, 10, 16, 5, 5, 2, 3, OPVER_PADDING_SAME },
		{ 2, 1, 9, 2, 1, 4, 1, 2, OPVER_PADDING_SAME },
		{ 1, 12, 12, 7, 12, 12, 1, 1, OPVER_PADDING_VALID },
		{ 1, 5, 7, 33, 7, 7, 1, 1, OPVER_PADDING_SAME },
		{ 1, 10, 3, 1, 2, 1, 4, 4, OPVER_PADDING_SAME },
	};

	return cr_make_param_array(struct shape_case, cases, COUNT(cases));
}

/* TFLite's output size and leading padding for one dimension. */
static int32_t out_size(opver_padding padding, int32_t in, int32_t filter,
			int32_t stride)
{
	return padding == OPVER_PADDING_SAME
		       ? (in + stride - 1) / stride
		       : (in - filter + stride) / stride;
}

static int32_t pad_before(int32_t in, int32_t filter, int32_t stride,
			  int32_t out)
{
	const int32_t total = (out - 1) * stride + filter - in;

	return total > 0 ? total / 2 : 0;
}

/* Every filter tap of one output element, tested against the input's
 * bounds: the sum (a double), count and maximum of the taps inside. */
static void naive_window(const struct shape_case *s, const double *x,
			 int32_t n, int32_t top, int32_t left, int32_t c,
			 double *sum, double *max, int32_t *count)
{
	*sum = 0.0;
	*max = -INFINITY;
	*count = 0;
	for (int32_t fy = 0; fy < s->filter_h; fy++) {
		for (int32_t fx = 0; fx < s->filter_w; fx++) {
			const int32_t iy = top + fy, ix = left + fx;
			double v;

			if (iy < 0 || iy >= s->h || ix < 0 || ix >= s->w)
				continue;
			v = x[((n * s->h + iy) * s->w + ix) * s->c + c];
			*sum += v;
			*max = fmax(*max, v);
			(*count)++;
		}
	}
}

/* Channel by channel, output element by output element. */
static void naive_pool(const struct shape_case *s, const double *x,
		       int32_t oh, int32_t ow, double *sums, double *maxima,
		       int32_t *counts)
{
	const int32_t ph = pad_before(s->h, s->filter_h, s->stride_h, oh);
	const int32_t pw = pad_before(s->w, s->filter_w, s->stride_w, ow);

	for (int32_t c = 0; c < s->c; c++) {
		for (int32_t n = 0; n < s->n; n++) {
			for (int32_t y = 0; y < oh; y++) {
				for (int32_t xo = 0; xo < ow; xo++) {
					const size_t o =
						(((size_t)n * oh + y) * ow +
						 xo) * s->c + c;

					naive_window(s, x, n,
						     y * s->stride_h - ph,
						     xo * s->stride_w - pw, c,
						     &sums[o], &maxima[o],
						     &counts[o]);
				}
			}
		}
	}
}

ParameterizedTest(struct shape_case *s, pool_shapes, match_a_naive_reference)
{
	enum { MAX_IN = 2048, MAX_OUT = 2048 };
	const int32_t oh = out_size(s->padding, s->h, s->filter_h, s->stride_h);
	const int32_t ow = out_size(s->padding, s->w, s->filter_w, s->stride_w);
	const size_t n_in = (size_t)s->n * s->h * s->w * s->c;
	const size_t n_out = (size_t)s->n * oh * ow * s->c;
	static double x[MAX_IN], sums[MAX_OUT], maxima[MAX_OUT];
	static int32_t counts[MAX_OUT];
	static float xf[MAX_IN], want_f[MAX_OUT], want_max_f[MAX_OUT];
	static int8_t x8[MAX_IN];
	static int16_t x16[MAX_IN];
	static int32_t want_q[MAX_OUT], want_max_q[MAX_OUT];
	opver_pool_params p = pool_params(s->padding, s->filter_h, s->filter_w,
					  s->stride_h, s->stride_w,
					  OPVER_ACTIVATION_NONE);

	cr_assert(n_in <= MAX_IN && n_out <= MAX_OUT, "%zu %zu", n_in, n_out);
	for (int pass = 0; pass < 3; pass++) {
		const opver_type type = pass == 0   ? OPVER_TYPE_FLOAT32
					: pass == 1 ? OPVER_TYPE_INT8
						    : OPVER_TYPE_INT16;
		const int32_t range = pass == 2 ? 65536 : 256;
		const void *data = pass == 0   ? (const void *)xf
				   : pass == 1 ? (const void *)x8
					       : (const void *)x16;
		opver_tensor *in, *avg_out, *max_out;

		/* values spread over the type's range (int8's for float) */
		for (size_t i = 0; i < n_in; i++) {
			const int32_t v = (int32_t)((i * 2654435761u) %
						    (uint32_t)range) -
					  range / 2;

			x[i] = v;
			xf[i] = (float)v;
			if (pass == 1)
				x8[i] = (int8_t)v;
			if (pass == 2)
				x16[i] = (int16_t)v;
		}
		naive_pool(s, x, oh, ow, sums, maxima, counts);
		for (size_t o = 0; o < n_out; o++) {
			/* float: the integer sum is exact, divided in float
			 * as TFLite; integers: rounded half away from 0 */
			want_f[o] = (float)sums[o] / (float)counts[o];
			want_max_f[o] = (float)maxima[o];
			want_q[o] = (int32_t)round(sums[o] / counts[o]);
			want_max_q[o] = (int32_t)maxima[o];
		}
		in = kh_tensor(&h, "input", type, KH_DIMS(s->n, s->h, s->w, s->c),
			       data);
		if (type != OPVER_TYPE_FLOAT32)
			kh_quantize(&h, in, 0.5f, 3);
		run_both_pools(&p, in, KH_DIMS(s->n, oh, ow, s->c), &avg_out,
			       &max_out);
		if (type == OPVER_TYPE_FLOAT32) {
			expect_floats(avg_out, want_f, n_out);
			expect_floats(max_out, want_max_f, n_out);
		} else {
			expect_ints(avg_out, want_q, n_out);
			expect_ints(max_out, want_max_q, n_out);
		}
	}
}
