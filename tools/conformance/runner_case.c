/*
 * runner_case.c - one case: generated, bound by the vendor's runtime,
 * run on both sides and compared, with the details that reproduce a
 * failure; a delegate's claims checked against the claims it declares;
 * crashes of earlier processes recorded.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opver/opver.h>

#include "cases.h"
#include "compare.h"
#include "describe.h"
#include "model_builder.h"
#include "runner_internal.h"
#include "text.h"
#include "requant_report.h"
#include "window.h"

/* A case being run: its generated content, model and description. */
typedef struct running {
	int32_t op;
	const char *op_name;    /* cf_generator_name() */
	int32_t version;
	int32_t variant;
	int32_t repetition;
	uint64_t seed;
	cf_case c;
	int32_t graph_inputs[CF_MAX_NODE_INPUTS];
	int32_t num_graph_inputs;
	uint8_t *bytes;         /* owned; the model */
	size_t size;
	cf_text name;           /* the one-line id */
	cf_text suite;
	opver_node_info node;   /* how A bound it */
	cf_kernel_cover *kernel; /* the vendor kernel that bound it, or NULL */
	struct timespec start;
} running;

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* The case's ID and seeds. */
static void add_case_seed(cf_text *t, const cf_runner *r, const running *k)
{
	cf_text_add(t, "case: ");
	cf_add_case_id(t, k->op_name, k->version, k->variant, k->repetition);
	cf_text_add(t, "\ncase seed: 0x%016" PRIx64 " (run seed %" PRIu64 ")\n",
		    k->seed, r->options->seed);
}

/* What every failure's details say of its case: op, version and why,
 * what ran it, tensors, quantization, parameters and seed. */
