/*
 * activation.h - what the one-input activation kernels share (RELU and
 * its clamps, LOGISTIC, TANH, ELU, GELU, LEAKY_RELU, HARD_SWISH): the node
 * check, and the 8-bit kernels' quantization reading.  Each op has a
 * float32 kernel and one kernel for its integer types, whose manifest
 * signature lists them; prepare reads that signature back, so the
 * manifest says once what a kernel takes.
 *
 * Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_ACTIVATION_H
#define OPVER_REFERENCE_ACTIVATION_H

#include <stddef.h>
#include <stdint.h>

#include <opver/plugin.h>

/* An activation's input and output quantization (per tensor). */
typedef struct ref_activation_quant {
	float input_scale;
	int32_t input_zero;
	float output_scale;
	int32_t output_zero;
} ref_activation_quant;

/*
 * The node of `kernel`, a one-input activation: one input of a type the
 * kernel's first signature takes, and one output of the input's type and
 * shape.  With `quant` non-NULL, both tensors must also be quantized per
 * tensor, and *quant receives their parameters.
 */
opver_status ref_activation_check(const opver_context *ctx,
				  const opver_node *node,
				  const opver_kernel *kernel,
				  ref_activation_quant *quant);

#endif /* OPVER_REFERENCE_ACTIVATION_H */
