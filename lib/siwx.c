#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "b64json.h"
#include "hex.h"
#include "json.h"
#include "sha256.h"
#include "sig.h"
#include "siwx.h"
#include "timefmt.h"
#include "x402.h"
#include "banned.h"

#define SIWX_MESSAGE_MAX (SIWX_HEADER_MAX + 1024)
/* A body's canonical JSON is never longer than the body (no whitespace, no
 * escape longer than the input's), which its row caps far below this. */
#define SIWX_CANONICAL_MAX (1024 * 1024)

static const char *const proof_required[] = {
	"domain", "address", "uri", "version", "chainId", "type", "nonce", "issuedAt", "signature", NULL,
};
static const char *const proof_optional[] = {
	"statement", "expirationTime", "notBefore", "requestId", "resources", "signatureScheme", NULL,
};

static const char *const rc_codes[SIWX_RC__MAX] = {
	[SIWX_OK] = "ok",
	[SIWX_MALFORMED] = "siwx_malformed",
	[SIWX_WRONG_DOMAIN] = "siwx_wrong_domain",
	[SIWX_WRONG_URI] = "siwx_wrong_uri",
	[SIWX_WRONG_CHAIN] = "siwx_wrong_chain",
	[SIWX_WRONG_NONCE] = "siwx_wrong_nonce",
	[SIWX_STALE] = "siwx_stale",
	[SIWX_BAD_SIGNATURE] = "siwx_bad_signature",
	[SIWX_UNAVAILABLE] = "siwx_signature_check_unavailable",
};

const char *
siwx_rc_code(enum siwx_rc rc)
{
	return rc >= 0 && rc < SIWX_RC__MAX && rc_codes[rc] ? rc_codes[rc] : "siwx_error";
}

/*
 * May s be a line of the signed text? No control character at all (a
 * line break would let one field write another's line), and, when
 * no_space, no space either (domain, URI, nonce, resources are single
 * tokens). Non-ASCII UTF-8 passes (json_parse_strict checked it).
 */
static bool
line_ok(const char *s, bool no_space)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (no_space && *p == ' '))
			return false;
	return true;
}

/*
 * The string member name of o into *out (NULL when absent and optional).
 * -1 with msg set when it has another type, or is not a valid line.
 */
static int
str_member(json_object *o, const char *name, bool no_space, bool allow_empty, const char **out, char *msg,
    size_t cap)
{
	json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(o, name, &v))
		return 0;
	if (!json_object_is_type(v, json_type_string)) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: %s must be a string.", name);
		return -1;
	}
	*out = json_object_get_string(v);
	if ((!allow_empty && (*out)[0] == '\0') || !line_ok(*out, no_space)) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: %s must be %s with no line break or control character%s.", name,
		    allow_empty ? "text" : "non-empty text", no_space ? " or space" : "");
		return -1;
	}
	return 0;
}

/* An RFC 3339 time member (when present) into *secs. */
static int
time_member(const char *name, const char *s, int64_t *secs, char *msg, size_t cap)
{
	if (s != NULL && time_parse_rfc3339(s, strlen(s), secs, NULL) < 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: %s is not an RFC 3339 date-time.", name);
		return -1;
	}
	return 0;
}

/* "eip155:N", N a decimal without leading zeros, 1 .. 2^63. */
static int
parse_chain(const char *s, uint64_t *out)
{
	static const char prefix[] = "eip155:";
	const char *d = s + sizeof(prefix) - 1;
	uint64_t v = 0;
	size_t n = 0;

	if (strncmp(s, prefix, sizeof(prefix) - 1) != 0 || d[0] == '0')
		return -1;
	for (; d[n] >= '0' && d[n] <= '9'; n++) {
		if (n >= 19)
			return -1;
		v = v * 10 + (uint64_t)(d[n] - '0');
	}
	if (n == 0 || d[n] != '\0')
		return -1;
	*out = v;
	return 0;
}

static bool
nonce_ok(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z')))
			return false;
	return n >= SIWX_NONCE_MIN && n <= SIWX_NONCE_MAX;
}

