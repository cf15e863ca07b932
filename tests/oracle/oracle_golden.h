/*
 * oracle_golden.h - the golden files that hold TensorFlow Lite's outputs
 * (tests/oracle/README), and the fingerprints that tie each to the model
 * and inputs it was recorded on: an oracle case's (oracle_case.h), or a
 * case of the model corpus's (tests/test_corpus_tflite.c).
 *
 * A golden file is one text line, then the outputs' bytes back to back:
 *   opver-oracle 1 FINGERPRINT outputs N BYTES0 BYTES1 ...\n
 *   opver-oracle 1 FINGERPRINT refused WHY\n
 * FINGERPRINT is 16 hex digits.
 */
#ifndef OPVER_TEST_ORACLE_GOLDEN_H
#define OPVER_TEST_ORACLE_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most outputs a golden holds. */
#define ORACLE_MAX_OUTPUTS 8

/* A fingerprint is FNV-1a, 64 bits (small, and the same on every machine),
 * of the bytes fed to oracle_fingerprint() from this start value. */
#define ORACLE_FINGERPRINT_INIT UINT64_C(0xcbf29ce484222325)
uint64_t oracle_fingerprint(uint64_t hash, const void *data, size_t size);

/* Feeds the file at `path` into *hash; false when it cannot be read. */
bool oracle_file_fingerprint(const char *path, uint64_t *hash);

/*
 * The fingerprint of case `name` of `model` in the corpus at `dir`
 * (models/README.md): DIR/MODEL.tflite, then each of its `num_inputs`
 * input files in order.  False when a file cannot be read.
 */
bool oracle_corpus_fingerprint(const char *dir, const char *model,
			       const char *name, int num_inputs,
			       uint64_t *fingerprint);

typedef struct oracle_golden {
	uint64_t fingerprint;
	bool refused;
	/* When refused: TFLite's reason, one line. */
	char refusal[240];
	int32_t num_outputs;
	size_t bytes[ORACLE_MAX_OUTPUTS];
	/* Owned: output i is data + sum of bytes[0 .. i-1]. */
	uint8_t *data;
} oracle_golden;

/* Reads `path`.  False with a reason in `error` for a missing or malformed
 * file; oracle_golden_free() is due either way. */
bool oracle_golden_read(const char *path, oracle_golden *g, char *error,
			size_t error_size);
/* Writes `g` to `path`; false with a reason in `error`. */
bool oracle_golden_write(const char *path, const oracle_golden *g,
			 char *error, size_t error_size);
void oracle_golden_free(oracle_golden *g);

/* Output i of the golden. */
const uint8_t *oracle_golden_output(const oracle_golden *g, int32_t i);

#endif /* OPVER_TEST_ORACLE_GOLDEN_H */
