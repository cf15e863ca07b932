/*
 * opver_select.c - opver-select, TFLite's selective registration for opver:
 * from a set of models, the config that loads only the plugins they bind
 * under the current config, each restricted (kernels =) to the kernels
 * they bind, with every (op, versions, input types) those kernels serve.
 * It proves its output before printing it: the selected config binds every
 * node of every model to the same plugin, kernel or delegate as before.
 * --kernels PLUGIN prints one plugin's kernel names, one per line: the
 * list ./configure --with-reference-kernels builds a reduced reference
 * plugin from.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opver/opver.h>

#include "json_writer.h"

enum {
	EXIT_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_BAD_MODEL = 3,
	EXIT_UNRESOLVED = 4
};

/* The ini's lines stay under the config reader's 198 characters. */
#define KERNELS_LINE 150

/* One (op, input types) a kernel or delegate serves for the models, with
 * the versions the models store. */
struct need {
	int32_t op;
	const char *custom_name;        /* borrowed from the runtime */
	int32_t min_version, max_version;
	int32_t num_inputs;
	int32_t *input_types;           /* owned */
	size_t plugin;
	const char *kernel;             /* borrowed; NULL for a delegate */
	const char *delegate;           /* borrowed; NULL for a kernel */
	unsigned char *models;          /* owned; one flag per model */
};

/* What the models bind: per plugin, whether any node uses it and which of
 * its kernels; every node's binding, to check the selection against. */
struct selection {
	const char *config;
	char **models;                  /* argv */
	size_t num_models;
	opver_runtime *runtime;         /* owned */
	size_t num_plugins;
	bool *plugin_used;              /* owned; num_plugins */
	bool **kernel_used;             /* owned; per plugin, its kernels */
	struct need *needs;             /* owned */
	size_t num_needs;
	/* Each model's nodes' "plugin/kernel" or "plugin (delegate)". */
	char ***bindings;               /* owned */
	size_t *num_nodes;              /* owned */
};

static void on_log(void *user_data, opver_log_level level, const char *message)
{
	(void)user_data;
	fprintf(stderr, "opver-select: %s: %s\n", opver_log_level_name(level),
		message);
}

static int fail(int status, const char *format, ...) OPVER__PRINTF(2, 3);

/* Prints "opver-select: MESSAGE" on stderr; returns `status`. */
static int fail(int status, const char *format, ...)
{
	va_list args;

	fputs("opver-select: ", stderr);
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
	return status;
}

static opver_status create_runtime(const char *config, const char *text,
				   size_t text_size, opver_runtime **runtime)
{
	opver_runtime_options options;

	opver_runtime_options_init(&options);
	options.config_path = config;
	options.config_text = text;
	options.config_text_size = text_size;
	options.log = on_log;
	options.log_level = OPVER_LOG_ERROR;
	return opver_runtime_create(&options, runtime);
}

/* An inspect-only interpreter of `path` on `runtime`, its model in *model. */
static int bind_model(opver_runtime *runtime, const char *path,
		      opver_model **model, opver_interpreter **it)
{
	opver_interpreter_options options;
	opver_status status;

	status = opver_model_open(runtime, path, model);
	if (status != OPVER_OK)
		return fail(EXIT_BAD_MODEL, "%s: %s", path,
			    opver_status_message(status));
	opver_interpreter_options_init(&options);
	options.inspect_only = 1;
	status = opver_interpreter_create_with_options(runtime, *model,
						       &options, it);
	if (status != OPVER_OK)
		return fail(EXIT_FAILED, "%s: %s", path,
			    opver_status_message(status));
	return EXIT_SUCCESS;
}

/* "reference/conv_2d_int8" or "xnnpack (delegate xnnpack)", owned. */
static char *binding_text(const opver_node_info *node)
{
	size_t size = strlen(node->plugin) + 16 +
		      strlen(node->kernel ? node->kernel : node->delegate);
	char *text = malloc(size);

	if (text == NULL)
		return NULL;
	if (node->kernel != NULL)
		snprintf(text, size, "%s/%s", node->plugin, node->kernel);
	else
		snprintf(text, size, "%s (delegate %s)", node->plugin,
			 node->delegate);
	return text;
}

static size_t plugin_index(const struct selection *s, const char *name)
{
	opver_plugin_info info;

	for (size_t p = 0; p < s->num_plugins; p++) {
		(void)opver_runtime_plugin_info(s->runtime, p, &info);
		if (strcmp(info.config_name, name) == 0)
			return p;
	}
	return s->num_plugins;
}

