/*
 * opver_run.c - opver-run, the command-line front end of the host API: runs a
 * model on raw input files and writes or prints its outputs, lists the
 * loaded plugins, explains how each node was bound, and benchmarks.  Errors
 * are one line on stderr and the exit status says which stage failed, so
 * scripts can tell a bad command line (2) from a bad model (3) from a model
 * that needs a newer plugin (4).
 *
 * This file holds the session: the runtime, model and interpreter, the
 * library's messages and the order of the steps.  Each mode has its file:
 * opver_run_options.c (the command line), opver_run_list.c
 * (--list-plugins), opver_run_explain.c (--explain, --check),
 * opver_run_tensors.c (inputs and outputs), opver_run_benchmark.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opver_run.h"

/* The log callback: errors are kept for the failure line (or reported by
 * run_report_pending() if the step succeeds anyway); the rest goes out now. */
static void on_log(void *user_data, opver_log_level level, const char *message)
{
	struct session *s = user_data;
	size_t room = sizeof(s->errors) - s->errors_used;
	int n;

	if (level != OPVER_LOG_ERROR) {
		fprintf(stderr, "opver-run: %s: %s\n",
			opver_log_level_name(level),
			message);
		return;
	}
	if (room <= 1)
		return;
	/* Messages may be sentences or clauses: "a. b" or "a; b". */
	n = snprintf(s->errors + s->errors_used, room, "%s%s",
		     s->errors_used == 0 ? "" :
		     s->errors[s->errors_used - 1] == '.' ? " " : "; ",
		     message);
	s->errors_used += (size_t)n < room ? (size_t)n : room - 1;
}

static void clear_errors(struct session *s)
{
	s->errors_used = 0;
	s->errors[0] = '\0';
}

/* Prints errors the library reported in a step that still succeeded, such
 * as a plugin that was skipped. */
void run_report_pending(struct session *s)
{
	if (s->errors_used > 0)
		fprintf(stderr, "opver-run: %s\n", s->errors);
	clear_errors(s);
}

/*
 * Prints the one error line of a failed library call; returns exit_status.
 * The line names `subject` (a file) once: the library's messages usually
 * already name it.
 */
int run_fail(struct session *s, int exit_status, const char *subject,
	     opver_status status)
{
	if (s->errors_used == 0)
		fprintf(stderr, "opver-run: %s: %s\n", subject,
			opver_status_message(status));
	else if (strstr(s->errors, subject) != NULL)
		fprintf(stderr, "opver-run: %s\n", s->errors);
	else
		fprintf(stderr, "opver-run: %s: %s\n", subject, s->errors);
	clear_errors(s);
	return exit_status;
}

/* "FULLY_CONNECTED", or "CUSTOM(name)" for a custom op. */
void run_format_op(int32_t op, const char *custom_name, char *text,
		   size_t text_size)
{
	if (custom_name != NULL)
		snprintf(text, text_size, "%s(%s)", opver_op_name(op),
			 custom_name);
	else
		snprintf(text, text_size, "%s", opver_op_name(op));
}

int run_invoke(struct session *s)
{
	opver_status status;

	if (s->trace.file != NULL)
		trace_writer_next_invoke(&s->trace);
	status = opver_interpreter_invoke(s->interpreter);

	if (status != OPVER_OK)
		return run_fail(s, EXIT_RUN_FAILED, s->cmd.model, status);
	run_report_pending(s);
	return EXIT_SUCCESS;
}

int run_create_runtime(struct session *s, const char *config,
		       opver_runtime **runtime)
{
	opver_runtime_options options;
	opver_status status;

	opver_runtime_options_init(&options);
	options.config_path = config;
	options.log = on_log;
	options.log_user_data = s;
	options.log_level = s->cmd.log_level;
	options.strict = s->cmd.strict;
	options.strict_versions = s->cmd.strict_versions;
	options.threads = (uint32_t)s->cmd.threads;
	status = opver_runtime_create(&options, runtime);
	if (status != OPVER_OK)
		return run_fail(s, status == OPVER_ERROR_CONFIG ||
				   status == OPVER_ERROR_IO ?
				   EXIT_USAGE : EXIT_RUN_FAILED,
				config ? config : "default config", status);
	run_report_pending(s);
	return EXIT_SUCCESS;
}

