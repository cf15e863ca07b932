/*
 * test_model_builder.c - the conformance tool's model writer: the models
 * it writes open in the core and compute, on the reference plugin, what
 * is worked out by hand here; every field it writes decodes to what was
 * described; and a description that breaks its rules is refused with a
 * reason, never written.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "conformance/model_builder.h"
#include "runtime.h"
#include "runtime_fixture.h"

#define REFERENCE_CONFIG "[plugin.reference]\nlibrary = " REFERENCE_PLUGIN "\n"

static messages captured;

static void setup(void)
{
	messages_clear(&captured);
}

TestSuite(model_builder, .init = setup);

/* Builds `desc` and opens it in `runtime`; asserts both work. */
static opver_model *open_built(opver_runtime *runtime,
			       const cf_model_desc *desc)
{
	opver_model *model;
	uint8_t *bytes;
	size_t size;
	char error[256];

	cr_assert(cf_build_model(desc, &bytes, &size, error, sizeof(error)),
		  "%s", error);
	cr_assert_eq(opver_model_open_memory(runtime, bytes, size, &model),
		     OPVER_OK, "%s", captured.text);
	free(bytes);
	return model;
}

Test(model_builder, writes_an_add_that_the_reference_computes)
{
	opver_runtime *runtime = fixture_runtime(REFERENCE_CONFIG, &captured);
	static const float a[4] = { 1.0f, -2.0f, 3.5f, 0.25f };
	static const float b[2] = { 10.0f, -20.0f };
	const cf_tensor_desc tensors[3] = {
		{ .type = OPVER_TYPE_FLOAT32, .rank = 2, .dims = { 2, 2 } },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 1, .dims = { 2 },
		  .data = b, .data_size = sizeof(b) },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 2, .dims = { 2, 2 } },
	};
	const cf_opcode_desc code = { OPVER_OP_ADD, 1, NULL };
	const opver_add_params params = { .activation = OPVER_ACTIVATION_RELU,
					  .pot_scale_int16 = true };
	const int32_t in[2] = { 0, 1 }, out[1] = { 2 };
	const cf_operator_desc op = { 0, in, 2, out, 1, &params, NULL, 0 };
	const cf_model_desc desc = { tensors, 3, &code, 1, &op, 1,
				     in, 1, out, 1 };
	opver_model *model = open_built(runtime, &desc);
	opver_interpreter *it;
	const float *y;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	memcpy(opver_interpreter_input(it, 0)->data, a, sizeof(a));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	y = opver_interpreter_output(it, 0)->data;
	/* b broadcast along rows, then RELU. */
	cr_assert_eq(y[0], 11.0f);
	cr_assert_eq(y[1], 0.0f);
	cr_assert_eq(y[2], 13.5f);
	cr_assert_eq(y[3], 0.0f);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* A 2x2 filter dilated by 2 covers the corners and centre-edges of a 3x3
 * input: VALID gives one output, 1*1 + 10*3 + 100*7 + 1000*9 + bias. */
Test(model_builder, writes_a_dilated_depthwise_conv_at_version_2)
{
	opver_runtime *runtime = fixture_runtime(REFERENCE_CONFIG, &captured);
	static const float x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const float filter[4] = { 1, 10, 100, 1000 };
	static const float bias[1] = { 0.5f };
	const cf_tensor_desc tensors[4] = {
		{ .type = OPVER_TYPE_FLOAT32, .rank = 4, .dims = { 1, 3, 3, 1 } },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 4, .dims = { 1, 2, 2, 1 },
		  .data = filter, .data_size = sizeof(filter) },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 1, .dims = { 1 },
		  .data = bias, .data_size = sizeof(bias) },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 4, .dims = { 1, 1, 1, 1 } },
	};
	const cf_opcode_desc code = { OPVER_OP_DEPTHWISE_CONV_2D, 2, NULL };
	const opver_depthwise_conv_params params = {
		.padding = OPVER_PADDING_VALID, .stride_width = 1,
		.stride_height = 1, .depth_multiplier = 1,
		.dilation_width = 2, .dilation_height = 2,
	};
	const int32_t in[3] = { 0, 1, 2 }, out[1] = { 3 };
	const cf_operator_desc op = { 0, in, 3, out, 1, &params, NULL, 0 };
	const cf_model_desc desc = { tensors, 4, &code, 1, &op, 1,
				     in, 1, out, 1 };
	opver_model *model = open_built(runtime, &desc);
	opver_interpreter *it;
	opver_node_info info;

	cr_assert_eq(opver_interpreter_create(runtime, model, &it), OPVER_OK,
		     "%s", captured.text);
	cr_assert_eq(opver_interpreter_node_info(it, 0, &info), OPVER_OK);
	cr_assert_eq(info.op, OPVER_OP_DEPTHWISE_CONV_2D);
	cr_assert_eq(info.version, 2);
	cr_assert_eq(info.required_version, 2, "%s", info.version_reason);
	memcpy(opver_interpreter_input(it, 0)->data, x, sizeof(x));
	cr_assert_eq(opver_interpreter_invoke(it), OPVER_OK, "%s",
		     captured.text);
	cr_assert_eq(((const float *)opver_interpreter_output(it, 0)->data)[0],
		     9731.5f);
	opver_interpreter_destroy(it);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* Per-channel quantization, an empty quantization table, an op code above
 * 127 and every options field decode as written. */
