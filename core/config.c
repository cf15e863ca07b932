/*
 * config.c - reads opver.ini with inih, and builds the built-in default.
 *
 * inih splits each "key = value" line; this file keeps the line number and
 * the sections itself.  The inih Debian ships calls its handler without a
 * line number, never for a section that has no keys, and returns only the
 * first line it could not parse.  So inih reads through read_line(), which
 * hands it one physical line at a time: it counts lines, takes section
 * headers itself (inih never sees one), strips the indentation that inih
 * would take for a continuation of the previous value, and, when the next
 * line is asked for, reports a line that gave inih no key/value pair.
 *
 * Fragments are read after the main file, from descriptors opened in the
 * directory that was checked (openat, fstat), so the file judged by
 * trust.h is the file parsed.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "trust.h"

typedef enum section_kind {
	SECTION_NONE,           /* before the first header */
	SECTION_OPVER,
	SECTION_PLUGIN,         /* the last of config->plugins */
	SECTION_INVALID         /* already reported; its keys are skipped */
} section_kind;

/* A key of the current section, to report a duplicate. */
typedef struct seen_key {
	char *key;              /* owned */
	int line;
} seen_key;

typedef struct parser {
	const char *path;
	bool fragment;          /* [plugin.NAME] sections only */
	size_t dir_length;      /* of path, through its last '/'; 0 if none */
	const opver__reporter *reporter;
	opver__config *config;
	FILE *file;
	char *line;             /* owned; the current physical line */
	size_t line_capacity;
	int lineno;
	bool expect_pair;       /* the line is neither blank nor a comment */
	bool got_pair;          /* inih found a key/value pair on it */
	section_kind section;
	int opver_line;         /* line of [opver]; 0 before it */
	seen_key *seen;         /* owned; num_seen keys of this section */
	size_t num_seen;
	size_t errors;
	/* OPVER_ERROR_NOMEM or _IO stop the parse; bad lines do not. */
	opver_status status;
	int read_errno;
} parser;

static void bad_line(parser *p, const char *format, ...) OPVER__PRINTF(2, 3);

static void bad_line(parser *p, const char *format, ...)
{
	char message[768];
	va_list args;

	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	opver__error(p->reporter, "%s:%d: %s", p->path, p->lineno, message);
	p->errors++;
}

static void config_init(opver__config *config)
{
	memset(config, 0, sizeof(*config));
	config->log_level = OPVER_LOG_WARNING;
}

/* Appends `length` bytes of `dir`, after `prefix_length` bytes of `prefix`
 * when the directory is relative.  An empty directory is skipped. */
static opver_status add_directory(opver__config *config, const char *prefix,
				  size_t prefix_length, const char *dir,
				  size_t length)
{
	char **grown;
	char *joined;

	if (length == 0)
		return OPVER_OK;
	if (dir[0] == '/')
		prefix_length = 0;
	grown = realloc(config->plugin_path,
			(config->num_plugin_path + 1) * sizeof(*grown));
	if (grown == NULL)
		return OPVER_ERROR_NOMEM;
	config->plugin_path = grown;
	joined = malloc(prefix_length + length + 1);
	if (joined == NULL)
		return OPVER_ERROR_NOMEM;
	memcpy(joined, prefix, prefix_length);
	memcpy(joined + prefix_length, dir, length);
	joined[prefix_length + length] = '\0';
	config->plugin_path[config->num_plugin_path++] = joined;
	return OPVER_OK;
}

/* Appends each directory of a ':'-separated list. */
static opver_status add_directories(opver__config *config, const char *prefix,
				    size_t prefix_length, const char *list)
{
	opver_status status = OPVER_OK;

	while (status == OPVER_OK) {
		size_t length = strcspn(list, ":");

		status = add_directory(config, prefix, prefix_length, list,
				       length);
		if (list[length] == '\0')
			break;
		list += length + 1;
	}
	return status;
}

static bool parse_bool(const char *value, bool *out)
{
	static const char *const words[][2] = {
		{ "false", "true" }, { "no", "yes" }, { "off", "on" },
		{ "0", "1" },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		for (int truth = 0; truth < 2; truth++) {
			if (strcasecmp(value, words[i][truth]) == 0) {
				*out = truth;
				return true;
			}
		}
	}
	return false;
}

static bool parse_int32(const char *value, int32_t *out)
{
	char *end;
	long number;

	errno = 0;
	number = strtol(value, &end, 10);
	if (end == value || *end != '\0' || errno == ERANGE ||
	    number < INT32_MIN || number > INT32_MAX)
		return false;
	*out = (int32_t)number;
	return true;
}

