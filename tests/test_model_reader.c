/*
 * test_model_reader.c - the model reader on the models built from the
 * JSON files of tests/models: every decoded field of the good ones, one
 * precise message for each malformed one, every truncation and thousands
 * of byte corruptions of valid files (which must decode or fail, never
 * crash), the I/O failures, and, when OPVER_MODEL_CORPUS names the model
 * corpus, the facts its README states about each of its 17 real models.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flatbuffer.h"
#include "messages.h"
#include "model_reader.h"
#include "schema/opver_ids.h"

/* Every message of the current test; corruption runs report into
 * `ignored`, which nobody reads. */
static messages captured, ignored;
static opver__reporter capturing, silent;

static void model_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s.tflite", TEST_MODEL_DIR, name);
}

static opver_status open_model(const char *name, opver__model_file *file)
{
	char path[4096];

	model_path(path, sizeof(path), name);
	return opver__model_file_open(path, &capturing, file);
}

static void open_good(const char *name, opver__model_file *file)
{
	opver_status status = open_model(name, file);

	cr_assert_eq(status, OPVER_OK, "%s: %s; messages:\n%s", name,
		     opver_status_name(status), captured.text);
	cr_assert_eq(messages_total(&captured), 0, "unexpected messages:\n%s",
		     captured.text);
}

/* Reads a whole file into a new buffer (free() it). */
static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *bytes;
	long length;

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	length = ftell(f);
	cr_assert_gt(length, 0);
	rewind(f);
	bytes = malloc((size_t)length);
	cr_assert_not_null(bytes);
	cr_assert_eq(fread(bytes, 1, (size_t)length, f), (size_t)length);
	fclose(f);
	*size = (size_t)length;
	return bytes;
}

static uint8_t *slurp_model(const char *name, size_t *size)
{
	char path[4096];

	model_path(path, sizeof(path), name);
	return slurp(path, size);
}

static void assert_dims(const opver__graph_tensor *t, int32_t rank,
			const int32_t *dims)
{
	cr_assert_eq(t->rank, rank, "tensor %s: rank %d, expected %d",
		     t->name, t->rank, rank);
	for (int32_t i = 0; i < rank; i++)
		cr_assert_eq(t->dims[i], dims[i], "tensor %s: dim %d", t->name,
			     i);
}

static void assert_indices(int32_t count, const int32_t *got,
			   int32_t expected_count, const int32_t *expected)
{
	cr_assert_eq(count, expected_count);
	for (int32_t i = 0; i < count; i++)
		cr_assert_eq(got[i], expected[i], "index %d", i);
}

/* True when [p, p + n) lies inside the mapping of `file`. */
static bool in_mapping(const opver__model_file *file, const uint8_t *p,
		       size_t n)
{
	return p >= file->bytes && p <= file->bytes + file->size &&
	       n <= (size_t)(file->bytes + file->size - p);
}

static float float_at(const uint8_t *data, size_t index)
{
	float value;

	memcpy(&value, data + index * sizeof(value), sizeof(value));
	return value;
}

static void setup(void)
{
	messages_clear(&captured);
	capturing = messages_reporter(&captured);
	silent = messages_reporter(&ignored);
}

TestSuite(model_reader, .init = setup);

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
struct bad_model {
	char name[32];
	opver_status status;
	char reason[192];
};

