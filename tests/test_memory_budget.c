/*
 * test_memory_budget.c - the max_arena_bytes an interpreter tree shares
 * (core/memory_budget.c): charges within the limit, refusals that leave
 * the charge as it was and name what asked, replacing a charge; and the
 * scratch and persistent services charging it in a prepare at invoke
 * (core/session.c) on a node record of their own, released at the next
 * invoke, with a request too large to be sized refused.  The expected
 * counts are sums worked out by hand.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "memory_budget.h"
#include "messages.h"
#include "session.h"

static messages captured;
static opver__reporter reporter;
static opver__budget budget;
static opver__session session;
static opver__call call;
static opver__graph_node node = { .op = OPVER_OP_MEAN };

static void setup(void)
{
	messages_clear(&captured);
	reporter = messages_reporter(&captured);
	budget = (opver__budget){ .limit = 1000 };
	memset(&session, 0, sizeof(session));
	session.budget = &budget;
	opver__call_init(&call, OPVER__CALL_NODE, &reporter, "p", "k", NULL);
	call.node_index = 3;
	call.node = &node;
	call.session = &session;
}

static void teardown(void)
{
	opver__session_free(&session);
}

TestSuite(memory_budget, .init = setup, .fini = teardown);

Test(memory_budget, charges_up_to_the_limit_and_no_further)
{
	cr_assert_eq(opver__budget_charge(&budget, 600, 0, &reporter, "a"),
		     OPVER_OK);
	cr_assert_eq(opver__budget_charge(&budget, 400, 0, &reporter, "b"),
		     OPVER_OK, "exactly the limit");
	cr_assert_eq(budget.used, 1000);
	cr_assert_eq(opver__budget_charge(&budget, 1, 0, &reporter,
					  "node 3: one byte more"),
		     OPVER_ERROR_NOMEM);
	cr_assert_eq(budget.used, 1000, "a refusal charges nothing");
	cr_assert(messages_line_has(&captured, "error:",
				    "node 3: one byte more takes 1 bytes; with the 1000 bytes in use",
				    "share at most 1000 bytes", "max_arena_bytes",
				    NULL),
		  "%s", captured.text);
	opver__budget_release(&budget, 400);
	cr_assert_eq(budget.used, 600);
}

Test(memory_budget, a_new_size_replaces_the_old_charge)
{
	cr_assert_eq(opver__budget_charge(&budget, 700, 0, &reporter, "a"),
		     OPVER_OK);
	cr_assert_eq(opver__budget_charge(&budget, 1000, 700, &reporter, "a"),
		     OPVER_OK, "the 700 are replaced, not added to");
	cr_assert_eq(budget.used, 1000);
	cr_assert_eq(opver__budget_charge(&budget, 1001, 1000, &reporter,
					  "a"),
		     OPVER_ERROR_NOMEM);
	cr_assert_eq(budget.used, 1000, "the old charge stays");
	cr_assert_eq(opver__budget_charge(&budget, 10, 1000, &reporter, "a"),
		     OPVER_OK, "smaller");
	cr_assert_eq(budget.used, 10);
}

Test(memory_budget, sizes_past_any_limit_are_refused_without_wrapping)
{
	budget.limit = UINT64_MAX - 5;
	cr_assert_eq(opver__budget_charge(&budget, 10, 0, &reporter, "a"),
		     OPVER_OK);
	cr_assert_eq(opver__budget_charge(&budget, UINT64_MAX - 10, 0,
					  &reporter, "b"),
		     OPVER_ERROR_NOMEM, "10 + that passes the limit");
	cr_assert_eq(opver__budget_charge(&budget, UINT64_MAX, 0, &reporter,
					  "c"),
		     OPVER_ERROR_NOMEM);
	cr_assert_eq(budget.used, 10);
	opver__budget_release(NULL, 10);
}

/* A prepare at invoke: scratch and persistent memory of their own,
 * charged, and given back at the next invoke's rewind. */
Test(memory_budget, memory_asked_for_in_a_prepare_at_invoke_is_charged)
{
	const opver_host *host = call.context.host;
	int32_t index = -1;

	opver__session_mark(&session);
	session.at_invoke = true;
	session.phase = OPVER__PHASE_PREPARE;
	cr_assert_eq(host->request_scratch(&call.context, 512, &index),
		     OPVER_OK, "%s", captured.text);
	cr_assert_not_null(host->scratch(&call.context, index));
	cr_assert_not_null(host->allocate_persistent(&call.context, 400));
	cr_assert_eq(budget.used, 912);
	cr_assert_eq(host->request_scratch(&call.context, 89, &index),
		     OPVER_ERROR_NOMEM);
	cr_assert(messages_line_has(&captured, "node 3 (MEAN",
				    "request_scratch in a prepare at invoke takes 89 bytes; with the 912 bytes in use",
				    NULL),
		  "%s", captured.text);
	cr_assert_null(host->allocate_persistent(&call.context, 89));
	cr_assert(messages_line_has(&captured, "allocate_persistent in a prepare at invoke takes 89 bytes",
				    NULL),
		  "%s", captured.text);
	cr_assert_eq(budget.used, 912, "the refusals charged nothing");
	opver__session_rewind(&session);
	cr_assert_eq(budget.used, 0, "the next invoke gives it all back");
}

/* SIZE_MAX bytes would wrap with the read slack added: refused, even
 * under a limit that would take them. */
Test(memory_budget, scratch_too_large_to_size_is_refused_at_invoke)
{
	int32_t index = -1;

	budget.limit = UINT64_MAX;
	session.at_invoke = true;
	session.phase = OPVER__PHASE_PREPARE;
	cr_assert_eq(call.context.host->request_scratch(&call.context,
							  SIZE_MAX, &index),
		     OPVER_ERROR_NOMEM);
	cr_assert(messages_line_has(&captured, "request_scratch in a prepare at invoke asks for",
				    "more than can be addressed", NULL),
		  "%s", captured.text);
	cr_assert_eq(budget.used, 0);
}
