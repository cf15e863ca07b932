/*
 * opver_run_list.c - opver-run --list-plugins: each plugin, its kernels
 * and its delegate's claims, as text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>

#include <opver/opver.h>
/* For OPVER_TYPE_BIT, the encoding of the kernels' type masks. */

#include "opver_run.h"

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

	run_format_op(k->op, k->custom_name, op, sizeof(op));
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
			return run_fail(s, EXIT_RUN_FAILED, info->file, status);
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
			return run_fail(s, EXIT_RUN_FAILED, info->file, status);
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
			run_format_op(dop.op, dop.custom_name, op, sizeof(op));
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
		return run_fail(s, EXIT_RUN_FAILED, "plugin list", status);
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

int run_list_plugins(struct session *s)
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
