/*
 * interpreter.h - opver_interpreter: a model bound to kernels and delegates.
 *
 * Creation: tensors from the graph, delegate claims, partitions and the
 * plan (delegate.h), kernel resolution of the remaining nodes (every
 * unresolved node is reported before failing), the thread pool, kernel
 * init (once per interpreter for stateless kernels, once per node
 * otherwise) and prepare of every partition and node, then one arena
 * planned from tensor lifetimes and the scratch prepare asked for.  Invoke
 * runs the plan's steps in order and keeps per-node time, and profile
 * events when a profiler is attached.  After an input is resized,
 * allocate_tensors (interpreter_resize.c) frees what init and prepare
 * made and repeats them and the planning with the new shapes.
 */
#ifndef OPVER_CORE_INTERPRETER_H
#define OPVER_CORE_INTERPRETER_H

#include "opver/opver.h"

struct opver__budget;
struct opver__callees;
struct opver__pool;

/*
 * An interpreter of subgraph `subgraph` of `model`, for the control-flow
 * nodes calling it (control_flow.h): as opver_interpreter_create_with_
 * options with `options` (borrowed for the call), sharing the tree's table
 * of callees, the thread pool and the memory budget of the interpreter
 * the application created (all borrowed until destroy).  *out owned by
 * the caller (the table's owner); release with opver_interpreter_destroy().
 */
opver_status opver__interpreter_create_callee(
	opver_runtime *runtime, const opver_model *model,
	const opver_interpreter_options *options, int32_t subgraph,
	struct opver__callees *callees, struct opver__pool *pool,
	struct opver__budget *budget, opver_interpreter **out);

#endif /* OPVER_CORE_INTERPRETER_H */
