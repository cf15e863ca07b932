/*
 * opver_run_tensors.c - opver-run's tensor files: the model's inputs from
 * -i files (or zeros), its outputs to -o files or shown as text or JSON.
 * An input is .npy (npy_io.h) by its name or magic, an output by its
 * name; anything else is raw.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_io.h"
#include "opver_run.h"
#include "raw_io.h"

/* Values printed per output when no -o is given. */
#define PRINTED_VALUES 16

/* --input-shape: each input's new shape, then one allocation.  A shape
 * the library or a kernel refuses is a usage error; memory past the
 * limits a run failure. */
static int resize_inputs(struct session *s)
{
	const struct command *cmd = &s->cmd;
	opver_status status = OPVER_OK;
	char subject[64];

	for (size_t i = 0; i < cmd->num_input_shapes && status == OPVER_OK;
	     i++) {
		const struct input_shape *shape = &cmd->input_shapes[i];

		snprintf(subject, sizeof(subject), "--input-shape %zu",
			 shape->index);
		status = opver_interpreter_resize_input(s->interpreter,
							shape->index,
							shape->dims,
							shape->rank);
	}
	if (status == OPVER_OK) {
		double start = run_now_ms();

		snprintf(subject, sizeof(subject), "--input-shape");
		status = opver_interpreter_allocate_tensors(s->interpreter);
		s->allocate_ms = run_now_ms() - start;
	}
	if (status == OPVER_OK)
		return EXIT_SUCCESS;
	return run_fail(s, status == OPVER_ERROR_NOMEM ? EXIT_RUN_FAILED
						      : EXIT_USAGE,
			subject, status);
}

/* Resizes the inputs --input-shape names and allocates, then checks the
 * -i and -o counts against the model, fills its inputs, and says whether
 * the model should run. */
int run_prepare_inputs(struct session *s, bool *run)
{
	size_t inputs = opver_interpreter_input_count(s->interpreter);
	size_t outputs = opver_interpreter_output_count(s->interpreter);
	const struct command *cmd = &s->cmd;
	char error[512];
	bool failed;

	*run = run_runs_model(cmd);
	if (*run && cmd->num_input_shapes > 0) {
		int resized = resize_inputs(s);

		if (resized != EXIT_SUCCESS)
			return resized;
	}
	if (cmd->num_inputs > 0 && cmd->num_inputs != inputs)
		return run_usage_error("%s has %zu input%s but -i was given %zu time%s",
				       cmd->model, inputs,
				       inputs == 1 ? "" : "s", cmd->num_inputs,
				       cmd->num_inputs == 1 ? "" : "s");
	if (cmd->num_outputs > outputs)
		return run_usage_error("%s has %zu output%s but -o was given %zu times",
				       cmd->model, outputs,
				       outputs == 1 ? "" : "s",
				       cmd->num_outputs);
	if (*run && cmd->num_inputs == 0 && inputs > 0 &&
	    cmd->benchmark_runs == 0)
		return run_usage_error("%s has %zu input%s: give each as %s",
				       cmd->model, inputs,
				       inputs == 1 ? "" : "s",
				       cmd->signature != NULL ?
					       "-i NAME=FILE, NAME the signature's" :
					       "-i FILE, in the model's input order");
	for (size_t i = 0; i < cmd->num_outputs; i++) {
		const opver_tensor *t = opver_interpreter_output(s->interpreter,
								 i);

		if (cmd->outputs[i] != NULL && npy_named(cmd->outputs[i]) &&
		    npy_descr(t->type) == NULL)
			return run_usage_error("output %zu '%s' is %s, which has no numpy dtype: give %s a name without .npy for a raw file",
					       i, t->name,
					       opver_type_name(t->type),
					       cmd->outputs[i]);
	}
	for (size_t i = 0; i < inputs && *run; i++) {
		opver_tensor *t = opver_interpreter_input(s->interpreter, i);

		if (cmd->num_inputs == 0) {
			/* A tensor with no elements has no data at all. */
			if (t->bytes > 0)
				memset(t->data, 0, t->bytes);
			continue;
		}
		if (npy_is_npy(cmd->inputs[i]))
			failed = npy_read_tensor(cmd->inputs[i], t, "input",
						 error, sizeof(error)) != NPY_OK;
		else
			failed = raw_read_tensor(cmd->inputs[i], t, "input",
						 error, sizeof(error)) != RAW_OK;
		if (failed) {
			fprintf(stderr, "opver-run: input %zu '%s': %s\n", i,
				t->name, error);
			return EXIT_USAGE;
		}
	}
	return EXIT_SUCCESS;
}

