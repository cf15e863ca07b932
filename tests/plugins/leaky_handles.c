/*
 * leaky_handles.c - a valid plugin whose init opens a file and maps a page
 * of it on every load, with no fini to unmap and close them: each load
 * leaks a file descriptor and a mapping, but no heap.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"

static opver_status leaky_init(const opver_context *ctx,
			       const opver_option *options,
			       uint32_t num_options, void **plugin_data)
{
	/* A file mapping, unlike an anonymous one, never merges with its
	 * neighbours into one line of /proc/self/maps. */
	int fd = open("/proc/self/exe", O_RDONLY);

	(void)options;
	(void)num_options;
	if (fd < 0) {
		OPVER_REPORT(ctx, "cannot open /proc/self/exe");
		return OPVER_ERROR;
	}
	*plugin_data = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (*plugin_data == MAP_FAILED) {
		OPVER_REPORT(ctx, "cannot map /proc/self/exe");
		close(fd);
		return OPVER_ERROR;
	}
	return OPVER_OK;
}

static const opver_kernel add = {
	OPVER_KERNEL("add", ADD, 1, 1),
	TEST_CALLBACKS,
};
static const opver_kernel *const kernels[] = { &add };

static const opver_plugin plugin = {
	OPVER_PLUGIN_HEADER,
	.name = "leaky_handles",
	.vendor = "opver tests",
	.version = "1",
	.init = leaky_init,
	OPVER_PLUGIN_KERNELS(kernels),
};

TEST_PLUGIN_ENTRY(plugin)
