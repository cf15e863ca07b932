/*
 * opver_run_options.c - opver-run's command line: --help, the options and
 * the checks of what goes together.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "opver_run.h"

/* --threads at most: the library's limit (opver.ini(5)). */
#define MAX_THREADS 256

static const char usage_text[] =
	"Usage: opver-run [OPTION]... MODEL\n"
	"       opver-run --list-plugins [--config FILE] [--json]\n"
	"Runs a TensorFlow Lite model with kernels from opver plugins.\n"
	"\n"
	"  -i, --input FILE       data for the next model input, one per input in\n"
	"                         the model's input order: a NumPy .npy file (by\n"
	"                         its .npy name or its magic) whose dtype and\n"
	"                         shape are the input's, else raw little-endian\n"
	"                         bytes of the input's exact size\n"
	"  -o, --output FILE      write the next model output to FILE, in output\n"
	"                         order (the first outputs only is fine): .npy\n"
	"                         with the output's dtype and shape when FILE\n"
	"                         ends in .npy, else raw; without -o each\n"
	"                         output's type, shape and first values are\n"
	"                         printed\n"
	"      --input-shape INDEX=D0,D1,...\n"
	"                         give model input INDEX (from 0) this shape\n"
	"                         before the run, as TFLite's ResizeInputTensor:\n"
	"                         usually a batch size; shapes follow through\n"
	"                         every node (repeatable, one per input)\n"
	"      --config FILE      read FILE instead of the default configuration\n"
	"      --list-plugins     list each plugin's file, name, vendor, version,\n"
	"                         ABI, kernels and delegate\n"
	"      --explain          show how each node is bound: op, stored version,\n"
	"                         the version TFLite's rules require and why\n"
	"                         (flagged when above the stored one), input\n"
	"                         types, plugin and kernel or delegate, fallback;\n"
	"                         and the model's minimum TFLite runtime version,\n"
	"                         computed and from its metadata; runs the model\n"
	"                         only with -i, -o or --benchmark\n"
	"      --check            resolve and prepare every node and plan the\n"
	"                         arena without running: exit 0 when the model\n"
	"                         can run, 4 listing every missing (op, version),\n"
	"                         3 when a kernel rejects the model\n"
	"      --benchmark N      one warm-up run, then N timed runs: median, min\n"
	"                         and max latency, the time per node and a\n"
	"                         summary by op type (nodes, average ms, %,\n"
	"                         cumulative %); inputs are zero-filled when no\n"
	"                         -i is given\n"
	"      --profile FILE     write a Chrome trace of every run to FILE (open\n"
	"                         it in Perfetto or chrome://tracing): each node,\n"
	"                         delegate partition and plugin profile event per\n"
	"                         invoke, on the thread that ran it\n"
	"      --compare CONFIG_B run the model under the config and under\n"
	"                         CONFIG_B on the same inputs and compare every\n"
	"                         node's outputs: the plugin on each side, the\n"
	"                         largest difference in output units and in\n"
	"                         quantized steps; names the first node that\n"
	"                         differs by more than --tolerance (exit 5)\n"
	"      --tolerance T      the difference --compare accepts, in output\n"
	"                         units (default 0)\n"
	"      --dump-tensors DIR after the run, write every tensor the model\n"
	"                         computed as DIR/tensor_N.npy (N: its index in\n"
	"                         the model) and DIR/index.json naming each with\n"
	"                         the node and plugin that wrote it; tensors\n"
	"                         inside a delegate partition are not written\n"
	"      --signature KEY    run the model's signature KEY, on its own\n"
	"                         subgraph: -i and -o then take NAME=FILE, NAME\n"
	"                         an input or output of the signature (every\n"
	"                         input, any outputs); --explain lists the\n"
	"                         signatures\n"
	"      --max-loop-iterations N  fail a run in which WHILE bodies would\n"
	"                         pass more than N times in all, nested ones\n"
	"                         included (default: no limit, as in TFLite)\n"
	"      --json             machine-readable output\n"
	"      --log-level LEVEL  error, warning, info or debug\n"
	"      --strict           refuse to fall back to a lower-priority kernel\n"
	"      --threads N        threads per interpreter for kernels that use\n"
	"                         them (default: the config's threads, else 1)\n"
	"      --max-arena BYTES  the most bytes the activation arena may take\n"
	"                         (default: the config's max_arena_bytes, else\n"
	"                         4 GiB)\n"
	"      --max-tensor BYTES the most bytes any one tensor may take\n"
	"                         (default: the config's max_tensor_bytes, else\n"
	"                         2 GiB)\n"
	"      --strict-versions  resolve each node at the larger of its stored\n"
	"                         version and the version TFLite's rules require\n"
	"  -h, --help             show this help and exit\n"
	"  -V, --version          show the version and exit\n"
	"\n"
	"Exit status: 0 success; 1 failure while running (a kernel or plugin\n"
	"failed, out of memory, a tensor or the arena exceeds its limit); 2 usage\n"
	"error (options, config file, input files); 3 the model cannot be read or\n"
	"is invalid (a kernel rejected it); 4 the model needs an op or op version\n"
	"no plugin provides; 5 --compare found a node whose outputs differ by more\n"
	"than --tolerance.\n";

