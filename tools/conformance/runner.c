/*
 * runner.c - loads the vendor and reference plugins, binds, runs and
 * compares every case, and records what no case exercised.
 *
 * Both runtimes are started from a config written to a temporary file
 * (runtimes.h), so the plugin is loaded exactly as a user's config would
 * load it, and each case's messages are collected for its failure
 * details.  Cases are attributed by the core's own
 * binding (opver_node_info): a case belongs to the vendor kernel or
 * delegate that the resolver chose for it, at its stored version, even
 * one below what the core's rules require of it.
 *
 * This file loads the plugins and runs each op's cases; one case is
 * runner_case.c's, what the cases exercised runner_coverage.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <opver/opver.h>

#include "cases.h"
#include "runner.h"
#include "runner_internal.h"
#include "runtimes.h"
#include "text.h"

/* Writes sections for the vendor (and reference, below the vendor's
 * lowest kernel priority, when the vendor has a delegate) and starts A. */
static int start_vendor(cf_runner *r, const char *vendor, const char *reference)
{
	cf_section sections[2] = { { VENDOR, vendor, false, 0 } };
	int32_t lowest = INT32_MAX;
	long index;

	if (!cf_start_runtime(&r->vendor, sections, 1))
		return CF_EXIT_LOAD;
	index = cf_find_plugin(r->vendor.runtime, VENDOR);
	if (index < 0) {
		fprintf(stderr, "opver-conformance: cannot load %s:\n%s",
			r->options->plugin, cf_text_get(&r->vendor.log));
		return CF_EXIT_LOAD;
	}
	opver_runtime_plugin_info(r->vendor.runtime, (size_t)index,
				  &r->vendor_info);
	if (r->vendor_info.delegate_name == NULL)
		goto loaded;
	for (size_t k = 0; k < r->vendor_info.num_kernels; k++) {
		opver_kernel_info info;

		opver_runtime_kernel_info(r->vendor.runtime, (size_t)index, k,
					  &info);
		if (info.priority < lowest)
			lowest = info.priority;
	}
	/* Below every vendor kernel (any priority without kernels), so the
	 * reference runs only the nodes the vendor leaves. */
	sections[1] = (cf_section){ REFERENCE, reference, true, 0 };
	if (lowest != INT32_MAX)
		sections[1].priority = lowest > INT32_MIN ? lowest - 1 : lowest;
	cf_side_free(&r->vendor);
	if (!cf_start_runtime(&r->vendor, sections, 2))
		return CF_EXIT_LOAD;
	index = cf_find_plugin(r->vendor.runtime, VENDOR);
	if (index < 0 || cf_find_plugin(r->vendor.runtime, REFERENCE) < 0) {
		fprintf(stderr, "opver-conformance: cannot load %s next to the reference %s:\n%s",
			r->options->plugin, reference, cf_text_get(&r->vendor.log));
		return CF_EXIT_LOAD;
	}
	opver_runtime_plugin_info(r->vendor.runtime, (size_t)index,
				  &r->vendor_info);
loaded:
	r->vendor_index = (size_t)index;
	return CF_EXIT_PASS;
}

static int load(cf_runner *r)
{
	const cf_run_options *o = r->options;
	char *vendor = NULL, *reference = NULL;
	cf_section only_reference = { REFERENCE, NULL, false, 0 };
	int status = CF_EXIT_LOAD;

	/* Absolute paths: the config's relative paths would be taken as
	 * relative to the temporary file's directory. */
	vendor = realpath(o->plugin, NULL);
	if (vendor == NULL) {
		fprintf(stderr, "opver-conformance: cannot load %s: %s\n",
			o->plugin, strerror(errno));
		goto out;
	}
	reference = realpath(o->reference, NULL);
	if (reference == NULL) {
		fprintf(stderr, "opver-conformance: cannot load the reference plugin %s: %s\n",
			o->reference, strerror(errno));
		goto out;
	}
	status = start_vendor(r, vendor, reference);
	if (status != CF_EXIT_PASS)
		goto out;
	only_reference.library = reference;
	status = CF_EXIT_LOAD;
	/* A case stored below the version its types or parameters require
	 * is computed as at the required version: what a kernel binding it
	 * must do. */
	r->reference.strict_versions = true;
	if (!cf_start_runtime(&r->reference, &only_reference, 1))
		goto out;
	if (cf_find_plugin(r->reference.runtime, REFERENCE) < 0) {
		fprintf(stderr, "opver-conformance: cannot load the reference plugin %s:\n%s",
			o->reference, cf_text_get(&r->reference.log));
		goto out;
	}
	status = CF_EXIT_PASS;
out:
	free(vendor);
	free(reference);
	return status;
}

