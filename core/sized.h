/*
 * sized.h - the two directions of the host API's struct_size rule
 * (opver.h): filling a caller's struct no further than it reaches, and
 * reading no further than the caller's struct_size says it filled.
 */
#ifndef OPVER_CORE_SIZED_H
#define OPVER_CORE_SIZED_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copies the first min(size, ours_size) bytes of *ours into *theirs, a
 * caller's struct of `size` bytes starting with uint32_t struct_size, and
 * sets that struct_size to the number copied (when it fits).
 */
void opver__copy_sized(void *theirs, const void *ours, size_t size,
		       size_t ours_size);

/*
 * Copies the first min(their_size, ours_size) bytes of a caller's struct
 * over *ours, which holds the defaults of every field the caller's struct
 * may lack, then restores our own struct_size.
 */
void opver__read_sized(void *ours, size_t ours_size, const void *theirs,
		       uint32_t their_size);

#endif /* OPVER_CORE_SIZED_H */
