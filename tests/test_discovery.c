/* test_discovery.c - which plugin files a config leads to, in what order:
 * sections first, then sorted directory scans; disabled sections, files
 * named twice, shadowed names, relative and missing libraries; plugin
 * directories and files that others can change are left out. */
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
static bool allow_writable;

static void setup(void)
{
	strcpy(root, "/tmp/opver-discovery-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	messages_clear(&captured);
	reporter = messages_reporter(&captured);
	sources = NULL;
	count = 0;
	allow_writable = false;
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
 * '/'); discovery only looks at files, it never loads them.  The mode is
 * set whatever the umask: others must not be able to write them. */
static void make(const char *relative)
{
	char path[256];
	size_t length;
	FILE *file;

	snprintf(path, sizeof(path), "%s/%s", root, relative);
	length = strlen(path);
	if (path[length - 1] == '/') {
		cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s", path);
		cr_assert_eq(chmod(path, 0755), 0);
		return;
	}
	file = fopen(path, "w");
	cr_assert_not_null(file, "create %s", path);
	fclose(file);
	cr_assert_eq(chmod(path, 0644), 0);
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
		.allow_writable_plugins = allow_writable,
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

Test(discovery, a_fifo_in_a_plugin_directory_is_skipped, .timeout = 10)
{
	char *dirs[] = { at("d") };

	make("d/");
	make("d/alpha.so");
	cr_assert_eq(mkfifo(at("d/pipe.so"), 0644), 0);
	discover(dirs, 1, NULL, 0);
	cr_assert_eq(count, 1, "%s", captured.text);
	assert_source(0, at("d/alpha.so"), "alpha", false);
	cr_assert(messages_line_has(&captured, "warning:", "pipe.so cannot be used",
				    "not a regular file", NULL),
		  "%s", captured.text);
}

/* ------------------------------------------------ who can change a plugin */

/* Refused with an error naming the path, the mode, who can write it and
 * the key that accepts it. */
static void assert_refused(const char *what, const char *path,
			   const char *mode, const char *who,
			   const char *refusal)
{
	char named[300];

	snprintf(named, sizeof(named), "%s '%s' %s", what, path, mode);
	cr_assert(messages_line_has(&captured, "error:", named, who, refusal,
				    "set allow_writable_plugins = true in [opver] to accept it",
				    NULL),
		  "no error for %s:\n%s", named, captured.text);
}

Test(discovery, group_writable_plugin_directory_is_not_scanned)
{
	char *dirs[] = { at("bad"), at("good") };

	make("bad/");
	make("bad/alpha.so");
	make("good/");
	make("good/beta.so");
	cr_assert_eq(chmod(at("bad"), 0775), 0);
	discover(dirs, 2, NULL, 0);
	cr_assert_eq(count, 1, "the rest still loads");
	assert_source(0, at("good/beta.so"), "beta", false);
	assert_refused("plugin directory", at("bad"), "(mode 0775)",
		       "(group-writable)",
		       ", not loading plugins from it;");
}

Test(discovery, world_writable_plugin_directory_is_not_scanned)
{
	char *dirs[] = { at("bad") };

	make("bad/");
	make("bad/alpha.so");
	cr_assert_eq(chmod(at("bad"), 01777), 0);
	discover(dirs, 1, NULL, 0);
	cr_assert_eq(count, 0);
	assert_refused("plugin directory", at("bad"), "(mode 1777)",
		       "(group-writable) and every user (world-writable)",
		       "not loading plugins from it");
}

Test(discovery, writable_plugin_files_are_refused)
{
	char *dirs[] = { at("d") };

	make("d/");
	make("d/alpha.so");
	make("d/beta.so");
	make("d/gamma.so");
	cr_assert_eq(chmod(at("d/alpha.so"), 0664), 0);
	cr_assert_eq(chmod(at("d/gamma.so"), 0646), 0);
	discover(dirs, 1, NULL, 0);
	cr_assert_eq(count, 1);
	assert_source(0, at("d/beta.so"), "beta", false);
	assert_refused("plugin file", at("d/alpha.so"), "(mode 0664)",
		       "group-writable", "not loading it");
	assert_refused("plugin file", at("d/gamma.so"), "(mode 0646)",
		       "every user (world-writable)", "not loading it");
}

Test(discovery, writable_library_of_a_section_is_refused_once)
{
	char *dirs[] = { at("d") };
	opver__plugin_config sections[] = {
		section("vendor", "alpha.so", true),
		section("other", "sub/other.so", true),
	};

	make("d/");
	make("d/alpha.so");
	make("sub/");
	make("sub/other.so");
	cr_assert_eq(chmod(at("d/alpha.so"), 0666), 0);
	cr_assert_eq(chmod(at("sub"), 0770), 0);
	discover(dirs, 1, sections, 2);
	cr_assert_eq(count, 0, "refused, and not found again by the scan");
	assert_refused("plugin file", at("d/alpha.so"), "(mode 0666)",
		       "world-writable", "not loading it");
	/* The directory of a library named by path: it can replace it. */
	assert_refused("plugin directory", at("sub"), "(mode 0770)",
		       "group-writable", "not loading");
	cr_assert_eq(captured.count[OPVER_LOG_ERROR], 2, "%s", captured.text);
}

Test(discovery, a_symlink_is_judged_by_its_target_and_its_directory)
{
	char *dirs[] = { at("d") };

	make("d/");
	make("elsewhere/");
	make("writable/");
	make("elsewhere/alpha.so");
	make("elsewhere/beta.so");
	make("writable/gamma.so");
	cr_assert_eq(chmod(at("elsewhere/alpha.so"), 0666), 0);
	cr_assert_eq(chmod(at("writable"), 0777), 0);
	cr_assert_eq(symlink(at("elsewhere/alpha.so"), at("d/alpha.so")), 0);
	cr_assert_eq(symlink(at("elsewhere/beta.so"), at("d/beta.so")), 0);
	cr_assert_eq(symlink(at("writable/gamma.so"), at("d/gamma.so")), 0);
	discover(dirs, 1, NULL, 0);
	cr_assert_eq(count, 1, "%s", captured.text);
	assert_source(0, at("d/beta.so"), "beta", false);
	assert_refused("plugin file", at("d/alpha.so"), "(mode 0666)",
		       "world-writable", "not loading it");
	assert_refused("plugin directory", at("writable"), "(mode 0777)",
		       "world-writable", "not loading");
}

Test(discovery, plugin_owned_by_another_user_is_refused)
{
	char *dirs[] = { at("d"), at("theirs") };

	if (geteuid() != 0)
		cr_skip_test("chown to uid 65534 needs root");
	make("d/");
	make("d/alpha.so");
	make("d/beta.so");
	make("theirs/");
	make("theirs/gamma.so");
	cr_assert_eq(chown(at("d/alpha.so"), 65534, 65534), 0);
	cr_assert_eq(chown(at("theirs"), 65534, 65534), 0);
	discover(dirs, 2, NULL, 0);
	cr_assert_eq(count, 1);
	assert_source(0, at("d/beta.so"), "beta", false);
	assert_refused("plugin file", at("d/alpha.so"), "(mode 0644)",
		       "its owner uid 65534 (neither root nor the effective uid 0)",
		       "not loading it");
	assert_refused("plugin directory", at("theirs"), "(mode 0755)",
		       "its owner uid 65534", "not loading plugins from it");
}

Test(discovery, allow_writable_plugins_accepts_them_with_one_note_per_path)
{
	char *dirs[] = { at("d") };
	opver__plugin_config sections[] = { section("vendor", "alpha.so", true) };

	make("d/");
	make("d/alpha.so");
	make("d/beta.so");
	cr_assert_eq(chmod(at("d"), 0777), 0);
	cr_assert_eq(chmod(at("d/alpha.so"), 0666), 0);
	allow_writable = true;
	discover(dirs, 1, sections, 1);
	cr_assert_eq(count, 2);
	assert_source(0, at("d/alpha.so"), "vendor", true);
	assert_source(1, at("d/beta.so"), "beta", false);
	cr_assert_eq(captured.count[OPVER_LOG_ERROR], 0, "%s", captured.text);
	/* The directory is reached three times: by the section's library,
	 * by the scan and as the directory of beta.so. */
	cr_assert_eq(captured.count[OPVER_LOG_INFO], 2, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "plugin directory '", at("d"),
				    "(mode 0777)", "accepted as allow_writable_plugins = true", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "plugin file '", at("d/alpha.so"),
				    "(mode 0666)", "accepted", NULL),
		  "%s", captured.text);
}
