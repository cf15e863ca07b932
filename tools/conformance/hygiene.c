/*
 * hygiene.c - a plugin's exports and imports, read from its ELF dynamic
 * symbol table (elf_symbols.c), and whether it loads and unloads without
 * leaving anything behind.
 *
 * Leaks are measured on this process, which is what a host sees: heap in
 * use (mallinfo2), open file descriptors (/proc/self/fd) and mappings
 * (/proc/self/maps), before and after CYCLES runtime create/destroy pairs.
 * Warm-up pairs run first, so the allocations the dynamic loader makes
 * once are not counted.  The pairs run on threads of their own, and the
 * measurements are taken after each thread has exited: glibc keeps freed
 * small chunks in a per-thread cache that mallinfo2 counts as in use, and
 * empties it only when the thread exits.  Nothing between two measurements
 * allocates except the runtime and the plugin: details are built in fixed
 * buffers and log messages captured in one.
 */
#include "hygiene.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_MALLINFO2
#include <malloc.h>
#endif

#include <opver/opver.h>
#include <opver/plugin.h>

#include "elf_symbols.h"
#include "runtimes.h"

#define SUITE "hygiene"
#define CHECK_EXPORTS "exports only " OPVER_PLUGIN_ENTRY_NAME
#define CHECK_IMPORTS "imports no opver_* symbols"
#define CHECK_LOADS "loads through the public API"
#define CHECK_HEAP "load/unload cycles leak no heap"
#define CHECK_FDS "load/unload cycles leak no file descriptors"
#define CHECK_MAPS "load/unload cycles leak no mappings"
#define CHECK_INIT_FINI "plugin init and fini pair up"

/* Runtime create/destroy pairs measured. */
#define CYCLES 20
/* The first dlopen of a process allocates for good (glibc's table of
 * loaded objects, the cycles' thread's arena): warm up with batches of
 * WARM_UP pairs until a batch leaves the heap as it found it, or at most
 * MAX_WARM_UP batches. */
#define WARM_UP 2
#define MAX_WARM_UP 8
/* Heap growth tolerated over all CYCLES together, for allocator
 * bookkeeping; one of glibc's smallest chunks (32 bytes on 64-bit) leaked
 * per load exceeds it tenfold. */
#define HEAP_SLACK 64

/* The checks that need the plugin loaded, skipped when it does not load. */
static const char *const leak_checks[] = { CHECK_HEAP, CHECK_FDS, CHECK_MAPS,
					   CHECK_INIT_FINI };
#define NUM_LEAK_CHECKS (sizeof(leak_checks) / sizeof(leak_checks[0]))

/* The text of a check's details, truncated when it does not fit. */
typedef struct details {
	char text[8192];
	size_t length;
} details;

