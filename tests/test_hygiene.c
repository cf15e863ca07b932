/*
 * test_hygiene.c - opver-conformance's hygiene checks on plugins that get
 * each one wrong (tests/plugins/README), on a plugin built for ABI 1.x and
 * one that declines to load, on the reference plugin that gets them all
 * right, and on files that are not plugins at all: truncated and
 * corrupted copies, a file that is not ELF, and small ELF files of both
 * classes and byte orders written here with chosen symbols.  What a check
 * found is read back from the report's verbose summary.
 */
#include <criterion/criterion.h>
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <opver/version.h>

#include "conformance/hygiene.h"
#include "conformance/report.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define EXPORTS "exports only opver_plugin_negotiate"
#define IMPORTS "imports no opver_* symbols"
#define LOADS "loads through the public API"
#define HEAP "load/unload cycles leak no heap"
#define FDS "load/unload cycles leak no file descriptors"
#define MAPS "load/unload cycles leak no mappings"
#define INIT_FINI "plugin init and fini pair up"
#define NUM_CHECKS 7

/* Criterion runs each test in its own process: this state is per test. */
static cf_report *report;
static char *summary;
static char temp_paths[8][64];
static int num_temp;

static void setup(void)
{
	report = cf_report_new();
	cr_assert_not_null(report);
}

static void teardown(void)
{
	for (int i = 0; i < num_temp; i++)
		unlink(temp_paths[i]);
	cf_report_free(report);
	free(summary);
}

TestSuite(hygiene, .init = setup, .fini = teardown);

static void skip_heap_tests_under_asan(void)
{
	if (UNDER_ASAN)
		cr_skip_test("AddressSanitizer replaces glibc's allocator, so "
			     "mallinfo2 cannot see the heap grow");
}

/* Runs the checks on `path` and keeps the verbose summary. */
static void check(const char *path)
{
	size_t size;
	FILE *out;

	cf_check_hygiene(path, report);
	free(summary);
	summary = NULL;
	out = open_memstream(&summary, &size);
	cr_assert_not_null(out);
	cf_report_write_human(report, out, true);
	cr_assert_eq(fclose(out), 0);
	cr_assert_eq(cf_report_count(report, CF_PASS) +
			     cf_report_count(report, CF_FAIL) +
			     cf_report_count(report, CF_SKIP),
		     NUM_CHECKS, "%s", summary);
}

/* The summary's "OUTCOME hygiene: CHECK" line and the indented details
 * under it, or NULL when the check is missing.  Points into summary. */
static const char *result_of(const char *name, size_t *length)
{
	char line[128];
	const char *at, *end;

	snprintf(line, sizeof(line), " hygiene: %s\n", name);
	at = strstr(summary, line);
	if (at == NULL)
		return NULL;
	at -= 4;        /* "PASS", "FAIL" or "SKIP" */
	end = strchr(at, '\n') + 1;
	while (strncmp(end, "    ", 4) == 0)
		end = strchr(end, '\n') + 1;
	*length = (size_t)(end - at);
	return at;
}

static void assert_result(const char *name, const char *outcome,
			  const char *fragment)
{
	size_t length;
	const char *result = result_of(name, &length);
	char text[8192];

	cr_assert_not_null(result, "no check \"%s\" in:\n%s", name, summary);
	snprintf(text, sizeof(text), "%.*s", (int)length, result);
	cr_assert(strncmp(text, outcome, 4) == 0, "\"%s\" is not %s:\n%s",
		  name, outcome, text);
	if (fragment != NULL)
		cr_assert_not_null(strstr(text, fragment),
				   "\"%s\" does not say \"%s\":\n%s", name,
				   fragment, text);
}

static void assert_no_result_says(const char *name, const char *fragment)
{
	size_t length;
	const char *result = result_of(name, &length);
	char text[8192];

	cr_assert_not_null(result, "no check \"%s\" in:\n%s", name, summary);
	snprintf(text, sizeof(text), "%.*s", (int)length, result);
	cr_assert_null(strstr(text, fragment), "\"%s\" says \"%s\":\n%s", name,
		       fragment, text);
}

