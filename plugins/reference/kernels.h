/*
 * kernels.h - the reference plugin's kernels, one opver_kernel per op and
 * type combination, each defined in its op's file and listed by plugin.c,
 * plus the macros that keep each manifest entry to a few lines.  All of it
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

/*
 * What every reference kernel's manifest entry says after OPVER_KERNEL():
 * the fallback priority, and stateless, since what a node needs lives in
 * its op_data, its persistent memory and its arena scratch.
 */
#define REF_KERNEL_TRAITS .priority = REF_PRIORITY, \
			  .flags = OPVER_KERNEL_STATELESS

/*
 * A manifest entry's type signatures, listed in place (a static array of
 * the entry's own):
 *   REF_SIGNATURES(REF_UNARY_SIGNATURE(INT8, FLOAT32)),
 * Kernels whose prepare checks types read them back from their entry, so
 * that the manifest says once what a kernel takes.
 */
#define REF_SIGNATURES(...)                                     \
	OPVER_KERNEL_SIGNATURES(((const opver_type_signature[]){ \
		__VA_ARGS__ }))

/* The type signatures of one-input ops (`in` to `out`) and of elementwise
 * binary ops (both inputs and the output of `type`), by type name: INT8. */
#define REF_UNARY_SIGNATURE(in, out) \
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(in)), OPVER_OUTPUT(OPVER_T(out)))
#define REF_BINARY_SIGNATURE(type)                                 \
	OPVER_SIGNATURE(OPVER_INPUTS(OPVER_T(type), OPVER_T(type)), \
			OPVER_OUTPUT(OPVER_T(type)))

/* activation_lut.c: float32, and an 8-bit lookup-table kernel each;
 * LOGISTIC and TANH also int16 */
extern const opver_kernel ref_logistic_float32;
extern const opver_kernel ref_logistic_lut8;
extern const opver_kernel ref_logistic_int16;
extern const opver_kernel ref_tanh_float32;
extern const opver_kernel ref_tanh_lut8;
extern const opver_kernel ref_tanh_int16;
extern const opver_kernel ref_elu_float32;
extern const opver_kernel ref_elu_lut8;
extern const opver_kernel ref_gelu_float32;
extern const opver_kernel ref_gelu_lut8;

/* add_sub.c */
extern const opver_kernel ref_add_float32;
extern const opver_kernel ref_add_int32;
extern const opver_kernel ref_add_int64;
extern const opver_kernel ref_add_uint8;
extern const opver_kernel ref_add_int8;
extern const opver_kernel ref_add_int16;

/* broadcast_to.c */
extern const opver_kernel ref_broadcast_to;
/* broadcast_args.c */
extern const opver_kernel ref_broadcast_args;
/* cumsum.c */
extern const opver_kernel ref_cumsum;
/* svdf.c */
extern const opver_kernel ref_svdf;
extern const opver_kernel ref_svdf_hybrid;
/* sequence_rnn.c, sequence_lstm.c */
extern const opver_kernel ref_sequence_rnn;
extern const opver_kernel ref_sequence_rnn_hybrid;
extern const opver_kernel ref_sequence_lstm;
extern const opver_kernel ref_sequence_lstm_hybrid;
/* sequence_lstm_int8.c */
extern const opver_kernel ref_sequence_lstm_int8;
/* embedding_lookup.c */
extern const opver_kernel ref_embedding_lookup;

/* cast.c */
extern const opver_kernel ref_cast;
/* batch_matmul.c */
extern const opver_kernel ref_batch_matmul_float32;
extern const opver_kernel ref_batch_matmul_hybrid;
extern const opver_kernel ref_batch_matmul_int8;
extern const opver_kernel ref_batch_matmul_int16;

/* detection_postprocess.c: the custom op TFLite_Detection_PostProcess */
extern const opver_kernel ref_detection_postprocess;

/* conv.c */
extern const opver_kernel ref_conv_2d_float32;
extern const opver_kernel ref_conv_2d_int8;
extern const opver_kernel ref_conv_2d_hybrid;
extern const opver_kernel ref_conv_2d_int16x8;
extern const opver_kernel ref_conv_2d_uint8;

/* depthwise_conv.c */
extern const opver_kernel ref_depthwise_conv_2d_float32;
extern const opver_kernel ref_depthwise_conv_2d_int8;
extern const opver_kernel ref_depthwise_conv_2d_uint8;
extern const opver_kernel ref_depthwise_conv_2d_int16x8;

/* dequantize.c */
extern const opver_kernel ref_dequantize_int8_float32;
extern const opver_kernel ref_dequantize_int16_float32;
extern const opver_kernel ref_dequantize_uint8_float32;
extern const opver_kernel ref_dequantize_float16_float32;

/* div.c */
extern const opver_kernel ref_div_float32;
extern const opver_kernel ref_div_int32;
extern const opver_kernel ref_div_uint8;

/* fill.c */
extern const opver_kernel ref_fill;
extern const opver_kernel ref_zeros_like;

