/*
 * op_params.h - decodes a node's builtin options table into the parameter
 * struct of ops.h that kernels read.
 *
 * One table, keyed by op, says which options table (BuiltinOptions union
 * member) each op takes, how big its struct is and which function fills
 * it; adding an op is one entry and one decode function in op_params.c.
 * An absent options table gives the struct's defaults, as in TFLite.
 */
#ifndef OPVER_CORE_OP_PARAMS_H
#define OPVER_CORE_OP_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "flatbuffer.h"
#include "report.h"

/*
 * Decodes the options of a node whose op is `op`; `options_type` and
 * `options` are its builtin_options union (type 0 / pos 0 when absent).
 * On success *params is a new struct the caller owns (release with free())
 * and *params_size its size, or NULL and 0 for an op without a struct
 * (unknown ops and custom ops included).  On failure reports one line
 * "`where`: what is wrong" naming the field, and returns
 * OPVER_ERROR_INVALID_MODEL (or OPVER_ERROR_NOMEM).  `where` is borrowed
 * for the call, e.g. "model.tflite: node 3 (FULLY_CONNECTED) of subgraph 0".
 */
opver_status opver__op_params_decode(opver__fb *fb, int32_t op,
				     uint8_t options_type,
				     const opver__fb_table *options,
				     const char *where,
				     const opver__reporter *reporter,
				     void **params, size_t *params_size);

#endif /* OPVER_CORE_OP_PARAMS_H */
