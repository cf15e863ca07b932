/*
 * isolate.c - the plugin's code runs in a child process watched by the
 * parent (isolate.h).
 *
 * A record on the pipe is a 32-bit length (of what follows), a type byte
 * and the type's fields, in the host's byte order (both ends are this
 * program): integers as uint8/uint32/uint64, seconds as a double, strings
 * as a uint32 length (UINT32_MAX for NULL) and their bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hygiene.h"
#include "isolate.h"
#include "text.h"

enum record_type {
	RECORD_LOADED = 1,      /* both plugins loaded */
	RECORD_DELIVERED,       /* ordinal: every record of the cases
				   before it is sent */
	RECORD_RESULT,          /* suite, name, outcome, seconds, details */
	RECORD_DONE             /* status: the work returned */
};

/* No record is longer: a longer length is a broken pipe's garbage. */
#define RECORD_LIMIT (64u << 20)
#define NO_STRING UINT32_MAX

/* Pending records are sent once they are this long. */
#define FLUSH_SIZE (64u << 10)

/*
 * Where the child is, in memory it shares with the parent: set before
 * the plugin's code runs, without a system call, so that neither a crash
 * nor a hang can hide it.
 */
typedef struct position {
	_Atomic bool in_case;           /* cleared once the cases are over */
	_Atomic uint64_t ordinal;       /* the case begun last */
	_Atomic bool bound;
	_Atomic int64_t started;        /* its CLOCK_MONOTONIC start, ns */
} position;

static int64_t now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* --------------------------------------------------------- child side */

/* Bytes being written; `failed` once out of memory. */
typedef struct record {
	unsigned char *data;    /* owned */
	size_t used, capacity;
	bool failed;
} record;

/*
 * The child's end of the pipe.  Records wait in `pending` and are sent
 * in large writes, each after a RECORD_DELIVERED naming the case they
 * reach: what a crash loses, the next child runs again.
 * each_result: every result is sent at once (the hygiene checks run the
 * plugin's code between results); each_case: pending records are sent
 * as each case begins (--list writes its lines itself).
 */
typedef struct channel {
	int fd;
	bool each_result, each_case;
	record pending;
	position *at;           /* shared with the parent */
	bool failed;            /* a write failed or memory ran out */
} channel;

static void put(record *m, const void *bytes, size_t size)
{
	if (m->failed)
		return;
	if (m->capacity - m->used < size) {
		size_t capacity = m->capacity ? m->capacity : 256;
		unsigned char *data;

		while (capacity - m->used < size)
			capacity *= 2;
		data = realloc(m->data, capacity);
		if (data == NULL) {
			m->failed = true;
			return;
		}
		m->data = data;
		m->capacity = capacity;
	}
	memcpy(m->data + m->used, bytes, size);
	m->used += size;
}

static void put_u8(record *m, uint8_t v) { put(m, &v, sizeof(v)); }
static void put_u32(record *m, uint32_t v) { put(m, &v, sizeof(v)); }
static void put_u64(record *m, uint64_t v) { put(m, &v, sizeof(v)); }

static void put_string(record *m, const char *s)
{
	size_t length = s != NULL ? strlen(s) : 0;

	if (length >= NO_STRING / 2) {
		m->failed = true;
		return;
	}
	put_u32(m, s != NULL ? (uint32_t)length : NO_STRING);
	if (s != NULL)
		put(m, s, length);
}

/* A record of `type`, its length to be filled in by send(). */
static void start(record *m, enum record_type type)
{
	put_u32(m, 0);
	put_u8(m, (uint8_t)type);
}