ParameterizedTestParameters(model_reader, refuses_malformed_models)
{
	static struct bad_model models[] = {
		{ "bad_tensor_index", OPVER_ERROR_INVALID_MODEL,
		  "node 0 (FULLY_CONNECTED v1) of subgraph 0: inputs[1] is tensor 7, out of range (the subgraph has 3 tensors)" },
		{ "bad_output_omitted", OPVER_ERROR_INVALID_MODEL,
		  "node 0 (FULLY_CONNECTED v1) of subgraph 0: outputs[0] is tensor -1" },
		{ "bad_graph_input", OPVER_ERROR_INVALID_MODEL,
		  "subgraph 0: inputs[0] is tensor 9, out of range" },
		{ "bad_buffer_index", OPVER_ERROR_INVALID_MODEL,
		  "tensor 1 of subgraph 0: buffer 12 out of range (model has 2 buffers)" },
		{ "bad_opcode_index", OPVER_ERROR_INVALID_MODEL,
		  "node 0 of subgraph 0: opcode_index 3 out of range (model has 1 operator codes)" },
		{ "bad_data_size", OPVER_ERROR_INVALID_MODEL,
		  "tensor 1 of subgraph 0: buffer 1 holds 6 bytes, but 2 FLOAT32 elements need 8" },
		{ "bad_negative_dim", OPVER_ERROR_INVALID_MODEL,
		  "tensor 0 of subgraph 0: dimension 1 is -2" },
		{ "bad_shape_overflow", OPVER_ERROR_INVALID_MODEL,
		  "tensor 0 of subgraph 0: the shape's byte size overflows" },
		{ "bad_tensor_type", OPVER_ERROR_INVALID_MODEL,
		  "tensor 0 of subgraph 0: type 42 is not a tensor type" },
		{ "bad_zero_points", OPVER_ERROR_INVALID_MODEL,
		  "tensor 0 of subgraph 0: quantization has 3 scales but 2 zero points" },
		{ "bad_quant_axis", OPVER_ERROR_INVALID_MODEL,
		  "quantized_dimension 5 is not a dimension of this rank-2 tensor" },
		{ "bad_quant_channels", OPVER_ERROR_INVALID_MODEL,
		  "3 per-channel scales for dimension 0, which has 2 entries" },
		{ "bad_activation", OPVER_ERROR_INVALID_MODEL,
		  "node 0 (FULLY_CONNECTED v1) of subgraph 0: fused_activation_function is 99" },
		{ "bad_weights_format", OPVER_ERROR_INVALID_MODEL,
		  "weights_format is 7; valid values are 0 to 1" },
		{ "bad_options_type", OPVER_ERROR_INVALID_MODEL,
		  "builtin_options is of union type 11; FULLY_CONNECTED takes FullyConnectedOptions (type 8)" },
		{ "bad_custom_no_name", OPVER_ERROR_INVALID_MODEL,
		  "operator code 0: CUSTOM op has no custom_code" },
		{ "bad_op_version", OPVER_ERROR_INVALID_MODEL,
		  "operator code 0: version 0 is invalid" },
		{ "bad_schema_version", OPVER_ERROR_INVALID_MODEL,
		  "model: schema version 2" },
		{ "bad_no_subgraph", OPVER_ERROR_INVALID_MODEL,
		  "the model has no subgraph" },
		{ "bad_external_buffer", OPVER_ERROR_INVALID_MODEL,
		  "buffer 2: data at file offset 100000, 4 bytes, run past the end" },
		{ "bad_runtime_version", OPVER_ERROR_INVALID_MODEL,
		  "metadata 0 (min_runtime_version): byte 2 of the version string is not printable (0x07)" },
		{ "bad_metadata_buffer", OPVER_ERROR_INVALID_MODEL,
		  "metadata 0: buffer 9 out of range" },
		{ "bad_signature", OPVER_ERROR_INVALID_MODEL,
		  "signature 0: subgraph_index 4 out of range (model has 1 subgraphs)" },
		{ "bad_signature_tensor", OPVER_ERROR_INVALID_MODEL,
		  "signature 0: outputs[0] is tensor 40, out of range" },
		{ "bad_intermediate", OPVER_ERROR_INVALID_MODEL,
		  "intermediates[0] is tensor 50, out of range" },
		{ "bad_mutating_inputs", OPVER_ERROR_INVALID_MODEL,
		  "mutating_variable_inputs has 1 entries for 3 inputs" },
		{ "bad_subgraph1_index", OPVER_ERROR_INVALID_MODEL,
		  "subgraph 1: inputs[0] is tensor 5, out of range (the subgraph has 1 tensors)" },
		{ "sparse_tensor", OPVER_ERROR_UNSUPPORTED,
		  "tensor 1 of subgraph 0: sparse tensors are not supported" },
		{ "custom_quantization", OPVER_ERROR_UNSUPPORTED,
		  "tensor 0 of subgraph 0: custom quantization" },
		{ "bad_constant_output", OPVER_ERROR_INVALID_MODEL,
		  "subgraph 0: tensor 2 \"y\" is an output of node 0 (ADD v1) but has constant data in buffer 1, shared with constant tensor 1 \"c\"; kernels write their outputs" },
		{ "bad_shared_output_buffer", OPVER_ERROR_INVALID_MODEL,
		  "subgraph 0: tensor 3 \"z\", graph output 1, shares buffer 1 with constant tensor 1 \"c\"" },
		{ "bad_variable_constant", OPVER_ERROR_INVALID_MODEL,
		  "subgraph 0: tensor 1 \"state\" is a variable, which kernels write, but has constant data in buffer 1" },
	};

	return cr_make_param_array(struct bad_model, models,
				   sizeof(models) / sizeof(models[0]));
}

