/*
 * conv.c - a node's convolution geometry (geometry.h) as a oneDNN
 * convolution: NHWC source and destination as the model lays them out,
 * the model's filter reordered once into the blocked layout the primitive
 * picks, the fused activation as a clip post-op.  For int8, TFLite's
 * quantization becomes attributes: the input and output zero points, one
 * output scale per channel (input scale * filter scale / output scale),
 * and the clip in the output's steps before the zero point is added
 * (oneDNN applies scales, post-ops, zero point, then rounds and
 * saturates; the clip bounds are whole steps, so clipping before rounding
 * equals TFLite's clamp after it).
 */
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "claims.h"
#include "conv.h"
#include "geometry.h"

static opver_status failed(const opver_context *ctx, const opver_node *node,
			   const char *what, dnnl_status_t status)
{
	OPVER_REPORT(ctx, "node %d (%s): oneDNN %s failed (status %d)",
		     (int)node->index, ctx->host->op_name(node->op), what,
		     (int)status);
	return status == dnnl_out_of_memory ? OPVER_ERROR_NOMEM : OPVER_ERROR;
}

#define TRY(what, call)                                          \
	do {                                                     \
		dnnl_status_t s_ = (call);                       \
		if (s_ != dnnl_success) {                        \
			status = failed(ctx, node, (what), s_);  \
			goto out;                                \
		}                                                \
	} while (0)

/* The activation as a clip post-op, in the output's steps relative to
 * its zero point for int8; nothing when it leaves every value be. */
static opver_status set_clip(const opver_context *ctx, const opver_node *node,
			     const dn_geometry *g, dnnl_primitive_attr_t attr)
{
	opver_status status = OPVER_OK;
	dnnl_post_ops_t post_ops = NULL;
	float lo, hi;

	if (g->output->type == OPVER_TYPE_INT8) {
		int32_t qmin, qmax;
		int32_t zero = (int32_t)g->output->quant.zero_point[0];

		dn_activation_range(g->activation, g->output, &qmin, &qmax);
		lo = qmin > INT8_MIN ? (float)(qmin - zero) : -INFINITY;
		hi = qmax < INT8_MAX ? (float)(qmax - zero) : INFINITY;
	} else {
		dn_activation_bounds(g->activation, &lo, &hi);
	}
	if (isinf(lo) && isinf(hi))
		return OPVER_OK;
	TRY("post-ops", dnnl_post_ops_create(&post_ops));
	TRY("clip post-op",
	    dnnl_post_ops_append_eltwise(post_ops, 1.0f, dnnl_eltwise_clip,
					 isinf(lo) ? -FLT_MAX : lo,
					 isinf(hi) ? FLT_MAX : hi));
	TRY("post-ops attribute",
	    dnnl_primitive_attr_set_post_ops(attr, post_ops));
out:
	if (post_ops != NULL)
		dnnl_post_ops_destroy(post_ops);
	return status;
}

/* Output scales and zero points. */
static opver_status set_quantization(const opver_context *ctx,
				     const opver_node *node,
				     const dn_geometry *g,
				     dnnl_primitive_attr_t attr)
{
	const opver_tensor *in = g->input, *filter = g->filter;
	const opver_tensor *out = g->output;
	int32_t count = filter->quant.count;
	int32_t in_zero = (int32_t)in->quant.zero_point[0];
	int32_t out_zero = (int32_t)out->quant.zero_point[0];
	opver_status status = OPVER_OK;
	float *scales;

	scales = ctx->host->allocate(ctx, (size_t)count * sizeof(float));
	if (scales == NULL)
		return OPVER_ERROR_NOMEM;
	/* In double, as TFLite derives its multipliers. */
	for (int32_t c = 0; c < count; c++)
		scales[c] = (float)((double)in->quant.scale[0] *
				    filter->quant.scale[c] /
				    out->quant.scale[0]);
	TRY("output scales",
	    dnnl_primitive_attr_set_output_scales(attr, count,
						  count > 1 ? 1 << 1 : 0,
						  scales));
	TRY("input zero point",
	    dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_SRC, 1, 0,
						&in_zero));
	TRY("output zero point",
	    dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_DST, 1, 0,
						&out_zero));
out:
	ctx->host->free_memory(ctx, scales);
	return status;
}

/* oneDNN's type of the node's data and of its bias. */
static dnnl_data_type_t data_type(const dn_geometry *g)
{
	return g->input->type == OPVER_TYPE_INT8 ? dnnl_s8 : dnnl_f32;
}