/* Writes what is pending; false (c->failed) when it cannot. */
static bool flush(channel *c)
{
	record *p = &c->pending;
	size_t done = 0;

	if (p->failed)
		c->failed = true;
	while (!c->failed && done < p->used) {
		ssize_t n = write(c->fd, p->data + done, p->used - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			c->failed = true;
		else
			done += (size_t)n;
	}
	p->used = 0;
	return !c->failed;
}

/* Queues m whole (and frees it), writing it now when `now`. */
static bool send(channel *c, record *m, bool now)
{
	uint32_t length = (uint32_t)(m->used - sizeof(uint32_t));

	if (m->failed || m->used - sizeof(uint32_t) > RECORD_LIMIT)
		c->failed = true;
	else
		memcpy(m->data, &length, sizeof(length));
	if (!c->failed)
		put(&c->pending, m->data, m->used);
	free(m->data);
	return now ? flush(c) : !c->failed && !c->pending.failed;
}

static void send_simple(channel *c, enum record_type type)
{
	record m = { 0 };

	start(&m, type);
	send(c, &m, true);
}

static bool forward_result(void *context, const char *suite, const char *name,
			   cf_outcome outcome, double seconds,
			   const char *details)
{
	record m = { 0 };

	start(&m, RECORD_RESULT);
	put_string(&m, suite);
	put_string(&m, name);
	put_u8(&m, (uint8_t)outcome);
	put(&m, &seconds, sizeof(seconds));
	put_string(&m, details);
	return send(context, &m, ((channel *)context)->each_result);
}

static void hook_loaded(void *context)
{
	send_simple(context, RECORD_LOADED);
}

static void hook_begin(void *context, uint64_t ordinal, bool bound)
{
	channel *c = context;

	/* At a case's first begin, everything pending is of earlier cases. */
	if ((c->pending.used >= FLUSH_SIZE || c->each_case) &&
	    (!atomic_load(&c->at->in_case) ||
	     atomic_load(&c->at->ordinal) != ordinal)) {
		record m = { 0 };

		start(&m, RECORD_DELIVERED);
		put_u64(&m, ordinal);
		send(c, &m, true);
	}
	atomic_store(&c->at->ordinal, ordinal);
	atomic_store(&c->at->bound, bound);
	atomic_store(&c->at->started, now_ns());
	atomic_store(&c->at->in_case, true);
}

static void hook_unloading(void *context)
{
	channel *c = context;

	atomic_store(&c->at->in_case, false);
	atomic_store(&c->at->started, now_ns());
	flush(c);
}

/* What a child does: records its checks in `report` and returns an exit
 * status of opver-conformance. */
typedef int work_fn(void *arg, cf_report *report);

static int run_work(void *arg, cf_report *report)
{
	return cf_run(arg, report);
}

static int hygiene_work(void *arg, cf_report *report)
{
	cf_check_hygiene(arg, report);
	return CF_EXIT_PASS;
}

/* The child: does the work, says it is done, exits. */
static _Noreturn void child(channel *c, work_fn *work, void *arg)
{
	cf_report *report = cf_report_new();
	record m = { 0 };
	int status;

	if (report == NULL) {
		fputs("opver-conformance: out of memory\n", stderr);
		exit(CF_EXIT_FAIL);
	}
	cf_report_forward(report, forward_result, c);
	status = work(arg, report);
	cf_report_free(report);
	start(&m, RECORD_DONE);
	put_u32(&m, (uint32_t)status);
	status = send(c, &m, true) ? 0 : CF_EXIT_FAIL;
	free(c->pending.data);
	exit(status);
}

/* -------------------------------------------------------- parent side */

/* What the parent learnt from one child. */
typedef struct watch {
	cf_report *report;      /* borrowed; the child's checks go here */
	const position *at;     /* the child's, shared */
	bool loaded;
	/* The records of cases before it are all in `report`. */
	uint64_t delivered;
	/* When the last record came (CLOCK_MONOTONIC, ns). */
	int64_t heard;
	/* Where the child was when it ended: in a case or not, which one,
	 * and for how long. */
	bool in_case, bound;
	uint64_t ordinal;
	double seconds;
	bool done;
	int status;             /* the work's, once done */
	bool out_of_memory;
} watch;

/* A record read whole, being taken apart; `bad` once it is not what its
 * type says. */
typedef struct reader {
	const unsigned char *data;
	size_t size, at;
	bool bad;
} reader;

static void get(reader *r, void *bytes, size_t size)
{
	if (r->bad || r->size - r->at < size) {
		r->bad = true;
		memset(bytes, 0, size);
		return;
	}
	memcpy(bytes, r->data + r->at, size);
	r->at += size;
}

static uint8_t get_u8(reader *r) { uint8_t v; get(r, &v, sizeof(v)); return v; }
static uint32_t get_u32(reader *r) { uint32_t v; get(r, &v, sizeof(v)); return v; }
static uint64_t get_u64(reader *r) { uint64_t v; get(r, &v, sizeof(v)); return v; }

/* A copy (caller frees) of the next string; NULL for none, and when bad
 * or out of memory (*oom). */
static char *get_string(reader *r, bool *oom)
{
	uint32_t length = get_u32(r);
	char *s;

	if (r->bad || length == NO_STRING)
		return NULL;
	if (r->size - r->at < length) {
		r->bad = true;
		return NULL;
	}
	s = strndup((const char *)r->data + r->at, length);
	if (s == NULL)
		*oom = true;
	r->at += length;
	return s;
}

/* Acts on one record; false when it is malformed. */
static bool take(watch *w, reader *r)
{
	uint8_t type = get_u8(r);
	char *suite = NULL, *name = NULL, *details = NULL;
	bool oom = false;
	uint8_t outcome;
	double seconds;

	switch (type) {
	case RECORD_LOADED:
		w->loaded = true;
		break;
	case RECORD_DELIVERED: {
		uint64_t ordinal = get_u64(r);

		/* Replayed cases begin again below it. */
		if (ordinal > w->delivered)
			w->delivered = ordinal;
		break;
	}
	case RECORD_RESULT:
		suite = get_string(r, &oom);
		name = get_string(r, &oom);
		outcome = get_u8(r);
		get(r, &seconds, sizeof(seconds));
		details = get_string(r, &oom);
		if (!r->bad && suite != NULL && name != NULL &&
		    !cf_report_add(w->report, suite, name, (cf_outcome)outcome,
				   seconds, details))
			oom = true;
		break;
	case RECORD_DONE:
		w->status = (int)get_u32(r);
		w->done = true;
		break;
	default:
		r->bad = true;
	}
	free(suite);
	free(name);
	free(details);
	if (oom)
		w->out_of_memory = true;
	return !r->bad && r->at == r->size;
}

typedef enum got { GOT_RECORD, GOT_EOF, GOT_TIMEOUT, GOT_ERROR } got;

/* The parent's end of the pipe: bytes read and not yet taken. */
typedef struct stream {
	int fd;
	record buffer;
	size_t at;      /* taken up to here */
} stream;

/*
 * Milliseconds to wait for the child, or -1 for ever: `timeout` seconds
 * (0: no limit) from the later of the last record and the start of the
 * case it is in; 0 once they are over.
 */
static int wait_ms(const watch *w, unsigned timeout)
{
	int64_t from = atomic_load(&w->at->started), left;

	if (timeout == 0)
		return -1;
	if (w->heard > from)
		from = w->heard;
	left = from + (int64_t)timeout * 1000000000 - now_ns();
	return left > 0 ? (int)(left / 1000000) + 1 : 0;
}

/* Reads until `size` bytes are there past s->at, while the child keeps
 * within `timeout`. */
static got fill(stream *s, size_t size, const watch *w, unsigned timeout)
{
	record *b = &s->buffer;

	if (s->at > 0 && b->used - s->at < size) {
		memmove(b->data, b->data + s->at, b->used - s->at);
		b->used -= s->at;
		s->at = 0;
	}
	while (b->used - s->at < size) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };
		unsigned char chunk[65536];
		int wait = wait_ms(w, timeout), ready;
		ssize_t n;

		if (wait == 0)
			return GOT_TIMEOUT;
		ready = poll(&p, 1, wait);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			return GOT_ERROR;
		if (ready == 0)
			continue;       /* the case may have changed */
		n = read(s->fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return GOT_ERROR;
		if (n == 0)
			return b->used == s->at ? GOT_EOF : GOT_ERROR;
		put(b, chunk, (size_t)n);
		if (b->failed)
			return GOT_ERROR;
	}
	return GOT_RECORD;
}

