/* elf_symbols.c - a shared object's dynamic symbols, read defensively. */
#include "elf_symbols.h"

#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <opver/plugin.h>

static void fail(cf_elf_error *why, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(cf_elf_error *why, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(why->text, sizeof(why->text), format, args);
	va_end(args);
}

typedef struct elf_field {
	size_t offset;
	size_t width;
} elf_field;

#define FIELD(type, member) \
	{ offsetof(type, member), sizeof(((type *)0)->member) }

/* Where the fields this reader needs sit in one ELF class. */
typedef struct elf_layout {
	size_t ehdr_size;
	elf_field e_type, e_shoff, e_shentsize, e_shnum;
	size_t shdr_size;
	elf_field sh_type, sh_link, sh_offset, sh_size, sh_entsize;
	size_t sym_size;
	elf_field st_name, st_info, st_other, st_shndx, st_value, st_size;
} elf_layout;

#define LAYOUT(E, S, Y)                                                   \
	{                                                                 \
		sizeof(E), FIELD(E, e_type), FIELD(E, e_shoff),           \
		FIELD(E, e_shentsize), FIELD(E, e_shnum), sizeof(S),      \
		FIELD(S, sh_type), FIELD(S, sh_link), FIELD(S, sh_offset), \
		FIELD(S, sh_size), FIELD(S, sh_entsize), sizeof(Y),       \
		FIELD(Y, st_name), FIELD(Y, st_info), FIELD(Y, st_other), \
		FIELD(Y, st_shndx), FIELD(Y, st_value), FIELD(Y, st_size) \
	}

static const elf_layout elf32_layout =
	LAYOUT(Elf32_Ehdr, Elf32_Shdr, Elf32_Sym);
static const elf_layout elf64_layout =
	LAYOUT(Elf64_Ehdr, Elf64_Shdr, Elf64_Sym);

typedef struct elf_file {
	const unsigned char *data;      /* the whole file */
	size_t size;
	const elf_layout *layout;
	bool big_endian;
} elf_file;

/* Reads `field` of the structure at file offset `base`, in the file's
 * byte order; false when it does not lie wholly inside the file. */
static bool elf_read(const elf_file *elf, uint64_t base, elf_field field,
		     uint64_t *value)
{
	const unsigned char *bytes;

	if (base > elf->size || field.offset > elf->size - base ||
	    field.width > elf->size - base - field.offset)
		return false;
	bytes = elf->data + base + field.offset;
	*value = 0;
	for (size_t i = 0; i < field.width; i++)
		*value = *value << 8 |
			 bytes[elf->big_endian ? i : field.width - 1 - i];
	return true;
}

/* One section's extent, checked to lie inside the file. */
typedef struct elf_section {
	uint64_t type, link, offset, size, entsize;
} elf_section;

static bool elf_section_at(const elf_file *elf, uint64_t shoff,
			   uint64_t shentsize, uint64_t index,
			   elf_section *section)
{
	const elf_layout *l = elf->layout;
	uint64_t base = shoff + index * shentsize;

	return elf_read(elf, base, l->sh_type, &section->type) &&
	       elf_read(elf, base, l->sh_link, &section->link) &&
	       elf_read(elf, base, l->sh_offset, &section->offset) &&
	       elf_read(elf, base, l->sh_size, &section->size) &&
	       elf_read(elf, base, l->sh_entsize, &section->entsize);
}

static bool elf_section_in_file(const elf_file *elf,
				const elf_section *section)
{
	return section->offset <= elf->size &&
	       section->size <= elf->size - section->offset;
}

/* Keeps the first CF_ELF_MAX_NAMES names, counts them all. */
static void list_add(cf_symbol_list *list, const char *name)
{
	if (list->count < CF_ELF_MAX_NAMES)
		list->names[list->count] = name;
	list->count++;
}

/* Symbols every link of a shared object defines, and the ODR indicators
 * gcc's AddressSanitizer gives each instrumented global: a vendor's
 * sanitizer build is no API the plugin offers. */
static bool linker_made(const char *name)
{
	static const char *const names[] = { "_init", "_fini", "_edata",
					     "_end", "__bss_start" };
	static const char odr_indicator[] = "__odr_asan.";

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return strncmp(name, odr_indicator, sizeof(odr_indicator) - 1) == 0;
}

/* Checks the ELF identification; sets elf->layout and byte order. */
static bool elf_identify(elf_file *elf, cf_elf_error *why)
{
	const unsigned char *ident = elf->data;

	if (elf->size < EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG) != 0) {
		fail(why, "not an ELF file");
		return false;
	}
	if (ident[EI_CLASS] == ELFCLASS32) {
		elf->layout = &elf32_layout;
	} else if (ident[EI_CLASS] == ELFCLASS64) {
		elf->layout = &elf64_layout;
	} else {
		fail(why, "unknown ELF class %u", ident[EI_CLASS]);
		return false;
	}
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB) {
		fail(why, "unknown ELF byte order %u", ident[EI_DATA]);
		return false;
	}
	elf->big_endian = ident[EI_DATA] == ELFDATA2MSB;
	if (elf->size < elf->layout->ehdr_size) {
		fail(why, "truncated: %zu bytes, shorter than an ELF header",
		    elf->size);
		return false;
	}
	return true;
}

