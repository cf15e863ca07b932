/*
 * runner_coverage.c - what the cases exercised of each vendor kernel and
 * delegate claim (versions, first input types, the lowest version the
 * rules required), and a skip for each part they left unexercised.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <opver/opver.h>

#include "runner_internal.h"
#include "text.h"

/* Keeps the lowest nonzero of *lowest and required. */
void cf_note_required(int32_t *lowest, int32_t required)
{
	if (*lowest == 0 || required < *lowest)
		*lowest = required;
}

/* The versions the delegate's claims of `op` span, *lo to *hi; false
 * when it declares none. */
bool cf_delegate_range(const cf_runner *r, int32_t op, int32_t *lo,
		       int32_t *hi)
{
	bool any = false;

	*lo = INT32_MAX;
	*hi = 0;
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		const opver_delegate_op_info *info = &r->delegate_ops[d].info;

		if (info->op != op)
			continue;
		if (info->min_version < *lo)
			*lo = info->min_version;
		if (info->max_version > *hi)
			*hi = info->max_version;
		any = true;
	}
	return any;
}

/* Whether a type mask takes `type` (-1: an omitted optional input);
 * a mask of 0 takes anything. */
static bool mask_takes(uint32_t mask, int32_t type)
{
	if (mask == 0)
		return true;
	if (type < 0)
		return (mask & OPVER_TYPE_BIT_ABSENT) != 0;
	return type < 31 && (mask & OPVER_TYPE_BIT(type)) != 0;
}

/* Whether the case's tensor types are among those the claim declares.
 * The claim's masks are the union of its signatures, so this is what
 * can be told from outside the plugin. */
static bool claim_takes_types(const opver_delegate_op_info *info,
			      const cf_case *c)
{
	for (int32_t i = 0; i < c->num_inputs && i < OPVER_SIGNATURE_INPUTS;
	     i++) {
		int32_t t = c->inputs[i];

		if (!mask_takes(info->input_types[i],
				t >= 0 ? (int32_t)c->tensors[t].type : -1))
			return false;
	}
	return mask_takes(info->output_types, c->tensors[c->output].type);
}

/* Whether the claim covers the case: its op, version and types. */
bool cf_claim_covers(const opver_delegate_op_info *info, int32_t op,
		     int32_t version, const cf_case *c)
{
	return info->op == op && version >= info->min_version &&
	       version <= info->max_version && claim_takes_types(info, c);
}

/* The delegate ran a case: every claim covering it was exercised. */
void cf_mark_delegate(cf_runner *r, int32_t op, int32_t version,
		      const cf_case *c)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		cf_delegate_cover *cover = &r->delegate_ops[d];

		if (!cf_claim_covers(&cover->info, op, version, c))
			continue;
		cover->exercised[version] = true;
		cover->input_types |=
			OPVER_TYPE_BIT(c->tensors[c->inputs[0]].type);
	}
}

/* The delegate bound a case that needs version `required`. */
void cf_note_delegate_required(cf_runner *r, int32_t op, int32_t version,
			       const cf_case *c, int32_t required)
{
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++)
		if (cf_claim_covers(&r->delegate_ops[d].info, op, version, c))
			cf_note_required(&r->delegate_ops[d].lowest_required,
					 required);
}

void cf_skip(cf_runner *r, const char *suite, const char *name,
	     const char *format, ...)
{
	cf_text details = { 0 };
	va_list args;

	va_start(args, format);
	cf_text_vadd(&details, format, args);
	va_end(args);
	cf_add_result(r, suite, name, CF_SKIP, 0, cf_text_get(&details));
	if (details.failed)
		r->out_of_memory = true;
	cf_text_free(&details);
}

/*
 * One skip per version of [min, max] nothing exercised; versions from
 * `first_invalid` on (0: none) are not TFLite versions of the op and get
 * one skip together.  Versions below `lowest_required` (when not 0) are
 * below what the rules require of every case it took.
 */
