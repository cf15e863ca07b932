/*
 * op_releases.c - TensorFlow Lite's table of the first runtime release that
 * runs each (op, version) (runtime_version.cc), and comparing releases.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "op_version.h"

/* The highest version runtime_version.cc lists for any op. */
#define RUNTIME_TABLE_VERSIONS 14

/*
 * TFLite's FindMinimumRuntimeVersionForOp table, one row per op by code:
 * entry v - 1 is the first release that runs version v, NULL where TFLite
 * lists none (BROADCAST_TO's version 1 was withdrawn).  TFLite's rows for
 * STABLEHLO_SHIFT_LEFT, STABLEHLO_CBRT and STABLEHLO_CASE are left out:
 * their codes are beyond opver_op.
 */
static const struct runtime_row {
	int32_t op;
	const char *first_release[RUNTIME_TABLE_VERSIONS];
} runtime_table[] = {
	{ OPVER_OP_ADD,
	  { "1.5.0", "1.14.0", "2.4.0", "2.6.0", "2.13.0", "2.23.0" } },
	{ OPVER_OP_AVERAGE_POOL_2D, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_CONCATENATION,
	  { "1.5.0", "1.14.0", "2.3.0", "2.14.0", "2.21.0" } },
	{ OPVER_OP_CONV_2D,
	  { "1.5.0", "1.14.0", "1.14.0", "2.3.0", "2.4.0", "2.9.0", "2.11.0",
	    "2.15.0" } },
	{ OPVER_OP_DEPTHWISE_CONV_2D,
	  { "1.5.0", "1.12.0", "1.14.0", "2.2.0", "2.3.0", "2.3.0",
	    "2.11.0" } },
	{ OPVER_OP_DEPTH_TO_SPACE, { "2.1.0", "2.5.0" } },
	{ OPVER_OP_DEQUANTIZE,
	  { "1.13.1", "1.14.0", "1.15.0", "2.2.0", "2.7.0", "2.18.0", "2.21.0",
	    "2.22.0" } },
	{ OPVER_OP_EMBEDDING_LOOKUP,
	  { "1.13.0", "1.14.0", "1.14.0", "2.18.0", "2.21.0" } },
	{ OPVER_OP_FLOOR, { "1.9.0" } },
	{ OPVER_OP_FULLY_CONNECTED,
	  { "1.5.0", "1.10.0", "1.14.0", "1.14.0", "2.0.0", "2.1.0", "2.3.0",
	    "2.3.0", "2.3.0", "2.11.0", "2.15.0", "2.17.0", "2.18.0",
	    "2.21.0" } },
	{ OPVER_OP_HASHTABLE_LOOKUP, { "1.5.0" } },
	{ OPVER_OP_L2_NORMALIZATION, { "1.5.0", "1.14.0" } },
	{ OPVER_OP_L2_POOL_2D, { "1.5.0" } },
	{ OPVER_OP_LOCAL_RESPONSE_NORMALIZATION, { "1.5.0" } },
	{ OPVER_OP_LOGISTIC, { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_LSH_PROJECTION, { "1.5.0" } },
	{ OPVER_OP_LSTM, { "1.7.0", "1.10.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_MAX_POOL_2D, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_MUL,
	  { "1.5.0", "1.14.0", "1.15.0", "2.3.0", "2.6.0", "2.11.0", "2.13.0",
	    "2.23.0" } },
	{ OPVER_OP_RELU, { "1.5.0", "2.1.0", "2.5.0" } },
	{ OPVER_OP_RELU_N1_TO_1, { "1.5.0" } },
	{ OPVER_OP_RELU6, { "1.5.0", "1.14.0", "2.5.0" } },
	{ OPVER_OP_RESHAPE, { "1.5.0" } },
	{ OPVER_OP_RESIZE_BILINEAR, { "1.7.0", "1.14.0", "2.2.0", "2.5.0" } },
	{ OPVER_OP_RNN, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_SOFTMAX, { "1.5.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_SPACE_TO_DEPTH, { "1.5.0", "1.14.0" } },
	{ OPVER_OP_SVDF, { "1.5.0", "1.14.0", "2.2.0", "2.3.0" } },
	{ OPVER_OP_TANH, { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_SKIP_GRAM, { "1.5.0" } },
	{ OPVER_OP_EMBEDDING_LOOKUP_SPARSE, { "1.5.0" } },
	{ OPVER_OP_PAD, { "1.5.0", "1.14.0", "2.4.0", "2.6.0", "2.20.0" } },
	{ OPVER_OP_UNIDIRECTIONAL_SEQUENCE_RNN,
	  { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_GATHER,
	  { "1.6.0", "1.14.0", "1.15.0", "2.4.0", "2.5.0", "2.13.0",
	    "2.15.0" } },
	{ OPVER_OP_BATCH_TO_SPACE_ND,
	  { "1.6.0", "1.14.0", "2.3.0", "2.12.0" } },
	{ OPVER_OP_SPACE_TO_BATCH_ND,
	  { "1.6.0", "1.14.0", "2.3.0", "2.12.0" } },
	{ OPVER_OP_TRANSPOSE,
	  { "1.6.0", "1.14.0", "1.15.0", "2.3.0", "2.4.0", "2.12.0", "2.14.4",
	    "2.22.0" } },
	{ OPVER_OP_MEAN, { "1.6.0", "1.14.0", "2.4.0" } },
	{ OPVER_OP_SUB, { "1.6.0", "1.14.0", "2.3.0", "2.4.0", "2.4.0" } },
	{ OPVER_OP_DIV, { "1.6.0", "2.3.0" } },
	{ OPVER_OP_SQUEEZE, { "1.6.0", "2.5.0" } },
	{ OPVER_OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
	  { "1.13.1", "1.14.0", "2.3.0", "2.12.0" } },
	{ OPVER_OP_STRIDED_SLICE,
	  { "1.6.0", "1.14.0", "2.1.0", "2.2.0", "2.5.0", "2.6.0", "2.14.0",
	    "2.14.0" } },
	{ OPVER_OP_BIDIRECTIONAL_SEQUENCE_RNN,
	  { "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_EXP, { "1.7.0", "2.12.0" } },
	{ OPVER_OP_TOPK_V2, { "1.7.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_SPLIT, { "1.5.0", "1.14.0", "1.14.0", "2.3.0" } },
	{ OPVER_OP_LOG_SOFTMAX, { "1.14.0", "1.14.0" } },
	{ OPVER_OP_BIDIRECTIONAL_SEQUENCE_LSTM,
	  { "1.14.0", "1.14.0", "1.14.0" } },
	{ OPVER_OP_CAST,
	  { "1.5.0", "2.7.0", "2.8.0", "2.9.0", "2.12.0", "2.15.0", "2.17.0",
	    "2.21.0" } },
	{ OPVER_OP_PRELU, { "1.8.0" } },
	{ OPVER_OP_MAXIMUM, { "1.14.0", "1.14.0", "2.3.0", "2.3.0" } },
	{ OPVER_OP_ARG_MAX, { "1.9.0", "1.14.0", "2.9.0" } },
	{ OPVER_OP_MINIMUM, { "1.14.0", "1.14.0", "2.3.0", "2.3.0" } },
	{ OPVER_OP_LESS, { "1.14.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_NEG, { "1.9.0" } },
	{ OPVER_OP_PADV2, { "1.9.0", "1.14.0", "2.4.0", "2.6.0", "2.20.0" } },
	{ OPVER_OP_GREATER, { "1.14.0", "1.14.0" } },
	{ OPVER_OP_GREATER_EQUAL, { "1.14.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_LESS_EQUAL, { "1.14.0", "1.14.0" } },
	{ OPVER_OP_SELECT, { "1.14.0", "1.14.0", "2.12.0", "2.12.0" } },
	{ OPVER_OP_SLICE,
	  { "1.14.0", "1.14.0", "1.14.0", "2.4.0", "2.5.0", "2.14.0",
	    "2.21.0" } },
	{ OPVER_OP_SIN, { "1.9.0" } },
	{ OPVER_OP_TRANSPOSE_CONV,
	  { "1.9.0", "2.2.0", "2.3.0", "2.13.0", "2.15.0" } },
	{ OPVER_OP_SPARSE_TO_DENSE, { "1.9.0", "1.14.0", "1.15.0" } },
	{ OPVER_OP_TILE, { "1.10.1", "2.2.0", "2.8.0" } },
	{ OPVER_OP_EXPAND_DIMS, { "1.10.0" } },
	{ OPVER_OP_EQUAL, { "1.14.0", "1.14.0", "2.3.0", "2.13.0", "2.21.0" } },
	{ OPVER_OP_NOT_EQUAL, { "1.14.0", "1.14.0", "2.3.0", "2.21.0" } },
	{ OPVER_OP_LOG, { "1.14.0", "2.15.0" } },
	{ OPVER_OP_SUM, { "1.10.0", "1.15.0" } },
	{ OPVER_OP_SQRT, { "1.10.0", "2.21.0" } },
	{ OPVER_OP_RSQRT, { "1.10.0", "2.5.0", "2.15.0" } },
	{ OPVER_OP_SHAPE, { "1.10.0" } },
	{ OPVER_OP_POW, { "1.10.0" } },
	{ OPVER_OP_ARG_MIN, { "1.9.0", "1.14.0", "2.9.0" } },
	{ OPVER_OP_FAKE_QUANT, { "1.5.0", "1.10.0" } },
	{ OPVER_OP_REDUCE_PROD, { "1.11.0", "2.6.0" } },
	{ OPVER_OP_REDUCE_MAX, { "1.11.0", "1.14.0", "2.5.0" } },
	{ OPVER_OP_PACK, { "1.11.0", "1.14.0", "2.3.0", "2.13.0" } },
	{ OPVER_OP_LOGICAL_OR, { "1.11.0" } },
	{ OPVER_OP_ONE_HOT, { "1.11.0" } },
	{ OPVER_OP_LOGICAL_AND, { "1.11.0" } },
	{ OPVER_OP_LOGICAL_NOT, { "1.11.0" } },
	{ OPVER_OP_UNPACK, { "1.11.0", "1.14.0", "2.2.0", "2.3.0", "2.22.0" } },
	{ OPVER_OP_REDUCE_MIN, { "1.11.0", "1.14.0", "2.5.0" } },
	{ OPVER_OP_FLOOR_DIV, { "1.14.0", "1.14.0", "2.13.0" } },
	{ OPVER_OP_REDUCE_ANY, { "1.11.0" } },
	{ OPVER_OP_SQUARE, { "1.12.0" } },
	{ OPVER_OP_ZEROS_LIKE, { "1.12.0" } },
	{ OPVER_OP_FILL, { "1.13.0", "2.3.0", "2.5.0", "2.12.0" } },
	{ OPVER_OP_FLOOR_MOD, { "1.13.0", "2.13.0" } },
	{ OPVER_OP_RANGE, { "1.13.0", "2.14.0" } },
	{ OPVER_OP_RESIZE_NEAREST_NEIGHBOR,
	  { "1.13.1", "1.14.0", "2.3.0", "2.4.0" } },
	{ OPVER_OP_LEAKY_RELU, { "1.13.1", "2.3.0" } },
	{ OPVER_OP_SQUARED_DIFFERENCE, { "1.13.1", "2.5.0" } },
	{ OPVER_OP_MIRROR_PAD, { "1.13.1", "2.3.0", "2.12.0" } },
	{ OPVER_OP_ABS, { "1.13.0", "2.4.0", "2.5.0", "2.6.0", "2.12.0" } },
	{ OPVER_OP_SPLIT_V, { "1.13.1", "2.3.0" } },
	{ OPVER_OP_UNIQUE, { "1.14.0" } },
	{ OPVER_OP_CEIL, { "1.14.0" } },
	{ OPVER_OP_REVERSE_V2, { "1.14.0", "2.2.0", "2.5.0" } },
	{ OPVER_OP_ADD_N, { "1.14.0" } },
	{ OPVER_OP_GATHER_ND,
	  { "1.14.0", "2.3.0", "2.5.0", "2.13.0", "2.16.0" } },
	{ OPVER_OP_COS, { "1.14.0" } },
	{ OPVER_OP_WHERE, { "1.14.0", "2.8.0" } },
	{ OPVER_OP_RANK, { "1.14.0" } },
	{ OPVER_OP_ELU, { "1.14.0" } },
	{ OPVER_OP_REVERSE_SEQUENCE, { "1.14.0" } },
	{ OPVER_OP_MATRIX_DIAG, { "1.14.0" } },
	{ OPVER_OP_QUANTIZE,
	  { "1.14.0", "1.15.0", "2.7.0", "2.21.0", "2.21.0", "2.21.0" } },
	{ OPVER_OP_MATRIX_SET_DIAG, { "1.14.0" } },
	{ OPVER_OP_ROUND, { "1.14.0" } },
	{ OPVER_OP_HARD_SWISH, { "1.15.0" } },
	{ OPVER_OP_IF, { "1.15.0" } },
	{ OPVER_OP_WHILE, { "1.15.0" } },
	{ OPVER_OP_NON_MAX_SUPPRESSION_V4, { "2.1.0" } },
	{ OPVER_OP_NON_MAX_SUPPRESSION_V5, { "2.1.0" } },
	{ OPVER_OP_SCATTER_ND, { "2.1.0" } },
	{ OPVER_OP_SELECT_V2, { "2.2.0", "2.12.0" } },
	{ OPVER_OP_DENSIFY, { "2.2.0" } },
	{ OPVER_OP_SEGMENT_SUM, { "2.2.0" } },
	{ OPVER_OP_BATCH_MATMUL, { "2.3.0", "2.3.0", "2.4.0", "2.5.0" } },
	{ OPVER_OP_CUMSUM, { "2.4.0" } },
	{ OPVER_OP_CALL_ONCE, { "2.5.0" } },
	{ OPVER_OP_BROADCAST_TO, { NULL, "2.5.0", "2.5.0" } },
	{ OPVER_OP_RFFT2D, { "2.5.0" } },
	{ OPVER_OP_CONV_3D, { "2.5.0" } },
	{ OPVER_OP_IMAG, { "2.5.0" } },
	{ OPVER_OP_REAL, { "2.5.0" } },
	{ OPVER_OP_COMPLEX_ABS, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE_FIND, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE_IMPORT, { "2.5.0" } },
	{ OPVER_OP_HASHTABLE_SIZE, { "2.5.0" } },
	{ OPVER_OP_REDUCE_ALL, { "2.6.0" } },
	{ OPVER_OP_CONV_3D_TRANSPOSE, { "2.6.0" } },
	{ OPVER_OP_VAR_HANDLE, { "2.6.0" } },
	{ OPVER_OP_READ_VARIABLE, { "2.6.0" } },
	{ OPVER_OP_ASSIGN_VARIABLE, { "2.6.0" } },
	{ OPVER_OP_BROADCAST_ARGS, { "2.6.0" } },
	{ OPVER_OP_RANDOM_STANDARD_NORMAL, { "2.8.0" } },
	{ OPVER_OP_BUCKETIZE, { "2.8.0" } },
	{ OPVER_OP_RANDOM_UNIFORM, { "2.8.0" } },
	{ OPVER_OP_MULTINOMIAL, { "2.8.0" } },
	{ OPVER_OP_GELU, { "2.9.0", "2.9.0" } },
	{ OPVER_OP_DYNAMIC_UPDATE_SLICE,
	  { "2.9.0", "2.17.0", "2.19.0", "2.20.0", "2.21.0", "2.22.0" } },
	{ OPVER_OP_RELU_0_TO_1, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_PROD, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_MAX, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_SUM, { "2.10.0" } },
	{ OPVER_OP_ATAN2, { "2.10.0" } },
	{ OPVER_OP_UNSORTED_SEGMENT_MIN, { "2.11.0" } },
	{ OPVER_OP_SIGN, { "2.11.0", "2.12.0" } },
	{ OPVER_OP_BITCAST, { "2.13.0" } },
	{ OPVER_OP_BITWISE_XOR, { "2.13.0" } },
	{ OPVER_OP_RIGHT_SHIFT, { "2.13.0" } },
	{ OPVER_OP_STABLEHLO_ADD, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_MULTIPLY, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_MAXIMUM, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_AND, { "2.17.0" } },
	{ OPVER_OP_STABLEHLO_MINIMUM, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_SCATTER, { "2.15.0" } },
	{ OPVER_OP_STABLEHLO_PAD, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_REDUCE_WINDOW, { "2.16.0" } },
	{ OPVER_OP_STABLEHLO_GATHER, { "2.16.0" } },
	{ OPVER_OP_DILATE, { "2.15.0" } },
	{ OPVER_OP_STABLEHLO_RNG_BIT_GENERATOR, { "2.15.0" } },
	{ OPVER_OP_REDUCE_WINDOW, { "2.15.0" } },
	{ OPVER_OP_STABLEHLO_COMPOSITE, { "2.17.0" } },
};

const char *opver__op_runtime_version(int32_t op, int32_t version)
{
	if (version < 1 || version > RUNTIME_TABLE_VERSIONS)
		return NULL;
	for (size_t i = 0; i < sizeof(runtime_table) / sizeof(runtime_table[0]);
	     i++)
		if (runtime_table[i].op == op)
			return runtime_table[i].first_release[version - 1];
	return NULL;
}

/*
 * Reads the component of a release string at *s ("14" of "1.14.0") and
 * moves *s to the next one, or to NULL after the last.  False when the
 * component is not a plain number ("0-rc1"): TFLite skips such
 * components in comparisons.
 */
static bool read_component(const char **s, long *value)
{
	const char *start = *s;
	const char *end = start + strcspn(start, ".");
	char *number_end;

	*value = strtol(start, &number_end, 10);
	*s = *end == '.' ? end + 1 : NULL;
	return end > start && isdigit((unsigned char)*start) &&
	       number_end == end;
}

/*
 * As TFLite's CompareRuntimeVersion: component by component while both
 * strings have one, skipping a pair that is not two numbers; then the
 * string with components left is the larger ("2.3" < "2.3.0").
 */
int opver__compare_runtime_versions(const char *a, const char *b)
{
	while (a != NULL && b != NULL) {
		long x, y;
		bool a_numeric = read_component(&a, &x);
		bool b_numeric = read_component(&b, &y);

		if (a_numeric && b_numeric && x != y)
			return x < y ? -1 : 1;
	}
	return (a != NULL) - (b != NULL);
}