/* fully_connected.c */
extern const opver_kernel ref_fully_connected_float32;
extern const opver_kernel ref_fully_connected_int8;
extern const opver_kernel ref_fully_connected_hybrid;
extern const opver_kernel ref_fully_connected_uint8;
extern const opver_kernel ref_fully_connected_int16x8;
extern const opver_kernel ref_fully_connected_uint8_int16;

/* maximum_minimum.c */
extern const opver_kernel ref_maximum_float32;
extern const opver_kernel ref_maximum_uint8;
extern const opver_kernel ref_maximum_int8;
extern const opver_kernel ref_maximum_int16;
extern const opver_kernel ref_maximum_int32;
extern const opver_kernel ref_minimum_float32;
extern const opver_kernel ref_minimum_uint8;
extern const opver_kernel ref_minimum_int8;
extern const opver_kernel ref_minimum_int16;
extern const opver_kernel ref_minimum_int32;
/* hard_swish.c */
extern const opver_kernel ref_hard_swish_float32;
extern const opver_kernel ref_hard_swish_quantized;

/* leaky_relu.c */
extern const opver_kernel ref_leaky_relu_float32;
extern const opver_kernel ref_leaky_relu_quantized;

/* gather.c */
extern const opver_kernel ref_gather;

/* gather_nd.c */
extern const opver_kernel ref_gather_nd;

/* l2_normalization.c */
extern const opver_kernel ref_l2_normalization_float32;
extern const opver_kernel ref_l2_normalization_uint8;
extern const opver_kernel ref_l2_normalization_int8;
/* local_response_norm.c */
extern const opver_kernel ref_local_response_norm;

/* log_softmax.c */
extern const opver_kernel ref_log_softmax_float32;
extern const opver_kernel ref_log_softmax_int8;
extern const opver_kernel ref_log_softmax_uint8;

/* mul.c */
extern const opver_kernel ref_mul_float32;
extern const opver_kernel ref_mul_int32;
extern const opver_kernel ref_mul_int64;
extern const opver_kernel ref_mul_uint8;
extern const opver_kernel ref_mul_int8;
extern const opver_kernel ref_mul_int16;

/* prelu.c */
extern const opver_kernel ref_prelu_float32;
extern const opver_kernel ref_prelu_quantized;

/* quantize.c */
extern const opver_kernel ref_quantize_float32_int8;
extern const opver_kernel ref_quantize_float32_int16;
extern const opver_kernel ref_quantize_int8_int8;
extern const opver_kernel ref_quantize_int16_int8;
extern const opver_kernel ref_quantize_int8_int16;
extern const opver_kernel ref_quantize_int16_int16;
extern const opver_kernel ref_quantize_float32_uint8;
extern const opver_kernel ref_quantize_uint8_uint8;
extern const opver_kernel ref_quantize_uint8_int8;
extern const opver_kernel ref_quantize_int8_uint8;
extern const opver_kernel ref_quantize_int8_int32;
extern const opver_kernel ref_quantize_int16_int32;
extern const opver_kernel ref_quantize_int32_int8;
extern const opver_kernel ref_quantize_int32_int16;

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
extern const opver_kernel ref_average_pool_2d_uint8;
extern const opver_kernel ref_max_pool_2d_float32;
extern const opver_kernel ref_max_pool_2d_int8;
extern const opver_kernel ref_max_pool_2d_int16;
extern const opver_kernel ref_max_pool_2d_uint8;

/* relu.c: float32, and one kernel for the integer types each takes */
extern const opver_kernel ref_relu_float32;
extern const opver_kernel ref_relu_quantized;
extern const opver_kernel ref_relu6_float32;
extern const opver_kernel ref_relu6_quantized;
extern const opver_kernel ref_relu_n1_to_1_float32;
extern const opver_kernel ref_relu_n1_to_1_quantized;
extern const opver_kernel ref_relu_0_to_1_float32;
extern const opver_kernel ref_relu_0_to_1_quantized;
extern const opver_kernel ref_l2_pool_2d_float32;

/* reshape.c */
extern const opver_kernel ref_reshape;

/* reduce.c */
extern const opver_kernel ref_mean;
extern const opver_kernel ref_sum;
extern const opver_kernel ref_reduce_max;
extern const opver_kernel ref_reduce_min;
extern const opver_kernel ref_reduce_any;
extern const opver_kernel ref_reduce_all;
extern const opver_kernel ref_reduce_prod;

/* arg_min_max.c */
extern const opver_kernel ref_arg_max;
extern const opver_kernel ref_arg_min;
/* shape.c */
extern const opver_kernel ref_shape;
/* rank.c */
extern const opver_kernel ref_rank;
/* atan2.c */
extern const opver_kernel ref_atan2;
/* resize.c */
extern const opver_kernel ref_resize_bilinear_float32;
extern const opver_kernel ref_resize_bilinear_uint8;
extern const opver_kernel ref_resize_bilinear_int8;
extern const opver_kernel ref_resize_bilinear_int16;
extern const opver_kernel ref_resize_nearest_neighbor_float32;
extern const opver_kernel ref_resize_nearest_neighbor_uint8;
extern const opver_kernel ref_resize_nearest_neighbor_int8;
extern const opver_kernel ref_resize_nearest_neighbor_int16;

