/*
 * runner.c - loads the vendor and reference plugins, binds, runs and
 * compares every case, and records what no case exercised.
 *
 * Both runtimes are started from a config written to a temporary file
 * (runtimes.h), so the plugin is loaded exactly as a user's config would
 * load it, and each case's messages are collected for its failure
 * details.  Cases are attributed by the core's own
 * binding (opver_node_info): a case belongs to the vendor kernel or
 * delegate that the resolver chose for it, and only cases whose stored
 * version is at least what the core's rules require are kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opver/opver.h>

#include "cases.h"
#include "compare.h"
#include "describe.h"
#include "model_builder.h"
#include "runner.h"
#include "runtimes.h"
#include "text.h"

/* Config names of the two plugins in the runtimes. */
#define VENDOR "vendor"
#define REFERENCE "reference"

/* Each case variant is drawn this many times, with different seeds. */
#define REPETITIONS 2

/* Versions above this are never tried: TFLite's highest op version is
 * far below it, and cases stop at the first version TFLite lacks. */
#define VERSION_LIMIT 32

/* ---------------------------------------------------------- the runner */

/* A vendor kernel and what the cases exercised of it. */
typedef struct kernel_cover {
	opver_kernel_info info;
	/* exercised[v]: a case ran on it at version v. */
	bool exercised[VERSION_LIMIT + 1];
	/* Types of the first input of the cases that ran on it. */
	uint32_t input_types;
	/* The lowest version the rules required of a case it bound; 0 while
	 * none did. */
	int32_t lowest_required;
} kernel_cover;

/* A typed claim of the vendor's delegate (op, version range, types) and
 * what the cases exercised of it. */
typedef struct delegate_cover {
	opver_delegate_op_info info;
	bool exercised[VERSION_LIMIT + 1];
	/* Types of the first input of the cases it ran. */
	uint32_t input_types;
	int32_t lowest_required;
} delegate_cover;

/* Keeps the lowest nonzero of *lowest and required. */
static void note_required(int32_t *lowest, int32_t required)
{
	if (*lowest == 0 || required < *lowest)
		*lowest = required;
}

typedef struct runner {
	const cf_run_options *options;
	cf_report *report;
	cf_side vendor;            /* runtime A */
	cf_side reference;         /* runtime B */
	size_t vendor_index;    /* the vendor plugin in runtime A */
	opver_plugin_info vendor_info;
	kernel_cover *kernels;  /* owned; vendor_info.num_kernels */
	delegate_cover *delegate_ops;   /* owned; num_delegate_ops */
	bool out_of_memory;
	/* The number of the next case (cf_run_hooks). */
	uint64_t ordinal;
	/* The case is redone for its coverage only: nothing is recorded. */
	bool replaying;
	/* ... and it crashed once bound: no plugin code runs but binding. */
	bool replaying_crash;
} runner;

/* Writes sections for the vendor (and reference, below the vendor's
 * lowest kernel priority, when the vendor has a delegate) and starts A. */
static int start_vendor(runner *r, const char *vendor, const char *reference)
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

static int load(runner *r)
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
static bool survey(runner *r)
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

/* The versions the delegate's claims of `op` span, *lo to *hi; false
 * when it declares none. */
static bool delegate_range(const runner *r, int32_t op, int32_t *lo,
			   int32_t *hi)
{
	bool any = false;

	*lo = INT32_MAX;
	*hi = 0;
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		const opver_delegate_op_info *info = &r->delegate_ops[d].info;

		if (info->op != op)
			continue;
		if (info->min_version < *lo)
			*lo = info->min_version;
		if (info->max_version > *hi)
			*hi = info->max_version;
		any = true;
	}
	return any;
}

/* Whether a type mask takes `type` (-1: an omitted optional input);
 * a mask of 0 takes anything. */
static bool mask_takes(uint32_t mask, int32_t type)
{
	if (mask == 0)
		return true;
	if (type < 0)
		return (mask & OPVER_TYPE_BIT_ABSENT) != 0;
	return type < 31 && (mask & OPVER_TYPE_BIT(type)) != 0;
}

