/*
 * test_oracle.c - the reference plugin against TensorFlow Lite itself.
 *
 * Every conformance case generator gives ORACLE_REPETITIONS cases per
 * variant at a fixed seed (tests/oracle/oracle_case.h); TFLite's outputs
 * for them were recorded by tests/oracle/record into
 * tests/oracle/goldens/OP/CASE.golden.  Each case is made again here, its
 * fingerprint checked against the golden's (a generator that changed
 * makes its goldens stale: record again), run through the reference
 * plugin and compared: integers bit-exact, floats within FLOAT_RTOL of the
 * output's largest magnitude, except where `allowances` names an op whose
 * TFLite kernel is known to round differently from TFLite's reference
 * kernels, which the reference plugin follows.  Cases TFLite refused (a
 * version newer than the recorded TFLite, say) are listed, not compared.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle_case.h"

#define GOLDENS TEST_SOURCE_DIR "/oracle/goldens"

/* Float outputs agree within this times max(1, max |TFLite's|). */
#define FLOAT_RTOL 1e-5

/* An allowance that holds whatever the type of input 0. */
#define ANY_INPUT (-1)

/*
 * Integer outputs that may differ from TFLite's by up to `steps`: the op,
 * input 0's type (or ANY_INPUT) and the output type, and why (the
 * evidence is in tests/oracle/README).
 */
static const struct allowance {
	int32_t op;
	int32_t input;
	int32_t type;
	int32_t steps;
	/* 1 where reference-tflite, which follows TFLite's builtin kernels
	 * there, must match exactly. */
	uint8_t builtin_exact;
	const char *why;
} allowances[] = {
	{ OPVER_OP_CONV_2D, ANY_INPUT, OPVER_TYPE_INT8, 1, 1,
	  "one element of 112 in one case, which a single-rounding build of the reference matches" },
	{ OPVER_OP_FULLY_CONNECTED, ANY_INPUT, OPVER_TYPE_INT8, 1, 1,
	  "one element of 4 in one case, which a single-rounding build of the reference matches" },
	{ OPVER_OP_MEAN, ANY_INPUT, OPVER_TYPE_INT8, 1, 1,
	  "TFLite's builtin int8 4-D MEAN over axes [1, 2] takes its legacy uint8 formula where its reference kernel (and TFLite Micro) rescales, then divides" },
	{ OPVER_OP_BATCH_MATMUL, ANY_INPUT, OPVER_TYPE_INT8, 1, 1,
	  "one element in three cases, which a single-rounding build of the reference matches" },
	/* 5 of 6 explained: see tests/oracle/README. */
	{ OPVER_OP_FULLY_CONNECTED, ANY_INPUT, OPVER_TYPE_INT16, 1, 0,
	  "one or two elements in 6 of 96 16x8 cases, all without a bias, where TFLite's builtin kernel leaves its 16x8 reference path" },
	/* Only 8-bit inputs: int16 SOFTMAX matches exactly. */
	{ OPVER_OP_SOFTMAX, OPVER_TYPE_INT8, OPVER_TYPE_INT16, 1, 0,
	  "TFLite's builtin 8-bit SOFTMAX computes in float from an exp table; elements within 0.03 of a half step round the other way" },
	{ OPVER_OP_SOFTMAX, OPVER_TYPE_UINT8, OPVER_TYPE_INT16, 1, 0,
	  "TFLite's builtin 8-bit SOFTMAX computes in float from an exp table; elements within 0.03 of a half step round the other way" },
};

/*
 * LOG_SOFTMAX int8 and uint8: TFLite's reference kernels (and TFLite
 * Micro), which the reference follows, give the type's lowest value to
 * every difference from the row max past the diff_min cut-off; the tool's
 * optimized kernel computes in float without one.  Past the cut-off a
 * log-probability is at least 15.5 below 0, 248 steps of 1/16 below the
 * zero point (the type's highest value), so TFLite's output there is at
 * most 7 steps above the lowest value.  Only elements the reference gives
 * the lowest value may differ, by that much (evidence in
 * tests/oracle/README).
 */
#define LOG_SOFTMAX_CUTOFF_STEPS 7

static bool past_log_softmax_cutoff(int32_t op, int32_t type, int64_t got)
{
	return op == OPVER_OP_LOG_SOFTMAX &&
	       ((type == OPVER_TYPE_INT8 && got == INT8_MIN) ||
		(type == OPVER_TYPE_UINT8 && got == 0));
}

