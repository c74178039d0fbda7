/*
 * libFuzzer harness for x402.c: any input, taken as a PAYMENT-SIGNATURE
 * header, is either refused with a message or accepted with its payload
 * kept; and any input that decodes as base64 encodes back to exactly
 * itself (the decoder accepts one canonical form only). Each input is
 * also base64-encoded and parsed as a header, so the fuzzer reaches the
 * JSON and the binding rules directly (seeds: t/fuzz/corpus/x402/).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "x402.h"
#include "fuzz.h"
#include "banned.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct config cfg;
	static struct x402_requirements rq;
	static bool ready;
	struct x402_payment p;
	struct buf b;
	uint8_t *raw;
	char *hdr, msg[256], err[128];
	size_t n;

	if (!ready) {
		memset(&cfg, 0, sizeof(cfg));
		memcpy(cfg.network, "eip155:8453", 12);
		addr_parse("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 42, &cfg.usdc_address);
		addr_parse("0x209693Bc6afc0C5328bA36FaF03C514EF312287C", 42, &cfg.pay_to);
		memcpy(cfg.public_base_url, "https://api.example.org", 24);
		if (x402_requirements_init(&rq, &cfg, "0.01", "/api/v1/x402/routes/x", "", "fuzz", err,
		    sizeof(err)) < 0)
			abort();
		ready = true;
	}
	hdr = malloc(size + 1);
	raw = malloc(size + 1);
	if (hdr == NULL || raw == NULL)
		abort();
	memcpy(hdr, data, size);
	hdr[size] = '\0';
	msg[0] = '\0';
	if (x402_payment_parse(hdr, &rq, 1740672100u, &p, msg, sizeof(msg)) == X402_PARSE_OK) {
		if (p.payload == NULL)
			abort();
	} else if (msg[0] == '\0' || p.payload != NULL) {
		abort();
	}
	x402_payment_release(&p);
	buf_init(&b, 4 * size + 16);
	if (base64_encode(data, size, BASE64_STD, &b) == 0) {
		msg[0] = '\0';
		if (x402_payment_parse(buf_str(&b), &rq, 1740672100u, &p, msg, sizeof(msg)) == X402_PARSE_OK) {
			if (p.payload == NULL)
				abort();
		} else if (msg[0] == '\0' || p.payload != NULL) {
			abort();
		}
		x402_payment_release(&p);
	}
	buf_release(&b);
	if (base64_decode(hdr, size, BASE64_STD, raw, size + 1, &n) == 0) {
		buf_init(&b, 2 * size + 8);
		if (base64_encode(raw, n, BASE64_STD, &b) < 0 || b.len != size || memcmp(buf_str(&b), hdr, size) != 0)
			abort();
		buf_release(&b);
	}
	free(hdr);
	free(raw);
	return 0;
}
