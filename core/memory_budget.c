/* memory_budget.c - the max_arena_bytes an interpreter tree shares
 * (memory_budget.h). */
#include <inttypes.h>

#include "memory_budget.h"

opver_status opver__budget_charge(opver__budget *budget, uint64_t bytes,
				  uint64_t replacing,
				  const opver__reporter *reporter,
				  const char *what)
{
	const uint64_t others = budget->used - replacing;

	if (bytes <= budget->limit && others <= budget->limit - bytes) {
		budget->used = others + bytes;
		return OPVER_OK;
	}
	opver__error(reporter,
		     "%s takes %" PRIu64 " bytes; with the %" PRIu64 " bytes in use, that passes max_arena_bytes: the interpreter and the subgraphs it calls share at most %" PRIu64 " bytes for arenas, tensors shaped at invoke, memory kernels ask for at invoke and resource variables' values (max_arena_bytes in the config, opver-run --max-arena)",
		     what, bytes, others, budget->limit);
	return OPVER_ERROR_NOMEM;
}

void opver__budget_release(opver__budget *budget, uint64_t bytes)
{
	if (budget != NULL)
		budget->used -= bytes;
}
