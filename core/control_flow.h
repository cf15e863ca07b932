/*
 * control_flow.h - IF, WHILE and CALL_ONCE, which the core runs itself,
 * and the dispatch of the other nodes it runs: VAR_HANDLE, READ_VARIABLE
 * and ASSIGN_VARIABLE (resource_variables.h), whose variables the tree
 * shares like its called subgraphs.
 *
 * A plugin kernel cannot run a subgraph: the ABI gives it no handle on
 * the interpreter, and a kernel that called back into it would run other
 * plugins' kernels inside its own invoke.  So control-flow nodes are never
 * resolved to a kernel; node_info names "opver core" as their plugin and
 * "control flow" (or "resource variable") as their kernel.
 *
 * Each called subgraph runs on an interpreter of its own (tensors, kernels,
 * plan and arena), created when the first node calling it is prepared and
 * shared by every node of the model that calls it: one table per
 * interpreter tree, owned by the interpreter the application created.
 * Calls copy the values in and out, so every loop value must keep its
 * shape: a WHILE whose body changes a value's shape is refused when it is
 * prepared (dynamic shapes are not supported).
 */
#ifndef OPVER_CORE_CONTROL_FLOW_H
#define OPVER_CORE_CONTROL_FLOW_H

#include <stdbool.h>

#include "graph.h"
#include "memory_budget.h"
#include "opver/plugin.h"
#include "report.h"

struct opver__pool;

/* One interpreter's control-flow state. */
typedef struct opver__control opver__control;

/* The table of called subgraphs' interpreters an interpreter tree shares. */
typedef struct opver__callees opver__callees;

/* The plugin and kernel names node_info gives control-flow nodes. */
#define OPVER__CONTROL_PLUGIN "opver core"
#define OPVER__CONTROL_KERNEL "control flow"

/* Whether the core runs `node` (IF, WHILE, CALL_ONCE, VAR_HANDLE,
 * READ_VARIABLE, ASSIGN_VARIABLE). */
bool opver__control_node(const opver__graph_node *node);

/* The kernel name node_info gives such a node (static storage). */
const char *opver__control_kernel(const opver__graph_node *node);

/* Reports, as the resolver does for kernels, a node the core runs at a
 * version it does not run (it runs version 1); `index` and `subgraph`
 * name the node.  OPVER_ERROR_UNRESOLVED then. */
opver_status opver__control_check_version(const opver__graph_node *node,
					  int32_t version, int32_t index,
					  int32_t subgraph,
					  const opver__reporter *reporter);

/*
 * Creates the control-flow state of an interpreter of subgraph `subgraph`
 * (`graph`, borrowed) of `model`.  `callees` is the tree's table (borrowed)
 * for an interpreter of a called subgraph, NULL for the one the
 * application creates, which then owns a new table and the tree's
 * resource variables; `options` (copied, without profiling or tracing),
 * `pool` and `budget` (both borrowed, the root's: the tree's memory limit,
 * which the variables' values are charged to too) are what the called
 * subgraphs' interpreters are created with.  *out owned by the caller;
 * release with opver__control_free().
 */
opver_status opver__control_create(opver_runtime *runtime,
				   const opver_model *model,
				   const opver_interpreter_options *options,
				   const opver__graph *graph, int32_t subgraph,
				   opver__callees *callees,
				   struct opver__pool *pool,
				   opver__budget *budget,
				   opver__control **out);

/* Prepares control-flow node `index` (`node` its tensors): creates the
 * interpreters of the subgraphs it calls, if no node did before, and
 * checks that the values it passes keep their shapes. */
opver_status opver__control_prepare(opver__control *control, int32_t index,
				    const opver_node *node);

/* Runs control-flow node `index` (`node` its tensors). */
opver_status opver__control_invoke(opver__control *control, int32_t index,
				   const opver_node *node);

/* Starts an invoke: for the root's control (it owns the table), the
 * WHILE passes counted against max_loop_iterations start again. */
void opver__control_begin_invoke(opver__control *control);

/* For opver_interpreter_reset_variables(): every CALL_ONCE of this
 * interpreter runs again at the next invoke; when `control` owns the
 * table (the root's: one call covers the tree), every callee interpreter
 * is reset too (its variable tensors zeroed, as TFLite's
 * ResetVariableTensors covers every subgraph) and every resource
 * variable forgets its value (opver.h says why). */
void opver__control_reset_variables(opver__control *control);

/* The table an interpreter's callees share (borrowed). */
opver__callees *opver__control_callees(const opver__control *control);

/* Frees the state and, if it owns the table, every callee interpreter.
 * Safe on NULL. */
void opver__control_free(opver__control *control);

#endif /* OPVER_CORE_CONTROL_FLOW_H */
