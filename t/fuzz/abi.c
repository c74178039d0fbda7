/*
 * libFuzzer target for what a JSON-RPC node sends back (untrusted: a
 * hostile or broken node must never crash a worker or the indexer):
 *
 * - the reply body, through rpc_reply_single and rpc_reply_batch (lib/rpc.c,
 *   the parsers rpc_call and rpc_batch use);
 * - a string result as eth_call/eth_getCode return it: hex decoding, the
 *   ERC-1271 and ERC-6492 validator decoders (lib/walletsig.c) and the ABI
 *   word readers (lib/abi.c) at every offset;
 * - an array result as eth_getLogs returns it: routedboon_decode and
 *   tipev_decode for each of its sources (the indexer's log decoders) on
 *   each log, and the x402 authorization-state log reading (lib/x402.c);
 * - an object result: a block (rpc_block_ref) and a transaction receipt
 *   (x402_receipt_transfer).
 *
 * The raw input is also read as ABI data, and as a client's ERC-6492
 * signature wrapper (walletsig_unwrap_6492). Invariants: a reader succeeds
 * exactly when its word lies inside the data and its value fits the type;
 * a dynamic value lies inside the data; abi_encode of bytes decodes back to
 * them; a quantity formats back to a value that parses the same; a failed
 * batch leaves no result behind.
 */
#include <inttypes.h>

#include <json-c/json.h>

#include "abi.h"
#include "fuzz.h"
#include "hex.h"
#include "routedboon.h"
#include "tipevent.h"
#include "utf8.h"
#include "rpc.h"
#include "walletsig.h"
#include "x402.h"
#include "banned.h"

#define DATA_MAX 4096

static bool
all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/* Every reader at offset off of data[0..len) against what the word holds. */
static void
read_at(const uint8_t *data, size_t len, size_t off)
{
	bool inside = off <= len && len - off >= ABI_WORD;
	const uint8_t *w = inside ? data + off : NULL;
	struct u256 v;
	struct addr a;
	uint64_t u;
	uint8_t b32[32], be[32];
	bool b;
	const uint8_t *p;
	size_t plen;

	CHECK((abi_read_uint256(data, len, off, &v) == 0) == inside);
	if (inside) {
		u256_to_be(&v, be);
		CHECK(memcmp(be, w, 32) == 0);
	}
	CHECK((abi_read_uint64(data, len, off, &u) == 0) == (inside && all_zero(w, 24)));
	CHECK((abi_read_address(data, len, off, &a) == 0) == (inside && all_zero(w, 12)));
	if (inside && all_zero(w, 12))
		CHECK(memcmp(a.b, w + 12, 20) == 0);
	CHECK((abi_read_bool(data, len, off, &b) == 0) == (inside && all_zero(w, 31) && w[31] <= 1));
	CHECK((abi_read_bytes32(data, len, off, b32) == 0) == inside);
	if (abi_read_dynamic(data, len, off, &p, &plen) == 0) {
		CHECK(inside && p >= data + ABI_WORD && p <= data + len && plen <= (size_t)(data + len - p));
		CHECK(abi_read_uint64(data, len, (size_t)(p - data) - ABI_WORD, &u) == 0 && u == plen);
	}
}

static void
abi_data(const uint8_t *data, size_t len)
{
	uint8_t enc[DATA_MAX + 3 * ABI_WORD];
	struct abi_arg arg;
	const uint8_t *p;
	size_t n, plen;

	for (size_t off = 0; off <= len + 1 && off < 4 * ABI_WORD + 8; off++)
		read_at(data, len, off);
	read_at(data, len, SIZE_MAX - 8);
	/* abi.encode(bytes) decodes back to the same bytes. */
	if (len <= DATA_MAX) {
		arg = abi_bytes(data, len);
		CHECK(abi_encoded_len(&arg, 1) == 2 * ABI_WORD + (len + 31) / 32 * 32);
		CHECK(abi_encode(&arg, 1, enc, sizeof(enc), &n) == 0 && n == abi_encoded_len(&arg, 1));
		CHECK(abi_read_dynamic(enc, n, 0, &p, &plen) == 0 && plen == len && memcmp(p, data, len) == 0);
		CHECK(abi_encode(&arg, 1, enc, n - 1, &n) < 0);
	}
}

