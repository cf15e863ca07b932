/*
 * test_conformance_compare.c - opver-conformance's output comparison
 * (tools/conformance/compare.c): a mismatch of quantized integers says
 * "each by one step" (CF_ONE_STEP, which the rounding bug class reads)
 * when no element is off by more, for int16 outputs as for int8 and
 * uint8 ones; --steps allows 8-bit outputs only.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "conformance/compare.h"

static const int32_t four[1] = { 4 };

/* A rank-1 tensor of 4 elements of `type` over `data`. */
static opver_tensor tensor(int32_t type, void *data)
{
	opver_tensor t;

	memset(&t, 0, sizeof(t));
	t.type = type;
	t.rank = 1;
	t.dims = four;
	t.data = data;
	t.bytes = 4 * opver_type_size(type);
	return t;
}

/* The one-line account of comparing got with want, allowing `steps`. */
static void compare(int32_t type, void *got, void *want, int32_t steps,
		    bool agree, const char *says)
{
	opver_tensor a = tensor(type, got), b = tensor(type, want);
	cf_text why = { 0 };
	size_t first;

	cr_assert_eq(cf_compare_outputs(&a, &b, 1e-5, steps, &why, &first),
		     agree);
	cr_assert_str_eq(cf_text_get(&why), says);
	cf_text_free(&why);
}

Test(conformance_compare, int16_mismatches_of_one_step_say_so)
{
	int16_t got[4] = { -300, 7, 1000, 32767 };
	int16_t want[4] = { -300, 8, 999, 32767 };

	compare(OPVER_TYPE_INT16, got, want, 0, false,
		"mismatch: output element 1 [1]: plugin 7, reference 8; 2 of 4 elements differ, each by one step (must match exactly)\n");
}

Test(conformance_compare, int16_mismatches_beyond_one_step_do_not)
{
	int16_t got[4] = { -300, 7, 1002, 32767 };
	int16_t want[4] = { -300, 8, 999, -32768 };

	compare(OPVER_TYPE_INT16, got, want, 0, false,
		"mismatch: output element 1 [1]: plugin 7, reference 8; 3 of 4 elements differ (must match exactly)\n");
}

/* The 8-bit wording, which int16's now shares. */
Test(conformance_compare, int8_and_uint8_mismatches_of_one_step_say_so)
{
	int8_t got8[4] = { 1, -128, 3, 4 }, want8[4] = { 1, -127, 3, 4 };
	uint8_t gotu[4] = { 0, 1, 255, 9 }, wantu[4] = { 0, 1, 254, 9 };

	compare(OPVER_TYPE_INT8, got8, want8, 0, false,
		"mismatch: output element 1 [1]: plugin -128, reference -127; 1 of 4 elements differ, each by one step (must match exactly)\n");
	compare(OPVER_TYPE_UINT8, gotu, wantu, 0, false,
		"mismatch: output element 2 [2]: plugin 255, reference 254; 1 of 4 elements differ, each by one step (must match exactly)\n");
}

/* --steps 1 lets an int8 step pass, not an int16 one. */
Test(conformance_compare, steps_allow_8_bit_outputs_only)
{
	int8_t got8[4] = { 1, 2, 3, 4 }, want8[4] = { 1, 2, 3, 5 };
	int16_t got16[4] = { 1, 2, 3, 4 }, want16[4] = { 1, 2, 3, 5 };

	compare(OPVER_TYPE_INT8, got8, want8, 1, true, "");
	compare(OPVER_TYPE_INT16, got16, want16, 1, false,
		"mismatch: output element 3 [3]: plugin 4, reference 5; 1 of 4 elements differ, each by one step (must match exactly)\n");
}
