/*
 * config.c - reads opver.ini with inih, and builds the built-in default.
 *
 * inih parses: comments, [section] headers and key = value pairs.  The
 * inih Debian ships calls its handler without a line number, never for a
 * section that has no keys, and returns only the first line it could not
 * parse; so next_line(), its reader, hands it each physical line between
 * two lines of its own:
 *
 *     [\x01]          a reset; no physical line can name this section
 *     PHYSICAL LINE
 *     \x01=           a marker; its pair tells the handler the line is done
 *
 * At the marker, inih's section is the header the physical line was (as
 * inih parsed it), or the reset's when it was none; a line that is neither
 * blank nor a comment and gave inih neither a header nor a pair is one
 * inih could not parse.  The reset also ends inih's multi-line values, so
 * an indented line is a line of its own, and since it is inih's first
 * line, the reader skips a UTF-8 byte order mark itself.
 *
 * The reader is bounded: a line longer than inih's buffer (198 characters)
 * and a line holding a control character are errors naming the line, and
 * are not given to inih; a read error stops the reading and is an error.
 * Files are opened without waiting (a FIFO would block open() until a
 * writer came) and must be regular files.  Config text in memory is read
 * by the same reader, from the buffer instead of a FILE: next_char() is
 * the only place the two differ.
 *
 * Fragments are read after the main file, from descriptors opened in the
 * directory that was checked (opver__list_trusted_dir(), openat, fstat), so
 * the file judged by trust.h is the file parsed.
 */
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

/* The reader's own lines (see above).  The reader refuses control
 * characters, so no physical line is either. */
#define RESET_SECTION "\x01"
#define RESET_LINE "[" RESET_SECTION "]"
#define MARKER_LINE "\x01="

/* inih's MAX_SECTION: it cuts a section name to one byte less. */
#define INIH_MAX_SECTION 50

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

/* The line next_line() handed inih last. */
typedef enum fed_line {
	FED_NOTHING,
	FED_RESET,
	FED_PHYSICAL,
	FED_MARKER
} fed_line;