/* Steps allowed for the reference, or with `builtin` for reference-tflite. */
static int32_t allowed_steps(int32_t op, int32_t input, int32_t type,
			     bool builtin)
{
	for (size_t i = 0; i < sizeof(allowances) / sizeof(allowances[0]); i++)
		if (allowances[i].op == op && allowances[i].type == type &&
		    (allowances[i].input == ANY_INPUT ||
		     allowances[i].input == input))
			return builtin && allowances[i].builtin_exact
				       ? 0
				       : allowances[i].steps;
	return 0;
}

/*
 * Cases the recorded TFLite computes wrongly, so that its output is no
 * oracle: the reason, or NULL for a case TFLite computes right.
 */
static size_t elements(const cf_tensor_desc *t)
{
	size_t n = 1;

	for (int32_t d = 0; d < t->rank; d++)
		n *= (size_t)t->dims[d];
	return n;
}

/* x's batch dimensions above 1. */
static int32_t wide_batch_dims(const cf_tensor_desc *x)
{
	int32_t wide = 0;

	for (int32_t d = 0; d + 2 < x->rank; d++)
		wide += x->dims[d] > 1;
	return wide;
}

static const char *tflite_defect(const oracle_case *k)
{
	const cf_tensor_desc *input, *filter;

	if (k->c.op == OPVER_OP_BATCH_MATMUL) {
		input = &k->c.tensors[k->c.inputs[0]];
		filter = &k->c.tensors[k->c.inputs[1]];
		if (input->type == OPVER_TYPE_FLOAT32 &&
		    filter->type == OPVER_TYPE_INT8 &&
		    wide_batch_dims(input) > 1)
			return "TFLite's hybrid BATCH_MATMUL reads the row scales of x's matrix (b0, b1) at M x (b0 + b1), another matrix's, when two batch dimensions are above 1";
		return NULL;
	}

	if (k->c.op == OPVER_OP_REDUCE_PROD) {
		input = &k->c.tensors[k->c.inputs[0]];
		if (input->type != OPVER_TYPE_FLOAT32 &&
		    input->type != OPVER_TYPE_INT32 &&
		    elements(input) == elements(&k->c.tensors[k->c.output]))
			return "TFLite's quantized REDUCE_PROD of one term per output gives saturated or zero outputs, not the term rescaled";
		return NULL;
	}
	if (k->c.op == OPVER_OP_REVERSE_V2 &&
	    elements(&k->c.tensors[k->c.inputs[1]]) > 1)
		return "the TFLite of the tool reverses along the first of several axes only (later TFLite reverses along each; tested by hand)";
	if ((k->c.op == OPVER_OP_PAD || k->c.op == OPVER_OP_PADV2) &&
	    k->c.tensors[k->c.inputs[1]].type == OPVER_TYPE_INT64)
		return "the TFLite of the tool pads by INT64 paddings read as INT32 values";
	if (k->c.op != OPVER_OP_CONV_2D)
		return NULL;
	input = &k->c.tensors[k->c.inputs[0]];
	filter = &k->c.tensors[k->c.inputs[1]];
	if (input->type == OPVER_TYPE_FLOAT32 &&
	    filter->type == OPVER_TYPE_INT8 &&
	    input->dims[3] != filter->dims[3])
		return "TFLite's hybrid CONV_2D leaves every group of a grouped convolution but the first at its bias";
	return NULL;
}

/* Element i of an integer tensor of `type`.  Copied out: a golden packs
 * its outputs one after another, so an output after one of bytes (TOPK_V2's
 * indices after uint8 values) need not be aligned for its type. */
static int64_t integer_at(const void *data, int32_t type, size_t i)
{
	const unsigned char *bytes = data;
	int16_t i16;
	int32_t i32;
	int64_t i64;

	switch (type) {
	case OPVER_TYPE_INT8:
		return (int8_t)bytes[i];
	case OPVER_TYPE_UINT8:
	case OPVER_TYPE_BOOL:
		return bytes[i];
	case OPVER_TYPE_INT16:
		memcpy(&i16, bytes + i * sizeof(i16), sizeof(i16));
		return i16;
	case OPVER_TYPE_INT32:
		memcpy(&i32, bytes + i * sizeof(i32), sizeof(i32));
		return i32;
	default:
		memcpy(&i64, bytes + i * sizeof(i64), sizeof(i64));
		return i64;
	}
}

static bool is_compared_as_integer(int32_t type)
{
	return type == OPVER_TYPE_INT8 || type == OPVER_TYPE_UINT8 ||
	       type == OPVER_TYPE_BOOL || type == OPVER_TYPE_INT16 ||
	       type == OPVER_TYPE_INT32 || type == OPVER_TYPE_INT64;
}

