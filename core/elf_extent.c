/* elf_extent.c - refuses shared objects cut short before dlopen maps them. */
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_extent.h"

/* Reads exactly `size` bytes at `offset`; false on a short file. */
static bool read_at(int fd, void *buffer, size_t size, uint64_t offset)
{
	ssize_t got = pread(fd, buffer, size, (off_t)offset);

	return got >= 0 && (size_t)got == size;
}

bool opver__elf_segments_fit(int fd, char *why, size_t why_size)
{
	ElfW(Ehdr) header;
	struct stat info;
	uint64_t file_size;

	if (fstat(fd, &info) != 0 || !read_at(fd, &header, sizeof(header), 0) ||
	    memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
	    header.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    header.e_phentsize != sizeof(ElfW(Phdr)))
		return true; /* dlopen names what is wrong */
	file_size = (uint64_t)info.st_size;
	if (header.e_phoff > file_size ||
	    (uint64_t)header.e_phnum * sizeof(ElfW(Phdr)) >
		    file_size - header.e_phoff) {
		snprintf(why, why_size,
			 "is cut short: its %u program headers end past its %llu bytes",
			 (unsigned)header.e_phnum,
			 (unsigned long long)file_size);
		return false;
	}
	for (unsigned i = 0; i < header.e_phnum; i++) {
		ElfW(Phdr) segment;

		if (!read_at(fd, &segment, sizeof(segment),
			     header.e_phoff + (uint64_t)i * sizeof(segment)))
			return true; /* shrank under us: dlopen will say */
		if (segment.p_type != PT_LOAD)
			continue;
		if (segment.p_offset > file_size ||
		    segment.p_filesz > file_size - segment.p_offset) {
			snprintf(why, why_size,
				 "is cut short: a loadable segment ends at byte %llu of a %llu-byte file (truncated by an interrupted copy or a full disk?)",
				 (unsigned long long)segment.p_offset +
					 (unsigned long long)segment.p_filesz,
				 (unsigned long long)file_size);
			return false;
		}
	}
	return true;
}
