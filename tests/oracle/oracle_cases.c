/*
 * oracle_cases.c - the C half of tests/oracle/record: writes the oracle
 * cases as files TFLite's tool can run, and packs what it computed into
 * golden files.
 *
 *   oracle_cases write REFERENCE.so DIR [OP...]
 *       DIR/OP/CASE/model.tflite, in0.raw, in1.raw, ... and fingerprint
 *   oracle_cases pack DIR GOLDENS [OP...]
 *       GOLDENS/OP/CASE.golden from DIR/OP/CASE/out0.raw, out1.raw, ...,
 *       or from DIR/OP/CASE/refused (TFLite's reason) when TFLite refused
 *       the model; an op's old goldens are removed first.
 *   oracle_cases corpus-fingerprint CORPUS MODEL CASE INPUTS
 *       prints the fingerprint of a case of the model corpus
 *       (oracle_corpus_fingerprint())
 *   oracle_cases pack-case CASE_DIR GOLDEN
 *       GOLDEN from one case directory, as pack does for each case
 *
 * Without OP arguments, every op that has a case generator.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle_case.h"

/* DIR/NAME into out (PATH_SIZE bytes); false when it does not fit. */
#define PATH_SIZE 4096
static bool join(char *out, const char *dir, const char *name)
{
	int length = snprintf(out, PATH_SIZE, "%s/%s", dir, name);

	if (length >= 0 && length < PATH_SIZE)
		return true;
	fprintf(stderr, "oracle_cases: path too long: %s/%s\n", dir, name);
	return false;
}

/* Whether g's op is among the command line's OP names (all when
 * none). */
static bool wanted(const cf_generator *g, char **names, int count)
{
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], cf_generator_name(g)) == 0)
			return true;
	return count == 0;
}

static bool make_dir(const char *path)
{
	if (mkdir(path, 0777) == 0 || errno == EEXIST)
		return true;
	fprintf(stderr, "oracle_cases: cannot create %s\n", path);
	return false;
}

static bool write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok = f != NULL &&
		  (size == 0 || fwrite(data, 1, size, f) == size);

	if (f != NULL && fclose(f) != 0)
		ok = false;
	if (!ok)
		fprintf(stderr, "oracle_cases: cannot write %s\n", path);
	return ok;
}

/* Writes case k into directory `dir`. */
static bool write_case(const char *dir, const oracle_case *k)
{
	int32_t graph_inputs[CF_MAX_NODE_INPUTS];
	int32_t count = cf_case_graph_inputs(&k->c, graph_inputs);
	char path[PATH_SIZE], name[32], text[32];

	if (!join(path, dir, "model.tflite") ||
	    !write_file(path, k->model, k->model_size))
		return false;
	for (int32_t i = 0; i < count; i++) {
		const int32_t t = graph_inputs[i];

		snprintf(name, sizeof(name), "in%d.raw", (int)i);
		if (!join(path, dir, name) ||
		    !write_file(path, k->c.values[t],
				oracle_tensor_bytes(&k->c.tensors[t])))
			return false;
	}
	snprintf(text, sizeof(text), "%016" PRIx64 "\n", k->fingerprint);
	return join(path, dir, "fingerprint") &&
	       write_file(path, text, strlen(text));
}

static int write_cases(const char *reference, const char *out, char **names,
		       int count)
{
	opver_runtime *runtime = oracle_runtime(reference);
	const cf_generator *g;
	int status = 0;

	if (runtime == NULL) {
		fprintf(stderr, "oracle_cases: cannot load %s\n", reference);
		return 1;
	}
	if (!make_dir(out))
		status = 1;
	for (size_t i = 0; status == 0 && (g = cf_generator_at(i)) != NULL;
	     i++) {
		char dir[PATH_SIZE];

		if (!wanted(g, names, count))
			continue;
		if (!join(dir, out, cf_generator_name(g)) || !make_dir(dir))
			status = 1;
		for (int32_t v = 0; status == 0 && v < g->num_variants; v++) {
			for (int32_t r = 0; status == 0 && r < ORACLE_REPETITIONS;
			     r++) {
				char error[256], case_dir[PATH_SIZE];
				oracle_case k;

				if (!oracle_case_make(runtime, g, v, r, &k, error,
						      sizeof(error))) {
					fprintf(stderr,
						"oracle_cases: %s case %d-%d: %s\n",
						cf_generator_name(g), (int)v,
						(int)r, error);
					status = 1;
				} else if (!join(case_dir, dir, k.name) ||
					   !make_dir(case_dir) ||
					   !write_case(case_dir, &k)) {
					status = 1;
				}
				oracle_case_free(&k);
			}
		}
	}
	opver_runtime_destroy(runtime);
	return status;
}

/* The whole of a small file, NUL-terminated, or NULL; caller frees. */
static char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	long length;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (length = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)length + 1)) != NULL) {
		if (fread(data, 1, (size_t)length, f) != (size_t)length) {
			free(data);
			data = NULL;
		} else {
			data[length] = '\0';
			*size = (size_t)length;
		}
	}
	fclose(f);
	return data;
}