ParameterizedTest(struct bad_model *model, model_reader,
		  refuses_malformed_models)
{
	opver__model_file file;
	opver_status status;
	char prefix[4200];

	setup();
	status = open_model(model->name, &file);
	cr_assert_eq(status, model->status, "%s: got %s; messages:\n%s",
		     model->name, opver_status_name(status), captured.text);
	cr_assert_eq(messages_total(&captured), 1, "%s: one message expected:\n%s",
		     model->name, captured.text);
	cr_assert_not_null(strstr(captured.text, model->reason),
			   "%s: message lacks \"%s\":\n%s", model->name,
			   model->reason, captured.text);
	/* The message starts with the file. */
	strcpy(prefix, "error: ");
	model_path(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix),
		   model->name);
	strcat(prefix, ": ");
	cr_assert_eq(strncmp(captured.text, prefix, strlen(prefix)), 0, "%s",
		     captured.text);
	cr_assert_null(file.bytes, "a failed open leaves nothing mapped");
	cr_assert_null(file.graph.tensors);
}

/* Decodes a private copy of `size` bytes, so that sanitizers see any read
 * past them; returns the status. */
static opver_status decode_copy(const uint8_t *bytes, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	opver__graph graph;
	opver_status status;

	cr_assert_not_null(copy);
	memcpy(copy, bytes, size);
	status = opver__model_decode(copy, size, "copy", &silent, &graph);
	if (status != OPVER_OK)
		cr_assert_null(graph.tensors, "failure leaves an empty graph");
	opver__graph_free(&graph);
	free(copy);
	return status;
}

static const char *const fuzz_models[] = { "fc_float", "fc_int8",
					   "custom_op", "old_style" };

/*
 * Every prefix fails with INVALID_MODEL, except those that only lose the
 * padding flatc leaves at the end (less than the 16-byte alignment of
 * buffer data), which are complete models.
 */
Test(model_reader, refuses_every_truncation)
{
	for (size_t m = 0; m < sizeof(fuzz_models) / sizeof(fuzz_models[0]);
	     m++) {
		size_t size, complete = 0;
		uint8_t *bytes = slurp_model(fuzz_models[m], &size);

		for (size_t length = 0; length <= size; length++) {
			opver_status status = decode_copy(bytes, length);

			if (status == OPVER_OK && complete == 0)
				complete = length;
			cr_assert(status == (complete ? OPVER_OK :
					     OPVER_ERROR_INVALID_MODEL),
				  "%s cut to %zu of %zu bytes: %s",
				  fuzz_models[m], length, size,
				  opver_status_name(status));
		}
		cr_assert_gt(complete + 16, size, "%s complete at %zu of %zu",
			     fuzz_models[m], complete, size);
		free(bytes);
	}
}

