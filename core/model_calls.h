/*
 * model_calls.h - the subgraphs IF, WHILE and CALL_ONCE nodes call, and the
 * reader's checks of them: every index in range, each call's inputs and
 * outputs matching the called subgraph's in count and type, and no
 * subgraph calling itself, directly or through others (TFLite refuses
 * such models too: a subgraph cannot run while it is running).
 */
#ifndef OPVER_CORE_MODEL_CALLS_H
#define OPVER_CORE_MODEL_CALLS_H

#include "model_fields.h"

/* Most subgraphs one node calls (WHILE: cond and body). */
#define OPVER__MAX_CALLEES 2

/* The subgraphs `node` calls, into callees[], in the order the op names
 * them (IF: then, else; WHILE: cond, body; CALL_ONCE: init); returns how
 * many, 0 for an op that calls none. */
int opver__node_callees(const opver__graph_node *node,
			int32_t callees[OPVER__MAX_CALLEES]);

/* What callee `which` of `op` is called ("then", "else", "cond", "body",
 * "init"), for messages. */
const char *opver__callee_role(int32_t op, int which);

/* Checks every call in every subgraph of `graph` (subgraph 0, holding the
 * others). */
opver_status opver__model_check_calls(opver__model_reader *r,
				      const opver__graph *graph);

#endif /* OPVER_CORE_MODEL_CALLS_H */
