/*
 * kernels.h - the reference plugin's kernels, one opver_kernel per op and
 * type combination, each defined in its op's file and listed by plugin.c,
 * plus the small helpers every kernel file uses to read its node.  All of it
 * is internal to the plugin (hidden by -fvisibility=hidden).
 */
#ifndef OPVER_REFERENCE_KERNELS_H
#define OPVER_REFERENCE_KERNELS_H

#include <stddef.h>

#include <opver/plugin.h>

/* Default priority of every reference kernel: the lowest, so that any other
 * plugin's kernel for the same node is preferred and this one is the
 * fallback. */
#define REF_PRIORITY 0

/* add.c */
extern const opver_kernel ref_add_float32;
extern const opver_kernel ref_add_int8;
extern const opver_kernel ref_add_int16;

/* conv.c */
extern const opver_kernel ref_conv_2d_float32;
extern const opver_kernel ref_conv_2d_int8;
extern const opver_kernel ref_conv_2d_hybrid;
extern const opver_kernel ref_conv_2d_int16x8;

/* depthwise_conv.c */
extern const opver_kernel ref_depthwise_conv_2d_float32;
extern const opver_kernel ref_depthwise_conv_2d_int8;

/* dequantize.c */
extern const opver_kernel ref_dequantize_int8_float32;
extern const opver_kernel ref_dequantize_int16_float32;

/* fully_connected.c */
extern const opver_kernel ref_fully_connected_float32;
extern const opver_kernel ref_fully_connected_int8;
extern const opver_kernel ref_fully_connected_hybrid;

/* mul.c */
extern const opver_kernel ref_mul_float32;
extern const opver_kernel ref_mul_int8;
extern const opver_kernel ref_mul_int16;

/* quantize.c */
extern const opver_kernel ref_quantize_float32_int8;
extern const opver_kernel ref_quantize_float32_int16;
extern const opver_kernel ref_quantize_int8_int8;
extern const opver_kernel ref_quantize_int16_int8;
extern const opver_kernel ref_quantize_int8_int16;
extern const opver_kernel ref_quantize_int16_int16;

/*
 * For per-element helpers called from kernel loops: inlined even where the
 * compiler's size heuristics would keep a call, which would stop the loop
 * around them from being vectorized.
 */
#if defined(__GNUC__)
#define REF_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define REF_ALWAYS_INLINE inline
#endif

/* pooling.c */
extern const opver_kernel ref_average_pool_2d_float32;
extern const opver_kernel ref_average_pool_2d_int8;
extern const opver_kernel ref_average_pool_2d_int16;
extern const opver_kernel ref_max_pool_2d_float32;
extern const opver_kernel ref_max_pool_2d_int8;
extern const opver_kernel ref_max_pool_2d_int16;

/* reshape.c */
extern const opver_kernel ref_reshape;

/* softmax.c */
extern const opver_kernel ref_softmax_float32;
extern const opver_kernel ref_softmax_int8;
extern const opver_kernel ref_softmax_int16;

/*
 * True when the core filled `field` of the node's parameter struct `type`.
 * A field it did not fill (an older core, or a model older than the field's
 * op version) must be read as the default documented in ops.h.
 */
#define REF_PARAM_PRESENT(node, type, field)                            \
	((node)->params != NULL &&                                       \
	 (node)->params_size >=                                          \
		 offsetof(type, field) + sizeof(((const type *)0)->field))

/* The name of a tensor type, for messages. */
static inline const char *ref_type_name(opver_type type)
{
	switch (type) {
#define REF_TYPE_NAME(name, value, size) \
	case OPVER_TYPE_##name:          \
		return #name;
		OPVER_TYPE_MAP(REF_TYPE_NAME)
#undef REF_TYPE_NAME
	default:
		return "UNKNOWN";
	}
}

#endif /* OPVER_REFERENCE_KERNELS_H */
