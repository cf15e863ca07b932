/*
 * fuzz_target.h - the functions libFuzzer calls and offers, declared once
 * for the targets and the mutator that define or call them.
 */
#ifndef OPVER_FUZZ_TARGET_H
#define OPVER_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

/* Each target's entry: one input, `size` bytes borrowed for the call. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer's own mutation, and the hook that replaces it. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

#endif /* OPVER_FUZZ_TARGET_H */
