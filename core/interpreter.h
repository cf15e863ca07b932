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

#endif /* OPVER_CORE_INTERPRETER_H */
