/*
 * opver_run_op_summary.c - --benchmark's summary by op type, as TFLite's
 * benchmark_model prints it: per op type the nodes, the average ms per
 * run, its share of the total and the cumulative share, slowest first.
 * A delegate partition counts once, as "DELEGATE(name)".  One function
 * fills the rows; a text and a JSON renderer draw them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opver_run.h"

struct op_row {
	char op[96];
	size_t nodes;
	double ms;              /* average per run */
};

/* Whether an earlier node ran in the same partition. */
static bool partition_seen(const opver_node_info *nodes, size_t index)
{
	for (size_t i = 0; i < index; i++)
		if (nodes[i].partition == nodes[index].partition)
			return true;
	return false;
}

/* The row for `op`, appended when new. */
static struct op_row *row_for(struct op_row *rows, size_t *count,
			      const char *op)
{
	for (size_t i = 0; i < *count; i++)
		if (strcmp(rows[i].op, op) == 0)
			return &rows[i];
	snprintf(rows[*count].op, sizeof(rows[*count].op), "%s", op);
	return &rows[(*count)++];
}

static int slower_first(const void *a, const void *b)
{
	double x = ((const struct op_row *)a)->ms;
	double y = ((const struct op_row *)b)->ms;

	return (x < y) - (x > y);
}

/* Fills rows (room for `nodes`) from the counters before and after the
 * timed runs; returns how many, sorted slowest first. */
static size_t fill_rows(const opver_node_info *before,
			const opver_node_info *after, size_t nodes,
			size_t runs, struct op_row *rows)
{
	size_t count = 0;
	char op[96];

	for (size_t i = 0; i < nodes; i++) {
		const opver_node_info *node = &after[i];
		struct op_row *row;

		if (node->partition >= 0) {
			if (partition_seen(after, i))
				continue;
			snprintf(op, sizeof(op), "DELEGATE(%s)",
				 node->delegate);
		} else {
			run_format_op(node->op, node->custom_name, op,
				      sizeof(op));
		}
		row = row_for(rows, &count, op);
		row->nodes++;
		row->ms += (double)(node->total_ns - before[i].total_ns) /
			   (double)runs / 1e6;
	}
	qsort(rows, count, sizeof(*rows), slower_first);
	return count;
}

static double total_ms(const struct op_row *rows, size_t count)
{
	double total = 0;

	for (size_t i = 0; i < count; i++)
		total += rows[i].ms;
	return total;
}

static void print_rows(const struct op_row *rows, size_t count)
{
	double total = total_ms(rows, count), cumulative = 0;

	printf("op type                   nodes  average ms       %%  cumulative %%\n");
	for (size_t i = 0; i < count; i++) {
		double share = total > 0 ? 100 * rows[i].ms / total : 0;

		cumulative += share;
		printf("%-24s %6zu  %10.6f  %6.2f  %12.2f\n", rows[i].op,
		       rows[i].nodes, rows[i].ms, share, cumulative);
	}
}

static void json_rows(json_writer *w, const struct op_row *rows,
		      size_t count)
{
	double total = total_ms(rows, count), cumulative = 0;

	json_key(w, "op_types");
	json_begin_array(w);
	for (size_t i = 0; i < count; i++) {
		double share = total > 0 ? 100 * rows[i].ms / total : 0;

		cumulative += share;
		json_begin_object(w);
		json_key(w, "op");
		json_string(w, rows[i].op);
		json_key(w, "nodes");
		json_uint(w, rows[i].nodes);
		json_key(w, "average_ms");
		json_double(w, rows[i].ms);
		json_key(w, "percent");
		json_double(w, share);
		json_key(w, "cumulative_percent");
		json_double(w, cumulative);
		json_end_object(w);
	}
	json_end_array(w);
}

int run_op_summary(struct session *s, const opver_node_info *before,
		   const opver_node_info *after, size_t nodes)
{
	struct op_row *rows = calloc(nodes + 1, sizeof(*rows));
	size_t count;

	if (rows == NULL) {
		fputs("opver-run: out of memory for the op type summary\n",
		      stderr);
		return EXIT_RUN_FAILED;
	}
	count = fill_rows(before, after, nodes, s->cmd.benchmark_runs, rows);
	if (s->cmd.json)
		json_rows(&s->json, rows, count);
	else
		print_rows(rows, count);
	free(rows);
	return EXIT_SUCCESS;
}
