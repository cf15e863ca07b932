/*
 * plugin.c - the reference plugin's descriptor: the kernels that compute
 * every supported op and version the way TensorFlow Lite's reference kernels
 * do, correctness first.  Loaded through the config like any vendor's
 * plugin; it has no options, no plugin-wide state and no delegate.
 */
#include "kernels.h"

static const opver_kernel *const reference_kernels[] = {
	&ref_add_float32,
	&ref_add_int8,
	&ref_add_int16,
	&ref_average_pool_2d_float32,
	&ref_average_pool_2d_int8,
	&ref_average_pool_2d_int16,
	&ref_conv_2d_float32,
	&ref_conv_2d_int8,
	&ref_conv_2d_hybrid,
	&ref_conv_2d_int16x8,
	&ref_depthwise_conv_2d_float32,
	&ref_depthwise_conv_2d_int8,
	&ref_dequantize_int8_float32,
	&ref_dequantize_int16_float32,
	&ref_elu_float32,
	&ref_elu_lut8,
	&ref_fully_connected_float32,
	&ref_fully_connected_int8,
	&ref_fully_connected_hybrid,
	&ref_gelu_float32,
	&ref_gelu_lut8,
	&ref_hard_swish_float32,
	&ref_hard_swish_quantized,
	&ref_leaky_relu_float32,
	&ref_leaky_relu_quantized,
	&ref_logistic_float32,
	&ref_logistic_lut8,
	&ref_max_pool_2d_float32,
	&ref_max_pool_2d_int8,
	&ref_max_pool_2d_int16,
	&ref_mul_float32,
	&ref_mul_int8,
	&ref_mul_int16,
	&ref_prelu_float32,
	&ref_prelu_quantized,
	&ref_quantize_float32_int8,
	&ref_quantize_float32_int16,
	&ref_quantize_int8_int8,
	&ref_quantize_int16_int8,
	&ref_quantize_int8_int16,
	&ref_quantize_int16_int16,
	&ref_relu_float32,
	&ref_relu_quantized,
	&ref_relu6_float32,
	&ref_relu6_quantized,
	&ref_relu_n1_to_1_float32,
	&ref_relu_n1_to_1_quantized,
	&ref_relu_0_to_1_float32,
	&ref_relu_0_to_1_quantized,
	&ref_reshape,
	&ref_softmax_float32,
	&ref_softmax_int8,
	&ref_softmax_int16,
	&ref_tanh_float32,
	&ref_tanh_lut8,
};

static const opver_plugin reference_plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "reference",
	.vendor = "opver",
	.version = OPVER_VERSION_STRING,
	OPVER_PLUGIN_KERNELS(reference_kernels),
};

/* Runs on any CPU and needs nothing of the host beyond ABI 2.0. */
OPVER_PLUGIN_ENTRY
{
	return &reference_plugin;
}