Test(model_builder, every_field_decodes_as_described)
{
	opver_runtime *runtime = fixture_runtime("[opver]\n", &captured);
	static const float scales[3] = { 0.5f, 0.25f, 0.125f };
	static const int64_t zero_points[3] = { 0, 0, 0 };
	static const int8_t weights[6] = { 1, -2, 3, -4, 5, -6 };
	const cf_tensor_desc tensors[4] = {
		{ .type = OPVER_TYPE_INT8, .rank = 2, .dims = { 1, 2 },
		  .quantized = true, .num_scales = 1, .scales = scales,
		  .zero_points = (const int64_t[]){ -3 } },
		{ .type = OPVER_TYPE_INT8, .rank = 2, .dims = { 3, 2 },
		  .name = "weights", .quantized = true, .num_scales = 3,
		  .scales = scales, .zero_points = zero_points,
		  .quantized_dimension = 0, .data = weights,
		  .data_size = sizeof(weights) },
		{ .type = OPVER_TYPE_INT8, .rank = 2, .dims = { 1, 3 },
		  .quantized = true },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 2, .dims = { 1, 3 } },
	};
	const cf_opcode_desc codes[2] = { { OPVER_OP_FULLY_CONNECTED, 5, NULL },
					  { OPVER_OP_GELU, 2, NULL } };
	const opver_fully_connected_params params = {
		.activation = OPVER_ACTIVATION_RELU6, .keep_num_dims = true,
		.quantized_bias_type = OPVER_TYPE_INT32,
	};
	const int32_t fc_in[3] = { 0, 1, -1 }, fc_out[1] = { 2 };
	const int32_t gelu_in[1] = { 2 }, gelu_out[1] = { 3 };
	const cf_operator_desc ops[2] = {
		{ 0, fc_in, 3, fc_out, 1, &params, NULL, 0 },
		{ 1, gelu_in, 1, gelu_out, 1, NULL, NULL, 0 },
	};
	const cf_model_desc desc = { tensors, 4, codes, 2, ops, 2,
				     fc_in, 1, gelu_out, 1 };
	opver_model *model = open_built(runtime, &desc);
	const opver__graph *graph = opver__model_graph(model);
	const opver_fully_connected_params *decoded;
	const opver__graph_tensor *w;

	cr_assert_eq(graph->num_tensors, 4);
	w = &graph->tensors[1];
	cr_assert_str_eq(w->name, "weights");
	cr_assert_str_eq(graph->tensors[0].name, "t0");
	cr_assert_eq(w->quant.count, 3);
	cr_assert_eq(w->quant.axis, 0);
	cr_assert_eq(w->quant.scale[2], 0.125f);
	cr_assert_eq(memcmp(w->constant_data, weights, sizeof(weights)), 0);
	cr_assert_eq(graph->tensors[0].quant.zero_point[0], -3);
	cr_assert(graph->tensors[2].has_quantization);
	cr_assert_eq(graph->tensors[2].quant.count, 0);
	cr_assert_not(graph->tensors[3].has_quantization);
	cr_assert_eq(graph->num_nodes, 2);
	cr_assert_eq(graph->nodes[0].op, OPVER_OP_FULLY_CONNECTED);
	cr_assert_eq(graph->nodes[0].version, 5);
	cr_assert_eq(graph->nodes[0].num_inputs, 3);
	cr_assert_eq(graph->nodes[0].inputs[2], -1);
	decoded = graph->nodes[0].params;
	cr_assert_eq(decoded->activation, OPVER_ACTIVATION_RELU6);
	cr_assert(decoded->keep_num_dims);
	cr_assert_not(decoded->asymmetric_quantize_inputs);
	cr_assert_eq(decoded->quantized_bias_type, OPVER_TYPE_INT32);
	cr_assert_eq(graph->nodes[1].op, OPVER_OP_GELU, "code 150 > 127");
	cr_assert_eq(graph->nodes[1].version, 2);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* The options of GATHER, SHAPE, SPACE_TO_DEPTH and DEPTH_TO_SPACE decode
 * as written, each op's node with its own parameter struct. */
