/* trust.c - refuses plugins and fragments that users other than root and
 * the effective user can change, and lists the directories they are in. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the names of listing->stream that `wanted` accepts. */
static opver_status read_names(opver__dir_listing *listing,
			       bool (*wanted)(const char *name))
{
	size_t capacity = 0;
	struct dirent *entry;

	for (;;) {
		errno = 0;
		entry = readdir(listing->stream);
		if (entry == NULL)
			return errno == 0 ? OPVER_OK : OPVER_ERROR_IO;
		if (!wanted(entry->d_name))
			continue;
		if (listing->count == capacity) {
			size_t next = capacity ? capacity * 2 : 8;
			char **grown = realloc(listing->names,
					       next * sizeof(*grown));

			if (grown == NULL)
				return OPVER_ERROR_NOMEM;
			listing->names = grown;
			capacity = next;
		}
		listing->names[listing->count] = strdup(entry->d_name);
		if (listing->names[listing->count] == NULL)
			return OPVER_ERROR_NOMEM;
		listing->count++;
	}
}

opver_status opver__list_trusted_dir(const char *dir,
				     const opver__trust_check *check,
				     bool (*wanted)(const char *name),
				     const opver__reporter *reporter,
				     opver__dir_listing *listing)
{
	opver_status status;
	struct stat info;
	int saved_errno;

	memset(listing, 0, sizeof(*listing));
	listing->stream = opendir(dir);
	if (listing->stream == NULL)
		return OPVER_ERROR_IO;
	if (fstat(dirfd(listing->stream), &info) != 0) {
		status = OPVER_ERROR_IO;
		goto out;
	}
	if (!check->judged &&
	    !opver__trusted(check->what, dir, &info, check->allow_writable,
			    check->refusal, reporter)) {
		status = OPVER_ERROR_CONFIG;
		goto out;
	}
	status = read_names(listing, wanted);
	/* names is NULL for a directory without wanted names: qsort wants
	 * an array. */
	if (status == OPVER_OK && listing->count > 1)
		qsort(listing->names, listing->count, sizeof(*listing->names),
		      compare_names);
out:
	if (status != OPVER_OK) {
		saved_errno = errno;
		opver__dir_listing_free(listing);
		errno = saved_errno;
	}
	return status;
}

void opver__dir_listing_free(opver__dir_listing *listing)
{
	for (size_t i = 0; i < listing->count; i++)
		free(listing->names[i]);
	free(listing->names);
	if (listing->stream != NULL)
		closedir(listing->stream);
	memset(listing, 0, sizeof(*listing));
}
