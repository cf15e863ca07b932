/*
 * opver_run_compare.c - --compare CONFIG_B: runs the model under the
 * session's config and under CONFIG_B on the same inputs, both with
 * preserve_intermediates, and compares every node's outputs: which plugin
 * ran the node on each side, the largest absolute difference in output
 * units and, for quantized outputs, in quantized steps.  It names the first
 * node whose outputs differ by more than --tolerance: TFLite's "culprit
 * finder" for a delegate whose numbers are off.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opver_run.h"
#include "raw_io.h"

/* The run under CONFIG_B.  Owned; released by compare_end(). */
struct other_side {
	opver_runtime *runtime;
	opver_model *model;
	opver_interpreter *interpreter;
};

/* How far apart one tensor is on the two sides. */
struct difference {
	bool compared;          /* both sides hold the computed value */
	/* The sides gave it different types or shapes (a kernel that shapes
	 * its outputs in prepare): divergent, with no numbers. */
	bool shapes_differ;
	double max_abs;         /* in output units (dequantized) */
	/* Largest difference of the stored integers of a quantized tensor;
	 * -1 for other tensors. */
	int64_t max_steps;
};

/* An element's stored value as a double; false for types raw_io cannot
 * read. */
static bool element(const opver_tensor *t, size_t i, double *value)
{
	raw_value v;

	if (!raw_element(t->type, t->data, i, &v))
		return false;
	*value = v.kind == RAW_VALUE_FLOAT ? v.as.f :
		 v.kind == RAW_VALUE_INT   ? (double)v.as.i :
					     (double)v.as.u;
	return true;
}

/* The scale of element i of a quantized tensor (its channel's, when per
 * channel); 0 for a tensor without quantization. */
static double element_scale(const opver_tensor *t, size_t i)
{
	const opver_quantization *q = &t->quant;
	size_t inner = 1;

	if (q->count <= 0 || q->scale == NULL || t->type == OPVER_TYPE_FLOAT32)
		return 0.0;
	if (q->count == 1 || q->axis < 0 || q->axis >= t->rank)
		return q->scale[0];
	for (int32_t d = q->axis + 1; d < t->rank; d++)
		inner *= (size_t)t->dims[d];
	return q->scale[(i / inner) % (size_t)q->count];
}

static bool same_shape(const opver_tensor *a, const opver_tensor *b)
{
	return a->type == b->type && a->rank == b->rank &&
	       a->bytes == b->bytes &&
	       (a->rank == 0 ||
		memcmp(a->dims, b->dims, (size_t)a->rank * sizeof(int32_t)) == 0);
}

static struct difference compare_tensor(const opver_tensor *a,
					const opver_tensor *b)
{
	struct difference d = { .compared = true, .max_steps = -1 };
	size_t n = opver_tensor_elements(a);

	if (!same_shape(a, b)) {
		d.shapes_differ = true;
		d.max_abs = INFINITY;
		return d;
	}

	for (size_t i = 0; i < n; i++) {
		double x, y, scale = element_scale(a, i);

		if (!element(a, i, &x) || !element(b, i, &y)) {
			d.compared = false;
			return d;
		}
		if (scale > 0.0) {
			int64_t steps = (int64_t)fabs(x - y);

			if (steps > d.max_steps)
				d.max_steps = steps;
			d.max_abs = fmax(d.max_abs, (double)steps * scale);
		} else if (isnan(x) != isnan(y)) {
			d.max_abs = INFINITY;
		} else if (!isnan(x)) {
			d.max_abs = fmax(d.max_abs, fabs(x - y));
		}
	}
	return d;
}

/* "reference/conv_2d_int8" or "xnnpack (delegate xnnpack)". */
static void describe_binding(const opver_node_info *info, char *text,
			     size_t size)
{
	if (info->delegate != NULL)
		snprintf(text, size, "%s (delegate %s)", info->plugin,
			 info->delegate);
	else
		snprintf(text, size, "%s/%s", info->plugin, info->kernel);
}