static bool same_need(const struct need *need, const opver_node_info *node,
		      size_t plugin)
{
	if (need->op != node->op || need->plugin != plugin ||
	    need->num_inputs != node->num_inputs ||
	    (need->custom_name == NULL) != (node->custom_name == NULL) ||
	    (need->custom_name != NULL &&
	     strcmp(need->custom_name, node->custom_name) != 0) ||
	    (need->kernel == NULL) != (node->kernel == NULL) ||
	    (need->kernel != NULL && strcmp(need->kernel, node->kernel) != 0))
		return false;
	return memcmp(need->input_types, node->input_types,
		      (size_t)node->num_inputs * sizeof(int32_t)) == 0;
}

/* Records that model `m` binds `node` to kernel `kernel` of `plugin`. */
static bool add_need(struct selection *s, size_t m,
		     const opver_node_info *node, size_t plugin)
{
	struct need *need = NULL, *grown;

	for (size_t i = 0; i < s->num_needs && need == NULL; i++)
		if (same_need(&s->needs[i], node, plugin))
			need = &s->needs[i];
	if (need == NULL) {
		grown = realloc(s->needs, (s->num_needs + 1) * sizeof(*grown));
		if (grown == NULL)
			return false;
		s->needs = grown;
		need = &grown[s->num_needs];
		memset(need, 0, sizeof(*need));
		need->input_types = malloc(((size_t)node->num_inputs + 1) *
					   sizeof(int32_t));
		need->models = calloc(s->num_models, 1);
		if (need->input_types == NULL || need->models == NULL) {
			free(need->input_types);
			free(need->models);
			return false;
		}
		s->num_needs++;
		need->op = node->op;
		need->custom_name = node->custom_name;
		need->num_inputs = node->num_inputs;
		memcpy(need->input_types, node->input_types,
		       (size_t)node->num_inputs * sizeof(int32_t));
		need->plugin = plugin;
		need->kernel = node->kernel;
		need->delegate = node->delegate;
		need->min_version = need->max_version = node->resolved_version;
	}
	if (node->resolved_version < need->min_version)
		need->min_version = node->resolved_version;
	if (node->resolved_version > need->max_version)
		need->max_version = node->resolved_version;
	need->models[m] = 1;
	return true;
}

/* Marks what model `m`'s nodes bind, and keeps each node's binding. */
static int select_model(struct selection *s, size_t m)
{
	opver_model *model = NULL;
	opver_interpreter *it = NULL;
	opver_kernel_info kernel;
	opver_node_info node;
	int status;

	status = bind_model(s->runtime, s->models[m], &model, &it);
	if (status != EXIT_SUCCESS)
		goto out;
	s->num_nodes[m] = opver_interpreter_node_count(it);
	s->bindings[m] = calloc(s->num_nodes[m] + 1, sizeof(char *));
	if (s->bindings[m] == NULL) {
		status = fail(EXIT_FAILED, "out of memory");
		goto out;
	}
	for (size_t n = 0; n < s->num_nodes[m]; n++) {
		size_t p;

		(void)opver_interpreter_node_info(it, n, &node);
		if (node.plugin == NULL) {
			status = fail(EXIT_UNRESOLVED,
				      "%s: node %zu (%s v%d) has no kernel or delegate under %s: opver-run --check says what is missing",
				      s->models[m], n, opver_op_name(node.op),
				      node.resolved_version,
				      s->config ? s->config : "the default config");
			goto out;
		}
		s->bindings[m][n] = binding_text(&node);
		if (s->bindings[m][n] == NULL) {
			status = fail(EXIT_FAILED, "out of memory");
			goto out;
		}
		/* The core runs control flow and resource variables itself:
		 * no plugin serves such a node. */
		p = plugin_index(s, node.plugin);
		if (p == s->num_plugins)
			continue;
		s->plugin_used[p] = true;
		for (size_t k = 0; node.kernel != NULL &&
				   opver_runtime_kernel_info(s->runtime, p, k,
							     &kernel) == OPVER_OK;
		     k++)
			if (strcmp(kernel.name, node.kernel) == 0)
				s->kernel_used[p][k] = true;
		if (!add_need(s, m, &node, p)) {
			status = fail(EXIT_FAILED, "out of memory");
			goto out;
		}
	}
out:
	opver_interpreter_destroy(it);
	opver_model_close(model);
	return status;
}

