/*
 * config.c - reads opver.ini and its fragments, and builds the built-in
 * default.  Each file or text is read line by line by config_lines.h, and
 * its keys are config_keys.h's.
 *
 * Files are opened without waiting (a FIFO would block open() until a
 * writer came) and must be regular files.
 *
 * Fragments are read after the main file, from descriptors opened in the
 * directory that was checked (opver__list_trusted_dir(), openat, fstat), so
 * the file judged by trust.h is the file parsed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "config_keys.h"
#include "config_lines.h"
#include "trust.h"

static void config_init(opver__config *config)
{
	memset(config, 0, sizeof(*config));
	config->log_level = OPVER_LOG_WARNING;
}

/* What kind of file `mode` is, for "is a ..., not a regular file". */
static const char *file_type(mode_t mode)
{
	if (S_ISDIR(mode))
		return "directory";
	if (S_ISFIFO(mode))
		return "FIFO";
	if (S_ISCHR(mode))
		return "character device";
	if (S_ISBLK(mode))
		return "block device";
	if (S_ISSOCK(mode))
		return "socket";
	return "special file";
}

/*
 * Opens `name` (relative to `dir_fd`, or AT_FDCWD) to read it, without
 * waiting: opening a FIFO blocks until a writer comes, unless O_NONBLOCK.
 * Its stat goes to *info.  Returns the descriptor, or -1 with errno.  The
 * caller reads only regular files, for which O_NONBLOCK changes nothing,
 * so it stays set.
 */