/* The fields of the decoded proof o into out (strings owned by o). */
static enum siwx_rc
read_proof(json_object *o, struct siwx_proof *out, char *msg, size_t cap)
{
	const char *bad = NULL, *address, *version, *chain, *type, *scheme, *sig;
	json_object *res;

	switch (json_check_keys(o, proof_optional, proof_required, &bad)) {
	case JSON_KEYS_OK:
		break;
	case JSON_KEYS_NOT_OBJECT:
		snprintf(msg, cap, "SIGN-IN-WITH-X must decode to a JSON object.");
		return SIWX_MALFORMED;
	case JSON_KEYS_UNKNOWN:
		snprintf(msg, cap, "SIGN-IN-WITH-X has an unknown field \"%.40s\".", bad);
		return SIWX_MALFORMED;
	default:
		snprintf(msg, cap, "SIGN-IN-WITH-X lacks the field \"%s\".", bad);
		return SIWX_MALFORMED;
	}
	if (str_member(o, "domain", true, false, &out->domain, msg, cap) < 0 ||
	    str_member(o, "address", true, false, &address, msg, cap) < 0 ||
	    str_member(o, "uri", true, false, &out->uri, msg, cap) < 0 ||
	    str_member(o, "version", true, false, &version, msg, cap) < 0 ||
	    str_member(o, "chainId", true, false, &chain, msg, cap) < 0 ||
	    str_member(o, "type", true, false, &type, msg, cap) < 0 ||
	    str_member(o, "nonce", true, false, &out->nonce, msg, cap) < 0 ||
	    str_member(o, "issuedAt", true, false, &out->issued_at, msg, cap) < 0 ||
	    str_member(o, "signature", true, false, &sig, msg, cap) < 0 ||
	    str_member(o, "statement", false, false, &out->statement, msg, cap) < 0 ||
	    str_member(o, "expirationTime", true, false, &out->expiration_time, msg, cap) < 0 ||
	    str_member(o, "notBefore", true, false, &out->not_before, msg, cap) < 0 ||
	    str_member(o, "requestId", false, true, &out->request_id, msg, cap) < 0 ||
	    str_member(o, "signatureScheme", true, false, &scheme, msg, cap) < 0)
		return SIWX_MALFORMED;
	if (strcmp(version, "1") != 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: version must be \"1\".");
		return SIWX_MALFORMED;
	}
	if (strcmp(type, "eip191") != 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: type must be \"eip191\" (an EVM account).");
		return SIWX_MALFORMED;
	}
	if (scheme && strcmp(scheme, "eip191") != 0 && strcmp(scheme, "eip1271") != 0 &&
	    strcmp(scheme, "eip6492") != 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: signatureScheme must be eip191, eip1271 or eip6492.");
		return SIWX_MALFORMED;
	}
	if (parse_chain(chain, &out->chain_id) < 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: chainId must be a CAIP-2 id \"eip155:<chain>\".");
		return SIWX_MALFORMED;
	}
	if (addr_parse(address, strlen(address), &out->address) < 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: address is not an EVM address (0x and 40 hex digits, "
		    "checksummed when mixed case).");
		return SIWX_MALFORMED;
	}
	if (!nonce_ok(out->nonce)) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: nonce must be %d to %d letters and digits.", SIWX_NONCE_MIN,
		    SIWX_NONCE_MAX);
		return SIWX_MALFORMED;
	}
	if (time_member("issuedAt", out->issued_at, &out->issued_at_s, msg, cap) < 0 ||
	    time_member("expirationTime", out->expiration_time, &out->expiration_s, msg, cap) < 0 ||
	    time_member("notBefore", out->not_before, &out->not_before_s, msg, cap) < 0)
		return SIWX_MALFORMED;
	if (strncmp(sig, "0x", 2) != 0 ||
	    hex_decode(sig, strlen(sig), out->sig, sizeof(out->sig), &out->sig_len) < 0 || out->sig_len == 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: signature must be 0x and an even number of hex digits, "
		    "at most %d bytes.", WALLETSIG_MAX);
		return SIWX_MALFORMED;
	}
	if (json_object_object_get_ex(o, "resources", &res)) {
		size_t n;

		if (!json_object_is_type(res, json_type_array) ||
		    (n = json_object_array_length(res)) > SIWX_RESOURCES_MAX) {
			snprintf(msg, cap, "SIGN-IN-WITH-X: resources must be an array of at most %d URIs.",
			    SIWX_RESOURCES_MAX);
			return SIWX_MALFORMED;
		}
		for (size_t i = 0; i < n; i++) {
			json_object *r = json_object_array_get_idx(res, i);

			if (!json_object_is_type(r, json_type_string) || json_object_get_string_len(r) == 0 ||
			    !line_ok(json_object_get_string(r), true)) {
				snprintf(msg, cap, "SIGN-IN-WITH-X: resources[%zu] must be a URI on one line.", i);
				return SIWX_MALFORMED;
			}
		}
		out->resources = res;
	}
	return SIWX_OK;
}