typedef struct parser {
	const char *path;
	bool fragment;          /* [plugin.NAME] sections only */
	size_t dir_length;      /* of path, through its last '/'; 0 if none */
	const opver__reporter *reporter;
	opver__config *config;
	FILE *file;             /* NULL when reading text */
	const char *text;       /* text_size bytes, borrowed; read to offset */
	size_t text_size;
	size_t text_offset;
	int lineno;             /* of the physical line */
	fed_line fed;
	bool has_content;       /* the line is neither blank nor a comment */
	bool header_like;       /* and starts with '[' */
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

/* max_arena_bytes, max_tensor_bytes: a decimal byte count from 1 up. */
static bool parse_bytes(const char *value, uint64_t *out)
{
	char *end;
	unsigned long long number;

	errno = 0;
	number = strtoull(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end != '\0' ||
	    errno == ERANGE || number == 0)
		return false;
	*out = number;
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

/* A limit's value, into *out unless it is bad. */
static void parse_limit(parser *p, const char *key, const char *value,
			uint64_t *out)
{
	if (!parse_bytes(value, out))
		bad_line(p, "%s = '%s' is not a byte count from 1 up", key,
			 value);
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
	} else if (strcmp(key, "max_arena_bytes") == 0) {
		parse_limit(p, key, value, &config->max_arena_bytes);
	} else if (strcmp(key, "max_tensor_bytes") == 0) {
		parse_limit(p, key, value, &config->max_tensor_bytes);
	} else if (strcmp(key, "log_level") == 0) {
		if (!parse_log_level(value, &config->log_level))
			bad_line(p, "log_level = '%s' is not one of error, warning, info, debug",
				 value);
	} else {
		bad_line(p, "unknown key '%s' in [opver] (known: plugin_path, strict, strict_versions, threads, max_arena_bytes, max_tensor_bytes, log_level, fragment_dir, allow_writable_plugins)",
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

/* Starts section `name`, a header's as inih parsed it. */
static void begin_section(parser *p, const char *name)
{
	static const char plugin_prefix[] = "plugin.";
	const opver__plugin_config *other;

	forget_keys(p);
	p->section = SECTION_INVALID;
	if (strlen(name) >= INIH_MAX_SECTION - 1) {
		bad_line(p, "section name '%s...' is longer than inih's limit of %d characters; shorten it",
			 name, INIH_MAX_SECTION - 2);
	} else if (strcmp(name, "opver") == 0 && p->fragment) {
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

/* The marker after a physical line: `section` is inih's. */
static void end_line(parser *p, const char *section)
{
	if (strcmp(section, RESET_SECTION) != 0)
		begin_section(p, section);
	else if (p->has_content && !p->got_pair && p->header_like)
		bad_line(p, "section header has no closing ']'");
	else if (p->has_content && !p->got_pair)
		bad_line(p, "expected 'key = value', '[section]' or a comment");
	p->has_content = false;
	p->got_pair = false;
}

/* The inih handler: one key/value pair of the physical line, or the
 * marker after it. */
static int handle_pair(void *user, const char *section, const char *key,
		       const char *value)
{
	parser *p = user;

	if (p->fed == FED_MARKER) {
		end_line(p, section);
		return 1;
	}
	/* The section is the reset's: p->section is the current one. */
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

static bool is_control(int c)
{
	return (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f;
}

/* The next byte of the file or text; EOF at its end or on a read error
 * (read_failed() tells which). */
static int next_char(parser *p)
{
	if (p->file != NULL)
		return getc(p->file);
	if (p->text_offset == p->text_size)
		return EOF;
	return (unsigned char)p->text[p->text_offset++];
}

/* Whether reading the file failed; then p->status is OPVER_ERROR_IO.
 * Reading text cannot fail. */
static bool read_failed(parser *p)
{
	if (p->file == NULL || !ferror(p->file))
		return false;
	p->read_errno = errno;
	p->status = OPVER_ERROR_IO;
	return true;
}

/*
 * Reads the next physical line into `buffer` of `size` bytes; false at the
 * end of the file or on a read error (p->status is then OPVER_ERROR_IO).
 * A line that is too long or holds a control character is reported,
 * read to its end and handed on empty.
 */
static bool read_physical_line(parser *p, char *buffer, size_t size)
{
	static const char bom[] = "\xEF\xBB\xBF";
	size_t limit = size - 2; /* as fgets() gives it: line, '\n', '\0' */
	bool check_bom = p->lineno == 0;
	size_t length = 0;
	bool too_long = false;
	int control = -1;
	const char *text;
	int c;

	c = next_char(p);
	if (c == EOF) {
		read_failed(p);
		return false;
	}
	p->lineno++;
	for (; c != EOF && c != '\n'; c = next_char(p)) {
		if (is_control(c) && control < 0)
			control = c;
		if (length == limit) {
			too_long = true;
			continue;
		}
		buffer[length++] = (char)c;
		if (check_bom && length == sizeof(bom) - 1) {
			check_bom = false;
			if (memcmp(buffer, bom, length) == 0)
				length = 0;
		}
	}
	if (read_failed(p))
		return false;
	buffer[length] = '\0';
	text = buffer + strspn(buffer, " \t\r");
	p->header_like = *text == '[';
	if (too_long || control >= 0) {
		if (too_long)
			bad_line(p, "line is longer than %zu characters, inih's limit; shorten it (values cannot go on over lines)",
				 limit);
		else
			bad_line(p, "byte 0x%02x is a control character; a config file is text (is this the right file?)",
				 (unsigned)control);
		/* Keys after a header that cannot be read belong to no
		 * section that is known. */
		if (p->header_like) {
			forget_keys(p);
			p->section = SECTION_INVALID;
		}
		buffer[0] = '\0';
		text = buffer;
	}
	p->has_content = *text != '\0' &&
			 strchr(INI_START_COMMENT_PREFIXES, *text) == NULL;
	return true;
}

/* The inih reader: the reset, a physical line, its marker, and so on. */
static char *next_line(char *buffer, int size, void *stream)
{
	parser *p = stream;

	if (p->fed == FED_PHYSICAL) {
		p->fed = FED_MARKER;
		return strcpy(buffer, MARKER_LINE);
	}
	if (p->fed != FED_RESET) {
		p->fed = FED_RESET;
		return strcpy(buffer, RESET_LINE);
	}
	if (p->status != OPVER_OK ||
	    !read_physical_line(p, buffer, (size_t)size))
		return NULL;
	p->fed = FED_PHYSICAL;
	return buffer;
}

/* One reading of a config file and its fragments. */
typedef struct reading {
	const opver__reporter *reporter;
	opver__config *config;
	size_t errors;          /* bad lines, refused fragments */
	bool io_failed;         /* a fragment could not be read */
} reading;

/* What p reads, as messages call it. */
static const char *source_kind(const parser *p)
{
	if (p->fragment)
		return "fragment";
	return p->text != NULL ? "config text" : "config file";
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

/* A parser of `path`, a file's or OPVER__CONFIG_TEXT_NAME, into
 * r->config; the caller sets its file or text. */
static parser parser_for(const reading *r, const char *path, bool fragment)
{
	const char *slash = strrchr(path, '/');
	parser p = {
		.path = path,
		.fragment = fragment,
		.dir_length = slash ? (size_t)(slash - path) + 1 : 0,
		.reporter = r->reporter,
		.config = r->config,
		.status = OPVER_OK,
	};

	return p;
}

/*
 * Parses p's file or text into r->config.  Bad lines are reported and
 * counted; returns OPVER_ERROR_NOMEM or _IO (after a message) when the
 * parse had to stop.  Frees what p owns but not its file.
 */
static opver_status parse(reading *r, parser *p)
{
	if (p->status == OPVER_OK &&
	    ini_parse_stream(next_line, p, handle_pair, p) == -2) {
		/* inih could not allocate its line buffer. */
		p->status = OPVER_ERROR_NOMEM;
	}
	if (p->status == OPVER_ERROR_NOMEM)
		opver__error(r->reporter, "out of memory reading %s '%s'",
			     source_kind(p), p->path);
	else if (p->status == OPVER_ERROR_IO)
		opver__error(r->reporter, "cannot read %s '%s': %s",
			     source_kind(p), p->path, strerror(p->read_errno));
	r->errors += p->errors;
	forget_keys(p);
	free(p->seen);
	return p->status;
}

/* parse() of the regular file open as `fd`, which it closes. */
static opver_status parse_file(reading *r, const char *path, int fd,
			       bool fragment)
{
	parser p = parser_for(r, path, fragment);
	opver_status status;

	p.file = fdopen(fd, "r");
	if (p.file == NULL) {
		close(fd);
		p.status = OPVER_ERROR_NOMEM;
	}
	status = parse(r, &p);
	if (p.file != NULL)
		fclose(p.file);
	return status;
}

/* Opens fragment `name` of the directory open as `dir_fd` and checks it
 * on the descriptor that is then parsed. */
static opver_status read_fragment(reading *r, int dir_fd, const char *path,
				  const char *name)
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
	status = parse_file(r, path, fd, true);
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
static opver_status read_fragments(reading *r)
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
	return finish_reading(&r, parse_file(&r, path, fd, false));
}

opver_status opver__config_read_text(const char *text, size_t size,
				     const opver__reporter *reporter,
				     opver__config *config)
{
	reading r = { .reporter = reporter, .config = config };
	parser p;

	config_init(config);
	p = parser_for(&r, OPVER__CONFIG_TEXT_NAME, false);
	p.text = text != NULL ? text : "";
	p.text_size = text != NULL ? size : 0;
	return finish_reading(&r, parse(&r, &p));
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
