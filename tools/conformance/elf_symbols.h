/*
 * elf_symbols.h - a plugin's exported and imported symbols, read from the
 * ELF dynamic symbol table (.dynsym) of its file's contents, without the
 * dynamic loader.
 */
#ifndef OPVER_CONFORMANCE_ELF_SYMBOLS_H
#define OPVER_CONFORMANCE_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

/* Symbol names kept per list. */
#define CF_ELF_MAX_NAMES 10

/* The entry point of plugin ABI 1.x, which a 2.x core does not call. */
#define CF_ABI1_ENTRY_NAME "opver_plugin_entry"

/* Up to CF_ELF_MAX_NAMES names of the symbols found, and how many there
 * were. */
typedef struct cf_symbol_list {
	const char *names[CF_ELF_MAX_NAMES];    /* borrowed from the data */
	size_t count;
} cf_symbol_list;

typedef struct cf_plugin_symbols {
	cf_symbol_list exports; /* visible definitions besides the entry
				   points */
	cf_symbol_list imports; /* undefined opver_* */
	/* Visible pthreadpool_* definitions: pthreadpool's API, which a
	 * plugin running a pthreadpool-based library (XNNPACK) on the host's
	 * threads serves to that library. */
	cf_symbol_list pthreadpool;
	bool has_entry;         /* defines opver_plugin_negotiate */
	bool has_abi1_entry;    /* defines 1.x's opver_plugin_entry */
} cf_plugin_symbols;

/* Why a file could not be read, one line. */
typedef struct cf_elf_error {
	char text[256];
} cf_elf_error;

/*
 * Sorts the global symbols of the ELF shared object in data[0..size) into
 * *symbols, whose names point into data (borrowed: valid while data is).
 * Every offset and size is checked against size before anything is read,
 * so a truncated or hostile file is an error, never a crash.  Both classes
 * (32- and 64-bit) and both byte orders are read: a plugin may be built
 * for another machine than the one checking it.  False with the reason in
 * *why when the symbols cannot be read.
 */
bool cf_elf_read_symbols(const unsigned char *data, size_t size,
			 cf_plugin_symbols *symbols, cf_elf_error *why);

#endif /* OPVER_CONFORMANCE_ELF_SYMBOLS_H */