enum siwx_rc
siwx_parse(const char *hdr, struct siwx_proof *out, char *msg, size_t cap)
{
	struct json_limits lim = { .max_depth = 4, .max_length = SIWX_HEADER_MAX,
		.max_string = SIWX_HEADER_MAX, .max_members = 64 };
	struct json_error je;
	struct buf text;
	enum siwx_rc rc = SIWX_MALFORMED;

	memset(out, 0, sizeof(*out));
	switch (b64json_decode(hdr, BASE64_STD, SIWX_HEADER_MAX, &lim, &out->root, &je)) {
	case B64JSON_OK:
		break;
	case B64JSON_SIZE:
		snprintf(msg, cap, "SIGN-IN-WITH-X is empty or longer than %d characters.", SIWX_HEADER_MAX);
		return SIWX_MALFORMED;
	case B64JSON_BASE64:
		snprintf(msg, cap, "SIGN-IN-WITH-X is not standard base64 with padding.");
		return SIWX_MALFORMED;
	case B64JSON_JSON:
		snprintf(msg, cap, "SIGN-IN-WITH-X does not decode to strict JSON: %s.", je.msg);
		return SIWX_MALFORMED;
	case B64JSON_NOMEM:
	default:
		snprintf(msg, cap, "SIGN-IN-WITH-X could not be read.");
		return SIWX_MALFORMED;
	}
	if ((rc = read_proof(out->root, out, msg, cap)) != SIWX_OK)
		goto out;
	buf_init(&text, SIWX_MESSAGE_MAX);
	if (siwx_message(out, &text) < 0) {
		snprintf(msg, cap, "SIGN-IN-WITH-X: the signed text could not be rebuilt.");
		rc = SIWX_MALFORMED;
	} else {
		sig_personal_digest(text.p, text.len, out->digest);
	}
	buf_release(&text);
out:
	if (rc != SIWX_OK)
		siwx_proof_release(out);
	return rc;
}

void
siwx_proof_release(struct siwx_proof *p)
{
	json_object_put(p->root);
	memset(p, 0, sizeof(*p));
}

/*
 * The EIP-4361 layout (docs/PROTOCOL.md, "Sign-In-With-X"): lines joined by
 * "\n", no trailing newline; without a statement the address line is
 * followed by two empty lines; optional lines only when present (Request
 * ID even when empty).
 */