/* Finds the SHT_DYNSYM section and its string table. */
static bool elf_find_dynsym(const elf_file *elf, elf_section *dynsym,
			    elf_section *dynstr, cf_elf_error *why)
{
	const elf_layout *l = elf->layout;
	uint64_t type, shoff, shentsize, shnum;
	elf_section first;

	/* The header fits: elf_identify checked. */
	elf_read(elf, 0, l->e_type, &type);
	elf_read(elf, 0, l->e_shoff, &shoff);
	elf_read(elf, 0, l->e_shentsize, &shentsize);
	elf_read(elf, 0, l->e_shnum, &shnum);
	if (type != ET_DYN) {
		fail(why, "ELF type %llu, not a shared object (ET_DYN)",
		    (unsigned long long)type);
		return false;
	}
	if (shoff == 0) {
		fail(why, "no section headers, so no symbol table to read");
		return false;
	}
	if (shentsize < l->shdr_size) {
		fail(why, "section header size %llu, below the %zu of its class",
		    (unsigned long long)shentsize, l->shdr_size);
		return false;
	}
	/* With 0xff00 sections or more, e_shnum is 0 and section 0's
	 * sh_size holds the count. */
	if (shnum == 0) {
		if (!elf_section_at(elf, shoff, shentsize, 0, &first))
			goto truncated;
		shnum = first.size;
	}
	if (shoff > elf->size || shnum > (elf->size - shoff) / shentsize)
		goto truncated;
	for (uint64_t i = 0; i < shnum; i++) {
		if (!elf_section_at(elf, shoff, shentsize, i, dynsym))
			goto truncated;
		if (dynsym->type != SHT_DYNSYM)
			continue;
		if (dynsym->entsize < l->sym_size) {
			fail(why, ".dynsym entry size %llu, below the %zu of its class",
			    (unsigned long long)dynsym->entsize, l->sym_size);
			return false;
		}
		if (dynsym->link >= shnum ||
		    !elf_section_at(elf, shoff, shentsize, dynsym->link,
				    dynstr) ||
		    dynstr->type != SHT_STRTAB) {
			fail(why, ".dynsym links to section %llu, which is not a string table",
			    (unsigned long long)dynsym->link);
			return false;
		}
		if (!elf_section_in_file(elf, dynsym) ||
		    !elf_section_in_file(elf, dynstr)) {
			fail(why, "truncated or corrupt: .dynsym or its string table lies past the end of the file (%zu bytes)",
			    elf->size);
			return false;
		}
		return true;
	}
	fail(why, "no .dynsym section: not a dynamically linked shared object");
	return false;
truncated:
	fail(why, "truncated or corrupt: %llu section headers at offset %llu do not fit in the file's %zu bytes",
	    (unsigned long long)shnum, (unsigned long long)shoff, elf->size);
	return false;
}

/* Sorts every global symbol of .dynsym into exports, pthreadpool's API
 * and opver_* imports. */
static bool elf_read_symbols(const elf_file *elf, cf_plugin_symbols *symbols,
			     cf_elf_error *why)
{
	const elf_layout *l = elf->layout;
	elf_section dynsym, dynstr;
	const char *strings;
	uint64_t count;

	if (!elf_find_dynsym(elf, &dynsym, &dynstr, why))
		return false;
	strings = (const char *)elf->data + dynstr.offset;
	count = dynsym.size / dynsym.entsize;
	/* Symbol 0 is the reserved undefined symbol. */
	for (uint64_t i = 1; i < count; i++) {
		uint64_t base = dynsym.offset + i * dynsym.entsize;
		uint64_t name_offset, info, other, shndx, value, size;
		const char *name;
		unsigned bind, type, visibility;

		if (!elf_read(elf, base, l->st_name, &name_offset) ||
		    !elf_read(elf, base, l->st_info, &info) ||
		    !elf_read(elf, base, l->st_other, &other) ||
		    !elf_read(elf, base, l->st_shndx, &shndx) ||
		    !elf_read(elf, base, l->st_value, &value) ||
		    !elf_read(elf, base, l->st_size, &size)) {
			fail(why, "truncated: symbol %llu lies past the end of the file",
			    (unsigned long long)i);
			return false;
		}
		if (name_offset >= dynstr.size ||
		    memchr(strings + name_offset, '\0',
			   dynstr.size - name_offset) == NULL) {
			fail(why, "corrupt: the name of symbol %llu runs past its string table",
			    (unsigned long long)i);
			return false;
		}
		name = strings + name_offset;
		/* The same bit layout in both classes. */
		bind = ELF64_ST_BIND(info);
		type = ELF64_ST_TYPE(info);
		visibility = ELF64_ST_VISIBILITY(other);
		if (bind == STB_LOCAL || name[0] == '\0')
			continue;
		if (shndx == SHN_UNDEF) {
			if (strncmp(name, "opver_", 6) == 0)
				list_add(&symbols->imports, name);
			continue;
		}
		if ((visibility != STV_DEFAULT && visibility != STV_PROTECTED) ||
		    type == STT_SECTION || type == STT_FILE)
			continue;
		if (strcmp(name, OPVER_PLUGIN_ENTRY_NAME) == 0) {
			symbols->has_entry = true;
			continue;
		}
		if (strcmp(name, CF_ABI1_ENTRY_NAME) == 0) {
			symbols->has_abi1_entry = true;
			continue;
		}
		/* A version script's version names (VERS_1 { global: ... })
		 * are absolute symbols with neither value nor size. */
		if (linker_made(name) ||
		    (shndx == SHN_ABS && type == STT_OBJECT && value == 0 &&
		     size == 0))
			continue;
		if (strncmp(name, "pthreadpool_", 12) == 0)
			list_add(&symbols->pthreadpool, name);
		else
			list_add(&symbols->exports, name);
	}
	return true;
}

bool cf_elf_read_symbols(const unsigned char *data, size_t size,
			 cf_plugin_symbols *symbols, cf_elf_error *why)
{
	elf_file elf = { .data = data, .size = size };

	*symbols = (cf_plugin_symbols){ .has_entry = false,
					.has_abi1_entry = false };
	why->text[0] = '\0';
	return elf_identify(&elf, why) && elf_read_symbols(&elf, symbols, why);
}
