/*
 * test_op_version_graph.c - signatures read from a test model and, when
 * OPVER_MODEL_CORPUS names the model corpus, the versions its 17 real models
 * need, worked out by hand from its README and TFLite's rules.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "messages.h"
#include "model_reader.h"
#include "op_version_nodes.h"

/* ------------------------------------------- signatures from a graph */

static messages captured;
static opver__reporter reporter;

static void open_model(const char *path, opver__model_file *file)
{
	opver_status status;

	reporter = messages_reporter(&captured);
	status = opver__model_file_open(path, &reporter, file);
	cr_assert_eq(status, OPVER_OK, "%s: %s\n%s", path,
		     opver_status_name(status), captured.text);
}

/* The signature of node `index` in tensors[] (room for 8 tensors). */
static void graph_signature(const opver__graph *g, int32_t index,
			    opver__op_signature *sig,
			    opver__tensor_signature *tensors)
{
	cr_assert_leq(g->nodes[index].num_inputs + g->nodes[index].num_outputs,
		      8);
	opver__op_signature_from_graph(g, index, sig, tensors);
}

Test(signature_from_graph, copies_what_the_rules_read)
{
	opver__model_file file;
	const opver__graph *g = &file.graph;
	opver__tensor_signature tensors[8];
	opver__op_signature sig;

	open_model(TEST_MODEL_DIR "/op_signature.tflite", &file);
	cr_assert_eq(g->num_nodes, 3);

	/* Grouped int8 CONV_2D: the dims decide version 6. */
	graph_signature(g, 0, &sig, tensors);
	cr_assert_eq(sig.op, OPVER_OP_CONV_2D);
	cr_assert_eq(sig.params, g->nodes[0].params);
	cr_assert_eq(sig.params_size, sizeof(opver_conv_params));
	cr_assert_eq(sig.num_inputs, 3);
	cr_assert_eq(sig.num_outputs, 1);
	cr_assert_eq(sig.inputs, tensors);
	cr_assert_eq(sig.outputs, tensors + 3);
	cr_assert_eq(sig.inputs[0].type, OPVER_TYPE_INT8);
	cr_assert_eq(sig.inputs[0].rank, 4);
	cr_assert_eq(sig.inputs[0].dims[3], 4);
	cr_assert(sig.inputs[0].has_quantization);
	cr_assert_eq(sig.inputs[0].quant_count, 1);
	cr_assert_float_eq(sig.inputs[0].scale[0], 0.5f, 0);
	cr_assert_not(sig.inputs[0].is_constant);
	cr_assert_eq(sig.inputs[1].dims[3], 2);
	cr_assert_eq(sig.inputs[1].quant_count, 2);
	cr_assert_float_eq(sig.inputs[1].scale[1], 0.125f, 0);
	cr_assert_eq(sig.inputs[1].quant_axis, 0);
	cr_assert(sig.inputs[1].is_constant);
	cr_assert_not(sig.inputs[1].is_sparse);
	cr_assert_eq(sig.inputs[2].type, OPVER_TYPE_INT32);
	cr_assert(sig.inputs[2].is_constant);
	cr_assert_eq(sig.outputs[0].type, OPVER_TYPE_INT8);
	cr_assert_eq(sig.outputs[0].dims[3], 2);
	cr_assert_not(sig.outputs[0].is_constant);
	expect(&sig, 6, "grouped convolution: input has 4 channels, filter 2");

	/* FULLY_CONNECTED with an omitted bias and an empty table. */
	graph_signature(g, 1, &sig, tensors);
	cr_assert_eq(sig.op, OPVER_OP_FULLY_CONNECTED);
	cr_assert_eq(sig.num_inputs, 3);
	cr_assert_eq(sig.inputs[2].type, -1);
	cr_assert_eq(sig.inputs[2].rank, 0);
	cr_assert_not(sig.inputs[2].has_quantization);
	cr_assert(sig.inputs[0].has_quantization);
	cr_assert_eq(sig.inputs[0].quant_count, 0);
	cr_assert(sig.inputs[1].is_constant);
	cr_assert_eq(sig.outputs, tensors + 3);
	cr_assert_eq(sig.outputs[0].type, OPVER_TYPE_FLOAT32);
	expect(&sig, 1, "float32 tensors");

	/* ADD of int16 tensors without quantization tables, stored as 1. */
	graph_signature(g, 2, &sig, tensors);
	cr_assert_eq(g->nodes[2].version, 1);
	cr_assert_not(sig.inputs[0].has_quantization);
	cr_assert_eq(sig.outputs, tensors + 2);
	expect(&sig, 5, "int16 input without quantization");
	opver__model_file_close(&file);
}

