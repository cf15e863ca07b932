/*
 * runner.c - loads the vendor and reference plugins, binds, runs and
 * compares every case, and records what no case exercised.
 *
 * Both runtimes are started from a config written to a temporary file, so
 * the plugin is loaded exactly as a user's config would load it; the core
 * then reports through a log callback that collects each case's messages
 * for its failure details.  Cases are attributed by the core's own
 * binding (opver_node_info): a case belongs to the vendor kernel or
 * delegate that the resolver chose for it, and only cases whose stored
 * version is at least what the core's rules require are kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <opver/opver.h>
/* For OPVER_TYPE_BIT, the type masks of opver_kernel_info. */
#include <opver/plugin.h>

#include "cases.h"
#include "model_builder.h"
#include "runner.h"

/* Config names of the two plugins in the runtimes. */
#define VENDOR "vendor"
#define REFERENCE "reference"

/* Each case variant is drawn this many times, with different seeds. */
#define REPETITIONS 2

/* Versions above this are never tried: TFLite's highest op version is
 * far below it, and cases stop at the first version TFLite lacks. */
#define VERSION_LIMIT 32

/* ----------------------------------------------------------- text buffer */

/* A growing string; `failed` once out of memory (the text is then
 * truncated but still a string). */
typedef struct text {
	char *data;
	size_t used;
	size_t capacity;
	bool failed;
} text;

static void text_vadd(text *t, const char *format, va_list args)
	OPVER__PRINTF(2, 0);

static void text_vadd(text *t, const char *format, va_list args)
{
	va_list copy;
	int length;

	va_copy(copy, args);
	length = vsnprintf(NULL, 0, format, copy);
	va_end(copy);
	if (length < 0 || t->failed)
		return;
	if (t->used + (size_t)length + 1 > t->capacity) {
		size_t capacity = (t->used + (size_t)length + 1) * 2;
		char *grown = realloc(t->data, capacity);

		if (grown == NULL) {
			t->failed = true;
			return;
		}
		t->data = grown;
		t->capacity = capacity;
	}
	vsnprintf(t->data + t->used, t->capacity - t->used, format, args);
	t->used += (size_t)length;
}

static void text_add(text *t, const char *format, ...) OPVER__PRINTF(2, 3);

static void text_add(text *t, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	text_vadd(t, format, args);
	va_end(args);
}

/* The text so far; "" before anything was added. */
static const char *text_get(const text *t)
{
	return t->data != NULL ? t->data : "";
}

static void text_clear(text *t)
{
	t->used = 0;
	if (t->data != NULL)
		t->data[0] = '\0';
}