/* The priority to write for plugin p: its selected kernels' effective
 * priority when they share one (a config priority makes them all equal),
 * else none, leaving each kernel its manifest's. */
static bool shared_priority(const struct selection *s, size_t p,
			    int32_t *priority)
{
	opver_kernel_info kernel;
	bool any = false;

	for (size_t k = 0; opver_runtime_kernel_info(s->runtime, p, k,
						      &kernel) == OPVER_OK;
	     k++) {
		if (!s->kernel_used[p][k])
			continue;
		if (any && kernel.priority != *priority)
			return false;
		*priority = kernel.priority;
		any = true;
	}
	return any;
}

static void write_kernels_lines(FILE *out, const struct selection *s,
				size_t p)
{
	opver_kernel_info kernel;
	size_t line = 0;

	for (size_t k = 0; opver_runtime_kernel_info(s->runtime, p, k,
						      &kernel) == OPVER_OK;
	     k++) {
		if (!s->kernel_used[p][k])
			continue;
		if (line > 0 && line + strlen(kernel.name) > KERNELS_LINE) {
			fputc('\n', out);
			line = 0;
		}
		line += (size_t)fprintf(out, "%s%s", line ? ", " : "kernels = ",
					kernel.name);
	}
	/* A plugin used only as a delegate keeps none of its kernels. */
	fputs(line ? "\n" : "kernels =\n", out);
}

static void write_need_comment(FILE *out, const struct selection *s,
			       const struct need *need)
{
	opver_plugin_info plugin;

	(void)opver_runtime_plugin_info(s->runtime, need->plugin, &plugin);
	fprintf(out, ";   %s%s%s%s v%d", opver_op_name(need->op),
		need->custom_name ? "(" : "",
		need->custom_name ? need->custom_name : "",
		need->custom_name ? ")" : "", need->min_version);
	if (need->max_version != need->min_version)
		fprintf(out, "-%d", need->max_version);
	fputs(" (", out);
	for (int32_t i = 0; i < need->num_inputs; i++)
		fprintf(out, "%s%s", i ? "," : "",
			need->input_types[i] < 0 ? "absent" :
			opver_type_name(need->input_types[i]));
	fprintf(out, ") -> %s%s%s%s:", plugin.config_name,
		need->kernel ? "/" : " (delegate ",
		need->kernel ? need->kernel : need->delegate,
		need->kernel ? "" : ")");
	for (size_t m = 0; m < s->num_models; m++)
		if (need->models[m])
			fprintf(out, " %s", s->models[m]);
	fputc('\n', out);
}

/* The selected config, as ini text. */
static void write_ini(FILE *out, const struct selection *s)
{
	opver_plugin_info info;
	const char *key, *value;
	int32_t priority;

	fprintf(out, "; opver-select: the plugins and kernels these models bind under %s\n",
		s->config ? s->config : "the default config");
	fputs("; (op, versions, input types) -> what serves it: models\n", out);
	for (size_t i = 0; i < s->num_needs; i++)
		write_need_comment(out, s, &s->needs[i]);
	for (size_t p = 0; p < s->num_plugins; p++) {
		if (!s->plugin_used[p])
			continue;
		(void)opver_runtime_plugin_info(s->runtime, p, &info);
		fprintf(out, "\n[plugin.%s]\nlibrary = %s\n", info.config_name,
			info.file);
		if (shared_priority(s, p, &priority))
			fprintf(out, "priority = %d\n", (int)priority);
		for (size_t o = 0; opver_runtime_plugin_option(s->runtime, p, o,
							       &key,
							       &value) ==
				   OPVER_OK;
		     o++)
			fprintf(out, "%s = %s\n", key, value);
		write_kernels_lines(out, s, p);
	}
}

/* Binds every model again under the selected config `text`: each node must
 * land where it did. */
