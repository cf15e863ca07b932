/*
 * oracle_golden.c - golden files and fingerprints (oracle_golden.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_golden.h"

#define GOLDEN_MAGIC "opver-oracle 1"

uint64_t oracle_fingerprint(uint64_t hash, const void *data, size_t size)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < size; i++) {
		hash ^= p[i];
		hash *= 0x100000001b3u;
	}
	return hash;
}

bool oracle_file_fingerprint(const char *path, uint64_t *hash)
{
	FILE *f = fopen(path, "rb");
	uint8_t buffer[65536];
	size_t n;
	bool ok;

	if (f == NULL)
		return false;
	while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0)
		*hash = oracle_fingerprint(*hash, buffer, n);
	ok = !ferror(f);
	fclose(f);
	return ok;
}

bool oracle_corpus_fingerprint(const char *dir, const char *model,
			       const char *name, int num_inputs,
			       uint64_t *fingerprint)
{
	char path[4096];
	bool ok;

	*fingerprint = ORACLE_FINGERPRINT_INIT;
	snprintf(path, sizeof(path), "%s/%s.tflite", dir, model);
	ok = oracle_file_fingerprint(path, fingerprint);
	for (int i = 0; ok && i < num_inputs; i++) {
		snprintf(path, sizeof(path), "%s/cases/%s/%s/in%d.raw", dir,
			 model, name, i);
		ok = oracle_file_fingerprint(path, fingerprint);
	}
	return ok;
}

const uint8_t *oracle_golden_output(const oracle_golden *g, int32_t i)
{
	size_t offset = 0;

	for (int32_t j = 0; j < i; j++)
		offset += g->bytes[j];
	/* Outputs all empty: no data, and no pointer to offset. */
	return g->data != NULL ? g->data + offset : NULL;
}

/* Parses the header line `line` into g; false when malformed. */
static bool parse_header(char *line, oracle_golden *g)
{
	char *rest;

	if (strncmp(line, GOLDEN_MAGIC " ", strlen(GOLDEN_MAGIC) + 1) != 0)
		return false;
	line += strlen(GOLDEN_MAGIC) + 1;
	g->fingerprint = strtoull(line, &rest, 16);
	if (rest != line + 16 || *rest != ' ')
		return false;
	rest++;
	if (strncmp(rest, "refused ", 8) == 0) {
		size_t length = strlen(rest + 8);

		if (length >= sizeof(g->refusal))
			length = sizeof(g->refusal) - 1;
		memcpy(g->refusal, rest + 8, length);
		g->refusal[length] = '\0';
		g->refused = true;
		return true;
	}
	if (strncmp(rest, "outputs ", 8) != 0)
		return false;
	g->num_outputs = (int32_t)strtol(rest + 8, &rest, 10);
	if (g->num_outputs < 1 || g->num_outputs > ORACLE_MAX_OUTPUTS)
		return false;
	for (int32_t i = 0; i < g->num_outputs; i++) {
		char *end;

		g->bytes[i] = (size_t)strtoull(rest, &end, 10);
		if (end == rest)
			return false;
		rest = end;
	}
	return *rest == '\0';
}

bool oracle_golden_read(const char *path, oracle_golden *g, char *error,
			size_t error_size)
{
	char line[512];
	size_t total = 0;
	FILE *f;
	bool ok;

	memset(g, 0, sizeof(*g));
	f = fopen(path, "rb");
	if (f == NULL) {
		snprintf(error, error_size, "no golden file %s", path);
		return false;
	}
	ok = fgets(line, sizeof(line), f) != NULL &&
	     strchr(line, '\n') != NULL;
	if (ok) {
		*strchr(line, '\n') = '\0';
		ok = parse_header(line, g);
	}
	for (int32_t i = 0; ok && i < g->num_outputs; i++)
		total += g->bytes[i];
	if (ok && total > 0) {
		g->data = malloc(total);
		ok = g->data != NULL && fread(g->data, 1, total, f) == total &&
		     fgetc(f) == EOF;
	}
	fclose(f);
	if (!ok)
		snprintf(error, error_size, "malformed golden file %s", path);
	return ok;
}

bool oracle_golden_write(const char *path, const oracle_golden *g,
			 char *error, size_t error_size)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (f == NULL) {
		snprintf(error, error_size, "cannot write %s", path);
		return false;
	}
	ok = fprintf(f, GOLDEN_MAGIC " %016" PRIx64 " ", g->fingerprint) > 0;
	if (g->refused) {
		ok = ok && fprintf(f, "refused %s\n", g->refusal) > 0;
	} else {
		ok = ok && fprintf(f, "outputs %d", (int)g->num_outputs) > 0;
		for (int32_t i = 0; ok && i < g->num_outputs; i++)
			ok = fprintf(f, " %zu", g->bytes[i]) > 0;
		ok = ok && fputc('\n', f) != EOF;
		for (int32_t i = 0; ok && i < g->num_outputs; i++)
			ok = g->bytes[i] == 0 ||
			     fwrite(oracle_golden_output(g, i), 1, g->bytes[i],
				    f) == g->bytes[i];
	}
	ok = fclose(f) == 0 && ok;
	if (!ok)
		snprintf(error, error_size, "cannot write %s", path);
	return ok;
}

void oracle_golden_free(oracle_golden *g)
{
	free(g->data);
	g->data = NULL;
}