static void skip_unexercised(cf_runner *r, const char *suite,
			     const char *op_name,
			     int32_t min, int32_t max, const bool *exercised,
			     int32_t first_invalid, int32_t lowest_required,
			     const char *why)
{
	char name[64];

	for (int32_t v = min; v <= max; v++) {
		if (v > VERSION_LIMIT || (first_invalid > 0 && v >= first_invalid)) {
			snprintf(name, sizeof(name), "v%" PRId32 "-v%" PRId32,
				 v, max);
			cf_skip(r, suite, name, "versions %" PRId32 " to %" PRId32 " are not TFLite versions of %s%s: nothing to check",
				v, max, op_name,
				v > VERSION_LIMIT ? " (above any op's versions)" : "");
			return;
		}
		if (exercised[v])
			continue;
		snprintf(name, sizeof(name), "v%" PRId32, v);
		if (lowest_required > v)
			cf_skip(r, suite, name, "nothing exercised %s at v%" PRId32 ": TFLite's rules require v%" PRId32 " or later of every case it took (its tensor types or parameters)",
				suite, v, lowest_required);
		else
			cf_skip(r, suite, name, "nothing exercised %s at v%" PRId32 ": %s",
				suite, v, why);
	}
}

/* One skip per type of a first-input mask (`accepted`) that no case
 * gave (`given`). */
static void skip_untyped(cf_runner *r, const char *suite, uint32_t accepted,
			 uint32_t given, const char *why)
{
	uint32_t missing = accepted & ~OPVER_TYPE_BIT_ABSENT & ~given;

	for (int32_t type = 0; type < OPVER_TYPE_COUNT; type++) {
		char name[64];

		if (!(missing & OPVER_TYPE_BIT(type)))
			continue;
		snprintf(name, sizeof(name), "input type %s",
			 opver_type_name(type));
		cf_skip(r, suite, name,
			"nothing exercised %s with a %s first input: %s", suite,
			opver_type_name(type), why);
	}
}

/* Skips for what the cases of `op` left unexercised. */
void cf_report_coverage(cf_runner *r, int32_t op, const char *custom_name,
			bool has_cases, int32_t first_invalid)
{
	const char *op_name = custom_name != NULL ? custom_name :
						    opver_op_name(op);
	const char *why = has_cases ?
		"no generated case at this version has tensor types it accepts" :
		"opver-conformance has no cases for this op";
	cf_text suite = { 0 };

	for (size_t i = 0; i < r->vendor_info.num_kernels; i++) {
		cf_kernel_cover *k = &r->kernels[i];

		if (!cf_kernel_is(&k->info, op, custom_name))
			continue;
		cf_text_clear(&suite);
		cf_text_add(&suite, "%s/%s", op_name, k->info.name);
		skip_unexercised(r, cf_text_get(&suite), op_name,
				 k->info.min_version,
				 k->info.max_version, k->exercised,
				 first_invalid, k->lowest_required, why);
		/* Types the kernel accepts first that no case gave it. */
		if (has_cases)
			skip_untyped(r, cf_text_get(&suite),
				     k->info.input_types[0], k->input_types,
				     "no generated case of that type bound it");
	}
	for (size_t d = 0; d < r->vendor_info.num_delegate_ops; d++) {
		cf_delegate_cover *c = &r->delegate_ops[d];

		/* Delegates claim builtin ops only. */
		if (c->info.op != op || custom_name != NULL)
			continue;
		cf_text_clear(&suite);
		cf_text_add(&suite, "%s/delegate:%s", op_name,
			    r->vendor_info.delegate_name);
		skip_unexercised(r, cf_text_get(&suite), op_name,
				 c->info.min_version, c->info.max_version,
				 c->exercised, first_invalid,
				 c->lowest_required,
				 has_cases ?
					 "the delegate claimed no generated case at this version" :
					 why);
		/* Types its claim accepts first that it ran no case of. */
		if (has_cases)
			skip_untyped(r, cf_text_get(&suite),
				     c->info.input_types[0], c->input_types,
				     "the delegate claimed no generated case of that type");
	}
	if (suite.failed)
		r->out_of_memory = true;
	cf_text_free(&suite);
}