Test(model_builder, gather_family_options_decode_as_described)
{
	opver_runtime *runtime = fixture_runtime("[opver]\n", &captured);
	const cf_tensor_desc tensors[4] = {
		{ .type = OPVER_TYPE_FLOAT32, .rank = 4, .dims = { 1, 2, 2, 4 } },
		{ .type = OPVER_TYPE_INT32, .rank = 1, .dims = { 1 } },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 4, .dims = { 1, 2, 2, 1 } },
		{ .type = OPVER_TYPE_INT64, .rank = 1, .dims = { 4 } },
	};
	const cf_opcode_desc codes[4] = {
		{ OPVER_OP_GATHER, 5, NULL },
		{ OPVER_OP_SHAPE, 1, NULL },
		{ OPVER_OP_SPACE_TO_DEPTH, 1, NULL },
		{ OPVER_OP_DEPTH_TO_SPACE, 1, NULL },
	};
	const opver_gather_params gather = { .axis = -1, .batch_dims = 1 };
	const opver_shape_params shape = { .out_type = OPVER_TYPE_INT64 };
	const opver_space_depth_params to_depth = { .block_size = 2 };
	const opver_space_depth_params to_space = { .block_size = 3 };
	const int32_t gather_in[2] = { 0, 1 }, one[1] = { 2 }, zero[1] = { 0 };
	const int32_t shape_out[1] = { 3 };
	const cf_operator_desc ops[4] = {
		{ 0, gather_in, 2, one, 1, &gather, NULL, 0 },
		{ 1, zero, 1, shape_out, 1, &shape, NULL, 0 },
		{ 2, zero, 1, one, 1, &to_depth, NULL, 0 },
		{ 3, zero, 1, one, 1, &to_space, NULL, 0 },
	};
	const cf_model_desc desc = { tensors, 4, codes, 4, ops, 4,
				     gather_in, 2, shape_out, 1 };
	opver_model *model = open_built(runtime, &desc);
	const opver__graph *graph = opver__model_graph(model);
	const opver_gather_params *g = graph->nodes[0].params;
	const opver_shape_params *s = graph->nodes[1].params;
	const opver_space_depth_params *d = graph->nodes[2].params;
	const opver_space_depth_params *e = graph->nodes[3].params;

	cr_assert_eq(graph->nodes[0].params_size, sizeof(*g));
	cr_assert_eq(g->axis, -1);
	cr_assert_eq(g->batch_dims, 1);
	cr_assert_eq(s->out_type, OPVER_TYPE_INT64);
	cr_assert_eq(d->block_size, 2);
	cr_assert_eq(e->block_size, 3);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* A custom op's name and its options bytes decode as written. */
Test(model_builder, custom_op_name_and_options_decode_as_described)
{
	opver_runtime *runtime = fixture_runtime("[opver]\n", &captured);
	static const uint8_t options[5] = { 1, 2, 3, 4, 5 };
	const cf_tensor_desc tensors[2] = {
		{ .type = OPVER_TYPE_FLOAT32, .rank = 1, .dims = { 2 } },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 1, .dims = { 2 } },
	};
	const cf_opcode_desc code = { OPVER_OP_CUSTOM, 1, "MyOp" };
	const int32_t in[1] = { 0 }, out[1] = { 1 };
	const cf_operator_desc op = { 0, in, 1, out, 1, NULL, options, 5 };
	const cf_model_desc desc = { tensors, 2, &code, 1, &op, 1,
				     in, 1, out, 1 };
	opver_model *model = open_built(runtime, &desc);
	const opver__graph *graph = opver__model_graph(model);

	cr_assert_eq(graph->nodes[0].op, OPVER_OP_CUSTOM);
	cr_assert_str_eq(graph->nodes[0].custom_name, "MyOp");
	cr_assert_eq(graph->nodes[0].custom_options_size, 5);
	cr_assert_arr_eq(graph->nodes[0].custom_options, options, 5);
	opver_model_close(model);
	opver_runtime_destroy(runtime);
}

