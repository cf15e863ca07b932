/*
 * elf_extent.h - whether a shared object's file holds every segment its
 * program headers promise.  dlopen maps a truncated object (a half-written
 * upgrade, a full disk) and the process dies of SIGBUS when ld.so touches
 * the missing pages, so the loader asks this first.
 */
#ifndef OPVER_CORE_ELF_EXTENT_H
#define OPVER_CORE_ELF_EXTENT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when `fd` (an open file; its offset is not used) is not an ELF
 * object of this machine's class, which dlopen then refuses with its own
 * message, or when every PT_LOAD segment lies inside the file.  False with
 * the reason in `why` (why_size bytes) when the file is shorter than its
 * headers say.
 */
bool opver__elf_segments_fit(int fd, char *why, size_t why_size);

#endif /* OPVER_CORE_ELF_EXTENT_H */
