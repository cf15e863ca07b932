/*
 * test_model_reader_decode.c - the model reader on the good models built
 * from the JSON files of tests/models: every decoded field, op codes old and
 * new, several subgraphs, data at file offsets, constants in and out of the
 * mapping.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdlib.h>
#include <string.h>

#include "model_files.h"

Test(model_reader, decodes_float_fully_connected)
{
	opver__model_file file;
	const opver__graph *g = &file.graph;
	const opver_fully_connected_params *fc;
	static const char *const names[] = { "input", "weights", "bias",
					     "output" };

	open_good("fc_float", &file);
	cr_assert_eq(g->num_tensors, 4);
	for (int i = 0; i < 4; i++) {
		cr_assert_str_eq(g->tensors[i].name, names[i]);
		cr_assert_eq(g->tensors[i].type, OPVER_TYPE_FLOAT32);
		cr_assert_eq(g->tensors[i].quant.count, 0);
		cr_assert_not(g->tensors[i].is_variable);
	}
	assert_dims(&g->tensors[0], 2, (int32_t[]){ 1, 3 });
	assert_dims(&g->tensors[1], 2, (int32_t[]){ 2, 3 });
	assert_dims(&g->tensors[2], 1, (int32_t[]){ 2 });
	assert_dims(&g->tensors[3], 2, (int32_t[]){ 1, 2 });
	cr_assert_eq(g->tensors[0].bytes, 12);
	cr_assert_eq(g->tensors[1].bytes, 24);
	cr_assert_null(g->tensors[0].constant_data);
	cr_assert_null(g->tensors[3].constant_data);
	cr_assert(in_mapping(&file, g->tensors[1].constant_data, 24));
	cr_assert(in_mapping(&file, g->tensors[2].constant_data, 8));
	cr_assert_float_eq(float_at(g->tensors[1].constant_data, 2), 0.5f,
			   0);
	cr_assert_float_eq(float_at(g->tensors[1].constant_data, 3), -1.0f,
			   0);
	cr_assert_float_eq(float_at(g->tensors[2].constant_data, 1), -0.75f,
			   0);

	assert_indices(g->num_inputs, g->inputs, 1, (int32_t[]){ 0 });
	assert_indices(g->num_outputs, g->outputs, 1, (int32_t[]){ 3 });
	cr_assert_eq(g->num_nodes, 1);
	cr_assert_eq(g->nodes[0].op, OPVER_OP_FULLY_CONNECTED);
	cr_assert_eq(g->nodes[0].version, 1, "absent version reads as 1");
	cr_assert_null(g->nodes[0].custom_name);
	cr_assert_null(g->nodes[0].custom_options);
	assert_indices(g->nodes[0].num_inputs, g->nodes[0].inputs, 3,
		       (int32_t[]){ 0, 1, 2 });
	assert_indices(g->nodes[0].num_outputs, g->nodes[0].outputs, 1,
		       (int32_t[]){ 3 });
	cr_assert_eq(g->nodes[0].params_size, sizeof(*fc));
	fc = g->nodes[0].params;
	cr_assert_eq(fc->activation, OPVER_ACTIVATION_RELU);
	cr_assert_eq(fc->weights_format, OPVER_FC_WEIGHTS_DEFAULT);
	cr_assert(fc->keep_num_dims);
	cr_assert_not(fc->asymmetric_quantize_inputs);
	cr_assert_str_eq(g->min_runtime_version, "1.5.0");
	opver__model_file_close(&file);
	cr_assert_null(file.bytes);
}

Test(model_reader, decodes_int8_quantization)
{
	opver__model_file file;
	const opver__graph *g = &file.graph;
	const opver__graph_tensor *t;
	const opver_fully_connected_params *fc;
	int32_t bias[2];

	open_good("fc_int8", &file);
	t = g->tensors;
	cr_assert_eq(g->num_tensors, 4);
	cr_assert_eq(t[0].type, OPVER_TYPE_INT8);
	cr_assert_eq(t[0].quant.count, 1);
	cr_assert_float_eq(t[0].quant.scale[0], 0.5f, 0);
	cr_assert_eq(t[0].quant.zero_point[0], -128);
	cr_assert_eq(t[0].quant.axis, 0);

	/* Per-channel weights; the one zero point serves every channel. */
	cr_assert_eq(t[1].quant.count, 2);
	cr_assert_float_eq(t[1].quant.scale[0], 0.25f, 0);
	cr_assert_float_eq(t[1].quant.scale[1], 0.125f, 0);
	cr_assert_eq(t[1].quant.zero_point[0], 0);
	cr_assert_eq(t[1].quant.zero_point[1], 0);
	cr_assert_eq(t[1].quant.axis, 0);
	cr_assert_eq(t[1].bytes, 8);
	cr_assert_eq((int8_t)t[1].constant_data[4], -4);
	cr_assert_eq((int8_t)t[1].constant_data[7], -1);

	/* The person_detect-style bias: dimension 3 of a 1-D tensor. */
	cr_assert_eq(t[2].type, OPVER_TYPE_INT32);
	cr_assert_eq(t[2].quant.count, 2);
	cr_assert_eq(t[2].quant.axis, 0);
	cr_assert_float_eq(t[2].quant.scale[1], 0.0625f, 0);
	memcpy(bias, t[2].constant_data, sizeof(bias));
	cr_assert_eq(bias[0], 100);
	cr_assert_eq(bias[1], -100);

	cr_assert_eq(t[3].quant.count, 1);
	cr_assert_float_eq(t[3].quant.scale[0], 1.0f, 0);
	cr_assert_eq(t[3].quant.zero_point[0], 5);

	cr_assert_eq(g->nodes[0].op, OPVER_OP_FULLY_CONNECTED);
	cr_assert_eq(g->nodes[0].version, 4);
	fc = g->nodes[0].params;
	cr_assert_eq(fc->activation, OPVER_ACTIVATION_NONE);
	cr_assert_eq(fc->weights_format, OPVER_FC_WEIGHTS_DEFAULT);
	cr_assert_not(fc->keep_num_dims);
	cr_assert(fc->asymmetric_quantize_inputs);
	cr_assert_null(g->min_runtime_version);
	opver__model_file_close(&file);
}

