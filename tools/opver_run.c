/*
 * opver_run.c - opver-run, the command-line front end of the host API: runs a
 * model on raw input files and writes or prints its outputs, lists the
 * loaded plugins, explains how each node was bound, and benchmarks.  Errors
 * are one line on stderr and the exit status says which stage failed, so
 * scripts can tell a bad command line (2) from a bad model (3) from a model
 * that needs a newer plugin (4).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opver/opver.h>
/* For OPVER_TYPE_BIT, the encoding of the kernels' type masks. */

#include "json_writer.h"
#include "raw_io.h"

enum {
	EXIT_RUN_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_BAD_MODEL = 3,
	EXIT_UNRESOLVED = 4,
	/* Returned by the parser when the run should go on. */
	CONTINUE = -1
};

/* Values printed per output when no -o is given. */
#define PRINTED_VALUES 16
/* --threads at most: the library's limit (opver.ini(5)). */
#define MAX_THREADS 256

static const char usage_text[] =
	"Usage: opver-run [OPTION]... MODEL\n"
	"       opver-run --list-plugins [--config FILE] [--json]\n"
	"Runs a TensorFlow Lite model with kernels from opver plugins.\n"
	"\n"
	"  -i, --input FILE       raw little-endian data for the next model input;\n"
	"                         one per input, in the model's input order\n"
	"  -o, --output FILE      write the next model output to FILE, in output\n"
	"                         order (the first outputs only is fine); without\n"
	"                         -o each output's type, shape and first values\n"
	"                         are printed\n"
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
	"                         and max latency and the time per node (inputs\n"
	"                         are zero-filled when no -i is given)\n"
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
	"no plugin provides.\n";

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
};

struct session {
	struct command cmd;
	/* Error messages the library reported since the last step, joined
	 * with "; ", to become the one line of a failure. */
	char errors[2048];
	size_t errors_used;
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *interpreter;
	json_writer json;
};

static int usage_error(const char *format, ...) OPVER__PRINTF(1, 2);

static int usage_error(const char *format, ...)
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

