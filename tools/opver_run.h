/*
 * opver_run.h - what the files of opver-run share: the exit statuses, the
 * command line as parsed, the session every mode works in, and each
 * mode's entry.  Modes print to stdout (text, or JSON into s->json) and
 * return an exit status; a failure is one line on stderr.
 */
#ifndef OPVER_TOOLS_OPVER_RUN_H
#define OPVER_TOOLS_OPVER_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/opver.h>

#include "json_writer.h"
#include "trace_writer.h"

enum {
	EXIT_RUN_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_BAD_MODEL = 3,
	EXIT_UNRESOLVED = 4,
	/* --compare: a node's outputs differ by more than --tolerance. */
	EXIT_DIVERGED = 5,
	/* Returned by the parser when the run should go on. */
	CONTINUE = -1
};

/* The most dimensions --input-shape takes. */
#define RUN_MAX_SHAPE_RANK 8

/* One --input-shape INDEX=d0,d1,...: the dimensions as given (the
 * library checks their values). */
struct input_shape {
	size_t index;
	int32_t rank;
	int32_t dims[RUN_MAX_SHAPE_RANK];
};

/* What the command line asked for. */
struct command {
	const char *config;
	const char *model;
	/* Point into argv. */
	const char **inputs;
	size_t num_inputs;
	const char **outputs;
	size_t num_outputs;
	bool list_plugins;
	bool explain;
	bool check;
	bool json;
	bool strict;
	bool strict_versions;
	int log_level;
	/* Timed runs; 0 without --benchmark. */
	size_t benchmark_runs;
	/* --threads; 0 keeps the config's. */
	size_t threads;
	/* --max-arena, --max-tensor; 0 keeps the config's. */
	uint64_t max_arena;
	uint64_t max_tensor;
	/* --profile's trace file, or NULL; points into argv. */
	const char *profile;
	/* --compare's config and --dump-tensors' directory, or NULL; point
	 * into argv. */
	const char *compare;
	const char *dump_tensors;
	/* --tolerance: the largest difference --compare accepts. */
	double tolerance;
	/* --signature's key, or NULL; points into argv.  With it, inputs
	 * and outputs are NAME=FILE until run_signature_files() puts their
	 * files in the subgraph's order (NULL for an output not asked). */
	const char *signature;
	/* --max-loop-iterations; 0: no limit. */
	size_t max_loop_iterations;
	/* Owned (release with free()); in the order given. */
	struct input_shape *input_shapes;
	size_t num_input_shapes;
};

struct session {
	struct command cmd;
	/* Error messages the library reported since the last step, joined
	 * with "; ", to become the one line of a failure. */
	char errors[2048];
	size_t errors_used;
	/* Owned; main() destroys them. */
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *interpreter;
	json_writer json;       /* the document of --json */
	/* --profile's trace, open from interpreter creation until the runs
	 * end (trace.file NULL otherwise). */
	trace_writer trace;
	/* How long creating the interpreter took (delegates' prepare
	 * included), for --benchmark. */
	double create_ms;
	/* How long --input-shape's allocate_tensors took (kernels and
	 * delegate partitions prepared again), for --benchmark; negative
	 * without --input-shape. */
	double allocate_ms;
};

/* opver_run_options.c */

/* Prints "opver-run: MESSAGE (see opver-run --help)" on stderr; returns
 * EXIT_USAGE. */
int run_usage_error(const char *format, ...) OPVER__PRINTF(1, 2);

/* Parses argv into *cmd, whose inputs and outputs arrays the caller then
 * owns (release with free()) and whose strings point into argv.  Returns
 * CONTINUE, or the exit status when parsing ends the program. */
int run_parse_command(int argc, char **argv, struct command *cmd);

/* Whether the command runs the model: --check never does, --explain only
 * when asked for inputs, outputs or a benchmark. */
bool run_runs_model(const struct command *cmd);

/* opver_run.c */