/* GOLDENS/OP/CASE.golden from the case directory DIR/OP/CASE. */
static bool pack_case(const char *case_dir, const char *golden_path)
{
	oracle_golden g = { 0 };
	char path[PATH_SIZE], name[32], error[256], *text;
	size_t size = 0, total = 0;
	bool ok;

	if (!join(path, case_dir, "fingerprint"))
		return false;
	text = read_file(path, &size);
	if (text == NULL) {
		fprintf(stderr, "oracle_cases: no %s\n", path);
		return false;
	}
	g.fingerprint = strtoull(text, NULL, 16);
	free(text);
	if (!join(path, case_dir, "refused"))
		return false;
	text = read_file(path, &size);
	if (text != NULL) {
		g.refused = true;
		text[strcspn(text, "\n")] = '\0';
		snprintf(g.refusal, sizeof(g.refusal), "%s", text);
		free(text);
	}
	for (int32_t i = 0; !g.refused && i < ORACLE_MAX_OUTPUTS; i++) {
		uint8_t *grown;

		snprintf(name, sizeof(name), "out%d.raw", (int)i);
		if (!join(path, case_dir, name)) {
			oracle_golden_free(&g);
			return false;
		}
		text = read_file(path, &size);
		if (text == NULL)
			break;
		grown = realloc(g.data, total + size + 1);
		if (grown == NULL) {
			free(text);
			oracle_golden_free(&g);
			return false;
		}
		g.data = grown;
		memcpy(g.data + total, text, size);
		free(text);
		g.bytes[g.num_outputs++] = size;
		total += size;
	}
	if (!g.refused && g.num_outputs == 0) {
		fprintf(stderr, "oracle_cases: %s has no outputs\n", case_dir);
		return false;
	}
	ok = oracle_golden_write(golden_path, &g, error, sizeof(error));
	if (!ok)
		fprintf(stderr, "oracle_cases: %s\n", error);
	oracle_golden_free(&g);
	return ok;
}

/* Removes the .golden files of directory `dir`, so that cases a generator
 * no longer makes leave none behind. */
static void remove_goldens(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d != NULL && (e = readdir(d)) != NULL) {
		size_t length = strlen(e->d_name);
		char path[PATH_SIZE];

		if (length > 7 &&
		    strcmp(e->d_name + length - 7, ".golden") == 0 &&
		    join(path, dir, e->d_name))
			unlink(path);
	}
	if (d != NULL)
		closedir(d);
}

static int pack_cases(const char *in, const char *goldens, char **names,
		      int count)
{
	const cf_generator *g;

	for (size_t i = 0; (g = cf_generator_at(i)) != NULL; i++) {
		const char *op = cf_generator_name(g);
		char dir[PATH_SIZE], op_dir[PATH_SIZE];

		if (!wanted(g, names, count))
			continue;
		if (!join(dir, goldens, op) || !make_dir(dir) ||
		    !join(op_dir, in, op))
			return 1;
		remove_goldens(dir);
		for (int32_t v = 0; v < g->num_variants; v++) {
			for (int32_t r = 0; r < ORACLE_REPETITIONS; r++) {
				char case_dir[PATH_SIZE], golden[PATH_SIZE];
				char name[48];

				snprintf(name, sizeof(name), "%d-%d", (int)v,
					 (int)r);
				if (!join(case_dir, op_dir, name))
					return 1;
				strcat(name, ".golden");
				if (!join(golden, dir, name) ||
				    !pack_case(case_dir, golden))
					return 1;
			}
		}
	}
	return 0;
}

static int print_corpus_fingerprint(const char *dir, const char *model,
				    const char *name, const char *inputs)
{
	uint64_t fingerprint;

	if (!oracle_corpus_fingerprint(dir, model, name, atoi(inputs),
				       &fingerprint)) {
		fprintf(stderr, "oracle_cases: cannot read %s/%s/%s\n", dir,
			model, name);
		return 1;
	}
	printf("%016" PRIx64 "\n", fingerprint);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "write") == 0)
		return write_cases(argv[2], argv[3], argv + 4, argc - 4);
	if (argc >= 4 && strcmp(argv[1], "pack") == 0)
		return pack_cases(argv[2], argv[3], argv + 4, argc - 4);
	if (argc == 6 && strcmp(argv[1], "corpus-fingerprint") == 0)
		return print_corpus_fingerprint(argv[2], argv[3], argv[4],
						argv[5]);
	if (argc == 4 && strcmp(argv[1], "pack-case") == 0)
		return pack_case(argv[2], argv[3]) ? 0 : 1;
	fprintf(stderr,
		"usage: oracle_cases write REFERENCE.so DIR [OP...]\n"
		"       oracle_cases pack DIR GOLDENS [OP...]\n"
		"       oracle_cases corpus-fingerprint CORPUS MODEL CASE INPUTS\n"
		"       oracle_cases pack-case CASE_DIR GOLDEN\n");
	return 2;
}
