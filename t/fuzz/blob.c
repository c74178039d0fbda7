/*
 * libFuzzer target for the private-tip blob body (POST
 * /api/v1/private-tip-blobs): the input is the body, parsed strictly at the
 * row's 4 KiB limit and checked by the row's own fields (the dispatch
 * table), then as the handler does: the note's bytes and text rules, the
 * commitment keccak256(salt || note), and the seal at rest (lib/seal) under
 * a fixed key with the commitment as associated data.
 *
 * A body the fields accept has a commitment and a salt of 32 bytes and a
 * note of valid UTF-8; when the commitment matches, the sealed blob opens
 * to exactly salt || note under its commitment and does not open under
 * another commitment or after one flipped byte.
 */
#include <string.h>

#include "fields.h"
#include "fuzz.h"
#include "json.h"
#include "privtip.h"
#include "review.h"
#include "seal.h"
#include "table.h"
#include "banned.h"

#define KEY "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

static const struct endpoint *
blob_row(void)
{
	for (size_t i = 0; i < nendpoints; i++)
		if (strcmp(endpoints[i].id, "private_tips.blob") == 0)
			return &endpoints[i];
	return NULL;
}

static const struct value *
val(const struct field *f, const struct value *v, const char *name)
{
	for (size_t i = 0; f[i].name; i++)
		if (strcmp(f[i].name, name) == 0)
			return v[i].present ? &v[i] : NULL;
	return NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct endpoint *ep = blob_row();
	struct json_limits lim = json_limits_default;
	struct value v[VALID_MAX_FIELDS];
	struct fields_fail fail;
	struct fields_in in = { .strict = true };
	struct pool pool;
	json_object *o = NULL;
	const struct value *c, *note, *salt;
	uint8_t plain[PRIVTIP_SALT + PRIVTIP_NOTE_MAX], sealed[sizeof(plain) + SEAL_TAG],
	    back[sizeof(plain)], iv[SEAL_IV], other[32];
	char why[200];
	size_t n;

	CHECK(ep != NULL && ep->body_max == 4096);
	lim.max_length = ep->body_max;
	if (json_parse_strict((const char *)data, size, &lim, &o, NULL) < 0)
		return 0;
	pool_init(&pool, 1u << 20);
	in.body = o;
	memset(v, 0, sizeof(v));
	if (fields_check(ep->fields, &in, &pool, v, &fail) != ERR_NONE) {
		CHECK(fail.e != ERR_NONE && fuzz_cstr_ok(fail.msg, sizeof(fail.msg)));
		goto out;
	}
	c = val(ep->fields, v, "privateCommitment");
	note = val(ep->fields, v, "note");
	salt = val(ep->fields, v, "salt");
	CHECK(c && note && salt && fuzz_utf8_ok(note->text, note->len) && note->len >= 1);
	if (note->len > PRIVTIP_NOTE_MAX || review_text_check(note->text, note->len, why,
	    sizeof(why)) < 0 || !privtip_commitment_ok(c->b32, salt->b32, note->text, note->len))
		goto out;
	n = PRIVTIP_SALT + note->len;
	memcpy(plain, salt->b32, PRIVTIP_SALT);
	memcpy(plain + PRIVTIP_SALT, note->text, note->len);
	CHECK(seal_seal(KEY, c->b32, 32, plain, n, iv, sealed, sizeof(sealed)) == 0);
	CHECK(seal_open(KEY, c->b32, 32, iv, sealed, n + SEAL_TAG, back, sizeof(back)) == 0);
	CHECK(memcmp(back, plain, n) == 0);
	memcpy(other, c->b32, 32);
	other[0] ^= 1;
	CHECK(seal_open(KEY, other, 32, iv, sealed, n + SEAL_TAG, back, sizeof(back)) < 0);
	sealed[n / 2] ^= 0x80;
	CHECK(seal_open(KEY, c->b32, 32, iv, sealed, n + SEAL_TAG, back, sizeof(back)) < 0);
out:
	pool_release(&pool);
	json_object_put(o);
	return 0;
}