static dnnl_data_type_t bias_type(const dn_geometry *g)
{
	return g->input->type == OPVER_TYPE_INT8 ? dnnl_s32 : dnnl_f32;
}

/* The convolution's descriptor over NHWC tensors, the filter's layout left
 * to oneDNN. */
static dnnl_status_t describe(const dn_geometry *g,
			      dnnl_convolution_desc_t *desc)
{
	dnnl_memory_desc_t src, weights, bias, dst;
	dnnl_dims_t src_dims = { g->batches, g->in_channels, g->rows.in,
				 g->cols.in };
	dnnl_dims_t bias_dims = { g->out_channels };
	dnnl_dims_t dst_dims = { g->batches, g->out_channels, g->rows.out,
				 g->cols.out };
	dnnl_dims_t strides = { g->rows.stride, g->cols.stride };
	/* oneDNN counts dilation from 0, TFLite from 1. */
	dnnl_dims_t dilates = { g->rows.dilation - 1, g->cols.dilation - 1 };
	dnnl_dims_t pad_l = { g->rows.pad_before, g->cols.pad_before };
	dnnl_dims_t pad_r = { g->rows.pad_after, g->cols.pad_after };
	dnnl_status_t s;

	if ((s = dnnl_memory_desc_init_by_tag(&src, 4, src_dims,
					      data_type(g), dnnl_nhwc)) !=
		    dnnl_success ||
	    (s = dnnl_memory_desc_init_by_tag(&weights, g->weight_ndims,
					      g->weight_dims, data_type(g),
					      dnnl_format_tag_any)) !=
		    dnnl_success ||
	    (s = dnnl_memory_desc_init_by_tag(&bias, 1, bias_dims,
					      bias_type(g), dnnl_a)) !=
		    dnnl_success ||
	    (s = dnnl_memory_desc_init_by_tag(&dst, 4, dst_dims,
					      data_type(g), dnnl_nhwc)) !=
		    dnnl_success)
		return s;
	return dnnl_dilated_convolution_forward_desc_init(
		desc, dnnl_forward_inference, dnnl_convolution_direct, &src,
		&weights, g->bias != NULL ? &bias : NULL, &dst, strides,
		dilates, pad_l, pad_r);
}

/* The model's filter, reordered into `conv->weights` (the layout `pd`
 * chose), on one OpenMP thread; OpenMP's thread count is restored. */
static opver_status reorder_filter(const opver_context *ctx,
				   const opver_node *node,
				   const dn_geometry *g, dnnl_engine_t engine,
				   dnnl_stream_t stream,
				   const_dnnl_primitive_desc_t pd,
				   dn_conv *conv)
{
	const dnnl_memory_desc_t *chosen =
		dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
	dnnl_memory_desc_t model_md;
	dnnl_memory_t model = NULL;
	dnnl_primitive_desc_t reorder_pd = NULL;
	dnnl_primitive_t reorder = NULL;
	opver_status status = OPVER_OK;
	int threads = omp_get_max_threads();

	/* On one thread: a filter is small, and where the CPUs are busy an
	 * OpenMP region of two threads waits for the second to be scheduled
	 * (a two-thread person_detect was created in 11-545 ms, 4.5-9 so). */
	omp_set_num_threads(1);
	TRY("filter layout",
	    dnnl_memory_desc_init_by_strides(&model_md, g->weight_ndims,
					     g->weight_dims, data_type(g),
					     g->weight_strides));
	/* The model's bytes are only read. */
	TRY("filter memory",
	    dnnl_memory_create(&model, &model_md, engine, g->filter->data));
	TRY("reordered filter memory",
	    dnnl_memory_create(&conv->weights, chosen, engine,
			       DNNL_MEMORY_ALLOCATE));
	TRY("filter reorder",
	    dnnl_reorder_primitive_desc_create(&reorder_pd, &model_md, engine,
					       chosen, engine, NULL));
	TRY("filter reorder", dnnl_primitive_create(&reorder, reorder_pd));
	{
		dnnl_exec_arg_t args[] = { { DNNL_ARG_FROM, model },
					   { DNNL_ARG_TO, conv->weights } };

		TRY("filter reorder",
		    dnnl_primitive_execute(reorder, stream, 2, args));
		TRY("filter reorder", dnnl_stream_wait(stream));
	}
out:
	omp_set_num_threads(threads);
	if (reorder != NULL)
		dnnl_primitive_destroy(reorder);
	if (reorder_pd != NULL)
		dnnl_primitive_desc_destroy(reorder_pd);
	if (model != NULL)
		dnnl_memory_destroy(model);
	return status;
}

