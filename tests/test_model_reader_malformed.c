/*
 * test_model_reader_malformed.c - the model reader on malformed models:
 * one precise message for each, every truncation and thousands of byte
 * corruptions of valid files (which must decode or fail, never crash),
 * reference amplification, files that are not models and I/O failures.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flatbuffer.h"
#include "schema/opver_ids.h"
#include "model_files.h"

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
