#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "abi.h"
#include "nodecap.h"
#include "clock.h"
#include "hex.h"
#include "rpc.h"
#include "sig.h"
#include "walletsig.h"
#include "walletsig_validator.h"
#include "banned.h"

/* Room for abi-encoded calldata around a WALLETSIG_MAX signature. */
#define ENC_MAX (WALLETSIG_MAX + 8 * ABI_WORD)
/* "0x", the validator code and the encoded arguments, as hex, with a NUL. */
#define HEX_MAX (2 + 2 * (WALLETSIG_VALIDATOR_BYTES + ENC_MAX) + 1)
/* The eth_call params around HEX_MAX. */
#define PARAMS_MAX (HEX_MAX + 128)

static const uint8_t suffix_6492[32] = {
	0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
	0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
};

static const char *const kind_column[WALLETSIG_KIND__MAX] = {
	[WALLETSIG_EOA] = "eoa",
	[WALLETSIG_ERC1271] = "erc1271",
	[WALLETSIG_ERC6492] = "erc1271",
};

const char *
walletsig_kind_column(enum walletsig_kind k)
{
	return k < WALLETSIG_KIND__MAX ? kind_column[k] : "eoa";
}

bool
walletsig_is_6492(const uint8_t *sig, size_t sig_len)
{
	return sig != NULL && sig_len >= sizeof(suffix_6492) &&
	    memcmp(sig + sig_len - sizeof(suffix_6492), suffix_6492, sizeof(suffix_6492)) == 0;
}

/* The word at p as a length or offset no larger than lim; -1 when larger. */
static int
word_size(const uint8_t *p, size_t lim, size_t *out)
{
	size_t v = 0;

	for (size_t i = 0; i < ABI_WORD - 4; i++)
		if (p[i] != 0)
			return -1;
	for (size_t i = ABI_WORD - 4; i < ABI_WORD; i++)
		v = v << 8 | p[i];
	if (v > lim)
		return -1;
	*out = v;
	return 0;
}

/* True when p[0..n) is all zero. */
static bool
all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/*
 * The bytes member whose tail starts at off in d[0..n): its contents into
 * *p, *len, and the end of its padded tail into *end. 0 or -1.
 */
static int
bytes_at(const uint8_t *d, size_t n, size_t off, const uint8_t **p, size_t *len, size_t *end)
{
	size_t l, padded;

	if (off > n || n - off < ABI_WORD || word_size(d + off, n, &l) < 0)
		return -1;
	padded = (l + ABI_WORD - 1) / ABI_WORD * ABI_WORD;
	if (n - off - ABI_WORD < padded || !all_zero(d + off + ABI_WORD + l, padded - l))
		return -1;
	*p = d + off + ABI_WORD;
	*len = l;
	*end = off + ABI_WORD + padded;
	return 0;
}

int
walletsig_unwrap_6492(const uint8_t *sig, size_t sig_len, struct walletsig_6492 *out)
{
	const uint8_t *d = sig;
	size_t n, o1, o2, end1, end2;

	if (!walletsig_is_6492(sig, sig_len))
		return -1;
	n = sig_len - sizeof(suffix_6492);
	if (n < 3 * ABI_WORD || !all_zero(d, 12))
		return -1;
	if (word_size(d + ABI_WORD, n, &o1) < 0 || word_size(d + 2 * ABI_WORD, n, &o2) < 0)
		return -1;
	/* The canonical layout: the first tail right after the head, the second right after it. */
	if (o1 != 3 * ABI_WORD)
		return -1;
	if (bytes_at(d, n, o1, &out->factory_calldata, &out->factory_calldata_len, &end1) < 0 ||
	    o2 != end1 || bytes_at(d, n, o2, &out->inner, &out->inner_len, &end2) < 0 || end2 != n)
		return -1;
	memcpy(out->factory.b, d + 12, ADDR_LEN);
	return 0;
}

/* Append "0x" (when prefix) and the hex of p[0..n) to b; 0 or -1. */
static int
add_hex(struct buf *b, const uint8_t *p, size_t n, bool prefix)
{
	char chunk[2 * 256 + 3];

	if (prefix && buf_adds(b, "0x") < 0)
		return -1;
	for (size_t i = 0; i < n; i += 256) {
		size_t k = n - i < 256 ? n - i : 256;

		hex_encode(p + i, k, chunk);
		if (buf_add(b, chunk + 2, 2 * k) < 0)
			return -1;
	}
	return b->full ? -1 : 0;
}