/* Prints errors the library reported in a step that still succeeded, such
 * as a plugin that was skipped. */
void run_report_pending(struct session *s);

/*
 * Prints the one error line of a failed library call; returns exit_status.
 * The line names `subject` (a file, borrowed) once: the library's messages
 * usually already name it.
 */
int run_fail(struct session *s, int exit_status, const char *subject,
	     opver_status status);

/* "FULLY_CONNECTED", or "CUSTOM(name)" for a custom op, into `text`. */
void run_format_op(int32_t op, const char *custom_name, char *text,
		   size_t text_size);

/* Runs the model once. */
int run_invoke(struct session *s);

/* Creates a runtime from `config` (NULL: the default config) with the
 * command line's log level, strictness and threads, its messages going
 * through the session; the caller owns *runtime. */
int run_create_runtime(struct session *s, const char *config,
		       opver_runtime **runtime);

/* The exit status of a failed interpreter creation. */
int run_creation_exit_status(opver_status status);

/* opver_run_signature.c */

/* The subgraph of the signature --signature names into *subgraph, or a
 * usage error naming the model's signatures. */
int run_signature_subgraph(struct session *s, int64_t *subgraph);

/* Puts the NAME=FILE -i and -o of --signature in the order of the
 * interpreter's inputs and outputs. */
int run_signature_files(struct session *s);

/* --explain's list of the model's signatures: key, subgraph, and the
 * name and tensor of each input and output. */
void run_explain_signatures(struct session *s);

/* opver_run_list.c: --list-plugins. */
int run_list_plugins(struct session *s);

/* opver_run_explain.c */

/* --explain: every node, how it is bound and why its version. */
int run_explain(struct session *s);

/*
 * --check: every (op, version, input types) no kernel or delegate handles,
 * once each with the nodes that need it.  Returns EXIT_SUCCESS when there
 * is none, else EXIT_UNRESOLVED.
 */
int run_check(struct session *s);

/* opver_run_tensors.c */

/* Resizes the inputs --input-shape names and allocates, then checks the
 * -i and -o counts against the model, fills its inputs, and says whether
 * the model should run. */
int run_prepare_inputs(struct session *s, bool *run);

/* Shows each output's type, shape and first values. */
void run_show_outputs(struct session *s);

/* Writes the outputs -o names to their files. */
int run_write_outputs(struct session *s);

/* opver_run_dump.c */

/* Where a tensor's value comes from after an invoke of an interpreter
 * created with preserve_intermediates. */
struct tensor_origin {
	/* The node that writes it, or -1 (graph inputs, constants). */
	int32_t node;
	/* It holds what the model computed: a graph input, an output of a
	 * node on a kernel, or an output a delegate partition hands to
	 * another step or to the caller; not a tensor inside a partition,
	 * which the delegate need not write. */
	bool computed;
};

/* The origin of each of the interpreter's tensors; the caller frees the
 * array.  NULL when out of memory. */
struct tensor_origin *run_tensor_origins(opver_interpreter *it);

/* --dump-tensors DIR: every computed tensor as DIR/tensor_N.npy, and
 * DIR/index.json naming each with the node, op and plugin that wrote it. */
int run_dump_tensors(struct session *s);

/* opver_run_compare.c: --compare CONFIG_B.  EXIT_DIVERGED when a node's
 * outputs differ by more than --tolerance. */
int run_compare(struct session *s);

/* opver_run_benchmark.c: --benchmark. */
int run_benchmark(struct session *s);
/* A monotonic clock in milliseconds. */
double run_now_ms(void);

/* opver_run_op_summary.c: --benchmark's table by op type (key "op_types"
 * of --json's benchmark object), from every node's counters before and
 * after the timed runs. */
int run_op_summary(struct session *s, const opver_node_info *before,
		   const opver_node_info *after, size_t nodes);

#endif /* OPVER_TOOLS_OPVER_RUN_H */