/* Whether the case's tensor types are among those the claim declares.
 * The claim's masks are the union of its signatures, so this is what
 * can be told from outside the plugin. */
static bool claim_takes_types(const opver_delegate_op_info *info,
			      const cf_case *c)
{
	for (int32_t i = 0; i < c->num_inputs && i < OPVER_SIGNATURE_INPUTS;
	     i++) {
		int32_t t = c->inputs[i];

		if (!mask_takes(info->input_types[i],
				t >= 0 ? (int32_t)c->tensors[t].type : -1))
			return false;
	}
	return mask_takes(info->output_types, c->tensors[c->output].type);
}

/* Whether the claim covers the case: its op, version and types. */
static bool claim_covers(const opver_delegate_op_info *info, int32_t op,
			 int32_t version, const cf_case *c)
{
	return info->op == op && version >= info->min_version &&
	       version <= info->max_version && claim_takes_types(info, c);
}

/* The delegate ran a case: every claim covering it was exercised. */
static void mark_delegate(runner *r, int32_t op, int32_t version,
			  const cf_case *c)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		delegate_cover *cover = &r->delegate_ops[d];

		if (!claim_covers(&cover->info, op, version, c))
			continue;
		cover->exercised[version] = true;
		cover->input_types |=
			OPVER_TYPE_BIT(c->tensors[c->inputs[0]].type);
	}
}

/* The delegate bound a case that needs version `required`. */
static void note_delegate_required(runner *r, int32_t op, int32_t version,
				   const cf_case *c, int32_t required)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++)
		if (claim_covers(&r->delegate_ops[d].info, op, version, c))
			note_required(&r->delegate_ops[d].lowest_required,
				      required);
}

static void add_result(runner *r, const char *suite, const char *name,
		       cf_outcome outcome, double seconds, const char *details)
{
	if (r->replaying)
		return;
	if (!cf_report_add(r->report, suite, name, outcome, seconds, details))
		r->out_of_memory = true;
}

/* -------------------------------------------------------- one case */

/* What running one case found. */
typedef enum case_result {
	CASE_DONE,              /* recorded, listed or not the vendor's */
	CASE_NOT_A_VERSION,     /* the op has no such TFLite version */
	CASE_NO_MEMORY
} case_result;

/* A case being run: its generated content, model and description. */
typedef struct running {
	int32_t op;
	int32_t version;
	uint64_t seed;
	cf_case c;
	int32_t graph_inputs[CF_MAX_NODE_INPUTS];
	int32_t num_graph_inputs;
	uint8_t *bytes;         /* owned; the model */
	size_t size;
	cf_text name;           /* the one-line id */
	cf_text suite;
	opver_node_info node;   /* how A bound it */
	kernel_cover *kernel;   /* the vendor kernel that bound it, or NULL */
	struct timespec start;
} running;

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* What every failure's details say of its case: op, version and why,
 * what ran it, tensors, quantization, parameters and seed. */
static void add_case_details(cf_text *t, const runner *r, const running *k)
{
	const cf_run_options *o = r->options;
	const cf_case *c = &k->c;

	cf_text_add(t, "op: %s version %" PRId32 " (the rules require v%" PRId32 ": %s)\n",
		    opver_op_name(k->op), k->version, k->node.required_version,
		    k->node.version_reason ? k->node.version_reason : "");
	if (k->node.delegate != NULL)
		cf_text_add(t, "run by: delegate '%s' of %s\n", k->node.delegate,
			    o->plugin);
	else if (k->node.kernel != NULL)
		cf_text_add(t, "run by: kernel '%s' of %s\n", k->node.kernel,
			    strcmp(k->node.plugin, VENDOR) == 0 ?
				    o->plugin :
				    "the reference plugin");
	cf_text_add(t, "tensors: ");
	cf_describe_signature(t, c);
	cf_text_add(t, "\nquantization:\n");
	cf_describe_quantization(t, c);
	cf_text_add(t, "params: %s\n", c->params_text);
	cf_text_add(t, "case seed: 0x%016" PRIx64 " (run seed %" PRIu64 ")\n",
		    k->seed, o->seed);
}

