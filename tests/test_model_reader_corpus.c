/*
 * test_model_reader_corpus.c - when OPVER_MODEL_CORPUS names the model
 * corpus, the facts its README states about each of its 17 real models, and
 * that their weights stay in the mapping.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_files.h"

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