static void say(details *d, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static void say(details *d, const char *format, ...)
{
	size_t room = sizeof(d->text) - d->length;
	va_list args;
	int n;

	if (room <= 1)
		return;
	va_start(args, format);
	n = vsnprintf(d->text + d->length, room, format, args);
	va_end(args);
	if (n > 0)
		d->length += (size_t)n < room ? (size_t)n : room - 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Records one check; details NULL or empty for none.  The report keeps its
 * own copy, and a report out of memory loses the check, which the caller
 * cannot do better about. */
static void record(cf_report *report, const char *check, cf_outcome outcome,
		   double started, const details *d)
{
	(void)cf_report_add(report, SUITE, check, outcome, now() - started,
			    d != NULL && d->length > 0 ? d->text : NULL);
}

/* Reads a whole regular file into memory the caller frees. */
static unsigned char *read_file(const char *path, size_t *size, details *why)
{
	unsigned char *data = NULL;
	struct stat st;
	size_t done = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		say(why, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		say(why, "cannot stat: %s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		say(why, "not a regular file");
		goto out;
	}
	if ((uintmax_t)st.st_size > SIZE_MAX - 1 ||
	    (data = malloc((size_t)st.st_size + 1)) == NULL) {
		say(why, "cannot read %jd bytes: out of memory",
		    (intmax_t)st.st_size);
		goto out;
	}
	/* A file that shrinks meanwhile is read as far as it goes. */
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, data + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			say(why, "cannot read: %s", strerror(errno));
			free(data);
			data = NULL;
			goto out;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	*size = done;
out:
	close(fd);
	return data;
}

static void say_names(details *d, const cf_symbol_list *list)
{
	size_t shown = list->count < CF_ELF_MAX_NAMES ? list->count :
						   CF_ELF_MAX_NAMES;

	for (size_t i = 0; i < shown; i++)
		say(d, "%s%s", i > 0 ? ", " : "", list->names[i]);
	if (list->count > shown)
		say(d, " (and %zu more)", list->count - shown);
}

/* Records the export and import checks; false when the symbols could not
 * be read. */
static bool check_symbols(const char *path, cf_report *report)
{
	double started = now();
	cf_plugin_symbols symbols;
	details exports = { .length = 0 }, imports = { .length = 0 };
	cf_elf_error error;
	cf_outcome outcome;
	unsigned char *data;
	size_t size = 0;

	data = read_file(path, &size, &exports);
	if (data == NULL ||
	    !cf_elf_read_symbols(data, size, &symbols, &error)) {
		details reason = exports;

		if (data != NULL)
			say(&reason, "%s", error.text);
		exports.length = 0;
		say(&exports, "cannot list the dynamic symbols of '%s': %s",
		    path, reason.text);
		record(report, CHECK_EXPORTS, CF_FAIL, started, &exports);
		say(&imports, "the dynamic symbols could not be read (see \"%s\")",
		    CHECK_EXPORTS);
		record(report, CHECK_IMPORTS, CF_SKIP, started, &imports);
		free(data);
		return false;
	}

	if (!symbols.has_entry && symbols.has_abi1_entry)
		say(&exports,
		    "exports %s, the entry point of plugin ABI 1.x, and not %s: it was built for plugin ABI 1.x, which an opver of plugin ABI %d.%d refuses; rebuild it against opver %d.x's plugin.h\n",
		    CF_ABI1_ENTRY_NAME, OPVER_PLUGIN_ENTRY_NAME,
		    OPVER_ABI_MAJOR, OPVER_ABI_MINOR, OPVER_ABI_MAJOR);
	else if (!symbols.has_entry)
		say(&exports, "does not export %s, so no host can load it\n",
		    OPVER_PLUGIN_ENTRY_NAME);
	else if (symbols.has_abi1_entry)
		say(&exports,
		    "also exports %s, the entry point of plugin ABI 1.x, which no %d.x host calls: remove it\n",
		    CF_ABI1_ENTRY_NAME, OPVER_ABI_MAJOR);
	if (symbols.exports.count > 0) {
		say(&exports, "exports %zu symbol%s besides %s: ",
		    symbols.exports.count,
		    symbols.exports.count == 1 ? "" : "s",
		    OPVER_PLUGIN_ENTRY_NAME);
		say_names(&exports, &symbols.exports);
		say(&exports,
		    "\nexported internals can clash with the host's or another plugin's symbols: build with -fvisibility=hidden (OPVER_PLUGIN_ENTRY marks the entry visible) or link with libtool's -export-symbols-regex '^%s$'",
		    OPVER_PLUGIN_ENTRY_NAME);
	}
	outcome = exports.length > 0 ? CF_FAIL : CF_PASS;
	if (symbols.pthreadpool.count > 0) {
		say(&exports, "%sserves pthreadpool's API to the libraries it runs (the host's threads): ",
		    outcome == CF_FAIL ? "\n" : "");
		say_names(&exports, &symbols.pthreadpool);
	}
	record(report, CHECK_EXPORTS, outcome, started, &exports);

	if (symbols.imports.count > 0) {
		say(&imports, "imports %zu opver_* symbol%s: ",
		    symbols.imports.count,
		    symbols.imports.count == 1 ? "" : "s");
		say_names(&imports, &symbols.imports);
		say(&imports,
		    "\na plugin reaches the core only through the opver_host table its callbacks are given (ctx->host); linking against libopver ties it to one build of the library and bypasses the ABI negotiation");
	}
	record(report, CHECK_IMPORTS,
	       imports.length > 0 ? CF_FAIL : CF_PASS, started, &imports);
	free(data);
	return true;
}

/* ---------------------------------------------------------------- loading */

/* The runtime's messages of the last create, at info level and above. */
typedef struct log_capture {
	char text[4096];
	size_t length;
} log_capture;

static void capture_log(void *user_data, opver_log_level level,
			const char *message)
{
	log_capture *log = user_data;
	size_t room = sizeof(log->text) - log->length;
	int n;

	if (room <= 1)
		return;
	n = snprintf(log->text + log->length, room, "  %s: %s\n",
		     opver_log_level_name(level), message);
	if (n > 0)
		log->length += (size_t)n < room ? (size_t)n : room - 1;
}

static const char *or_none(const char *text)
{
	return text != NULL ? text : "(none)";
}

/* Creates a runtime from the config, capturing its messages, and checks
 * that exactly the one plugin loaded; destroys it again.  false with the
 * reason in why. */
static bool load_once(const char *config_path, log_capture *log,
		      opver_plugin_info *info, details *why)
{
	opver_runtime_options options;
	opver_runtime *runtime;
	opver_status status;
	size_t count;
	bool loaded = false;

	opver_runtime_options_init(&options);
	options.config_path = config_path;
	options.log = capture_log;
	options.log_user_data = log;
	options.log_level = OPVER_LOG_INFO;
	log->length = 0;
	log->text[0] = '\0';
	status = opver_runtime_create(&options, &runtime);
	if (status != OPVER_OK) {
		say(why, "opver_runtime_create failed (%s):\n%s",
		    opver_status_name(status), log->text);
		return false;
	}
	count = opver_runtime_plugin_count(runtime);
	if (count == 0) {
		say(why, "the plugin was not loaded:\n%s", log->text);
	} else if (count > 1) {
		say(why, "%zu plugins loaded instead of this one alone: is OPVER_PLUGIN_PATH set?  The leak checks need the plugin alone.\n%s",
		    count, log->text);
	} else if (info != NULL) {
		loaded = opver_runtime_plugin_info(runtime, 0, info) == OPVER_OK;
		if (loaded)
			say(why, "loaded %s %s by %s, built for plugin ABI %" PRIu32 ".%" PRIu32 " (runs on %" PRIu32 ".%" PRIu32 " and later), %" PRIu32 " kernel%s%s%s",
			    or_none(info->name), or_none(info->version),
			    or_none(info->vendor), info->abi_major,
			    info->abi_minor, info->abi_major,
			    info->min_abi_minor, info->num_kernels,
			    info->num_kernels == 1 ? "" : "s",
			    info->delegate_name != NULL ? ", delegate " : "",
			    info->delegate_name != NULL ? info->delegate_name
							: "");
		else
			say(why, "opver_runtime_plugin_info failed");
	} else {
		loaded = true;
	}
	opver_runtime_destroy(runtime);
	return loaded;
}

/* Writes a config naming the plugin alone, under its absolute path, which
 * *absolute receives (caller frees). */
static bool write_config(const char *plugin_path, char *config_path,
			 size_t size, char **absolute, details *why)
{
	cf_section section = { "vendor", NULL, false, 0 };
	cf_text reason = { 0 };
	bool written;

	*absolute = realpath(plugin_path, NULL);
	if (*absolute == NULL) {
		say(why, "cannot find '%s': %s", plugin_path, strerror(errno));
		return false;
	}
	section.library = *absolute;
	written = cf_write_config(&section, 1, config_path, size, &reason);
	if (!written)
		say(why, "%s", cf_text_get(&reason));
	cf_text_free(&reason);
	return written;
}

/* ---------------------------------------------------------------- leaks */

/* What the process holds: heap in use, open descriptors, mappings and the
 * mappings of files; -1 for a count that cannot be taken. */
typedef struct usage {
	size_t heap;
	long fds;
	long maps;
	long file_maps;
} usage;

static long count_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *entry;
	long count = 0;

	if (dir == NULL)
		return -1;
	while ((entry = readdir(dir)) != NULL)
		if (entry->d_name[0] != '.')
			count++;
	closedir(dir);
	return count;
}

/* Counts the lines of /proc/self/maps, and those naming a file: only a
 * file's path puts a '/' on a line. */
static void count_maps(usage *u)
{
	char buf[4096];
	bool names_file = false;
	ssize_t n;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	u->maps = u->file_maps = -1;
	if (fd < 0)
		return;
	u->maps = u->file_maps = 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR)) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '/')
				names_file = true;
			if (buf[i] != '\n')
				continue;
			u->maps++;
			u->file_maps += names_file;
			names_file = false;
		}
	}
	close(fd);
	if (n < 0)
		u->maps = u->file_maps = -1;
}

