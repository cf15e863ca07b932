/*
 * oracle_case.c - oracle cases and golden files (oracle_case.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_case.h"

#define GOLDEN_MAGIC "opver-oracle 1"

/* FNV-1a, 64 bits: small, and the same on every machine. */
static uint64_t fnv1a(uint64_t hash, const void *data, size_t size)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < size; i++) {
		hash ^= p[i];
		hash *= 0x100000001b3u;
	}
	return hash;
}

size_t oracle_tensor_bytes(const cf_tensor_desc *t)
{
	size_t bytes = opver_type_size(t->type);

	for (int32_t d = 0; d < t->rank; d++)
		bytes *= (size_t)t->dims[d];
	return bytes;
}

opver_runtime *oracle_runtime(const char *path)
{
	opver_runtime_options options;
	opver_runtime *runtime = NULL;
	char config[4200];
	int length;

	length = snprintf(config, sizeof(config),
			  "[plugin.reference]\nlibrary = %s\n", path);
	if (length < 0 || (size_t)length >= sizeof(config))
		return NULL;
	opver_runtime_options_init(&options);
	options.config_text = config;
	options.config_text_size = (size_t)length;
	if (opver_runtime_create(&options, &runtime) != OPVER_OK)
		return NULL;
	return runtime;
}

bool oracle_case_make(opver_runtime *runtime, const cf_generator *g,
		      int32_t variant, int32_t repetition, oracle_case *k,
		      char *error, size_t error_size)
{
	int32_t graph_inputs[CF_MAX_NODE_INPUTS], num_graph_inputs;
	uint64_t seed = cf_seed_mix(cf_seed_mix(cf_seed_mix(ORACLE_SEED,
							    (uint64_t)g->op),
						(uint64_t)variant),
				    (uint64_t)repetition);
	cf_rng rng;

	memset(k, 0, sizeof(*k));
	cf_case_init(&k->c, g->op);
	snprintf(k->name, sizeof(k->name), "%d-%d", (int)variant,
		 (int)repetition);
	cf_rng_seed(&rng, seed);
	if (!g->generate(variant, &rng, &k->c)) {
		snprintf(error, error_size, "out of memory generating the case");
		return false;
	}
	if (!cf_case_model_required(runtime, &k->c, &k->model,
				    &k->model_size, &k->version, error,
				    error_size))
		return false;
	k->fingerprint = fnv1a(0xcbf29ce484222325u, k->model, k->model_size);
	num_graph_inputs = cf_case_graph_inputs(&k->c, graph_inputs);
	for (int32_t i = 0; i < num_graph_inputs; i++) {
		int32_t t = graph_inputs[i];

		k->fingerprint = fnv1a(k->fingerprint, k->c.values[t],
				       oracle_tensor_bytes(&k->c.tensors[t]));
	}
	return true;
}

void oracle_case_free(oracle_case *k)
{
	cf_case_free(&k->c);
	free(k->model);
	k->model = NULL;
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
