/*
 * bug_class.h - the likely class of a kernel's bug, named from which of
 * its cases failed and how (issue 16): every difference one step, on a
 * tie of the final shift, only with a fused activation, only when
 * broadcasting, only where a window reaches into the padding, only with
 * SAME padding, only stored below the version the types require.
 */
#ifndef OPVER_CONFORMANCE_BUG_CLASS_H
#define OPVER_CONFORMANCE_BUG_CLASS_H

#include <stdbool.h>
#include <stddef.h>

#include "text.h"

/* What a suite's checked cases show; start it with cf_bug_evidence_init. */
typedef struct cf_bug_evidence {
	size_t failed;
	/* Of every failed case. */
	bool one_step, tie, activation, broadcast, padded, same_padding,
		below_required;
	/* Of some passed case. */
	bool passed_plain, passed_unbroadcast, passed_valid;
} cf_bug_evidence;

void cf_bug_evidence_init(cf_bug_evidence *e);

/* Adds a case that passed or failed: its one-line name (with its
 * parameters, "activation=RELU broadcast=scalar padding=SAME ...") and its
 * failure details (NULL when none).  Both borrowed for the call. */
void cf_bug_evidence_add(cf_bug_evidence *e, const char *name,
			 const char *details, bool failed);

/* Appends one "likely bug class: ..." line per pattern recognised, or
 * nothing. */
void cf_bug_evidence_write(const cf_bug_evidence *e, cf_text *t);

#endif /* OPVER_CONFORMANCE_BUG_CLASS_H */