/* One broken description per rule; each is refused with its reason. */
Test(model_builder, refuses_malformed_descriptions)
{
	static const float data[2] = { 1, 2 };
	static const float one_scale[1] = { 1 };
	cf_tensor_desc tensors[2] = {
		{ .type = OPVER_TYPE_FLOAT32, .rank = 1, .dims = { 2 } },
		{ .type = OPVER_TYPE_FLOAT32, .rank = 1, .dims = { 2 } },
	};
	cf_opcode_desc code = { OPVER_OP_RELU, 1, NULL };
	int32_t in[1] = { 0 }, out[1] = { 1 };
	cf_operator_desc op = { 0, in, 1, out, 1, NULL, NULL, 0 };
	cf_model_desc desc = { tensors, 2, &code, 1, &op, 1, in, 1, out, 1 };
	const opver_add_params params = { 0 };
	uint8_t *bytes = (uint8_t *)&desc;
	size_t size = 1;
	char error[256];

#define REFUSED(fragment)                                                   \
	do {                                                                \
		cr_assert_not(cf_build_model(&desc, &bytes, &size, error,    \
					     sizeof(error)));               \
		cr_assert_null(bytes);                                      \
		cr_assert_eq(size, 0);                                      \
		cr_assert(strstr(error, fragment) != NULL,                  \
			  "expected '%s' in: %s", fragment, error);         \
	} while (0)

	/* The unbroken description builds. */
	cr_assert(cf_build_model(&desc, &bytes, &size, error, sizeof(error)),
		  "%s", error);
	free(bytes);

	in[0] = 2;
	REFUSED("operator input 0: tensor index 2");
	in[0] = -1;
	REFUSED("graph input 0: tensor index -1");
	in[0] = 0;
	out[0] = -1;
	REFUSED("operator output 0: tensor index -1");
	out[0] = 1;

	tensors[1].data = data;
	tensors[1].data_size = 4;
	REFUSED("4 bytes of data for 2 FLOAT32 elements");
	tensors[1].data_size = 0;
	tensors[1].data = NULL;
	tensors[0].dims[0] = -2;
	REFUSED("dimension 0 is -2");
	tensors[0].dims[0] = 2;
	tensors[0].rank = CF_MAX_RANK + 1;
	REFUSED("rank 9 is outside 0..8");
	tensors[0].rank = 1;
	tensors[0].type = OPVER_TYPE_COUNT;
	REFUSED("not a tensor type");
	tensors[0].type = OPVER_TYPE_FLOAT32;

	tensors[0].num_scales = 1;
	REFUSED("scales without quantization");
	tensors[0].quantized = true;
	REFUSED("no scale or zero point array");
	tensors[0].num_scales = 3;
	tensors[0].scales = one_scale;
	tensors[0].zero_points = (const int64_t[]){ 0 };
	REFUSED("3 scales along dimension 0 do not match its shape");
	tensors[0].num_scales = 0;
	tensors[0].quantized = false;

	code.version = 0;
	REFUSED("version 0");
	code.version = 1;
	code.op = OPVER_OP_CUSTOM;
	REFUSED("operator code 0: a custom op without a name");
	code.custom_code = "Mine";
	op.custom_options_size = 4;
	REFUSED("operator 0: custom options of no bytes");
	op.custom_options_size = 0;
	code.op = OPVER_OP_RELU;
	REFUSED("operator code 0: builtin RELU with a custom name");
	code.custom_code = NULL;
	op.custom_options = (const uint8_t *)data;
	op.custom_options_size = 4;
	REFUSED("operator 0: custom options of a builtin op");
	op.custom_options = NULL;
	op.custom_options_size = 0;
	code.op = 208;
	REFUSED("208 is not a builtin op");
	code.op = OPVER_OP_RELU;
	op.params = &params;
	REFUSED("cannot write options of RELU");
	op.params = NULL;
	op.opcode_index = 1;
	REFUSED("operator code 1 is outside 0..0");
	op.opcode_index = 0;
	desc.num_tensors = 3;
	desc.tensors = NULL;
	REFUSED("tensors: 3 entries but no array");
#undef REFUSED
}
