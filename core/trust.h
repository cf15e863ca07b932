/*
 * trust.h - whether opver may take code or configuration from a file or
 * directory: only when no one but root and the effective user can change
 * it.  Another user who owns it can change it (chmod is the owner's), and
 * the group and other write bits let everyone in them replace or add files.
 *
 * The checks look at what a path leads to (stat or fstat, never lstat): a
 * symlink is judged by its target; the link itself is as safe as the
 * directory holding it, which its caller checks as well.
 */
#ifndef OPVER_CORE_TRUST_H
#define OPVER_CORE_TRUST_H

#include <stdbool.h>
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

#endif /* OPVER_CORE_TRUST_H */
