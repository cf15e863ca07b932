/*
 * op_version_rows.h - TensorFlow Lite's version rules that are a list of
 * tests in a fixed order, as data (op_version_rows.c), for the evaluation in
 * op_version.c.  Internal to those two files.
 */
#ifndef OPVER_CORE_OP_VERSION_ROWS_H
#define OPVER_CORE_OP_VERSION_ROWS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Most of TFLite's rules are a list of tests in a fixed order, the first
 * branch whose tests all hold deciding the version.  Those rules are data
 * here: one row per branch, in TFLite's order, with the reason the row
 * gives.  An op with rows and no row that holds is version 1.  Rules that
 * derive facts (scales, per-channel filters, grouped convolution) are
 * functions in op_version.c.
 */
typedef enum rule_fact {
	FACT_NONE,        /* ends a row's tests */
	FACT_INPUT_TYPE,  /* input `index` has type `value` */
	FACT_OUTPUT_TYPE, /* output `index` has type `value` */
	FACT_INPUT_RANK_ABOVE, /* input `index` has more than `value` dims */
	FACT_INPUT_RANK_NOT,   /* input `index` has other than `value` dims */
	FACT_INPUT_RANK_IS,    /* input `index` has exactly `value` dims */
	FACT_ANY_RANK_ABOVE,   /* some input has more than `value` dims */
	FACT_INPUT_PRESENT,    /* optional input `index` is given */
	FACT_BROADCAST,   /* inputs 0 and 1 differ in shape */
	FACT_PARAM_SET,   /* the int32 parameter at byte `value` is nonzero */
	FACT_PARAM_CLEAR, /* the parameter struct is there and that int32 is
			   * 0: TFLite's "params && !params->field" */
	FACT_INPUT_QUANTIZED, /* input `index` has a quantization table,
			       * even an empty one: TFLite's input_quantized */
} rule_fact;

typedef struct rule_test {
	uint8_t fact;  /* a rule_fact */
	uint8_t index;
	int16_t value;
} rule_test;

#define RULE_MAX_TESTS 4

typedef struct rule_row {
	int16_t op;
	int16_t version;
	rule_test tests[RULE_MAX_TESTS];
	const char *reason;
} rule_row;

/* Every row, ops in no particular order, each op's rows in TFLite's. */
extern const rule_row opver__rule_rows[];
extern const size_t opver__num_rule_rows;

#endif /* OPVER_CORE_OP_VERSION_ROWS_H */
