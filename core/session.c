/* session.c - persistent memory and arena scratch for kernels and
 * delegate partitions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamic.h"
#include "memory_budget.h"
#include "session.h"

/* A persistent allocation: the link and what it charged to the budget
 * (allocated at invoke; 0 otherwise), padded so the payload keeps the
 * host alignment. */
struct opver__persistent_block {
	struct opver__persistent_block *next;
	size_t charged;
	unsigned char padding[OPVER__HOST_ALIGNMENT - sizeof(void *) -
			      sizeof(size_t)];
};

/* At invoke, a prepare's memory is no part of the planned arena: charges
 * `bytes` to the budget, reporting as the call's `service` past it, or
 * when its allocation (with OPVER_TENSOR_READ_SLACK) cannot be sized. */
static opver_status charge_at_invoke(const opver_context *ctx,
				     opver__session *session,
				     const char *service, size_t bytes)
{
	const opver__call *call = opver__call_of(ctx);
	char who[320], what[400];

	opver__call_describe(call, who, sizeof(who));
	snprintf(what, sizeof(what), "%s: %s in a prepare at invoke", who,
		 service);
	if (bytes > SIZE_MAX - OPVER_TENSOR_READ_SLACK) {
		opver__error(call->reporter,
			     "%s asks for %zu bytes, more than can be addressed",
			     what, bytes);
		return OPVER_ERROR_NOMEM;
	}
	return opver__budget_charge(session->budget, bytes, 0, call->reporter,
				    what);
}

/* The session of a call in prepare, or NULL after reporting that the
 * service is for prepare only. */
static opver__session *preparing(const opver_context *ctx,
				 const char *service)
{
	opver__session *session = opver__session_of(ctx);

	if (session != NULL && session->phase == OPVER__PHASE_PREPARE)
		return session;
	ctx->host->report_error(ctx, "%s called outside prepare", service);
	return NULL;
}

void *opver__service_allocate_persistent(const opver_context *ctx,
					 size_t bytes)
{
	opver__session *session = preparing(ctx, "allocate_persistent");
	struct opver__persistent_block *block;

	if (session == NULL || bytes > SIZE_MAX - sizeof(*block))
		return NULL;
	if (session->at_invoke &&
	    charge_at_invoke(ctx, session, "allocate_persistent", bytes) !=
		    OPVER_OK)
		return NULL;
	block = opver__aligned_zalloc(sizeof(*block) + bytes);
	if (block == NULL) {
		if (session->at_invoke)
			opver__budget_release(session->budget, bytes);
		return NULL;
	}
	block->charged = session->at_invoke ? bytes : 0;
	block->next = session->persistent;
	session->persistent = block;
	return block + 1;
}

opver_status opver__service_request_scratch(const opver_context *ctx,
					    size_t bytes, int32_t *index)
{
	opver__session *session = preparing(ctx, "request_scratch");
	opver__scratch *grown;
	opver_status status;

	if (session == NULL || index == NULL)
		return OPVER_ERROR_INVALID_ARGUMENT;
	if (session->num_scratch >= INT32_MAX)
		return OPVER_ERROR_NOMEM;
	grown = realloc(session->scratch,
			(session->num_scratch + 1) * sizeof(*grown));
	if (grown == NULL)
		return OPVER_ERROR_NOMEM;
	session->scratch = grown;
	grown[session->num_scratch].step = opver__call_of(ctx)->step;
	/* A byte at least, so that even an empty request has an address. */
	grown[session->num_scratch].bytes = bytes > 0 ? bytes : 1;
	grown[session->num_scratch].memory = NULL;
	grown[session->num_scratch].own_memory = session->at_invoke;
	/* The arena is planned: a prepare at invoke gets memory of its
	 * own, freed at the next invoke (opver__session_rewind()). */
	if (session->at_invoke) {
		status = charge_at_invoke(ctx, session, "request_scratch",
					  grown[session->num_scratch].bytes);
		if (status != OPVER_OK)
			return status;
		grown[session->num_scratch].memory = opver__aligned_zalloc(
			grown[session->num_scratch].bytes +
			OPVER_TENSOR_READ_SLACK);
		if (grown[session->num_scratch].memory == NULL) {
			opver__budget_release(session->budget,
					      grown[session->num_scratch].bytes);
			return OPVER_ERROR_NOMEM;
		}
	}
	*index = (int32_t)session->num_scratch++;
	return OPVER_OK;
}

void *opver__service_scratch(const opver_context *ctx, int32_t index)
{
	const opver__session *session = opver__session_of(ctx);

	/* A hot path: no report, the kernel checks for NULL. */
	if (session == NULL || index < 0 ||
	    (size_t)index >= session->num_scratch ||
	    session->scratch[index].step != opver__call_of(ctx)->step)
		return NULL;
	return session->scratch[index].memory;
}

/* Frees persistent blocks down to `until`, and scratch from `from` on
 * (only scratch requested at invoke has memory of its own). */
static void free_since(opver__session *session,
		       struct opver__persistent_block *until, size_t from)
{
	while (session->persistent != NULL && session->persistent != until) {
		struct opver__persistent_block *next = session->persistent->next;

		opver__budget_release(session->budget,
				      session->persistent->charged);
		free(session->persistent);
		session->persistent = next;
	}
	for (size_t i = from; i < session->num_scratch; i++) {
		if (!session->scratch[i].own_memory)
			continue;
		opver__budget_release(session->budget,
				      session->scratch[i].bytes);
		free(session->scratch[i].memory);
	}
	session->num_scratch = from;
}

void opver__session_free(opver__session *session)
{
	free_since(session, NULL, 0);
	free(session->scratch);
	session->scratch = NULL;
	session->marked_persistent = NULL;
	session->marked_scratch = 0;
	if (session->dynamic != NULL)
		opver__budget_release(session->budget, session->dynamic->bytes);
	opver__dynamic_free(session->dynamic);
	session->dynamic = NULL;
	opver__budget_release(session->budget, session->arena_bytes);
	session->arena_bytes = 0;
}

void opver__session_mark(opver__session *session)
{
	session->marked_persistent = session->persistent;
	session->marked_scratch = session->num_scratch;
}

void opver__session_rewind(opver__session *session)
{
	free_since(session, session->marked_persistent,
		   session->marked_scratch);
}