static const char *test_plugin(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s.so", TEST_PLUGIN_DIR, name);
	return path;
}

/* A new file holding bytes[0..size); removed after the test. */
static const char *temp_file(const void *bytes, size_t size)
{
	char *path;
	FILE *file;
	int fd;

	cr_assert_lt(num_temp, 8);
	path = temp_paths[num_temp];
	snprintf(path, sizeof(temp_paths[0]), "/tmp/opver-hygiene-test-XXXXXX.so");
	fd = mkstemps(path, 3);
	cr_assert_geq(fd, 0);
	num_temp++;
	file = fdopen(fd, "wb");
	cr_assert_not_null(file);
	cr_assert_eq(fwrite(bytes, 1, size, file), size);
	cr_assert_eq(fclose(file), 0);
	return path;
}

/* The reference plugin's bytes; caller frees. */
static unsigned char *reference_bytes(size_t *size)
{
	FILE *file = fopen(REFERENCE_PLUGIN, "rb");
	unsigned char *bytes;
	struct stat st;

	cr_assert_not_null(file, "%s", REFERENCE_PLUGIN);
	cr_assert_eq(fstat(fileno(file), &st), 0);
	*size = (size_t)st.st_size;
	bytes = malloc(*size);
	cr_assert_not_null(bytes);
	cr_assert_eq(fread(bytes, 1, *size, file), *size);
	fclose(file);
	return bytes;
}

/* The checks that need a loaded plugin, when it does not load. */
static void assert_leak_checks_skipped(void)
{
	assert_result(HEAP, "SKIP", "was not loaded");
	assert_result(FDS, "SKIP", "was not loaded");
	assert_result(MAPS, "SKIP", "was not loaded");
	assert_result(INIT_FINI, "SKIP", "was not loaded");
}

/* ---------------------------------------------------------------- plugins */

Test(hygiene, reference_plugin_passes_every_check)
{
	check(REFERENCE_PLUGIN);

	assert_result(EXPORTS, "PASS", NULL);
	assert_result(IMPORTS, "PASS", NULL);
	assert_result(LOADS, "PASS", "loaded reference");
	assert_result(LOADS, "PASS", "built for plugin ABI 2.");
	assert_result(FDS, "PASS", "open file descriptors: ");
	assert_result(MAPS, "PASS",
		      UNDER_ASAN ? "file mappings: " : "\n    mappings: ");
	if (UNDER_ASAN) {
		assert_result(HEAP, "SKIP", "mallinfo2");
	} else {
		assert_result(HEAP, "PASS", "heap in use: ");
		assert_result(INIT_FINI, "PASS", NULL);
	}
	cr_assert_eq(cf_report_count(report, CF_FAIL), 0, "%s", summary);
}

Test(hygiene, names_every_extra_export_and_the_way_to_hide_them)
{
	check(test_plugin("extra_exports"));

	assert_result(EXPORTS, "FAIL",
		      "exports 2 symbols besides opver_plugin_negotiate: ");
	assert_result(EXPORTS, "FAIL", "extra_exports_helper");
	assert_result(EXPORTS, "FAIL", "extra_exports_table");
	assert_result(EXPORTS, "FAIL", "-fvisibility=hidden");
	assert_result(EXPORTS, "FAIL", "-export-symbols-regex");
	/* Symbols every link defines are not the plugin's doing. */
	assert_no_result_says(EXPORTS, "_init");
	assert_no_result_says(EXPORTS, "_fini");
	assert_no_result_says(EXPORTS, "__bss_start");
	assert_no_result_says(EXPORTS, "__odr_asan");
	assert_result(IMPORTS, "PASS", NULL);
	assert_result(LOADS, "PASS", NULL);
}