static int verify(const struct selection *s, const char *text, size_t size)
{
	opver_runtime *runtime = NULL;
	opver_status status;
	int result = EXIT_SUCCESS;

	status = create_runtime(NULL, text, size, &runtime);
	if (status != OPVER_OK)
		return fail(EXIT_FAILED, "the selected config does not load: %s",
			    opver_status_message(status));
	for (size_t m = 0; m < s->num_models && result == EXIT_SUCCESS; m++) {
		opver_model *model = NULL;
		opver_interpreter *it = NULL;
		opver_node_info node;

		result = bind_model(runtime, s->models[m], &model, &it);
		for (size_t n = 0; result == EXIT_SUCCESS && n < s->num_nodes[m];
		     n++) {
			char *now;

			(void)opver_interpreter_node_info(it, n, &node);
			now = node.plugin ? binding_text(&node) : NULL;
			if (now == NULL || strcmp(now, s->bindings[m][n]) != 0)
				result = fail(EXIT_FAILED,
					      "%s: the selected config binds node %zu to %s instead of %s",
					      s->models[m], n,
					      now ? now : "nothing",
					      s->bindings[m][n]);
			free(now);
		}
		opver_interpreter_destroy(it);
		opver_model_close(model);
	}
	opver_runtime_destroy(runtime);
	return result;
}

static void write_json(FILE *out, const struct selection *s, const char *ini)
{
	json_writer w;
	opver_plugin_info info;

	json_init(&w, out);
	json_begin_object(&w);
	json_key(&w, "config");
	json_string(&w, s->config);
	json_key(&w, "plugins");
	json_begin_array(&w);
	for (size_t p = 0; p < s->num_plugins; p++) {
		opver_kernel_info kernel;

		if (!s->plugin_used[p])
			continue;
		(void)opver_runtime_plugin_info(s->runtime, p, &info);
		json_begin_object(&w);
		json_key(&w, "name");
		json_string(&w, info.config_name);
		json_key(&w, "library");
		json_string(&w, info.file);
		json_key(&w, "kernels");
		json_begin_array(&w);
		for (size_t k = 0; opver_runtime_kernel_info(s->runtime, p, k,
							      &kernel) ==
				   OPVER_OK;
		     k++)
			if (s->kernel_used[p][k])
				json_string(&w, kernel.name);
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "needs");
	json_begin_array(&w);
	for (size_t i = 0; i < s->num_needs; i++) {
		const struct need *need = &s->needs[i];

		(void)opver_runtime_plugin_info(s->runtime, need->plugin,
						&info);
		json_begin_object(&w);
		json_key(&w, "op");
		json_string(&w, opver_op_name(need->op));
		json_key(&w, "custom_name");
		json_string(&w, need->custom_name);
		json_key(&w, "min_version");
		json_int(&w, need->min_version);
		json_key(&w, "max_version");
		json_int(&w, need->max_version);
		json_key(&w, "input_types");
		json_begin_array(&w);
		for (int32_t t = 0; t < need->num_inputs; t++)
			json_string(&w, need->input_types[t] < 0 ? NULL :
				    opver_type_name(need->input_types[t]));
		json_end_array(&w);
		json_key(&w, "plugin");
		json_string(&w, info.config_name);
		json_key(&w, "kernel");
		json_string(&w, need->kernel);
		json_key(&w, "delegate");
		json_string(&w, need->delegate);
		json_key(&w, "models");
		json_begin_array(&w);
		for (size_t m = 0; m < s->num_models; m++)
			if (need->models[m])
				json_string(&w, s->models[m]);
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "ini");
	json_string(&w, ini);
	json_end_object(&w);
	json_finish(&w);
}

/* --kernels PLUGIN: its selected kernels' names, one per line. */
static int write_kernel_names(FILE *out, const struct selection *s,
			      const char *plugin)
{
	size_t p = plugin_index(s, plugin);
	opver_kernel_info kernel;

	if (p == s->num_plugins)
		return fail(EXIT_USAGE, "no plugin '%s' is loaded (opver-run --list-plugins names them)",
			    plugin);
	for (size_t k = 0; opver_runtime_kernel_info(s->runtime, p, k,
						      &kernel) == OPVER_OK;
	     k++)
		if (s->kernel_used[p][k])
			fprintf(out, "%s\n", kernel.name);
	return EXIT_SUCCESS;
}

static bool allocate_selection(struct selection *s)
{
	opver_plugin_info info;

	s->num_plugins = opver_runtime_plugin_count(s->runtime);
	s->plugin_used = calloc(s->num_plugins + 1, sizeof(bool));
	s->kernel_used = calloc(s->num_plugins + 1, sizeof(bool *));
	s->bindings = calloc(s->num_models, sizeof(char **));
	s->num_nodes = calloc(s->num_models, sizeof(size_t));
	if (s->plugin_used == NULL || s->kernel_used == NULL ||
	    s->bindings == NULL || s->num_nodes == NULL)
		return false;
	for (size_t p = 0; p < s->num_plugins; p++) {
		(void)opver_runtime_plugin_info(s->runtime, p, &info);
		s->kernel_used[p] = calloc(info.num_kernels + 1, sizeof(bool));
		if (s->kernel_used[p] == NULL)
			return false;
	}
	return true;
}

