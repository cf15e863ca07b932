/*
 * opver/common.h - types shared by the host API and the plugin ABI.
 *
 *   opver_status   the one status enum every function returns
 *   opver_log_level severity of reported messages
 *   opver_type     tensor element types, numbered as in the .tflite format
 *   opver_tensor   a tensor as kernels and applications see it
 *   OPVER_TYPE_BIT type masks, as kernel signatures and kernel info use them
 *
 * Everything here is part of plugin ABI 2.0 and of the host API.
 *
 * The append rule.  A struct that carries struct_size grows only at its
 * end, and every field added after 2.0 starts at or beyond the previous
 * version's sizeof, so that a reader built for the older version, which
 * trusts struct_size (or params_size) to say which fields exist, never
 * mistakes the older writer's tail padding for a newer field.  The headers
 * make that mechanical: each such struct ends with OPVER_ABI_ENDS_AT(type,
 * last_field), which fails to compile while the struct has tail padding.
 * Whoever appends a field moves the assertion to it and comments the field
 * with the ABI minor that added it.  ABI structs hold fixed-width integers,
 * never enum types (an enum's width is the compiler's choice).  A struct
 * marked "Frozen" has no struct_size and can never change.
 */
#ifndef OPVER_COMMON_H
#define OPVER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks every symbol the library exports; the build hides the rest. */
#if defined(__GNUC__)
#define OPVER_API __attribute__((visibility("default")))
#else
#define OPVER_API
#endif

/* Bytes of `type` up to and including `field`. */
#define OPVER_SIZE_THROUGH(type, field) \
	(offsetof(type, field) + sizeof(((type *)0)->field))

#if defined(__cplusplus)
#define OPVER__STATIC_ASSERT(condition, message) \
	static_assert(condition, message)
#else
#define OPVER__STATIC_ASSERT(condition, message) \
	_Static_assert(condition, message)
#endif

/*
 * `type` ends exactly where `last` ends: no tail padding, so a field
 * appended later starts at or beyond this version's sizeof (the append
 * rule above).
 */
#define OPVER_ABI_ENDS_AT(type, last)                                     \
	OPVER__STATIC_ASSERT(sizeof(type) == OPVER_SIZE_THROUGH(type, last), \
			     #type " has tail padding after " #last         \
			     ": reorder or widen its fields")

/* Lets the compiler check printf-style format strings. */
#if defined(__GNUC__)
#define OPVER__PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define OPVER__PRINTF(fmt, args)
#endif

/*
 * Status codes.  X(name, value, description): the one table behind the enum,
 * opver_status_name() and opver_status_message().  New codes are appended
 * with the next value; a value never changes meaning.
 *
 *   ERROR_INVALID_MODEL   the core found the model file malformed; also what
 *                         a kernel's prepare returns for a node whose
 *                         tensors or parameters are invalid
 *   ERROR_MODEL_REJECTED  what the host API returns
 *                         when a kernel's or delegate's prepare returned
 *                         ERROR_INVALID_MODEL: the model is invalid in a way
 *                         only the kernel checks (a zero stride, a NaN
 *                         scale, a wrong bias length).  Every other status a
 *                         plugin returns becomes ERROR_PLUGIN.
 */
#define OPVER_STATUS_MAP(X)                                                   \
	X(OK, 0, "success")                                                   \
	X(ERROR, 1, "failure")                                                \
	X(ERROR_NOMEM, 2, "out of memory")                                    \
	X(ERROR_INVALID_ARGUMENT, 3, "invalid argument")                      \
	X(ERROR_IO, 4, "input/output error")                                  \
	X(ERROR_CONFIG, 5, "invalid configuration")                           \
	X(ERROR_PLUGIN, 6, "plugin cannot be used")                           \
	X(ERROR_INVALID_MODEL, 7, "model file is invalid")                    \
	X(ERROR_UNRESOLVED, 8, "no kernel for an op version the model needs") \
	X(ERROR_UNSUPPORTED, 9, "not supported")                              \
	X(ERROR_MODEL_REJECTED, 10, "a kernel rejected the model as invalid")

typedef enum opver_status {
#define OPVER__STATUS_ENUM(name, value, text) OPVER_##name = value,
	OPVER_STATUS_MAP(OPVER__STATUS_ENUM)
#undef OPVER__STATUS_ENUM
} opver_status;

/* Severity of a message passed to the reporter; a level shows itself and
 * everything more severe. */
typedef enum opver_log_level {
	OPVER_LOG_ERROR = 0,
	OPVER_LOG_WARNING = 1,
	OPVER_LOG_INFO = 2,
	OPVER_LOG_DEBUG = 3
} opver_log_level;

