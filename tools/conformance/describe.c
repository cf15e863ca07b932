/* describe.c - cases in words. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "describe.h"

/* "float32" for FLOAT32: the spelling of case lines. */
static void add_type(cf_text *t, int32_t type)
{
	for (const char *p = opver_type_name(type); *p != '\0'; p++)
		cf_text_add(t, "%c", *p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
}

static void add_shape(cf_text *t, const cf_tensor_desc *tensor)
{
	cf_text_add(t, "[");
	for (int32_t d = 0; d < tensor->rank; d++)
		cf_text_add(t, "%s%" PRId32, d ? "," : "", tensor->dims[d]);
	cf_text_add(t, "]");
}

void cf_describe_signature(cf_text *t, const cf_case *c)
{
	for (int32_t i = 0; i < c->num_inputs; i++) {
		if (i > 0)
			cf_text_add(t, ",");
		if (c->inputs[i] < 0)
			cf_text_add(t, "omitted");
		else
			add_type(t, c->tensors[c->inputs[i]].type);
	}
	cf_text_add(t, "->");
	add_type(t, c->tensors[c->output].type);
	for (int32_t i = 0; i < c->num_inputs; i++) {
		cf_text_add(t, " ");
		if (c->inputs[i] < 0)
			cf_text_add(t, "-");
		else
			add_shape(t, &c->tensors[c->inputs[i]]);
	}
	cf_text_add(t, " -> ");
	add_shape(t, &c->tensors[c->output]);
}

static void add_quantization(cf_text *t, const char *what,
			     const cf_tensor_desc *tensor)
{
	float lo, hi;

	cf_text_add(t, "  %s: ", what);
	if (tensor->num_scales == 0) {
		cf_text_add(t, "quantization table without parameters\n");
		return;
	}
	if (tensor->num_scales == 1) {
		cf_text_add(t, "scale %.9g zero point %" PRId64 "\n",
			    (double)tensor->scales[0], tensor->zero_points[0]);
		return;
	}
	lo = hi = tensor->scales[0];
	for (int32_t i = 1; i < tensor->num_scales; i++) {
		lo = fminf(lo, tensor->scales[i]);
		hi = fmaxf(hi, tensor->scales[i]);
	}
	cf_text_add(t, "%" PRId32 " scales along dimension %" PRId32 " (%.9g .. %.9g), zero point %" PRId64 "\n",
		    tensor->num_scales, tensor->quantized_dimension,
		    (double)lo, (double)hi, tensor->zero_points[0]);
}

void cf_describe_quantization(cf_text *t, const cf_case *c)
{
	bool any = false;

	for (int32_t i = 0; i < c->num_inputs; i++) {
		char what[32];

		if (c->inputs[i] < 0 || !c->tensors[c->inputs[i]].quantized)
			continue;
		snprintf(what, sizeof(what), "input %d", (int)i);
		add_quantization(t, what, &c->tensors[c->inputs[i]]);
		any = true;
	}
	if (c->tensors[c->output].quantized) {
		add_quantization(t, "output", &c->tensors[c->output]);
		any = true;
	}
	if (!any)
		cf_text_add(t, "  none\n");
}
