/*
 * test_config_fragments.c - fragments (fragment_dir): sorted order, what
 * they may hold, sections named twice across files, and refusing fragments
 * others can change.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_files.h"

/* ---------------------------------------------------------------- fragments */

Test(config, relative_fragment_dir_is_under_the_config_directory)
{
	cr_assert_eq(read_ini("[opver]\nfragment_dir = opver.d\n"), OPVER_OK);
	cr_assert_str_eq(config.fragment_dir, at("opver.d"));
	opver__config_free(&config);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = /abs/opver.d\n"),
		     OPVER_OK);
	cr_assert_str_eq(config.fragment_dir, "/abs/opver.d");
}

Test(config, empty_fragment_dir)
{
	assert_one_bad_line("[opver]\nfragment_dir =\n", 2,
			    "fragment_dir is empty");
}

Test(config, missing_fragment_dir_is_an_info_message)
{
	cr_assert_eq(read_ini("[opver]\nfragment_dir = absent.d\n"), OPVER_OK);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", at("absent.d"),
				    "does not exist", NULL),
		  "%s", captured.text);
}

Test(config, fragments_are_read_in_sorted_order_after_the_main_file)
{
	make_dir("d", 0755);
	make_dir("d/sub.ini", 0755);
	make_dir("elsewhere", 0755);
	write_fragment("20-beta.ini", "[plugin.beta]\nthreads = 2\n");
	write_fragment("10-alpha.ini", "; first\n\n[plugin.alpha]\npriority = 5\n"
				       "[plugin.alpha2]\n");
	write_fragment("9-last.ini", "[plugin.nine]\n");
	/* Skipped: dotfiles and other names. */
	write_fragment(".hidden.ini", "[plugin.hidden]\n");
	write_fragment("notes.txt", "[plugin.notes]\n");
	write_fragment("30-old.ini.bak", "[plugin.old]\n");
	write_fragment(".ini", "[plugin.dot]\n");
	/* A link counts as what it points to. */
	write_file(at("elsewhere/linked.ini"), "[plugin.linked]\n", 0644);
	cr_assert_eq(symlink(at("elsewhere/linked.ini"), at("d/50-linked.ini")), 0);

	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\n[plugin.main]\n"),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(config.num_plugins, 6, "%s", captured.text);
	cr_assert_str_eq(config.plugins[0].name, "main");
	cr_assert_str_eq(config.plugins[0].file, ini_path);
	/* strcmp order: "10-" < "20-" < "50-" < "9-". */
	cr_assert_str_eq(config.plugins[1].name, "alpha");
	cr_assert_str_eq(config.plugins[1].file, at("d/10-alpha.ini"));
	cr_assert_eq(config.plugins[1].line, 3);
	cr_assert_eq(config.plugins[1].priority, 5);
	cr_assert_str_eq(config.plugins[2].name, "alpha2");
	cr_assert_eq(config.plugins[2].line, 5);
	cr_assert_str_eq(config.plugins[3].name, "beta");
	cr_assert_str_eq(config.plugins[3].options[0].key, "threads");
	cr_assert_str_eq(config.plugins[4].name, "linked");
	cr_assert_str_eq(config.plugins[4].file, at("d/50-linked.ini"));
	cr_assert_str_eq(config.plugins[5].name, "nine");
	cr_assert(messages_line_has(&captured, "info:", "sub.ini", "not a regular file", NULL),
		  "%s", captured.text);
}

/* One bad thing in fragment `name` (in DIR/d): CONFIG, one error message,
 * "DIR/d/NAME:LINE: ..." saying `what`. */
static void assert_bad_fragment_line(const char *main_text, const char *name,
				     const char *text, int line,
				     const char *what)
{
	char prefix[192];
	char message[1024];

	write_fragment(name, text);
	cr_assert_eq(read_ini(main_text), OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 1, "%s", captured.text);
	messages_nth(&captured, 0, message, sizeof(message));
	snprintf(prefix, sizeof(prefix), "%s/d/%s:%d: ", dir, name, line);
	cr_assert_eq(strncmp(message, prefix, strlen(prefix)), 0,
		     "'%s' does not start with '%s'", message, prefix);
	cr_assert_not_null(strstr(message, what), "'%s' does not say '%s'",
			   message, what);
	cr_assert_eq(config.num_plugins, 0, "a failed read leaves nothing");
}

Test(config, bad_fragment_line_names_the_fragment)
{
	make_dir("d", 0755);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "vendor.ini",
				 "[plugin.vendor]\npriority = high\n", 2,
				 "priority = 'high' is not an integer");
}

Test(config, opver_section_in_a_fragment)
{
	make_dir("d", 0755);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "vendor.ini",
				 "[plugin.vendor]\n[opver]\nstrict = true\n", 2,
				 "[opver] is not allowed in a fragment");
}

