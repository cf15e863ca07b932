/*
 * discovery.c - from config sections and plugin directories to the list of
 * plugin files to load, leaving out those that users other than root and
 * the effective user can change (trust.h).
 *
 * A plugin directory is judged on the descriptor its listing is read from
 * (opver__list_trusted_dir(), which lists fragment_dir too).
 * A plugin file can only be judged by path: dlopen takes a path, not a
 * descriptor, so what is checked here is what the loader opens unless it
 * is replaced in between, and only someone who could change it anyway can
 * do that.  Besides the file (what a symlink points to), the directory
 * that lists it and the one that really holds it are judged: whoever can
 * write a directory can replace the files in it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "discovery.h"
#include "trust.h"

/* A set of strings, owned. */
typedef struct string_set {
	char **items;
	size_t count, capacity;
} string_set;

/* The sources found so far, the real paths already taken (a file is never
 * loaded twice), the plugin names already used (a file in a later
 * directory does not shadow an earlier plugin or a section), and the paths
 * judged trustworthy or accepted (each is judged, and reported, once). */
typedef struct source_list {
	opver__plugin_source *items;
	size_t count, capacity;
	string_set files;
	string_set names;
	string_set trusted;
} source_list;

static bool grow(void **items, size_t *capacity, size_t count, size_t size)
{
	size_t next;
	void *grown;

	if (count < *capacity)
		return true;
	next = *capacity ? *capacity * 2 : 8;
	grown = realloc(*items, next * size);
	if (grown == NULL)
		return false;
	*items = grown;
	*capacity = next;
	return true;
}

static bool set_contains(const string_set *set, const char *item)
{
	for (size_t i = 0; i < set->count; i++)
		if (strcmp(set->items[i], item) == 0)
			return true;
	return false;
}

/* Takes ownership of `item` (malloc'd), also on failure. */
static opver_status set_add(string_set *set, char *item)
{
	if (!grow((void **)&set->items, &set->capacity, set->count,
		  sizeof(*set->items))) {
		free(item);
		return OPVER_ERROR_NOMEM;
	}
	set->items[set->count++] = item;
	return OPVER_OK;
}

static opver_status set_add_copy(string_set *set, const char *item)
{
	char *copy = strdup(item);

	return copy ? set_add(set, copy) : OPVER_ERROR_NOMEM;
}

static void set_free(string_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		free(set->items[i]);
	free(set->items);
}

static opver_status add_source(source_list *list, const char *path,
			       const char *config_name,
			       const opver__plugin_config *config)
{
	opver__plugin_source *source;

	if (!grow((void **)&list->items, &list->capacity, list->count,
		  sizeof(*list->items)))
		return OPVER_ERROR_NOMEM;
	source = &list->items[list->count];
	source->path = strdup(path);
	source->config_name = strdup(config_name);
	source->config = config;
	if (source->path == NULL || source->config_name == NULL) {
		free(source->path);
		free(source->config_name);
		return OPVER_ERROR_NOMEM;
	}
	list->count++;
	return OPVER_OK;
}

/* opver__trusted() for `path`, whose stat is `info`, unless it was judged
 * trustworthy before. */
static opver_status judge(source_list *list, const opver__config *config,
			  const opver__reporter *reporter, const char *what,
			  const char *path, const struct stat *info,
			  const char *refusal, bool *trusted)
{
	*trusted = set_contains(&list->trusted, path) ||
		   opver__trusted(what, path, info,
				  config->allow_writable_plugins, refusal,
				  reporter);
	if (*trusted && !set_contains(&list->trusted, path))
		return set_add_copy(&list->trusted, path);
	return OPVER_OK;
}

/* judge() on what `path` leads to.  A path that cannot be reached is not
 * judged: loading it fails, and the loader reports why. */
static opver_status judge_path(source_list *list, const opver__config *config,
			       const opver__reporter *reporter,
			       const char *what, const char *path,
			       const char *refusal, bool *trusted)
{
	struct stat info;

	*trusted = true;
	if (set_contains(&list->trusted, path) || stat(path, &info) != 0)
		return OPVER_OK;
	return judge(list, config, reporter, what, path, &info, refusal,
		     trusted);
}

