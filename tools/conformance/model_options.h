/*
 * model_options.h - the builtin options tables model_builder.c writes: a
 * FlatBuffer table being filled (its fields' widths and values), and each
 * op's options from its parameter struct (model_options.c).
 */
#ifndef OPVER_CONFORMANCE_MODEL_OPTIONS_H
#define OPVER_CONFORMANCE_MODEL_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* The most fields any table written here has (Operator's intermediates
 * are field 8). */
#define MAX_FIELDS 9

/* A table about to be written: per field id, its width (0: absent) and
 * value; an offset field is 4 bytes wide with its value patched later. */
typedef struct cf_table {
	uint8_t width[MAX_FIELDS];
	uint32_t value[MAX_FIELDS];
	unsigned num_ids;       /* highest id present + 1 */
} cf_table;

static inline void cf_set_field(cf_table *t, unsigned id, unsigned width,
				uint32_t value)
{
	t->width[id] = (uint8_t)width;
	t->value[id] = value;
	if (id + 1 > t->num_ids)
		t->num_ids = id + 1;
}

/* Whether the builder can write options for `op`. */
bool cf_has_options(int32_t op);

/*
 * Fills `t` with the options table of `op` (one cf_has_options() accepts)
 * from its parameter struct and returns the union type code.  RESHAPE's
 * new_shape and SQUEEZE's squeeze_dims are vectors, written by the caller.
 */
uint8_t cf_options_table(int32_t op, const void *params, cf_table *t);

#endif /* OPVER_CONFORMANCE_MODEL_OPTIONS_H */
