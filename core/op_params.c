/*
 * op_params.c - the per-op table behind opver__op_params_decode(): for each
 * op with a parameter struct, the BuiltinOptions union member it takes and
 * the function that copies the options table into the struct, checking
 * every enum against the values ops.h knows.  Defaults are those of the
 * schema, so a missing field or table keeps the oldest op version's
 * behaviour.
 */
#include <stdlib.h>

#include "op_params.h"

/* What a decode function reads from and reports to. */
typedef struct options_reader {
	opver__fb *fb;
	const opver__fb_table *table;   /* pos 0: absent, every field default */
	const char *where;
	const opver__reporter *reporter;
} options_reader;

/* Fills `params` (zeroed, the entry's size); false after reporting. */
typedef bool (*decode_fn)(options_reader *r, void *params);

/* Reads a byte enum field and checks it lies in 0 .. max. */
static bool read_enum(options_reader *r, unsigned id, const char *field,
		      int8_t max, int32_t *out)
{
	int8_t value;

	if (!opver__fb_int8(r->fb, r->table, id, field, 0, &value)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	if (value < 0 || value > max) {
		opver__error(r->reporter,
			     "%s: %s is %d; valid values are 0 to %d",
			     r->where, field, value, max);
		return false;
	}
	*out = value;
	return true;
}

static bool read_bool(options_reader *r, unsigned id, const char *field,
		      bool *out)
{
	if (!opver__fb_bool(r->fb, r->table, id, field, false, out)) {
		opver__error(r->reporter, "%s: %s", r->where, r->fb->error);
		return false;
	}
	return true;
}

/* FullyConnectedOptions field ids (schema/opver.fbs). */
enum {
	FC_ACTIVATION,
	FC_WEIGHTS_FORMAT,
	FC_KEEP_NUM_DIMS,
	FC_ASYMMETRIC_QUANTIZE_INPUTS
};

static bool decode_fully_connected(options_reader *r, void *params)
{
	opver_fully_connected_params *p = params;
	int32_t activation, weights_format;

	if (!read_enum(r, FC_ACTIVATION, "fused_activation_function",
		       OPVER_ACTIVATION_SIGN_BIT, &activation) ||
	    !read_enum(r, FC_WEIGHTS_FORMAT, "weights_format",
		       OPVER_FC_WEIGHTS_SHUFFLED4x16INT8, &weights_format) ||
	    !read_bool(r, FC_KEEP_NUM_DIMS, "keep_num_dims",
		       &p->keep_num_dims) ||
	    !read_bool(r, FC_ASYMMETRIC_QUANTIZE_INPUTS,
		       "asymmetric_quantize_inputs",
		       &p->asymmetric_quantize_inputs))
		return false;
	p->activation = (opver_activation)activation;
	p->weights_format = (opver_fc_weights_format)weights_format;
	return true;
}

/*
 * Ops with a parameter struct.  options_type is the op's member of the
 * BuiltinOptions union, numbered as in TFLite's schema.
 */
static const struct op_params_entry {
	int32_t op;
	uint8_t options_type;
	const char *options_name;
	size_t size;
	decode_fn decode;
} entries[] = {
	{ OPVER_OP_FULLY_CONNECTED, 8, "FullyConnectedOptions",
	  sizeof(opver_fully_connected_params), decode_fully_connected },
};

opver_status opver__op_params_decode(opver__fb *fb, int32_t op,
				     uint8_t options_type,
				     const opver__fb_table *options,
				     const char *where,
				     const opver__reporter *reporter,
				     void **params, size_t *params_size)
{
	const struct op_params_entry *entry = NULL;
	options_reader r = { fb, options, where, reporter };
	void *p;

	*params = NULL;
	*params_size = 0;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if (entries[i].op == op)
			entry = &entries[i];
	if (entry == NULL)
		return OPVER_OK;
	if (options_type != 0 && options_type != entry->options_type) {
		opver__error(reporter,
			     "%s: builtin_options is of union type %u; %s takes %s (type %u)",
			     where, options_type, opver_op_name(op),
			     entry->options_name, entry->options_type);
		return OPVER_ERROR_INVALID_MODEL;
	}
	p = calloc(1, entry->size);
	if (p == NULL) {
		opver__error(reporter, "%s: out of memory for parameters",
			     where);
		return OPVER_ERROR_NOMEM;
	}
	if (!entry->decode(&r, p)) {
		free(p);
		return OPVER_ERROR_INVALID_MODEL;
	}
	*params = p;
	*params_size = entry->size;
	return OPVER_OK;
}