/* Reads and acts on one record within `timeout` seconds (0: no limit). */
static got read_record(stream *s, unsigned timeout, watch *w)
{
	uint32_t length;
	reader r;
	got result;

	result = fill(s, sizeof(length), w, timeout);
	if (result != GOT_RECORD)
		return result;
	memcpy(&length, s->buffer.data + s->at, sizeof(length));
	if (length == 0 || length > RECORD_LIMIT)
		return GOT_ERROR;
	result = fill(s, sizeof(length) + length, w, timeout);
	if (result != GOT_RECORD)
		return result;
	r = (reader){ s->buffer.data + s->at + sizeof(length), length, 0,
		      false };
	s->at += sizeof(length) + length;
	w->heard = now_ns();
	return take(w, &r) ? GOT_RECORD : GOT_ERROR;
}

/* "SIGSEGV", or "signal" for a number without a name. */
static const char *signal_name(int sig, char *buffer, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev == NULL)
		return "signal";
	snprintf(buffer, size, "SIG%s", abbrev);
	return buffer;
}

/*
 * Runs work(arg) in a child and reads its records into w until it ends.
 * True when it ended well (w->done and a zero exit); otherwise false with
 * *why saying how it ended.  Its checks are in w->report either way.
 */
static bool supervise(work_fn *work, void *arg, channel *c, unsigned timeout,
		      watch *w, cf_text *why)
{
	int fds[2], wstatus;
	bool killed = false, ok = false;
	stream in = { 0 };
	position *at;
	pid_t pid;
	got result;

	at = mmap(NULL, sizeof(*at), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (at == MAP_FAILED) {
		cf_text_add(why, "cannot share memory with a child process: %s",
			    strerror(errno));
		return false;
	}
	atomic_init(&at->in_case, false);
	atomic_init(&at->ordinal, 0);
	atomic_init(&at->bound, false);
	atomic_init(&at->started, now_ns());
	c->at = at;
	w->at = at;
	w->heard = now_ns();
	if (pipe2(fds, O_CLOEXEC) != 0) {
		cf_text_add(why, "cannot start a child process: %s",
			    strerror(errno));
		goto out;
	}
	/* Or the child would write what the parent has buffered too. */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		cf_text_add(why, "cannot start a child process: %s",
			    strerror(errno));
		close(fds[0]);
		close(fds[1]);
		goto out;
	}
	if (pid == 0) {
		close(fds[0]);
		c->fd = fds[1];
		child(c, work, arg);
	}
	close(fds[1]);
	in.fd = fds[0];
	do
		result = read_record(&in, timeout, w);
	while (result == GOT_RECORD);
	free(in.buffer.data);
	if (in.buffer.failed)
		w->out_of_memory = true;
	if (result != GOT_EOF) {
		kill(pid, SIGKILL);
		killed = true;
	}
	close(fds[0]);
	while (waitpid(pid, &wstatus, 0) < 0)
		if (errno != EINTR) {
			cf_text_add(why, "lost its child process: %s",
				    strerror(errno));
			goto out;
		}
	w->in_case = atomic_load(&at->in_case);
	w->ordinal = atomic_load(&at->ordinal);
	w->bound = atomic_load(&at->bound);
	w->seconds = (double)(now_ns() - atomic_load(&at->started)) / 1e9;
	if (result == GOT_TIMEOUT) {
		cf_text_add(why, "timed out after %u s", timeout);
	} else if (killed) {
		cf_text_add(why, w->out_of_memory ?
				    "out of memory reading the child's records" :
				    "the child process sent a malformed record");
	} else if (WIFSIGNALED(wstatus)) {
		char buffer[32];
		int sig = WTERMSIG(wstatus);

		cf_text_add(why, "crashed: %s (signal %d)",
			    signal_name(sig, buffer, sizeof(buffer)), sig);
	} else if (!w->done || WEXITSTATUS(wstatus) != 0) {
		cf_text_add(why, "exited unexpectedly with status %d",
			    WEXITSTATUS(wstatus));
	} else {
		ok = true;
	}
out:
	munmap(at, sizeof(*at));
	c->at = NULL;
	w->at = NULL;
	return ok;
}