/* A decimal byte count from 1 up. */
static bool parse_bytes(const char *text, uint64_t *bytes)
{
	unsigned long long value;

	if (!parse_positive(text, UINT64_MAX, &value))
		return false;
	*bytes = value;
	return true;
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
	OPT_MAX_TENSOR
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
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Returns CONTINUE, or the exit status when parsing ends the program. */
static int parse_command(int argc, char **argv, struct command *cmd)
{
	int option;

	cmd->log_level = -1;
	/* -i and -o can appear at most argc times each. */
	cmd->inputs = calloc((size_t)argc, sizeof(*cmd->inputs));
	cmd->outputs = calloc((size_t)argc, sizeof(*cmd->outputs));
	if (cmd->inputs == NULL || cmd->outputs == NULL) {
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
				return usage_error("--benchmark needs a run count from 1 to %d, not '%s'",
						   INT_MAX, optarg);
			break;
		case OPT_JSON:
			cmd->json = true;
			break;
		case OPT_LOG_LEVEL:
			cmd->log_level = opver_log_level_parse(optarg);
			if (cmd->log_level < 0)
				return usage_error("--log-level takes error, warning, info or debug, not '%s'",
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
				return usage_error("--threads needs a thread count from 1 to %d, not '%s'",
						   MAX_THREADS, optarg);
			break;
		case OPT_CHECK:
			cmd->check = true;
			break;
		case OPT_MAX_ARENA:
			if (!parse_bytes(optarg, &cmd->max_arena))
				return usage_error("--max-arena needs a byte count from 1 up, not '%s'",
						   optarg);
			break;
		case OPT_MAX_TENSOR:
			if (!parse_bytes(optarg, &cmd->max_tensor))
				return usage_error("--max-tensor needs a byte count from 1 up, not '%s'",
						   optarg);
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
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		default:
			if (optopt != 0)
				return usage_error("unknown option '-%c'",
						   optopt);
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		cmd->model = argv[optind++];
	if (optind < argc)
		return usage_error("one MODEL only; '%s' is extra",
				   argv[optind]);
	if (cmd->list_plugins) {
		if (cmd->model != NULL || cmd->explain || cmd->check ||
		    cmd->benchmark_runs > 0 || cmd->num_inputs > 0 ||
		    cmd->num_outputs > 0)
			return usage_error("--list-plugins takes no MODEL and no run options");
	} else if (cmd->model == NULL) {
		return usage_error("no MODEL given");
	} else if (cmd->check && (cmd->benchmark_runs > 0 ||
				  cmd->num_inputs > 0 ||
				  cmd->num_outputs > 0)) {
		return usage_error("--check does not run the model: it takes no -i, -o or --benchmark");
	}
	return CONTINUE;
}

/* The log callback: errors are kept for the failure line (or reported by
 * report_pending() if the step succeeds anyway); the rest goes out now. */
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
static void report_pending(struct session *s)
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
static int fail(struct session *s, int exit_status, const char *subject,
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

static void format_mask(uint32_t mask, char *text, size_t text_size)
{
	size_t used = 0;

	text[0] = '\0';
	if (mask == 0) {
		snprintf(text, text_size, "any");
		return;
	}
	for (int type = 0; type < OPVER_TYPE_COUNT && used < text_size; type++)
		if (mask & OPVER_TYPE_BIT(type))
			used += (size_t)snprintf(text + used, text_size - used,
						 "%s%s", used ? "|" : "",
						 opver_type_name(type));
	if ((mask & OPVER_TYPE_BIT_ABSENT) && used < text_size)
		snprintf(text + used, text_size - used, "%sabsent",
			 used ? "|" : "");
}

/* A type mask as an array of type names ("absent" for an optional input),
 * or null when it accepts anything. */
static void json_mask(json_writer *w, uint32_t mask)
{
	if (mask == 0) {
		json_null(w);
		return;
	}
	json_begin_array(w);
	for (int type = 0; type < OPVER_TYPE_COUNT; type++)
		if (mask & OPVER_TYPE_BIT(type))
			json_string(w, opver_type_name(type));
	if (mask & OPVER_TYPE_BIT_ABSENT)
		json_string(w, "absent");
	json_end_array(w);
}

/* Input positions a kernel constrains: those up to the last non-zero mask. */
/* Input positions a set of masks constrains: the later ones accept any. */
static size_t constrained_inputs(const uint32_t *input_types)
{
	size_t n = OPVER_SIGNATURE_INPUTS;

	while (n > 0 && input_types[n - 1] == 0)
		n--;
	return n;
}

/* "FULLY_CONNECTED", or "CUSTOM(name)" for a custom op. */
static void format_op(int32_t op, const char *custom_name, char *text,
		      size_t text_size)
{
	if (custom_name != NULL)
		snprintf(text, text_size, "%s(%s)", opver_op_name(op),
			 custom_name);
	else
		snprintf(text, text_size, "%s", opver_op_name(op));
}

/* "inputs INT8, INT8|absent; output INT8" */
static void print_types(const uint32_t *input_types, uint32_t output_types)
{
	char types[160];

	printf("inputs");
	for (size_t i = 0; i < constrained_inputs(input_types); i++) {
		format_mask(input_types[i], types, sizeof(types));
		printf("%s %s", i ? "," : "", types);
	}
	if (constrained_inputs(input_types) == 0)
		printf(" any");
	format_mask(output_types, types, sizeof(types));
	printf("; output %s\n", types);
}

/* "input_types": one entry per constrained position, and "output_types". */
static void json_types(json_writer *w, const uint32_t *input_types,
		       uint32_t output_types)
{
	json_key(w, "input_types");
	json_begin_array(w);
	for (size_t i = 0; i < constrained_inputs(input_types); i++)
		json_mask(w, input_types[i]);
	json_end_array(w);
	json_key(w, "output_types");
	json_mask(w, output_types);
}

static void print_kernel(const opver_kernel_info *k)
{
	char op[96];

	format_op(k->op, k->custom_name, op, sizeof(op));
	printf("    %-24s v%d-v%d  %s  priority %d%s\n      ",
	       op, k->min_version, k->max_version, k->name, k->priority,
	       k->stateless ? ", stateless" : "");
	print_types(k->input_types, k->output_types);
}

static void json_kernel(json_writer *w, const opver_kernel_info *k)
{
	json_begin_object(w);
	json_key(w, "name");
	json_string(w, k->name);
	json_key(w, "op");
	json_string(w, opver_op_name(k->op));
	json_key(w, "custom_name");
	json_string(w, k->custom_name);
	json_key(w, "min_version");
	json_int(w, k->min_version);
	json_key(w, "max_version");
	json_int(w, k->max_version);
	json_key(w, "priority");
	json_int(w, k->priority);
	json_key(w, "stateless");
	json_bool(w, k->stateless);
	json_types(w, k->input_types, k->output_types);
	json_end_object(w);
}

static int list_kernels(struct session *s, size_t plugin,
			const opver_plugin_info *info)
{
	opver_kernel_info k;
	opver_status status;

	for (size_t i = 0; i < info->num_kernels; i++) {
		status = opver_runtime_kernel_info(s->runtime, plugin, i, &k);
		if (status != OPVER_OK)
			return fail(s, EXIT_RUN_FAILED, info->file, status);
		if (s->cmd.json)
			json_kernel(&s->json, &k);
		else
			print_kernel(&k);
	}
	return EXIT_SUCCESS;
}

static int list_delegate(struct session *s, size_t plugin,
			 const opver_plugin_info *info)
{
	json_writer *w = &s->json;
	opver_delegate_op_info dop;
	opver_status status;
	char op[96];

	if (s->cmd.json) {
		json_begin_object(w);
		json_key(w, "name");
		json_string(w, info->delegate_name);
		json_key(w, "ops");
		json_begin_array(w);
	} else {
		printf("  delegate: %s\n", info->delegate_name);
	}
	for (size_t i = 0; i < info->num_delegate_ops; i++) {
		status = opver_runtime_delegate_op_info(s->runtime, plugin, i,
							&dop);
		if (status != OPVER_OK)
			return fail(s, EXIT_RUN_FAILED, info->file, status);
		if (s->cmd.json) {
			json_begin_object(w);
			json_key(w, "op");
			json_string(w, opver_op_name(dop.op));
			json_key(w, "custom_name");
			json_string(w, dop.custom_name);
			json_key(w, "min_version");
			json_int(w, dop.min_version);
			json_key(w, "max_version");
			json_int(w, dop.max_version);
			json_types(w, dop.input_types, dop.output_types);
			json_end_object(w);
		} else {
			format_op(dop.op, dop.custom_name, op, sizeof(op));
			printf("    %-24s v%d-v%d\n      ", op, dop.min_version,
			       dop.max_version);
			print_types(dop.input_types, dop.output_types);
		}
	}
	if (s->cmd.json) {
		json_end_array(w);
		json_end_object(w);
	}
	return EXIT_SUCCESS;
}

static int list_plugin(struct session *s, size_t plugin)
{
	json_writer *w = &s->json;
	opver_plugin_info info;
	opver_status status;
	char abi[16];
	int result;

	status = opver_runtime_plugin_info(s->runtime, plugin, &info);
	if (status != OPVER_OK)
		return fail(s, EXIT_RUN_FAILED, "plugin list", status);
	snprintf(abi, sizeof(abi), "%u.%u", info.abi_major, info.abi_minor);
	if (s->cmd.json) {
		json_begin_object(w);
		json_key(w, "file");
		json_string(w, info.file);
		json_key(w, "config_name");
		json_string(w, info.config_name);
		json_key(w, "name");
		json_string(w, info.name);
		json_key(w, "vendor");
		json_string(w, info.vendor);
		json_key(w, "version");
		json_string(w, info.version);
		json_key(w, "abi");
		json_string(w, abi);
		json_key(w, "kernels");
		json_begin_array(w);
	} else {
		printf("%s (%s)\n  name %s, vendor %s, version %s, ABI %s (runs on %u.%u and later)\n"
		       "  kernels: %u\n",
		       info.config_name, info.file, info.name, info.vendor,
		       info.version, abi, info.abi_major, info.min_abi_minor,
		       info.num_kernels);
	}
	result = list_kernels(s, plugin, &info);
	if (result != EXIT_SUCCESS)
		return result;
	if (s->cmd.json) {
		json_end_array(w);
		json_key(w, "delegate");
	}
	if (info.delegate_name != NULL)
		result = list_delegate(s, plugin, &info);
	else if (s->cmd.json)
		json_null(w);
	else
		printf("  delegate: none\n");
	if (s->cmd.json && result == EXIT_SUCCESS)
		json_end_object(w);
	return result;
}

static int list_plugins(struct session *s)
{
	size_t count = opver_runtime_plugin_count(s->runtime);
	int status = EXIT_SUCCESS;

	if (s->cmd.json) {
		json_key(&s->json, "plugins");
		json_begin_array(&s->json);
	} else if (count == 0) {
		printf("no plugins loaded\n");
	}
	for (size_t i = 0; i < count && status == EXIT_SUCCESS; i++)
		status = list_plugin(s, i);
	if (s->cmd.json && status == EXIT_SUCCESS)
		json_end_array(&s->json);
	return status;
}

/* True when the model stores a version below what its node needs. */
static bool stored_below_required(const opver_node_info *node)
{
	return node->version < node->required_version;
}

/* "INT8,INT8,-" (an omitted input is "-"). */
static void format_input_types(const opver_node_info *node, char *text,
			       size_t text_size)
{
	size_t used = 0;

	text[0] = '\0';
	for (int32_t i = 0; i < node->num_inputs && used < text_size; i++)
		used += (size_t)snprintf(text + used, text_size - used,
					 "%s%s", i ? "," : "",
					 node->input_types[i] < 0 ? "-" :
					 opver_type_name(node->input_types[i]));
}

static void print_node(const opver_node_info *node)
{
	char op[96], types[160], bound[160];

	format_op(node->op, node->custom_name, op, sizeof(op));
	format_input_types(node, types, sizeof(types));
	if (node->delegate != NULL)
		snprintf(bound, sizeof(bound), "delegate %s (plugin %s)",
			 node->delegate, node->plugin ? node->plugin : "-");
	else if (node->plugin != NULL)
		snprintf(bound, sizeof(bound), "%s/%s%s", node->plugin,
			 node->kernel, node->fallback ? " (fallback)" : "");
	else
		snprintf(bound, sizeof(bound), "(no kernel)");
	printf("%4d  %-20s %6d %8d%s %-24s %-36s %s\n", node->index, op,
	       node->version, node->required_version,
	       stored_below_required(node) ? "!" : " ", types, bound,
	       node->version_reason);
}

static void json_node(json_writer *w, const opver_node_info *node)
{
	json_begin_object(w);
	json_key(w, "index");
	json_int(w, node->index);
	json_key(w, "op");
	json_string(w, opver_op_name(node->op));
	json_key(w, "custom_name");
	json_string(w, node->custom_name);
	json_key(w, "version");
	json_int(w, node->version);
	json_key(w, "required_version");
	json_int(w, node->required_version);
	json_key(w, "reason");
	json_string(w, node->version_reason);
	json_key(w, "stored_below_required");
	json_bool(w, stored_below_required(node));
	json_key(w, "input_types");
	json_begin_array(w);
	for (int32_t i = 0; i < node->num_inputs; i++)
		json_string(w, node->input_types[i] < 0 ? NULL :
			    opver_type_name(node->input_types[i]));
	json_end_array(w);
	json_key(w, "plugin");
	json_string(w, node->plugin);
	json_key(w, "kernel");
	json_string(w, node->kernel);
	json_key(w, "delegate");
	json_string(w, node->delegate);
	json_key(w, "fallback");
	json_bool(w, node->fallback);
	json_end_object(w);
}

/* Both runtime versions, and whether they agree (a missing one agrees with
 * nothing). */
static void explain_runtime_version(struct session *s)
{
	const char *metadata = opver_model_min_runtime_version(s->model);
	const char *computed = opver_model_computed_runtime_version(s->model);
	const bool agree = metadata != NULL && computed != NULL &&
			   strcmp(metadata, computed) == 0;
	json_writer *w = &s->json;

	if (s->cmd.json) {
		json_key(w, "min_runtime_version");
		json_begin_object(w);
		json_key(w, "computed");
		json_string(w, computed);
		json_key(w, "metadata");
		json_string(w, metadata);
		json_key(w, "agree");
		json_bool(w, agree);
		json_end_object(w);
		return;
	}
	printf("min_runtime_version: computed %s, metadata %s%s\n",
	       computed ? computed : "none (no op in TFLite's table)",
	       metadata ? metadata : "none",
	       agree ? "" :
	       metadata == NULL ? " (the model does not record one)" :
			     " (they disagree: the metadata is a converter hint; the computed one is what the ops need)");
}

/* Which file each plugin came from, so that a user can tell the builds of
 * a plugin apart (the reference plugin's variant reference-tflite). */
static int explain_plugins(struct session *s)
{
	size_t count = opver_runtime_plugin_count(s->runtime);
	json_writer *w = &s->json;
	opver_plugin_info info;
	opver_status status;

	if (s->cmd.json) {
		json_key(w, "plugins");
		json_begin_array(w);
	}
	for (size_t i = 0; i < count; i++) {
		status = opver_runtime_plugin_info(s->runtime, i, &info);
		if (status != OPVER_OK)
			return fail(s, EXIT_RUN_FAILED, "plugin list", status);
		if (!s->cmd.json) {
			printf("plugin %s: %s (name %s, version %s)\n",
			       info.config_name, info.file, info.name,
			       info.version);
			continue;
		}
		json_begin_object(w);
		json_key(w, "config_name");
		json_string(w, info.config_name);
		json_key(w, "file");
		json_string(w, info.file);
		json_key(w, "name");
		json_string(w, info.name);
		json_key(w, "version");
		json_string(w, info.version);
		json_end_object(w);
	}
	if (s->cmd.json)
		json_end_array(w);
	return EXIT_SUCCESS;
}

static int explain(struct session *s)
{
	size_t count = opver_interpreter_node_count(s->interpreter);
	size_t arena, naive, below = 0, unbound = 0;
	json_writer *w = &s->json;
	opver_node_info node;
	int result;

	opver_interpreter_memory(s->interpreter, &arena, &naive);
	if (!s->cmd.json)
		printf("model: %s\n", s->cmd.model);
	explain_runtime_version(s);
	result = explain_plugins(s);
	if (result != EXIT_SUCCESS)
		return result;
	if (s->cmd.json) {
		json_key(w, "memory");
		json_begin_object(w);
		json_key(w, "arena_bytes");
		json_uint(w, arena);
		json_key(w, "naive_bytes");
		json_uint(w, naive);
		json_end_object(w);
		json_key(w, "nodes");
		json_begin_array(w);
	} else {
		if (arena > 0)
			printf("arena: %zu bytes (%zu with one buffer per tensor)\n",
			       arena, naive);
		printf("node  %-20s stored required  %-24s %-36s %s\n", "op",
		       "input types", "bound to", "required because");
	}
	for (size_t i = 0; i < count; i++) {
		/* Only an index out of range fails. */
		(void)opver_interpreter_node_info(s->interpreter, i, &node);
		below += stored_below_required(&node);
		unbound += node.plugin == NULL;
		if (s->cmd.json)
			json_node(w, &node);
		else
			print_node(&node);
	}
	if (s->cmd.json)
		json_end_array(w);
	else if (below > 0)
		printf("! %zu node%s store%s a version below what TFLite's rules require; %s\n",
		       below, below == 1 ? "" : "s", below == 1 ? "s" : "",
		       s->cmd.strict_versions ?
			       "--strict-versions resolved them at the required version" :
			       "nodes resolve at the stored version (--strict-versions uses the required one)");
	/* Only an inspect-only interpreter has unbound nodes. */
	return unbound == 0 ? EXIT_SUCCESS : EXIT_UNRESOLVED;
}

/* True when nodes a and b need the same (op, version, input types). */
static bool same_need(const opver_node_info *a, const opver_node_info *b)
{
	if (a->op != b->op || a->resolved_version != b->resolved_version ||
	    a->num_inputs != b->num_inputs ||
	    (a->custom_name == NULL) != (b->custom_name == NULL) ||
	    (a->custom_name != NULL &&
	     strcmp(a->custom_name, b->custom_name) != 0))
		return false;
	for (int32_t i = 0; i < a->num_inputs; i++)
		if (a->input_types[i] != b->input_types[i])
			return false;
	return true;
}

/* Lists nodes[first] and every later unlisted node that needs the same,
 * marking them listed. */
static void list_missing(struct session *s, const opver_node_info *nodes,
			 bool *listed, size_t count, size_t first)
{
	const opver_node_info *need = &nodes[first];
	json_writer *w = &s->json;
	char op[96], types[160];
	size_t sharing = 0;

	for (size_t j = first + 1; j < count; j++)
		sharing += !listed[j] && same_need(&nodes[j], need);
	if (s->cmd.json) {
		json_begin_object(w);
		json_key(w, "op");
		json_string(w, opver_op_name(need->op));
		json_key(w, "custom_name");
		json_string(w, need->custom_name);
		json_key(w, "version");
		json_int(w, need->resolved_version);
		json_key(w, "input_types");
		json_begin_array(w);
		for (int32_t t = 0; t < need->num_inputs; t++)
			json_string(w, need->input_types[t] < 0 ? NULL :
				    opver_type_name(need->input_types[t]));
		json_end_array(w);
		json_key(w, "nodes");
		json_begin_array(w);
	} else {
		format_op(need->op, need->custom_name, op, sizeof(op));
		format_input_types(need, types, sizeof(types));
		printf("  %s version %d for (%s): node%s", op,
		       need->resolved_version, types, sharing > 0 ? "s" : "");
	}
	for (size_t j = first; j < count; j++) {
		if (listed[j] || !same_need(&nodes[j], need))
			continue;
		listed[j] = true;
		if (s->cmd.json)
			json_int(w, nodes[j].index);
		else
			printf("%s %d", j == first ? "" : ",", nodes[j].index);
	}
	if (s->cmd.json) {
		json_end_array(w);
		json_end_object(w);
	} else {
		putchar('\n');
	}
}

/*
 * --check: every (op, version, input types) no kernel or delegate handles,
 * once each with the nodes that need it.  Returns EXIT_SUCCESS when there
 * is none, else EXIT_UNRESOLVED.
 */
static int check(struct session *s)
{
	size_t count = opver_interpreter_node_count(s->interpreter);
	opver_node_info *nodes = calloc(count > 0 ? count : 1, sizeof(*nodes));
	/* Bound nodes, and unbound ones already listed with an earlier one. */
	bool *listed = calloc(count > 0 ? count : 1, sizeof(*listed));
	size_t missing = 0;

	if (nodes == NULL || listed == NULL) {
		free(nodes);
		free(listed);
		fputs("opver-run: out of memory\n", stderr);
		return EXIT_RUN_FAILED;
	}
	for (size_t i = 0; i < count; i++) {
		(void)opver_interpreter_node_info(s->interpreter, i, &nodes[i]);
		listed[i] = nodes[i].plugin != NULL;
		missing += !listed[i];
	}
	if (s->cmd.json) {
		json_key(&s->json, "runnable");
		json_bool(&s->json, missing == 0);
		json_key(&s->json, "missing");
		json_begin_array(&s->json);
	} else if (missing == 0) {
		printf("%s: can run: every node has a kernel or delegate\n",
		       s->cmd.model);
	} else {
		printf("%s: cannot run: no kernel or delegate handles\n",
		       s->cmd.model);
	}
	for (size_t i = 0; i < count; i++)
		if (!listed[i])
			list_missing(s, nodes, listed, count, i);
	if (s->cmd.json)
		json_end_array(&s->json);
	free(nodes);
	free(listed);
	return missing == 0 ? EXIT_SUCCESS : EXIT_UNRESOLVED;
}

/* Whether the command runs the model: --check never does, --explain only
 * when asked for inputs, outputs or a benchmark. */
static bool wants_run(const struct command *cmd)
{
	return !cmd->check &&
	       (cmd->num_inputs > 0 || cmd->num_outputs > 0 ||
		cmd->benchmark_runs > 0 || !cmd->explain);
}

/* Checks the -i and -o counts against the model, fills its inputs, and
 * says whether the model should run. */
static int prepare_inputs(struct session *s, bool *run)
{
	size_t inputs = opver_interpreter_input_count(s->interpreter);
	size_t outputs = opver_interpreter_output_count(s->interpreter);
	const struct command *cmd = &s->cmd;
	char error[512];
	raw_status rs;

	*run = wants_run(cmd);
	if (cmd->num_inputs > 0 && cmd->num_inputs != inputs)
		return usage_error("%s has %zu input%s but -i was given %zu time%s",
				   cmd->model, inputs, inputs == 1 ? "" : "s",
				   cmd->num_inputs,
				   cmd->num_inputs == 1 ? "" : "s");
	if (cmd->num_outputs > outputs)
		return usage_error("%s has %zu output%s but -o was given %zu times",
				   cmd->model, outputs, outputs == 1 ? "" : "s",
				   cmd->num_outputs);
	if (*run && cmd->num_inputs == 0 && inputs > 0 &&
	    cmd->benchmark_runs == 0)
		return usage_error("%s has %zu input%s: give each as -i FILE, in the model's input order",
				   cmd->model, inputs, inputs == 1 ? "" : "s");
	for (size_t i = 0; i < inputs && *run; i++) {
		opver_tensor *t = opver_interpreter_input(s->interpreter, i);

		if (cmd->num_inputs == 0) {
			/* A tensor with no elements has no data at all. */
			if (t->bytes > 0)
				memset(t->data, 0, t->bytes);
			continue;
		}
		rs = raw_read_tensor(cmd->inputs[i], t, "input", error,
				     sizeof(error));
		if (rs != RAW_OK) {
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

static void show_outputs(struct session *s)
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

static int write_outputs(struct session *s)
{
	char error[512];

	for (size_t i = 0; i < s->cmd.num_outputs; i++) {
		const opver_tensor *t = opver_interpreter_output(s->interpreter,
								 i);

		if (raw_write_tensor(s->cmd.outputs[i], t, error,
				     sizeof(error)) != RAW_OK) {
			fprintf(stderr, "opver-run: output %zu '%s': %s\n", i,
				t->name, error);
			return EXIT_RUN_FAILED;
		}
	}
	return EXIT_SUCCESS;
}

static int invoke(struct session *s)
{
	opver_status status = opver_interpreter_invoke(s->interpreter);

	if (status != OPVER_OK)
		return fail(s, EXIT_RUN_FAILED, s->cmd.model, status);
	report_pending(s);
	return EXIT_SUCCESS;
}

static double elapsed_ms(const struct timespec *start,
			 const struct timespec *end)
{
	return (double)(end->tv_sec - start->tv_sec) * 1e3 +
	       (double)(end->tv_nsec - start->tv_nsec) / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Reads every node's profile counters.  Read after the warm-up and after
 * the timed runs, their difference covers the timed runs only. */
static int read_nodes(struct session *s, opver_node_info *nodes, size_t count)
{
	opver_status status;

	for (size_t i = 0; i < count; i++) {
		status = opver_interpreter_node_info(s->interpreter, i,
						     &nodes[i]);
		if (status != OPVER_OK)
			return fail(s, EXIT_RUN_FAILED, s->cmd.model, status);
	}
	return EXIT_SUCCESS;
}

/* Totals of one profile event after the warm-up run, to subtract. */
struct event_totals {
	uint64_t total_ns;
	uint64_t count;
};

/* The profile events kernels and delegates reported inside node `node`,
 * below its row: name, average ms per call over the timed runs. */
static void report_events(struct session *s, int32_t node,
			  const struct event_totals *before, size_t num_before)
{
	size_t count = opver_interpreter_profile_event_count(s->interpreter);
	json_writer *w = &s->json;
	opver_profile_event_info event;

	if (s->cmd.json) {
		json_key(w, "events");
		json_begin_array(w);
	}
	for (size_t i = 0; i < count; i++) {
		uint64_t calls, ns;

		if (opver_interpreter_profile_event_info(s->interpreter, i,
							 &event) != OPVER_OK ||
		    event.node != node)
			continue;
		calls = event.count - (i < num_before ? before[i].count : 0);
		ns = event.total_ns - (i < num_before ? before[i].total_ns : 0);
		if (s->cmd.json) {
			json_begin_object(w);
			json_key(w, "name");
			json_string(w, event.name);
			json_key(w, "depth");
			json_int(w, event.depth);
			json_key(w, "invocations");
			json_uint(w, calls);
			json_key(w, "average_ms");
			if (calls)
				json_double(w, (double)ns / (double)calls / 1e6);
			else
				json_null(w);
			json_end_object(w);
		} else if (calls) {
			printf("      %*s%-*s %.6f\n", 2 * event.depth, "",
			       22 - 2 * event.depth, event.name,
			       (double)ns / (double)calls / 1e6);
		}
	}
	if (s->cmd.json)
		json_end_array(w);
}

static void report_benchmark(struct session *s, const double *sorted_ms,
			     const opver_node_info *before,
			     const opver_node_info *after, size_t nodes,
			     const struct event_totals *events_before,
			     size_t num_events_before)
{
	size_t runs = s->cmd.benchmark_runs;
	double median = runs % 2 ? sorted_ms[runs / 2] :
			(sorted_ms[runs / 2 - 1] + sorted_ms[runs / 2]) / 2;
	bool zero_filled = s->cmd.num_inputs == 0 &&
			   opver_interpreter_input_count(s->interpreter) > 0;
	json_writer *w = &s->json;
	char op[96];

	if (s->cmd.json) {
		json_key(w, "benchmark");
		json_begin_object(w);
		json_key(w, "runs");
		json_uint(w, runs);
		json_key(w, "warmup_runs");
		json_int(w, 1);
		json_key(w, "zero_filled_inputs");
		json_bool(w, zero_filled);
		json_key(w, "latency_ms");
		json_begin_object(w);
		json_key(w, "median");
		json_double(w, median);
		json_key(w, "min");
		json_double(w, sorted_ms[0]);
		json_key(w, "max");
		json_double(w, sorted_ms[runs - 1]);
		json_end_object(w);
		json_key(w, "nodes");
		json_begin_array(w);
	} else {
		printf("benchmark: %zu run%s after 1 warm-up%s\n"
		       "latency: median %.6f ms, min %.6f ms, max %.6f ms\n"
		       "node  %-24s average ms\n",
		       runs, runs == 1 ? "" : "s",
		       zero_filled ? ", inputs zero-filled" : "", median,
		       sorted_ms[0], sorted_ms[runs - 1], "op");
	}
	for (size_t i = 0; i < nodes; i++) {
		const opver_node_info *node = &after[i];
		uint64_t calls = node->invocations - before[i].invocations;
		double average = calls ? (double)(node->total_ns -
						  before[i].total_ns) /
						 (double)calls / 1e6 : 0;

		if (s->cmd.json) {
			json_begin_object(w);
			json_key(w, "index");
			json_int(w, node->index);
			json_key(w, "op");
			json_string(w, opver_op_name(node->op));
			json_key(w, "custom_name");
			json_string(w, node->custom_name);
			json_key(w, "invocations");
			json_uint(w, calls);
			/* null for a node without its own profile. */
			json_key(w, "average_ms");
			if (calls)
				json_double(w, average);
			else
				json_null(w);
			report_events(s, node->index, events_before,
				      num_events_before);
			json_end_object(w);
		} else {
			format_op(node->op, node->custom_name, op, sizeof(op));
			if (calls)
				printf("%4d  %-24s %.6f\n", node->index, op,
				       average);
			else
				printf("%4d  %-24s -\n", node->index, op);
			report_events(s, node->index, events_before,
				      num_events_before);
		}
	}
	if (s->cmd.json) {
		json_end_array(w);
		json_end_object(w);
	}
}

/* Snapshots the profile events' totals into a new array; NULL (and 0)
 * when there are none or memory runs out, which shows warm-up time. */
static struct event_totals *read_events(struct session *s, size_t *count)
{
	struct event_totals *totals;
	opver_profile_event_info event;

	*count = opver_interpreter_profile_event_count(s->interpreter);
	totals = calloc(*count + 1, sizeof(*totals));
	if (totals == NULL) {
		*count = 0;
		return NULL;
	}
	for (size_t i = 0; i < *count; i++) {
		if (opver_interpreter_profile_event_info(s->interpreter, i,
							 &event) != OPVER_OK)
			continue;
		totals[i].total_ns = event.total_ns;
		totals[i].count = event.count;
	}
	return totals;
}

static int benchmark(struct session *s)
{
	size_t runs = s->cmd.benchmark_runs;
	size_t nodes = opver_interpreter_node_count(s->interpreter);
	opver_node_info *before, *after;
	struct event_totals *events_before = NULL;
	size_t num_events_before = 0;
	struct timespec start, end;
	int status;
	double *ms;

	ms = malloc(runs * sizeof(*ms));
	before = calloc(nodes + 1, sizeof(*before));
	after = calloc(nodes + 1, sizeof(*after));
	if (ms == NULL || before == NULL || after == NULL) {
		fputs("opver-run: out of memory for the benchmark\n", stderr);
		status = EXIT_RUN_FAILED;
		goto out;
	}
	status = invoke(s);
	if (status == EXIT_SUCCESS) {
		status = read_nodes(s, before, nodes);
		events_before = read_events(s, &num_events_before);
	}
	for (size_t i = 0; i < runs && status == EXIT_SUCCESS; i++) {
		clock_gettime(CLOCK_MONOTONIC, &start);
		status = invoke(s);
		clock_gettime(CLOCK_MONOTONIC, &end);
		ms[i] = elapsed_ms(&start, &end);
	}
	if (status == EXIT_SUCCESS)
		status = read_nodes(s, after, nodes);
	if (status == EXIT_SUCCESS) {
		qsort(ms, runs, sizeof(*ms), compare_doubles);
		report_benchmark(s, ms, before, after, nodes, events_before,
				 num_events_before);
	}
out:
	free(events_before);
	free(ms);
	free(before);
	free(after);
	return status;
}

static int create_runtime(struct session *s)
{
	opver_runtime_options options;
	opver_status status;

	opver_runtime_options_init(&options);
	options.config_path = s->cmd.config;
	options.log = on_log;
	options.log_user_data = s;
	options.log_level = s->cmd.log_level;
	options.strict = s->cmd.strict;
	options.strict_versions = s->cmd.strict_versions;
	options.threads = (uint32_t)s->cmd.threads;
	status = opver_runtime_create(&options, &s->runtime);
	if (status != OPVER_OK)
		return fail(s, status == OPVER_ERROR_CONFIG ||
				       status == OPVER_ERROR_IO ?
				       EXIT_USAGE : EXIT_RUN_FAILED,
			    s->cmd.config ? s->cmd.config : "default config",
			    status);
	report_pending(s);
	return EXIT_SUCCESS;
}

/* The exit status of a failed interpreter creation. */
static int creation_exit_status(opver_status status)
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
	status = opver_interpreter_create_with_options(s->runtime, s->model,
						       &options, &prepared);
	opver_interpreter_destroy(prepared);
	if (status != OPVER_OK)
		return fail(s, creation_exit_status(status), s->cmd.model,
			    status);
	report_pending(s);
	return EXIT_SUCCESS;
}

/* Opens the model and creates its interpreter: an inspect-only one when the
 * model will not run, so that --explain and --check show unbound nodes;
 * --check then prepares a model whose nodes all bind. */
static int load_model(struct session *s)
{
	opver_interpreter_options options;
	opver_status status;

	status = opver_model_open(s->runtime, s->cmd.model, &s->model);
	if (status != OPVER_OK)
		return fail(s, EXIT_BAD_MODEL, s->cmd.model, status);
	report_pending(s);
	opver_interpreter_options_init(&options);
	options.inspect_only = !wants_run(&s->cmd);
	/* --benchmark shows what kernels and delegates report inside nodes. */
	options.profile = s->cmd.benchmark_runs > 0;
	options.max_arena_bytes = s->cmd.max_arena;
	options.max_tensor_bytes = s->cmd.max_tensor;
	status = opver_interpreter_create_with_options(s->runtime, s->model,
						       &options,
						       &s->interpreter);
	if (status != OPVER_OK)
		return fail(s, creation_exit_status(status), s->cmd.model,
			    status);
	report_pending(s);
	if (s->cmd.check && all_bound(s->interpreter))
		return check_prepares(s);
	return EXIT_SUCCESS;
}

/* Runs the model (once or as a benchmark) and writes or shows outputs. */
static int run_model(struct session *s)
{
	int status;

	if (s->cmd.benchmark_runs > 0)
		status = benchmark(s);
	else
		status = invoke(s);
	if (status != EXIT_SUCCESS)
		return status;
	if (s->cmd.num_outputs > 0)
		return write_outputs(s);
	/* A benchmark's outputs come from whatever inputs it was given. */
	if (s->cmd.benchmark_runs == 0)
		show_outputs(s);
	return EXIT_SUCCESS;
}

static int run_command(struct session *s)
{
	bool run = false;
	int status;

	status = create_runtime(s);
	if (status == EXIT_SUCCESS && !s->cmd.list_plugins)
		status = load_model(s);
	if (status == EXIT_SUCCESS && !s->cmd.list_plugins)
		status = prepare_inputs(s, &run);
	if (status != EXIT_SUCCESS)
		return status;
	/* Setup errors come before any output; a later failure leaves the
	 * JSON document open, and the exit status says so. */
	if (s->cmd.json) {
		json_init(&s->json, stdout);
		json_begin_object(&s->json);
	}
	if (s->cmd.list_plugins) {
		status = list_plugins(s);
	} else {
		if (s->cmd.json) {
			json_key(&s->json, "model");
			json_string(&s->json, s->cmd.model);
		}
		if (s->cmd.explain)
			status = explain(s);
		if (s->cmd.check) {
			int checked = check(s);

			if (status == EXIT_SUCCESS)
				status = checked;
		}
		if (status == EXIT_SUCCESS && run)
			status = run_model(s);
	}
	/* A model that cannot run still gets its whole explanation. */
	if (s->cmd.json &&
	    (status == EXIT_SUCCESS || status == EXIT_UNRESOLVED)) {
		json_end_object(&s->json);
		json_finish(&s->json);
	}
	return status;
}

int main(int argc, char **argv)
{
	struct session s = { 0 };
	int status;

	status = parse_command(argc, argv, &s.cmd);
	if (status == CONTINUE)
		status = run_command(&s);
	opver_interpreter_destroy(s.interpreter);
	opver_model_close(s.model);
	opver_runtime_destroy(s.runtime);
	free(s.cmd.inputs);
	free(s.cmd.outputs);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "opver-run: cannot write standard output: %s\n",
			strerror(errno));
		if (status == EXIT_SUCCESS)
			status = EXIT_RUN_FAILED;
	}
	return status;
}
