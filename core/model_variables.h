/*
 * model_variables.h - the reader's checks of the nodes that work on
 * resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE): their
 * input and output counts and tensor types, so that the core, which runs
 * them (resource_variables.h), meets only the tensors TFLite's kernels
 * accept.
 */
#ifndef OPVER_CORE_MODEL_VARIABLES_H
#define OPVER_CORE_MODEL_VARIABLES_H

#include "model_fields.h"

/* Checks every resource-variable node in every subgraph of `graph`
 * (subgraph 0, holding the others). */
opver_status opver__model_check_variables(opver__model_reader *r,
					  const opver__graph *graph);

#endif /* OPVER_CORE_MODEL_VARIABLES_H */
