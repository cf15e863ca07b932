/*
 * oracle_case.h - the cases checked against TensorFlow Lite itself, and
 * the golden files that hold TFLite's outputs for them.
 *
 *   oracle_case     one conformance case (tools/conformance/cases.h) of a
 *                   fixed seed, written as a model at the op version the
 *                   core's rules require, with a fingerprint of the model
 *                   and its inputs
 *   oracle_golden   what TFLite computed for a case, or that it refused
 *                   the model, read from or written to a .golden file
 *                   (oracle_golden.h)
 *
 * tests/oracle/record writes the goldens (it runs TFLite through
 * ../shared/tools/tflite-ref); tests/test_oracle compares the reference
 * plugin with them.  The fingerprint ties a golden to the exact model and
 * inputs it was recorded on, so a generator that changes makes its
 * goldens stale, and the test says so, instead of comparing different
 * cases.
 */
#ifndef OPVER_TEST_ORACLE_CASE_H
#define OPVER_TEST_ORACLE_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <opver/opver.h>

#include "conformance/cases.h"
#include "oracle_golden.h"

/* Every oracle case comes from this run seed... */
#define ORACLE_SEED 1
/* ...and each generator variant gives this many cases. */
#define ORACLE_REPETITIONS 2

typedef struct oracle_case {
	cf_case c;
	/* The version the model is written at: what the core requires. */
	int32_t version;
	/* The model, owned. */
	uint8_t *model;
	size_t model_size;
	uint64_t fingerprint;
	/* "VARIANT-REPETITION", the case's file name without .golden. */
	char name[24];
} oracle_case;

/* A runtime of the plugin at `path` alone (borrowed for the call), or NULL
 * after the core has reported why on stderr; caller destroys. */
opver_runtime *oracle_runtime(const char *path);

/*
 * Makes case (variant, repetition) of generator g: generates it, asks the
 * core (through `runtime`, borrowed, which must load a plugin that binds
 * the op) which version the node requires, and writes the model at that
 * version.  False with a one-line reason in `error` (error_size bytes);
 * oracle_case_free() is due either way.
 */
bool oracle_case_make(opver_runtime *runtime, const cf_generator *g,
		      int32_t variant, int32_t repetition, oracle_case *k,
		      char *error, size_t error_size);
void oracle_case_free(oracle_case *k);

/* Bytes of a tensor's data: its type's size times its elements. */
size_t oracle_tensor_bytes(const cf_tensor_desc *t);

#endif /* OPVER_TEST_ORACLE_CASE_H */