/* oneDNN's name for the code `primitive` runs; it lives as long as the
 * primitive. */
static const char *implementation_of(const_dnnl_primitive_t primitive)
{
	const_dnnl_primitive_desc_t pd;
	const char *name;

	if (dnnl_primitive_get_primitive_desc(primitive, &pd) !=
		    dnnl_success ||
	    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0,
				      &name) != dnnl_success)
		return "unknown";
	return name;
}

opver_status dn_conv_create(const opver_context *ctx, dnnl_engine_t engine,
			    dnnl_stream_t stream, const opver_node *node,
			    dn_conv *conv)
{
	char reason[160];
	dn_geometry g;
	dnnl_convolution_desc_t desc;
	dnnl_primitive_attr_t attr = NULL;
	dnnl_primitive_desc_t pd = NULL;
	opver_status status = OPVER_OK;

	if (dn_geometry_of(node, &g, reason, sizeof(reason)) != NULL) {
		OPVER_REPORT(ctx, "node %d: %s", (int)node->index, reason);
		return OPVER_ERROR;
	}
	conv->input = g.input;
	conv->output = g.output;
	TRY("convolution descriptor", describe(&g, &desc));
	TRY("attributes", dnnl_primitive_attr_create(&attr));
	if (g.input->type == OPVER_TYPE_INT8)
		status = set_quantization(ctx, node, &g, attr);
	if (status == OPVER_OK)
		status = set_clip(ctx, node, &g, attr);
	if (status != OPVER_OK)
		goto out;
	TRY("convolution", dnnl_primitive_desc_create(&pd, &desc, attr,
						      engine, NULL));
	TRY("convolution", dnnl_primitive_create(&conv->primitive, pd));
	conv->implementation = implementation_of(conv->primitive);
	TRY("input memory",
	    dnnl_memory_create(&conv->src,
			       dnnl_primitive_desc_query_md(
				       pd, dnnl_query_src_md, 0),
			       engine, DNNL_MEMORY_NONE));
	TRY("output memory",
	    dnnl_memory_create(&conv->dst,
			       dnnl_primitive_desc_query_md(
				       pd, dnnl_query_dst_md, 0),
			       engine, DNNL_MEMORY_NONE));
	/* The model's bias is only read. */
	if (g.bias != NULL)
		TRY("bias memory",
		    dnnl_memory_create(&conv->bias,
				       dnnl_primitive_desc_query_md(
					       pd, dnnl_query_weights_md, 1),
				       engine, g.bias->data));
	status = reorder_filter(ctx, node, &g, engine, stream, pd, conv);
out:
	if (pd != NULL)
		dnnl_primitive_desc_destroy(pd);
	if (attr != NULL)
		dnnl_primitive_attr_destroy(attr);
	return status;
}

opver_status dn_conv_bind(const opver_context *ctx, dn_conv *conv)
{
	if (dnnl_memory_set_data_handle(conv->src, conv->input->data) !=
		    dnnl_success ||
	    dnnl_memory_set_data_handle(conv->dst, conv->output->data) !=
		    dnnl_success) {
		OPVER_REPORT(ctx, "oneDNN could not take the tensors' memory");
		return OPVER_ERROR;
	}
	return OPVER_OK;
}

opver_status dn_conv_execute(const opver_context *ctx, const dn_conv *conv,
			     dnnl_stream_t stream)
{
	dnnl_exec_arg_t args[] = {
		{ DNNL_ARG_SRC, conv->src },
		{ DNNL_ARG_WEIGHTS, conv->weights },
		{ DNNL_ARG_DST, conv->dst },
		{ DNNL_ARG_BIAS, conv->bias },
	};
	dnnl_status_t s = dnnl_primitive_execute(conv->primitive, stream,
						 conv->bias != NULL ? 4 : 3,
						 args);

	if (s != dnnl_success) {
		OPVER_REPORT(ctx, "oneDNN convolution failed (status %d)",
			     (int)s);
		return OPVER_ERROR;
	}
	return OPVER_OK;
}

void dn_conv_destroy(dn_conv *conv)
{
	dnnl_memory_t memories[] = { conv->src, conv->weights, conv->bias,
				     conv->dst };

	for (size_t m = 0; m < sizeof(memories) / sizeof(memories[0]); m++)
		if (memories[m] != NULL)
			dnnl_memory_destroy(memories[m]);
	if (conv->primitive != NULL)
		dnnl_primitive_destroy(conv->primitive);
}