/* The command line that runs the failing case again. */
static void add_reproduce(cf_text *t, const runner *r, int32_t op)
{
	const cf_run_options *o = r->options;

	cf_text_add(t, "reproduce: opver-conformance --op %s --seed %" PRIu64,
		    opver_op_name(op), o->seed);
	if (o->reference_given)
		cf_text_add(t, " --reference %s", o->reference);
	if (o->rtol_given)
		cf_text_add(t, " --rtol %g", o->rtol);
	cf_text_add(t, " %s\n", o->plugin);
}

/* Copies the case's input values into the interpreter's inputs. */
static bool set_inputs(opver_interpreter *it, const running *k)
{
	if (opver_interpreter_input_count(it) != (size_t)k->num_graph_inputs)
		return false;
	for (int32_t i = 0; i < k->num_graph_inputs; i++) {
		const cf_tensor_desc *desc = &k->c.tensors[k->graph_inputs[i]];
		opver_tensor *tensor = opver_interpreter_input(it, (size_t)i);
		size_t bytes = opver_type_size(desc->type);

		for (int32_t d = 0; d < desc->rank; d++)
			bytes *= (size_t)desc->dims[d];
		if (tensor == NULL || tensor->bytes != bytes)
			return false;
		/* An empty tensor has no data to copy (nor a pointer). */
		if (bytes > 0)
			memcpy(tensor->data, k->c.values[k->graph_inputs[i]],
			       bytes);
	}
	return true;
}

/*
 * Runs the case's model on one side: a full interpreter, inputs, invoke.
 * On success *it holds the interpreter (caller destroys it); otherwise
 * false with the side's log saying why.
 */
static bool run_on(cf_side *s, const running *k, opver_model *model,
		   opver_interpreter **it)
{
	*it = NULL;
	if (opver_interpreter_create(s->runtime, model, it) != OPVER_OK)
		return false;
	if (!set_inputs(*it, k)) {
		cf_text_add(&s->log, "error: the interpreter's inputs do not match the case's\n");
		return false;
	}
	return opver_interpreter_invoke(*it) == OPVER_OK;
}

/* Whether every output of the case agrees; `why` names the first that
 * does not, for nodes with several. */
static bool compare_every_output(const runner *r, const running *k,
				 opver_interpreter *vendor_it,
				 opver_interpreter *reference_it, cf_text *why)
{
	int32_t outputs[CF_MAX_NODE_OUTPUTS];
	const int32_t count = cf_case_outputs(&k->c, outputs);

	for (int32_t i = 0; i < count; i++) {
		if (count > 1)
			cf_text_add(why, "output %d: ", (int)i);
		if (!cf_compare_outputs(opver_interpreter_output(vendor_it, i),
					opver_interpreter_output(reference_it,
								 i),
					r->options->rtol, why))
			return false;
		if (count > 1)
			cf_text_clear(why);
	}
	return true;
}

/* Runs a bound case on both sides and records the comparison. */
static void compare_case(runner *r, running *k, opver_model *vendor_model)
{
	opver_interpreter *vendor_it = NULL, *reference_it = NULL;
	opver_model *reference_model = NULL;
	cf_text details = { 0 }, why = { 0 };
	cf_outcome outcome = CF_FAIL;

	if (r->replaying_crash)
		goto exercised;
	cf_text_clear(&r->reference.log);
	if (opver_model_open_memory(r->reference.runtime, k->bytes, k->size,
				    &reference_model) != OPVER_OK ||
	    !run_on(&r->reference, k, reference_model, &reference_it)) {
		cf_text_add(&details, "the reference plugin cannot run this case:\n%s",
			    cf_text_get(&r->reference.log));
		outcome = CF_SKIP;
		goto record;
	}
	/* Replayed: the reference's verdict is all its coverage needs. */
	if (r->replaying)
		goto exercised;
	cf_text_clear(&r->vendor.log);
	if (!run_on(&r->vendor, k, vendor_model, &vendor_it)) {
		add_case_details(&details, r, k);
		cf_text_add(&details, "the plugin failed to run a node it binds:\n%s",
			    cf_text_get(&r->vendor.log));
		add_reproduce(&details, r, k->op);
		goto exercised;
	}
	if (compare_every_output(r, k, vendor_it, reference_it, &why)) {
		outcome = CF_PASS;
	} else {
		add_case_details(&details, r, k);
		cf_text_add(&details, "%s", cf_text_get(&why));
		if (r->vendor.log.used > 0)
			cf_text_add(&details, "plugin log:\n%s",
				    cf_text_get(&r->vendor.log));
		add_reproduce(&details, r, k->op);
	}
exercised:
	if (k->kernel != NULL) {
		k->kernel->exercised[k->version] = true;
		k->kernel->input_types |=
			OPVER_TYPE_BIT(k->c.tensors[k->c.inputs[0]].type);
	} else {
		mark_delegate(r, k->op, k->version, &k->c);
	}
record:
	add_result(r, cf_text_get(&k->suite), cf_text_get(&k->name), outcome,
		   seconds_since(&k->start),
		   outcome == CF_PASS ? NULL : cf_text_get(&details));
	if (details.failed || why.failed)
		r->out_of_memory = true;
	cf_text_free(&details);
	cf_text_free(&why);
	opver_interpreter_destroy(vendor_it);
	opver_interpreter_destroy(reference_it);
	opver_model_close(reference_model);
}