static bool parse_threads(const char *value, uint32_t *out)
{
	int32_t threads;

	if (!parse_int32(value, &threads) || threads < 1 ||
	    threads > OPVER__MAX_THREADS)
		return false;
	*out = (uint32_t)threads;
	return true;
}

static bool parse_log_level(const char *value, opver_log_level *out)
{
	int level = opver_log_level_parse(value);

	if (level < 0)
		return false;
	*out = (opver_log_level)level;
	return true;
}

static void bad_bool(parser *p, const char *key, const char *value)
{
	bad_line(p, "%s = '%s' is not a boolean (use true/false, yes/no, on/off or 1/0)",
		 key, value);
}

/* fragment_dir: a relative directory is under the config file's. */
static opver_status set_fragment_dir(parser *p, const char *value)
{
	size_t prefix = value[0] == '/' ? 0 : p->dir_length;
	size_t length = strlen(value);

	if (length == 0) {
		bad_line(p, "fragment_dir is empty");
		return OPVER_OK;
	}
	p->config->fragment_dir = malloc(prefix + length + 1);
	if (p->config->fragment_dir == NULL)
		return OPVER_ERROR_NOMEM;
	memcpy(p->config->fragment_dir, p->path, prefix);
	memcpy(p->config->fragment_dir + prefix, value, length + 1);
	return OPVER_OK;
}

static opver_status set_opver_key(parser *p, const char *key,
				  const char *value)
{
	opver__config *config = p->config;

	if (strcmp(key, "plugin_path") == 0)
		return add_directories(config, p->path, p->dir_length, value);
	if (strcmp(key, "fragment_dir") == 0)
		return set_fragment_dir(p, value);
	if (strcmp(key, "allow_writable_plugins") == 0) {
		if (!parse_bool(value, &config->allow_writable_plugins))
			bad_bool(p, key, value);
	} else if (strcmp(key, "strict") == 0) {
		if (!parse_bool(value, &config->strict))
			bad_bool(p, key, value);
	} else if (strcmp(key, "strict_versions") == 0) {
		if (!parse_bool(value, &config->strict_versions))
			bad_bool(p, key, value);
	} else if (strcmp(key, "threads") == 0) {
		if (!parse_threads(value, &config->threads))
			bad_line(p, "threads = '%s' is not a thread count from 1 to %d",
				 value, OPVER__MAX_THREADS);
	} else if (strcmp(key, "log_level") == 0) {
		if (!parse_log_level(value, &config->log_level))
			bad_line(p, "log_level = '%s' is not one of error, warning, info, debug",
				 value);
	} else {
		bad_line(p, "unknown key '%s' in [opver] (known: plugin_path, strict, strict_versions, threads, log_level, fragment_dir, allow_writable_plugins)",
			 key);
	}
	return OPVER_OK;
}

static opver_status add_option(opver__plugin_config *plugin, const char *key,
			       const char *value)
{
	opver__config_option *grown, *option;

	grown = realloc(plugin->options,
			(plugin->num_options + 1) * sizeof(*grown));
	if (grown == NULL)
		return OPVER_ERROR_NOMEM;
	plugin->options = grown;
	option = &grown[plugin->num_options];
	option->key = strdup(key);
	option->value = strdup(value);
	if (option->key == NULL || option->value == NULL) {
		free(option->key);
		free(option->value);
		return OPVER_ERROR_NOMEM;
	}
	plugin->num_options++;
	return OPVER_OK;
}

static opver_status set_plugin_key(parser *p, const char *key,
				   const char *value)
{
	opver__plugin_config *plugin =
		&p->config->plugins[p->config->num_plugins - 1];

	if (strcmp(key, "library") == 0) {
		if (value[0] == '\0') {
			bad_line(p, "library is empty");
			return OPVER_OK;
		}
		plugin->library = strdup(value);
		return plugin->library ? OPVER_OK : OPVER_ERROR_NOMEM;
	}
	if (strcmp(key, "priority") == 0) {
		if (parse_int32(value, &plugin->priority))
			plugin->has_priority = true;
		else
			bad_line(p, "priority = '%s' is not an integer from %d to %d",
				 value, INT32_MIN, INT32_MAX);
		return OPVER_OK;
	}
	if (strcmp(key, "enabled") == 0) {
		if (!parse_bool(value, &plugin->enabled))
			bad_bool(p, key, value);
		return OPVER_OK;
	}
	return add_option(plugin, key, value);
}

