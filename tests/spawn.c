/* spawn.c - posix_spawn with both output pipes drained together. */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

extern char **environ;

/* Appends what is readable on `fd` to *text; false at end of file. */
static bool drain(int fd, char **text, size_t *used)
{
	char buffer[4096];
	ssize_t n = read(fd, buffer, sizeof(buffer));

	if (n < 0 && errno == EINTR)
		return true;
	if (n <= 0)
		return false;
	*text = realloc(*text, *used + (size_t)n + 1);
	cr_assert_not_null(*text);
	memcpy(*text + *used, buffer, (size_t)n);
	*used += (size_t)n;
	(*text)[*used] = '\0';
	return true;
}

void spawn_run(spawn_result *r, const char *const *argv)
{
	posix_spawn_file_actions_t actions;
	size_t out_used = 0, err_used = 0;
	int out[2], err[2], wstatus;
	struct pollfd fds[2];
	pid_t pid;

	cr_assert(pipe(out) == 0 && pipe(err) == 0);
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
	posix_spawn_file_actions_addclose(&actions, out[0]);
	posix_spawn_file_actions_addclose(&actions, err[0]);
	cr_assert(posix_spawn(&pid, argv[0], &actions, NULL,
			      (char *const *)argv, environ) == 0,
		  "cannot run %s", argv[0]);
	posix_spawn_file_actions_destroy(&actions);
	close(out[1]);
	close(err[1]);
	r->out = calloc(1, 1);
	r->err = calloc(1, 1);
	cr_assert(r->out != NULL && r->err != NULL);
	/* Both pipes at once: a full one would block the program. */
	fds[0] = (struct pollfd){ .fd = out[0], .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = err[0], .events = POLLIN };
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		if (poll(fds, 2, -1) < 0) {
			cr_assert(errno == EINTR, "poll: %s", strerror(errno));
			continue;
		}
		if (fds[0].revents && !drain(out[0], &r->out, &out_used))
			fds[0].fd = -1;
		if (fds[1].revents && !drain(err[0], &r->err, &err_used))
			fds[1].fd = -1;
	}
	close(out[0]);
	close(err[0]);
	cr_assert(waitpid(pid, &wstatus, 0) == pid);
	r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
}

void spawn_free(spawn_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}