/* Fills r->kernels and r->delegate_ops from the vendor plugin. */
static bool survey(cf_runner *r)
{
	const opver_plugin_info *p = &r->vendor_info;

	r->kernels = calloc(p->num_kernels ? p->num_kernels : 1,
			    sizeof(*r->kernels));
	r->delegate_ops = calloc(p->num_delegate_ops ? p->num_delegate_ops : 1,
				 sizeof(*r->delegate_ops));
	if (r->kernels == NULL || r->delegate_ops == NULL)
		return false;
	for (size_t k = 0; k < p->num_kernels; k++)
		opver_runtime_kernel_info(r->vendor.runtime, r->vendor_index, k,
					  &r->kernels[k].info);
	for (size_t d = 0; d < p->num_delegate_ops; d++)
		opver_runtime_delegate_op_info(r->vendor.runtime,
					       r->vendor_index, d,
					       &r->delegate_ops[d].info);
	return true;
}

void cf_add_result(cf_runner *r, const char *suite, const char *name,
		   cf_outcome outcome, double seconds, const char *details)
{
	if (r->replaying)
		return;
	if (!cf_report_add(r->report, suite, name, outcome, seconds, details))
		r->out_of_memory = true;
}

bool cf_kernel_is(const opver_kernel_info *info, int32_t op,
		  const char *custom_name)
{
	return info->op == op &&
	       (op != OPVER_OP_CUSTOM || custom_name == NULL ||
		(info->custom_name != NULL &&
		 strcmp(info->custom_name, custom_name) == 0));
}

/* The op of --op or --case, by name. */
static const char *options_op_name(const cf_run_options *o)
{
	return o->op == OPVER_OP_CUSTOM && o->custom_name != NULL ?
		       o->custom_name :
		       opver_op_name(o->op);
}

/* --case: the one case, when the vendor declares its version (lo to
 * hi); r->case_ran says whether the vendor ran it. */
static bool run_one_case(cf_runner *r, const cf_generator *g, int32_t lo,
			 int32_t hi)
{
	const cf_run_options *o = r->options;
	cf_case_result result = CF_CASE_DONE;

	if (o->case_version < lo || o->case_version > hi) {
		fprintf(stderr, "opver-conformance: --case: %s declares no version %" PRId32 " of %s\n",
			o->plugin, o->case_version, options_op_name(o));
		return true;
	}
	result = cf_run_case(r, g, o->case_version, o->case_variant,
			     o->case_repetition);
	if (result == CF_CASE_NOT_A_VERSION)
		fprintf(stderr, "opver-conformance: --case: version %" PRId32 " is not a TFLite version of %s\n",
			o->case_version, options_op_name(o));
	else if (result == CF_CASE_DONE && !r->case_ran)
		fprintf(stderr, "opver-conformance: --case: %s does not run this case (another plugin's kernel binds it, or none does)\n",
			o->plugin);
	return result != CF_CASE_NO_MEMORY && !r->out_of_memory;
}

void cf_add_case_id(cf_text *t, const char *op_name, int32_t version,
		    int32_t variant, int32_t repetition)
{
	cf_text_add(t, "%s:v%" PRId32 ":%" PRId32 ".%" PRId32, op_name,
		    version, variant, repetition);
}

/* A decimal number from 0 to INT32_MAX at *p, which it moves past. */
static bool parse_number(const char **p, int32_t *value)
{
	int64_t n = 0;

	if (**p < '0' || **p > '9')
		return false;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		n = n * 10 + (**p - '0');
		if (n > INT32_MAX)
			return false;
	}
	*value = (int32_t)n;
	return true;
}