int
siwx_message(const struct siwx_proof *p, struct buf *out)
{
	char addr[ADDR_TEXT_LEN + 1];
	int rc = 0;

	addr_format(&p->address, addr);
	rc |= buf_printf(out, "%s wants you to sign in with your Ethereum account:\n%s\n\n", p->domain, addr);
	if (p->statement)
		rc |= buf_printf(out, "%s\n", p->statement);
	rc |= buf_printf(out, "\nURI: %s\nVersion: 1\nChain ID: %" PRIu64 "\nNonce: %s\nIssued At: %s", p->uri,
	    p->chain_id, p->nonce, p->issued_at);
	if (p->expiration_time)
		rc |= buf_printf(out, "\nExpiration Time: %s", p->expiration_time);
	if (p->not_before)
		rc |= buf_printf(out, "\nNot Before: %s", p->not_before);
	if (p->request_id)
		rc |= buf_printf(out, "\nRequest ID: %s", p->request_id);
	if (p->resources) {
		size_t n = json_object_array_length(p->resources);

		rc |= buf_adds(out, "\nResources:");
		for (size_t i = 0; i < n; i++)
			rc |= buf_printf(out, "\n- %s", json_object_get_string(json_object_array_get_idx(p->resources, i)));
	}
	return rc ? -1 : 0;
}

enum siwx_rc
siwx_check(const struct siwx_proof *p, const struct siwx_expect *want, char *msg, size_t cap)
{
	if (strcmp(p->domain, want->domain) != 0) {
		snprintf(msg, cap, "The sign-in proof is for another domain; sign the challenge for %s.", want->domain);
		return SIWX_WRONG_DOMAIN;
	}
	if (strcmp(p->uri, want->uri) != 0) {
		snprintf(msg, cap, "The sign-in proof is for another operation; sign the challenge issued for this URI.");
		return SIWX_WRONG_URI;
	}
	if (p->chain_id != want->chain_id) {
		snprintf(msg, cap, "The sign-in proof is for chain %" PRIu64 "; only eip155:%" PRIu64 " is accepted.",
		    p->chain_id, want->chain_id);
		return SIWX_WRONG_CHAIN;
	}
	if (want->nonce == NULL || strcmp(p->nonce, want->nonce) != 0) {
		snprintf(msg, cap, "The sign-in proof's nonce is not one issued for this operation, or was used.");
		return SIWX_WRONG_NONCE;
	}
	if (p->issued_at_s > want->now + SIWX_SKEW_S) {
		snprintf(msg, cap, "The sign-in proof is issued in the future.");
		return SIWX_STALE;
	}
	if (want->now - p->issued_at_s > SIWX_MAX_AGE_S) {
		snprintf(msg, cap, "The sign-in proof was issued more than %d seconds ago.", SIWX_MAX_AGE_S);
		return SIWX_STALE;
	}
	if (p->expiration_time && p->expiration_s <= want->now) {
		snprintf(msg, cap, "The sign-in proof has expired.");
		return SIWX_STALE;
	}
	if (p->not_before && p->not_before_s > want->now + SIWX_SKEW_S) {
		snprintf(msg, cap, "The sign-in proof is not valid yet (notBefore).");
		return SIWX_STALE;
	}
	return SIWX_OK;
}

enum siwx_rc
siwx_verify(const struct config *cfg, const struct siwx_proof *p, enum walletsig_kind *kind, char *msg,
    size_t cap)
{
	switch (walletsig_verify(cfg, p->digest, p->sig, p->sig_len, &p->address, kind)) {
	case WALLETSIG_VALID:
		return SIWX_OK;
	case WALLETSIG_UNAVAILABLE:
		snprintf(msg, cap, "The wallet's signature cannot be checked now (the chain RPC is unavailable); "
		    "nothing was changed.");
		return SIWX_UNAVAILABLE;
	default:
		snprintf(msg, cap, "The sign-in proof's signature is not the address's signature of the sign-in text.");
		return SIWX_BAD_SIGNATURE;
	}
}

int
siwx_body_request_id(json_object *body, char out[SIWX_REQUEST_ID_LEN + 1])
{
	struct buf canon;
	int rc;

	out[0] = '\0';
	buf_init(&canon, SIWX_CANONICAL_MAX);
	if (json_canonical(body, &canon) < 0)
		/* A body within any row's limit fits the cap: full means memory ran out. */
		rc = canon.full || json_alloc_latched() ? -2 : -1;
	else
		rc = sha256_hex(buf_str(&canon), canon.len, out) == 0 ? 0 : -2;   /* the digest's context */
	buf_release(&canon);
	return rc;
}

