/*
 * Headers carrying base64 of a JSON object (lib/b64json.h): a header
 * written by b64json_header decodes back to the same object, and each
 * kind of bad value gets its own result.
 */
#include <string.h>

#include "b64json.h"
#include "buf.h"
#include "http.h"
#include "tap.h"
#include "banned.h"

struct bad_vec {
	const char *in;
	size_t max;
	enum b64json_rc want;
	const char *what;
};

static const struct bad_vec bads[] = {
	{ "", 100, B64JSON_SIZE, "empty" },
	{ "e30=", 3, B64JSON_SIZE, "longer than max" },
	{ "e30", 100, B64JSON_BASE64, "unpadded" },
	{ "e3-=", 100, B64JSON_BASE64, "URL alphabet" },
	{ "e30=e30=", 100, B64JSON_BASE64, "padding inside" },
	{ "bm90IGpzb24=", 100, B64JSON_JSON, "base64 of text that is not JSON" },
	{ "eyJhIjoxLCJhIjoyfQ==", 100, B64JSON_JSON, "a duplicate member" },
	{ "W1tbW1tbW1tbXV1dXV1dXV1d", 100, B64JSON_JSON, "deeper than the limit" },
};

int
main(void)
{
	struct json_limits lim = { .max_depth = 4, .max_length = 1024, .max_string = 1024, .max_members = 16 };
	struct json_error je;
	struct resp w;
	json_object *o = json_object_new_object(), *back = NULL;
	const char *h, *end = NULL;
	char value[256];

	json_object_object_add(o, "x402Version", json_object_new_int(2));
	json_object_object_add(o, "note", json_object_new_string("caf\xc3\xa9 \"quoted\" / slash"));
	resp_init(&w);
	ok(b64json_header(&w, "PAYMENT-REQUIRED", o, 1024) == 0, "header written");
	h = buf_str(&w.headers);
	ok(strncmp(h, "PAYMENT-REQUIRED: ", 18) == 0 && (end = strstr(h, "\r\n")) != NULL,
	    "one header line");
	snprintf(value, sizeof(value), "%.*s", end ? (int)(end - h - 18) : 0, h + 18);
	ok(b64json_decode(value, BASE64_STD, 1024, &lim, &back, &je) == B64JSON_OK && json_object_equal(o, back),
	    "it decodes to the same object");
	json_object_put(back);
	resp_release(&w);

	resp_init(&w);
	ok(b64json_header(&w, "PAYMENT-REQUIRED", o, 8) < 0, "a value longer than max is not written");
	resp_release(&w);
	json_object_put(o);

	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		back = (json_object *)&back;   /* must come back NULL */
		ok(b64json_decode(bads[i].in, BASE64_STD, bads[i].max, &lim, &back, &je) == bads[i].want && back == NULL,
		    "%s is refused (%d)", bads[i].what, (int)bads[i].want);
	}
	return done_testing();
}