void cf_isolated_hygiene(const char *plugin_path, unsigned timeout,
			 cf_report *report)
{
	channel c = { .fd = -1, .each_result = true };
	watch w = { .report = report };
	cf_text why = { 0 }, details = { 0 };

	if (!supervise(hygiene_work, (void *)plugin_path, &c, timeout, &w,
		       &why)) {
		cf_text_add(&details, "%s during the hygiene checks of %s (loading the plugin runs its code)\n",
			    cf_text_get(&why), plugin_path);
		cf_report_add(report, "hygiene", "the checks ran to their end",
			      CF_FAIL, 0, cf_text_get(&details));
	}
	cf_text_free(&why);
	cf_text_free(&details);
}

int cf_isolated_run(const cf_run_options *options, unsigned timeout,
		    cf_report *report)
{
	channel c = { .fd = -1, .each_case = options->list };
	cf_run_hooks hooks = {
		hook_loaded, hook_begin, hook_unloading, &c, 0, NULL, 0,
	};
	cf_run_options child_options = *options;
	cf_crash *crashes = NULL;
	size_t num_crashes = 0;
	bool out_of_memory = false;
	int status = -1;

	child_options.hooks = &hooks;
	while (status == -1 && !out_of_memory) {
		watch w = { .report = report, .delivered = hooks.resume };
		cf_text why = { 0 };
		cf_crash *grown, *again = NULL;

		hooks.crashes = crashes;
		hooks.num_crashes = num_crashes;
		if (supervise(run_work, &child_options, &c, timeout, &w, &why)) {
			status = w.status;
		} else if (w.out_of_memory || why.failed) {
			out_of_memory = true;
		} else if (!w.loaded) {
			fprintf(stderr, "opver-conformance: %s while loading %s or the reference plugin\n",
				cf_text_get(&why), options->plugin);
			status = CF_EXIT_LOAD;
		} else if (!w.in_case) {
			/* Loading, coverage or unloading: nothing to resume. */
			out_of_memory = !cf_report_add(report, "plugin",
						       "outside the cases",
						       CF_FAIL, 0,
						       cf_text_get(&why));
			status = CF_EXIT_PASS;
		} else {
			/* The next child runs again what did not reach us,
			 * and records the crash as it passes it. */
			hooks.resume = w.delivered;
			for (size_t i = 0; i < num_crashes; i++)
				if (crashes[i].ordinal == w.ordinal)
					again = &crashes[i];
			if (again != NULL) {
				/* Its binding, run again, crashed: not even
				 * that runs next time. */
				again->bound = false;
			} else if ((grown = realloc(crashes, (num_crashes + 1) *
							     sizeof(*crashes))) == NULL) {
				out_of_memory = true;
			} else {
				crashes = grown;
				crashes[num_crashes++] = (cf_crash){
					w.ordinal, w.bound, w.seconds,
					cf_text_get(&why),
				};
				/* Owned by crashes[] from now on. */
				why = (cf_text){ 0 };
			}
		}
		cf_text_free(&why);
	}
	if (out_of_memory) {
		fputs("opver-conformance: out of memory\n", stderr);
		status = CF_EXIT_FAIL;
	}
	/* --list has no report to fail: its status does. */
	if (options->list && num_crashes > 0 && status == CF_EXIT_PASS)
		status = CF_EXIT_FAIL;
	for (size_t i = 0; i < num_crashes; i++)
		free((char *)crashes[i].why);
	free(crashes);
	return status;
}
