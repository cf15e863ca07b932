/* trust.c - refuses plugins and fragments that users other than root and
 * the effective user can change. */
#include <unistd.h>

#include "text.h"
#include "trust.h"

bool opver__trusted(const char *what, const char *path,
		    const struct stat *info, bool allow_writable,
		    const char *refusal, const opver__reporter *reporter)
{
	uid_t self = geteuid();
	bool owner = info->st_uid != 0 && info->st_uid != self;
	bool group = (info->st_mode & S_IWGRP) != 0;
	bool others = (info->st_mode & S_IWOTH) != 0;
	unsigned mode = (unsigned)(info->st_mode & 07777);
	const char *separator = "";
	char buffer[192];
	opver__text writers;

	if (!owner && !group && !others)
		return true;
	opver__text_init(&writers, buffer, sizeof(buffer));
	if (owner) {
		opver__text_append(&writers, "its owner uid %u (neither root nor the effective uid %u)",
				   (unsigned)info->st_uid, (unsigned)self);
		separator = group && others ? ", " : " and ";
	}
	if (group) {
		opver__text_append(&writers, "%sgroup gid %u (group-writable)",
				   separator, (unsigned)info->st_gid);
		separator = " and ";
	}
	if (others)
		opver__text_append(&writers, "%severy user (world-writable)",
				   separator);
	if (allow_writable) {
		opver__info(reporter,
			    "%s '%s' (mode %04o) can be changed by %s; accepted as allow_writable_plugins = true",
			    what, path, mode, buffer);
		return true;
	}
	opver__error(reporter,
		     "%s '%s' (mode %04o) can be changed by %s, %s; set allow_writable_plugins = true in [opver] to accept it",
		     what, path, mode, buffer, refusal);
	return false;
}
