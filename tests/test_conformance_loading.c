/*
 * test_conformance_loading.c - plugins opver-conformance cannot load exit
 * 3 with the reason (one built for ABI 1.x, one that declines); a plugin in a
 * group-writable directory is tested; a path too long for a config line is
 * named.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <opver/version.h>

#include "conformance_tool.h"

Test(conformance, a_plugin_that_cannot_be_loaded_exits_3)
{
	spawn_result r;
	const char *missing_reference[] = { OPVER_CONFORMANCE, "--reference",
					    TEST_PLUGIN_DIR "/missing.so",
					    REFERENCE_PLUGIN, NULL };

	conformance(&r, TEST_PLUGIN_DIR "/missing.so", NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "missing.so") != NULL, "%s", r.err);
	spawn_free(&r);
	/* Not a plugin: a loader edge case the core refuses. */
	conformance(&r, TEST_PLUGIN_DIR "/no_entry.so", NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "no_entry.so") != NULL, "%s", r.err);
	spawn_free(&r);
	spawn_run(&r, missing_reference);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "reference") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* A plugin built for ABI 1.0 cannot be loaded: exit 3, with the core's
 * message naming its ABI and this one's. */
Test(conformance, a_plugin_built_for_abi_1_is_refused_and_exits_3)
{
	spawn_result r;
	char core_abi[64];

	snprintf(core_abi, sizeof(core_abi), "this core implements %d.%d",
		 OPVER_ABI_MAJOR, OPVER_ABI_MINOR);

	conformance(&r, ABI10, NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "abi10.so") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "plugin ABI 1.0") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, core_abi) != NULL, "%s", r.err);
	/* And the hygiene check's own finding, which does not rely on the
	 * core's words. */
	cr_assert(strstr(r.err, "FAIL hygiene: exports only opver_plugin_negotiate\n"
				"    exports opver_plugin_entry, the entry point of plugin ABI 1.x") != NULL,
		  "%s", r.err);
	cr_assert(strstr(r.out, "total:") == NULL, "%s", r.out);
	spawn_free(&r);
	/* --list loads it too. */
	conformance(&r, "--list", ABI10, NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "plugin ABI 1.0") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* A plugin that declines to load here is a load failure with its own
 * reason. */
Test(conformance, a_declining_plugin_exits_3_with_its_reason)
{
	spawn_result r;

	conformance(&r, DECLINES, NULL);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "declines.so") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "declined: needs a device this machine lacks") != NULL,
		  "%s", r.err);
	spawn_free(&r);
}

/*
 * The cases of crashing_kernel, from --list: those its kernels crash on
 * (float32 input of rank 3) and hang on (int32 input [1,...] of rank 4),
 * those of the int32 kernel, and all.  The first shape of a listed name
 * is its first input's.
 */

static void copy_file(const char *from, const char *to, mode_t mode)
{
	FILE *in = fopen(from, "rb"), *out;
	char buf[65536];
	size_t n;

	cr_assert_not_null(in, "%s", from);
	out = fopen(to, "wb");
	cr_assert_not_null(out, "%s", to);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		cr_assert_eq(fwrite(buf, 1, n, out), n);
	cr_assert_eq(ferror(in), 0);
	fclose(in);
	cr_assert_eq(fclose(out), 0);
	cr_assert_eq(chmod(to, mode), 0);
}

/* The user names the plugin under test: one built in a group-writable
 * directory (umask 0002) is tested, not refused as the runtime refuses a
 * plugin it discovers there. */
Test(conformance, a_plugin_in_a_group_writable_directory_is_tested)
{
	char dir[] = "/tmp/opver-conformance-test-XXXXXX";
	char plugin[sizeof(dir) + 16];
	spawn_result r;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(chmod(dir, 0775), 0);
	snprintf(plugin, sizeof(plugin), "%s/vendor.so", dir);
	copy_file(REFERENCE_PLUGIN, plugin, 0775);
	conformance(&r, "--op", "ADD", plugin, NULL);
	unlink(plugin);
	rmdir(dir);
	assert_status(&r, 0);
	cr_assert(strstr(r.out, "ADD/") != NULL, "%s", r.out);
	cr_assert_eq(lines_starting(r.out, "FAIL "), 0, "%s", r.out);
	spawn_free(&r);
}

/* A plugin path longer than a config line can hold is a clear error that
 * says so, not a parse error in a temporary file. */
Test(conformance, a_plugin_path_too_long_for_a_config_line_is_named)
{
	char dir[512] = "/tmp/opver-conformance-test-XXXXXX";
	char plugin[600];
	size_t length;
	spawn_result r;

	cr_assert_not_null(mkdtemp(dir));
	length = strlen(dir);
	/* Two 100-character components push the path past 198. */
	for (int level = 0; level < 2; level++) {
		dir[length++] = '/';
		memset(dir + length, 'd', 100);
		length += 100;
		dir[length] = '\0';
		cr_assert_eq(mkdir(dir, 0755), 0, "%s", dir);
	}
	snprintf(plugin, sizeof(plugin), "%s/vendor.so", dir);
	copy_file(REFERENCE_PLUGIN, plugin, 0755);
	conformance(&r, "--op", "ADD", plugin, NULL);
	unlink(plugin);
	for (int level = 0; level < 2; level++) {
		rmdir(dir);
		*strrchr(dir, '/') = '\0';
	}
	rmdir(dir);
	assert_status(&r, 3);
	cr_assert(strstr(r.err, "characters long") != NULL, "%s", r.err);
	cr_assert(strstr(r.err, "shorter path") != NULL, "%s", r.err);
	spawn_free(&r);
}

/* Every float32 case drives the sum past both bounds of each clamp: with
 * any seed, each RELU6 case catches a RELU6 clamped at 5, and only
 * those fail. */