/* The directory part of `path` ("." when it has none), malloc'd. */
static char *directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return strdup(".");
	/* "/x.so" is in "/". */
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* Judges the plugin file at `path` (`real`: its real path, or NULL), the
 * directory that lists it and the one that holds its real file. */
static opver_status judge_plugin(source_list *list,
				 const opver__config *config,
				 const opver__reporter *reporter,
				 const char *path, const char *real,
				 bool *trusted)
{
	char *listing = directory_of(path);
	char *holding = real ? directory_of(real) : NULL;
	char refusal[PATH_MAX + 32];
	opver_status status = OPVER_ERROR_NOMEM;

	*trusted = false;
	if (listing == NULL || (real != NULL && holding == NULL))
		goto out;
	snprintf(refusal, sizeof(refusal), "not loading %s from it", path);
	status = judge_path(list, config, reporter, "plugin directory",
			    listing, refusal, trusted);
	if (status == OPVER_OK && *trusted)
		status = judge_path(list, config, reporter, "plugin file",
				    path, "not loading it", trusted);
	if (status == OPVER_OK && *trusted && holding != NULL)
		status = judge_path(list, config, reporter, "plugin directory",
				    holding, refusal, trusted);
out:
	free(listing);
	free(holding);
	return status;
}

static bool file_exists(const char *path)
{
	struct stat info;

	return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

/*
 * Where a section's library is: *path receives a malloc'd path (caller
 * frees), or NULL when a bare file name is in no plugin_path directory.
 */
static opver_status locate_library(const opver__config *config,
				   const opver__plugin_config *section,
				   char **path)
{
	char *fallback_name = NULL;
	const char *library = section->library;
	opver_status status = OPVER_OK;

	*path = NULL;
	if (library == NULL) {
		if (asprintf(&fallback_name, "%s.so", section->name) < 0)
			return OPVER_ERROR_NOMEM;
		library = fallback_name;
	}
	if (library[0] == '/') {
		*path = strdup(library);
	} else if (strchr(library, '/') != NULL) {
		/* Relative to the directory of the file that names it. */
		const char *slash = strrchr(section->file, '/');
		int dir_length = slash ? (int)(slash - section->file) : 1;
		const char *dir = slash ? section->file : ".";

		if (asprintf(path, "%.*s/%s", dir_length, dir, library) < 0)
			*path = NULL;
	} else {
		for (size_t d = 0; d < config->num_plugin_path; d++) {
			if (asprintf(path, "%s/%s", config->plugin_path[d],
				     library) < 0) {
				*path = NULL;
				status = OPVER_ERROR_NOMEM;
				goto out;
			}
			if (file_exists(*path))
				goto out;
			free(*path);
			*path = NULL;
		}
		/* Not found: OK with *path NULL. */
		goto out;
	}
	if (*path == NULL)
		status = OPVER_ERROR_NOMEM;
out:
	free(fallback_name);
	return status;
}

static opver_status add_sections(const opver__config *config,
				 const opver__reporter *reporter,
				 source_list *list)
{
	for (size_t i = 0; i < config->num_plugins; i++) {
		const opver__plugin_config *section = &config->plugins[i];
		opver_status status;
		char *path, *real;

		status = set_add_copy(&list->names, section->name);
		if (status == OPVER_OK)
			status = locate_library(config, section, &path);
		if (status != OPVER_OK)
			return status;
		if (path == NULL) {
			if (section->enabled)
				opver__error(reporter,
					     "%s:%d: [plugin.%s]: library '%s%s' is in no plugin_path directory, not loading",
					     section->file, section->line,
					     section->name,
					     section->library ? section->library :
								section->name,
					     section->library ? "" : ".so");
			continue;
		}
		real = realpath(path, NULL);
		if (real != NULL && set_contains(&list->files, real)) {
			opver__warning(reporter,
				       "%s:%d: [plugin.%s]: %s is already named by an earlier section, not loading it twice",
				       section->file, section->line,
				       section->name, path);
			free(real);
		} else if (!section->enabled) {
			opver__info(reporter, "%s:%d: [plugin.%s] is disabled, not loading %s",
				    section->file, section->line, section->name,
				    path);
			status = real ? set_add(&list->files, real) : OPVER_OK;
		} else {
			bool trusted;

			status = judge_plugin(list, config, reporter, path,
					      real, &trusted);
			/* Taken even when refused: the directory scan does
			 * not report it again. */
			if (status == OPVER_OK && real != NULL)
				status = set_add(&list->files, real);
			else
				free(real);
			if (status == OPVER_OK && trusted)
				status = add_source(list, path, section->name,
						    section);
		}
		free(path);
		if (status != OPVER_OK)
			return status;
	}
	return OPVER_OK;
}

static bool has_plugin_suffix(const char *name)
{
	size_t length = strlen(name);

	return length > 3 && strcmp(name + length - 3, ".so") == 0;
}

/* Adds every *.so of `dir` not already taken, in sorted order. */
static opver_status add_directory(const opver__config *config,
				  const char *dir,
				  const opver__reporter *reporter,
				  source_list *list)
{
	opver__trust_check check = {
		.what = "plugin directory",
		.refusal = "not loading plugins from it",
		.allow_writable = config->allow_writable_plugins,
		.judged = set_contains(&list->trusted, dir),
	};
	opver__dir_listing listing;
	opver_status status;
	bool trusted;

	status = opver__list_trusted_dir(dir, &check, has_plugin_suffix,
					 reporter, &listing);
	if (status == OPVER_ERROR_IO)
		opver__warning(reporter,
			       "plugin_path directory '%s' cannot be read: %s; no plugins from it",
			       dir, strerror(errno));
	if (status == OPVER_ERROR_IO || status == OPVER_ERROR_CONFIG)
		return OPVER_OK;
	if (status == OPVER_OK && !check.judged)
		status = set_add_copy(&list->trusted, dir);
	for (size_t i = 0; i < listing.count && status == OPVER_OK; i++) {
		char *name = listing.names[i];
		char *path = NULL, *real;
		size_t stem = strlen(name) - 3;

		if (asprintf(&path, "%s/%s", dir, name) < 0) {
			status = OPVER_ERROR_NOMEM;
			break;
		}
		name[stem] = '\0';
		real = realpath(path, NULL);
		if (real == NULL || !file_exists(real)) {
			opver__warning(reporter, "plugin_path: %s cannot be used (%s), skipped",
				       path, real ? "not a regular file" :
						    strerror(errno));
		} else if (set_contains(&list->files, real)) {
			opver__debug(reporter, "plugin_path: %s is already named, not loading it twice",
				     path);
		} else if (set_contains(&list->names, name)) {
			opver__info(reporter, "plugin_path: %s is not loaded: a plugin named '%s' is already configured or loaded",
				    path, name);
		} else {
			status = judge_plugin(list, config, reporter, path,
					      real, &trusted);
			if (status == OPVER_OK)
				status = set_add(&list->files, real);
			else
				free(real);
			real = NULL;
			if (status == OPVER_OK && trusted)
				status = set_add_copy(&list->names, name);
			if (status == OPVER_OK && trusted)
				status = add_source(list, path, name, NULL);
		}
		free(real);
		free(path);
	}
	opver__dir_listing_free(&listing);
	return status;
}

opver_status opver__discover_plugins(const opver__config *config,
				     const opver__reporter *reporter,
				     opver__plugin_source **sources,
				     size_t *count)
{
	source_list list = { 0 };
	opver_status status;

	status = add_sections(config, reporter, &list);
	for (size_t d = 0; d < config->num_plugin_path && status == OPVER_OK; d++)
		status = add_directory(config, config->plugin_path[d],
				       reporter, &list);
	set_free(&list.files);
	set_free(&list.names);
	set_free(&list.trusted);
	if (status != OPVER_OK) {
		opver__plugin_sources_free(list.items, list.count);
		*sources = NULL;
		*count = 0;
		return status;
	}
	*sources = list.items;
	*count = list.count;
	return OPVER_OK;
}

void opver__plugin_sources_free(opver__plugin_source *sources, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(sources[i].path);
		free(sources[i].config_name);
	}
	free(sources);
}