Test(model_reader, survives_corrupted_bytes)
{
	static const uint8_t patterns[] = { 0x01, 0x02, 0x10, 0x40, 0x80,
					    0x7f, 0xff };

	for (size_t m = 0; m < sizeof(fuzz_models) / sizeof(fuzz_models[0]);
	     m++) {
		size_t size;
		uint8_t *bytes = slurp_model(fuzz_models[m], &size);

		for (size_t i = 0; i < size; i++) {
			for (size_t p = 0; p < sizeof(patterns); p++) {
				opver_status status;

				bytes[i] ^= patterns[p];
				status = decode_copy(bytes, size);
				bytes[i] ^= patterns[p];
				cr_assert(status == OPVER_OK ||
					  status == OPVER_ERROR_INVALID_MODEL ||
					  status == OPVER_ERROR_UNSUPPORTED,
					  "%s, byte %zu ^ 0x%02x: %s",
					  fuzz_models[m], i, patterns[p],
					  opver_status_name(status));
			}
		}
		free(bytes);
	}
}

static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void store32(uint8_t *p, uint32_t value)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(value >> 8 * i);
}

/*
 * amplify.tflite has 32 operators, the first with 256 inputs.  Pointing
 * every entry of the operators vector at the first operator's table makes
 * 32 nodes of one table and one inputs vector: 32 * 256 entries decoded
 * from a 256-entry file.  flatc never writes such a file, so the test
 * patches the offsets (each a uoffset relative to its own entry) itself.
 */