/* Taken last: the counts above allocate and free. */
static usage measure(void)
{
	usage u = { .fds = count_fds() };

	count_maps(&u);
#ifdef HAVE_MALLINFO2
	struct mallinfo2 info = mallinfo2();

	u.heap = info.uordblks + info.hblkhd;
#endif
	return u;
}

/* The negotiation read_hooks offers the entry point; a decline keeps its
 * reason. */
typedef struct hooks_negotiation {
	opver_negotiation public;       /* first: what the plugin is given */
	bool declined;
	char reason[256];
} hooks_negotiation;

static const opver_plugin *note_decline(const opver_negotiation *public,
					const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static const opver_plugin *note_decline(const opver_negotiation *public,
					const char *format, ...)
{
	hooks_negotiation *n = (hooks_negotiation *)(void *)public;
	va_list args;

	n->declined = true;
	va_start(args, format);
	vsnprintf(n->reason, sizeof(n->reason), format, args);
	va_end(args);
	return NULL;
}

/* Whether the plugin's descriptor has init and fini, read through its
 * entry point as the loader negotiates; false with the reason in why. */
static bool read_hooks(const char *path, bool *has_init, bool *has_fini,
		       details *why)
{
	hooks_negotiation n = {
		.public = {
			.struct_size = sizeof(opver_negotiation),
			.host_abi_major = OPVER_ABI_MAJOR,
			.host_abi_minor = OPVER_ABI_MINOR,
			.decline = note_decline,
		},
	};
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	opver_plugin_entry_fn entry;
	const opver_plugin *plugin;
	bool known = false;

	if (handle == NULL) {
		say(why, "%s", dlerror());
		return false;
	}
	/* POSIX guarantees a function address survives this cast. */
	entry = (opver_plugin_entry_fn)dlsym(handle, OPVER_PLUGIN_ENTRY_NAME);
	plugin = entry != NULL ? entry(&n.public) : NULL;
	if (n.declined) {
		say(why, "%s declined: %s", OPVER_PLUGIN_ENTRY_NAME, n.reason);
	} else if (plugin == NULL) {
		say(why, "no descriptor from %s", OPVER_PLUGIN_ENTRY_NAME);
	} else if (plugin->struct_size <
		   offsetof(opver_plugin, fini) + sizeof(plugin->fini)) {
		say(why, "descriptor struct_size %" PRIu32 " is too small",
		    plugin->struct_size);
	} else {
		*has_init = plugin->init != NULL;
		*has_fini = plugin->fini != NULL;
		known = true;
	}
	dlclose(handle);
	return known;
}

static void record_heap(cf_report *report, const usage *before,
			const usage *after, double started, bool *grew)
{
	details d = { .length = 0 };
	cf_outcome outcome;

	*grew = false;
	if (before->heap == 0 && after->heap == 0) {
		say(&d, "mallinfo2() reports no heap in use (AddressSanitizer and other tools replace glibc's allocator, and a libc without mallinfo2 has none to report), so heap growth cannot be measured");
		record(report, CHECK_HEAP, CF_SKIP, started, &d);
		return;
	}
	*grew = after->heap > before->heap + HEAP_SLACK;
	if (*grew) {
		size_t growth = after->heap - before->heap;

		say(&d, "heap in use grew by %zu bytes over %d load/unload cycles (%zu bytes per cycle; %d bytes of slack allowed): %zu before, %zu after\nsomething the plugin allocates when loaded (in init or a constructor) is not freed when unloaded (in fini or a destructor)",
		    growth, CYCLES, growth / CYCLES, HEAP_SLACK, before->heap,
		    after->heap);
		outcome = CF_FAIL;
	} else {
		say(&d, "heap in use: %zu bytes before, %zu after %d load/unload cycles (%d bytes of slack allowed)",
		    before->heap, after->heap, CYCLES, HEAP_SLACK);
		outcome = CF_PASS;
	}
	record(report, CHECK_HEAP, outcome, started, &d);
}

/* Records a count that must not grow; note NULL or a line on what was
 * counted. */
static void record_count(cf_report *report, const char *check,
			 const char *what, const char *note,
			 const char *source, long before, long after,
			 const char *cause)
{
	details d = { .length = 0 };
	double started = now();

	if (before < 0 || after < 0) {
		say(&d, "%s cannot be read, so %s cannot be counted", source,
		    what);
		record(report, check, CF_SKIP, started, &d);
		return;
	}
	say(&d, "%s: %ld before, %ld after %d load/unload cycles", what,
	    before, after, CYCLES);
	if (note != NULL)
		say(&d, "\n%s", note);
	if (after > before)
		say(&d, "\n%s", cause);
	record(report, check, after > before ? CF_FAIL : CF_PASS, started, &d);
}

static void record_hooks(cf_report *report, const details *unknown,
			 bool has_init, bool has_fini, bool heap_measured,
			 bool grew)
{
	details d = { .length = 0 };
	double started = now();
	cf_outcome outcome = CF_PASS;

	if (unknown != NULL) {
		say(&d, "the descriptor could not be read: %s", unknown->text);
		outcome = CF_SKIP;
	} else if (!has_init || has_fini) {
		say(&d, "%s", !has_init ? "no init" : "init and fini");
	} else if (!heap_measured) {
		say(&d, "init without fini, and whether init allocates cannot be measured (see \"%s\")",
		    CHECK_HEAP);
		outcome = CF_SKIP;
	} else if (grew) {
		say(&d, "the plugin has init but no fini: what init allocates is never freed, the likely cause of the heap growth (see \"%s\"); add a fini that frees it",
		    CHECK_HEAP);
		outcome = CF_FAIL;
	} else {
		say(&d, "init without fini, but the heap does not grow");
	}
	record(report, CHECK_INIT_FINI, outcome, started, &d);
}

/* Create/destroy pairs run on a thread of their own. */
typedef struct cycles_job {
	const char *config_path;
	int cycles;
	int failed;             /* 0, or the pair that failed, from 1 */
	log_capture log;
	details why;            /* why that pair failed */
} cycles_job;

static void *run_cycles(void *arg)
{
	cycles_job *job = arg;

	for (int i = 1; i <= job->cycles; i++) {
		if (!load_once(job->config_path, &job->log, NULL, &job->why)) {
			job->failed = i;
			break;
		}
	}
	return NULL;
}

/* Runs `cycles` pairs on a new thread and waits for it to exit; false
 * with the reason in failure. */
static bool cycles_on_thread(cycles_job *job, int cycles, const char *what,
			     details *failure)
{
	pthread_t thread;
	int error;

	job->cycles = cycles;
	job->failed = 0;
	error = pthread_create(&thread, NULL, run_cycles, job);
	if (error != 0) {
		say(failure, "cannot start a thread: %s", strerror(error));
		return false;
	}
	pthread_join(thread, NULL);
	if (job->failed == 0)
		return true;
	say(failure, "%s load %d of %d failed: %s", what, job->failed, cycles,
	    job->why.text);
	return false;
}

static void check_cycles(const char *config_path, const char *plugin,
			 cf_report *report)
{
	double started = now();
	details hooks = { .length = 0 }, failure = { .length = 0 };
	bool has_init = false, has_fini = false, known, grew, heap_measured;
	cycles_job job = { .config_path = config_path };
	usage before, after;

	known = read_hooks(plugin, &has_init, &has_fini, &hooks);
	before = measure();
	for (int batch = 1; batch <= MAX_WARM_UP; batch++) {
		size_t heap = before.heap;

		if (!cycles_on_thread(&job, WARM_UP, "warm-up", &failure))
			goto failed;
		before = measure();
		if (before.heap == heap)
			break;
	}
	if (!cycles_on_thread(&job, CYCLES, "measured", &failure))
		goto failed;
	after = measure();
	/* The cycles' time goes to the heap check, which they serve first. */
	record_heap(report, &before, &after, started, &grew);
	record_count(report, CHECK_FDS, "open file descriptors", NULL,
		     "/proc/self/fd", before.fds, after.fds,
		     "the plugin opens files, sockets or devices when loaded that it does not close when unloaded");
	/* An allocator other than glibc's (AddressSanitizer's) maps memory
	 * of its own as it goes: then only file mappings are compared. */
	heap_measured = before.heap != 0 || after.heap != 0;
	record_count(report, CHECK_MAPS,
		     heap_measured ? "mappings" : "file mappings",
		     heap_measured ? NULL
				   : "anonymous mappings are left out: the allocator is not glibc's and maps memory of its own",
		     "/proc/self/maps",
		     heap_measured ? before.maps : before.file_maps,
		     heap_measured ? after.maps : after.file_maps,
		     "something the plugin maps when loaded (a file, a device, a library it opens) stays mapped after it is unloaded");
	record_hooks(report, known ? NULL : &hooks, has_init, has_fini,
		     heap_measured, grew);
	return;
failed:
	/* Loading once but not again is itself what these checks catch. */
	for (size_t i = 0; i < NUM_LEAK_CHECKS; i++)
		record(report, leak_checks[i], CF_FAIL, started, &failure);
}

void cf_check_hygiene(const char *plugin_path, cf_report *report)
{
	char config_path[PATH_MAX];
	details why = { .length = 0 };
	double started;
	char *absolute = NULL;
	opver_plugin_info info;
	bool loaded = false;
	log_capture log;

	if (!check_symbols(plugin_path, report)) {
		/* The dynamic loader trusts what it reads: a corrupt symbol
		 * table can crash it, and this process with it. */
		say(&why, "not loaded: a file whose dynamic symbols cannot be read is not handed to the dynamic loader (see \"%s\")",
		    CHECK_EXPORTS);
		record(report, CHECK_LOADS, CF_SKIP, now(), &why);
		goto skip_leak_checks;
	}
	started = now();
	if (write_config(plugin_path, config_path, sizeof(config_path),
			 &absolute, &why)) {
		loaded = load_once(config_path, &log, &info, &why);
		record(report, CHECK_LOADS, loaded ? CF_PASS : CF_FAIL, started,
		       &why);
		if (loaded)
			check_cycles(config_path, absolute, report);
		unlink(config_path);
	} else {
		record(report, CHECK_LOADS, CF_FAIL, started, &why);
	}
	free(absolute);
	if (loaded)
		return;
skip_leak_checks:
	why.length = 0;
	say(&why, "the plugin was not loaded (see \"%s\")", CHECK_LOADS);
	for (size_t i = 0; i < NUM_LEAK_CHECKS; i++)
		record(report, leak_checks[i], CF_SKIP, now(), &why);
}