static void text_free(text *t)
{
	free(t->data);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------- runtimes */

/* The core's messages, one per line. */
static void collect_log(void *user_data, opver_log_level level,
			const char *message)
{
	text_add(user_data, "%s: %s\n", opver_log_level_name(level), message);
}

/* A runtime and the messages it reported since last cleared. */
typedef struct side {
	opver_runtime *runtime;
	text log;
} side;

/* One [plugin.NAME] section; library NULL for none. */
typedef struct section {
	const char *name;
	const char *library;
	bool has_priority;
	int32_t priority;
} section;

/*
 * Starts s->runtime on a temporary config holding the given sections, with
 * no plugin_path, so that only these plugins load.  False after printing
 * why when the config cannot be written or the runtime not started.
 */
static bool start_runtime(side *s, const section *sections, size_t count)
{
	const char *dir = getenv("TMPDIR");
	opver_runtime_options options;
	char path[4096];
	opver_status status;
	FILE *file;
	int fd;

	if (dir == NULL || dir[0] == '\0')
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/opver-conformance-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0 || (file = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "opver-conformance: cannot create a config file in %s: %s\n",
			dir, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return false;
	}
	fprintf(file, "[opver]\nlog_level = warning\n");
	for (size_t i = 0; i < count; i++) {
		fprintf(file, "\n[plugin.%s]\nlibrary = %s\n", sections[i].name,
			sections[i].library);
		if (sections[i].has_priority)
			fprintf(file, "priority = %" PRId32 "\n",
				sections[i].priority);
	}
	if (fclose(file) != 0) {
		fprintf(stderr, "opver-conformance: cannot write %s: %s\n", path,
			strerror(errno));
		unlink(path);
		return false;
	}
	opver_runtime_options_init(&options);
	options.config_path = path;
	options.log = collect_log;
	options.log_user_data = &s->log;
	options.log_level = OPVER_LOG_WARNING;
	status = opver_runtime_create(&options, &s->runtime);
	unlink(path);
	if (status != OPVER_OK) {
		fprintf(stderr, "opver-conformance: cannot start a runtime (%s):\n%s",
			opver_status_name(status), text_get(&s->log));
		return false;
	}
	return true;
}

/* The index of the plugin loaded under `name`, or -1. */
static long find_plugin(const opver_runtime *runtime, const char *name)
{
	for (size_t i = 0; i < opver_runtime_plugin_count(runtime); i++) {
		opver_plugin_info info;

		if (opver_runtime_plugin_info(runtime, i, &info) == OPVER_OK &&
		    strcmp(info.config_name, name) == 0)
			return (long)i;
	}
	return -1;
}

/* ---------------------------------------------------------- the runner */

/* A vendor kernel and what the cases exercised of it. */
typedef struct kernel_cover {
	opver_kernel_info info;
	/* exercised[v]: a case ran on it at version v. */
	bool exercised[VERSION_LIMIT + 1];
	/* Types of the first input of the cases that ran on it. */
	uint32_t input_types;
} kernel_cover;

/* A (op, max version) pair the vendor's delegate declares. */
typedef struct delegate_cover {
	opver_delegate_op_info info;
	bool exercised[VERSION_LIMIT + 1];
} delegate_cover;

typedef struct runner {
	const cf_run_options *options;
	cf_report *report;
	side vendor;            /* runtime A */
	side reference;         /* runtime B */
	size_t vendor_index;    /* the vendor plugin in runtime A */
	opver_plugin_info vendor_info;
	kernel_cover *kernels;  /* owned; vendor_info.num_kernels */
	delegate_cover *delegate_ops;   /* owned; num_delegate_ops */
	bool out_of_memory;
} runner;

/* Writes sections for the vendor (and reference, below the vendor's
 * lowest kernel priority, when the vendor has a delegate) and starts A. */
static int start_vendor(runner *r, const char *vendor, const char *reference)
{
	section sections[2] = { { VENDOR, vendor, false, 0 } };
	int32_t lowest = INT32_MAX;
	long index;

	if (!start_runtime(&r->vendor, sections, 1))
		return CF_EXIT_LOAD;
	index = find_plugin(r->vendor.runtime, VENDOR);
	if (index < 0) {
		fprintf(stderr, "opver-conformance: cannot load %s:\n%s",
			r->options->plugin, text_get(&r->vendor.log));
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
	/* Below every vendor kernel, so the reference only runs what the
	 * vendor leaves. */
	sections[1] = (section){ REFERENCE, reference, true,
				 lowest == INT32_MIN ? INT32_MIN : lowest - 1 };
	if (lowest == INT32_MAX)
		sections[1].priority = 0;
	opver_runtime_destroy(r->vendor.runtime);
	r->vendor.runtime = NULL;
	text_clear(&r->vendor.log);
	if (!start_runtime(&r->vendor, sections, 2))
		return CF_EXIT_LOAD;
	index = find_plugin(r->vendor.runtime, VENDOR);
	if (index < 0 || find_plugin(r->vendor.runtime, REFERENCE) < 0) {
		fprintf(stderr, "opver-conformance: cannot load %s next to the reference %s:\n%s",
			r->options->plugin, reference, text_get(&r->vendor.log));
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
	section only_reference = { REFERENCE, NULL, false, 0 };
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
	if (strchr(vendor, '\n') != NULL || strchr(reference, '\n') != NULL) {
		fprintf(stderr, "opver-conformance: cannot load a plugin whose path holds a newline\n");
		goto out;
	}
	status = start_vendor(r, vendor, reference);
	if (status != CF_EXIT_PASS)
		goto out;
	only_reference.library = reference;
	status = CF_EXIT_LOAD;
	if (!start_runtime(&r->reference, &only_reference, 1))
		goto out;
	if (find_plugin(r->reference.runtime, REFERENCE) < 0) {
		fprintf(stderr, "opver-conformance: cannot load the reference plugin %s:\n%s",
			o->reference, text_get(&r->reference.log));
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

/* The highest version the delegate declares for `op`, or 0. */
static int32_t delegate_max(const runner *r, int32_t op)
{
	int32_t best = 0;

	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++)
		if (r->delegate_ops[d].info.op == op &&
		    r->delegate_ops[d].info.max_version > best)
			best = r->delegate_ops[d].info.max_version;
	return best;
}

static void mark_delegate(runner *r, int32_t op, int32_t version)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++)
		if (r->delegate_ops[d].info.op == op &&
		    version <= r->delegate_ops[d].info.max_version &&
		    version <= VERSION_LIMIT)
			r->delegate_ops[d].exercised[version] = true;
}

static void add_result(runner *r, const char *suite, const char *name,
		       cf_outcome outcome, double seconds, const char *details)
{
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
	text name;              /* the one-line id */
	text suite;
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

/* "float32" for FLOAT32: the case lines' spelling. */
static void add_type(text *t, int32_t type)
{
	const char *name = opver_type_name(type);

	for (const char *p = name; *p != '\0'; p++)
		text_add(t, "%c", *p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
}

static void add_shape(text *t, const cf_tensor_desc *tensor)
{
	text_add(t, "[");
	for (int32_t d = 0; d < tensor->rank; d++)
		text_add(t, "%s%" PRId32, d ? "," : "", tensor->dims[d]);
	text_add(t, "]");
}

/* "float32,float32,float32->float32 [1,5,6,3] [1,3,3,6] [6] -> [1,5,6,6]" */
static void add_signature(text *t, const cf_case *c)
{
	for (int32_t i = 0; i < c->num_inputs; i++) {
		if (i > 0)
			text_add(t, ",");
		if (c->inputs[i] < 0)
			text_add(t, "-");
		else
			add_type(t, c->tensors[c->inputs[i]].type);
	}
	text_add(t, "->");
	add_type(t, c->tensors[c->output].type);
	for (int32_t i = 0; i < c->num_inputs; i++) {
		text_add(t, " ");
		if (c->inputs[i] < 0)
			text_add(t, "-");
		else
			add_shape(t, &c->tensors[c->inputs[i]]);
	}
	text_add(t, " -> ");
	add_shape(t, &c->tensors[c->output]);
}

static void add_quantization(text *t, const char *what,
			     const cf_tensor_desc *tensor)
{
	float lo, hi;

	if (!tensor->quantized)
		return;
	text_add(t, "  %s: ", what);
	if (tensor->num_scales == 0) {
		text_add(t, "quantization table without parameters\n");
		return;
	}
	if (tensor->num_scales == 1) {
		text_add(t, "scale %.9g zero point %" PRId64 "\n",
			 (double)tensor->scales[0], tensor->zero_points[0]);
		return;
	}
	lo = hi = tensor->scales[0];
	for (int32_t i = 1; i < tensor->num_scales; i++) {
		lo = fminf(lo, tensor->scales[i]);
		hi = fmaxf(hi, tensor->scales[i]);
	}
	text_add(t, "%" PRId32 " scales along dimension %" PRId32 " (%.9g .. %.9g), zero point %" PRId64 "\n",
		 tensor->num_scales, tensor->quantized_dimension, (double)lo,
		 (double)hi, tensor->zero_points[0]);
}

/* The reproduce line, and the lines every detail starts with. */
static void add_case_details(text *t, const runner *r, const running *k)
{
	const cf_run_options *o = r->options;
	const cf_case *c = &k->c;
	bool any = false;

	text_add(t, "op: %s version %" PRId32 " (the rules require v%" PRId32 ": %s)\n",
		 opver_op_name(k->op), k->version, k->node.required_version,
		 k->node.version_reason ? k->node.version_reason : "");
	if (k->node.delegate != NULL)
		text_add(t, "run by: delegate '%s' of %s\n", k->node.delegate,
			 o->plugin);
	else
		text_add(t, "run by: kernel '%s' of %s\n",
			 k->node.kernel ? k->node.kernel : "?", o->plugin);
	text_add(t, "tensors: ");
	add_signature(t, c);
	text_add(t, "\nquantization:\n");
	for (int32_t i = 0; i < c->num_inputs; i++) {
		char what[32];

		if (c->inputs[i] < 0 || !c->tensors[c->inputs[i]].quantized)
			continue;
		snprintf(what, sizeof(what), "input %d", (int)i);
		add_quantization(t, what, &c->tensors[c->inputs[i]]);
		any = true;
	}
	if (c->tensors[c->output].quantized) {
		add_quantization(t, "output", &c->tensors[c->output]);
		any = true;
	}
	if (!any)
		text_add(t, "  none\n");
	text_add(t, "params: %s\n", c->params_text);
	text_add(t, "case seed: 0x%016" PRIx64 " (run seed %" PRIu64 ")\n",
		 k->seed, o->seed);
}

static void add_reproduce(text *t, const runner *r, int32_t op)
{
	const cf_run_options *o = r->options;

	text_add(t, "reproduce: opver-conformance --op %s --seed %" PRIu64,
		 opver_op_name(op), o->seed);
	if (o->reference_given)
		text_add(t, " --reference %s", o->reference);
	if (o->rtol_given)
		text_add(t, " --rtol %g", o->rtol);
	text_add(t, " %s\n", o->plugin);
}

/* Element i of a tensor's data, as a double, for messages and floats. */
static double element(const opver_tensor *t, size_t i)
{
	switch (t->type) {
	case OPVER_TYPE_FLOAT32:
		return ((const float *)t->data)[i];
	case OPVER_TYPE_INT8:
		return ((const int8_t *)t->data)[i];
	case OPVER_TYPE_UINT8:
		return ((const uint8_t *)t->data)[i];
	case OPVER_TYPE_INT16:
		return ((const int16_t *)t->data)[i];
	case OPVER_TYPE_INT32:
		return ((const int32_t *)t->data)[i];
	case OPVER_TYPE_INT64:
		return (double)((const int64_t *)t->data)[i];
	default:
		return NAN;
	}
}

/* "[0,2,1,5]": flat index i of a tensor of shape dims, as coordinates. */
static void add_coordinates(text *t, const opver_tensor *tensor, size_t i)
{
	size_t coordinates[8] = { 0 };
	int32_t rank = tensor->rank < 8 ? tensor->rank : 8;

	for (int32_t d = rank; d-- > 0;) {
		size_t dim = tensor->dims[d] > 0 ? (size_t)tensor->dims[d] : 1;

		coordinates[d] = i % dim;
		i /= dim;
	}
	text_add(t, "[");
	for (int32_t d = 0; d < rank; d++)
		text_add(t, "%s%zu", d ? "," : "", coordinates[d]);
	text_add(t, "]");
}

/*
 * Compares the plugin's output with the reference's: floats within the
 * tolerance, everything else bit-exact.  True when they agree; otherwise
 * `why` gets the first mismatch and the count.
 */
static bool compare(const opver_tensor *got, const opver_tensor *want,
		    double rtol, text *why)
{
	size_t n, size, mismatches = 0, first = 0;
	double tolerance = 0;

	if (got->type != want->type || got->bytes != want->bytes) {
		text_add(why, "output: plugin gave %s of %zu bytes, reference %s of %zu bytes\n",
			 opver_type_name(got->type), got->bytes,
			 opver_type_name(want->type), want->bytes);
		return false;
	}
	n = opver_tensor_elements(want);
	size = opver_type_size(want->type);
	if (want->type == OPVER_TYPE_FLOAT32) {
		double largest = 1;

		for (size_t i = 0; i < n; i++)
			largest = fmax(largest, fabs(element(want, i)));
		tolerance = rtol * largest;
	}
	for (size_t i = 0; i < n; i++) {
		bool same;

		if (want->type == OPVER_TYPE_FLOAT32) {
			double a = element(got, i), b = element(want, i);

			same = (isnan(a) && isnan(b)) ||
			       fabs(a - b) <= tolerance;
		} else {
			same = memcmp((const uint8_t *)got->data + i * size,
				      (const uint8_t *)want->data + i * size,
				      size) == 0;
		}
		if (!same && mismatches++ == 0)
			first = i;
	}
	if (mismatches == 0)
		return true;
	text_add(why, "mismatch: output element %zu ", first);
	add_coordinates(why, want, first);
	text_add(why, ": plugin %.9g, reference %.9g; %zu of %zu elements differ",
		 element(got, first), element(want, first), mismatches, n);
	if (want->type == OPVER_TYPE_FLOAT32)
		text_add(why, " (tolerance %.3g)", tolerance);
	else
		text_add(why, " (integers must match exactly)");
	text_add(why, "\n");
	return false;
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
		memcpy(tensor->data, k->c.values[k->graph_inputs[i]], bytes);
	}
	return true;
}

/*
 * Runs the case's model on a side: a full interpreter, inputs, invoke.
 * On success *it holds the interpreter (caller destroys it); otherwise
 * false with the side's log saying why.
 */
static bool run_on(side *s, const running *k, opver_model *model,
		   opver_interpreter **it)
{
	*it = NULL;
	if (opver_interpreter_create(s->runtime, model, it) != OPVER_OK)
		return false;
	if (!set_inputs(*it, k)) {
		text_add(&s->log, "error: the interpreter's inputs do not match the case's\n");
		return false;
	}
	return opver_interpreter_invoke(*it) == OPVER_OK;
}

/* Runs a bound case on both sides and records the comparison. */
static void compare_case(runner *r, running *k, opver_model *vendor_model)
{
	opver_interpreter *vendor_it = NULL, *reference_it = NULL;
	opver_model *reference_model = NULL;
	text details = { 0 }, why = { 0 };
	cf_outcome outcome = CF_FAIL;

	text_clear(&r->reference.log);
	if (opver_model_open_memory(r->reference.runtime, k->bytes, k->size,
				    &reference_model) != OPVER_OK ||
	    !run_on(&r->reference, k, reference_model, &reference_it)) {
		text_add(&details, "the reference plugin cannot run this case:\n%s",
			 text_get(&r->reference.log));
		outcome = CF_SKIP;
		goto record;
	}
	text_clear(&r->vendor.log);
	if (!run_on(&r->vendor, k, vendor_model, &vendor_it)) {
		add_case_details(&details, r, k);
		text_add(&details, "the plugin failed to run a node it binds:\n%s",
			 text_get(&r->vendor.log));
		add_reproduce(&details, r, k->op);
		goto exercised;
	}
	if (compare(opver_interpreter_output(vendor_it, 0),
		    opver_interpreter_output(reference_it, 0), r->options->rtol,
		    &why)) {
		outcome = CF_PASS;
	} else {
		add_case_details(&details, r, k);
		text_add(&details, "%s", text_get(&why));
		if (r->vendor.log.used > 0)
			text_add(&details, "plugin log:\n%s",
				 text_get(&r->vendor.log));
		add_reproduce(&details, r, k->op);
	}
exercised:
	if (k->kernel != NULL) {
		k->kernel->exercised[k->version] = true;
		k->kernel->input_types |=
			OPVER_TYPE_BIT(k->c.tensors[k->c.inputs[0]].type);
	} else {
		mark_delegate(r, k->op, k->version);
	}
record:
	add_result(r, text_get(&k->suite), text_get(&k->name), outcome,
		   seconds_since(&k->start),
		   outcome == CF_PASS ? NULL : text_get(&details));
	if (details.failed || why.failed)
		r->out_of_memory = true;
	text_free(&details);
	text_free(&why);
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

/* A delegate that claimed a node it may not: the core rejected the claim
 * and said so; the declared maximum makes the failure precise. */
static void check_claims(runner *r, running *k)
{
	const char *log = text_get(&r->vendor.log);
	const char *rejected = strstr(log, "claim rejected");
	int32_t declared = delegate_max(r, k->op);
	text suite = { 0 }, details = { 0 };

	if (r->vendor_info.delegate_name == NULL)
		return;
	text_add(&suite, "%s/delegate:%s", opver_op_name(k->op),
		 r->vendor_info.delegate_name);
	if (rejected != NULL) {
		if (k->version > declared)
			text_add(&details, "delegate claimed %s v%" PRId32 " above its declared v%" PRId32 "\n",
				 opver_op_name(k->op), k->version, declared);
		else
			text_add(&details, "delegate made a claim the core rejected on %s v%" PRId32 "\n",
				 opver_op_name(k->op), k->version);
		text_add(&details, "core: %s", log);
		add_case_details(&details, r, k);
		add_reproduce(&details, r, k->op);
		add_result(r, text_get(&suite), text_get(&k->name), CF_FAIL,
			   seconds_since(&k->start), text_get(&details));
	} else if (declared > 0 && k->version == declared + 1) {
		/* Above the declared maximum and left alone: as it must. */
		add_result(r, text_get(&suite), text_get(&k->name), CF_PASS,
			   seconds_since(&k->start), NULL);
	}
	if (suite.failed || details.failed)
		r->out_of_memory = true;
	text_free(&suite);
	text_free(&details);
}

/* The model description of the case at its version. */
static bool build(running *k, char *error, size_t error_size)
{
	const cf_case *c = &k->c;
	const cf_opcode_desc code = { k->op, k->version };
	const cf_operator_desc node = {
		0, c->inputs, c->num_inputs, &c->output, 1,
		c->has_params ? &c->params : NULL,
	};
	const cf_model_desc desc = {
		c->tensors, c->num_tensors, &code, 1, &node, 1,
		k->graph_inputs, k->num_graph_inputs, &c->output, 1,
	};

	return cf_build_model(&desc, &k->bytes, &k->size, error, error_size);
}

/* Reports a case this tool got wrong: its model does not open or bind. */
static void internal_error(runner *r, running *k, const char *what)
{
	text suite = { 0 }, details = { 0 };

	text_add(&suite, "%s/generator", opver_op_name(k->op));
	text_add(&details, "internal error in opver-conformance: %s\n%s", what,
		 text_get(&r->vendor.log));
	add_case_details(&details, r, k);
	add_result(r, text_get(&suite), text_get(&k->name), CF_FAIL, 0,
		   text_get(&details));
	text_free(&suite);
	text_free(&details);
}

static case_result run_case(runner *r, const cf_generator *g, int32_t version,
			    int32_t variant, int32_t repetition)
{
	const cf_run_options *o = r->options;
	opver_interpreter_options inspect;
	opver_interpreter *it = NULL;
	opver_model *model = NULL;
	case_result result = CASE_DONE;
	running k = { .op = g->op, .version = version };
	char error[256];
	cf_rng rng;

	clock_gettime(CLOCK_MONOTONIC, &k.start);
	k.seed = cf_seed_mix(cf_seed_mix(cf_seed_mix(cf_seed_mix(
			o->seed, (uint64_t)g->op), (uint64_t)variant),
			(uint64_t)repetition), 0);
	cf_rng_seed(&rng, k.seed);
	cf_case_init(&k.c, g->op);
	if (!g->generate(variant, &rng, &k.c)) {
		result = CASE_NO_MEMORY;
		goto out;
	}
	for (int32_t i = 0; i < k.c.num_inputs; i++) {
		int32_t t = k.c.inputs[i];

		if (t >= 0 && k.c.tensors[t].data == NULL)
			k.graph_inputs[k.num_graph_inputs++] = t;
	}
	text_add(&k.name, "v%" PRId32 " ", version);
	add_signature(&k.name, &k.c);
	text_add(&k.name, " %s seed=0x%016" PRIx64, k.c.params_text, k.seed);
	if (!build(&k, error, sizeof(error))) {
		text_clear(&r->vendor.log);
		internal_error(r, &k, error);
		goto out;
	}
	text_clear(&r->vendor.log);
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
	opver_interpreter_options_init(&inspect);
	inspect.inspect_only = true;
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
		text_add(&k.suite, "%s/delegate:%s", opver_op_name(g->op),
			 k.node.delegate);
	} else {
		k.kernel = find_kernel(r, g->op, k.node.kernel);
		if (k.kernel == NULL)
			goto out;
		text_add(&k.suite, "%s/%s", opver_op_name(g->op),
			 k.node.kernel);
	}
	if (o->list) {
		fprintf(o->list_out, "%s %s\n", text_get(&k.suite),
			text_get(&k.name));
		goto out;
	}
	compare_case(r, &k, model);
out:
	if (k.name.failed || k.suite.failed)
		result = CASE_NO_MEMORY;
	opver_interpreter_destroy(it);
	opver_model_close(model);
	free(k.bytes);
	text_free(&k.name);
	text_free(&k.suite);
	cf_case_free(&k.c);
	return result;
}

/* ------------------------------------------------------------- coverage */

static void skip(runner *r, const char *suite, const char *name,
		 const char *format, ...) OPVER__PRINTF(4, 5);

static void skip(runner *r, const char *suite, const char *name,
		 const char *format, ...)
{
	text details = { 0 };
	va_list args;

	va_start(args, format);
	text_vadd(&details, format, args);
	va_end(args);
	add_result(r, suite, name, CF_SKIP, 0, text_get(&details));
	if (details.failed)
		r->out_of_memory = true;
	text_free(&details);
}

/*
 * One skip per version of [min, max] nothing exercised; versions from
 * `first_invalid` on (0: none) are not TFLite versions of the op and get
 * one skip together.
 */
static void skip_unexercised(runner *r, const char *suite, int32_t op,
			     int32_t min, int32_t max, const bool *exercised,
			     int32_t first_invalid, const char *why)
{
	char name[64];

	for (int32_t v = min; v <= max; v++) {
		if (v > VERSION_LIMIT || (first_invalid > 0 && v >= first_invalid)) {
			snprintf(name, sizeof(name), "v%" PRId32 "-v%" PRId32,
				 v, max);
			skip(r, suite, name,
			     "versions %" PRId32 " to %" PRId32 " are not TFLite versions of %s: nothing to check",
			     v, max, opver_op_name(op));
			return;
		}
		if (exercised[v])
			continue;
		snprintf(name, sizeof(name), "v%" PRId32, v);
		skip(r, suite, name, "nothing exercised %s at v%" PRId32 ": %s",
		     suite, v, why);
	}
}

/* Skips for what the cases of `op` left unexercised. */
static void report_coverage(runner *r, int32_t op, bool has_cases,
			    int32_t first_invalid)
{
	const char *why = has_cases ?
		"no generated case at this version has tensor types it accepts" :
		"opver-conformance has no cases for this op";
	text suite = { 0 };

	for (size_t i = 0; i < r->vendor_info.num_kernels; i++) {
		kernel_cover *k = &r->kernels[i];
		uint32_t missing;

		if (k->info.op != op)
			continue;
		text_clear(&suite);
		text_add(&suite, "%s/%s", opver_op_name(op), k->info.name);
		skip_unexercised(r, text_get(&suite), op, k->info.min_version,
				 k->info.max_version, k->exercised,
				 first_invalid, why);
		if (!has_cases)
			continue;
		/* Types the kernel accepts first that no case gave it. */
		missing = k->info.input_types[0] & ~OPVER_TYPE_BIT_ABSENT &
			  ~k->input_types;
		for (int32_t type = 0; type < OPVER_TYPE_COUNT; type++) {
			char name[64];

			if (!(missing & OPVER_TYPE_BIT(type)))
				continue;
			snprintf(name, sizeof(name), "input type %s",
				 opver_type_name(type));
			skip(r, text_get(&suite), name,
			     "nothing exercised %s with a %s first input: no generated case of that type bound it",
			     text_get(&suite), opver_type_name(type));
		}
	}
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		delegate_cover *c = &r->delegate_ops[d];

		if (c->info.op != op)
			continue;
		text_clear(&suite);
		text_add(&suite, "%s/delegate:%s", opver_op_name(op),
			 r->vendor_info.delegate_name);
		skip_unexercised(r, text_get(&suite), op, 1,
				 c->info.max_version, c->exercised,
				 first_invalid,
				 has_cases ? "the delegate claimed no generated case at this version" :
					     why);
	}
	if (suite.failed)
		r->out_of_memory = true;
	text_free(&suite);
}

/* Every case of one op at every version the vendor declares for it. */
static bool run_op(runner *r, int32_t op)
{
	const cf_generator *g = cf_generator_for(op);
	int32_t lo = INT32_MAX, hi = 0, declared = delegate_max(r, op);
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
	if (declared > 0) {
		/* And one above the declared maximum, which it must refuse. */
		lo = 1;
		if (declared >= hi)
			hi = declared + 1;
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
	if (op == OPVER_OP_CUSTOM)
		return false;
	for (size_t k = 0; k < r->vendor_info.num_kernels; k++)
		if (r->kernels[k].info.op == op)
			return true;
	return delegate_max(r, op) > 0;
}

/* Custom-op kernels: nothing can be generated for them. */
static void skip_custom(runner *r)
{
	for (size_t k = 0; k < r->vendor_info.num_kernels; k++) {
		const opver_kernel_info *info = &r->kernels[k].info;
		text suite = { 0 };

		if (info->op != OPVER_OP_CUSTOM || r->options->op >= 0)
			continue;
		text_add(&suite, "CUSTOM/%s", info->name);
		skip(r, text_get(&suite), info->custom_name ? info->custom_name : "?",
		     "custom op %s: opver-conformance has no cases for custom ops",
		     info->custom_name ? info->custom_name : "?");
		text_free(&suite);
	}
}

int cf_run(const cf_run_options *options, cf_report *report)
{
	runner r = { .options = options, .report = report };
	int status;

	status = load(&r);
	if (status != CF_EXIT_PASS)
		goto out;
	status = CF_EXIT_FAIL;
	if (!survey(&r))
		goto nomem;
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
	opver_runtime_destroy(r.vendor.runtime);
	opver_runtime_destroy(r.reference.runtime);
	text_free(&r.vendor.log);
	text_free(&r.reference.log);
	free(r.kernels);
	free(r.delegate_ops);
	return status;
}