/*
 * A client's signature as an ERC-6492 wrapper: sig[0..len) itself and
 * with the 6492 suffix appended. An unwrapped signature is the canonical
 * abi.encode(address, bytes, bytes) + suffix, so encoding its parts again
 * gives exactly the input; and any two parts wrapped unwrap to themselves.
 */
static void
wrapper(const uint8_t *sig, size_t len)
{
	static uint8_t buf[2 * DATA_MAX + 8 * ABI_WORD], enc[2 * DATA_MAX + 8 * ABI_WORD];
	uint8_t suffix[32];
	struct walletsig_6492 w;
	struct abi_arg a[3];
	size_t n, plen;

	for (size_t i = 0; i < 32; i++)
		suffix[i] = i % 2 ? 0x92 : 0x64;
	if (len > DATA_MAX)
		return;
	for (int round = 0; round < 2; round++) {
		n = len;
		memcpy(buf, sig, len);
		if (round == 1) {
			memcpy(buf + n, suffix, 32);
			n += 32;
		}
		if (walletsig_unwrap_6492(buf, n, &w) < 0)
			continue;
		CHECK(walletsig_is_6492(buf, n));
		CHECK(w.factory_calldata >= buf && w.inner >= buf &&
		    w.factory_calldata + w.factory_calldata_len <= buf + n - 32 &&
		    w.inner + w.inner_len <= buf + n - 32);
		a[0] = abi_address(&w.factory);
		a[1] = abi_bytes(w.factory_calldata, w.factory_calldata_len);
		a[2] = abi_bytes(w.inner, w.inner_len);
		CHECK(abi_encode(a, 3, enc, sizeof(enc), &plen) == 0 && plen + 32 == n &&
		    memcmp(enc, buf, plen) == 0);
	}
	/* Wrap two halves of the input: they come back. */
	a[0] = abi_address(&(struct addr){ .b = { 0xfa } });
	a[1] = abi_bytes(sig, len / 2);
	a[2] = abi_bytes(sig + len / 2, len - len / 2);
	CHECK(abi_encode(a, 3, enc, sizeof(enc), &plen) == 0);
	memcpy(enc + plen, suffix, 32);
	CHECK(walletsig_unwrap_6492(enc, plen + 32, &w) == 0 && w.factory.b[0] == 0xfa &&
	    w.factory_calldata_len == len / 2 && memcmp(w.factory_calldata, sig, len / 2) == 0 &&
	    w.inner_len == len - len / 2 && memcmp(w.inner, sig + len / 2, w.inner_len) == 0);
}

/* A string result: a quantity, hex data, a validator's answer. */
static void
string_result(const char *s, size_t slen)
{
	uint8_t data[DATA_MAX];
	char again[24];
	size_t n;
	uint64_t q, q2;
	enum walletsig_rc v1 = walletsig_decode_1271(s), v2 = walletsig_decode_validator(s);

	CHECK(v1 == WALLETSIG_VALID || v1 == WALLETSIG_INVALID || v1 == WALLETSIG_UNAVAILABLE);
	CHECK(v2 == WALLETSIG_VALID || v2 == WALLETSIG_INVALID || v2 == WALLETSIG_UNAVAILABLE);
	if (rpc_hex_u64(s, &q) == 0) {
		CHECK(slen >= 3 && slen <= 18);
		snprintf(again, sizeof(again), "0x%" PRIx64, q);
		CHECK(rpc_hex_u64(again, &q2) == 0 && q2 == q);
	}
	if (hex_decode(s, slen, data, sizeof(data), &n) == 0) {
		CHECK(slen == 2 + 2 * n);
		abi_data(data, n);
	}
}

/*
 * One log through the tips decoder: a failure says why; a success has a
 * known event whose text is valid UTF-8 within the contract's limits
 * (each byte at most one U+FFFD of 3 bytes), a canonical display only
 * with a handle hash, a private event with no note and no amount.
 */
