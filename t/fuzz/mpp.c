/*
 * libFuzzer harness for mpp.c and base64.c: any input, taken as an
 * `Authorization: Payment` value, is either refused with a message or
 * accepted with its payload kept. Each input is also taken as the JSON of
 * a credential, base64url-encoded behind "Payment "; and, when it holds a
 * challenge object of strings, with that challenge's id re-made under the
 * harness's secret, so the fuzzer reaches past the HMAC into the opaque
 * binding, the expiry, the nonce and the x402 checks. The URL-safe base64
 * round-trips any input (seeds: t/fuzz/corpus/mpp/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "mpp.h"
#include "sha256.h"
#include "fuzz.h"
#include "banned.h"

#define SECRET "waymark-unit-test-mpp-secret-0123456789"

/* The string member name of o, or "". */
static const char *
s_of(json_object *o, const char *name)
{
	json_object *m = NULL;

	if (!json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_string))
		return "";
	return json_object_get_string(m);
}

/* Parse hdr and check the outcome's invariants. */
static void
parse(const char *hdr, const struct mpp_challenge *want, const struct config *cfg,
    const struct x402_requirements *rq)
{
	struct x402_payment p;
	char msg[256], id[48];

	msg[0] = '\0';
	if (mpp_credential_parse(hdr, want, cfg, rq, 1893455900u, &p, id, msg, sizeof(msg)) == X402_PARSE_OK) {
		if (p.payload == NULL || id[0] == '\0')
			abort();
	} else if (msg[0] == '\0' || p.payload != NULL) {
		abort();
	}
	x402_payment_release(&p);
}

/* "Payment " + base64url(text) into b. */
static const char *
credential(struct buf *b, const char *text, size_t len)
{
	buf_reset(b);
	buf_adds(b, "Payment ");
	base64_encode(text, len, BASE64_URL, b);
	return buf_str(b);
}

/* The challenge of o (if any) re-signed under SECRET; the serialized credential, or NULL. */
static const char *
resigned(json_object *o, struct buf *b)
{
	json_object *ch = NULL;
	struct buf in, id;
	uint8_t mac[32];
	const char *s = NULL;
	size_t len;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "challenge", &ch) ||
	    !json_object_is_type(ch, json_type_object))
		return NULL;
	buf_init(&in, 64 * 1024);
	buf_init(&id, 64);
	buf_printf(&in, "%s|%s|%s|%s|%s|%s|%s", s_of(ch, "realm"), s_of(ch, "method"), s_of(ch, "intent"),
	    s_of(ch, "request"), s_of(ch, "expires"), s_of(ch, "digest"), s_of(ch, "opaque"));
	if (!in.full && hmac_sha256(SECRET, strlen(SECRET), in.p, in.len, mac) == 0 &&
	    base64_encode(mac, sizeof(mac), BASE64_URL, &id) == 0) {
		json_object_object_add(ch, "id", json_object_new_string(buf_str(&id)));
		s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	}
	buf_release(&in);
	buf_release(&id);
	if (s == NULL)
		return NULL;
	len = strlen(s);
	return credential(b, s, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct config cfg;
	static struct x402_requirements rq;
	static struct mpp_challenge want;
	static bool ready;
	struct buf b;
	uint8_t *raw;
	char *hdr, err[128];
	size_t n;
	json_object *o;

	if (!ready) {
		memset(&cfg, 0, sizeof(cfg));
		memcpy(cfg.network, "eip155:8453", 12);
		cfg.chain_id = 8453;
		addr_parse("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 42, &cfg.usdc_address);
		addr_parse("0x5555555555555555555555555555555555555555", 42, &cfg.pay_to);
		memcpy(cfg.public_base_url, "https://api.example.com", 24);
		memcpy(cfg.mpp_secret, SECRET, sizeof(SECRET));
		if (x402_requirements_init(&rq, &cfg, "0.01", "/api/v1/x402/routes/0xabababababababababababab"
		    "abababababababababababababababababababab", "", "fuzz", err, sizeof(err)) < 0 ||
		    mpp_challenge_init(&want, &cfg, &rq, "GET", NULL, 0, 1893455700u, err, sizeof(err)) < 0)
			abort();
		ready = true;
	}
	hdr = malloc(size + 1);
	raw = malloc(size + 1);
	if (hdr == NULL || raw == NULL)
		abort();
	memcpy(hdr, data, size);
	hdr[size] = '\0';
	parse(hdr, &want, &cfg, &rq);
	buf_init(&b, 4 * size + 1024);
	parse(credential(&b, (const char *)data, size), &want, &cfg, &rq);
	if ((o = json_tokener_parse(hdr)) != NULL) {
		const char *c = resigned(o, &b);

		if (c)
			parse(c, &want, &cfg, &rq);
		json_object_put(o);
	}
	/* base64url round trip: encoding decodes back to the input. */
	buf_reset(&b);
	if (base64_encode(data, size, BASE64_URL, &b) < 0 ||
	    base64_decode(buf_str(&b), b.len, BASE64_URL, raw, size + 1, &n) < 0 || n != size ||
	    memcmp(raw, data, size) != 0)
		abort();
	buf_release(&b);
	free(raw);
	free(hdr);
	return 0;
}