int run_creation_exit_status(opver_status status)
{
	switch (status) {
	case OPVER_ERROR_UNRESOLVED:
		return EXIT_UNRESOLVED;
	case OPVER_ERROR_INVALID_MODEL:
	case OPVER_ERROR_MODEL_REJECTED:
		return EXIT_BAD_MODEL;
	default:
		return EXIT_RUN_FAILED;
	}
}

/* Whether every node of the (inspect-only) interpreter is bound. */
static bool all_bound(const opver_interpreter *it)
{
	size_t count = opver_interpreter_node_count(it);
	opver_node_info info;

	for (size_t i = 0; i < count; i++)
		if (opver_interpreter_node_info(it, i, &info) != OPVER_OK ||
		    info.plugin == NULL)
			return false;
	return true;
}

/*
 * --check of a model whose every node is bound: what creating it would
 * catch besides resolution (a kernel's prepare rejecting the model, an
 * arena over the limit), with a prepare-only interpreter that allocates no
 * arena.
 */
static int check_prepares(struct session *s)
{
	opver_interpreter_options options;
	opver_interpreter *prepared = NULL;
	opver_status status;

	opver_interpreter_options_init(&options);
	options.prepare_only = 1;
	options.threads = (uint32_t)s->cmd.threads;
	options.max_arena_bytes = s->cmd.max_arena;
	options.max_tensor_bytes = s->cmd.max_tensor;
	if (s->cmd.signature != NULL)
		(void)run_signature_subgraph(s, &options.subgraph);
	status = opver_interpreter_create_with_options(s->runtime, s->model,
						       &options, &prepared);
	opver_interpreter_destroy(prepared);
	if (status != OPVER_OK)
		return run_fail(s, run_creation_exit_status(status), s->cmd.model,
				status);
	run_report_pending(s);
	return EXIT_SUCCESS;
}

/* Opens the model and creates its interpreter: an inspect-only one when the
 * model will not run, so that --explain and --check show unbound nodes;
 * --check then prepares a model whose nodes all bind. */
static int load_model(struct session *s)
{
	opver_interpreter_options options;
	opver_status status;
	double start;

	status = opver_model_open(s->runtime, s->cmd.model, &s->model);
	if (status != OPVER_OK)
		return run_fail(s, EXIT_BAD_MODEL, s->cmd.model, status);
	run_report_pending(s);
	opver_interpreter_options_init(&options);
	options.inspect_only = !run_runs_model(&s->cmd);
	/* --benchmark shows what kernels and delegates report inside nodes. */
	options.profile = s->cmd.benchmark_runs > 0;
	options.preserve_intermediates = s->cmd.compare != NULL ||
					 s->cmd.dump_tensors != NULL;
	options.max_arena_bytes = s->cmd.max_arena;
	options.max_tensor_bytes = s->cmd.max_tensor;
	options.max_loop_iterations = s->cmd.max_loop_iterations;
	if (s->cmd.profile != NULL) {
		if (!trace_writer_open(&s->trace, s->cmd.profile))
			return EXIT_RUN_FAILED;
		options.trace = trace_writer_event;
		options.trace_user_data = &s->trace;
	}
	if (s->cmd.signature != NULL &&
	    run_signature_subgraph(s, &options.subgraph) != EXIT_SUCCESS)
		return EXIT_USAGE;
	start = run_now_ms();
	status = opver_interpreter_create_with_options(s->runtime, s->model,
						       &options,
						       &s->interpreter);
	s->create_ms = run_now_ms() - start;
	if (status != OPVER_OK)
		return run_fail(s, run_creation_exit_status(status), s->cmd.model,
				status);
	run_report_pending(s);
	if (s->cmd.signature != NULL) {
		int ordered = run_signature_files(s);

		if (ordered != EXIT_SUCCESS)
			return ordered;
	}
	if (s->cmd.profile != NULL &&
	    !trace_writer_set_nodes(&s->trace, s->interpreter))
		return EXIT_RUN_FAILED;
	if (s->cmd.check && all_bound(s->interpreter))
		return check_prepares(s);
	return EXIT_SUCCESS;
}

