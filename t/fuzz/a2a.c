/*
 * libFuzzer target for the A2A request parser (lib/a2a.c): the input is an
 * untrusted POST /a2a/message:send body, parsed strictly as the gatekeeper
 * does (json_parse_strict at the row's 64 KiB), then by a2a_parse_send.
 *
 * A refusal names a reason in range and a non-empty UTF-8 sentence. An
 * acceptance holds either the convenience form (a skill id, no message id)
 * or a message id of 1..128 bytes; a skill id of 1..128 bytes when one is
 * named (the prepare skill when an extension request chose it);
 * params that are a JSON object when present; text that is the joined
 * text parts (valid NUL-terminated UTF-8, within 16 parts of 4096 bytes);
 * and at least one output mode accepted.
 */
#include "a2a.h"
#include "fuzz.h"
#include "json.h"
#include "pool.h"
#include "banned.h"

#define EXT "https://docs.example/a2a/extensions/boon-agent-recognition/v0.1"
#define PREPARE "boon.prepare_agent_recognition"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const uris[] = { EXT, NULL };
	struct json_limits lim = json_limits_default;
	struct a2a_send m;
	struct a2a_fail f;
	struct pool pool;
	json_object *o = NULL;

	lim.max_length = 64 * 1024;
	if (json_parse_strict((const char *)data, size, &lim, &o, NULL) < 0)
		return 0;
	pool_init(&pool, 1u << 20);
	if (a2a_parse_send(o, uris, PREPARE, &pool, &m, &f) < 0) {
		CHECK(f.reason < A2A__MAX);
		CHECK(fuzz_cstr_ok(f.msg, sizeof(f.msg)) && f.msg[0] != '\0');
	} else {
		CHECK(m.text != NULL && fuzz_utf8_ok(m.text, strlen(m.text)));
		CHECK(strlen(m.text) <= A2A_PARTS_MAX * (A2A_TEXT_MAX + 1));
		CHECK(m.accept_json || m.accept_text);
		if (m.convenience)
			CHECK(m.skill_id != NULL && m.message_id == NULL && m.text[0] == '\0');
		else
			CHECK(m.message_id != NULL && strlen(m.message_id) >= 1 &&
			    strlen(m.message_id) <= A2A_ID_MAX);
		if (m.skill_id)
			CHECK(strlen(m.skill_id) >= 1 && strlen(m.skill_id) <= A2A_ID_MAX);
		else
			CHECK(m.params == NULL);
		if (m.params)
			CHECK(json_object_is_type(m.params, json_type_object));
		if (m.context_id)
			CHECK(strlen(m.context_id) >= 1 && strlen(m.context_id) <= A2A_ID_MAX);
	}
	pool_release(&pool);
	json_object_put(o);
	return 0;
}