static void forget_keys(parser *p)
{
	for (size_t i = 0; i < p->num_seen; i++)
		free(p->seen[i].key);
	p->num_seen = 0;
}

/* Remembers `key`; false (after reporting) when the section has it. */
static bool first_time(parser *p, const char *key)
{
	seen_key *grown;

	for (size_t i = 0; i < p->num_seen; i++) {
		if (strcmp(p->seen[i].key, key) == 0) {
			bad_line(p, "duplicate key '%s' (first set on line %d)",
				 key, p->seen[i].line);
			return false;
		}
	}
	grown = realloc(p->seen, (p->num_seen + 1) * sizeof(*grown));
	if (grown == NULL)
		goto nomem;
	p->seen = grown;
	grown[p->num_seen].key = strdup(key);
	if (grown[p->num_seen].key == NULL)
		goto nomem;
	grown[p->num_seen++].line = p->lineno;
	return true;
nomem:
	p->status = OPVER_ERROR_NOMEM;
	return false;
}

static opver_status add_plugin(parser *p, const char *name)
{
	opver__config *config = p->config;
	opver__plugin_config *grown, *plugin;

	grown = realloc(config->plugins,
			(config->num_plugins + 1) * sizeof(*grown));
	if (grown == NULL)
		return OPVER_ERROR_NOMEM;
	config->plugins = grown;
	plugin = &grown[config->num_plugins];
	memset(plugin, 0, sizeof(*plugin));
	plugin->enabled = true;
	plugin->line = p->lineno;
	plugin->name = strdup(name);
	plugin->file = strdup(p->path);
	if (plugin->name == NULL || plugin->file == NULL) {
		free(plugin->name);
		free(plugin->file);
		return OPVER_ERROR_NOMEM;
	}
	config->num_plugins++;
	return OPVER_OK;
}

static const opver__plugin_config *find_plugin(const opver__config *config,
					       const char *name)
{
	for (size_t i = 0; i < config->num_plugins; i++)
		if (strcmp(config->plugins[i].name, name) == 0)
			return &config->plugins[i];
	return NULL;
}

/* A "[name]" line; `header` points at the '[' and is modified. */
static void begin_section(parser *p, char *header)
{
	static const char plugin_prefix[] = "plugin.";
	const opver__plugin_config *other;
	char *name = header + 1;
	char *end = strchr(name, ']');

	forget_keys(p);
	p->section = SECTION_INVALID;
	if (end == NULL) {
		bad_line(p, "section header has no closing ']'");
		return;
	}
	*end = '\0';
	if (strcmp(name, "opver") == 0 && p->fragment) {
		bad_line(p, "[opver] is not allowed in a fragment: fragments hold [plugin.NAME] sections only (set [opver] keys in the main config file)");
	} else if (strcmp(name, "opver") == 0) {
		if (p->opver_line != 0) {
			bad_line(p, "duplicate section [opver] (first on line %d)",
				 p->opver_line);
			return;
		}
		p->opver_line = p->lineno;
		p->section = SECTION_OPVER;
	} else if (strncmp(name, plugin_prefix, sizeof(plugin_prefix) - 1) == 0) {
		name += sizeof(plugin_prefix) - 1;
		if (name[0] == '\0') {
			bad_line(p, "section [plugin.] has no plugin name (as in [plugin.reference])");
		} else if ((other = find_plugin(p->config, name)) != NULL) {
			if (strcmp(other->file, p->path) == 0)
				bad_line(p, "duplicate section [plugin.%s] (first on line %d)",
					 name, other->line);
			else
				bad_line(p, "duplicate section [plugin.%s] (first at %s:%d; a plugin has one section in all config files)",
					 name, other->file, other->line);
		} else {
			p->status = add_plugin(p, name);
			p->section = SECTION_PLUGIN;
		}
	} else {
		bad_line(p, "unknown section [%s] (expected %s)", name,
			 p->fragment ? "[plugin.NAME]" : "[opver] or [plugin.NAME]");
	}
}

/* The inih handler: one key/value pair of the current line. */
static int handle_pair(void *user, const char *section, const char *key,
		       const char *value)
{
	parser *p = user;

	/* inih never sees a header, so its section is always "". */
	(void)section;
	p->got_pair = true;
	if (p->status != OPVER_OK || p->section == SECTION_INVALID)
		return 1;
	if (key[0] == '\0') {
		bad_line(p, "no key before the '='");
		return 1;
	}
	if (p->section == SECTION_NONE) {
		bad_line(p, "'%s' is outside any section (put it under %s)", key,
			 p->fragment ? "[plugin.NAME]" : "[opver] or [plugin.NAME]");
		return 1;
	}
	if (!first_time(p, key))
		return 1;
	if (p->section == SECTION_OPVER)
		p->status = set_opver_key(p, key, value);
	else
		p->status = set_plugin_key(p, key, value);
	return 1;
}

