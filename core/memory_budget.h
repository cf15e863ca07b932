/*
 * memory_budget.h - the one max_arena_bytes of an interpreter tree: the
 * interpreter the application created and those it creates for the
 * subgraphs control flow calls share it.  Charged by every arena plan,
 * every buffer of a tensor shaped at invoke, the scratch and persistent
 * memory kernels ask for in a prepare run at invoke, and every resource
 * variable's value; released when they are freed.  The root interpreter
 * owns it; everything else borrows it.  Internal to the core.
 */
#ifndef OPVER_CORE_MEMORY_BUDGET_H
#define OPVER_CORE_MEMORY_BUDGET_H

#include <stdint.h>

#include "report.h"

typedef struct opver__budget {
	uint64_t limit;         /* max_arena_bytes, resolved */
	uint64_t used;          /* what is charged now */
} opver__budget;

/*
 * Charges `bytes` in place of `replacing` bytes charged before (0 for new
 * memory).  When the tree would pass the limit, the charge stays as it
 * was, and a message starting with `what` (who asked, for what) and
 * naming the bytes, the bytes in use and the limit goes to `reporter`:
 * OPVER_ERROR_NOMEM.
 */
opver_status opver__budget_charge(opver__budget *budget, uint64_t bytes,
				  uint64_t replacing,
				  const opver__reporter *reporter,
				  const char *what);

/* Gives back `bytes` charged before; a NULL budget is ignored. */
void opver__budget_release(opver__budget *budget, uint64_t bytes);

#endif /* OPVER_CORE_MEMORY_BUDGET_H */
