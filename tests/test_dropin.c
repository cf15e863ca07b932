/*
 * test_dropin.c - what a vendor package does: drop a plugin into a plugin
 * directory and its [plugin.NAME] section into a fragment directory, and
 * the runtime picks both up without the main config being edited; remove
 * them and the plugin is gone.  Also the order fragments are read in,
 * their errors as the runtime reports them, plugins and fragments that
 * others can change, and the default config (no config path).
 *
 * Each test gets ROOT (a mkdtemp directory) holding opver.ini, which names
 * plugin_path = plugins and fragment_dir = opver.d, and those two
 * directories.  Modes are set explicitly, whatever the umask.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "discovery.h"
#include "messages.h"
#include "opver/opver.h"

static char root[64];
static messages captured;
static opver_runtime *runtime;

/* ROOT/RELATIVE in a static buffer, one of 16 in rotation. */
static char *at(const char *relative)
{
	static char paths[16][256];
	static int next;
	char *path = paths[next++ % 16];

	snprintf(path, 256, "%s/%s", root, relative);
	return path;
}

static void write_file(const char *relative, const char *text, mode_t mode)
{
	FILE *file = fopen(at(relative), "w");

	cr_assert_not_null(file, "create %s: %s", at(relative), strerror(errno));
	cr_assert_eq(fputs(text, file) >= 0, true);
	cr_assert_eq(fclose(file), 0);
	cr_assert_eq(chmod(at(relative), mode), 0);
}

static void make_dir(const char *relative)
{
	cr_assert_eq(mkdir(at(relative), 0755), 0, "mkdir %s", at(relative));
	cr_assert_eq(chmod(at(relative), 0755), 0);
}

/* The main config: the two directories, then `extra` [opver] lines. */
static void write_main(const char *extra)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "[opver]\nplugin_path = plugins\nfragment_dir = opver.d\n%s",
		 extra);
	write_file("opver.ini", text, 0644);
}