/* softmax.c */
extern const opver_kernel ref_softmax_float32;
extern const opver_kernel ref_softmax_int8;
extern const opver_kernel ref_softmax_int16;
extern const opver_kernel ref_softmax_uint8;
extern const opver_kernel ref_softmax_int8_int16;
extern const opver_kernel ref_softmax_uint8_int16;

/* unary.c: float32 for every one-input math op, and integer kernels */
extern const opver_kernel ref_abs_float32;
extern const opver_kernel ref_abs_integer;
extern const opver_kernel ref_neg_float32;
extern const opver_kernel ref_neg_integer;
extern const opver_kernel ref_sqrt_float32;
extern const opver_kernel ref_rsqrt_float32;
extern const opver_kernel ref_square_float32;
extern const opver_kernel ref_exp_float32;
extern const opver_kernel ref_log_float32;
extern const opver_kernel ref_sin_float32;
extern const opver_kernel ref_cos_float32;
extern const opver_kernel ref_floor_float32;
extern const opver_kernel ref_ceil_float32;
extern const opver_kernel ref_round_float32;
extern const opver_kernel ref_sign_float32;
extern const opver_kernel ref_sign_integer;
/* unary_quantized.c */
extern const opver_kernel ref_abs_quantized;
extern const opver_kernel ref_rsqrt_int8;
extern const opver_kernel ref_rsqrt_lut16;
extern const opver_kernel ref_sqrt_quantized;
extern const opver_kernel ref_exp_lut;
extern const opver_kernel ref_log_lut;

/* add_n.c */
extern const opver_kernel ref_add_n_float32;
extern const opver_kernel ref_add_n_int32;

/* floor_div.c */
extern const opver_kernel ref_floor_div_float32;
extern const opver_kernel ref_floor_div_int32;
extern const opver_kernel ref_floor_div_int16;
extern const opver_kernel ref_floor_div_int8;

/* floor_mod.c */
extern const opver_kernel ref_floor_mod_float32;
extern const opver_kernel ref_floor_mod_int64;
extern const opver_kernel ref_floor_mod_int32;
extern const opver_kernel ref_floor_mod_int16;
extern const opver_kernel ref_floor_mod_int8;

/* pow.c */
extern const opver_kernel ref_pow_float32;
extern const opver_kernel ref_pow_int32;

/* squared_difference.c */
extern const opver_kernel ref_squared_difference_float32;
extern const opver_kernel ref_squared_difference_int32;
extern const opver_kernel ref_squared_difference_int8;

/* add_sub.c */
extern const opver_kernel ref_sub_float32;
extern const opver_kernel ref_sub_int32;
extern const opver_kernel ref_sub_int64;
extern const opver_kernel ref_sub_uint8;
extern const opver_kernel ref_sub_int8;
extern const opver_kernel ref_sub_int16;

/* space_batch.c */
extern const opver_kernel ref_space_to_batch_nd;
extern const opver_kernel ref_batch_to_space_nd;

/* space_depth.c */
extern const opver_kernel ref_space_to_depth;
extern const opver_kernel ref_depth_to_space;

/* tile.c */
extern const opver_kernel ref_tile;
/* topk_v2.c */
extern const opver_kernel ref_topk_v2;
/* one_hot.c */
extern const opver_kernel ref_one_hot;

/* The data-movement kernels: one kernel per op for every element type
 * (movement.h). */
/* compare.c: one kernel per op, over every type the op takes */
extern const opver_kernel ref_equal;
extern const opver_kernel ref_not_equal;
extern const opver_kernel ref_less;
extern const opver_kernel ref_less_equal;
extern const opver_kernel ref_greater;
extern const opver_kernel ref_greater_equal;
extern const opver_kernel ref_logical_and;
extern const opver_kernel ref_logical_or;
extern const opver_kernel ref_logical_not;

/* select.c: every type, by element size */
extern const opver_kernel ref_select;
extern const opver_kernel ref_select_v2;

/* concatenation.c */
extern const opver_kernel ref_concatenation;
/* pack.c */
extern const opver_kernel ref_pack;
extern const opver_kernel ref_unpack;
/* pad.c */
extern const opver_kernel ref_pad;
extern const opver_kernel ref_padv2;
extern const opver_kernel ref_mirror_pad;
/* slice.c */
extern const opver_kernel ref_slice;
/* dynamic_update_slice.c */
extern const opver_kernel ref_dynamic_update_slice;
/* reverse_v2.c */
extern const opver_kernel ref_reverse_v2;
/* split.c */
extern const opver_kernel ref_split;
extern const opver_kernel ref_split_v;
/* squeeze.c */
extern const opver_kernel ref_squeeze;
extern const opver_kernel ref_expand_dims;
/* strided_slice.c */
extern const opver_kernel ref_strided_slice;
/* transpose.c */
extern const opver_kernel ref_transpose;

/* transpose_conv.c */
extern const opver_kernel ref_transpose_conv_float32;
extern const opver_kernel ref_transpose_conv_uint8;
extern const opver_kernel ref_transpose_conv_int8;
extern const opver_kernel ref_transpose_conv_int16x8;

#endif /* OPVER_REFERENCE_KERNELS_H */