/* The vendor kernel named `name` of op, or NULL. */
static kernel_cover *find_kernel(runner *r, int32_t op, const char *name)
{
	for (size_t k = 0; k < r->vendor_info.num_kernels; k++)
		if (r->kernels[k].info.op == op &&
		    strcmp(r->kernels[k].info.name, name) == 0)
			return &r->kernels[k];
	return NULL;
}

/* Whether one of the delegate's claims covers the case's version. */
static bool delegate_declares_version(const runner *r, int32_t op,
				      int32_t version)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		const opver_delegate_op_info *info = &r->delegate_ops[d].info;

		if (info->op == op && version >= info->min_version &&
		    version <= info->max_version)
			return true;
	}
	return false;
}

/* Whether one of the delegate's claims covers the case entirely. */
static bool delegate_declares(const runner *r, const running *k)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++)
		if (claim_covers(&r->delegate_ops[d].info, k->op, k->version,
				 &k->c))
			return true;
	return false;
}

/* Says how a rejected claim lies outside the delegate's typed claims. */
static void describe_rejection(cf_text *details, const runner *r,
			       const running *k)
{
	const char *op = opver_op_name(k->op);
	int32_t lo, hi;

	if (!delegate_range(r, k->op, &lo, &hi))
		cf_text_add(details, "delegate claimed %s v%" PRId32 ", an op it does not declare\n",
			    op, k->version);
	else if (k->version > hi)
		cf_text_add(details, "delegate claimed %s v%" PRId32 " above its declared v%" PRId32 "\n",
			    op, k->version, hi);
	else if (k->version < lo)
		cf_text_add(details, "delegate claimed %s v%" PRId32 " below its declared v%" PRId32 "\n",
			    op, k->version, lo);
	else if (!delegate_declares_version(r, k->op, k->version))
		cf_text_add(details, "delegate claimed %s v%" PRId32 ", between the version ranges it declares\n",
			    op, k->version);
	else if (!delegate_declares(r, k))
		cf_text_add(details, "delegate claimed %s v%" PRId32 " with tensor types outside its declared signatures\n",
			    op, k->version);
	else
		cf_text_add(details, "delegate made a claim the core rejected on %s v%" PRId32 "\n",
			    op, k->version);
}

/* A delegate that claimed a node it may not: the core rejected the claim
 * and said so; the typed claims make the failure precise. */