static void setup(void)
{
	strcpy(root, "/tmp/opver-dropin-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	messages_clear(&captured);
	runtime = NULL;
	make_dir("plugins");
	make_dir("opver.d");
	write_main("");
}

static void teardown(void)
{
	char command[128];

	opver_runtime_destroy(runtime);
	snprintf(command, sizeof(command), "rm -rf '%s'", root);
	cr_expect_eq(system(command), 0);
}

TestSuite(dropin, .init = setup, .fini = teardown);

/* Copies test plugin TEST_PLUGIN_DIR/NAME.so to ROOT/RELATIVE, mode 0644,
 * as a package manager installs it. */
static void install(const char *name, const char *relative)
{
	char source[512];
	char buffer[65536];
	FILE *in, *out;
	size_t length;

	snprintf(source, sizeof(source), "%s/%s.so", TEST_PLUGIN_DIR, name);
	in = fopen(source, "rb");
	cr_assert_not_null(in, "%s: %s", source, strerror(errno));
	out = fopen(at(relative), "wb");
	cr_assert_not_null(out, "%s: %s", at(relative), strerror(errno));
	while ((length = fread(buffer, 1, sizeof(buffer), in)) > 0)
		cr_assert_eq(fwrite(buffer, 1, length, out), length);
	cr_assert_eq(ferror(in), 0);
	fclose(in);
	cr_assert_eq(fclose(out), 0);
	cr_assert_eq(chmod(at(relative), 0644), 0);
}

/* Starts a runtime on ROOT/opver.ini, capturing every message. */
static opver_status start(void)
{
	opver_runtime_options options;

	opver_runtime_destroy(runtime);
	runtime = NULL;
	messages_clear(&captured);
	opver_runtime_options_init(&options);
	options.config_path = at("opver.ini");
	options.log = messages_log;
	options.log_user_data = &captured;
	options.log_level = OPVER_LOG_DEBUG;
	return opver_runtime_create(&options, &runtime);
}

static void start_ok(void)
{
	cr_assert_eq(start(), OPVER_OK, "%s", captured.text);
}

/* The index of the loaded plugin whose config name is `name`, or -1. */
static int plugin_index(const char *name)
{
	opver_plugin_info info;

	for (size_t i = 0; i < opver_runtime_plugin_count(runtime); i++) {
		cr_assert_eq(opver_runtime_plugin_info(runtime, i, &info), OPVER_OK);
		if (strcmp(info.config_name, name) == 0)
			return (int)i;
	}
	return -1;
}

/* Asserts every kernel of loaded plugin `index` has `priority`. */
static void assert_priority(int index, int32_t priority)
{
	opver_plugin_info plugin;
	opver_kernel_info kernel;

	cr_assert_geq(index, 0, "not loaded:\n%s", captured.text);
	cr_assert_eq(opver_runtime_plugin_info(runtime, (size_t)index, &plugin),
		     OPVER_OK);
	cr_assert_gt(plugin.num_kernels, 0);
	for (size_t k = 0; k < plugin.num_kernels; k++) {
		cr_assert_eq(opver_runtime_kernel_info(runtime, (size_t)index, k,
						       &kernel),
			     OPVER_OK);
		cr_assert_eq(kernel.priority, priority, "kernel %s: %d",
			     kernel.name, kernel.priority);
	}
}

Test(dropin, dropped_plugin_and_fragment_load_and_removing_them_removes_it)
{
	struct stat before, after;

	cr_assert_eq(stat(at("opver.ini"), &before), 0);
	start_ok();
	cr_assert_eq(opver_runtime_plugin_count(runtime), 0);

	install("good", "plugins/acme.so");
	write_file("opver.d/50-acme.ini",
		   "# installed by the acme package\n[plugin.acme]\npriority = 77\nthreads = 4\n",
		   0644);
	start_ok();
	cr_assert_eq(opver_runtime_plugin_count(runtime), 1, "%s", captured.text);
	assert_priority(plugin_index("acme"), 77);
	cr_assert(messages_line_has(&captured, "option threads=4", NULL),
		  "the fragment's options reach the plugin:\n%s", captured.text);

	cr_assert_eq(unlink(at("plugins/acme.so")), 0);
	cr_assert_eq(unlink(at("opver.d/50-acme.ini")), 0);
	start_ok();
	cr_assert_eq(opver_runtime_plugin_count(runtime), 0, "%s", captured.text);
	cr_assert_eq(captured.count[OPVER_LOG_ERROR] + captured.count[OPVER_LOG_WARNING],
		     0, "%s", captured.text);

	cr_assert_eq(stat(at("opver.ini"), &after), 0);
	cr_assert_eq(before.st_mtime, after.st_mtime);
	cr_assert_eq(before.st_size, after.st_size, "the main config is untouched");
}

Test(dropin, without_its_fragment_a_dropped_plugin_keeps_its_own_priorities)
{
	opver_kernel_info kernel;
	int index;

	install("good", "plugins/acme.so");
	start_ok();
	index = plugin_index("acme");
	cr_assert_geq(index, 0, "%s", captured.text);
	/* good's manifest: its first kernel, fc_float, has priority 10. */
	cr_assert_eq(opver_runtime_kernel_info(runtime, (size_t)index, 0, &kernel),
		     OPVER_OK);
	cr_assert_str_eq(kernel.name, "fc_float");
	cr_assert_eq(kernel.priority, 10);
}

Test(dropin, a_fragment_may_name_its_library_relative_to_itself)
{
	make_dir("vendor");
	install("good", "vendor/libacme-opver.so");
	write_file("opver.d/acme.ini",
		   "[plugin.acme]\nlibrary = ../vendor/libacme-opver.so\npriority = 5\n",
		   0644);
	start_ok();
	assert_priority(plugin_index("acme"), 5);
}

Test(dropin, fragments_load_in_sorted_order_of_their_files)
{
	install("add_one", "plugins/alpha.so");
	install("good", "plugins/zeta.so");
	/* Without fragments the directory scan loads alpha first. */
	write_file("opver.d/10-vendor.ini", "[plugin.zeta]\n", 0644);
	write_file("opver.d/20-vendor.ini", "[plugin.alpha]\n", 0644);
	start_ok();
	cr_assert_eq(opver_runtime_plugin_count(runtime), 2, "%s", captured.text);
	cr_assert_eq(plugin_index("zeta"), 0);
	cr_assert_eq(plugin_index("alpha"), 1);
}

Test(dropin, duplicate_section_across_fragments_names_both)
{
	char expected[256];

	install("good", "plugins/acme.so");
	write_file("opver.d/10-acme.ini", "[plugin.acme]\npriority = 1\n", 0644);
	write_file("opver.d/20-acme-again.ini", "\n[plugin.acme]\npriority = 2\n",
		   0644);
	cr_assert_eq(start(), OPVER_ERROR_CONFIG);
	cr_assert_null(runtime);
	snprintf(expected, sizeof(expected),
		 "%s:2: duplicate section [plugin.acme] (first at %s:1",
		 at("opver.d/20-acme-again.ini"), at("opver.d/10-acme.ini"));
	cr_assert(messages_line_has(&captured, "error:", expected, NULL),
		  "%s", captured.text);
}

Test(dropin, bad_fragment_line_names_the_fragment_and_line)
{
	char expected[256];

	write_file("opver.d/acme.ini", "[plugin.acme]\n\npriority = high\n", 0644);
	cr_assert_eq(start(), OPVER_ERROR_CONFIG);
	snprintf(expected, sizeof(expected), "%s:3: priority = 'high'",
		 at("opver.d/acme.ini"));
	cr_assert(messages_line_has(&captured, "error:", expected, NULL),
		  "%s", captured.text);
}

/* ----------------------------------------------------------- permissions */

/* One error naming `path`, `mode` and the key; the runtime still starts
 * and loads the plugin in ROOT/vendor, which nothing is wrong with. */
static void assert_skipped(const char *path, const char *mode)
{
	char named[300];

	start_ok();
	snprintf(named, sizeof(named), "'%s' %s can be changed by", path, mode);
	cr_assert(messages_line_has(&captured, "error:", named,
				    "set allow_writable_plugins = true in [opver]", NULL),
		  "%s", captured.text);
	cr_assert_eq(plugin_index("acme"), -1, "%s", captured.text);
	cr_assert_geq(plugin_index("other"), 0, "%s", captured.text);
}

/* acme dropped with its fragment; "other" from a trusted directory. */
static void install_two(void)
{
	make_dir("vendor");
	install("good", "plugins/acme.so");
	install("add_one", "vendor/other.so");
	write_file("opver.d/acme.ini", "[plugin.acme]\npriority = 77\n", 0644);
	write_file("opver.d/other.ini", "[plugin.other]\nlibrary = ../vendor/other.so\n",
		   0644);
}

Test(dropin, group_writable_plugin_directory_is_refused)
{
	install_two();
	cr_assert_eq(chmod(at("plugins"), 0775), 0);
	assert_skipped(at("plugins"), "(mode 0775)");
}

Test(dropin, world_writable_plugin_directory_is_refused)
{
	install_two();
	cr_assert_eq(chmod(at("plugins"), 0757), 0);
	assert_skipped(at("plugins"), "(mode 0757)");
}

Test(dropin, group_writable_plugin_file_is_refused)
{
	install_two();
	cr_assert_eq(chmod(at("plugins/acme.so"), 0664), 0);
	assert_skipped(at("plugins/acme.so"), "(mode 0664)");
}

Test(dropin, world_writable_plugin_file_is_refused)
{
	install_two();
	cr_assert_eq(chmod(at("plugins/acme.so"), 0646), 0);
	assert_skipped(at("plugins/acme.so"), "(mode 0646)");
}

/* A refused fragment is a config error: the runtime does not start. */
static void assert_config_refused(const char *path, const char *mode)
{
	char named[300];

	cr_assert_eq(start(), OPVER_ERROR_CONFIG, "%s", captured.text);
	cr_assert_null(runtime);
	snprintf(named, sizeof(named), "'%s' %s can be changed by", path, mode);
	cr_assert(messages_line_has(&captured, "error:", named,
				    "set allow_writable_plugins = true in [opver]", NULL),
		  "%s", captured.text);
}

Test(dropin, group_writable_fragment_is_refused)
{
	install_two();
	cr_assert_eq(chmod(at("opver.d/acme.ini"), 0660), 0);
	assert_config_refused(at("opver.d/acme.ini"), "(mode 0660)");
}

Test(dropin, world_writable_fragment_is_refused)
{
	install_two();
	cr_assert_eq(chmod(at("opver.d/acme.ini"), 0666), 0);
	assert_config_refused(at("opver.d/acme.ini"), "(mode 0666)");
}

Test(dropin, writable_fragment_directory_is_refused)
{
	install_two();
	cr_assert_eq(chmod(at("opver.d"), 0775), 0);
	assert_config_refused(at("opver.d"), "(mode 0775)");
}

Test(dropin, allow_writable_plugins_accepts_all_of_them)
{
	install_two();
	write_main("allow_writable_plugins = true\n");
	cr_assert_eq(chmod(at("plugins"), 0777), 0);
	cr_assert_eq(chmod(at("plugins/acme.so"), 0666), 0);
	cr_assert_eq(chmod(at("opver.d"), 0777), 0);
	cr_assert_eq(chmod(at("opver.d/acme.ini"), 0666), 0);
	start_ok();
	assert_priority(plugin_index("acme"), 77);
	cr_assert_eq(captured.count[OPVER_LOG_ERROR], 0, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", at("plugins/acme.so"),
				    "(mode 0666)", "accepted as allow_writable_plugins = true",
				    NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", at("opver.d/acme.ini"),
				    "(mode 0666)", "accepted", NULL),
		  "%s", captured.text);
}