Test(config, key_outside_a_section_in_a_fragment)
{
	make_dir("d", 0755);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "vendor.ini",
				 "priority = 3\n", 1,
				 "outside any section (put it under [plugin.NAME])");
}

Test(config, duplicate_section_across_fragments_names_both)
{
	char first[192];

	make_dir("d", 0755);
	write_fragment("10-a.ini", "\n[plugin.vendor]\npriority = 1\n");
	snprintf(first, sizeof(first), "first at %s/d/10-a.ini:2", dir);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n", "20-b.ini",
				 "[plugin.other]\n[plugin.vendor]\npriority = 2\n",
				 2, first);
}

Test(config, duplicate_section_in_the_main_file_and_a_fragment)
{
	char first[192];

	make_dir("d", 0755);
	snprintf(first, sizeof(first), "duplicate section [plugin.vendor] (first at %s:3",
		 ini_path);
	assert_bad_fragment_line("[opver]\nfragment_dir = d\n[plugin.vendor]\n",
				 "vendor.ini", "[plugin.vendor]\n", 1, first);
}

Test(config, every_fragment_is_reported)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[opver]\n");
	write_fragment("b.ini", "[plugin.b]\nenabled = perhaps\n");
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\nstrict = perhaps\n"),
		     OPVER_ERROR_CONFIG);
	cr_assert_eq(messages_total(&captured), 3, "%s", captured.text);
	assert_bad_line(0, 3, "'perhaps' is not a boolean");
	cr_assert(messages_line_has(&captured, "d/a.ini:1: [opver] is not allowed", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "d/b.ini:2: enabled = 'perhaps'", NULL),
		  "%s", captured.text);
}

Test(config, fragment_dir_that_is_a_file_is_an_io_error)
{
	write_file(at("file.d"), "", 0644);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = file.d\n"),
		     OPVER_ERROR_IO);
	cr_assert(messages_line_has(&captured, "error:", "cannot read fragment_dir",
				    at("file.d"), "Not a directory", NULL),
		  "%s", captured.text);
}

Test(config, unreadable_fragment_is_an_io_error)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(symlink(at("nowhere.ini"), at("d/b.ini")), 0);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\n"), OPVER_ERROR_IO);
	cr_assert(messages_line_has(&captured, "error:", "cannot open fragment",
				    at("d/b.ini"), "No such file", NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugins, 0);
}

/* Each refused: the message names the path, the mode, who can write it
 * and the key that accepts it. */
static void assert_refused(const char *what, const char *path,
			   const char *mode, const char *who)
{
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\n"), OPVER_ERROR_CONFIG);
	cr_assert(messages_line_has(&captured, "error:", what, path, mode, who,
				    "allow_writable_plugins = true", NULL),
		  "%s", captured.text);
	cr_assert_eq(config.num_plugins, 0);
}

Test(config, group_writable_fragment_is_refused)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chmod(at("d/a.ini"), 0664), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0664)",
		       "(group-writable), not reading it");
}

Test(config, world_writable_fragment_is_refused)
{
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chmod(at("d/a.ini"), 0646), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0646)",
		       "every user (world-writable)");
}

Test(config, writable_fragment_dir_is_refused)
{
	make_dir("d", 0777);
	write_fragment("a.ini", "[plugin.a]\n");
	assert_refused("fragment directory '", at("d"), "(mode 0777)",
		       "group-writable) and every user (world-writable), not reading fragments from it");
}

Test(config, symlinked_fragment_is_judged_by_its_target)
{
	make_dir("d", 0755);
	write_file(at("target.ini"), "[plugin.a]\n", 0666);
	cr_assert_eq(symlink(at("target.ini"), at("d/a.ini")), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0666)",
		       "world-writable");
}

Test(config, fragment_owned_by_another_user_is_refused)
{
	if (geteuid() != 0)
		cr_skip_test("chown to uid 65534 needs root");
	make_dir("d", 0755);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chown(at("d/a.ini"), 65534, 65534), 0);
	assert_refused("fragment '", at("d/a.ini"), "(mode 0644)",
		       "its owner uid 65534 (neither root nor the effective uid 0)");
}

Test(config, allow_writable_plugins_accepts_writable_fragments)
{
	make_dir("d", 0777);
	write_fragment("a.ini", "[plugin.a]\n");
	cr_assert_eq(chmod(at("d/a.ini"), 0666), 0);
	cr_assert_eq(read_ini("[opver]\nfragment_dir = d\nallow_writable_plugins = true\n"),
		     OPVER_OK, "%s", captured.text);
	cr_assert_eq(config.num_plugins, 1);
	cr_assert_eq(captured.count[OPVER_LOG_INFO], 2, "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "fragment directory '", at("d"),
				    "(mode 0777)", "accepted as allow_writable_plugins = true", NULL),
		  "%s", captured.text);
	cr_assert(messages_line_has(&captured, "info:", "fragment '", at("d/a.ini"),
				    "(mode 0666)", "accepted", NULL),
		  "%s", captured.text);
}
