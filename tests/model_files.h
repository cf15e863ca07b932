/*
 * model_files.h - what the test_model_reader_*.c suites share: the
 * model_reader suite (its .init clears the messages and makes the
 * reporters), opening the models built from the JSON files of tests/models,
 * reading files whole, and checks of decoded shapes and indices. Defined
 * in model_files.c.
 */
#ifndef OPVER_TESTS_MODEL_FILES_H
#define OPVER_TESTS_MODEL_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "messages.h"
#include "model_reader.h"

/* Every message of the current test; corruption runs report into
 * `ignored`, which nobody reads. */
extern messages captured, ignored;
extern opver__reporter capturing, silent;

/* The suite's .init: clears the messages and makes the reporters. */
void setup(void);

/* TEST_MODEL_DIR/NAME.tflite into path[size]. */
void model_path(char *path, size_t size, const char *name);

/* Opens model NAME of tests/models, reporting into `capturing`. */
opver_status open_model(const char *name, opver__model_file *file);

/* Opens model NAME, which must decode without a message. */
void open_good(const char *name, opver__model_file *file);

/* Reads model NAME whole into a new buffer (free() it). */
uint8_t *slurp_model(const char *name, size_t *size);

void assert_dims(const opver__graph_tensor *t, int32_t rank,
		 const int32_t *dims);
void assert_indices(int32_t count, const int32_t *got,
		    int32_t expected_count, const int32_t *expected);

/* True when [p, p + n) lies inside the mapping of `file`. */
bool in_mapping(const opver__model_file *file, const uint8_t *p,
		size_t n);

/* Float `index` of unaligned little-endian data. */
float float_at(const uint8_t *data, size_t index);

#endif