Test(dropin, owned_by_another_user_is_refused)
{
	if (geteuid() != 0)
		cr_skip_test("chown to uid 65534 needs root");
	install_two();
	cr_assert_eq(chown(at("plugins/acme.so"), 65534, 65534), 0);
	assert_skipped(at("plugins/acme.so"), "(mode 0644)");
	cr_assert(messages_line_has(&captured, "its owner uid 65534", NULL),
		  "%s", captured.text);

	cr_assert_eq(chown(at("plugins/acme.so"), 0, 0), 0);
	cr_assert_eq(chown(at("opver.d/acme.ini"), 65534, 65534), 0);
	assert_config_refused(at("opver.d/acme.ini"), "(mode 0644)");
}

/* --------------------------------------------- hostile model and config */

Test(dropin, model_path_that_is_a_fifo_is_an_error, .timeout = 10)
{
	opver_model *model = NULL;

	start_ok();
	cr_assert_eq(mkfifo(at("model.tflite"), 0644), 0);
	messages_clear(&captured);
	cr_assert_eq(opver_model_open(runtime, at("model.tflite"), &model),
		     OPVER_ERROR_IO);
	cr_assert_null(model);
	cr_assert(messages_line_has(&captured, "error:", at("model.tflite"),
				    "not a regular file", NULL),
		  "%s", captured.text);
}