/* The type of the node's input 0, ANY_INPUT when it has none. */
static int32_t input_type(const cf_case *c)
{
	return c->num_inputs > 0 && c->inputs[0] >= 0 ?
		       (int32_t)c->tensors[c->inputs[0]].type :
		       ANY_INPUT;
}

/*
 * Compares output `got` of a node whose input 0 has type `input` with
 * TFLite's `want` (bytes long), on reference-tflite when `builtin`.  False
 * after logging the first differing element, how many differ and by how
 * much.
 */
static bool outputs_agree(const char *what, int32_t op, int32_t input,
			  const opver_tensor *got, const uint8_t *want,
			  size_t bytes, bool builtin)
{
	const size_t count = got->bytes / opver_type_size(got->type);
	size_t differ = 0, first = 0;
	double worst = 0, scale = 1, limit;

	if (got->bytes != bytes) {
		cr_log_error("%s: output has %zu bytes, TFLite's %zu", what,
			     got->bytes, bytes);
		return false;
	}
	if (got->type == OPVER_TYPE_FLOAT32) {
		const float *a = got->data, *b = (const float *)want;

		for (size_t i = 0; i < count; i++)
			scale = fmax(scale, fabs((double)b[i]));
		limit = FLOAT_RTOL * scale;
		for (size_t i = 0; i < count; i++) {
			double d = fabs((double)a[i] - (double)b[i]);

			if (isnan(a[i]) && isnan(b[i]))
				continue;
			if (!(d <= limit) && differ++ == 0)
				first = i;
			if (!(d <= worst))
				worst = d;
		}
		if (differ > 0)
			cr_log_error("%s: %zu of %zu floats differ by more than %g (largest %g); first at %zu: %.9g, TFLite %.9g",
				     what, differ, count, limit, worst, first,
				     (double)a[first], (double)b[first]);
		return differ == 0;
	}
	if (!is_compared_as_integer(got->type))
		return bytes == 0 || memcmp(got->data, want, bytes) == 0;
	limit = allowed_steps(op, input, got->type, builtin);
	for (size_t i = 0; i < count; i++) {
		double d = fabs((double)(integer_at(got->data, got->type, i) -
					 integer_at(want, got->type, i)));

		if (past_log_softmax_cutoff(
			    op, got->type,
			    integer_at(got->data, got->type, i)) &&
		    d <= LOG_SOFTMAX_CUTOFF_STEPS)
			continue;
		if (d > limit && differ++ == 0)
			first = i;
		worst = fmax(worst, d);
	}
	if (differ > 0)
		cr_log_error("%s: %zu of %zu elements differ by more than %g step(s) (largest %g); first at %zu: %lld, TFLite %lld",
			     what, differ, count, limit, worst, first,
			     (long long)integer_at(got->data, got->type, first),
			     (long long)integer_at(want, got->type, first));
	return differ == 0;
}

typedef enum case_outcome {
	CASE_AGREES,
	CASE_DIFFERS,
	/* The plugin declares no kernel for the node's version and types. */
	CASE_UNBOUND,
} case_outcome;

/* Runs case k on the plugin (reference-tflite when `builtin`) and
 * compares with golden g. */
static case_outcome run_case(opver_runtime *runtime, const oracle_case *k,
			     const oracle_golden *g, const char *what,
			     bool builtin)
{
	int32_t graph_inputs[CF_MAX_NODE_INPUTS];
	int32_t count = cf_case_graph_inputs(&k->c, graph_inputs);
	opver_interpreter *it = NULL;
	opver_model *model = NULL;
	case_outcome outcome = CASE_DIFFERS;
	opver_status status;

	status = opver_model_open_memory(runtime, k->model, k->model_size,
					 &model);
	if (status == OPVER_OK)
		status = opver_interpreter_create(runtime, model, &it);
	if (status == OPVER_ERROR_UNRESOLVED) {
		outcome = CASE_UNBOUND;
		goto out;
	}
	if (status != OPVER_OK) {
		cr_log_error("%s: the plugin does not run the model: %s", what,
			     opver_status_name(status));
		goto out;
	}
	for (int32_t i = 0; i < count; i++) {
		opver_tensor *input = opver_interpreter_input(it, (size_t)i);
		size_t bytes =
			oracle_tensor_bytes(&k->c.tensors[graph_inputs[i]]);

		if (input == NULL || input->bytes != bytes) {
			cr_log_error("%s: input %d does not match the case's",
				     what, (int)i);
			goto out;
		}
		/* An empty tensor has no data to copy (nor a pointer). */
		if (bytes > 0)
			memcpy(input->data, k->c.values[graph_inputs[i]],
			       bytes);
	}
	if (opver_interpreter_invoke(it) != OPVER_OK) {
		cr_log_error("%s: invoke failed", what);
		goto out;
	}
	if (opver_interpreter_output_count(it) != (size_t)g->num_outputs) {
		cr_log_error("%s: %zu outputs, TFLite's %d", what,
			     opver_interpreter_output_count(it),
			     (int)g->num_outputs);
		goto out;
	}
	outcome = CASE_AGREES;
	for (int32_t i = 0; i < g->num_outputs; i++)
		if (!outputs_agree(what, k->c.op, input_type(&k->c),
				   opver_interpreter_output(it, (size_t)i),
				   oracle_golden_output(g, i), g->bytes[i],
				   builtin))
			outcome = CASE_DIFFERS;
out:
	opver_interpreter_destroy(it);
	opver_model_close(model);
	return outcome;
}