/* Creates the CONFIG_B side, its inputs copied from the session's. */
static int compare_begin(struct session *s, struct other_side *b)
{
	opver_interpreter_options options;
	opver_status status;
	int result;

	result = run_create_runtime(s, s->cmd.compare, &b->runtime);
	if (result != EXIT_SUCCESS)
		return result;
	status = opver_model_open(b->runtime, s->cmd.model, &b->model);
	if (status != OPVER_OK)
		return run_fail(s, EXIT_BAD_MODEL, s->cmd.model, status);
	opver_interpreter_options_init(&options);
	options.preserve_intermediates = 1;
	options.max_arena_bytes = s->cmd.max_arena;
	options.max_tensor_bytes = s->cmd.max_tensor;
	options.max_loop_iterations = s->cmd.max_loop_iterations;
	/* Both sides run the signature's subgraph; the key was found in
	 * the same model. */
	if (s->cmd.signature != NULL)
		(void)run_signature_subgraph(s, &options.subgraph);
	status = opver_interpreter_create_with_options(b->runtime, b->model,
						       &options,
						       &b->interpreter);
	if (status != OPVER_OK)
		return run_fail(s, run_creation_exit_status(status),
				s->cmd.compare, status);
	run_report_pending(s);
	for (size_t i = 0; i < opver_interpreter_input_count(s->interpreter);
	     i++) {
		const opver_tensor *from = opver_interpreter_input(
			s->interpreter, i);
		opver_tensor *to = opver_interpreter_input(b->interpreter, i);

		if (from->bytes > 0)
			memcpy(to->data, from->data, from->bytes);
	}
	return EXIT_SUCCESS;
}

static void compare_end(struct other_side *b)
{
	opver_interpreter_destroy(b->interpreter);
	opver_model_close(b->model);
	opver_runtime_destroy(b->runtime);
}

/* One node's line or JSON object; returns its largest difference over
 * the outputs both sides computed (-1 when none was). */
static double report_node(struct session *s, opver_interpreter *b,
			  const struct tensor_origin *origin_a,
			  const struct tensor_origin *origin_b, size_t n)
{
	opver_node_info info_a, info_b;
	const int32_t *inputs, *outputs;
	int32_t num_inputs, num_outputs;
	char side_a[160], side_b[160], op[96];
	double worst = -1.0;
	int64_t worst_steps = -1;
	/* Whether an output was left uncompared for lack of a value, or had
	 * other shapes on the two sides. */
	bool inside_partition = false, shapes_differ = false;
	json_writer *w = &s->json;

	(void)opver_interpreter_node_info(s->interpreter, n, &info_a);
	(void)opver_interpreter_node_info(b, n, &info_b);
	(void)opver_interpreter_node_tensors(s->interpreter, n, &inputs,
					     &num_inputs, &outputs,
					     &num_outputs);
	describe_binding(&info_a, side_a, sizeof(side_a));
	describe_binding(&info_b, side_b, sizeof(side_b));
	run_format_op(info_a.op, info_a.custom_name, op, sizeof(op));
	if (s->cmd.json) {
		json_begin_object(w);
		json_key(w, "index");
		json_uint(w, n);
		json_key(w, "op");
		json_string(w, op);
		json_key(w, "a");
		json_string(w, side_a);
		json_key(w, "b");
		json_string(w, side_b);
		json_key(w, "outputs");
		json_begin_array(w);
	}
	for (int32_t o = 0; o < num_outputs; o++) {
		size_t t = (size_t)outputs[o];
		struct difference d = { .max_steps = -1 };

		if (origin_a[t].computed && origin_b[t].computed)
			d = compare_tensor(opver_interpreter_tensor(
						   s->interpreter, t),
					   opver_interpreter_tensor(b, t));
		else
			inside_partition = true;
		if (d.compared && d.max_abs > worst)
			worst = d.max_abs;
		shapes_differ |= d.shapes_differ;
		if (d.max_steps > worst_steps)
			worst_steps = d.max_steps;
		if (!s->cmd.json)
			continue;
		json_begin_object(w);
		json_key(w, "tensor");
		json_uint(w, t);
		json_key(w, "compared");
		json_bool(w, d.compared);
		json_key(w, "shapes_differ");
		json_bool(w, d.shapes_differ);
		json_key(w, "max_abs_diff");
		if (d.compared && isfinite(d.max_abs))
			json_double(w, d.max_abs);
		else
			json_null(w);
		json_key(w, "max_step_diff");
		if (d.compared && d.max_steps >= 0)
			json_int(w, d.max_steps);
		else
			json_null(w);
		json_end_object(w);
	}
	if (s->cmd.json) {
		json_end_array(w);
		json_end_object(w);
	} else if (shapes_differ) {
		printf("%4zu  %-20s %-34s %-34s %s\n", n, op, side_a, side_b,
		       "(outputs of other shapes on the two sides)");
	} else if (worst < 0.0) {
		printf("%4zu  %-20s %-34s %-34s %s\n", n, op, side_a, side_b,
		       inside_partition ? "(inside a delegate partition)" :
					  "(outputs of a type not compared)");
	} else {
		printf("%4zu  %-20s %-34s %-34s %-12.6g", n, op, side_a, side_b,
		       worst);
		if (worst_steps >= 0)
			printf(" %lld", (long long)worst_steps);
		putchar('\n');
	}
	return worst;
}