Test(hygiene, finds_an_import_from_libopver)
{
	check(test_plugin("opver_import"));

	assert_result(IMPORTS, "FAIL",
		      "imports 1 opver_* symbol: opver_status_name");
	assert_result(IMPORTS, "FAIL", "opver_host");
	assert_result(EXPORTS, "PASS", NULL);
}

Test(hygiene, heap_growth_from_an_init_without_fini)
{
	unsigned long per_cycle = 0;
	size_t length;
	const char *heap;

	skip_heap_tests_under_asan();
	check(test_plugin("leaky_init"));

	assert_result(HEAP, "FAIL", "bytes per cycle");
	heap = result_of(HEAP, &length);
	cr_assert_not_null(strstr(heap, "("));
	cr_assert_eq(sscanf(strstr(heap, "("), "(%lu bytes per cycle",
			    &per_cycle), 1, "%.*s", (int)length, heap);
	cr_assert_geq(per_cycle, 4096, "%.*s", (int)length, heap);
	assert_result(INIT_FINI, "FAIL", "init but no fini");
	assert_result(FDS, "PASS", NULL);
	assert_result(MAPS, "PASS", NULL);
	assert_result(EXPORTS, "PASS", NULL);
	assert_result(LOADS, "PASS", NULL);
}

Test(hygiene, descriptors_and_mappings_left_open)
{
	check(test_plugin("leaky_handles"));

	assert_result(FDS, "FAIL", "after 20 load/unload cycles");
	assert_result(FDS, "FAIL", "does not close");
	assert_result(MAPS, "FAIL", "stays mapped");
}

/* good.so's init allocates through the host and its fini frees it. */
Test(hygiene, init_with_fini_that_frees_passes)
{
	skip_heap_tests_under_asan();
	check(test_plugin("good"));

	assert_result(HEAP, "PASS", NULL);
	assert_result(INIT_FINI, "PASS", "init and fini");
}

/* A plugin built for ABI 1.0 exports 1.x's entry point only: the export
 * check names it, and the core refuses it, naming both versions. */
Test(hygiene, a_plugin_built_for_abi_1_is_named_and_refused)
{
	check(test_plugin("abi10"));

	assert_result(EXPORTS, "FAIL",
		      "exports opver_plugin_entry, the entry point of plugin "
		      "ABI 1.x, and not opver_plugin_negotiate");
	assert_result(EXPORTS, "FAIL", "rebuild it");
	assert_no_result_says(EXPORTS, "besides");
	assert_result(IMPORTS, "PASS", NULL);
	assert_result(LOADS, "FAIL", "the plugin was not loaded");
	assert_result(LOADS, "FAIL", "plugin ABI 1.0");
	assert_result(LOADS, "FAIL", "opver_plugin_entry");
	assert_leak_checks_skipped();
}

/* A plugin that declines to load is clean, but does not load: the core's
 * message gives its reason. */
Test(hygiene, a_declining_plugin_fails_to_load_with_its_reason)
{
	check(test_plugin("declines"));

	assert_result(EXPORTS, "PASS", NULL);
	assert_result(IMPORTS, "PASS", NULL);
	assert_result(LOADS, "FAIL", "declined");
	assert_result(LOADS, "FAIL", "needs a device this machine lacks");
	assert_leak_checks_skipped();
}

/* Built against the next minor, needing only this one: it loads, and the
 * details say which ABI it was built for and the oldest it runs on. */
Test(hygiene, a_plugin_built_against_a_newer_minor_loads)
{
	char abi[96];

	snprintf(abi, sizeof(abi),
		 "built for plugin ABI %d.%d (runs on %d.%d and later)",
		 OPVER_ABI_MAJOR, OPVER_ABI_MINOR + 1, OPVER_ABI_MAJOR,
		 OPVER_ABI_MINOR);
	check(test_plugin("newer_minor"));

	assert_result(EXPORTS, "PASS", NULL);
	assert_result(LOADS, "PASS", "loaded newer_minor 1 by opver tests");
	assert_result(LOADS, "PASS", abi);
}

/* ---------------------------------------------------------------- files */