static void check_claims(runner *r, running *k)
{
	const char *log = cf_text_get(&r->vendor.log);
	const char *rejected = strstr(log, "claim rejected");
	cf_text suite = { 0 }, details = { 0 };
	int32_t lo, hi;
	bool declared;

	if (r->vendor_info.delegate_name == NULL)
		return;
	declared = delegate_range(r, k->op, &lo, &hi);
	cf_text_add(&suite, "%s/delegate:%s", opver_op_name(k->op),
		    r->vendor_info.delegate_name);
	if (rejected != NULL) {
		describe_rejection(&details, r, k);
		cf_text_add(&details, "core: %s", log);
		add_case_details(&details, r, k);
		add_reproduce(&details, r, k->op);
		add_result(r, cf_text_get(&suite), cf_text_get(&k->name), CF_FAIL,
			   seconds_since(&k->start), cf_text_get(&details));
	} else if (declared && (k->version == hi + 1 ||
				(lo > 1 && k->version == lo - 1))) {
		/* Next to the declared versions and left alone: as it
		 * must. */
		add_result(r, cf_text_get(&suite), cf_text_get(&k->name), CF_PASS,
			   seconds_since(&k->start), NULL);
	}
	if (suite.failed || details.failed)
		r->out_of_memory = true;
	cf_text_free(&suite);
	cf_text_free(&details);
}

/* Reports a case this tool got wrong: its model does not open or bind. */
static void internal_error(runner *r, running *k, const char *what)
{
	cf_text suite = { 0 }, details = { 0 };

	cf_text_add(&suite, "%s/generator", opver_op_name(k->op));
	cf_text_add(&details, "internal error in opver-conformance: %s\n%s", what,
		    cf_text_get(&r->vendor.log));
	add_case_details(&details, r, k);
	add_result(r, cf_text_get(&suite), cf_text_get(&k->name), CF_FAIL, 0,
		   cf_text_get(&details));
	cf_text_free(&suite);
	cf_text_free(&details);
}

/* The crash of case `ordinal` in an earlier process, or NULL. */
static const cf_crash *crashed_before(const runner *r, uint64_t ordinal)
{
	const cf_run_hooks *h = r->options->hooks;

	for (size_t i = 0; h != NULL && i < h->num_crashes; i++)
		if (h->crashes[i].ordinal == ordinal)
			return &h->crashes[i];
	return NULL;
}

/* Records case k's crash in an earlier process, with what reproduces it.
 * Bound or not, k->suite is set. */
static void record_crash(runner *r, running *k, const cf_crash *crash)
{
	cf_text details = { 0 };

	cf_text_add(&details, "%s\n", crash->why);
	if (crash->bound) {
		add_case_details(&details, r, k);
	} else {
		cf_text_add(&details, "op: %s version %" PRId32 ", while the delegate's claims bound it\n",
			    opver_op_name(k->op), k->version);
		cf_text_add(&details, "case seed: 0x%016" PRIx64 " (run seed %" PRIu64 ")\n",
			    k->seed, r->options->seed);
	}
	add_reproduce(&details, r, k->op);
	if (!cf_report_add(r->report, cf_text_get(&k->suite),
			   cf_text_get(&k->name), CF_FAIL, crash->seconds,
			   cf_text_get(&details)) || details.failed)
		r->out_of_memory = true;
	/* --list writes no report. */
	if (r->options->list)
		fprintf(stderr, "opver-conformance: %s %s: %s\n",
			cf_text_get(&k->suite), cf_text_get(&k->name),
			crash->why);
	cf_text_free(&details);
}

/* Tells the watching process that case `ordinal` is about to run plugin
 * code (replayed ones too: their time counts against the limit). */
static void begin_case(runner *r, uint64_t ordinal, bool bound)
{
	const cf_run_hooks *h = r->options->hooks;

	if (h != NULL)
		h->begin(h->context, ordinal, bound);
}

