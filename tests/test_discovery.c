/* test_discovery.c - which plugin files a config leads to, in what order:
 * sections first, then sorted directory scans; disabled sections, files
 * named twice, shadowed names, relative and missing libraries. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discovery.h"
#include "messages.h"

static char root[64];
static messages captured;
static opver__reporter reporter;
static opver__plugin_source *sources;
static size_t count;

static void setup(void)
{
	strcpy(root, "/tmp/opver-discovery-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	messages_clear(&captured);
	reporter = messages_reporter(&captured);
	sources = NULL;
	count = 0;
}

static void teardown(void)
{
	char command[128];

	opver__plugin_sources_free(sources, count);
	snprintf(command, sizeof(command), "rm -rf '%s'", root);
	cr_expect_eq(system(command), 0);
}

TestSuite(discovery, .init = setup, .fini = teardown);

/* Creates ROOT/RELATIVE (an empty file, or a directory when it ends in
 * '/'); discovery only looks at files, it never loads them. */
static void make(const char *relative)
{
	char path[256];
	size_t length;
	FILE *file;

	snprintf(path, sizeof(path), "%s/%s", root, relative);
	length = strlen(path);
	if (path[length - 1] == '/') {
		cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
		return;
	}
	file = fopen(path, "w");
	cr_assert_not_null(file, "create %s", path);
	fclose(file);
}

/* ROOT/RELATIVE in a static buffer, one of 32 in rotation: enough for
 * every path one test holds at once. */
static char *at(const char *relative)
{
	static char paths[32][256];
	static int next;
	char *path = paths[next++ % 32];

	snprintf(path, 256, "%s/%s", root, relative);
	return path;
}

static opver__plugin_config section(const char *name, const char *library,
				    bool enabled)
{
	opver__plugin_config config = {
		.name = (char *)name,
		.library = (char *)library,
		.enabled = enabled,
		.file = at("opver.ini"),
		.line = 7,
	};

	return config;
}

static void discover(char **dirs, size_t num_dirs,
		     opver__plugin_config *sections, size_t num_sections)
{
	opver__config config = {
		.plugin_path = dirs,
		.num_plugin_path = num_dirs,
		.plugins = sections,
		.num_plugins = num_sections,
	};

	cr_assert_eq(opver__discover_plugins(&config, &reporter, &sources, &count),
		     OPVER_OK);
}

static void assert_source(size_t index, const char *path, const char *name,
			  bool from_section)
{
	cr_assert_lt(index, count, "only %zu sources", count);
	cr_assert_str_eq(sources[index].path, path);
	cr_assert_str_eq(sources[index].config_name, name);
	cr_assert_eq(sources[index].config != NULL, from_section);
}

Test(discovery, directory_files_load_in_sorted_order_by_stem)
{
	char *dirs[] = { at("d") };

	make("d/");
	make("d/zeta.so");
	make("d/alpha.so");
	make("d/notes.txt");
	make("d/beta.so");
	discover(dirs, 1, NULL, 0);
	cr_assert_eq(count, 3);
	assert_source(0, at("d/alpha.so"), "alpha", false);
	assert_source(1, at("d/beta.so"), "beta", false);
	assert_source(2, at("d/zeta.so"), "zeta", false);
}

Test(discovery, sections_come_first_and_are_not_loaded_again_by_the_scan)
{
	char *dirs[] = { at("d") };
	opver__plugin_config sections[] = {
		section("vendor", "zeta.so", true),
		section("beta", NULL, true),
	};

	make("d/");
	make("d/zeta.so");
	make("d/alpha.so");
	make("d/beta.so");
	discover(dirs, 1, sections, 2);
	cr_assert_eq(count, 3);
	assert_source(0, at("d/zeta.so"), "vendor", true);
	assert_source(1, at("d/beta.so"), "beta", true);
	assert_source(2, at("d/alpha.so"), "alpha", false);
}

Test(discovery, a_disabled_section_keeps_its_file_out_of_the_scan)
{
	char *dirs[] = { at("d") };
	opver__plugin_config sections[] = { section("alpha", NULL, false) };

	make("d/");
	make("d/alpha.so");
	make("d/beta.so");
	discover(dirs, 1, sections, 1);
	cr_assert_eq(count, 1);
	assert_source(0, at("d/beta.so"), "beta", false);
	cr_assert(messages_line_has(&captured, "info:", "opver.ini:7: [plugin.alpha] is disabled", NULL),
		  "%s", captured.text);
}

Test(discovery, a_later_directory_cannot_shadow_a_plugin_by_name)
{
	char *dirs[] = { at("d1"), at("d2") };
	opver__plugin_config sections[] = { section("gamma", NULL, false) };

	make("d1/");
	make("d2/");
	make("d1/alpha.so");
	make("d2/alpha.so");
	make("d2/gamma.so");
	discover(dirs, 2, sections, 1);
	cr_assert_eq(count, 1, "d2's alpha is shadowed; gamma's section is disabled");
	assert_source(0, at("d1/alpha.so"), "alpha", false);
	cr_assert(messages_line_has(&captured, "d2/alpha.so is not loaded", "'alpha'", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "d2/gamma.so is already named", NULL),
		  "the disabled section found and reserved it:\n%s", captured.text);
}

Test(discovery, one_file_reached_twice_loads_once)
{
	char *dirs[] = { at("d"), at("link") };
	opver__plugin_config sections[] = {
		section("first", "alpha.so", true),
		section("second", "alpha.so", true),
	};

	make("d/");
	make("d/alpha.so");
	cr_assert_eq(symlink(at("d"), at("link")), 0);
	discover(dirs, 2, sections, 2);
	cr_assert_eq(count, 1);
	assert_source(0, at("d/alpha.so"), "first", true);
	cr_assert(messages_line_has(&captured, "warning:", "[plugin.second]",
				    "already named by an earlier section", NULL),
		  "%s", captured.text);
}

Test(discovery, library_paths_absolute_relative_and_missing)
{
	char *dirs[] = { at("d") };
	opver__plugin_config sections[] = {
		section("absolute", at("elsewhere/abs.so"), true),
		section("relative", "sub/rel.so", true),
		section("missing", "nowhere.so", true),
		section("gone", at("elsewhere/gone.so"), true),
	};

	make("d/");
	make("elsewhere/");
	make("elsewhere/abs.so");
	make("sub/");
	make("sub/rel.so");
	discover(dirs, 1, sections, 4);
	cr_assert_eq(count, 3);
	assert_source(0, at("elsewhere/abs.so"), "absolute", true);
	/* Relative to the directory of the config file that names it. */
	assert_source(1, at("sub/rel.so"), "relative", true);
	/* A missing absolute path is the loader's to report, with its file. */
	assert_source(2, at("elsewhere/gone.so"), "gone", true);
	cr_assert(messages_line_has(&captured, "error:", "opver.ini:7: [plugin.missing]",
				    "'nowhere.so' is in no plugin_path directory", NULL),
		  "%s", captured.text);
}

Test(discovery, unreadable_directories_and_dangling_links_are_reported)
{
	char *dirs[] = { at("absent"), at("d") };

	make("d/");
	cr_assert_eq(symlink(at("d/target.so"), at("d/dangling.so")), 0);
	discover(dirs, 2, NULL, 0);
	cr_assert_eq(count, 0);
	cr_assert(messages_line_has(&captured, "warning:", "absent", "cannot be read", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "warning:", "dangling.so cannot be used", NULL),
		  "%s", captured.text);
}
