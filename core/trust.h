/*
 * trust.h - whether opver may take code or configuration from a file or
 * directory: only when no one but root and the effective user can change
 * it.  Another user who owns it can change it (chmod is the owner's), and
 * the group and other write bits let everyone in them replace or add files.
 *
 * The checks look at what a path leads to (stat or fstat, never lstat): a
 * symlink is judged by its target; the link itself is as safe as the
 * directory holding it, which its caller checks as well.
 *
 * opver__list_trusted_dir() is the one directory lister of plugin_path
 * directories and fragment_dir: it judges a directory on the descriptor
 * its names are then read from, and lists them sorted.
 */
#ifndef OPVER_CORE_TRUST_H
#define OPVER_CORE_TRUST_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "report.h"

/*
 * Judges `info`, the stat of `path`.  `what` names it in messages ("plugin
 * directory"), `refusal` says what happens when it is refused ("not
 * loading it").  Returns true when root or the effective user alone can
 * change it.  Otherwise, when `allow_writable` (allow_writable_plugins =
 * true), says so at info level and returns true; else reports an error
 * naming the path, its mode, who else can change it and the key that
 * accepts it, and returns false.  All strings borrowed.
 */
bool opver__trusted(const char *what, const char *path,
		    const struct stat *info, bool allow_writable,
		    const char *refusal, const opver__reporter *reporter);

/* What a directory is judged as and what happens when it is refused, as
 * opver__trusted() takes them.  All strings borrowed. */
typedef struct opver__trust_check {
	const char *what;        /* "plugin directory" */
	const char *refusal;     /* "not loading plugins from it" */
	bool allow_writable;     /* allow_writable_plugins */
	bool judged;             /* judged trustworthy before: not again */
} opver__trust_check;

/* A directory's wanted names, read from the descriptor it was judged on. */
typedef struct opver__dir_listing {
	DIR *stream;             /* owned; dirfd() it for openat, fstatat */
	char **names;            /* owned; count names in strcmp order */
	size_t count;
} opver__dir_listing;

/*
 * Opens directory `dir`, judges it (opver__trusted(), unless
 * check->judged) on the opened descriptor and, when trusted, lists the
 * names `wanted` accepts, sorted by strcmp.  Which kind of file each name
 * is, is the caller's to check.  Returns:
 *   OPVER_OK          *listing filled; release with
 *                     opver__dir_listing_free()
 *   OPVER_ERROR_IO    `dir` cannot be opened or read; errno says why,
 *                     nothing is reported (the caller says what that means)
 *   OPVER_ERROR_CONFIG  refused, and reported, by opver__trusted()
 *   OPVER_ERROR_NOMEM nothing reported
 * On failure *listing is zeroed.
 */
opver_status opver__list_trusted_dir(const char *dir,
				     const opver__trust_check *check,
				     bool (*wanted)(const char *name),
				     const opver__reporter *reporter,
				     opver__dir_listing *listing);

/* Frees what *listing owns and zeroes it.  Safe on a zeroed listing. */
void opver__dir_listing_free(opver__dir_listing *listing);

#endif /* OPVER_CORE_TRUST_H */