Test(hygiene, file_that_is_not_elf_fails_cleanly)
{
	static const char text[] = "this is not a plugin\n";

	check(temp_file(text, sizeof(text) - 1));

	assert_result(EXPORTS, "FAIL", "not an ELF file");
	assert_result(IMPORTS, "SKIP", "could not be read");
	assert_result(LOADS, "SKIP", "not handed to the dynamic loader");
	assert_leak_checks_skipped();
}

Test(hygiene, missing_file_fails_cleanly)
{
	check("/nonexistent/opver/plugin.so");

	assert_result(EXPORTS, "FAIL", "cannot open");
	assert_result(LOADS, "SKIP", NULL);
	assert_leak_checks_skipped();
}

Test(hygiene, truncated_copies_fail_cleanly)
{
	size_t size, cuts[] = { 0, 3, 16, 40, 64, 200, 0, 0 };
	unsigned char *bytes = reference_bytes(&size);

	cuts[6] = size / 2;
	cuts[7] = size - 1;
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		cf_report_free(report);
		report = cf_report_new();
		num_temp = 0;
		check(temp_file(bytes, cuts[i]));
		unlink(temp_paths[0]);
		cr_assert_eq(cf_report_count(report, CF_FAIL) >= 1, true);
		assert_result(EXPORTS, "FAIL",
			      cuts[i] < 16 ? "not an ELF file" : "truncated");
		assert_result(IMPORTS, "SKIP", NULL);
		assert_result(LOADS, "SKIP", NULL);
		assert_leak_checks_skipped();
	}
	free(bytes);
}

/* Offsets into a copy of the reference plugin, read the simple way: this
 * machine's ELF64.  The fields a hostile file would lie about. */
typedef struct reference_layout {
	size_t shoff, shnum, dynsym, dynstr;
	Elf64_Ehdr header;
	Elf64_Shdr dynsym_header;
} reference_layout;

