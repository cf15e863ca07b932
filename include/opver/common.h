/*
 * opver/common.h - types shared by the host API and the plugin ABI.
 *
 *   opver_status   the one status enum every function returns
 *   opver_log_level severity of reported messages
 *   opver_type     tensor element types, numbered as in the .tflite format
 *   opver_tensor   a tensor as kernels and applications see it
 *
 * Everything here is part of plugin ABI 1.0.  Structs are append-only: a
 * field added later is commented with the ABI minor that added it.
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

/* Lets the compiler check printf-style format strings. */
#if defined(__GNUC__)
#define OPVER__PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define OPVER__PRINTF(fmt, args)
#endif

/*
 * Status codes.  X(name, value, description): the one table behind the enum,
 * opver_status_name() and opver_status_message().
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
	X(ERROR_UNSUPPORTED, 9, "not supported")

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
 * Quantization of a tensor: real = scale * (q - zero_point).  Per-tensor
 * when count is 1; per-channel along dimension `axis` when count > 1.
 * count is 0 for a tensor that is not quantized.
 */
typedef struct opver_quantization {
	int32_t count;
	/* Borrowed from the model; valid while the model is loaded. */
	const float *scale;
	/* Borrowed from the model; valid while the model is loaded. */
	const int64_t *zero_point;
	int32_t axis;
} opver_quantization;

/*
 * A tensor.  The core owns every tensor and everything it points to; kernels
 * read these fields and write only the bytes at `data` of their outputs.
 */
typedef struct opver_tensor {
	opver_type type;
	int32_t rank;
	/* rank entries.  Owned by the core; valid for the interpreter's life. */
	const int32_t *dims;
	/*
	 * `bytes` bytes of element data in row-major (NHWC) order.  Constant
	 * tensors point into the mapped model file and must not be written.
	 * Owned by the core; for non-constant tensors valid during prepare
	 * only as an address to remember, during invoke for reading/writing.
	 */
	void *data;
	size_t bytes;
	opver_quantization quant;
	/* Borrowed from the model; may be "" but never NULL. */
	const char *name;
	/* True when `data` is a weight stored in the model. */
	bool is_constant;
} opver_tensor;

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