static int open_without_waiting(int dir_fd, const char *name,
				struct stat *info)
{
	int fd = openat(dir_fd, name,
			O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int saved_errno;

	if (fd < 0)
		return -1;
	if (fstat(fd, info) != 0) {
		saved_errno = errno;
		close(fd);
		errno = saved_errno;
		return -1;
	}
	return fd;
}

/* Opens fragment `name` of the directory open as `dir_fd` and checks it
 * on the descriptor that is then parsed. */
static opver_status read_fragment(opver__config_reading *r, int dir_fd,
				  const char *path, const char *name)
{
	struct stat info;
	opver_status status;
	int fd;

	fd = open_without_waiting(dir_fd, name, &info);
	if (fd < 0) {
		opver__error(r->reporter, "cannot open fragment '%s': %s", path,
			     strerror(errno));
		r->io_failed = true;
		return OPVER_OK;
	}
	if (!S_ISREG(info.st_mode)) {
		opver__info(r->reporter, "fragment '%s' is a %s, not a regular file, skipped",
			    path, file_type(info.st_mode));
		close(fd);
		return OPVER_OK;
	}
	if (!opver__trusted("fragment", path, &info,
			    r->config->allow_writable_plugins,
			    "not reading it", r->reporter)) {
		r->errors++;
		close(fd);
		return OPVER_OK;
	}
	status = opver__config_parse_file(r, path, fd, true);
	if (status == OPVER_ERROR_IO) {
		r->io_failed = true;
		status = OPVER_OK;
	}
	return status;
}

/* A fragment's name: NAME.ini, not a dotfile. */
static bool is_fragment_name(const char *name)
{
	size_t length = strlen(name);

	return name[0] != '.' && length > 4 &&
	       strcmp(name + length - 4, ".ini") == 0;
}

/* Reads every fragment of r->config->fragment_dir, in sorted order. */
static opver_status read_fragments(opver__config_reading *r)
{
	const char *dir = r->config->fragment_dir;
	opver__trust_check check = {
		.what = "fragment directory",
		.refusal = "not reading fragments from it",
		.allow_writable = r->config->allow_writable_plugins,
	};
	opver__dir_listing listing;
	opver_status status;

	status = opver__list_trusted_dir(dir, &check, is_fragment_name,
					 r->reporter, &listing);
	switch (status) {
	case OPVER_OK:
		break;
	case OPVER_ERROR_IO:
		if (errno == ENOENT) {
			opver__info(r->reporter, "fragment_dir '%s' does not exist, no fragments read",
				    dir);
		} else {
			opver__error(r->reporter, "cannot read fragment_dir '%s': %s",
				     dir, strerror(errno));
			r->io_failed = true;
		}
		return OPVER_OK;
	case OPVER_ERROR_CONFIG:
		r->errors++; /* reported */
		return OPVER_OK;
	default:
		opver__error(r->reporter, "out of memory listing fragment_dir '%s'",
			     dir);
		return status;
	}
	for (size_t i = 0; i < listing.count && status == OPVER_OK; i++) {
		char *path;

		if (asprintf(&path, "%s/%s", dir, listing.names[i]) < 0) {
			opver__error(r->reporter, "out of memory reading fragment_dir '%s'",
				     dir);
			status = OPVER_ERROR_NOMEM;
			break;
		}
		/* Reports its own running out of memory. */
		status = read_fragment(r, dirfd(listing.stream), path,
				       listing.names[i]);
		free(path);
	}
	opver__dir_listing_free(&listing);
	return status;
}

/* Reads the fragments, when there is a fragment_dir, then settles the
 * status: every problem has been reported by now. */
static opver_status finish_reading(opver__config_reading *r,
				   opver_status status)
{
	if (status == OPVER_OK && r->config->fragment_dir != NULL)
		status = read_fragments(r);
	if (status == OPVER_OK && r->io_failed)
		status = OPVER_ERROR_IO;
	else if (status == OPVER_OK && r->errors > 0)
		status = OPVER_ERROR_CONFIG;
	if (status != OPVER_OK)
		opver__config_free(r->config);
	return status;
}

opver_status opver__config_read(const char *path,
				const opver__reporter *reporter,
				opver__config *config)
{
	opver__config_reading r = { .reporter = reporter, .config = config };
	struct stat info;
	int fd;

	config_init(config);
	fd = open_without_waiting(AT_FDCWD, path, &info);
	if (fd < 0) {
		opver__error(reporter, "cannot open config file '%s': %s", path,
			     strerror(errno));
		return OPVER_ERROR_IO;
	}
	if (!S_ISREG(info.st_mode)) {
		opver__error(reporter, "config file '%s' is a %s, not a regular file; give the path of an ini file",
			     path, file_type(info.st_mode));
		close(fd);
		return OPVER_ERROR_IO;
	}
	return finish_reading(&r, opver__config_parse_file(&r, path, fd,
							   false));
}

opver_status opver__config_read_text(const char *text, size_t size,
				     const opver__reporter *reporter,
				     opver__config *config)
{
	opver__config_reading r = { .reporter = reporter, .config = config };

	config_init(config);
	return finish_reading(&r, opver__config_parse_text(&r, text, size));
}

/* OPVER_PLUGIN_PATH, unless the program runs with privileges it was given
 * (setuid or setgid), where the environment is not to be trusted. */
static const char *plugin_path_variable(void)
{
#ifdef HAVE_SECURE_GETENV
	return secure_getenv("OPVER_PLUGIN_PATH");
#else
	if (getuid() != geteuid() || getgid() != getegid())
		return NULL;
	return getenv("OPVER_PLUGIN_PATH");
#endif
}

/* The built-in default, for when `file` does not exist. */
static opver_status read_builtin(const char *plugin_dir,
				 const char *fragment_dir,
				 const opver__reporter *reporter,
				 opver__config *config)
{
	opver__config_reading r = { .reporter = reporter, .config = config };
	opver_status status;

	config_init(config);
	status = opver__config_add_directory(config, "", 0, plugin_dir,
					     strlen(plugin_dir));
	if (status == OPVER_OK) {
		config->fragment_dir = strdup(fragment_dir);
		if (config->fragment_dir == NULL)
			status = OPVER_ERROR_NOMEM;
	}
	if (status == OPVER_ERROR_NOMEM)
		opver__error(reporter, "out of memory setting up the default config");
	return finish_reading(&r, status);
}

opver_status opver__config_default(const char *file, const char *plugin_dir,
				   const char *fragment_dir,
				   const opver__reporter *reporter,
				   opver__config *config)
{
	const char *extra = plugin_path_variable();
	struct stat info;
	opver_status status;

	/* Anything but "there is no such file" is the file's to report. */
	if (stat(file, &info) == 0 || errno != ENOENT) {
		status = opver__config_read(file, reporter, config);
	} else {
		opver__debug(reporter, "no config file '%s', using the built-in default",
			     file);
		status = read_builtin(plugin_dir, fragment_dir, reporter,
				      config);
	}
	if (status == OPVER_OK && extra != NULL)
		status = opver__config_add_directories(config, "", 0, extra);
	if (status == OPVER_ERROR_NOMEM)
		opver__config_free(config);
	return status;
}

void opver__config_free(opver__config *config)
{
	for (size_t i = 0; i < config->num_plugin_path; i++)
		free(config->plugin_path[i]);
	free(config->plugin_path);
	for (size_t i = 0; i < config->num_plugins; i++) {
		opver__plugin_config *plugin = &config->plugins[i];

		for (size_t o = 0; o < plugin->num_options; o++) {
			free(plugin->options[o].key);
			free(plugin->options[o].value);
		}
		free(plugin->options);
		for (size_t k = 0; k < plugin->num_kernels; k++)
			free(plugin->kernels[k]);
		free(plugin->kernels);
		free(plugin->name);
		free(plugin->library);
		free(plugin->file);
	}
	free(config->plugins);
	free(config->fragment_dir);
	memset(config, 0, sizeof(*config));
}