/* ------------------------------------------------------- the corpus */

/* The versions a corpus model's nodes need, by hand from
 * /work/shared/models/README.md, the tensors of each model and TFLite's
 * rules: the distinct "OP vN" over every node, by op code then version. */
struct corpus_versions {
	char model[40];
	char required[160];
};

ParameterizedTestParameters(corpus, every_node_needs_the_hand_worked_version)
{
	static struct corpus_versions models[] = {
		{ "hello_world_float", "FULLY_CONNECTED v1" },
		{ "hello_world_int8", "FULLY_CONNECTED v4" },
		{ "micro_speech_quantized",
		  "DEPTHWISE_CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2" },
		/* CONV_2D stored as v2; int8 everywhere needs 3. */
		{ "person_detect",
		  "AVERAGE_POOL_2D v2, CONV_2D v3, DEPTHWISE_CONV_2D v3, RESHAPE v1, SOFTMAX v2" },
		{ "simple_add_model", "ADD v2" },
		/* Quantized int16 with pot_scale_int16 false: 3 (stored 2). */
		{ "seanet_add0_int16", "ADD v3" },
		/* QUANTIZE float to per-tensor int8: 1; DEQUANTIZE of
		 * per-tensor int8: 2. */
		{ "test_conv_model",
		  "CONV_2D v3, DEQUANTIZE v2, FULLY_CONNECTED v4, MAX_POOL_2D v2, RESHAPE v1, QUANTIZE v1" },
		{ "network_tester_model", "DEPTHWISE_CONV_2D v3" },
		{ "magic_wand",
		  "CONV_2D v1, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, MAX_POOL_2D v1, SOFTMAX v1" },
		{ "mlperf_kws_ref_model_int8",
		  "AVERAGE_POOL_2D v2, CONV_2D v3, DEPTHWISE_CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2" },
		/* Hybrid CONV_2D with one filter scale for 64 filters: 2;
		 * float FULLY_CONNECTED with a bias: 1 (stored 3). */
		{ "mlperf_kws_ref_model_float32",
		  "AVERAGE_POOL_2D v1, CONV_2D v2, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1" },
		{ "mlperf_vww_96_float",
		  "AVERAGE_POOL_2D v1, CONV_2D v1, DEPTHWISE_CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1" },
		{ "mlperf_ic_resnet_float",
		  "ADD v1, AVERAGE_POOL_2D v1, CONV_2D v1, FULLY_CONNECTED v1, RESHAPE v1, SOFTMAX v1" },
		{ "mlperf_ic_resnet_int8",
		  "ADD v2, AVERAGE_POOL_2D v2, CONV_2D v3, FULLY_CONNECTED v4, RESHAPE v1, SOFTMAX v2" },
		{ "litert_mul_add_signature_def", "ADD v1, MUL v1" },
		/* A float CONV_2D of rank-1 tensors (stored 3) needs 1. */
		{ "litert_test_model_versioned_ops",
		  "CONV_2D v1, CUSTOM testing_op v1" },
		/* Int8 with rescale 0.0039 * 0.0039 / 0.0038 < 1: 2 (stored
		 * 1). */
		{ "litert_single_mul_a8w8", "MUL v2" },
	};

	return cr_make_param_array(struct corpus_versions, models,
				   sizeof(models) / sizeof(models[0]));
}

/* The model's path in the corpus; skips the test without a corpus. */
static void corpus_path(const char *model, char *path, size_t size)
{
	const char *corpus = getenv("OPVER_MODEL_CORPUS");

	if (corpus == NULL || corpus[0] == '\0')
		cr_skip_test("OPVER_MODEL_CORPUS is not set: corpus models not read");
	snprintf(path, size, "%s/%s.tflite", corpus, model);
}

