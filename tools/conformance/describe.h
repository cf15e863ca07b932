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

#endif /* OPVER_CONFORMANCE_DESCRIBE_H */
