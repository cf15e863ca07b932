/*
 * describe.h - how a case is written in its one-line name, in --list and
 * in failure details: tensor types, shapes and quantization.
 */
#ifndef OPVER_CONFORMANCE_DESCRIBE_H
#define OPVER_CONFORMANCE_DESCRIBE_H

#include "cases.h"
#include "text.h"

/* Appends the node's types, then its shapes:
 * "float32,float32,omitted->float32 [1,5,6,3] [1,3,3,6] - -> [1,5,6,6]"
 * for a node whose third input is omitted. */
void cf_describe_signature(cf_text *t, const cf_case *c);

/* Appends one indented line per quantized input and output ("  input 0:
 * scale 0.02 zero point -3"; per channel: the count, axis and range of
 * the scales), or "  none". */
void cf_describe_quantization(cf_text *t, const cf_case *c);

/* Appends "float32" for FLOAT32: the spelling of case lines. */
void cf_describe_type(cf_text *t, int32_t type);

/* Appends a tensor's type, shape and quantization: "int8 [1,5,6,3]
 * scale 0.02 zero point -3". */
void cf_describe_tensor(cf_text *t, const cf_tensor_desc *tensor);

/* Appends element i of `data` (of an opver_type) as the type spells it: a
 * number for FLOAT32 and the integer types, the bytes in hex (memory
 * order) for any other. */
void cf_describe_element(cf_text *t, int32_t type, const void *data, size_t i);

/* Appends `count` elements of `data`, `indent` before each line of 8. */
void cf_describe_values(cf_text *t, const char *indent, int32_t type,
			const void *data, size_t count);

#endif /* OPVER_CONFORMANCE_DESCRIBE_H */