int
walletsig_1271_calldata(const uint8_t digest[32], const uint8_t *sig, size_t sig_len, struct buf *b)
{
	uint8_t *enc;
	struct abi_arg a[2];
	size_t n = 0;
	int rc = -1;

	if (sig_len > WALLETSIG_MAX || (enc = malloc(ENC_MAX)) == NULL)
		return -1;
	a[0] = abi_bytes32(digest);
	a[1] = abi_bytes(sig, sig_len);
	if (abi_calldata("isValidSignature(bytes32,bytes)", a, 2, enc, ENC_MAX, &n) == 0)
		rc = add_hex(b, enc, n, true);
	free(enc);
	return rc;
}

int
walletsig_validator_calldata(const struct addr *signer, const uint8_t digest[32],
    const uint8_t *sig, size_t sig_len, struct buf *b)
{
	uint8_t *enc;
	struct abi_arg a[3];
	size_t n = 0;
	int rc = -1;

	if (sig_len > WALLETSIG_MAX || (enc = malloc(ENC_MAX)) == NULL)
		return -1;
	a[0] = abi_address(signer);
	a[1] = abi_bytes32(digest);
	a[2] = abi_bytes(sig, sig_len);
	if (abi_encode(a, 3, enc, ENC_MAX, &n) == 0 && buf_adds(b, "0x" WALLETSIG_VALIDATOR_HEX) == 0)
		rc = add_hex(b, enc, n, false);
	free(enc);
	return rc;
}