Test(model_reader, decodes_custom_and_extended_op_codes)
{
	opver__model_file file;
	const opver__graph *g = &file.graph;
	const opver__graph_node *n;
	static const uint8_t options[] = { 1, 2, 3, 4, 5 };

	open_good("custom_op", &file);
	n = g->nodes;
	cr_assert_eq(g->num_nodes, 3);
	cr_assert_eq(n[0].op, OPVER_OP_CUSTOM);
	cr_assert_str_eq(n[0].custom_name, "testing_op");
	cr_assert_eq(n[0].version, 2);
	cr_assert_null(n[0].params);
	assert_indices(n[0].num_inputs, n[0].inputs, 2, (int32_t[]){ 0, -1 });
	cr_assert_eq(n[0].custom_options_size, sizeof(options));
	cr_assert(in_mapping(&file, n[0].custom_options, sizeof(options)));
	cr_assert_arr_eq(n[0].custom_options, options, sizeof(options));

	/* builtin_code only: the byte-sized field is absent (0). */
	cr_assert_eq(n[1].op, OPVER_OP_QUANTIZE);
	cr_assert_eq(n[1].version, 1);
	cr_assert_null(n[1].custom_name);
	/* A code past 127: the byte field holds the placeholder. */
	cr_assert_eq(n[2].op, OPVER_OP_GELU);
	cr_assert_eq(n[2].version, 2);
	cr_assert_eq(g->tensors[2].quant.zero_point[0], 1);
	opver__model_file_close(&file);
}

