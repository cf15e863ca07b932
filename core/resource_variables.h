/*
 * resource_variables.h - VAR_HANDLE, READ_VARIABLE and ASSIGN_VARIABLE,
 * which the core runs itself: a resource variable is state that every
 * subgraph of an interpreter shares, which no plugin kernel could own.
 * control_flow.c hands these nodes here, as it runs IF and WHILE.
 *
 * One table per interpreter tree, owned with the tree's table of called
 * subgraphs by the interpreter the application created, holds the
 * variables, keyed by (container, shared_name) as TFLite keys them.
 * VAR_HANDLE's prepare finds or adds its variable; its invoke writes the
 * variable's index, an int32, into its RESOURCE output, which control flow
 * passes to other subgraphs like any value.
 *
 * A variable has no value until an ASSIGN_VARIABLE gives it one, of the
 * value's type and shape.  A later value of another type is refused (in
 * TFLite the variable would take it and the next READ_VARIABLE fail); one
 * of another shape replaces the shape, as in TFLite.  READ_VARIABLE copies
 * the value into its output, which keeps the shape the model gives it:
 * a value of another shape is refused there (opver does not reshape
 * outputs while invoking).
 *
 * Each value is a copy of a tensor of the tree, whose size the
 * interpreter checked against max_tensor_bytes, so it is within that
 * limit too; all of them are charged to the tree's max_arena_bytes
 * (memory_budget.h), so many variables cannot pass it together.  The
 * table frees the values when the tree is destroyed.
 */
#ifndef OPVER_CORE_RESOURCE_VARIABLES_H
#define OPVER_CORE_RESOURCE_VARIABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "graph.h"
#include "memory_budget.h"
#include "opver/plugin.h"
#include "report.h"

/* The variables of an interpreter tree. */
typedef struct opver__variables opver__variables;

/* The kernel name node_info gives these nodes (their plugin is the
 * core's, OPVER__CONTROL_PLUGIN). */
#define OPVER__VARIABLE_KERNEL "resource variable"

/* Whether `node` is VAR_HANDLE, READ_VARIABLE or ASSIGN_VARIABLE. */
bool opver__variable_node(const opver__graph_node *node);

/* A new, empty table.  `reporter` and `budget` (what values are charged
 * to) are borrowed until opver__variables_free().  *out owned by the
 * caller; release with opver__variables_free(). */
opver_status opver__variables_create(const opver__reporter *reporter,
				     opver__budget *budget,
				     opver__variables **out);

/* A node: node `index` of subgraph `subgraph` (`graph`, borrowed), for
 * messages; per node of that graph, the variable each VAR_HANDLE names,
 * -1 for any other node; per tensor, the node writing it when exactly one
 * does, else -1 (opver__variable_writers()).  The arrays are the
 * caller's. */
typedef struct opver__variable_site {
	const opver__graph *graph;
	int32_t subgraph;
	int32_t index;
	int32_t *handles;
	const int32_t *writers;
} opver__variable_site;

/* Fills writers[0, graph->num_tensors) as opver__variable_site wants it:
 * prepare looks up which VAR_HANDLE, if any, gave a node its handle in
 * constant time, however many nodes the graph has. */
void opver__variable_writers(const opver__graph *graph, int32_t *writers);

/*
 * Prepares the node `node` at `site`.  VAR_HANDLE: finds or adds its
 * variable and records it in site->handles.  READ_VARIABLE and
 * ASSIGN_VARIABLE: checks the handle's size, and when the handle comes
 * from a VAR_HANDLE of the same subgraph, that every node of the tree
 * uses the variable with one type (OPVER_ERROR_INVALID_MODEL otherwise,
 * naming both nodes).
 */
opver_status opver__variables_prepare(opver__variables *vars,
				      const opver__variable_site *site,
				      const opver_node *node);

/* Runs the node `node` at `site`; a read before any assign, a handle
 * naming no variable, a value of another type or a read into an output
 * of another shape is reported, naming the node and the variable. */
opver_status opver__variables_invoke(opver__variables *vars,
				     const opver__variable_site *site,
				     const opver_node *node);

/* Forgets every variable's value (each is unassigned again, its memory
 * freed); handles stay valid. */
void opver__variables_reset(opver__variables *vars);

/* Frees the table and every value.  Safe on NULL. */
void opver__variables_free(opver__variables *vars);

#endif /* OPVER_CORE_RESOURCE_VARIABLES_H */
