/* window.c - a spatial op's padding and input window, in words. */
#include <inttypes.h>

#include "window.h"

/* One spatial axis of a node: sizes, window and the padding before and
 * after it. */
typedef struct axis {
	int32_t in, out, filter, stride, dilation;
	int32_t before, after;
} axis;

/* TFLite's padding of a window of `filter` taps (dilated) sliding over
 * `in` to give `out` outputs: the total the outputs need beyond the
 * input, its odd unit after. */
static void resolve(axis *a)
{
	int32_t total = (a->out - 1) * a->stride +
			(a->filter - 1) * a->dilation + 1 - a->in;

	if (total < 0)
		total = 0;
	a->before = total / 2;
	a->after = total - a->before;
}

/* The spatial axes of the case (height, width) and its forward input
 * (the one the window slides over); false for an op without them. */
static bool axes(const cf_case *c, axis *height, axis *width,
		 opver_padding *padding, bool *transposed)
{
	const cf_tensor_desc *out = &c->tensors[c->output];
	const cf_tensor_desc *in = NULL;
	int32_t filter_height, filter_width;

	*transposed = false;
	*height = (axis){ .dilation = 1 };
	*width = (axis){ .dilation = 1 };
	switch (c->op) {
	case OPVER_OP_CONV_2D:
	case OPVER_OP_DEPTHWISE_CONV_2D: {
		const cf_tensor_desc *f = &c->tensors[c->inputs[1]];
		bool conv = c->op == OPVER_OP_CONV_2D;

		in = &c->tensors[c->inputs[0]];
		filter_height = f->dims[1];
		filter_width = f->dims[2];
		*padding = conv ? c->params.conv.padding :
				  c->params.depthwise.padding;
		height->stride = conv ? c->params.conv.stride_height :
					c->params.depthwise.stride_height;
		width->stride = conv ? c->params.conv.stride_width :
				       c->params.depthwise.stride_width;
		height->dilation = conv ? c->params.conv.dilation_height :
					  c->params.depthwise.dilation_height;
		width->dilation = conv ? c->params.conv.dilation_width :
					 c->params.depthwise.dilation_width;
		break;
	}
	case OPVER_OP_AVERAGE_POOL_2D:
	case OPVER_OP_MAX_POOL_2D:
	case OPVER_OP_L2_POOL_2D:
		in = &c->tensors[c->inputs[0]];
		filter_height = c->params.pool.filter_height;
		filter_width = c->params.pool.filter_width;
		*padding = c->params.pool.padding;
		height->stride = c->params.pool.stride_height;
		width->stride = c->params.pool.stride_width;
		break;
	case OPVER_OP_TRANSPOSE_CONV: {
		const cf_tensor_desc *f = &c->tensors[c->inputs[1]];

		/* The window slides over the output, giving the input. */
		in = out;
		out = &c->tensors[c->inputs[2]];
		filter_height = f->dims[1];
		filter_width = f->dims[2];
		*padding = c->params.transpose_conv.padding;
		height->stride = c->params.transpose_conv.stride_height;
		width->stride = c->params.transpose_conv.stride_width;
		*transposed = true;
		break;
	}
	default:
		return false;
	}
	if (in->rank != 4 || out->rank != 4)
		return false;
	height->in = in->dims[1];
	height->out = out->dims[1];
	height->filter = filter_height;
	width->in = in->dims[2];
	width->out = out->dims[2];
	width->filter = filter_width;
	if (*padding == OPVER_PADDING_SAME) {
		resolve(height);
		resolve(width);
	}
	return true;
}

/* The input indices output `index` reads along an axis, "2..4" (every
 * dilation-th), and whether the window reaches into the padding. */
static void add_span(cf_text *t, const axis *a, int32_t index, bool *padded)
{
	int32_t first = index * a->stride - a->before;
	int32_t last = first + (a->filter - 1) * a->dilation;

	cf_text_add(t, "%" PRId32 "..%" PRId32, first, last);
	if (a->dilation > 1)
		cf_text_add(t, " every %" PRId32, a->dilation);
	*padded = *padded || first < 0 || last >= a->in;
}

/* TRANSPOSE_CONV: the input indices whose window covers output `index`
 * along an axis (ceil((index + before - filter + 1) / stride) to
 * floor((index + before) / stride), within the input). */
static void add_transposed_span(cf_text *t, const axis *a, int32_t index)
{
	int32_t top = index + a->before;
	int32_t first = top - a->filter + 1;
	int32_t last = top / a->stride;

	first = first <= 0 ? 0 : (first + a->stride - 1) / a->stride;
	if (last > a->out - 1)
		last = a->out - 1;
	if (first > last)
		cf_text_add(t, "none");
	else
		cf_text_add(t, "%" PRId32 "..%" PRId32, first, last);
}

bool cf_describe_window(cf_text *t, const cf_case *c, size_t element)
{
	const cf_tensor_desc *out = &c->tensors[c->output];
	axis height, width;
	opver_padding padding;
	bool transposed, padded = false;
	int32_t y, x;
	size_t pixel;

	if (!axes(c, &height, &width, &padding, &transposed))
		return false;
	cf_text_add(t, "padding: top %" PRId32 " bottom %" PRId32 " left %" PRId32 " right %" PRId32 " (%s; total %" PRId32 " rows, %" PRId32 " columns)\n",
		    height.before, height.after, width.before, width.after,
		    cf_padding_name(padding), height.before + height.after,
		    width.before + width.after);
	if (height.after > height.before || width.after > width.before)
		cf_text_add(t, "an odd padding total puts its extra row at the bottom, its extra column at the right\n");
	if (out->dims[3] <= 0 || out->dims[2] <= 0 || out->dims[1] <= 0)
		return true;
	pixel = element / (size_t)out->dims[3];
	x = (int32_t)(pixel % (size_t)out->dims[2]);
	y = (int32_t)(pixel / (size_t)out->dims[2] % (size_t)out->dims[1]);
	cf_text_add(t, "window of the first differing element: input rows ");
	if (transposed) {
		add_transposed_span(t, &height, y);
		cf_text_add(t, ", columns ");
		add_transposed_span(t, &width, x);
		cf_text_add(t, " (of %" PRId32 "x%" PRId32 ") contribute to output row %" PRId32 ", column %" PRId32 "\n",
			    height.out, width.out, y, x);
		return true;
	}
	add_span(t, &height, y, &padded);
	cf_text_add(t, ", columns ");
	add_span(t, &width, x, &padded);
	cf_text_add(t, " (of 0..%" PRId32 " x 0..%" PRId32 ")%s\n",
		    height.in - 1, width.in - 1,
		    padded ? "; it reaches into the padding" : "");
	return true;
}