static void add_case_details(cf_text *t, const cf_runner *r, const running *k)
{
	const cf_run_options *o = r->options;
	const cf_case *c = &k->c;

	cf_text_add(t, "op: %s version %" PRId32 " (the rules require v%" PRId32 ": %s)\n",
		    k->op_name, k->version, k->node.required_version,
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
	add_case_seed(t, r, k);
}

/* The command line that runs the failing case, and only it, again. */
static void add_reproduce(cf_text *t, const cf_runner *r, const running *k)
{
	const cf_run_options *o = r->options;

	cf_text_add(t, "reproduce: opver-conformance --case ");
	cf_add_case_id(t, k->op_name, k->version, k->variant, k->repetition);
	cf_text_add(t, " --seed %" PRIu64, o->seed);
	if (o->reference_given)
		cf_text_add(t, " --reference %s", o->reference);
	if (o->rtol_given)
		cf_text_add(t, " --rtol %g", o->rtol);
	if (o->steps_given)
		cf_text_add(t, " --steps %d", (int)o->steps);
	cf_text_add(t, " %s\n", o->plugin);
}

static size_t tensor_elements(const cf_tensor_desc *desc)
{
	size_t n = 1;

	for (int32_t d = 0; d < desc->rank; d++)
		n *= (size_t)desc->dims[d];
	return n;
}

/* Copies the case's input values into the interpreter's inputs. */
static bool set_inputs(opver_interpreter *it, const running *k)
{
	if (opver_interpreter_input_count(it) != (size_t)k->num_graph_inputs)
		return false;
	for (int32_t i = 0; i < k->num_graph_inputs; i++) {
		const cf_tensor_desc *desc = &k->c.tensors[k->graph_inputs[i]];
		opver_tensor *tensor = opver_interpreter_input(it, (size_t)i);
		size_t bytes = opver_type_size(desc->type) *
			       tensor_elements(desc);

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
 * does not, for nodes with several, for spatial ops the padding and the
 * window of its first differing element, and for quantized ones how its
 * requantization goes. */
static bool compare_every_output(const cf_runner *r, const running *k,
				 opver_interpreter *vendor_it,
				 opver_interpreter *reference_it, cf_text *why)
{
	int32_t outputs[CF_MAX_NODE_OUTPUTS];
	const int32_t count = cf_case_outputs(&k->c, outputs);
	size_t first;

	for (int32_t i = 0; i < count; i++) {
		if (count > 1)
			cf_text_add(why, "output %d: ", (int)i);
		if (!cf_compare_outputs(opver_interpreter_output(vendor_it, i),
					opver_interpreter_output(reference_it,
								 i),
					r->options->rtol, r->options->steps,
					why, &first)) {
			cf_describe_window(why, &k->c, first);
			cf_describe_requantization(
				why, &k->c, first,
				opver_interpreter_output(reference_it, i));
			return false;
		}
		if (count > 1)
			cf_text_clear(why);
	}
	return true;
}

/* One side's outputs: each in its type, and its values. */
static void dump_outputs(cf_text *t, const char *side, opver_interpreter *it)
{
	for (size_t i = 0; it != NULL && i < opver_interpreter_output_count(it);
	     i++) {
		const opver_tensor *out = opver_interpreter_output(it, i);

		cf_text_add(t, "%s output %zu: ", side, i);
		cf_describe_type(t, out->type);
		cf_text_add(t, " [");
		for (int32_t d = 0; d < out->rank; d++)
			cf_text_add(t, "%s%" PRId32, d ? "," : "", out->dims[d]);
		cf_text_add(t, "]\n");
		cf_describe_values(t, "    ", out->type, out->data,
				   opver_tensor_elements(out));
	}
}

/* --case --verbose: the case's node inputs (graph inputs and constants)
 * and each side's outputs (NULL: the side did not run). */
static void dump_case(const cf_runner *r, const running *k,
		      opver_interpreter *vendor_it,
		      opver_interpreter *reference_it)
{
	const cf_case *c = &k->c;
	cf_text t = { 0 };

	if (r->options->dump_out == NULL)
		return;
	add_case_seed(&t, r, k);
	cf_text_add(&t, "params: %s\n", c->params_text);
	for (int32_t i = 0; i < c->num_inputs; i++) {
		const cf_tensor_desc *in;
		const void *data;

		cf_text_add(&t, "input %" PRId32 ": ", i);
		if (c->inputs[i] < 0) {
			cf_text_add(&t, "omitted\n");
			continue;
		}
		in = &c->tensors[c->inputs[i]];
		data = in->data != NULL ? in->data : c->values[c->inputs[i]];
		cf_describe_tensor(&t, in);
		cf_text_add(&t, in->data != NULL ? " (constant)\n" : "\n");
		if (data != NULL)
			cf_describe_values(&t, "    ", in->type, data,
					   in->data != NULL ?
						   in->data_size /
							   opver_type_size(in->type) :
						   tensor_elements(in));
	}
	cf_text_add(&t, "output: ");
	cf_describe_tensor(&t, &c->tensors[c->output]);
	cf_text_add(&t, "\n");
	dump_outputs(&t, "plugin", vendor_it);
	dump_outputs(&t, "reference", reference_it);
	fputs(cf_text_get(&t), r->options->dump_out);
	fflush(r->options->dump_out);
	cf_text_free(&t);
}

/* Runs a bound case on both sides and records the comparison. */
static void compare_case(cf_runner *r, running *k, opver_model *vendor_model)
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
		/* Stored below the version its types or parameters need,
		 * which the reference lacks: nothing says what it computes,
		 * and the vendor's kernel, whose range ends below it too
		 * (the reference's ranges are TFLite's), is not checked. */
		if (k->node.required_version > k->version)
			goto out;
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
		add_reproduce(&details, r, k);
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
		add_reproduce(&details, r, k);
	}
exercised:
	if (r->options->one_case && !r->replaying)
		dump_case(r, k, vendor_it, reference_it);
	if (k->kernel != NULL) {
		k->kernel->exercised[k->version] = true;
		k->kernel->input_types |=
			OPVER_TYPE_BIT(k->c.tensors[k->c.inputs[0]].type);
	} else {
		cf_mark_delegate(r, k->op, k->version, &k->c);
	}
record:
	cf_add_result(r, cf_text_get(&k->suite), cf_text_get(&k->name), outcome,
		      seconds_since(&k->start),
		      outcome == CF_PASS ? NULL : cf_text_get(&details));
out:
	if (details.failed || why.failed)
		r->out_of_memory = true;
	cf_text_free(&details);
	cf_text_free(&why);
	opver_interpreter_destroy(vendor_it);
	opver_interpreter_destroy(reference_it);
	opver_model_close(reference_model);
}

/* The vendor kernel named `name` of op, or NULL. */
static cf_kernel_cover *find_kernel(cf_runner *r, int32_t op, const char *name)
{
	for (size_t k = 0; k < r->vendor_info.num_kernels; k++)
		if (r->kernels[k].info.op == op &&
		    strcmp(r->kernels[k].info.name, name) == 0)
			return &r->kernels[k];
	return NULL;
}

/* Whether one of the delegate's claims covers the case's version. */
static bool delegate_declares_version(const cf_runner *r, int32_t op,
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
static bool delegate_declares(const cf_runner *r, const running *k)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++)
		if (cf_claim_covers(&r->delegate_ops[d].info, k->op, k->version,
				    &k->c))
			return true;
	return false;
}