static case_result run_case(runner *r, const cf_generator *g, int32_t version,
			    int32_t variant, int32_t repetition)
{
	const cf_run_hooks *hooks = r->options->hooks;
	uint64_t ordinal = r->ordinal++;
	const cf_crash *crash = NULL;
	const cf_run_options *o = r->options;
	opver_interpreter_options inspect;
	opver_interpreter *it = NULL;
	opver_model *model = NULL;
	case_result result = CASE_DONE;
	running k = { .op = g->op, .version = version };
	char error[256];
	cf_rng rng;

	crash = crashed_before(r, ordinal);
	r->replaying = crash != NULL ||
		       (hooks != NULL && ordinal < hooks->resume);
	r->replaying_crash = crash != NULL;
	/* Below `resume`, its failure reached the report already. */
	if (crash != NULL && ordinal < hooks->resume)
		crash = NULL;
	clock_gettime(CLOCK_MONOTONIC, &k.start);
	/* Not the version: a case is the same at every version it is
	 * written at, and --op leaves other ops' seeds alone. */
	k.seed = cf_seed_mix(cf_seed_mix(cf_seed_mix(o->seed, (uint64_t)g->op),
					 (uint64_t)variant),
			     (uint64_t)repetition);
	cf_rng_seed(&rng, k.seed);
	cf_case_init(&k.c, g->op);
	if (!g->generate(variant, &rng, &k.c)) {
		result = CASE_NO_MEMORY;
		goto out;
	}
	k.num_graph_inputs = cf_case_graph_inputs(&k.c, k.graph_inputs);
	cf_text_add(&k.name, "v%" PRId32 " ", version);
	cf_describe_signature(&k.name, &k.c);
	cf_text_add(&k.name, " %s seed=0x%016" PRIx64, k.c.params_text, k.seed);
	if (!cf_case_model(&k.c, version, &k.bytes, &k.size, error,
			   sizeof(error))) {
		cf_text_clear(&r->vendor.log);
		internal_error(r, &k, error);
		goto out;
	}
	cf_text_clear(&r->vendor.log);
	if (opver_model_open_memory(r->vendor.runtime, k.bytes, k.size,
				    &model) != OPVER_OK) {
		internal_error(r, &k, "the case's model does not open");
		goto out;
	}
	if (opver_model_computed_runtime_version(model) == NULL) {
		/* Not in TFLite's table of (op, version) releases. */
		result = CASE_NOT_A_VERSION;
		goto out;
	}
	if (r->replaying_crash && !crashed_before(r, ordinal)->bound) {
		/* Its binding crashed: it runs nothing again. */
		cf_text_add(&k.suite, "%s/binding", opver_op_name(g->op));
		if (crash != NULL)
			record_crash(r, &k, crash);
		goto out;
	}
	/* Only a delegate's claims run plugin code while binding. */
	if (r->vendor_info.delegate_name != NULL)
		begin_case(r, ordinal, false);
	opver_interpreter_options_init(&inspect);
	inspect.inspect_only = 1;
	if (opver_interpreter_create_with_options(r->vendor.runtime, model,
						  &inspect, &it) != OPVER_OK ||
	    opver_interpreter_node_info(it, 0, &k.node) != OPVER_OK) {
		internal_error(r, &k, "the case's model cannot be bound");
		goto out;
	}
	if (k.node.required_version > version)
		goto out;
	if (!o->list)
		check_claims(r, &k);
	if (k.node.plugin == NULL || strcmp(k.node.plugin, VENDOR) != 0)
		goto out;
	if (k.node.delegate != NULL) {
		cf_text_add(&k.suite, "%s/delegate:%s", opver_op_name(g->op),
			    k.node.delegate);
	} else {
		k.kernel = find_kernel(r, g->op, k.node.kernel);
		if (k.kernel == NULL)
			goto out;
		cf_text_add(&k.suite, "%s/%s", opver_op_name(g->op),
			    k.node.kernel);
	}
	if (k.kernel != NULL)
		note_required(&k.kernel->lowest_required,
			      k.node.required_version);
	else
		note_delegate_required(r, g->op, version, &k.c,
				       k.node.required_version);
	if (o->list) {
		/* Flushed: a later case may crash the process. */
		if (!r->replaying) {
			fprintf(o->list_out, "%s %s\n", cf_text_get(&k.suite),
				cf_text_get(&k.name));
			fflush(o->list_out);
		}
		goto out;
	}
	if (crash != NULL)
		record_crash(r, &k, crash);
	begin_case(r, ordinal, true);
	compare_case(r, &k, model);
out:
	r->replaying = false;
	r->replaying_crash = false;
	if (k.name.failed || k.suite.failed)
		result = CASE_NO_MEMORY;
	opver_interpreter_destroy(it);
	opver_model_close(model);
	free(k.bytes);
	cf_text_free(&k.name);
	cf_text_free(&k.suite);
	cf_case_free(&k.c);
	return result;
}

/* ------------------------------------------------------------- coverage */

static void skip(runner *r, const char *suite, const char *name,
		 const char *format, ...) OPVER__PRINTF(4, 5);

