/*
 * libFuzzer target for route-context publications (lib/routenote.c). The
 * input is noteJson, offerJson and signature separated by NUL bytes,
 * verified on chain 8453 at the time of t/vectors/route-contexts.json.
 *
 * A refusal names a code in range, an input, a field and a sentence, all
 * NUL-terminated UTF-8, and leaves nothing to free. An acceptance holds a
 * note whose length, keccak256 and route ID agree with the bytes and the
 * normalized URL, trimmed texts within their bounds, at most 5 limits and
 * URIs, ordered times, an offer that binds exactly this note, and a signer
 * equal to payTo; release is safe twice.
 */
#include "fuzz.h"
#include "keccak.h"
#include "route.h"
#include "routenote.h"
#include "banned.h"

#define FUZZ_CHAIN 8453
#define FUZZ_NOW 1767225700

static void
text_ok(const struct routenote_str *s)
{
	CHECK(s->s != NULL && s->len >= 1 && s->len <= ROUTENOTE_TEXT_MAX);
	CHECK(fuzz_utf8_ok(s->s, s->len));
	/* Trimmed: no ASCII space, tab, LF or CR at either end. */
	CHECK(strchr(" \t\n\r", s->s[0]) == NULL && strchr(" \t\n\r", s->s[s->len - 1]) == NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *part[3], *copy, url[URL_ORIGIN_SIZE + ROUTENOTE_PATH_SIZE];
	size_t len[3];
	struct routenote_pub p;
	struct routenote_error err;
	enum routenote_err rc;
	uint8_t dg[32], rid[32];

	copy = fuzz_split_n(data, size, 3, part, len);
	memset(&err, 0, sizeof(err));
	rc = routenote_verify(part[0], len[0], part[1], len[1], part[2], len[2], FUZZ_CHAIN, FUZZ_NOW, &p,
	    &err);
	CHECK(rc >= RN_OK && rc < RN__MAX && routenote_code(rc) != NULL);
	if (rc != RN_OK) {
		CHECK(err.code == rc && err.input < RNI__MAX && routenote_input_name(err.input) != NULL);
		CHECK(fuzz_cstr_ok(err.field, sizeof(err.field)) && err.field[0] != '\0');
		CHECK(fuzz_cstr_ok(err.msg, sizeof(err.msg)) && err.msg[0] != '\0');
		CHECK(p.note.root == NULL && p.offer.root == NULL);
		routenote_release(&p);
		free(copy);
		return 0;
	}
	/* The note as it was sent. */
	CHECK(p.note.root != NULL && p.offer.root != NULL);
	CHECK(p.note.bytes == len[0] && len[0] >= 1 && len[0] <= ROUTENOTE_NOTE_MAX);
	keccak256(part[0], len[0], dg);
	CHECK(memcmp(dg, p.note.digest, 32) == 0);
	/* Its route ID is that of the normalized URL and method. */
	CHECK(strlen(p.note.origin) + strlen(p.note.path) < sizeof(url));
	snprintf(url, sizeof(url), "%s%s", p.note.origin, p.note.path);
	CHECK(route_id(p.note.method, strlen(p.note.method), url, strlen(url), rid, NULL) == ROUTE_OK);
	CHECK(memcmp(rid, p.note.route_id, 32) == 0);
	text_ok(&p.note.intent);
	text_ok(&p.note.fit);
	CHECK(p.note.nlimits <= ROUTENOTE_ITEMS_MAX && p.note.ncontext_uris <= ROUTENOTE_ITEMS_MAX);
	for (size_t i = 0; i < p.note.nlimits; i++)
		text_ok(&p.note.limits[i]);
	CHECK(p.note.ncontext_uris + (p.note.request_schema_uri.s != NULL) +
	    (p.note.documentation_uri.s != NULL) <= ROUTENOTE_ITEMS_MAX);
	CHECK(0 < p.note.created_at && p.note.created_at < p.note.expires_at &&
	    p.note.expires_at <= ROUTENOTE_SAFE_MAX);
	CHECK(p.note.expires_at > FUZZ_NOW && p.note.created_at <= FUZZ_NOW + ROUTENOTE_FUTURE_SKEW);
	/* The offer binds exactly this note, on this chain, signed by payTo. */
	CHECK(p.offer.chain_id == FUZZ_CHAIN);
	CHECK(p.offer.response_bytes == len[0] && memcmp(p.offer.response_digest, dg, 32) == 0);
	CHECK(p.offer.expires_at > FUZZ_NOW && p.offer.expires_at <= p.note.expires_at);
	CHECK(!u256_is_zero(&p.offer.amount) && !addr_is_zero(&p.offer.pay_to) &&
	    !addr_is_zero(&p.offer.asset));
	CHECK(addr_eq(&p.signer, &p.offer.pay_to) && (p.sig_len == 64 || p.sig_len == 65));
	routenote_release(&p);
	routenote_release(&p);
	free(copy);
	return 0;
}