/* RFC 3339 with milliseconds, as JavaScript's toISOString writes it. */
static void
iso_ms(int64_t secs, char out[32])
{
	time_t t = (time_t)secs;
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(out, 32, "%Y-%m-%dT%H:%M:%S.000Z", &tm) == 0)
		out[0] = '\0';
}

/* The JSON Schema the extension carries for clients: the proof's fields. */
static const char proof_schema[] =
	"{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
	"\"properties\":{"
	"\"domain\":{\"type\":\"string\"},\"address\":{\"type\":\"string\"},"
	"\"statement\":{\"type\":\"string\"},\"uri\":{\"type\":\"string\",\"format\":\"uri\"},"
	"\"version\":{\"type\":\"string\"},\"chainId\":{\"type\":\"string\"},\"type\":{\"type\":\"string\"},"
	"\"nonce\":{\"type\":\"string\"},\"issuedAt\":{\"type\":\"string\",\"format\":\"date-time\"},"
	"\"expirationTime\":{\"type\":\"string\",\"format\":\"date-time\"},"
	"\"notBefore\":{\"type\":\"string\",\"format\":\"date-time\"},\"requestId\":{\"type\":\"string\"},"
	"\"resources\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"format\":\"uri\"}},"
	"\"signature\":{\"type\":\"string\"}},"
	"\"required\":[\"domain\",\"address\",\"uri\",\"version\",\"chainId\",\"type\",\"nonce\",\"issuedAt\","
	"\"signature\"]}";

json_object *
siwx_challenge_json(const struct siwx_challenge *c)
{
	json_object *ext = json_object_new_object(), *info = json_object_new_object();
	json_object *chains = json_object_new_array(), *chain = json_object_new_object();
	json_object *res = json_object_new_array(), *schema = NULL;
	char issued[32], expires[32], caip2[32];
	int rc = 0;

	/* Not json_tokener_parse, which crashes out of memory (lib/typed.c); the constant parses. */
	if (json_parse_strict(proof_schema, strlen(proof_schema), NULL, &schema, NULL) < 0)
		json_alloc_failed();

	iso_ms(c->issued_at, issued);
	iso_ms(c->expires_at, expires);
	snprintf(caip2, sizeof(caip2), "eip155:%" PRIu64, c->chain_id);
	if (!ext || !info || !chains || !chain || !res || !schema || !issued[0] || !expires[0]) {
		rc = -1;
		goto out;
	}
	rc |= json_object_object_add(info, "domain", json_object_new_string(c->domain));
	rc |= json_object_object_add(info, "uri", json_object_new_string(c->uri));
	rc |= json_object_object_add(info, "version", json_object_new_string("1"));
	rc |= json_object_object_add(info, "nonce", json_object_new_string(c->nonce));
	rc |= json_object_object_add(info, "issuedAt", json_object_new_string(issued));
	rc |= json_object_object_add(info, "expirationTime", json_object_new_string(expires));
	if (c->statement)
		rc |= json_object_object_add(info, "statement", json_object_new_string(c->statement));
	if (c->request_id)
		rc |= json_object_object_add(info, "requestId", json_object_new_string(c->request_id));
	rc |= json_object_array_add(res, json_object_new_string(c->uri));
	rc |= json_object_object_add(info, "resources", res);
	res = NULL;
	rc |= json_object_object_add(chain, "chainId", json_object_new_string(caip2));
	rc |= json_object_object_add(chain, "type", json_object_new_string("eip191"));
	rc |= json_object_array_add(chains, chain);
	chain = NULL;
	rc |= json_object_object_add(ext, "info", info);
	info = NULL;
	rc |= json_object_object_add(ext, "supportedChains", chains);
	chains = NULL;
	rc |= json_object_object_add(ext, "schema", schema);
	schema = NULL;
out:
	json_object_put(info);
	json_object_put(chains);
	json_object_put(chain);
	json_object_put(res);
	json_object_put(schema);
	if (rc != 0) {
		json_object_put(ext);
		return NULL;
	}
	return ext;
}
