/*
 * libFuzzer target for the baseline of a changes report (handlers/
 * baseline.c baseline_check), a saved discovery snapshot a caller sends
 * back: the input, parsed strictly as the gatekeeper parses a body, is
 * checked for a request with q "" and limit 10 and no reviewer under the
 * default configuration on https://api.waymark.example.
 *
 * An accepted baseline writes nothing. A refused one is one of the three
 * field errors with status 400, and its body is strict JSON, UTF-8, whose
 * field names a member of the baseline ("baseline" or "baseline.<path>").
 */
#include <json-c/json.h>

#include "baseline.h"
#include "config.h"
#include "fuzz.h"
#include "http.h"
#include "json.h"
#include "pool.h"
#include "banned.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct config cfg;
	static bool ready;
	static const struct json_limits lim = { .max_depth = 16, .max_length = 1 << 20,
		.max_string = 1 << 16, .max_members = 4096 };
	struct req r;
	struct resp w;
	json_object *b = NULL, *body = NULL, *f = NULL;
	struct json_error je;
	char err[256];
	enum err e;
	int status0;

	if (!ready) {
		CHECK(config_load(&cfg, NULL, err, sizeof(err)) == 0);
		snprintf(cfg.public_base_url, sizeof(cfg.public_base_url), "https://api.waymark.example");
		ready = true;
	}
	if (json_parse_strict((const char *)data, size, &lim, &b, &je) < 0)
		return 0;
	memset(&r, 0, sizeof(r));
	pool_init(&r.pool, 1 << 20);
	r.cfg = &cfg;
	resp_init(&w);
	status0 = w.status;
	e = baseline_check(&r, &w, b, "", 10, NULL);
	if (e == ERR_NONE) {
		CHECK(w.status == status0 && w.body.len == 0);
	} else {
		CHECK(e == ERR_INVALID_FIELD || e == ERR_UNKNOWN_FIELD || e == ERR_MISSING_FIELD);
		CHECK(w.status == 400 && fuzz_utf8_ok(w.body.p, w.body.len));
		CHECK(json_parse_strict(w.body.p, w.body.len, NULL, &body, &je) == 0);
		CHECK(json_object_object_get_ex(body, "field", &f) && json_object_is_type(f, json_type_string));
		CHECK(strncmp(json_object_get_string(f), "baseline", 8) == 0);
		json_object_put(body);
	}
	resp_release(&w);
	pool_release(&r.pool);
	json_object_put(b);
	return 0;
}
