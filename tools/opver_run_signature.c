/*
 * opver_run_signature.c - opver-run --signature KEY: the signature's
 * subgraph, its -i NAME=FILE and -o NAME=FILE put in the subgraph's input
 * and output order, and --explain's list of the model's signatures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opver_run.h"

int run_signature_subgraph(struct session *s, int64_t *subgraph)
{
	size_t count = opver_model_signature_count(s->model);
	opver_signature_info info;
	char keys[512] = "";
	size_t used = 0;

	for (size_t i = 0; i < count; i++) {
		/* Only an index out of range fails. */
		(void)opver_model_signature_info(s->model, i, &info);
		if (strcmp(info.key, s->cmd.signature) == 0) {
			*subgraph = info.subgraph;
			return EXIT_SUCCESS;
		}
		if (used < sizeof(keys))
			used += (size_t)snprintf(keys + used,
						 sizeof(keys) - used, "%s'%s'",
						 i ? ", " : "", info.key);
	}
	if (count == 0)
		return run_usage_error("%s has no signatures, so --signature '%s' names none",
				       s->cmd.model, s->cmd.signature);
	return run_usage_error("%s has no signature '%s'; its signatures are %s",
			       s->cmd.model, s->cmd.signature, keys);
}

/* The index of the signature --signature names (run_signature_subgraph
 * found it). */
static size_t signature_index(const struct session *s)
{
	size_t count = opver_model_signature_count(s->model);
	opver_signature_info info;

	for (size_t i = 0; i < count; i++) {
		(void)opver_model_signature_info(s->model, i, &info);
		if (strcmp(info.key, s->cmd.signature) == 0)
			return i;
	}
	return count;
}

/* The position among the interpreter's inputs (outputs when `output`) of
 * its tensor `tensor`, or -1. */
static long position(opver_interpreter *it, int32_t tensor, bool output)
{
	const opver_tensor *t = opver_interpreter_tensor(it, (size_t)tensor);
	size_t count = output ? opver_interpreter_output_count(it) :
				opver_interpreter_input_count(it);

	for (size_t p = 0; t != NULL && p < count; p++)
		if ((output ? opver_interpreter_output(it, p) :
			      opver_interpreter_input(it, p)) == t)
			return (long)p;
	return -1;
}

/* The tensor of the signature's input (output) named by the `length`
 * bytes at `name`, or -1. */
static int32_t find_name(const struct session *s, size_t signature,
			 bool output, const char *name, size_t length)
{
	const char *entry;
	int32_t tensor;

	for (size_t j = 0;; j++) {
		opver_status status =
			output ? opver_model_signature_output(s->model, signature,
							      j, &entry, &tensor)
			       : opver_model_signature_input(s->model, signature,
							     j, &entry, &tensor);

		if (status != OPVER_OK)
			return -1;
		if (strlen(entry) == length && strncmp(entry, name, length) == 0)
			return tensor;
	}
}

/* Puts NAME=FILE argument `arg` into its slot of `ordered`. */
static int place_file(struct session *s, size_t signature, bool output,
		      const char *arg, const char **ordered)
{
	const char *flag = output ? "-o" : "-i";
	const char *role = output ? "output" : "input";
	const char *eq = strchr(arg, '=');
	int length;
	int32_t tensor;
	long p;

	if (eq == NULL)
		return run_usage_error("with --signature, %s takes NAME=FILE, not '%s'",
				       flag, arg);
	length = (int)(eq - arg);
	tensor = find_name(s, signature, output, arg, (size_t)length);
	if (tensor < 0)
		return run_usage_error("signature '%s' has no %s named '%.*s'",
				       s->cmd.signature, role, length, arg);
	p = position(s->interpreter, tensor, output);
	if (p < 0)
		return run_usage_error("signature '%s' %s '%.*s' is tensor %d, which is no %s of the signature's subgraph",
				       s->cmd.signature, role, length, arg,
				       (int)tensor, role);
	if (ordered[p] != NULL)
		return run_usage_error("%s names '%.*s' twice", flag, length,
				       arg);
	ordered[p] = eq + 1;
	return EXIT_SUCCESS;
}

