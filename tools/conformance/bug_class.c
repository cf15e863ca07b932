/*
 * bug_class.c - the likely class of a kernel's bug (bug_class.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bug_class.h"
#include "compare.h"

/* Whether the name's parameter `key` ("activation") is present, and
 * whether its value is `value`. */
static bool param_is(const char *name, const char *key, const char *value,
		     bool *present)
{
	char pattern[64];
	const char *at;
	size_t length = strlen(value);

	snprintf(pattern, sizeof(pattern), " %s=", key);
	at = strstr(name, pattern);
	*present = at != NULL;
	if (at == NULL)
		return false;
	at += strlen(pattern);
	return strncmp(at, value, length) == 0 &&
	       (at[length] == ' ' || at[length] == '\0');
}

/* Whether the details' derivation puts the reference's final shift on a
 * tie (requant_report.c's line starting "reference: "). */
static bool final_tie(const char *details)
{
	const char *line = strstr(details, "reference: ");
	const char *end = line != NULL ? strchr(line, '\n') : NULL;
	const char *tie = line != NULL ? strstr(line, "(a tie, rounded away from zero)")
				       : NULL;

	return tie != NULL && (end == NULL || tie < end);
}

/* Whether runner_case.c's op line, "op: OP version V (the rules require
 * vR: ...)", stores the case below the version its types require. */
static bool below_required(const char *details)
{
	const char *rule = strstr(details, "(the rules require v");
	const char *line = rule;
	long stored, required;

	if (rule == NULL)
		return false;
	while (line > details && line[-1] != '\n')
		line--;
	line = strstr(line, " version ");
	if (line == NULL || line > rule)
		return false;
	stored = strtol(line + strlen(" version "), NULL, 10);
	required = strtol(rule + strlen("(the rules require v"), NULL, 10);
	return stored < required;
}

void cf_bug_evidence_init(cf_bug_evidence *e)
{
	*e = (cf_bug_evidence){
		.one_step = true, .tie = true, .activation = true,
		.broadcast = true, .padded = true, .same_padding = true,
		.below_required = true,
	};
}

void cf_bug_evidence_add(cf_bug_evidence *e, const char *name,
			 const char *details, bool failed)
{
	bool has_activation, has_broadcast, has_padding;
	const bool plain = param_is(name, "activation", "NONE", &has_activation);
	const bool unbroadcast = param_is(name, "broadcast", "same",
					  &has_broadcast);
	const bool same = param_is(name, "padding", "SAME", &has_padding);

	if (!failed) {
		e->passed_plain |= plain;
		e->passed_unbroadcast |= unbroadcast;
		e->passed_valid |= has_padding && !same;
		return;
	}
	if (details == NULL)
		details = "";
	e->failed++;
	e->one_step &= strstr(details, CF_ONE_STEP) != NULL;
	e->tie &= final_tie(details);
	e->activation &= has_activation && !plain;
	e->broadcast &= has_broadcast && !unbroadcast;
	e->padded &= strstr(details, "reaches into the padding") != NULL;
	e->same_padding &= same;
	e->below_required &= below_required(details);
}

void cf_bug_evidence_write(const cf_bug_evidence *e, cf_text *t)
{
	if (e->failed == 0)
		return;
	if (e->one_step)
		cf_text_add(t, "likely bug class: rounding: every difference is one step%s\n",
			    e->tie ? ", and each first one lies on a tie of the final shift (ties rounded the wrong way)" :
				     "");
	if (e->activation && e->passed_plain)
		cf_text_add(t, "likely bug class: the fused activation: only cases with one fail\n");
	if (e->broadcast && e->passed_unbroadcast)
		cf_text_add(t, "likely bug class: broadcasting: only cases whose inputs' shapes differ fail\n");
	if (e->below_required)
		cf_text_add(t, "likely bug class: stored versions: every failing case is stored below the version its types require, which must compute as that version\n");
	if (e->padded)
		cf_text_add(t, "likely bug class: padding: every first difference has a window reaching into the padding\n");
	else if (e->same_padding && e->passed_valid)
		cf_text_add(t, "likely bug class: padding: only SAME cases fail\n");
}