Test(model_reader, decodes_files_older_than_builtin_code)
{
	opver__model_file file;
	const opver__graph *g = &file.graph;
	const opver_fully_connected_params *fc;

	open_good("old_style", &file);
	cr_assert_eq(g->num_nodes, 1);
	cr_assert_eq(g->nodes[0].op, OPVER_OP_FULLY_CONNECTED);
	cr_assert_eq(g->nodes[0].version, 1);
	assert_indices(g->nodes[0].num_inputs, g->nodes[0].inputs, 3,
		       (int32_t[]){ 0, 1, -1 });
	/* No options table: the defaults of version 1. */
	cr_assert_eq(g->nodes[0].params_size, sizeof(*fc));
	fc = g->nodes[0].params;
	cr_assert_eq(fc->activation, OPVER_ACTIVATION_NONE);
	cr_assert_eq(fc->weights_format, OPVER_FC_WEIGHTS_DEFAULT);
	cr_assert_not(fc->keep_num_dims);
	cr_assert_not(fc->asymmetric_quantize_inputs);

	cr_assert_str_eq(g->tensors[1].name, "");
	cr_assert_eq(g->tensors[1].type, OPVER_TYPE_FLOAT32);
	cr_assert_eq(g->tensors[3].rank, 0);
	cr_assert_eq(g->tensors[3].bytes, 4);
	cr_assert_float_eq(float_at(g->tensors[3].constant_data, 0), 3.0f, 0);
	cr_assert_null(g->min_runtime_version);
	opver__model_file_close(&file);
}

Test(model_reader, keeps_subgraph_zero_of_several)
{
	opver__model_file file;

	open_good("two_subgraphs", &file);
	cr_assert_eq(file.graph.num_tensors, 4);
	cr_assert_str_eq(file.graph.tensors[0].name, "input");
	cr_assert_eq(file.graph.num_nodes, 1);
	opver__model_file_close(&file);
}

Test(model_reader, reads_data_stored_at_a_file_offset)
{
	opver__model_file file;

	open_good("external_buffer", &file);
	cr_assert_eq(file.graph.tensors[1].constant_data, file.bytes + 8);
	cr_assert_eq(file.graph.tensors[1].bytes, 4);
	opver__model_file_close(&file);
}

/* Published models misalign int64 biases, which TFLite reads all the
 * same: the constant is the buffer's bytes, copied to an aligned place. */
Test(model_reader, copies_a_misaligned_constant)
{
	opver__model_file file;
	const opver__graph_tensor *c;
	float stored;

	open_good("misaligned_constant", &file);
	c = &file.graph.tensors[1];
	cr_assert_eq(c->bytes, 4);
	cr_assert(!in_mapping(&file, c->constant_data, c->bytes),
		  "copied out of the mapping");
	cr_assert_eq((uintptr_t)c->constant_data % sizeof(float), 0);
	memcpy(&stored, file.bytes + 10, sizeof(stored));
	cr_assert_eq(memcmp(c->constant_data, &stored, sizeof(stored)), 0,
		     "the bytes at file offset 10");
	opver__model_file_close(&file);
}

/* Buffers shared between constants, or with a graph input (which becomes
 * an activation initialised from them), are not written: accepted. */
Test(model_reader, accepts_buffers_no_kernel_writes)
{
	opver__model_file file;
	const opver__graph_tensor *t;

	open_good("shared_buffers", &file);
	t = file.graph.tensors;
	cr_assert_not_null(t[1].constant_data);
	cr_assert_eq(t[1].constant_data, t[2].constant_data);
	cr_assert_null(t[0].constant_data, "a graph input is an activation");
	cr_assert_eq(t[0].initial_data, t[3].constant_data);
	cr_assert_null(t[5].constant_data);
	cr_assert_float_eq(float_at(t[6].constant_data, 0), 3.0f, 0);
	opver__model_file_close(&file);
}

/* A copy in memory is shared by every interpreter as a mapping is, so a
 * written constant is refused there too, not silently corrupted. */
Test(model_reader, refuses_written_constants_in_memory_too)
{
	opver__model_file file;
	size_t size;
	uint8_t *bytes = slurp_model("bad_constant_output", &size);

	cr_assert_eq(opver__model_file_copy(bytes, size, "<memory>", &capturing,
					    &file),
		     OPVER_ERROR_INVALID_MODEL, "%s", captured.text);
	cr_assert_not_null(strstr(captured.text, "<memory>: subgraph 0: tensor 2 \"y\" is an output of node 0 (ADD v1)"),
			   "%s", captured.text);
	cr_assert_null(file.bytes);
	free(bytes);
}

/*
 * A model that must be refused, and a part of the one message saying why.
 * Parameters hold their strings: Criterion runs each in a new process.
 */
