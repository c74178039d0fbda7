/*
 * libFuzzer harness for json_parse_strict.
 *
 * Every input must either fail cleanly (*out NULL, code and offset in
 * range, a message) or parse to a value whose json_dump re-parses, under
 * the same limits, to an equal value with an identical dump. Build and
 * run:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Ilib \
 *       $(pkg-config --cflags json-c) t/fuzz/json.c lib/json.c \
 *       -o fuzz-json $(pkg-config --libs json-c)
 *   ./fuzz-json -max_total_time=60
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct json_limits fuzz_limits = {
	.max_depth = 12,
	.max_length = 4096,
	.max_string = 64,
	.max_members = 16,
};

#define CHECK(cond) \
	do { \
		if (!(cond)) \
			abort(); \
	} while (0)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const allowed[] = { "a", "b", NULL };
	static const char *const required[] = { "id", NULL };
	json_object *o = (json_object *)&o, *again = (json_object *)&again;
	struct json_error err;
	const char *d1, *d2;
	char *copy;
	size_t n1, n2;
	const char *bad;

	if (json_parse_strict((const char *)data, size, &fuzz_limits, &o, &err) < 0) {
		CHECK(o == NULL);
		CHECK(err.code > JSON_OK && err.code < JSON_E__MAX);
		CHECK(err.offset <= size);
		CHECK(err.msg[0] != '\0' && memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
		CHECK(memchr(err.name, '\0', sizeof(err.name)) != NULL);
		return 0;
	}
	CHECK(err.code == JSON_OK);

	d1 = json_dump(o, &n1);
	CHECK(d1 != NULL && strlen(d1) == n1);
	/* Compact output is never longer than strict input. */
	CHECK(n1 <= size);
	copy = malloc(n1 + 1);
	CHECK(copy != NULL);
	memcpy(copy, d1, n1 + 1);

	CHECK(json_parse_strict(copy, n1, &fuzz_limits, &again, &err) == 0);
	CHECK(json_object_equal(o, again));
	d2 = json_dump(again, &n2);
	CHECK(d2 != NULL && n2 == n1 && memcmp(d2, copy, n1) == 0);

	switch (json_check_keys(o, allowed, required, &bad)) {
	case JSON_KEYS_OK:
	case JSON_KEYS_NOT_OBJECT:
		CHECK(bad == NULL);
		break;
	case JSON_KEYS_UNKNOWN:
	case JSON_KEYS_MISSING:
		CHECK(bad != NULL);
		break;
	default:
		abort();
	}

	free(copy);
	json_object_put(again);
	json_object_put(o);
	return 0;
}
