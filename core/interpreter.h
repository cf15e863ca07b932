/*
 * interpreter.h - opver_interpreter: a model bound to kernels and delegates.
 *
 * Creation: tensors from the graph, delegate claims and partitions, kernel
 * resolution of the remaining nodes (every unresolved node is reported
 * before failing), one arena planned from tensor lifetimes, kernel init
 * (once per interpreter for stateless kernels, once per node otherwise),
 * then prepare of every node and partition.  Invoke runs the steps in
 * order and keeps per-node time.
 */
#ifndef OPVER_CORE_INTERPRETER_H
#define OPVER_CORE_INTERPRETER_H

#include "opver/opver.h"

#endif /* OPVER_CORE_INTERPRETER_H */
