/*
 * test_op_version_quantize.c - TensorFlow Lite's version rules for QUANTIZE and
 * DEQUANTIZE.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "op_version_nodes.h"

/* ------------------------------------------------ QUANTIZE, DEQUANTIZE */

static const int32_t channels_3x2[] = { 3, 2 };

#define UNARY(n, op) build((n), (op), NULL, 0, 1, 1)

Test(quantize, per_tensor_int8_is_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and int8 tensors");
}

/* TFLite's first quantization: uint8 from float and to and from int8 are
 * version 1 (only int16 outputs and per-channel scales come later). */
Test(quantize, uint8_is_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_UINT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and uint8 tensors");
	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "uint8 and int8 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_UINT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int8 and uint8 tensors");
}

Test(quantize, int16_output_is_version_2)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT16);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 2, "int16 output");
}

/* TFLite Micro's int32 requantizing: TFLite's rules look only at int16
 * (and int4) outputs, so int32 on either side leaves version 1 but for an
 * int16 output. */
Test(quantize, int32_pairs_follow_the_output_type)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_INT32);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int16 and int32 tensors");
	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_INT32);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int8 and int32 tensors");
	unary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "int32 and int8 tensors");
	unary_tensors(&n, OPVER_TYPE_INT32, OPVER_TYPE_INT16);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 2, "int16 output");
}

Test(quantize, per_channel_output_is_version_3)
{
	test_node n;

	/* 2 scales along dimension 1 of a [3,2] output. */
	n.inputs[0] = TENSOR(FLOAT32, channels_3x2);
	n.outputs[0] = scaled(TENSOR(INT8, channels_3x2), 2, some_scales, 1);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 3,
	       "per-channel output: 2 scales along dimension 1");
	/* 3 scales along dimension 0, even for int16. */
	n.outputs[0] = scaled(TENSOR(INT16, channels_3x2), 3, some_scales, 0);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 3, "3 scales along dimension 0");
}

Test(quantize, scales_not_matching_the_axis_are_per_tensor)
{
	test_node n;

	n.inputs[0] = TENSOR(FLOAT32, channels_3x2);
	/* 3 scales along dimension 1 (size 2). */
	n.outputs[0] = scaled(TENSOR(INT8, channels_3x2), 3, some_scales, 1);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and int8 tensors");
	/* An axis outside the shape. */
	n.outputs[0] = scaled(TENSOR(INT8, channels_3x2), 2, some_scales, 2);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 1, "float32 and int8 tensors");
}

Test(quantize, int4_is_version_4)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_FLOAT32, OPVER_TYPE_INT4);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 4, "int4 output");
	unary_tensors(&n, OPVER_TYPE_INT4, OPVER_TYPE_INT8);
	expect(UNARY(&n, OPVER_OP_QUANTIZE), 4, "int4 input");
}

Test(dequantize, uint8_is_version_1)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_UINT8, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 1, "uint8 and float32 tensors");
}

Test(dequantize, per_tensor_int8_is_version_2)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT8, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 2, "per-tensor int8 input");
}

Test(dequantize, int16_and_float16_are_version_3)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT16, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 3, "int16 input");
	unary_tensors(&n, OPVER_TYPE_FLOAT16, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 3, "float16 input");
}

Test(dequantize, per_channel_int8_is_version_5)
{
	test_node n;

	n.inputs[0] = scaled(TENSOR(INT8, channels_3x2), 3, some_scales, 0);
	n.outputs[0] = TENSOR(FLOAT32, channels_3x2);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 5,
	       "per-channel int8 input: 3 scales along dimension 0");
	/* One scale for a single slice is per-tensor: more than one is
	 * asked for. */
	n.inputs[0] = scaled(TENSOR(INT8, vector_1), 1, some_scales, 0);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 2, "per-tensor int8 input");
}

Test(dequantize, int4_is_version_6)
{
	test_node n;

	unary_tensors(&n, OPVER_TYPE_INT4, OPVER_TYPE_FLOAT32);
	expect(UNARY(&n, OPVER_OP_DEQUANTIZE), 6, "int4 input");
}