/* The first node of the partition node n runs in, on one side; n itself
 * when it runs on a kernel. */
static size_t partition_start(opver_interpreter *it, size_t n)
{
	opver_node_info info, other;

	(void)opver_interpreter_node_info(it, n, &info);
	for (size_t m = 0; m < n && info.partition >= 0; m++) {
		(void)opver_interpreter_node_info(it, m, &other);
		if (other.partition == info.partition)
			return m;
	}
	return n;
}

/* A delegate shows only what its partition hands on, so a difference seen
 * at node n may have arisen at any node of n's partition before it: the
 * first node of the partition on either side, or n. */
static size_t earliest_culprit(struct session *s, opver_interpreter *b,
			       size_t n)
{
	size_t start_a = partition_start(s->interpreter, n);
	size_t start_b = partition_start(b, n);

	return start_a < start_b ? start_a : start_b;
}

int run_compare(struct session *s)
{
	struct other_side b = { 0 };
	struct tensor_origin *origin_a = NULL, *origin_b = NULL;
	size_t nodes = opver_interpreter_node_count(s->interpreter);
	long first_divergent = -1;
	double first_difference = 0.0;
	opver_status status;
	int result;

	result = compare_begin(s, &b);
	if (result == EXIT_SUCCESS)
		result = run_invoke(s);
	if (result != EXIT_SUCCESS)
		goto out;
	status = opver_interpreter_invoke(b.interpreter);
	if (status != OPVER_OK) {
		result = run_fail(s, EXIT_RUN_FAILED, s->cmd.compare, status);
		goto out;
	}
	origin_a = run_tensor_origins(s->interpreter);
	origin_b = run_tensor_origins(b.interpreter);
	if (origin_a == NULL || origin_b == NULL) {
		fputs("opver-run: out of memory\n", stderr);
		result = EXIT_RUN_FAILED;
		goto out;
	}
	if (s->cmd.json) {
		json_key(&s->json, "compare");
		json_begin_object(&s->json);
		json_key(&s->json, "config_b");
		json_string(&s->json, s->cmd.compare);
		json_key(&s->json, "tolerance");
		json_double(&s->json, s->cmd.tolerance);
		json_key(&s->json, "nodes");
		json_begin_array(&s->json);
	} else {
		printf("node  %-20s %-34s %-34s %-12s %s\n", "op", "a: this config",
		       "b: --compare config", "max |a-b|", "steps");
	}
	for (size_t n = 0; n < nodes; n++) {
		double worst = report_node(s, b.interpreter, origin_a,
					   origin_b, n);

		if (first_divergent < 0 && worst > s->cmd.tolerance) {
			first_divergent = (long)n;
			first_difference = worst;
		}
	}
	if (s->cmd.json) {
		json_end_array(&s->json);
		json_key(&s->json, "first_divergent_node");
		if (first_divergent >= 0)
			json_int(&s->json, first_divergent);
		else
			json_null(&s->json);
		/* Where the difference may have arisen: the node itself, or
		 * the first node of a partition it ends. */
		json_key(&s->json, "earliest_culprit_node");
		if (first_divergent >= 0)
			json_uint(&s->json,
				  earliest_culprit(s, b.interpreter,
						   (size_t)first_divergent));
		else
			json_null(&s->json);
		json_end_object(&s->json);
	} else if (first_divergent >= 0) {
		opver_node_info info;
		size_t culprit;
		char op[96];

		(void)opver_interpreter_node_info(s->interpreter,
						  (size_t)first_divergent,
						  &info);
		run_format_op(info.op, info.custom_name, op, sizeof(op));
		if (isinf(first_difference))
			printf("first divergent node: %ld (%s): its outputs differ in shape, or are NaN on one side only\n",
			       first_divergent, op);
		else
			printf("first divergent node: %ld (%s): outputs differ by up to %g, more than the tolerance %g\n",
			       first_divergent, op, first_difference,
			       s->cmd.tolerance);
		culprit = earliest_culprit(s, b.interpreter,
					   (size_t)first_divergent);
		if (culprit < (size_t)first_divergent)
			printf("node %ld ends a delegate partition: the difference may arise at any of its nodes from node %zu on, whose outputs the delegate does not show\n",
			       first_divergent, culprit);
	} else {
		printf("no node's outputs differ by more than %g\n",
		       s->cmd.tolerance);
	}
	result = first_divergent >= 0 ? EXIT_DIVERGED : EXIT_SUCCESS;
out:
	free(origin_a);
	free(origin_b);
	compare_end(&b);
	return result;
}
