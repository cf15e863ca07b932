/*
 * reduce.h - what the reductions (reduce.c) share with ARG_MAX and ARG_MIN
 * (arg_min_max.c): the check of an output's shape against the one the
 * reduction gives.  Internal to the plugin.
 */
#ifndef OPVER_REFERENCE_REDUCE_H
#define OPVER_REFERENCE_REDUCE_H

#include <stdint.h>

#include <opver/plugin.h>

/*
 * The output has shape want[0..rank-1]; otherwise reports "output 'O' has
 * shape [..]; SOURCE gives [..]" and returns OPVER_ERROR_INVALID_MODEL.
 * `source` says what gives the shape ("the reduction with keep_dims").
 */
opver_status ref_expect_output_shape(const opver_context *ctx,
				     const opver_tensor *output,
				     const int32_t *want, int32_t rank,
				     const char *source);

#endif /* OPVER_REFERENCE_REDUCE_H */
