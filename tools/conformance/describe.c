/* describe.c - cases in words. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "describe.h"

void cf_describe_type(cf_text *t, int32_t type)
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
			cf_describe_type(t, c->tensors[c->inputs[i]].type);
	}
	cf_text_add(t, "->");
	cf_describe_type(t, c->tensors[c->output].type);
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

/* The tensor's quantization parameters, without a newline. */
static void add_quantization_values(cf_text *t, const cf_tensor_desc *tensor)
{
	float lo, hi;

	if (tensor->num_scales == 0) {
		cf_text_add(t, "quantization table without parameters");
		return;
	}
	if (tensor->num_scales == 1) {
		cf_text_add(t, "scale %.9g zero point %" PRId64,
			    (double)tensor->scales[0], tensor->zero_points[0]);
		return;
	}
	lo = hi = tensor->scales[0];
	for (int32_t i = 1; i < tensor->num_scales; i++) {
		lo = fminf(lo, tensor->scales[i]);
		hi = fmaxf(hi, tensor->scales[i]);
	}
	cf_text_add(t, "%" PRId32 " scales along dimension %" PRId32 " (%.9g .. %.9g), zero point %" PRId64,
		    tensor->num_scales, tensor->quantized_dimension,
		    (double)lo, (double)hi, tensor->zero_points[0]);
}

static void add_quantization(cf_text *t, const char *what,
			     const cf_tensor_desc *tensor)
{
	cf_text_add(t, "  %s: ", what);
	add_quantization_values(t, tensor);
	cf_text_add(t, "\n");
}

void cf_describe_tensor(cf_text *t, const cf_tensor_desc *tensor)
{
	cf_describe_type(t, tensor->type);
	cf_text_add(t, " ");
	add_shape(t, tensor);
	if (tensor->quantized) {
		cf_text_add(t, " ");
		add_quantization_values(t, tensor);
	}
}

void cf_describe_element(cf_text *t, int32_t type, const void *data, size_t i)
{
	const uint8_t *bytes = data;
	size_t size = opver_type_size(type);

	switch (type) {
	case OPVER_TYPE_FLOAT32:
		cf_text_add(t, "%.9g", (double)((const float *)data)[i]);
		return;
	case OPVER_TYPE_INT8:
		cf_text_add(t, "%d", ((const int8_t *)data)[i]);
		return;
	case OPVER_TYPE_UINT8:
		cf_text_add(t, "%u", bytes[i]);
		return;
	case OPVER_TYPE_INT16:
		cf_text_add(t, "%d", ((const int16_t *)data)[i]);
		return;
	case OPVER_TYPE_INT32:
		cf_text_add(t, "%" PRId32, ((const int32_t *)data)[i]);
		return;
	case OPVER_TYPE_INT64:
		cf_text_add(t, "%" PRId64, ((const int64_t *)data)[i]);
		return;
	default:
		cf_text_add(t, "0x");
		for (size_t b = 0; b < size; b++)
			cf_text_add(t, "%02x", bytes[i * size + b]);
		return;
	}
}

void cf_describe_values(cf_text *t, const char *indent, int32_t type,
			const void *data, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		cf_text_add(t, "%s", i % 8 == 0 ? indent : " ");
		cf_describe_element(t, type, data, i);
		if (i % 8 == 7 || i + 1 == count)
			cf_text_add(t, "\n");
	}
	if (count == 0)
		cf_text_add(t, "%s(empty)\n", indent);
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
