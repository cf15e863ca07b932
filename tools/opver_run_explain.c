/*
 * opver_run_explain.c - opver-run --explain (how each node is bound and
 * which version it needs, and why) and --check (what no plugin handles),
 * as text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opver_run.h"

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

	run_format_op(node->op, node->custom_name, op, sizeof(op));
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
			return run_fail(s, EXIT_RUN_FAILED, "plugin list",
					status);
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

int run_explain(struct session *s)
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
	run_explain_signatures(s);
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
	if (!s->cmd.json && unbound > 0)
		printf("! %zu node%s no kernel or delegate; --check summarises what is missing, --log-level info adds what each loaded plugin offers\n",
		       unbound, unbound == 1 ? " has" : "s have");
	/* Only an inspect-only interpreter has unbound nodes. */
	return unbound == 0 ? EXIT_SUCCESS : EXIT_UNRESOLVED;
}

/* True when nodes a and b need the same (op, version, input types) and
 * store the same version. */
static bool same_need(const opver_node_info *a, const opver_node_info *b)
{
	if (a->op != b->op || a->resolved_version != b->resolved_version ||
	    a->version != b->version ||
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
		json_key(w, "stored_version");
		json_int(w, need->version);
		json_key(w, "version_reason");
		json_string(w, need->version_reason);
		json_key(w, "input_types");
		json_begin_array(w);
		for (int32_t t = 0; t < need->num_inputs; t++)
			json_string(w, need->input_types[t] < 0 ? NULL :
				    opver_type_name(need->input_types[t]));
		json_end_array(w);
		json_key(w, "nodes");
		json_begin_array(w);
	} else {
		run_format_op(need->op, need->custom_name, op, sizeof(op));
		format_input_types(need, types, sizeof(types));
		printf("  %s version %d for (%s)", op, need->resolved_version,
		       types);
		if (need->resolved_version != need->version)
			printf(" (stored as %d; required: %s)", need->version,
			       need->version_reason);
		printf(": node%s", sharing > 0 ? "s" : "");
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
int run_check(struct session *s)
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
	else if (missing > 0)
		puts("(--log-level info adds what each loaded plugin offers for these)");
	free(nodes);
	free(listed);
	return missing == 0 ? EXIT_SUCCESS : EXIT_UNRESOLVED;
}