int run_usage_error(const char *format, ...)
{
	va_list args;

	fputs("opver-run: ", stderr);
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputs(" (see opver-run --help)\n", stderr);
	return EXIT_USAGE;
}

/* A decimal number from 1 to `max`, digits only. */
static bool parse_positive(const char *text, unsigned long long max,
			   unsigned long long *value)
{
	char *end;

	if (*text < '0' || *text > '9')
		return false;
	errno = 0;
	*value = strtoull(text, &end, 10);
	return errno == 0 && *end == '\0' && *value >= 1 && *value <= max;
}

static bool parse_count(const char *text, size_t *count)
{
	unsigned long long value;

	if (!parse_positive(text, INT_MAX, &value))
		return false;
	*count = (size_t)value;
	return true;
}

/* INDEX=D0,D1,...: a decimal index, then 1 to RUN_MAX_SHAPE_RANK
 * comma-separated decimal dimensions within int32 (signs allowed: the
 * library refuses what is not a size, with its reason). */
static bool parse_input_shape(const char *text, struct input_shape *shape)
{
	unsigned long long index;
	char *end;

	if (*text < '0' || *text > '9')
		return false;
	errno = 0;
	index = strtoull(text, &end, 10);
	if (errno != 0 || *end != '=' || index > INT32_MAX)
		return false;
	shape->index = (size_t)index;
	shape->rank = 0;
	do {
		long value;

		text = end + 1;
		if (shape->rank == RUN_MAX_SHAPE_RANK ||
		    ((*text < '0' || *text > '9') && *text != '-'))
			return false;
		errno = 0;
		value = strtol(text, &end, 10);
		if (errno != 0 || end == text || value < INT32_MIN ||
		    value > INT32_MAX)
			return false;
		shape->dims[shape->rank++] = (int32_t)value;
	} while (*end == ',');
	return *end == '\0';
}

/* A decimal byte count from 1 up. */
static bool parse_bytes(const char *text, uint64_t *bytes)
{
	unsigned long long value;

	if (!parse_positive(text, UINT64_MAX, &value))
		return false;
	*bytes = value;
	return true;
}

/* A finite number from 0 up. */
static bool parse_tolerance(const char *text, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(text, &end);
	return errno == 0 && end != text && *end == '\0' && isfinite(*value) &&
	       *value >= 0.0;
}

enum {
	OPT_CONFIG = 256,
	OPT_LIST_PLUGINS,
	OPT_EXPLAIN,
	OPT_BENCHMARK,
	OPT_JSON,
	OPT_LOG_LEVEL,
	OPT_STRICT,
	OPT_STRICT_VERSIONS,
	OPT_THREADS,
	OPT_CHECK,
	OPT_MAX_ARENA,
	OPT_MAX_TENSOR,
	OPT_PROFILE,
	OPT_COMPARE,
	OPT_TOLERANCE,
	OPT_DUMP_TENSORS,
	OPT_SIGNATURE,
	OPT_MAX_LOOP_ITERATIONS,
	OPT_INPUT_SHAPE
};

