/*
 * libFuzzer target for Sign-In-With-X proofs (lib/siwx.c). Each input is
 * read twice: as the SIGN-IN-WITH-X header itself, and base64-encoded
 * first (so the fuzzer reaches the JSON and field rules directly). A
 * refusal is SIWX_MALFORMED with a message naming the header; an
 * acceptance rebuilds an EIP-4361 text with exactly the lines its fields
 * call for (no field can add or split a line) and a digest of that text.
 */
#include <stdbool.h>

#include <json-c/json.h>

#include "base64.h"
#include "buf.h"
#include "fuzz.h"
#include "sig.h"
#include "siwx.h"
#include "x402.h"
#include "banned.h"

static void
one(const char *hdr)
{
	struct siwx_proof p;
	struct buf text;
	char msg[256] = "";
	uint8_t dg[32];
	size_t lines = 1, want;

	if (siwx_parse(hdr, &p, msg, sizeof(msg)) != SIWX_OK) {
		CHECK(p.root == NULL && strstr(msg, "SIGN-IN-WITH-X") != NULL);
		return;
	}
	CHECK(p.root != NULL && p.domain && p.uri && p.nonce && p.issued_at && p.sig_len > 0);
	buf_init(&text, 1 << 20);
	CHECK(siwx_message(&p, &text) == 0);
	for (size_t i = 0; i < text.len; i++) {
		CHECK(text.p[i] != '\r' && text.p[i] != '\0');
		lines += text.p[i] == '\n';
	}
	want = 5 + (p.statement ? 1 : 0) + 4 + (p.expiration_time ? 1 : 0) + (p.not_before ? 1 : 0) +
	    (p.request_id ? 1 : 0) + (p.resources ? 1 + json_object_array_length(p.resources) : 0);
	CHECK(lines == want);
	sig_personal_digest(text.p, text.len, dg);
	CHECK(memcmp(dg, p.digest, sizeof(dg)) == 0);
	buf_release(&text);
	siwx_proof_release(&p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *hdr = malloc(size + 1);
	struct buf b;

	CHECK(hdr != NULL);
	memcpy(hdr, data, size);
	hdr[size] = '\0';
	one(hdr);
	buf_init(&b, 4 * size + 16);
	if (base64_encode(data, size, BASE64_STD, &b) == 0)
		one(buf_str(&b));
	buf_release(&b);
	free(hdr);
	return 0;
}
