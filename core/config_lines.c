/*
 * config_lines.c - reads one config file or text with inih, line by line.
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
 * Config text in memory is read by the same reader, from the buffer
 * instead of a FILE: next_char() is the only place the two differ.
 */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config_keys.h"
#include "config_lines.h"

/* The reader's own lines (see above).  The reader refuses control
 * characters, so no physical line is either. */
#define RESET_SECTION "\x01"
#define RESET_LINE "[" RESET_SECTION "]"
#define MARKER_LINE "\x01="

/* The line next_line() handed inih last. */
typedef enum fed_line {
	FED_NOTHING,
	FED_RESET,
	FED_PHYSICAL,
	FED_MARKER
} fed_line;

/* A parser and the lines it has been fed. */
typedef struct line_reader {
	opver__config_parser keys;
	FILE *file;             /* NULL when reading text */
	const char *text;       /* text_size bytes, borrowed; read to offset */
	size_t text_size;
	size_t text_offset;
	fed_line fed;
	bool has_content;       /* the line is neither blank nor a comment */
	bool header_like;       /* and starts with '[' */
	bool got_pair;          /* inih found a key/value pair on it */
	int read_errno;
} line_reader;

/* The marker after a physical line: `section` is inih's. */
static void end_line(line_reader *p, const char *section)
{
	if (strcmp(section, RESET_SECTION) != 0)
		opver__config_section_begin(&p->keys, section);
	else if (p->has_content && !p->got_pair && p->header_like)
		opver__config_bad_line(&p->keys, "section header has no closing ']'");
	else if (p->has_content && !p->got_pair)
		opver__config_bad_line(&p->keys, "expected 'key = value', '[section]' or a comment");
	p->has_content = false;
	p->got_pair = false;
}

/* The inih handler: one key/value pair of the physical line, or the
 * marker after it. */
static int handle_pair(void *user, const char *section, const char *key,
		       const char *value)
{
	line_reader *p = user;

	if (p->fed == FED_MARKER) {
		end_line(p, section);
		return 1;
	}
	/* The section is the reset's: p->keys knows the current one. */
	p->got_pair = true;
	opver__config_pair(&p->keys, key, value);
	return 1;
}

static bool is_control(int c)
{
	return (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f;
}

/* The next byte of the file or text; EOF at its end or on a read error
 * (read_failed() tells which). */
static int next_char(line_reader *p)
{
	if (p->file != NULL)
		return getc(p->file);
	if (p->text_offset == p->text_size)
		return EOF;
	return (unsigned char)p->text[p->text_offset++];
}

/* Whether reading the file failed; then p->keys.status is OPVER_ERROR_IO.
 * Reading text cannot fail. */
static bool read_failed(line_reader *p)
{
	if (p->file == NULL || !ferror(p->file))
		return false;
	p->read_errno = errno;
	p->keys.status = OPVER_ERROR_IO;
	return true;
}

/*
 * Reads the next physical line into `buffer` of `size` bytes; false at the
 * end of the file or on a read error (p->keys.status is then
 * OPVER_ERROR_IO).  A line that is too long or holds a control character
 * is reported, read to its end and handed on empty.
 */
static bool read_physical_line(line_reader *p, char *buffer, size_t size)
{
	static const char bom[] = "\xEF\xBB\xBF";
	size_t limit = size - 2; /* as fgets() gives it: line, '\n', '\0' */
	bool check_bom = p->keys.lineno == 0;
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
	p->keys.lineno++;
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
			opver__config_bad_line(&p->keys, "line is longer than %zu characters, inih's limit; shorten it (values cannot go on over lines)",
					       limit);
		else
			opver__config_bad_line(&p->keys, "byte 0x%02x is a control character; a config file is text (is this the right file?)",
					       (unsigned)control);
		/* Keys after a header that cannot be read belong to no
		 * section that is known. */
		if (p->header_like)
			opver__config_section_drop(&p->keys);
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
	line_reader *p = stream;

	if (p->fed == FED_PHYSICAL) {
		p->fed = FED_MARKER;
		return strcpy(buffer, MARKER_LINE);
	}
	if (p->fed != FED_RESET) {
		p->fed = FED_RESET;
		return strcpy(buffer, RESET_LINE);
	}
	if (p->keys.status != OPVER_OK ||
	    !read_physical_line(p, buffer, (size_t)size))
		return NULL;
	p->fed = FED_PHYSICAL;
	return buffer;
}

/* What p reads, as messages call it. */
static const char *source_kind(const line_reader *p)
{
	if (p->keys.fragment)
		return "fragment";
	return p->text != NULL ? "config text" : "config file";
}

/*
 * Parses p's file or text into r->config.  Bad lines are reported and
 * counted; returns OPVER_ERROR_NOMEM or _IO (after a message) when the
 * parse had to stop.  Frees what p owns but not its file.
 */
static opver_status parse(opver__config_reading *r, line_reader *p)
{
	if (p->keys.status == OPVER_OK &&
	    ini_parse_stream(next_line, p, handle_pair, p) == -2) {
		/* inih could not allocate its line buffer. */
		p->keys.status = OPVER_ERROR_NOMEM;
	}
	if (p->keys.status == OPVER_ERROR_NOMEM)
		opver__error(r->reporter, "out of memory reading %s '%s'",
			     source_kind(p), p->keys.path);
	else if (p->keys.status == OPVER_ERROR_IO)
		opver__error(r->reporter, "cannot read %s '%s': %s",
			     source_kind(p), p->keys.path,
			     strerror(p->read_errno));
	r->errors += p->keys.errors;
	opver__config_parser_free(&p->keys);
	return p->keys.status;
}

opver_status opver__config_parse_file(opver__config_reading *r,
				      const char *path, int fd,
				      bool fragment)
{
	line_reader p = { .file = fdopen(fd, "r") };
	opver_status status;

	opver__config_parser_init(&p.keys, path, fragment, r->reporter,
				  r->config);
	if (p.file == NULL) {
		close(fd);
		p.keys.status = OPVER_ERROR_NOMEM;
	}
	status = parse(r, &p);
	if (p.file != NULL)
		fclose(p.file);
	return status;
}

opver_status opver__config_parse_text(opver__config_reading *r,
				      const char *text, size_t size)
{
	line_reader p = {
		.text = text != NULL ? text : "",
		.text_size = text != NULL ? size : 0,
	};

	opver__config_parser_init(&p.keys, OPVER__CONFIG_TEXT_NAME, false,
				  r->reporter, r->config);
	return parse(r, &p);
}
