/*
 * opver_run_dump.c - which tensors hold what the model computed after an
 * invoke of an interpreter created with preserve_intermediates, and
 * --dump-tensors, which writes each of them as a .npy file with an index.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "npy_io.h"
#include "opver_run.h"

static bool is_graph_output(opver_interpreter *it, const opver_tensor *t)
{
	for (size_t o = 0; o < opver_interpreter_output_count(it); o++)
		if (opver_interpreter_output(it, o) == t)
			return true;
	return false;
}

struct tensor_origin *run_tensor_origins(opver_interpreter *it)
{
	size_t tensors = opver_interpreter_tensor_count(it);
	size_t nodes = opver_interpreter_node_count(it);
	struct tensor_origin *origin = calloc(tensors + 1, sizeof(*origin));
	/* The partition of each node, -1 on a kernel. */
	int32_t *partition = malloc((nodes + 1) * sizeof(*partition));
	const int32_t *inputs, *outputs;
	int32_t num_inputs, num_outputs;
	opver_node_info info;

	if (origin == NULL || partition == NULL) {
		free(origin);
		free(partition);
		return NULL;
	}
	for (size_t t = 0; t < tensors; t++) {
		const opver_tensor *tensor = opver_interpreter_tensor(it, t);

		origin[t].node = -1;
		for (size_t i = 0; i < opver_interpreter_input_count(it); i++)
			origin[t].computed |= opver_interpreter_input(it, i) ==
					      tensor;
	}
	for (size_t n = 0; n < nodes; n++) {
		(void)opver_interpreter_node_info(it, n, &info);
		partition[n] = info.partition;
		(void)opver_interpreter_node_tensors(it, n, &inputs,
						     &num_inputs, &outputs,
						     &num_outputs);
		for (int32_t o = 0; o < num_outputs; o++) {
			struct tensor_origin *out = &origin[outputs[o]];

			out->node = (int32_t)n;
			out->computed = info.partition < 0 ||
					is_graph_output(
						it, opver_interpreter_tensor(
							    it, outputs[o]));
		}
	}
	/* A delegate writes what its partition hands to another step. */
	for (size_t n = 0; n < nodes; n++) {
		(void)opver_interpreter_node_tensors(it, n, &inputs,
						     &num_inputs, &outputs,
						     &num_outputs);
		for (int32_t i = 0; i < num_inputs; i++) {
			struct tensor_origin *in;

			if (inputs[i] < 0)
				continue;
			in = &origin[inputs[i]];
			if (in->node >= 0 && partition[in->node] != partition[n])
				in->computed = true;
		}
	}
	free(partition);
	return origin;
}

/* The file of tensor `t` in `dir`. */
static void tensor_file(char *path, size_t size, const char *dir, size_t t)
{
	snprintf(path, size, "%s/tensor_%zu.npy", dir, t);
}

static void index_entry(json_writer *w, opver_interpreter *it, size_t t,
			int32_t producer, const char *file)
{
	const opver_tensor *tensor = opver_interpreter_tensor(it, t);
	opver_node_info info;
	char op[96];

	json_begin_object(w);
	json_key(w, "tensor");
	json_uint(w, t);
	json_key(w, "name");
	json_string(w, tensor->name);
	json_key(w, "file");
	json_string(w, file);
	json_key(w, "node");
	if (producer >= 0) {
		(void)opver_interpreter_node_info(it, (size_t)producer, &info);
		json_int(w, producer);
		run_format_op(info.op, info.custom_name, op, sizeof(op));
		json_key(w, "op");
		json_string(w, op);
		json_key(w, "plugin");
		json_string(w, info.plugin);
		json_key(w, "kernel");
		json_string(w, info.kernel);
		json_key(w, "delegate");
		json_string(w, info.delegate);
	} else {
		json_null(w);
	}
	json_end_object(w);
}

int run_dump_tensors(struct session *s)
{
	const char *dir = s->cmd.dump_tensors;
	struct tensor_origin *origin = run_tensor_origins(s->interpreter);
	char path[4096], error[512];
	size_t written = 0;
	json_writer index;
	FILE *file;
	int status = EXIT_RUN_FAILED;

	if (origin == NULL) {
		fputs("opver-run: out of memory\n", stderr);
		return EXIT_RUN_FAILED;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "opver-run: --dump-tensors %s: %s\n", dir,
			strerror(errno));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/index.json", dir);
	file = fopen(path, "w");
	if (file == NULL) {
		fprintf(stderr, "opver-run: %s: %s\n", path, strerror(errno));
		goto out;
	}
	json_init(&index, file);
	json_begin_array(&index);
	for (size_t t = 0; t < opver_interpreter_tensor_count(s->interpreter);
	     t++) {
		const opver_tensor *tensor =
			opver_interpreter_tensor(s->interpreter, t);

		if (!origin[t].computed || npy_descr(tensor->type) == NULL)
			continue;
		tensor_file(path, sizeof(path), dir, t);
		if (npy_write_tensor(path, tensor, error, sizeof(error)) !=
		    NPY_OK) {
			fprintf(stderr, "opver-run: tensor %zu '%s': %s\n", t,
				tensor->name, error);
			json_end_array(&index);
			json_finish(&index);
			fclose(file);
			goto out;
		}
		index_entry(&index, s->interpreter, t, origin[t].node,
			    strrchr(path, '/') + 1);
		written++;
	}
	json_end_array(&index);
	json_finish(&index);
	if (fclose(file) != 0) {
		fprintf(stderr, "opver-run: %s/index.json: %s\n", dir,
			strerror(errno));
		goto out;
	}
	if (!s->cmd.json)
		printf("dumped %zu tensors to %s (index.json lists them)\n",
		       written, dir);
	status = EXIT_SUCCESS;
out:
	free(origin);
	return status;
}