Test(model_reader, refuses_shared_reference_amplification)
{
	size_t size;
	uint8_t *bytes = slurp_model("amplify", &size);
	opver__fb fb;
	opver__fb_table model, subgraph;
	opver__fb_vector subgraphs, operators;
	opver__graph graph;
	size_t first;

	/* Unpatched, the model is valid: a file without sharing never
	 * exhausts the budget. */
	cr_assert_eq(opver__model_decode(bytes, size, "amplify", &capturing,
					 &graph),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(graph.num_nodes, 32);
	cr_assert_eq(graph.nodes[0].num_inputs, 256);
	opver__graph_free(&graph);

	opver__fb_init(&fb, bytes, size);
	cr_assert(opver__fb_root(&fb, &model));
	cr_assert(opver__fb_vector_field(&fb, &model, MODEL_SUBGRAPHS,
					 "subgraphs", 4, &subgraphs));
	cr_assert(opver__fb_vector_table(&fb, &subgraphs, 0, "subgraph",
					 &subgraph));
	cr_assert(opver__fb_vector_field(&fb, &subgraph, SUBGRAPH_OPERATORS,
					 "operators", 4, &operators));
	cr_assert_eq(operators.length, 32);
	first = operators.pos + load32(bytes + operators.pos);
	for (uint32_t i = 1; i < operators.length; i++) {
		size_t entry = operators.pos + (size_t)i * 4;

		cr_assert_gt(first, entry, "flatc writes tables after vectors");
		store32(bytes + entry, (uint32_t)(first - entry));
	}

	setup();
	cr_assert_eq(opver__model_decode(bytes, size, "amplify", &capturing,
					 &graph),
		     OPVER_ERROR_INVALID_MODEL, "%s", captured.text);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert_not_null(strstr(captured.text, "of subgraph 0: "),
			   "%s", captured.text);
	cr_assert_not_null(strstr(captured.text, "decoding needs more than the file's"),
			   "%s", captured.text);
	cr_assert_not_null(strstr(captured.text, "referenced more than once"),
			   "%s", captured.text);
	free(bytes);
}

Test(model_reader, accepts_a_missing_identifier)
{
	size_t size;
	uint8_t *bytes = slurp_model("fc_float", &size);
	opver__graph graph;

	memcpy(bytes + 4, "XXXX", 4);
	cr_assert_eq(opver__model_decode(bytes, size, "noid", &capturing,
					 &graph),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(graph.num_nodes, 1);
	cr_assert_not_null(strstr(captured.text, "noid: no TFL3 file identifier"),
			   "%s", captured.text);
	opver__graph_free(&graph);
	free(bytes);
}

/* Writes `text` to a new temporary file whose name goes to `path`. */
static void temp_file(char *path, size_t size, const char *text)
{
	int fd;

	snprintf(path, size, "/tmp/opver-test-reader-XXXXXX");
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

Test(model_reader, refuses_files_that_are_not_models)
{
	opver__model_file file;
	char path[64];

	temp_file(path, sizeof(path), "");
	cr_assert_eq(opver__model_file_open(path, &capturing, &file),
		     OPVER_ERROR_INVALID_MODEL);
	cr_assert_not_null(strstr(captured.text, "the file is empty"), "%s",
			   captured.text);
	unlink(path);

	setup();
	temp_file(path, sizeof(path), "#!/bin/sh\necho this is no model\n");
	cr_assert_eq(opver__model_file_open(path, &capturing, &file),
		     OPVER_ERROR_INVALID_MODEL);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert_not_null(strstr(captured.text, "lacks the TFL3 identifier"), "%s",
			   captured.text);
	unlink(path);
}

Test(model_reader, reports_io_errors)
{
	opver__model_file file;

	cr_assert_eq(opver__model_file_open(TEST_MODEL_DIR "/missing.tflite",
					    &capturing, &file),
		     OPVER_ERROR_IO);
	cr_assert_not_null(strstr(captured.text, "missing.tflite: cannot open: No such file or directory"),
			   "%s", captured.text);
	setup();
	cr_assert_eq(opver__model_file_open(TEST_MODEL_DIR, &capturing, &file),
		     OPVER_ERROR_IO);
	cr_assert_not_null(strstr(captured.text, "not a regular file"), "%s",
			   captured.text);
	opver__model_file_close(&file);
}

/* What /work/shared/models/README.md states about a corpus model. */
struct corpus_model {
	char name[40];
	/* Distinct "OP vN" of its nodes, by op code then version. */
	char ops[128];
	int32_t num_inputs;
	opver_type input_type;
	int32_t input_rank;
	int32_t input_dims[4];
	opver_type output_type;
	int32_t output_rank;    /* 0: the README gives no output shape */
	int32_t output_dims[4];
	bool has_min_runtime_version;
};

ParameterizedTestParameters(model_reader, corpus_facts)
{
	static struct corpus_model models[] = {
		{ "hello_world_float", "FULLY_CONNECTED v1", 1,
		  OPVER_TYPE_FLOAT32, 2, { 1, 1 }, OPVER_TYPE_FLOAT32, 2,
		  { 1, 1 }, true },
		{ "hello_world_int8", "FULLY_CONNECTED v4", 1, OPVER_TYPE_INT8,
		  2, { 1, 1 }, OPVER_TYPE_INT8, 2, { 1, 1 }, true },
		{ "micro_speech_quantized",
		  "DEPTHWISE_CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2",
		  1, OPVER_TYPE_INT8, 2, { 1, 1960 }, OPVER_TYPE_INT8, 2,
		  { 1, 4 }, true },
		{ "person_detect",
		  "AVERAGE_POOL_2D v2, CONV_2D v2, DEPTHWISE_CONV_2D v3, RESHAPE v1, SOFTMAX v2",
		  1, OPVER_TYPE_INT8, 4, { 1, 96, 96, 1 }, OPVER_TYPE_INT8, 2,
		  { 1, 2 }, false },
		{ "simple_add_model", "ADD v2", 2, OPVER_TYPE_INT8, 4,
		  { 1, 128, 128, 1 }, OPVER_TYPE_INT8, 0, { 0 }, true },
		{ "seanet_add0_int16", "ADD v2", 2, OPVER_TYPE_INT16, 4,
		  { 1, 1, 5, 64 }, OPVER_TYPE_INT16, 0, { 0 }, false },
		{ "test_conv_model",
		  "CONV_2D v3, DEQUANTIZE v2, FULLY_CONNECTED v4, MAX_POOL_2D v2, RESHAPE v1, QUANTIZE v1",
		  1, OPVER_TYPE_FLOAT32, 4, { 1, 16, 16, 1 },
		  OPVER_TYPE_FLOAT32, 2, { 1, 10 }, true },
		{ "network_tester_model", "DEPTHWISE_CONV_2D v3", 1,
		  OPVER_TYPE_INT8, 4, { 1, 8, 8, 16 }, OPVER_TYPE_INT8, 4,
		  { 1, 4, 4, 16 }, true },
		{ "magic_wand",
		  "CONV_2D v1, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, MAX_POOL_2D v1, SOFTMAX v1",
		  1, OPVER_TYPE_FLOAT32, 4, { 1, 128, 3, 1 },
		  OPVER_TYPE_FLOAT32, 2, { 1, 4 }, true },
		{ "mlperf_kws_ref_model_int8",
		  "AVERAGE_POOL_2D v2, CONV_2D v3, DEPTHWISE_CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2",
		  1, OPVER_TYPE_INT8, 4, { 1, 49, 10, 1 }, OPVER_TYPE_INT8, 2,
		  { 1, 12 }, true },
		{ "mlperf_kws_ref_model_float32",
		  "AVERAGE_POOL_2D v1, CONV_2D v2, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v3, RESHAPE v1, SOFTMAX v1",
		  1, OPVER_TYPE_FLOAT32, 4, { 1, 49, 10, 1 },
		  OPVER_TYPE_FLOAT32, 2, { 1, 12 }, true },
		{ "mlperf_vww_96_float",
		  "AVERAGE_POOL_2D v1, CONV_2D v1, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1",
		  1, OPVER_TYPE_FLOAT32, 4, { 1, 96, 96, 3 },
		  OPVER_TYPE_FLOAT32, 2, { 1, 2 }, true },
		{ "mlperf_ic_resnet_float",
		  "ADD v1, AVERAGE_POOL_2D v1, CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1",
		  1, OPVER_TYPE_FLOAT32, 4, { 1, 32, 32, 3 },
		  OPVER_TYPE_FLOAT32, 2, { 1, 10 }, true },
		{ "mlperf_ic_resnet_int8",
		  "ADD v2, AVERAGE_POOL_2D v2, CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2",
		  1, OPVER_TYPE_INT8, 4, { 1, 32, 32, 3 }, OPVER_TYPE_INT8, 2,
		  { 1, 10 }, true },
		{ "litert_mul_add_signature_def", "ADD v1, MUL v1", 2,
		  OPVER_TYPE_FLOAT32, 1, { 1 }, OPVER_TYPE_FLOAT32, 1, { 1 },
		  true },
		{ "litert_test_model_versioned_ops",
		  "CONV_2D v3, CUSTOM testing_op v2", 0, OPVER_TYPE_FLOAT32, 0,
		  { 0 }, OPVER_TYPE_FLOAT32, 0, { 0 }, false },
		{ "litert_single_mul_a8w8", "MUL v1", 2, OPVER_TYPE_INT8, 3,
		  { 1, 32, 32 }, OPVER_TYPE_INT8, 0, { 0 }, true },
	};

	return cr_make_param_array(struct corpus_model, models,
				   sizeof(models) / sizeof(models[0]));
}

/* Appends the distinct "OP vN" of the graph's nodes, by op then version. */
static void describe_ops(const opver__graph *g, char *out, size_t size)
{
	int32_t last_op = -1, last_version = 0;

	out[0] = '\0';
	for (;;) {
		int32_t op = -1, version = 0;
		const char *custom = NULL;
		size_t used = strlen(out);

		/* The smallest (op, version) above the last one printed. */
		for (int32_t i = 0; i < g->num_nodes; i++) {
			const opver__graph_node *n = &g->nodes[i];
			bool after = n->op > last_op ||
				     (n->op == last_op &&
				      n->version > last_version);
			bool before = op < 0 || n->op < op ||
				      (n->op == op && n->version < version);

			if (after && before) {
				op = n->op;
				version = n->version;
				custom = n->custom_name;
			}
		}
		if (op < 0)
			return;
		snprintf(out + used, size - used, "%s%s%s%s v%d",
			 used ? ", " : "", opver_op_name(op),
			 custom ? " " : "", custom ? custom : "", version);
		last_op = op;
		last_version = version;
	}
}

ParameterizedTest(struct corpus_model *model, model_reader, corpus_facts)
{
	const char *corpus = getenv("OPVER_MODEL_CORPUS");
	opver__model_file file;
	const opver__graph *g = &file.graph;
	char path[4096], ops[512];
	opver_status status;

	if (corpus == NULL || corpus[0] == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set: corpus models not read");
	setup();
	snprintf(path, sizeof(path), "%s/%s.tflite", corpus, model->name);
	status = opver__model_file_open(path, &capturing, &file);
	cr_assert_eq(status, OPVER_OK, "%s: %s\n%s", model->name,
		     opver_status_name(status), captured.text);
	cr_assert_eq(messages_total(&captured), 0, "%s", captured.text);

	describe_ops(g, ops, sizeof(ops));
	cr_assert_str_eq(ops, model->ops, "%s", model->name);
	if (model->num_inputs != 0) {
		cr_assert_eq(g->num_inputs, model->num_inputs);
		for (int32_t i = 0; i < g->num_inputs; i++) {
			const opver__graph_tensor *t = &g->tensors[g->inputs[i]];

			cr_assert_eq(t->type, model->input_type);
			assert_dims(t, model->input_rank, model->input_dims);
		}
		cr_assert_eq(g->tensors[g->outputs[0]].type,
			     model->output_type);
	}
	if (model->output_rank != 0)
		assert_dims(&g->tensors[g->outputs[0]], model->output_rank,
			    model->output_dims);
	cr_assert_eq(g->min_runtime_version != NULL,
		     model->has_min_runtime_version, "%s", model->name);
	if (g->min_runtime_version != NULL)
		cr_assert_gt(strlen(g->min_runtime_version), 0);

	/* Per-channel 1-D tensors (person_detect's biases) read as axis 0. */
	for (int32_t i = 0; i < g->num_tensors; i++) {
		const opver__graph_tensor *t = &g->tensors[i];

		if (t->rank == 1 && t->quant.count > 1) {
			cr_assert_eq(t->quant.axis, 0);
			cr_assert_eq(t->quant.count, t->dims[0]);
		}
	}
	opver__model_file_close(&file);
}

Test(model_reader, keeps_weights_in_the_mapping)
{
	const char *corpus = getenv("OPVER_MODEL_CORPUS");
	opver__model_file file;
	char path[4096];
	size_t constant_bytes = 0;

	if (corpus == NULL || corpus[0] == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set: corpus models not read");
	/* The largest model of the corpus. */
	snprintf(path, sizeof(path), "%s/mlperf_vww_96_float.tflite", corpus);
	cr_assert_eq(opver__model_file_open(path, &capturing, &file), OPVER_OK,
		     "%s", captured.text);
	for (int32_t i = 0; i < file.graph.num_tensors; i++) {
		const opver__graph_tensor *t = &file.graph.tensors[i];

		if (t->constant_data == NULL)
			continue;
		cr_assert(in_mapping(&file, t->constant_data, t->bytes),
			  "tensor %d's data is outside the mapping", i);
		constant_bytes += t->bytes;
	}
	/* Nearly the whole file is weights, and none was copied. */
	cr_assert_gt(constant_bytes, file.size / 2);
	opver__model_file_close(&file);
}