bool cf_parse_case_id(const char *text, cf_run_options *options, char *why,
		      size_t size)
{
	const char *colon = strchr(text, ':');
	const cf_generator *g = NULL;
	const char *p;
	char name[128];
	int32_t op = -1;

	for (int32_t o = 0; colon != NULL && o <= OPVER_OP_COMPLEX; o++)
		if (o != OPVER_OP_CUSTOM &&
		    strlen(opver_op_name(o)) == (size_t)(colon - text) &&
		    strncasecmp(opver_op_name(o), text, (size_t)(colon - text)) == 0)
			op = o;
	/* Or a custom op that has cases, by its name. */
	if (op < 0 && colon != NULL && (size_t)(colon - text) < sizeof(name)) {
		memcpy(name, text, (size_t)(colon - text));
		name[colon - text] = '\0';
		g = cf_generator_named(name);
		op = g != NULL ? g->op : -1;
	}
	p = colon != NULL ? colon + 1 : NULL;
	if (op < 0 || *p++ != 'v' ||
	    !parse_number(&p, &options->case_version) || *p++ != ':' ||
	    !parse_number(&p, &options->case_variant) || *p++ != '.' ||
	    !parse_number(&p, &options->case_repetition) || *p != '\0' ||
	    options->case_version < 1) {
		snprintf(why, size, "'%s' is not a case ID such as CONV_2D:v3:17.1 (OP:vVERSION:VARIANT.REPETITION)",
			 text);
		return false;
	}
	if (g == NULL)
		g = cf_generator_for(op);
	if (g == NULL) {
		snprintf(why, size, "'%s': opver-conformance has no cases for %s",
			 text, opver_op_name(op));
		return false;
	}
	if (options->case_variant >= g->num_variants ||
	    options->case_repetition >= CF_REPETITIONS) {
		snprintf(why, size, "'%s': no such case: %s has variants 0 to %" PRId32 " and repetitions 0 to %d",
			 text, cf_generator_name(g), g->num_variants - 1,
			 CF_REPETITIONS - 1);
		return false;
	}
	options->op = op;
	options->custom_name = g->custom_name;
	options->one_case = true;
	return true;
}

/* Every case of one op (with OPVER_OP_CUSTOM, of the custom op
 * `custom_name`) at every version the vendor declares for it. */
static bool run_op(cf_runner *r, int32_t op, const char *custom_name)
{
	const cf_generator *g = custom_name != NULL ?
					cf_generator_named(custom_name) :
					cf_generator_for(op);
	int32_t lo = INT32_MAX, hi = 0, claims_lo, claims_hi;
	int32_t first_invalid = 0;

	for (size_t k = 0; k < r->vendor_info.num_kernels; k++) {
		const opver_kernel_info *info = &r->kernels[k].info;

		if (!cf_kernel_is(info, op, custom_name))
			continue;
		if (info->min_version < lo)
			lo = info->min_version;
		if (info->max_version > hi)
			hi = info->max_version;
	}
	if (custom_name == NULL &&
	    cf_delegate_range(r, op, &claims_lo, &claims_hi)) {
		/* From version 1, and one above the claims' maximum: the
		 * versions outside its claims, which it must leave alone. */
		lo = 1;
		if (claims_hi >= hi)
			hi = claims_hi + 1;
	}
	if (hi > VERSION_LIMIT)
		hi = VERSION_LIMIT;
	if (r->options->one_case)
		return run_one_case(r, g, lo, hi);
	for (int32_t v = lo; g != NULL && v <= hi && first_invalid == 0; v++)
		for (int32_t variant = 0; variant < g->num_variants; variant++)
			for (int32_t rep = 0; rep < CF_REPETITIONS; rep++) {
				cf_case_result result =
					cf_run_case(r, g, v, variant, rep);

				if (result == CF_CASE_NO_MEMORY)
					return false;
				if (result == CF_CASE_NOT_A_VERSION) {
					first_invalid = v;
					variant = g->num_variants;
					break;
				}
			}
	if (!r->options->list)
		cf_report_coverage(r, op, custom_name, g != NULL,
				   first_invalid);
	return !r->out_of_memory;
}