static void free_selection(struct selection *s)
{
	for (size_t p = 0; s->kernel_used != NULL && p < s->num_plugins; p++)
		free(s->kernel_used[p]);
	for (size_t m = 0; s->bindings != NULL && m < s->num_models; m++) {
		for (size_t n = 0; s->bindings[m] != NULL && n < s->num_nodes[m];
		     n++)
			free(s->bindings[m][n]);
		free(s->bindings[m]);
	}
	for (size_t i = 0; i < s->num_needs; i++) {
		free(s->needs[i].input_types);
		free(s->needs[i].models);
	}
	free(s->needs);
	free(s->kernel_used);
	free(s->plugin_used);
	free(s->bindings);
	free(s->num_nodes);
	opver_runtime_destroy(s->runtime);
}

static const char usage_text[] =
	"Usage: opver-select [--config FILE] [--json | --kernels PLUGIN] MODEL...\n"
	"Prints the config that loads only the plugins the models bind under\n"
	"the config, each restricted (kernels =) to the kernels they bind, with\n"
	"each (op, versions, input types) and what serves it as comments.  The\n"
	"selection is checked before it is printed: every node of every model\n"
	"binds under it as under the config.\n"
	"\n"
	"      --config FILE    read FILE instead of the default configuration\n"
	"      --json           the plugins, the needs and the ini as JSON\n"
	"      --kernels PLUGIN print PLUGIN's selected kernels, one per line:\n"
	"                       the file ./configure --with-reference-kernels\n"
	"                       takes\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Exit status: 0 success; 1 failure (the selection does not bind as the\n"
	"config does, out of memory); 2 usage error; 3 a model cannot be read;\n"
	"4 a model needs an op or op version no plugin provides.\n";

int main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "kernels", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct selection s = { 0 };
	const char *kernels_of = NULL;
	char *ini = NULL;
	size_t ini_size = 0;
	bool json = false;
	opver_status created;
	FILE *text;
	int option, status = EXIT_SUCCESS;

	opterr = 0;
	while ((option = getopt_long(argc, argv, "h", long_options, NULL)) !=
	       -1) {
		switch (option) {
		case 'c':
			s.config = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'k':
			kernels_of = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_SUCCESS;
		default:
			return fail(EXIT_USAGE, "unknown option or missing argument '%s' (see opver-select --help)",
				    argv[optind - 1]);
		}
	}
	if (optind == argc)
		return fail(EXIT_USAGE, "no MODEL given (see opver-select --help)");
	if (json && kernels_of != NULL)
		return fail(EXIT_USAGE, "--json and --kernels do not go together");
	s.models = &argv[optind];
	s.num_models = (size_t)(argc - optind);
	created = create_runtime(s.config, NULL, 0, &s.runtime);
	if (created != OPVER_OK)
		return fail(created == OPVER_ERROR_CONFIG ||
				    created == OPVER_ERROR_IO ?
			    EXIT_USAGE : EXIT_FAILED,
			    "%s: %s", s.config ? s.config : "default config",
			    opver_status_message(created));
	if (!allocate_selection(&s)) {
		status = fail(EXIT_FAILED, "out of memory");
		goto out;
	}
	for (size_t m = 0; m < s.num_models && status == EXIT_SUCCESS; m++)
		status = select_model(&s, m);
	if (status != EXIT_SUCCESS)
		goto out;
	text = open_memstream(&ini, &ini_size);
	if (text == NULL) {
		status = fail(EXIT_FAILED, "out of memory");
		goto out;
	}
	write_ini(text, &s);
	if (fclose(text) != 0) {
		status = fail(EXIT_FAILED, "out of memory");
		goto out;
	}
	status = verify(&s, ini, ini_size);
	if (status != EXIT_SUCCESS)
		goto out;
	if (kernels_of != NULL)
		status = write_kernel_names(stdout, &s, kernels_of);
	else if (json)
		write_json(stdout, &s, ini);
	else
		fputs(ini, stdout);
out:
	free(ini);
	free_selection(&s);
	if (status == EXIT_SUCCESS && (fflush(stdout) != 0 || ferror(stdout)))
		return fail(EXIT_FAILED, "cannot write the output");
	return status;
}