/* Reports the current line when it was meant to be a pair and was not. */
static void finish_line(parser *p)
{
	if (p->expect_pair && !p->got_pair)
		bad_line(p, "expected 'key = value', '[section]' or a comment");
	p->expect_pair = false;
	p->got_pair = false;
}

/* The inih reader: the next physical line, into `buffer` of `size` bytes. */
static char *read_line(char *buffer, int size, void *stream)
{
	parser *p = stream;
	char *text;

	finish_line(p);
	if (p->status != OPVER_OK)
		return NULL;
	if (getline(&p->line, &p->line_capacity, p->file) < 0) {
		if (ferror(p->file)) {
			p->read_errno = errno;
			p->status = OPVER_ERROR_IO;
		}
		return NULL;
	}
	p->lineno++;
	text = p->line;
	if (p->lineno == 1 && strncmp(text, "\xEF\xBB\xBF", 3) == 0)
		text += 3; /* a UTF-8 byte order mark */
	while (isspace((unsigned char)*text))
		text++;
	buffer[0] = '\0';
	if (*text == '[') {
		begin_section(p, text);
	} else if (*text != '\0' &&
		   strchr(INI_START_COMMENT_PREFIXES, *text) == NULL) {
		size_t length = strlen(text);

		if (length >= (size_t)size) {
			bad_line(p, "line is longer than inih's limit of %d characters",
				 size - 2);
		} else {
			memcpy(buffer, text, length + 1);
			p->expect_pair = true;
		}
	}
	return buffer;
}

/* One reading of a config file and its fragments. */
typedef struct reading {
	const opver__reporter *reporter;
	opver__config *config;
	size_t errors;          /* bad lines, refused fragments */
	bool io_failed;         /* a fragment could not be read */
} reading;

/* What a file is called in messages. */
static const char *file_kind(bool fragment)
{
	return fragment ? "fragment" : "config file";
}

/*
 * Parses the opened `file` into r->config and closes it.  Bad lines are
 * reported and counted; returns OPVER_ERROR_NOMEM or _IO (after a message)
 * when the parse had to stop.
 */
static opver_status parse_file(reading *r, const char *path, FILE *file,
			       bool fragment)
{
	const char *slash = strrchr(path, '/');
	parser p = {
		.path = path,
		.fragment = fragment,
		.dir_length = slash ? (size_t)(slash - path) + 1 : 0,
		.reporter = r->reporter,
		.config = r->config,
		.file = file,
		.status = OPVER_OK,
	};

	/* -2: inih could not allocate its line buffer. */
	if (ini_parse_stream(read_line, &p, handle_pair, &p) == -2)
		p.status = OPVER_ERROR_NOMEM;
	if (p.status == OPVER_ERROR_NOMEM)
		opver__error(r->reporter, "out of memory reading %s '%s'",
			     file_kind(fragment), path);
	else if (p.status == OPVER_ERROR_IO)
		opver__error(r->reporter, "cannot read %s '%s': %s",
			     file_kind(fragment), path, strerror(p.read_errno));
	r->errors += p.errors;
	forget_keys(&p);
	free(p.seen);
	free(p.line);
	fclose(file);
	return p.status;
}

/* Opens fragment `name` of the directory open as `dir_fd` and checks it
 * on the descriptor that is then parsed. */