static void skip(runner *r, const char *suite, const char *name,
		 const char *format, ...)
{
	cf_text details = { 0 };
	va_list args;

	va_start(args, format);
	cf_text_vadd(&details, format, args);
	va_end(args);
	add_result(r, suite, name, CF_SKIP, 0, cf_text_get(&details));
	if (details.failed)
		r->out_of_memory = true;
	cf_text_free(&details);
}

/*
 * One skip per version of [min, max] nothing exercised; versions from
 * `first_invalid` on (0: none) are not TFLite versions of the op and get
 * one skip together.  Versions below `lowest_required` (when not 0) are
 * below what the rules require of every case it took.
 */
static void skip_unexercised(runner *r, const char *suite, int32_t op,
			     int32_t min, int32_t max, const bool *exercised,
			     int32_t first_invalid, int32_t lowest_required,
			     const char *why)
{
	char name[64];

	for (int32_t v = min; v <= max; v++) {
		if (v > VERSION_LIMIT || (first_invalid > 0 && v >= first_invalid)) {
			snprintf(name, sizeof(name), "v%" PRId32 "-v%" PRId32,
				 v, max);
			skip(r, suite, name,
			     "versions %" PRId32 " to %" PRId32 " are not TFLite versions of %s%s: nothing to check",
			     v, max, opver_op_name(op),
			     v > VERSION_LIMIT ? " (above any op's versions)" : "");
			return;
		}
		if (exercised[v])
			continue;
		snprintf(name, sizeof(name), "v%" PRId32, v);
		if (lowest_required > v)
			skip(r, suite, name,
			     "nothing exercised %s at v%" PRId32 ": TFLite's rules require v%" PRId32 " or later of every case it took (its tensor types or parameters)",
			     suite, v, lowest_required);
		else
			skip(r, suite, name,
			     "nothing exercised %s at v%" PRId32 ": %s", suite,
			     v, why);
	}
}

/* One skip per type of a first-input mask (`accepted`) that no case
 * gave (`given`). */
static void skip_untyped(runner *r, const char *suite, uint32_t accepted,
			 uint32_t given, const char *why)
{
	uint32_t missing = accepted & ~OPVER_TYPE_BIT_ABSENT & ~given;

	for (int32_t type = 0; type < OPVER_TYPE_COUNT; type++) {
		char name[64];

		if (!(missing & OPVER_TYPE_BIT(type)))
			continue;
		snprintf(name, sizeof(name), "input type %s",
			 opver_type_name(type));
		skip(r, suite, name,
		     "nothing exercised %s with a %s first input: %s", suite,
		     opver_type_name(type), why);
	}
}

/* Skips for what the cases of `op` left unexercised. */
static void report_coverage(runner *r, int32_t op, bool has_cases,
			    int32_t first_invalid)
{
	const char *why = has_cases ?
		"no generated case at this version has tensor types it accepts" :
		"opver-conformance has no cases for this op";
	cf_text suite = { 0 };

	for (size_t i = 0; i < r->vendor_info.num_kernels; i++) {
		kernel_cover *k = &r->kernels[i];

		if (k->info.op != op)
			continue;
		cf_text_clear(&suite);
		cf_text_add(&suite, "%s/%s", opver_op_name(op), k->info.name);
		skip_unexercised(r, cf_text_get(&suite), op, k->info.min_version,
				 k->info.max_version, k->exercised,
				 first_invalid, k->lowest_required, why);
		/* Types the kernel accepts first that no case gave it. */
		if (has_cases)
			skip_untyped(r, cf_text_get(&suite),
				     k->info.input_types[0], k->input_types,
				     "no generated case of that type bound it");
	}
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		delegate_cover *c = &r->delegate_ops[d];

		if (c->info.op != op)
			continue;
		cf_text_clear(&suite);
		cf_text_add(&suite, "%s/delegate:%s", opver_op_name(op),
			    r->vendor_info.delegate_name);
		skip_unexercised(r, cf_text_get(&suite), op,
				 c->info.min_version, c->info.max_version,
				 c->exercised, first_invalid,
				 c->lowest_required,
				 has_cases ?
					 "the delegate claimed no generated case at this version" :
					 why);
		/* Types its claim accepts first that it ran no case of. */
		if (has_cases)
			skip_untyped(r, cf_text_get(&suite),
				     c->info.input_types[0], c->input_types,
				     "the delegate claimed no generated case of that type");
	}
	if (suite.failed)
		r->out_of_memory = true;
	cf_text_free(&suite);
}

