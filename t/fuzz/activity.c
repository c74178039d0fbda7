/*
 * libFuzzer target for profile activity evidence (lib/activity.c) and the
 * reading of a node's transaction receipt for a USDC Transfer
 * (lib/settlement.c): the input, parsed strictly as JSON, is read both as
 * an evidence object and as an eth_getTransactionReceipt result.
 *
 * A refused evidence names a member under "evidence" and gives a sentence,
 * both NUL-terminated UTF-8 (they reach API error bodies). An accepted one
 * has a known kind; a transfer kind a nonzero transaction and a logIndex of
 * -1 or 0..2^31-1; a routed kind a candidate method, a normalized https
 * origin and a path that recompute to its route ID, and passes the public
 * URL policy; its evidence key and activity ID compute. A read receipt
 * answers a known code, and a verified Transfer has a nonzero decimal
 * amount of at most 65 digits, from the wallet at the asked log index.
 */
#include <json-c/json.h>

#include "activity.h"
#include "fuzz.h"
#include "json.h"
#include "route.h"
#include "settlement.h"
#include "url.h"
#include "banned.h"

static void
evidence(json_object *o)
{
	static struct activity_evidence e;
	static struct route_parts parts;
	static const uint8_t pid[16] = { 1 };
	static const uint8_t zero[32];
	char field[96], why[320], url[2 * URL_PUBLIC_MAX + 2];
	uint8_t id[32], key[32], act[32];
	bool method_ok = false;

	memset(field, 0x55, sizeof(field));
	memset(why, 0x55, sizeof(why));
	if (activity_evidence_parse(o, &e, field, sizeof(field), why, sizeof(why)) != ACTIVITY_OK) {
		CHECK(fuzz_cstr_ok(field, sizeof(field)) && strncmp(field, "evidence", 8) == 0);
		CHECK(fuzz_cstr_ok(why, sizeof(why)) && why[0] != '\0');
		return;
	}
	CHECK(e.kind < ACTIVITY_KIND__MAX);
	CHECK(activity_evidence_key(&e, "eip155:8453", 0, key) == 0 && activity_id(pid, key, act) == 0);
	if (e.kind != ACTIVITY_X402_RECEIPT) {
		CHECK(memcmp(e.tx, zero, 32) != 0);
		CHECK(e.log_index >= -1 && e.log_index <= ACTIVITY_LOG_INDEX_MAX);
	}
	if (e.kind == ACTIVITY_USDC_TRANSFER)
		return;
	for (size_t i = 0; activity_methods[i]; i++)
		method_ok = method_ok || strcmp(activity_methods[i], e.method) == 0;
	CHECK(method_ok);
	CHECK(strnlen(e.origin, sizeof(e.origin)) < sizeof(e.origin) && strncmp(e.origin, "https://", 8) == 0);
	CHECK(strnlen(e.path, sizeof(e.path)) < sizeof(e.path) && e.path[0] == '/');
	snprintf(url, sizeof(url), "%s%s", e.origin, e.path);
	CHECK(route_id(e.method, strlen(e.method), url, strlen(url), id, &parts) == ROUTE_OK);
	CHECK(memcmp(id, e.route_id, 32) == 0);
	CHECK(url_check_public(url, strlen(url), URL_EXACT, NULL) == URL_OK);
}

static void
receipt(json_object *o)
{
	static const char usdc[] = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
	static const char wallet[] = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
	struct settlement_want w;
	struct settlement s;
	enum settlement_rc rc;

	for (int64_t li = -1; li <= 3; li += 4) {
		memset(&w, 0, sizeof(w));
		memset(w.tx, 0x11, 32);
		CHECK(addr_parse(usdc, strlen(usdc), &w.token) == 0 && addr_parse(wallet, strlen(wallet), &w.from) == 0);
		w.log_index = li;
		memset(&s, 0, sizeof(s));
		rc = settlement_read(o, &w, &s);
		CHECK(rc < SETTLEMENT_RC__MAX && settlement_strerror(rc)[0] != '\0');
		if (rc != SETTLEMENT_OK)
			continue;
		CHECK(strnlen(s.amount, sizeof(s.amount)) < sizeof(s.amount) && s.amount[0] >= '1' &&
		    s.amount[0] <= '9' && strspn(s.amount, "0123456789") == strlen(s.amount));
		CHECK(li < 0 || s.log_index == (uint64_t)li);
		CHECK(!u256_is_zero(&s.value));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *o = NULL;
	struct json_error je;

	if (json_parse_strict((const char *)data, size, NULL, &o, &je) < 0)
		return 0;
	evidence(o);
	receipt(o);
	json_object_put(o);
	return 0;
}