static opver_status read_fragment(reading *r, int dir_fd, const char *path,
				  const char *name)
{
	struct stat info;
	opver_status status;
	FILE *file;
	int fd;

	fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &info) != 0) {
		opver__error(r->reporter, "cannot open fragment '%s': %s", path,
			     strerror(errno));
		if (fd >= 0)
			close(fd);
		r->io_failed = true;
		return OPVER_OK;
	}
	/* Replaced by something else since the directory was listed. */
	if (!S_ISREG(info.st_mode)) {
		opver__info(r->reporter, "fragment '%s' is not a regular file, skipped",
			    path);
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
	file = fdopen(fd, "r");
	if (file == NULL) {
		opver__error(r->reporter, "out of memory reading fragment '%s'",
			     path);
		close(fd);
		return OPVER_ERROR_NOMEM;
	}
	status = parse_file(r, path, file, true);
	if (status == OPVER_ERROR_IO) {
		r->io_failed = true;
		status = OPVER_OK;
	}
	return status;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A fragment's name: NAME.ini, not a dotfile. */
static bool is_fragment_name(const char *name)
{
	size_t length = strlen(name);

	return name[0] != '.' && length > 4 &&
	       strcmp(name + length - 4, ".ini") == 0;
}

/* Lists the fragments of `stream` (regular files; what a symlink points
 * to counts) into *names, sorted.  Caller frees. */
static opver_status list_fragments(reading *r, DIR *stream, const char *dir,
				   char ***names, size_t *count)
{
	struct dirent *entry;
	size_t capacity = 0;
	struct stat info;

	*names = NULL;
	*count = 0;
	while ((entry = readdir(stream)) != NULL) {
		char **grown;

		if (!is_fragment_name(entry->d_name))
			continue;
		if (fstatat(dirfd(stream), entry->d_name, &info, 0) != 0) {
			opver__error(r->reporter, "cannot open fragment '%s/%s': %s",
				     dir, entry->d_name, strerror(errno));
			r->io_failed = true;
			continue;
		}
		if (!S_ISREG(info.st_mode)) {
			opver__info(r->reporter, "fragment_dir: '%s/%s' is not a regular file, skipped",
				    dir, entry->d_name);
			continue;
		}
		if (*count == capacity) {
			capacity = capacity ? capacity * 2 : 8;
			grown = realloc(*names, capacity * sizeof(*grown));
			if (grown == NULL)
				return OPVER_ERROR_NOMEM;
			*names = grown;
		}
		(*names)[*count] = strdup(entry->d_name);
		if ((*names)[*count] == NULL)
			return OPVER_ERROR_NOMEM;
		(*count)++;
	}
	/* *names is NULL for a directory without fragments. */
	if (*count > 1)
		qsort(*names, *count, sizeof(**names), compare_names);
	return OPVER_OK;
}

/* Reads every fragment of r->config->fragment_dir, in sorted order. */
static opver_status read_fragments(reading *r)
{
	const char *dir = r->config->fragment_dir;
	opver_status status;
	struct stat info;
	char **names;
	size_t count;
	DIR *stream;

	stream = opendir(dir);
	if (stream == NULL && errno == ENOENT) {
		opver__info(r->reporter, "fragment_dir '%s' does not exist, no fragments read",
			    dir);
		return OPVER_OK;
	}
	if (stream == NULL || fstat(dirfd(stream), &info) != 0) {
		opver__error(r->reporter, "cannot read fragment_dir '%s': %s",
			     dir, strerror(errno));
		if (stream != NULL)
			closedir(stream);
		r->io_failed = true;
		return OPVER_OK;
	}
	if (!opver__trusted("fragment directory", dir, &info,
			    r->config->allow_writable_plugins,
			    "not reading fragments from it", r->reporter)) {
		r->errors++;
		closedir(stream);
		return OPVER_OK;
	}
	status = list_fragments(r, stream, dir, &names, &count);
	if (status == OPVER_ERROR_NOMEM)
		opver__error(r->reporter, "out of memory listing fragment_dir '%s'",
			     dir);
	for (size_t i = 0; i < count && status == OPVER_OK; i++) {
		char *path;

		if (asprintf(&path, "%s/%s", dir, names[i]) < 0) {
			opver__error(r->reporter, "out of memory reading fragment_dir '%s'",
				     dir);
			status = OPVER_ERROR_NOMEM;
			break;
		}
		/* Reports its own running out of memory. */
		status = read_fragment(r, dirfd(stream), path, names[i]);
		free(path);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	closedir(stream);
	return status;
}

/* Reads the fragments, when there is a fragment_dir, then settles the
 * status: every problem has been reported by now. */
static opver_status finish_reading(reading *r, opver_status status)
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
	reading r = { .reporter = reporter, .config = config };
	FILE *file;

	config_init(config);
	file = fopen(path, "r");
	if (file == NULL) {
		opver__error(reporter, "cannot open config file '%s': %s", path,
			     strerror(errno));
		return OPVER_ERROR_IO;
	}
	return finish_reading(&r, parse_file(&r, path, file, false));
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
	reading r = { .reporter = reporter, .config = config };
	opver_status status;

	config_init(config);
	status = add_directory(config, "", 0, plugin_dir, strlen(plugin_dir));
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
		status = add_directories(config, "", 0, extra);
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
		free(plugin->name);
		free(plugin->library);
		free(plugin->file);
	}
	free(config->plugins);
	free(config->fragment_dir);
	memset(config, 0, sizeof(*config));
}