/* Runs the model (once or as a benchmark) and writes or shows outputs. */
static int run_model(struct session *s)
{
	int status;

	if (s->cmd.benchmark_runs > 0)
		status = run_benchmark(s);
	else if (s->cmd.compare != NULL)
		status = run_compare(s);
	else
		status = run_invoke(s);
	if (s->cmd.dump_tensors != NULL &&
	    (status == EXIT_SUCCESS || status == EXIT_DIVERGED)) {
		int dumped = run_dump_tensors(s);

		if (dumped != EXIT_SUCCESS)
			status = dumped;
	}
	if (status != EXIT_SUCCESS || s->cmd.compare != NULL)
		return status;
	if (s->cmd.profile != NULL && !trace_writer_close(&s->trace))
		return EXIT_RUN_FAILED;
	if (s->cmd.num_outputs > 0)
		return run_write_outputs(s);
	/* A benchmark's outputs come from whatever inputs it was given. */
	if (s->cmd.benchmark_runs == 0)
		run_show_outputs(s);
	return EXIT_SUCCESS;
}

static int run_command(struct session *s)
{
	bool run = false;
	int status;

	status = run_create_runtime(s, s->cmd.config, &s->runtime);
	if (status == EXIT_SUCCESS && !s->cmd.list_plugins)
		status = load_model(s);
	if (status == EXIT_SUCCESS && !s->cmd.list_plugins)
		status = run_prepare_inputs(s, &run);
	if (status != EXIT_SUCCESS)
		return status;
	/* Setup errors come before any output; a later failure leaves the
	 * JSON document open, and the exit status says so. */
	if (s->cmd.json) {
		json_init(&s->json, stdout);
		json_begin_object(&s->json);
	}
	if (s->cmd.list_plugins) {
		status = run_list_plugins(s);
	} else {
		if (s->cmd.json) {
			json_key(&s->json, "model");
			json_string(&s->json, s->cmd.model);
		}
		if (s->cmd.explain)
			status = run_explain(s);
		if (s->cmd.check) {
			int checked = run_check(s);

			if (status == EXIT_SUCCESS)
				status = checked;
		}
		if (status == EXIT_SUCCESS && run)
			status = run_model(s);
	}
	/* A model that cannot run still gets its whole explanation, and a
	 * comparison that diverged its whole report. */
	if (s->cmd.json && (status == EXIT_SUCCESS || status == EXIT_UNRESOLVED ||
			    status == EXIT_DIVERGED)) {
		json_end_object(&s->json);
		json_finish(&s->json);
	}
	return status;
}

int main(int argc, char **argv)
{
	struct session s = { .allocate_ms = -1 };
	int status;

	status = run_parse_command(argc, argv, &s.cmd);
	if (status == CONTINUE)
		status = run_command(&s);
	/* A run that failed leaves the trace unfinished. */
	trace_writer_abandon(&s.trace);
	opver_interpreter_destroy(s.interpreter);
	opver_model_close(s.model);
	opver_runtime_destroy(s.runtime);
	free(s.cmd.inputs);
	free(s.cmd.outputs);
	free(s.cmd.input_shapes);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "opver-run: cannot write standard output: %s\n",
			strerror(errno));
		if (status == EXIT_SUCCESS)
			status = EXIT_RUN_FAILED;
	}
	return status;
}