static void
tip_log(json_object *log, enum tipev_source src)
{
	struct tipevent e;
	char err[160];
	int rc;

	err[0] = '\0';
	rc = tipev_decode(log, src, &e, err, sizeof(err));
	CHECK(rc >= -1 && rc <= 1);
	if (rc < 0)
		CHECK(err[0] != '\0');
	if (rc != 0)
		return;
	CHECK((unsigned)e.kind < TIPEV__MAX && strcmp(tipev_name(e.kind), "?") != 0);
	CHECK(utf8_valid(e.display, strlen(e.display)));
	CHECK(utf8_valid(e.note, strlen(e.note)));
	CHECK(strlen(e.display) <= 3 * TIPEV_HANDLE_MAX && strlen(e.note) <= 3 * TIPEV_NOTE_MAX);
	CHECK(!e.display_canonical || (e.has_display && e.has_handle_hash));
	CHECK(e.mint_attestation >= -1 && e.mint_attestation <= 1);
	if (tipev_is_private(e.kind))
		CHECK(!e.has_note && !e.has_usdc && e.has_commitment);
	if (e.has_agent_id)
		CHECK(e.agent_id[0] != '\0' && strspn(e.agent_id, "0123456789") == strlen(e.agent_id));
}

/* An array result: the logs of eth_getLogs. */
static void
logs_result(json_object *logs)
{
	struct routedboon rb;
	char err[160], tx[67];
	int k;

	for (size_t i = 0; i < json_object_array_length(logs) && i < 8; i++) {
		err[0] = '\0';
		if (routedboon_decode(json_object_array_get_idx(logs, i), &rb, err, sizeof(err)) < 0)
			CHECK(err[0] != '\0');
		for (int src = 0; src < TIPSRC__MAX; src++)
			tip_log(json_object_array_get_idx(logs, i), (enum tipev_source)src);
	}
	k = x402_auth_logs(logs, tx);
	CHECK(k >= -1 && k <= 1);
	if (k == 1)
		CHECK(strlen(tx) == 66 && tx[0] == '0' && tx[1] == 'x');
	else
		CHECK(tx[0] == '\0');
}

/* An object result: a block or a transaction receipt. */
static void
object_result(json_object *o)
{
	static struct x402_payment p;
	static struct addr token;
	uint8_t hash[32];
	uint64_t t;
	int k;

	if (p.value[0] == '\0') {
		/* The Transfer of the seed receipts: 0x...a1 pays 0x...b2 10000 of token 0x...c3. */
		memset(p.from.b, 0xa1, 20);
		memset(p.to.b, 0xb2, 20);
		memset(token.b, 0xc3, 20);
		memcpy(p.value, "10000", 6);
	}
	(void)rpc_block_ref(o, hash, &t);
	k = x402_receipt_transfer(o, &token, &p);
	CHECK(k >= -1 && k <= 1);
}

static void
result(json_object *res)
{
	switch (json_object_get_type(res)) {
	case json_type_string:
		string_result(json_object_get_string(res), (size_t)json_object_get_string_len(res));
		break;
	case json_type_array:
		logs_result(res);
		break;
	case json_type_object:
		object_result(res);
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rpc r;
	json_object *res = NULL, *batch[4];
	enum rpc_rc rc;

	abi_data(data, size);
	wrapper(data, size);
	memset(&r, 0, sizeof(r));
	rc = rpc_reply_single(&r, (const char *)data, size, &res);
	CHECK(rc == RPC_OK || rc == RPC_BAD_REPLY || rc == RPC_ERROR);
	if (rc == RPC_OK)
		result(res);
	else
		CHECK(res == NULL && r.err[0] != '\0');
	json_object_put(res);

	for (size_t n = 1; n <= 4; n++) {
		memset(&r, 0, sizeof(r));
		rc = rpc_reply_batch(&r, (const char *)data, size, n, batch);
		CHECK(rc == RPC_OK || rc == RPC_BAD_REPLY || rc == RPC_ERROR);
		for (size_t i = 0; i < n; i++) {
			if (rc != RPC_OK)
				CHECK(batch[i] == NULL);
			else if (batch[i] != NULL)
				result(batch[i]);
			json_object_put(batch[i]);
		}
		if (rc != RPC_OK)
			CHECK(r.err[0] != '\0');
	}
	return 0;
}