/* Every case on `plugin`, reference-tflite when `builtin`. */
static void check_plugin(const char *plugin, bool builtin)
{
	opver_runtime *runtime = oracle_runtime(plugin);
	int compared = 0, refused = 0, unbound = 0, wrong = 0, failed = 0;
	const cf_generator *gen;

	cr_assert_not_null(runtime);
	for (size_t i = 0; (gen = cf_generator_at(i)) != NULL; i++) {
		for (int32_t v = 0; v < gen->num_variants; v++) {
			for (int32_t r = 0; r < ORACLE_REPETITIONS; r++) {
				char what[400], path[4096], error[256];
				oracle_golden g = { 0 };
				oracle_case k;

				if (!oracle_case_make(runtime, gen, v, r, &k,
						      error, sizeof(error))) {
					cr_log_error("%s case %d-%d: %s",
						     cf_generator_name(gen),
						     (int)v, (int)r, error);
					failed++;
					oracle_case_free(&k);
					continue;
				}
				snprintf(what, sizeof(what),
					 "%s v%d case %s (%s)",
					 cf_generator_name(gen),
					 (int)k.version, k.name,
					 k.c.params_text);
				snprintf(path, sizeof(path), "%s/%s/%s.golden",
					 GOLDENS, cf_generator_name(gen),
					 k.name);
				if (!oracle_golden_read(path, &g, error,
							sizeof(error))) {
					cr_log_error("%s: %s: run tests/oracle/record --op %s",
						     what, error,
						     cf_generator_name(gen));
					failed++;
				} else if (g.fingerprint != k.fingerprint) {
					cr_log_error("%s: the golden was recorded for another model or inputs (the generator changed): run tests/oracle/record --op %s",
						     what,
						     cf_generator_name(gen));
					failed++;
				} else if (g.refused) {
					cr_log_info("%s: not compared, TFLite refused it: %s",
						    what, g.refusal);
					refused++;
				} else if (tflite_defect(&k) != NULL) {
					cr_log_info("%s: not compared: %s", what,
						    tflite_defect(&k));
					wrong++;
				} else {
					switch (run_case(runtime, &k, &g, what,
							 builtin)) {
					case CASE_AGREES:
						compared++;
						break;
					case CASE_DIFFERS:
						failed++;
						break;
					case CASE_UNBOUND:
						cr_log_info("%s: not compared, the plugin has no kernel for it",
							    what);
						unbound++;
						break;
					}
				}
				oracle_golden_free(&g);
				oracle_case_free(&k);
			}
		}
	}
	opver_runtime_destroy(runtime);
	cr_log_info("%d cases agree with TFLite, %d refused by TFLite, %d computed wrongly by TFLite, %d without a kernel, %d failed",
		    compared, refused, wrong, unbound, failed);
	cr_expect(compared > 0, "no case was compared");
	cr_assert_eq(failed, 0, "%d oracle case(s) failed; see above", failed);
}

/*
 * ORACLE_PLUGIN names another plugin to check against TFLite's goldens
 * instead of the reference (a vendor's, say): the cases are the same, the
 * versions still the core's.
 */
Test(oracle, reference_plugin_matches_tflite_on_every_case)
{
	const char *plugin = getenv("ORACLE_PLUGIN");

	check_plugin(plugin != NULL ? plugin : REFERENCE_PLUGIN, false);
}

/* The variant following TFLite's builtin kernels needs none of the
 * allowances for the ops whose rounding it follows. */
Test(oracle, reference_tflite_matches_tflite_where_it_follows_the_builtins)
{
	check_plugin(REFERENCE_TFLITE_PLUGIN, true);
}