/* Length in bytes of "0x" + even hex, or -1. */
static long
hex_bytes(const char *s)
{
	size_t n;

	if (s == NULL || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	n = strlen(s + 2);
	if (n % 2 != 0)
		return -1;
	for (size_t i = 2; s[i]; i++)
		if (hex_digit((unsigned char)s[i]) < 0)
			return -1;
	return (long)(n / 2);
}

enum walletsig_rc
walletsig_decode_1271(const char *result)
{
	uint8_t head[4];
	long n = hex_bytes(result);

	if (n < 0)
		return WALLETSIG_UNAVAILABLE;
	if (n < ABI_WORD || hex_decode_fixed(result, 10, head, 4, true) < 0)
		return WALLETSIG_INVALID;
	return ((uint32_t)head[0] << 24 | (uint32_t)head[1] << 16 | (uint32_t)head[2] << 8 | head[3]) ==
	    WALLETSIG_1271_MAGIC ? WALLETSIG_VALID : WALLETSIG_INVALID;
}

enum walletsig_rc
walletsig_decode_validator(const char *result)
{
	if (hex_bytes(result) != 1)
		return WALLETSIG_UNAVAILABLE;
	if (result[2] == '0' && result[3] == '1')
		return WALLETSIG_VALID;
	if (result[2] == '0' && result[3] == '0')
		return WALLETSIG_INVALID;
	return WALLETSIG_UNAVAILABLE;
}

/*
 * One call returning a hex string into *out (caller frees). RPC_OK; a
 * node error that is an execution revert gives *reverted. Anything else
 * is logged (never the signature) and the caller fails closed.
 */
static enum rpc_rc
call_hex(struct rpc *r, const char *method, const char *params, char **out, bool *reverted)
{
	json_object *res = NULL;
	enum rpc_rc rc;

	*out = NULL;
	*reverted = false;
	rc = rpc_call(r, method, params, &res);
	if (rc == RPC_ERROR && (r->error_code == 3 || strstr(r->err, "revert") != NULL)) {
		*reverted = true;
		return rc;
	}
	if (rc == RPC_OK && !json_object_is_type(res, json_type_string)) {
		snprintf(r->err, sizeof(r->err), "rpc: %s result is not a string", method);
		rc = RPC_BAD_REPLY;
	}
	if (rc == RPC_OK && (*out = strdup(json_object_get_string(res))) == NULL)
		rc = RPC_BAD_REPLY;
	if (rc != RPC_OK)
		fprintf(stderr, "waymark: walletsig: %s: %s\n", method, r->err);
	json_object_put(res);
	return rc;
}

/* eth_call {to (NULL: a creation), data} at "latest", decoded by dec. */
static enum walletsig_rc
eth_call(struct rpc *r, const struct addr *to, const struct buf *data,
    enum walletsig_rc (*dec)(const char *))
{
	struct buf p;
	char a[ADDR_TEXT_LEN + 1], *res = NULL;
	bool reverted = false;
	enum walletsig_rc v = WALLETSIG_UNAVAILABLE;

	buf_init(&p, PARAMS_MAX);
	if (to)
		buf_printf(&p, "[{\"to\":\"%s\",", addr_format_lower(to, a));
	else
		buf_adds(&p, "[{");
	buf_printf(&p, "\"data\":\"%s\"},\"latest\"]", buf_str(data));
	if (!p.full) {
		if (call_hex(r, "eth_call", buf_str(&p), &res, &reverted) == RPC_OK)
			v = dec(res);
		else if (reverted)
			v = WALLETSIG_INVALID;
	}
	free(res);
	buf_release(&p);
	return v;
}

/* Step 3's code lookup: 1 code, 0 none, -1 unavailable. */
static int
has_code(struct rpc *r, const struct addr *who)
{
	char params[96], a[ADDR_TEXT_LEN + 1], *res = NULL;
	bool reverted;
	long n;

	snprintf(params, sizeof(params), "[\"%s\",\"latest\"]", addr_format_lower(who, a));
	if (call_hex(r, "eth_getCode", params, &res, &reverted) != RPC_OK)
		return -1;
	n = hex_bytes(res);
	free(res);
	return n < 0 ? -1 : n > 0;
}

enum walletsig_rc
walletsig_verify(const struct config *cfg, const uint8_t digest[32], const uint8_t *sig,
    size_t sig_len, const struct addr *signer, enum walletsig_kind *kind)
{
	enum walletsig_kind k = WALLETSIG_EOA;
	enum walletsig_rc v = WALLETSIG_INVALID;
	struct walletsig_6492 w;
	struct sig s;
	struct addr got;
	struct buf data;
	struct nodecap_use u;
	struct rpc *r;
	int code;

	nodecap_begin(&u, cfg, "walletsig", cfg->sigcheck_timeout_ms);
	buf_init(&data, HEX_MAX);
	if (sig == NULL || sig_len == 0 || sig_len > WALLETSIG_MAX)
		goto out;
	if (walletsig_is_6492(sig, sig_len)) {
		k = WALLETSIG_ERC6492;
		if (walletsig_unwrap_6492(sig, sig_len, &w) < 0 || w.inner_len == 0)
			goto out;
		if (walletsig_validator_calldata(signer, digest, sig, sig_len, &data) < 0)
			goto out;
		if ((r = nodecap_node(&u)) == NULL) {
			v = WALLETSIG_UNAVAILABLE;
			goto out;
		}
		v = eth_call(r, NULL, &data, walletsig_decode_validator);
		goto out;
	}
	if ((sig_len == 64 || sig_len == 65) && sig_parse(sig, sig_len, &s) == SIG_OK &&
	    sig_recover(digest, &s, &got) == SIG_OK && addr_eq(&got, signer)) {
		v = WALLETSIG_VALID;
		goto out;
	}
	k = WALLETSIG_ERC1271;
	if ((r = nodecap_node(&u)) == NULL || (code = has_code(r, signer)) < 0) {
		v = WALLETSIG_UNAVAILABLE;
		goto out;
	}
	if (code == 0) {
		/* An EOA whose signature did not recover to it. */
		k = WALLETSIG_EOA;
		goto out;
	}
	if (walletsig_1271_calldata(digest, sig, sig_len, &data) < 0)
		goto out;
	/* The second call gets what is left of the check's time. */
	if ((r = nodecap_node(&u)) == NULL) {
		v = WALLETSIG_UNAVAILABLE;
		goto out;
	}
	v = eth_call(r, signer, &data, walletsig_decode_1271);
out:
	nodecap_end(&u);
	buf_release(&data);
	if (kind)
		*kind = k;
	return v;
}