/* Says how a rejected claim lies outside the delegate's typed claims. */
static void describe_rejection(cf_text *details, const cf_runner *r,
			       const running *k)
{
	const char *op = k->op_name;
	int32_t lo, hi;

	if (!cf_delegate_range(r, k->op, &lo, &hi))
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
static void check_claims(cf_runner *r, running *k)
{
	const char *log = cf_text_get(&r->vendor.log);
	const char *rejected = strstr(log, "claim rejected");
	cf_text suite = { 0 }, details = { 0 };
	int32_t lo, hi;
	bool declared;

	if (r->vendor_info.delegate_name == NULL)
		return;
	declared = cf_delegate_range(r, k->op, &lo, &hi);
	cf_text_add(&suite, "%s/delegate:%s", k->op_name,
		    r->vendor_info.delegate_name);
	if (rejected != NULL) {
		describe_rejection(&details, r, k);
		cf_text_add(&details, "core: %s", log);
		add_case_details(&details, r, k);
		add_reproduce(&details, r, k);
		cf_add_result(r, cf_text_get(&suite), cf_text_get(&k->name),
			      CF_FAIL, seconds_since(&k->start),
			      cf_text_get(&details));
	} else if (declared && (k->version == hi + 1 ||
				(lo > 1 && k->version == lo - 1))) {
		/* Next to the declared versions and left alone: as it
		 * must. */
		cf_add_result(r, cf_text_get(&suite), cf_text_get(&k->name),
			      CF_PASS, seconds_since(&k->start), NULL);
	}
	if (suite.failed || details.failed)
		r->out_of_memory = true;
	cf_text_free(&suite);
	cf_text_free(&details);
}

/* Reports a case this tool got wrong: its model does not open or bind. */
static void internal_error(cf_runner *r, running *k, const char *what)
{
	cf_text suite = { 0 }, details = { 0 };

	cf_text_add(&suite, "%s/generator", k->op_name);
	cf_text_add(&details, "internal error in opver-conformance: %s\n%s", what,
		    cf_text_get(&r->vendor.log));
	add_case_details(&details, r, k);
	cf_add_result(r, cf_text_get(&suite), cf_text_get(&k->name), CF_FAIL, 0,
		      cf_text_get(&details));
	cf_text_free(&suite);
	cf_text_free(&details);
}

/* The crash of case `ordinal` in an earlier process, or NULL. */
static const cf_crash *crashed_before(const cf_runner *r, uint64_t ordinal)
{
	const cf_run_hooks *h = r->options->hooks;

	for (size_t i = 0; h != NULL && i < h->num_crashes; i++)
		if (h->crashes[i].ordinal == ordinal)
			return &h->crashes[i];
	return NULL;
}

/* Records case k's crash in an earlier process, with what reproduces it.
 * Bound or not, k->suite is set. */
static void record_crash(cf_runner *r, running *k, const cf_crash *crash)
{
	cf_text details = { 0 };

	cf_text_add(&details, "%s\n", crash->why);
	if (crash->bound) {
		add_case_details(&details, r, k);
	} else {
		cf_text_add(&details, "op: %s version %" PRId32 ", while the delegate's claims bound it\n",
			    k->op_name, k->version);
		add_case_seed(&details, r, k);
	}
	add_reproduce(&details, r, k);
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
static void begin_case(cf_runner *r, uint64_t ordinal, bool bound)
{
	const cf_run_hooks *h = r->options->hooks;

	if (h != NULL)
		h->begin(h->context, ordinal, bound);
}

cf_case_result cf_run_case(cf_runner *r, const cf_generator *g, int32_t version,
			   int32_t variant, int32_t repetition)
{
	const cf_run_hooks *hooks = r->options->hooks;
	uint64_t ordinal = r->ordinal++;
	const cf_crash *crash = NULL;
	const cf_run_options *o = r->options;
	opver_interpreter_options inspect;
	opver_interpreter *it = NULL;
	opver_model *model = NULL;
	cf_case_result result = CF_CASE_DONE;
	running k = { .op = g->op, .op_name = cf_generator_name(g),
		      .version = version, .variant = variant,
		      .repetition = repetition };
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
	k.seed = cf_case_seed(o->seed, g, variant, repetition);
	cf_rng_seed(&rng, k.seed);
	cf_case_init(&k.c, g->op);
	if (!g->generate(variant, &rng, &k.c)) {
		result = CF_CASE_NO_MEMORY;
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
	if (g->custom_name != NULL ? version > 1 :
	    opver_model_computed_runtime_version(model) == NULL) {
		/* Not in TFLite's table of (op, version) releases (custom
		 * ops: not version 1, the one TFLite registers them at). */
		result = CF_CASE_NOT_A_VERSION;
		goto out;
	}
	if (r->replaying_crash && !crashed_before(r, ordinal)->bound) {
		/* Its binding crashed: it runs nothing again. */
		cf_text_add(&k.suite, "%s/binding", k.op_name);
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
	if (!o->list)
		check_claims(r, &k);
	if (k.node.plugin == NULL || strcmp(k.node.plugin, VENDOR) != 0)
		goto out;
	if (k.node.delegate != NULL) {
		cf_text_add(&k.suite, "%s/delegate:%s", k.op_name,
			    k.node.delegate);
	} else {
		k.kernel = find_kernel(r, g->op, k.node.kernel);
		if (k.kernel == NULL)
			goto out;
		cf_text_add(&k.suite, "%s/%s", k.op_name,
			    k.node.kernel);
	}
	r->case_ran = true;
	if (k.kernel != NULL)
		cf_note_required(&k.kernel->lowest_required,
				 k.node.required_version);
	else
		cf_note_delegate_required(r, g->op, version, &k.c,
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
		result = CF_CASE_NO_MEMORY;
	opver_interpreter_destroy(it);
	opver_model_close(model);
	free(k.bytes);
	cf_text_free(&k.name);
	cf_text_free(&k.suite);
	cf_case_free(&k.c);
	return result;
}