/* Every case of one op at every version the vendor declares for it. */
static bool run_op(runner *r, int32_t op)
{
	const cf_generator *g = cf_generator_for(op);
	int32_t lo = INT32_MAX, hi = 0, claims_lo, claims_hi;
	int32_t first_invalid = 0;

	for (size_t k = 0; k < r->vendor_info.num_kernels; k++) {
		const opver_kernel_info *info = &r->kernels[k].info;

		if (info->op != op)
			continue;
		if (info->min_version < lo)
			lo = info->min_version;
		if (info->max_version > hi)
			hi = info->max_version;
	}
	if (delegate_range(r, op, &claims_lo, &claims_hi)) {
		/* From version 1, and one above the claims' maximum: the
		 * versions outside its claims, which it must leave alone. */
		lo = 1;
		if (claims_hi >= hi)
			hi = claims_hi + 1;
	}
	if (hi > VERSION_LIMIT)
		hi = VERSION_LIMIT;
	for (int32_t v = lo; g != NULL && v <= hi && first_invalid == 0; v++)
		for (int32_t variant = 0; variant < g->num_variants; variant++)
			for (int32_t rep = 0; rep < REPETITIONS; rep++) {
				case_result result =
					run_case(r, g, v, variant, rep);

				if (result == CASE_NO_MEMORY)
					return false;
				if (result == CASE_NOT_A_VERSION) {
					first_invalid = v;
					variant = g->num_variants;
					break;
				}
			}
	if (!r->options->list)
		report_coverage(r, op, g != NULL, first_invalid);
	return !r->out_of_memory;
}

/* Whether `op` is one the vendor declares (builtin ops only). */
static bool declares(const runner *r, int32_t op)
{
	int32_t lo, hi;

	if (op == OPVER_OP_CUSTOM)
		return false;
	for (size_t k = 0; k < r->vendor_info.num_kernels; k++)
		if (r->kernels[k].info.op == op)
			return true;
	return delegate_range(r, op, &lo, &hi);
}

/* Custom-op kernels: nothing can be generated for them. */
static void skip_custom(runner *r)
{
	for (size_t k = 0; k < r->vendor_info.num_kernels; k++) {
		const opver_kernel_info *info = &r->kernels[k].info;
		cf_text suite = { 0 };

		if (info->op != OPVER_OP_CUSTOM || r->options->op >= 0)
			continue;
		cf_text_add(&suite, "CUSTOM/%s", info->name);
		skip(r, cf_text_get(&suite), info->custom_name ? info->custom_name : "?",
		     "custom op %s: opver-conformance has no cases for custom ops",
		     info->custom_name ? info->custom_name : "?");
		cf_text_free(&suite);
	}
}

int cf_run(const cf_run_options *options, cf_report *report)
{
	runner r = { .options = options, .report = report };
	int status;

	status = load(&r);
	if (status != CF_EXIT_PASS)
		goto out;
	if (options->hooks != NULL)
		options->hooks->loaded(options->hooks->context);
	status = CF_EXIT_FAIL;
	if (!survey(&r))
		goto nomem;
	if (options->op >= 0 && !declares(&r, options->op))
		fprintf(stderr, "opver-conformance: %s declares no kernel or delegate op for %s: no cases\n",
			options->plugin, opver_op_name(options->op));
	/* Ops in code order, so runs are ordered the same whatever the
	 * manifest's order. */
	for (int32_t op = 0; op <= OPVER_OP_COMPLEX; op++) {
		if (options->op >= 0 && op != options->op)
			continue;
		if (declares(&r, op) && !run_op(&r, op))
			goto nomem;
	}
	if (!options->list)
		skip_custom(&r);
	if (r.out_of_memory)
		goto nomem;
	status = CF_EXIT_PASS;
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