/* Whether `op` (with OPVER_OP_CUSTOM, the custom op `custom_name`) is
 * one the vendor declares; delegates claim builtin ops only. */
static bool declares(const cf_runner *r, int32_t op, const char *custom_name)
{
	int32_t lo, hi;

	for (size_t k = 0; k < r->vendor_info.num_kernels; k++)
		if (cf_kernel_is(&r->kernels[k].info, op, custom_name))
			return true;
	return op != OPVER_OP_CUSTOM && cf_delegate_range(r, op, &lo, &hi);
}

/* Whether kernel k is the first of the vendor's for its custom op. */
static bool first_of_custom_op(const cf_runner *r, size_t k)
{
	const opver_kernel_info *info = &r->kernels[k].info;

	for (size_t j = 0; j < k; j++)
		if (cf_kernel_is(&r->kernels[j].info, OPVER_OP_CUSTOM,
				 info->custom_name))
			return false;
	return true;
}

/* Custom-op kernels: the cases of those that have a generator, a skip
 * for each of the others.  False when out of memory. */
static bool run_custom(cf_runner *r)
{
	const cf_run_options *o = r->options;

	for (size_t k = 0; k < r->vendor_info.num_kernels; k++) {
		const opver_kernel_info *info = &r->kernels[k].info;
		const cf_generator *g;
		cf_text suite = { 0 };

		if (info->op != OPVER_OP_CUSTOM || info->custom_name == NULL ||
		    (o->op >= 0 && !cf_kernel_is(info, o->op, o->custom_name)))
			continue;
		g = cf_generator_named(info->custom_name);
		if (g != NULL && g->custom_name != NULL) {
			if (first_of_custom_op(r, k) &&
			    !run_op(r, OPVER_OP_CUSTOM, g->custom_name))
				return false;
			continue;
		}
		if (o->list || o->op >= 0)
			continue;
		cf_text_add(&suite, "CUSTOM/%s", info->name);
		cf_skip(r, cf_text_get(&suite),
			info->custom_name,
			"custom op %s: opver-conformance has no cases for it",
			info->custom_name);
		cf_text_free(&suite);
	}
	return !r->out_of_memory;
}

int cf_run(const cf_run_options *options, cf_report *report)
{
	cf_runner r = { .options = options, .report = report };
	int status;

	status = load(&r);
	if (status != CF_EXIT_PASS)
		goto out;
	if (options->hooks != NULL)
		options->hooks->loaded(options->hooks->context);
	status = CF_EXIT_FAIL;
	if (!survey(&r))
		goto nomem;
	if (options->op >= 0 &&
	    !declares(&r, options->op, options->custom_name))
		fprintf(stderr, "opver-conformance: %s declares no kernel or delegate op for %s: no cases\n",
			options->plugin, options_op_name(options));
	/* Builtin ops in code order, so runs are ordered the same whatever
	 * the manifest's order; custom ops after them. */
	for (int32_t op = 0; op <= OPVER_OP_COMPLEX; op++) {
		if (op == OPVER_OP_CUSTOM ||
		    (options->op >= 0 && op != options->op))
			continue;
		if (declares(&r, op, NULL) && !run_op(&r, op, NULL))
			goto nomem;
	}
	if (!run_custom(&r))
		goto nomem;
	if (r.out_of_memory)
		goto nomem;
	status = options->one_case && !r.case_ran ? CF_EXIT_USAGE :
						    CF_EXIT_PASS;
	goto out;
nomem:
	fprintf(stderr, "opver-conformance: out of memory\n");
out:
	if (options->hooks != NULL && r.vendor.runtime != NULL)
		options->hooks->unloading(options->hooks->context);
	cf_side_free(&r.vendor);
	cf_side_free(&r.reference);
	free(r.kernels);
	free(r.delegate_ops);
	return status;
}
