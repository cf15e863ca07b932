/*
 * model_subgraphs.h - the model's operator codes, subgraphs (tensors,
 * operators and their options, inputs and outputs) and signatures,
 * checked as they are decoded.
 */
#ifndef OPVER_CORE_MODEL_SUBGRAPHS_H
#define OPVER_CORE_MODEL_SUBGRAPHS_H

#include "model_fields.h"

/* Reads the operator codes into r->codes (owned by r). */
opver_status opver__model_read_op_codes(opver__model_reader *r,
					const opver__fb_table *model);

/* Decodes subgraph 0 into *graph, which the caller owns (release with
 * opver__graph_free()), and the others into graph->others, each checked
 * the same way. */
opver_status opver__model_read_subgraphs(opver__model_reader *r,
					 const opver__fb_table *model,
					 opver__graph *graph);

/* Reads the signatures into graph->signatures, checking them against the
 * subgraphs read. */
opver_status opver__model_read_signatures(opver__model_reader *r,
					  const opver__fb_table *model,
					  opver__graph *graph);

#endif /* OPVER_CORE_MODEL_SUBGRAPHS_H */