/* The version node `index` needs, asserting its reason is not empty. */
static int32_t node_required_version(const opver__graph *g, int32_t index,
				     char *reason, size_t reason_size)
{
	opver__tensor_signature tensors[8];
	opver__op_signature sig;
	int32_t version;

	graph_signature(g, index, &sig, tensors);
	version = opver__op_required_version(&sig, reason, reason_size);
	cr_assert_gt(strlen(reason), 0, "node %d has no reason", index);
	return version;
}

ParameterizedTest(struct corpus_versions *model, corpus,
		  every_node_needs_the_hand_worked_version)
{
	int32_t required[256];
	int32_t last_op = -1, last_version = 0;
	char path[4096], text[512], reason[OPVER__VERSION_REASON_SIZE];
	opver__model_file file;
	const opver__graph *g = &file.graph;

	corpus_path(model->model, path, sizeof(path));
	open_model(path, &file);
	cr_assert_leq(g->num_nodes, COUNT(required));
	for (int32_t i = 0; i < g->num_nodes; i++)
		required[i] = node_required_version(g, i, reason,
						    sizeof(reason));

	/* The distinct (op, version) pairs in order, as "OP vN, ...". */
	text[0] = '\0';
	for (;;) {
		int32_t op = -1, version = 0, node = -1;
		size_t used = strlen(text);

		for (int32_t i = 0; i < g->num_nodes; i++) {
			int32_t o = g->nodes[i].op, v = required[i];
			bool after = o > last_op ||
				     (o == last_op && v > last_version);
			bool before = op < 0 || o < op ||
				      (o == op && v < version);

			if (after && before) {
				op = o;
				version = v;
				node = i;
			}
		}
		if (node < 0)
			break;
		snprintf(text + used, sizeof(text) - used, "%s%s%s%s v%d",
			 used ? ", " : "", opver_op_name(op),
			 g->nodes[node].custom_name ? " " : "",
			 g->nodes[node].custom_name ? g->nodes[node].custom_name
						    : "",
			 version);
		last_op = op;
		last_version = version;
	}
	cr_assert_str_eq(text, model->required, "%s", model->model);
	opver__model_file_close(&file);
}

/* Each version the corpus README states for a node that stores another,
 * with the fact that decides it. */
Test(corpus, readme_stated_versions_and_their_reasons)
{
	static const struct {
		const char *model;
		int32_t op;
		int32_t stored;
		int32_t required;
		const char *fact;
	} stated[] = {
		{ "litert_single_mul_a8w8", OPVER_OP_MUL, 1, 2, "int8 input" },
		{ "person_detect", OPVER_OP_CONV_2D, 2, 3,
		  "int8 input and filter, int8 output" },
		{ "seanet_add0_int16", OPVER_OP_ADD, 2, 3,
		  "pot_scale_int16 false with int16 tensors" },
		{ "mlperf_kws_ref_model_float32", OPVER_OP_FULLY_CONNECTED, 3,
		  1, "float32 tensors" },
		{ "mlperf_kws_ref_model_float32", OPVER_OP_CONV_2D, 2, 2,
		  "per-tensor int8 filter with float input (hybrid)" },
	};

	for (int32_t s = 0; s < COUNT(stated); s++) {
		char path[4096], reason[OPVER__VERSION_REASON_SIZE];
		opver__model_file file;
		int32_t nodes = 0;

		corpus_path(stated[s].model, path, sizeof(path));
		open_model(path, &file);
		for (int32_t i = 0; i < file.graph.num_nodes; i++) {
			const opver__graph_node *node = &file.graph.nodes[i];

			if (node->op != stated[s].op)
				continue;
			nodes++;
			cr_assert_eq(node->version, stated[s].stored,
				     "%s node %d", stated[s].model, i);
			cr_assert_eq(node_required_version(&file.graph, i,
							   reason,
							   sizeof(reason)),
				     stated[s].required, "%s node %d: %s",
				     stated[s].model, i, reason);
			cr_assert_not_null(strstr(reason, stated[s].fact),
					   "%s node %d: \"%s\"",
					   stated[s].model, i, reason);
		}
		cr_assert_gt(nodes, 0, "%s has no %s", stated[s].model,
			     opver_op_name(stated[s].op));
		opver__model_file_close(&file);
	}
}