Test(dropin, config_path_that_is_a_fifo_is_an_error, .timeout = 10)
{
	cr_assert_eq(unlink(at("opver.ini")), 0);
	cr_assert_eq(mkfifo(at("opver.ini"), 0644), 0);
	cr_assert_eq(start(), OPVER_ERROR_IO);
	cr_assert(messages_line_has(&captured, "error:", at("opver.ini"),
				    "is a FIFO, not a regular file", NULL),
		  "%s", captured.text);
}

/* ------------------------------------------------------- default config */

/* The config opver_runtime_create() uses without a config path, with this
 * test's paths for the installed ones, finds acme through its fragment. */
static void assert_default_finds_acme(const char *file, const char *plugin_dir,
				      const char *fragment_dir)
{
	opver__reporter reporter = messages_reporter(&captured);
	opver__plugin_source *sources;
	opver__config config;
	size_t count;

	unsetenv("OPVER_PLUGIN_PATH");
	cr_assert_eq(opver__config_default(file, plugin_dir, fragment_dir,
					   &reporter, &config),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(opver__discover_plugins(&config, &reporter, &sources, &count),
		     OPVER_OK);
	cr_assert_eq(count, 1, "%s", captured.text);
	cr_assert_str_eq(sources[0].path, at("plugins/acme.so"));
	cr_assert_str_eq(sources[0].config_name, "acme");
	cr_assert_not_null(sources[0].config, "found through its fragment");
	cr_assert_eq(sources[0].config->priority, 77);
	opver__plugin_sources_free(sources, count);
	opver__config_free(&config);
}

Test(dropin, built_in_default_reads_the_fragment_directory)
{
	install("good", "plugins/acme.so");
	write_file("opver.d/acme.ini", "[plugin.acme]\npriority = 77\n", 0644);
	assert_default_finds_acme(at("no-such-opver.ini"), at("plugins"),
				  at("opver.d"));
}

Test(dropin, installed_default_file_names_the_directories)
{
	char text[512];

	install("good", "plugins/acme.so");
	write_file("opver.d/acme.ini", "[plugin.acme]\npriority = 77\n", 0644);
	/* As conf/opver.ini.in is installed: absolute directories. */
	snprintf(text, sizeof(text),
		 "[opver]\nplugin_path = %s\nfragment_dir = %s\n",
		 at("plugins"), at("opver.d"));
	write_file("installed.ini", text, 0644);
	/* The file's directories, not the built-in ones. */
	assert_default_finds_acme(at("installed.ini"), at("elsewhere"),
				  at("elsewhere.d"));
}