static const struct option long_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "list-plugins", no_argument, NULL, OPT_LIST_PLUGINS },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "benchmark", required_argument, NULL, OPT_BENCHMARK },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "strict-versions", no_argument, NULL, OPT_STRICT_VERSIONS },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "max-arena", required_argument, NULL, OPT_MAX_ARENA },
	{ "max-tensor", required_argument, NULL, OPT_MAX_TENSOR },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "dump-tensors", required_argument, NULL, OPT_DUMP_TENSORS },
	{ "signature", required_argument, NULL, OPT_SIGNATURE },
	{ "max-loop-iterations", required_argument, NULL,
	  OPT_MAX_LOOP_ITERATIONS },
	{ "input-shape", required_argument, NULL, OPT_INPUT_SHAPE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Returns CONTINUE, or the exit status when parsing ends the program. */
int run_parse_command(int argc, char **argv, struct command *cmd)
{
	bool tolerance_given = false;
	int option;

	cmd->log_level = -1;
	/* -i and -o can appear at most argc times each. */
	cmd->inputs = calloc((size_t)argc, sizeof(*cmd->inputs));
	cmd->outputs = calloc((size_t)argc, sizeof(*cmd->outputs));
	cmd->input_shapes = calloc((size_t)argc, sizeof(*cmd->input_shapes));
	if (cmd->inputs == NULL || cmd->outputs == NULL ||
	    cmd->input_shapes == NULL) {
		fputs("opver-run: out of memory\n", stderr);
		return EXIT_RUN_FAILED;
	}
	/* A leading ':' makes a missing argument ':' rather than '?', and
	 * opterr = 0 leaves the one error line to us. */
	opterr = 0;
	while ((option = getopt_long(argc, argv, ":i:o:hV", long_options,
				     NULL)) != -1) {
		switch (option) {
		case 'i':
			cmd->inputs[cmd->num_inputs++] = optarg;
			break;
		case 'o':
			cmd->outputs[cmd->num_outputs++] = optarg;
			break;
		case OPT_CONFIG:
			cmd->config = optarg;
			break;
		case OPT_LIST_PLUGINS:
			cmd->list_plugins = true;
			break;
		case OPT_EXPLAIN:
			cmd->explain = true;
			break;
		case OPT_BENCHMARK:
			if (!parse_count(optarg, &cmd->benchmark_runs))
				return run_usage_error("--benchmark needs a run count from 1 to %d, not '%s'",
						       INT_MAX, optarg);
			break;
		case OPT_JSON:
			cmd->json = true;
			break;
		case OPT_LOG_LEVEL:
			cmd->log_level = opver_log_level_parse(optarg);
			if (cmd->log_level < 0)
				return run_usage_error("--log-level takes error, warning, info or debug, not '%s'",
						       optarg);
			break;
		case OPT_STRICT:
			cmd->strict = true;
			break;
		case OPT_STRICT_VERSIONS:
			cmd->strict_versions = true;
			break;
		case OPT_THREADS:
			if (!parse_count(optarg, &cmd->threads) ||
			    cmd->threads > MAX_THREADS)
				return run_usage_error("--threads needs a thread count from 1 to %d, not '%s'",
						       MAX_THREADS, optarg);
			break;
		case OPT_CHECK:
			cmd->check = true;
			break;
		case OPT_MAX_ARENA:
			if (!parse_bytes(optarg, &cmd->max_arena))
				return run_usage_error("--max-arena needs a byte count from 1 up, not '%s'",
						       optarg);
			break;
		case OPT_MAX_TENSOR:
			if (!parse_bytes(optarg, &cmd->max_tensor))
				return run_usage_error("--max-tensor needs a byte count from 1 up, not '%s'",
						       optarg);
			break;
		case OPT_PROFILE:
			cmd->profile = optarg;
			break;
		case OPT_COMPARE:
			cmd->compare = optarg;
			break;
		case OPT_TOLERANCE:
			if (!parse_tolerance(optarg, &cmd->tolerance))
				return run_usage_error("--tolerance needs a number from 0 up, not '%s'",
						       optarg);
			tolerance_given = true;
			break;
		case OPT_DUMP_TENSORS:
			cmd->dump_tensors = optarg;
			break;
		case OPT_SIGNATURE:
			cmd->signature = optarg;
			break;
		case OPT_MAX_LOOP_ITERATIONS:
			if (!parse_count(optarg, &cmd->max_loop_iterations))
				return run_usage_error("--max-loop-iterations needs a count from 1 to %d, not '%s'",
						       INT_MAX, optarg);
			break;
		case OPT_INPUT_SHAPE:
			if (!parse_input_shape(optarg, &cmd->input_shapes[
						       cmd->num_input_shapes++]))
				return run_usage_error("--input-shape takes INDEX=D0,D1,... (at most %d dimensions), not '%s'",
						       RUN_MAX_SHAPE_RANK, optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_SUCCESS;
		case 'V':
			printf("opver-run (opver) %s, plugin ABI %d.%d\n",
			       OPVER_VERSION_STRING, OPVER_ABI_MAJOR,
			       OPVER_ABI_MINOR);
			return EXIT_SUCCESS;
		case ':':
			return run_usage_error("option '%s' needs an argument",
					       argv[optind - 1]);
		default:
			if (optopt != 0)
				return run_usage_error("unknown option '-%c'",
						       optopt);
			return run_usage_error("unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd->model = argv[optind++];
	if (optind < argc)
		return run_usage_error("one MODEL only; '%s' is extra",
				       argv[optind]);
	if (tolerance_given && cmd->compare == NULL)
		return run_usage_error("--tolerance goes with --compare");
	if (cmd->list_plugins) {
		if (cmd->model != NULL || cmd->explain || cmd->check ||
		    cmd->benchmark_runs > 0 || cmd->num_inputs > 0 ||
		    cmd->num_outputs > 0 || cmd->profile != NULL ||
		    cmd->compare != NULL || cmd->dump_tensors != NULL)
			return run_usage_error("--list-plugins takes no MODEL and no run options");
	} else if (cmd->model == NULL) {
		return run_usage_error("no MODEL given");
	} else if (cmd->check && (cmd->benchmark_runs > 0 ||
				  cmd->num_inputs > 0 ||
				  cmd->num_outputs > 0 ||
				  cmd->profile != NULL ||
				  cmd->compare != NULL ||
				  cmd->dump_tensors != NULL)) {
		return run_usage_error("--check does not run the model: it takes no -i, -o, --benchmark, --profile, --compare or --dump-tensors");
	} else if (cmd->compare != NULL &&
		   (cmd->explain || cmd->benchmark_runs > 0 ||
		    cmd->num_outputs > 0 || cmd->profile != NULL)) {
		return run_usage_error("--compare runs the model once under each config: it takes no --explain, -o, --benchmark or --profile");
	} else if ((cmd->profile != NULL || cmd->dump_tensors != NULL) &&
		   !run_runs_model(cmd)) {
		return run_usage_error("--profile and --dump-tensors need a run: with --explain, give -i, -o or --benchmark too");
	} else if (cmd->num_input_shapes > 0 &&
		   (!run_runs_model(cmd) || cmd->compare != NULL)) {
		return run_usage_error("--input-shape resizes the inputs of a run: it takes no --check or --compare, and with --explain give -i, -o or --benchmark too");
	}
	return CONTINUE;
}

/* Whether the command runs the model: --check never does, --explain only
 * when asked for inputs, outputs or a benchmark. */
bool run_runs_model(const struct command *cmd)
{
	return !cmd->check &&
	       (cmd->num_inputs > 0 || cmd->num_outputs > 0 ||
		cmd->benchmark_runs > 0 || !cmd->explain);
}
