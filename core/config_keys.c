/*
 * config_keys.c - sections, keys and values of the config (config_keys.h):
 * the key table of [opver] and [plugin.NAME] and the parsing of each value.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_keys.h"

/* inih's MAX_SECTION: it cuts a section name to one byte less. */
#define INIH_MAX_SECTION 50

void opver__config_parser_init(opver__config_parser *p, const char *path,
			       bool fragment, const opver__reporter *reporter,
			       opver__config *config)
{
	const char *slash = strrchr(path, '/');

	p->path = path;
	p->fragment = fragment;
	p->dir_length = slash ? (size_t)(slash - path) + 1 : 0;
	p->reporter = reporter;
	p->config = config;
	p->status = OPVER_OK;
}

void opver__config_bad_line(opver__config_parser *p, const char *format, ...)
{
	char message[768];
	va_list args;

	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
	opver__error(p->reporter, "%s:%d: %s", p->path, p->lineno, message);
	p->errors++;
}

opver_status opver__config_add_directory(opver__config *config,
					 const char *prefix,
					 size_t prefix_length,
					 const char *dir, size_t length)
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

opver_status opver__config_add_directories(opver__config *config,
					   const char *prefix,
					   size_t prefix_length,
					   const char *list)
{
	opver_status status = OPVER_OK;

	while (status == OPVER_OK) {
		size_t length = strcspn(list, ":");

		status = opver__config_add_directory(config, prefix,
						     prefix_length, list,
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

static void bad_bool(opver__config_parser *p, const char *key,
		     const char *value)
{
	opver__config_bad_line(p, "%s = '%s' is not a boolean (use true/false, yes/no, on/off or 1/0)",
			       key, value);
}

/* A limit's value, into *out unless it is bad. */
static void parse_limit(opver__config_parser *p, const char *key,
			const char *value, uint64_t *out)
{
	if (!parse_bytes(value, out))
		opver__config_bad_line(p, "%s = '%s' is not a byte count from 1 up",
				       key, value);
}

/* fragment_dir: a relative directory is under the config file's. */
static opver_status set_fragment_dir(opver__config_parser *p,
				     const char *value)
{
	size_t prefix = value[0] == '/' ? 0 : p->dir_length;
	size_t length = strlen(value);

	if (length == 0) {
		opver__config_bad_line(p, "fragment_dir is empty");
		return OPVER_OK;
	}
	p->config->fragment_dir = malloc(prefix + length + 1);
	if (p->config->fragment_dir == NULL)
		return OPVER_ERROR_NOMEM;
	memcpy(p->config->fragment_dir, p->path, prefix);
	memcpy(p->config->fragment_dir + prefix, value, length + 1);
	return OPVER_OK;
}

static opver_status set_opver_key(opver__config_parser *p,
				  const char *key, const char *value)
{
	opver__config *config = p->config;

	if (strcmp(key, "plugin_path") == 0)
		return opver__config_add_directories(config, p->path,
						     p->dir_length, value);
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
			opver__config_bad_line(p, "threads = '%s' is not a thread count from 1 to %d",
					       value, OPVER__MAX_THREADS);
	} else if (strcmp(key, "max_arena_bytes") == 0) {
		parse_limit(p, key, value, &config->max_arena_bytes);
	} else if (strcmp(key, "max_tensor_bytes") == 0) {
		parse_limit(p, key, value, &config->max_tensor_bytes);
	} else if (strcmp(key, "log_level") == 0) {
		if (!parse_log_level(value, &config->log_level))
			opver__config_bad_line(p, "log_level = '%s' is not one of error, warning, info, debug",
					       value);
	} else {
		opver__config_bad_line(p, "unknown key '%s' in [opver] (known: plugin_path, strict, strict_versions, threads, max_arena_bytes, max_tensor_bytes, log_level, fragment_dir, allow_writable_plugins)",
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

/* kernels = NAME, NAME...: appends the names to the section's list; the key
 * may repeat, since a long list does not fit one line. */
static opver_status add_kernels(opver__config_parser *p,
				opver__plugin_config *plugin,
				const char *value)
{
	const char *name = value;

	if (!plugin->has_kernels)
		plugin->kernels_line = p->lineno;
	plugin->has_kernels = true;
	while (*name != '\0') {
		size_t length = strcspn(name, ",");
		const char *start = name, *stop = name + length;
		char **grown;

		while (start < stop && isspace((unsigned char)*start))
			start++;
		while (stop > start && isspace((unsigned char)stop[-1]))
			stop--;
		if (start == stop || start + strcspn(start, " \t") < stop) {
			opver__config_bad_line(p, "kernels = '%s': kernel names are single words separated by commas",
					       value);
			return OPVER_OK;
		}
		grown = realloc(plugin->kernels,
				(plugin->num_kernels + 1) * sizeof(*grown));
		if (grown == NULL)
			return OPVER_ERROR_NOMEM;
		plugin->kernels = grown;
		grown[plugin->num_kernels] = strndup(start, (size_t)(stop - start));
		if (grown[plugin->num_kernels] == NULL)
			return OPVER_ERROR_NOMEM;
		plugin->num_kernels++;
		name += length;
		if (*name == ',')
			name++;
	}
	return OPVER_OK;
}

static opver_status set_plugin_key(opver__config_parser *p,
				   const char *key, const char *value)
{
	opver__plugin_config *plugin =
		&p->config->plugins[p->config->num_plugins - 1];

	if (strcmp(key, "library") == 0) {
		if (value[0] == '\0') {
			opver__config_bad_line(p, "library is empty");
			return OPVER_OK;
		}
		plugin->library = strdup(value);
		return plugin->library ? OPVER_OK : OPVER_ERROR_NOMEM;
	}
	if (strcmp(key, "priority") == 0) {
		if (parse_int32(value, &plugin->priority))
			plugin->has_priority = true;
		else
			opver__config_bad_line(p, "priority = '%s' is not an integer from %d to %d",
					       value, INT32_MIN, INT32_MAX);
		return OPVER_OK;
	}
	if (strcmp(key, "enabled") == 0) {
		if (!parse_bool(value, &plugin->enabled))
			bad_bool(p, key, value);
		return OPVER_OK;
	}
	if (strcmp(key, "kernels") == 0)
		return add_kernels(p, plugin, value);
	return add_option(plugin, key, value);
}

static void forget_keys(opver__config_parser *p)
{
	for (size_t i = 0; i < p->num_seen; i++)
		free(p->seen[i].key);
	p->num_seen = 0;
}

/* Remembers `key`; false (after reporting) when the section has it. */
static bool first_time(opver__config_parser *p, const char *key)
{
	opver__config_seen_key *grown;

	for (size_t i = 0; i < p->num_seen; i++) {
		if (strcmp(p->seen[i].key, key) == 0) {
			opver__config_bad_line(p, "duplicate key '%s' (first set on line %d)",
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

static opver_status add_plugin(opver__config_parser *p, const char *name)
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

void opver__config_section_drop(opver__config_parser *p)
{
	forget_keys(p);
	p->section = OPVER__SECTION_INVALID;
}

void opver__config_section_begin(opver__config_parser *p, const char *name)
{
	static const char plugin_prefix[] = "plugin.";
	const opver__plugin_config *other;

	opver__config_section_drop(p);
	if (strlen(name) >= INIH_MAX_SECTION - 1) {
		opver__config_bad_line(p, "section name '%s...' is longer than inih's limit of %d characters; shorten it",
				       name, INIH_MAX_SECTION - 2);
	} else if (strcmp(name, "opver") == 0 && p->fragment) {
		opver__config_bad_line(p, "[opver] is not allowed in a fragment: fragments hold [plugin.NAME] sections only (set [opver] keys in the main config file)");
	} else if (strcmp(name, "opver") == 0) {
		if (p->opver_line != 0) {
			opver__config_bad_line(p, "duplicate section [opver] (first on line %d)",
					       p->opver_line);
			return;
		}
		p->opver_line = p->lineno;
		p->section = OPVER__SECTION_OPVER;
	} else if (strncmp(name, plugin_prefix, sizeof(plugin_prefix) - 1) == 0) {
		name += sizeof(plugin_prefix) - 1;
		if (name[0] == '\0') {
			opver__config_bad_line(p, "section [plugin.] has no plugin name (as in [plugin.reference])");
		} else if ((other = find_plugin(p->config, name)) != NULL) {
			if (strcmp(other->file, p->path) == 0)
				opver__config_bad_line(p, "duplicate section [plugin.%s] (first on line %d)",
						       name, other->line);
			else
				opver__config_bad_line(p, "duplicate section [plugin.%s] (first at %s:%d; a plugin has one section in all config files)",
						       name, other->file, other->line);
		} else {
			p->status = add_plugin(p, name);
			p->section = OPVER__SECTION_PLUGIN;
		}
	} else {
		opver__config_bad_line(p, "unknown section [%s] (expected %s)",
				       name, p->fragment ? "[plugin.NAME]" :
				       "[opver] or [plugin.NAME]");
	}
}

void opver__config_pair(opver__config_parser *p, const char *key,
			const char *value)
{
	if (p->status != OPVER_OK || p->section == OPVER__SECTION_INVALID)
		return;
	if (key[0] == '\0') {
		opver__config_bad_line(p, "no key before the '='");
		return;
	}
	if (p->section == OPVER__SECTION_NONE) {
		opver__config_bad_line(p, "'%s' is outside any section (put it under %s)",
				       key, p->fragment ? "[plugin.NAME]" :
				       "[opver] or [plugin.NAME]");
		return;
	}
	/* A kernels list may go on over several lines. */
	if ((p->section == OPVER__SECTION_OPVER || strcmp(key, "kernels") != 0) &&
	    !first_time(p, key))
		return;
	if (p->section == OPVER__SECTION_OPVER)
		p->status = set_opver_key(p, key, value);
	else
		p->status = set_plugin_key(p, key, value);
}

void opver__config_parser_free(opver__config_parser *p)
{
	forget_keys(p);
	free(p->seen);
}
