/*
 * conv.h - one node the delegate claims (int8 CONV_2D, DEPTHWISE_CONV_2D
 * and FULLY_CONNECTED, float32 CONV_2D) as a oneDNN convolution
 * primitive, made at prepare with its filter reordered once into the
 * layout the primitive chose; its input and output memory bound to the
 * core's tensors before the first invoke.
 */
#ifndef OPVER_ONEDNN_CONV_H
#define OPVER_ONEDNN_CONV_H

#include <oneapi/dnnl/dnnl.h>

#include <opver/plugin.h>

typedef struct dn_conv {
	dnnl_primitive_t primitive;     /* owned */
	/* Owned; bias NULL for a node without one.  weights holds the
	 * reordered filter, bias points at the model's constant. */
	dnnl_memory_t src, weights, bias, dst;
	/* The core's; their data is bound at dn_conv_bind(). */
	const opver_tensor *input, *output;
	const char *implementation;     /* oneDNN's, e.g. "brgconv:avx512_core_vnni" */
} dn_conv;

/* Makes `conv` (zeroed by the caller) for `node`, which dn_refusal()
 * accepted, on `engine`, reordering the filter on `stream`.  Reports and
 * fails with oneDNN's status when oneDNN refuses; dn_conv_destroy() frees
 * what was made either way. */
opver_status dn_conv_create(const opver_context *ctx, dnnl_engine_t engine,
			    dnnl_stream_t stream, const opver_node *node,
			    dn_conv *conv);

/* Points the primitive's input and output at the tensors' current data. */
opver_status dn_conv_bind(const opver_context *ctx, dn_conv *conv);

/* Queues the convolution on `stream`. */
opver_status dn_conv_execute(const opver_context *ctx, const dn_conv *conv,
			     dnnl_stream_t stream);

void dn_conv_destroy(dn_conv *conv);

#endif /* OPVER_ONEDNN_CONV_H */
