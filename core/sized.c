/* sized.c - copying host API structs by the smaller of two sizes. */
#include <string.h>

#include "sized.h"

static size_t smaller(size_t a, size_t b)
{
	return a < b ? a : b;
}

void opver__copy_sized(void *theirs, const void *ours, size_t size,
		       size_t ours_size)
{
	uint32_t copied = (uint32_t)smaller(size, ours_size);

	memcpy(theirs, ours, copied);
	if (copied >= sizeof(uint32_t))
		memcpy(theirs, &copied, sizeof(copied));
}

void opver__read_sized(void *ours, size_t ours_size, const void *theirs,
		       uint32_t their_size)
{
	uint32_t own = (uint32_t)ours_size;

	memcpy(ours, theirs, smaller(their_size, ours_size));
	memcpy(ours, &own, sizeof(own));
}