static void find_reference_layout(const unsigned char *bytes, size_t size,
				  reference_layout *layout)
{
	Elf64_Shdr section;

	if (bytes[EI_CLASS] != ELFCLASS64 || bytes[EI_DATA] != ELFDATA2LSB ||
	    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		cr_skip_test("corrupting copies is written for 64-bit "
			     "little-endian hosts");
	memcpy(&layout->header, bytes, sizeof(layout->header));
	layout->shoff = offsetof(Elf64_Ehdr, e_shoff);
	layout->shnum = offsetof(Elf64_Ehdr, e_shnum);
	layout->dynsym = 0;
	for (size_t i = 0; i < layout->header.e_shnum; i++) {
		size_t at = layout->header.e_shoff + i * sizeof(section);

		cr_assert_leq(at + sizeof(section), size);
		memcpy(&section, bytes + at, sizeof(section));
		if (section.sh_type == SHT_DYNSYM) {
			layout->dynsym = at;
			layout->dynsym_header = section;
			layout->dynstr = layout->header.e_shoff +
					 section.sh_link * sizeof(section);
		}
	}
	cr_assert_neq(layout->dynsym, 0);
}

/* Checks a copy of the reference plugin with `width` bytes at `offset`
 * set to `value`: the export check fails saying `reason`, and the copy is
 * not loaded (a corrupt .dynsym can crash the dynamic loader). */
static void check_corrupted(const unsigned char *bytes, size_t size,
			    size_t offset, size_t width, uint64_t value,
			    const char *reason)
{
	unsigned char *copy = malloc(size);

	cr_assert_not_null(copy);
	memcpy(copy, bytes, size);
	memcpy(copy + offset, &value, width);
	cf_report_free(report);
	report = cf_report_new();
	num_temp = 0;
	check(temp_file(copy, size));
	unlink(temp_paths[0]);
	free(copy);
	assert_result(EXPORTS, "FAIL", reason);
	assert_result(LOADS, "SKIP", NULL);
}

Test(hygiene, corrupted_copies_fail_cleanly)
{
	size_t size;
	unsigned char *bytes = reference_bytes(&size);
	reference_layout l;
	size_t first_symbol;

	find_reference_layout(bytes, size, &l);
	first_symbol = l.dynsym_header.sh_offset + sizeof(Elf64_Sym);
	check_corrupted(bytes, size, l.shoff, 8, UINT64_MAX - 63,
			"section headers at offset");
	check_corrupted(bytes, size, l.shnum, 2, 0xfff0,
			"section headers at offset");
	check_corrupted(bytes, size, l.dynsym + offsetof(Elf64_Shdr, sh_offset),
			8, UINT64_MAX / 2, "past the end of the file");
	check_corrupted(bytes, size, l.dynsym + offsetof(Elf64_Shdr, sh_size),
			8, UINT64_MAX - 7, "past the end of the file");
	check_corrupted(bytes, size,
			l.dynsym + offsetof(Elf64_Shdr, sh_entsize), 8, 0,
			"entry size 0");
	check_corrupted(bytes, size, l.dynsym + offsetof(Elf64_Shdr, sh_link),
			4, 0xffffff, "not a string table");
	check_corrupted(bytes, size, l.dynstr + offsetof(Elf64_Shdr, sh_size),
			8, UINT64_MAX, "past the end of the file");
	check_corrupted(bytes, size, first_symbol + offsetof(Elf64_Sym, st_name),
			4, 0xfffffff0, "runs past its string table");
	check_corrupted(bytes, size, offsetof(Elf64_Ehdr, e_type), 2, ET_EXEC,
			"not a shared object");
	free(bytes);
}

/* ---------------------------------------------------------------- ELF */

/* One symbol of a made-up .dynsym. */
typedef struct symbol {
	const char *name;
	unsigned bind, type, visibility;
	unsigned shndx;         /* SHN_UNDEF, SHN_ABS or 1 (some section) */
} symbol;

typedef struct blob {
	unsigned char bytes[16384];
	bool big_endian;
} blob;

static void put(blob *b, size_t offset, size_t width, uint64_t value)
{
	cr_assert_leq(offset + width, sizeof(b->bytes));
	for (size_t i = 0; i < width; i++)
		b->bytes[offset + i] = (unsigned char)(value >> 8 *
			(b->big_endian ? width - 1 - i : i));
}

#define SET(T, member, base, value) \
	put(b, (base) + offsetof(T, member), sizeof(((T *)0)->member), (value))

/* Header, .dynstr, .dynsym and section headers (null, .dynsym, .dynstr)
 * of one ELF class; returns the file's size. */
#define WRITE_ELF(E, S, Y)                                                   \
	do {                                                                 \
		size_t names = sizeof(E), syms, shdrs, name_at = 1;          \
		for (size_t i = 0; i < n; i++)                               \
			name_at += strlen(symbols[i].name) + 1;              \
		syms = (names + name_at + 7) & ~(size_t)7;                   \
		shdrs = syms + (n + 1) * sizeof(Y);                          \
		SET(E, e_type, 0, ET_DYN);                                   \
		SET(E, e_version, 0, EV_CURRENT);                            \
		SET(E, e_ehsize, 0, sizeof(E));                              \
		SET(E, e_shoff, 0, shdrs);                                   \
		SET(E, e_shentsize, 0, sizeof(S));                           \
		SET(E, e_shnum, 0, 3);                                       \
		SET(S, sh_type, shdrs + sizeof(S), SHT_DYNSYM);              \
		SET(S, sh_offset, shdrs + sizeof(S), syms);                  \
		SET(S, sh_size, shdrs + sizeof(S), (n + 1) * sizeof(Y));     \
		SET(S, sh_link, shdrs + sizeof(S), 2);                       \
		SET(S, sh_info, shdrs + sizeof(S), 1);                       \
		SET(S, sh_entsize, shdrs + sizeof(S), sizeof(Y));            \
		SET(S, sh_type, shdrs + 2 * sizeof(S), SHT_STRTAB);          \
		SET(S, sh_offset, shdrs + 2 * sizeof(S), names);             \
		SET(S, sh_size, shdrs + 2 * sizeof(S), name_at);             \
		name_at = 1;                                                 \
		for (size_t i = 0; i < n; i++) {                             \
			size_t at = syms + (i + 1) * sizeof(Y);              \
			strcpy((char *)b->bytes + names + name_at,           \
			       symbols[i].name);                             \
			SET(Y, st_name, at, name_at);                        \
			SET(Y, st_info, at,                                  \
			    ELF64_ST_INFO(symbols[i].bind, symbols[i].type)); \
			SET(Y, st_other, at, symbols[i].visibility);         \
			SET(Y, st_shndx, at, symbols[i].shndx);              \
			name_at += strlen(symbols[i].name) + 1;              \
		}                                                            \
		size = shdrs + 3 * sizeof(S);                                \
	} while (0)

/* A made-up shared object with these symbols, as a temp file. */
static const char *write_elf(int elf_class, int byte_order,
			     const symbol *symbols, size_t n)
{
	static blob storage;
	blob *b = &storage;
	size_t size;

	memset(b, 0, sizeof(*b));
	b->big_endian = byte_order == ELFDATA2MSB;
	memcpy(b->bytes, ELFMAG, SELFMAG);
	b->bytes[EI_CLASS] = (unsigned char)elf_class;
	b->bytes[EI_DATA] = (unsigned char)byte_order;
	b->bytes[EI_VERSION] = EV_CURRENT;
	if (elf_class == ELFCLASS64)
		WRITE_ELF(Elf64_Ehdr, Elf64_Shdr, Elf64_Sym);
	else
		WRITE_ELF(Elf32_Ehdr, Elf32_Shdr, Elf32_Sym);
	return temp_file(b->bytes, size);
}

#define DEFINED(name) { name, STB_GLOBAL, STT_FUNC, STV_DEFAULT, 1 }

static const symbol mixed[] = {
	DEFINED("opver_plugin_negotiate"),
	DEFINED("helper"),
	{ "weak_table", STB_WEAK, STT_OBJECT, STV_PROTECTED, 1 },
	{ "hidden_helper", STB_GLOBAL, STT_FUNC, STV_HIDDEN, 1 },
	{ "local_helper", STB_LOCAL, STT_FUNC, STV_DEFAULT, 1 },
	DEFINED("_init"),
	DEFINED("_fini"),
	{ "_end", STB_GLOBAL, STT_NOTYPE, STV_DEFAULT, 1 },
	{ "VERS_1", STB_GLOBAL, STT_OBJECT, STV_DEFAULT, SHN_ABS },
	{ "opver_runtime_create", STB_GLOBAL, STT_FUNC, STV_DEFAULT,
	  SHN_UNDEF },
	{ "memcpy", STB_GLOBAL, STT_FUNC, STV_DEFAULT, SHN_UNDEF },
};

static void check_mixed(int elf_class, int byte_order)
{
	check(write_elf(elf_class, byte_order, mixed,
			sizeof(mixed) / sizeof(mixed[0])));

	assert_result(EXPORTS, "FAIL",
		      "exports 2 symbols besides opver_plugin_negotiate: "
		      "helper, weak_table\n");
	assert_result(IMPORTS, "FAIL",
		      "imports 1 opver_* symbol: opver_runtime_create\n");
	assert_no_result_says(EXPORTS, "does not export");
	/* Not loadable (no program headers), and said so. */
	assert_result(LOADS, "FAIL", NULL);
}

Test(hygiene, reads_64_bit_little_endian)
{
	check_mixed(ELFCLASS64, ELFDATA2LSB);
}

Test(hygiene, reads_64_bit_big_endian)
{
	check_mixed(ELFCLASS64, ELFDATA2MSB);
}

Test(hygiene, reads_32_bit_little_endian)
{
	check_mixed(ELFCLASS32, ELFDATA2LSB);
}

Test(hygiene, reads_32_bit_big_endian)
{
	check_mixed(ELFCLASS32, ELFDATA2MSB);
}

Test(hygiene, lists_ten_exports_and_counts_the_rest)
{
	static const symbol many[] = {
		DEFINED("opver_plugin_negotiate"),
		DEFINED("f01"), DEFINED("f02"), DEFINED("f03"), DEFINED("f04"),
		DEFINED("f05"), DEFINED("f06"), DEFINED("f07"), DEFINED("f08"),
		DEFINED("f09"), DEFINED("f10"), DEFINED("f11"), DEFINED("f12"),
	};

	check(write_elf(ELFCLASS64, ELFDATA2LSB, many,
			sizeof(many) / sizeof(many[0])));

	assert_result(EXPORTS, "FAIL",
		      "exports 12 symbols besides opver_plugin_negotiate: f01, "
		      "f02, f03, f04, f05, f06, f07, f08, f09, f10 (and 2 "
		      "more)\n");
}

Test(hygiene, a_missing_entry_point_is_named)
{
	static const symbol none[] = {
		{ "memcpy", STB_GLOBAL, STT_FUNC, STV_DEFAULT, SHN_UNDEF },
	};

	check(write_elf(ELFCLASS32, ELFDATA2MSB, none, 1));

	assert_result(EXPORTS, "FAIL", "does not export opver_plugin_negotiate");
	assert_no_result_says(EXPORTS, "ABI 1.x");
	assert_no_result_says(EXPORTS, "besides");
	assert_result(IMPORTS, "PASS", NULL);
}

Test(hygiene, an_abi_1_entry_point_alone_is_named)
{
	static const symbol abi1[] = {
		DEFINED("opver_plugin_entry"),
		{ "malloc", STB_GLOBAL, STT_FUNC, STV_DEFAULT, SHN_UNDEF },
	};

	check(write_elf(ELFCLASS64, ELFDATA2LSB, abi1, 2));

	assert_result(EXPORTS, "FAIL",
		      "exports opver_plugin_entry, the entry point of plugin "
		      "ABI 1.x, and not opver_plugin_negotiate");
	assert_no_result_says(EXPORTS, "does not export");
	assert_no_result_says(EXPORTS, "besides");
	assert_result(IMPORTS, "PASS", NULL);
}

Test(hygiene, an_abi_1_entry_point_beside_the_2_x_one_is_named)
{
	static const symbol both[] = {
		DEFINED("opver_plugin_negotiate"),
		DEFINED("opver_plugin_entry"),
	};

	check(write_elf(ELFCLASS32, ELFDATA2MSB, both, 2));

	assert_result(EXPORTS, "FAIL",
		      "also exports opver_plugin_entry, the entry point of "
		      "plugin ABI 1.x");
	assert_no_result_says(EXPORTS, "besides");
}

Test(hygiene, only_the_entry_passes_the_symbol_checks)
{
	static const symbol clean[] = {
		DEFINED("opver_plugin_negotiate"),
		{ "malloc", STB_GLOBAL, STT_FUNC, STV_DEFAULT, SHN_UNDEF },
	};

	check(write_elf(ELFCLASS32, ELFDATA2LSB, clean, 2));

	assert_result(EXPORTS, "PASS", NULL);
	assert_result(IMPORTS, "PASS", NULL);
}

Test(hygiene, serving_pthreadpools_api_passes_and_is_said)
{
	static const symbol pool[] = {
		DEFINED("opver_plugin_negotiate"),
		DEFINED("pthreadpool_parallelize_1d"),
		DEFINED("pthreadpool_get_threads_count"),
	};

	check(write_elf(ELFCLASS64, ELFDATA2LSB, pool, 3));

	assert_result(EXPORTS, "PASS",
		      "serves pthreadpool's API to the libraries it runs (the "
		      "host's threads): pthreadpool_parallelize_1d, "
		      "pthreadpool_get_threads_count");
	assert_no_result_says(EXPORTS, "besides");
}