/* Tensor element types; the values are those of the .tflite TensorType. */
#define OPVER_TYPE_MAP(X)    \
	X(FLOAT32, 0, 4)     \
	X(FLOAT16, 1, 2)     \
	X(INT32, 2, 4)       \
	X(UINT8, 3, 1)       \
	X(INT64, 4, 8)       \
	X(STRING, 5, 0)      \
	X(BOOL, 6, 1)        \
	X(INT16, 7, 2)       \
	X(COMPLEX64, 8, 8)   \
	X(INT8, 9, 1)        \
	X(FLOAT64, 10, 8)    \
	X(COMPLEX128, 11, 16) \
	X(UINT64, 12, 8)     \
	X(RESOURCE, 13, 0)   \
	X(VARIANT, 14, 0)    \
	X(UINT32, 15, 4)     \
	X(UINT16, 16, 2)     \
	X(INT4, 17, 0)       \
	X(BFLOAT16, 18, 2)

typedef enum opver_type {
#define OPVER__TYPE_ENUM(name, value, size) OPVER_TYPE_##name = value,
	OPVER_TYPE_MAP(OPVER__TYPE_ENUM)
#undef OPVER__TYPE_ENUM
	OPVER_TYPE_COUNT
} opver_type;

/*
 * Type masks: bit OPVER_TYPE_BIT(t) set for each accepted opver_type, as in
 * kernel signatures (plugin.h) and kernel info (opver.h).  OPVER_T(INT8) is
 * OPVER_TYPE_BIT(OPVER_TYPE_INT8).
 */
#define OPVER_TYPE_BIT(type) (UINT32_C(1) << (type))
#define OPVER_T(name) OPVER_TYPE_BIT(OPVER_TYPE_##name)
/* In an input mask: the input may be omitted (an optional input). */
#define OPVER_TYPE_BIT_ABSENT (UINT32_C(1) << 31)

/* Whether `mask` has the bit of `type`; false for a type no mask can
 * name (negative, or past the bits OPVER_TYPE_BIT has). */
static inline bool opver_type_mask_has(uint32_t mask, int32_t type)
{
	return type >= 0 && type < 31 && (mask & OPVER_TYPE_BIT(type)) != 0;
}
/* Positions a type signature constrains. */
#define OPVER_SIGNATURE_INPUTS 4

/*
 * Quantization of a tensor: real = scale * (q - zero_point).  Per-tensor
 * when count is 1; per-channel along dimension `axis` when count > 1.
 * count is 0 for a tensor that is not quantized.  Frozen: embedded in
 * opver_tensor, so it can never grow.
 */
typedef struct opver_quantization {
	int32_t count;
	int32_t axis;
	/* Borrowed from the model; valid while the model is loaded. */
	const float *scale;
	/* Borrowed from the model; valid while the model is loaded. */
	const int64_t *zero_point;
} opver_quantization;

/*
 * Bytes past a non-constant tensor's data that may be read (added after 2.0):
 * optimized kernels load whole SIMD vectors (XNNPACK reads up to 16 bytes
 * past its inputs), so the arena ends with this much slack.
 */
#define OPVER_TENSOR_READ_SLACK 64

/*
 * A tensor.  The core owns every tensor and everything it points to; kernels
 * read these fields and write only the bytes at `data` of their outputs.
 */
typedef struct opver_tensor {
	/* Bytes of this struct the core filled; later fields read as absent. */
	uint32_t struct_size;
	/* An opver_type. */
	int32_t type;
	int32_t rank;
	/* 1 when `data` is a weight stored in the model, else 0. */
	uint8_t is_constant;
	/* rank entries.  Owned by the core; valid for the interpreter's life. */
	const int32_t *dims;
	/*
	 * `bytes` bytes of element data in row-major (NHWC) order.  Constant
	 * tensors point into the mapped model file and must not be written.
	 * Owned by the core.  For a constant tensor valid from prepare on; for
	 * any other, NULL during prepare (the arena is planned after every
	 * node is prepared, scratch included) and valid during invoke, where
	 * kernels read inputs and write outputs through it.  Never keep it.
	 * During invoke a tensor of 0 bytes (a dimension of 0) has data too,
	 * aligned, not NULL, that must not be written.
	 * A non-constant tensor's data may be read (never written) up to
	 * OPVER_TENSOR_READ_SLACK bytes past `bytes`, for SIMD loads.
	 */
	void *data;
	size_t bytes;
	opver_quantization quant;
	/* Borrowed from the model; may be "" but never NULL. */
	const char *name;
} opver_tensor;
OPVER_ABI_ENDS_AT(opver_tensor, name);

/* Number of elements of a tensor (1 for a scalar of rank 0). */
static inline size_t opver_tensor_elements(const opver_tensor *t)
{
	size_t n = 1;
	for (int32_t i = 0; i < t->rank; i++)
		n *= (size_t)t->dims[i];
	return n;
}

#ifdef __cplusplus
}
#endif

#endif /* OPVER_COMMON_H */