static void print_values(const opver_tensor *t)
{
	size_t n = opver_tensor_elements(t);
	raw_value v;

	for (size_t i = 0; i < n && i < PRINTED_VALUES; i++) {
		if (!raw_element(t->type, t->data, i, &v)) {
			printf(" (values of %s not shown)",
			       opver_type_name(t->type));
			break;
		}
		if (v.kind == RAW_VALUE_FLOAT)
			printf(" %g", v.as.f);
		else if (v.kind == RAW_VALUE_INT)
			printf(" %" PRId64, v.as.i);
		else
			printf(" %" PRIu64, v.as.u);
	}
	if (n > PRINTED_VALUES)
		printf(" ...");
}

static void json_output(json_writer *w, size_t index, const opver_tensor *t)
{
	size_t n = opver_tensor_elements(t);
	raw_value v;

	json_begin_object(w);
	json_key(w, "index");
	json_uint(w, index);
	json_key(w, "name");
	json_string(w, t->name);
	json_key(w, "type");
	json_string(w, opver_type_name(t->type));
	json_key(w, "shape");
	json_begin_array(w);
	for (int32_t i = 0; i < t->rank; i++)
		json_int(w, t->dims[i]);
	json_end_array(w);
	json_key(w, "elements");
	json_uint(w, n);
	/* The first values, as in the text output; empty for types without
	 * plain numbers. */
	json_key(w, "values");
	json_begin_array(w);
	for (size_t i = 0; i < n && i < PRINTED_VALUES &&
			   raw_element(t->type, t->data, i, &v); i++) {
		if (t->type == OPVER_TYPE_FLOAT32)
			json_float(w, (float)v.as.f);
		else if (v.kind == RAW_VALUE_FLOAT)
			json_double(w, v.as.f);
		else if (v.kind == RAW_VALUE_INT)
			json_int(w, v.as.i);
		else
			json_uint(w, v.as.u);
	}
	json_end_array(w);
	json_end_object(w);
}

void run_show_outputs(struct session *s)
{
	size_t outputs = opver_interpreter_output_count(s->interpreter);
	char signature[128];

	if (s->cmd.json) {
		json_key(&s->json, "outputs");
		json_begin_array(&s->json);
	}
	for (size_t i = 0; i < outputs; i++) {
		const opver_tensor *t = opver_interpreter_output(s->interpreter,
								 i);

		if (s->cmd.json) {
			json_output(&s->json, i, t);
			continue;
		}
		raw_format_signature(t, signature, sizeof(signature));
		printf("output %zu '%s' %s:", i, t->name, signature);
		print_values(t);
		printf("\n");
	}
	if (s->cmd.json)
		json_end_array(&s->json);
}

int run_write_outputs(struct session *s)
{
	char error[512];

	for (size_t i = 0; i < s->cmd.num_outputs; i++) {
		const opver_tensor *t = opver_interpreter_output(s->interpreter,
								 i);
		bool failed;

		/* --signature: an output no -o named. */
		if (s->cmd.outputs[i] == NULL)
			continue;
		failed = npy_named(s->cmd.outputs[i]) ?
			npy_write_tensor(s->cmd.outputs[i], t, error,
					 sizeof(error)) != NPY_OK :
			raw_write_tensor(s->cmd.outputs[i], t, error,
					 sizeof(error)) != RAW_OK;

		if (failed) {
			fprintf(stderr, "opver-run: output %zu '%s': %s\n", i,
				t->name, error);
			return EXIT_RUN_FAILED;
		}
	}
	return EXIT_SUCCESS;
}