/*
 * Puts the NAME=FILE arguments in *files (*count of them) in the
 * subgraph's order, into a new array (*files then, owned by the caller;
 * the old one is freed) of one slot per input (output), NULL where none
 * was named.  Inputs are all named or none (zeros).
 */
static int order_files(struct session *s, size_t signature, bool output,
		       const char ***files, size_t *count)
{
	size_t slots = output ? opver_interpreter_output_count(s->interpreter) :
				opver_interpreter_input_count(s->interpreter);
	const char **ordered = calloc(slots ? slots : 1, sizeof(*ordered));
	int status = EXIT_SUCCESS;

	if (ordered == NULL) {
		fputs("opver-run: out of memory\n", stderr);
		return EXIT_RUN_FAILED;
	}
	for (size_t i = 0; status == EXIT_SUCCESS && i < *count; i++)
		status = place_file(s, signature, output, (*files)[i], ordered);
	for (size_t p = 0; status == EXIT_SUCCESS && !output && *count > 0 &&
			   p < slots; p++)
		if (ordered[p] == NULL)
			status = run_usage_error("signature '%s': input %zu '%s' has no -i NAME=FILE",
						 s->cmd.signature, p,
						 opver_interpreter_input(s->interpreter, p)->name);
	if (status != EXIT_SUCCESS) {
		free(ordered);
		return status;
	}
	free(*files);
	*files = ordered;
	*count = *count > 0 ? slots : 0;
	return EXIT_SUCCESS;
}

int run_signature_files(struct session *s)
{
	size_t signature = signature_index(s);
	int status = order_files(s, signature, false, &s->cmd.inputs,
				 &s->cmd.num_inputs);

	if (status == EXIT_SUCCESS)
		status = order_files(s, signature, true, &s->cmd.outputs,
				     &s->cmd.num_outputs);
	return status;
}

/* One side of a signature: "x (tensor 0), y (tensor 3)" as text, or a
 * JSON array of {name, tensor}. */
static void explain_side(struct session *s, size_t signature, bool output)
{
	const char *name;
	int32_t tensor;

	if (s->cmd.json)
		json_begin_array(&s->json);
	for (size_t j = 0;; j++) {
		opver_status status =
			output ? opver_model_signature_output(s->model, signature,
							      j, &name, &tensor)
			       : opver_model_signature_input(s->model, signature,
							     j, &name, &tensor);

		if (status != OPVER_OK)
			break;
		if (!s->cmd.json) {
			printf("%s%s (tensor %d)", j ? ", " : " ", name,
			       (int)tensor);
			continue;
		}
		json_begin_object(&s->json);
		json_key(&s->json, "name");
		json_string(&s->json, name);
		json_key(&s->json, "tensor");
		json_int(&s->json, tensor);
		json_end_object(&s->json);
	}
	if (s->cmd.json)
		json_end_array(&s->json);
}

void run_explain_signatures(struct session *s)
{
	size_t count = opver_model_signature_count(s->model);
	opver_signature_info info;

	if (s->cmd.json) {
		json_key(&s->json, "signatures");
		json_begin_array(&s->json);
	}
	for (size_t i = 0; i < count; i++) {
		(void)opver_model_signature_info(s->model, i, &info);
		if (s->cmd.json) {
			json_begin_object(&s->json);
			json_key(&s->json, "key");
			json_string(&s->json, info.key);
			json_key(&s->json, "subgraph");
			json_uint(&s->json, info.subgraph);
			json_key(&s->json, "inputs");
			explain_side(s, i, false);
			json_key(&s->json, "outputs");
			explain_side(s, i, true);
			json_end_object(&s->json);
			continue;
		}
		printf("signature '%s' on subgraph %u%s: inputs", info.key,
		       (unsigned)info.subgraph,
		       s->cmd.signature != NULL &&
				       strcmp(s->cmd.signature, info.key) == 0
			       ? " (the one run)" : "");
		explain_side(s, i, false);
		printf("; outputs");
		explain_side(s, i, true);
		printf("\n");
	}
	if (s->cmd.json)
		json_end_array(&s->json);
}
