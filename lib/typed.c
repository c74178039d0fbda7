#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "brand.h"
#include "eip712.h"
#include "hex.h"
#include "json.h"
#include "keccak.h"
#include "typed.h"
#include "banned.h"

/* JSON text of one {name, type} field. */
#define F(n, t) "{\"name\":\"" n "\",\"type\":\"" t "\"}"

#define DOMAIN_NVCV \
	"\"EIP712Domain\":[" F("name", "string") "," F("version", "string") "," F("chainId", "uint256") \
	"," F("verifyingContract", "address") "]"
#define DOMAIN_NVC \
	"\"EIP712Domain\":[" F("name", "string") "," F("version", "string") "," F("chainId", "uint256") "]"

#define REVIEW_DOMAIN_NAME BRAND_CAPITAL " X402 Review"

/* One kind: its types, primary type and which domain values are fixed. */
struct typed_def {
	const char *primary;
	const char *types;
	const char *name;       /* fixed or default domain name; NULL: the caller's */
	const char *version;    /* fixed or default version; NULL: the caller's */
	bool open;              /* the caller may replace name and version */
	uint64_t chain_id;      /* fixed chain id, or 0: the caller's */
	bool has_contract;      /* the domain has a verifyingContract (the caller's) */
};

static const struct typed_def defs[TYPED__MAX] = {
	[TYPED_X402_REVIEW] = {
		.primary = "X402Review",
		.types = "{" DOMAIN_NVCV ",\"X402Review\":["
			F("routeId", "bytes32") "," F("recognitionTxHash", "bytes32") ","
			F("recognitionLogIndex", "uint256") "," F("reviewText", "string") ","
			F("createdAt", "uint256") "]}",
		.name = REVIEW_DOMAIN_NAME, .version = "1", .has_contract = true,
	},
	[TYPED_X402_RECEIPT_REVIEW] = {
		.primary = "X402ReceiptReview",
		.types = "{" DOMAIN_NVCV ",\"X402ReceiptReview\":["
			F("policyVersion", "string") "," F("routeId", "bytes32") ","
			F("receiptDigest", "bytes32") "," F("reviewText", "string") ","
			F("createdAt", "uint256") "]}",
		.name = REVIEW_DOMAIN_NAME, .version = "2", .has_contract = true,
	},
	[TYPED_X402_SELF_REPORTED_REVIEW] = {
		.primary = "X402SelfReportedReview",
		.types = "{" DOMAIN_NVCV ",\"X402SelfReportedReview\":["
			F("policyVersion", "string") "," F("routeId", "bytes32") ","
			F("reviewer", "address") "," F("reviewText", "string") ","
			F("createdAt", "uint256") "]}",
		.name = REVIEW_DOMAIN_NAME, .version = "3", .has_contract = true,
	},
	[TYPED_ROUTE_NOTE_OFFER] = {
		.primary = "RouteNoteOffer",
		.types = "{" DOMAIN_NVC ",\"RouteNoteOffer\":["
			F("noteEndpoint", "string") "," F("method", "string") "," F("network", "string") ","
			F("asset", "address") "," F("payTo", "address") "," F("amountAtomic", "uint256") ","
			F("responseDigest", "bytes32") "," F("responseBytes", "uint32") ","
			F("expiresAt", "uint64") "]}",
		.name = BRAND_CAPITAL " x402 Route Note Offer", .version = "1",
	},
	[TYPED_LINK] = {
		.primary = "Link",
		.types = "{" DOMAIN_NVCV ",\"Link\":["
			F("handleHash", "bytes32") "," F("recipient", "address") "," F("nonce", "uint256") "]}",
		.name = BRAND_CAPITAL, .version = "3", .has_contract = true,
	},
	[TYPED_DISCLOSURE] = {
		.primary = "Disclosure",
		.types = "{" DOMAIN_NVCV ",\"Disclosure\":[" F("txHash", "bytes32") "," F("action", "string") "]}",
		.name = BRAND_CAPITAL " Disclosure", .version = "1", .open = true, .has_contract = true,
	},
	[TYPED_PRIVATE_TIP_UNLOCK] = {
		.primary = "PrivateTipUnlock",
		.types = "{" DOMAIN_NVCV ",\"PrivateTipUnlock\":["
			F("tipId", "uint256") "," F("nonce", "bytes32") "," F("deadline", "uint256") "]}",
		.name = BRAND_CAPITAL " Private Tip Unlock", .version = "1", .open = true, .has_contract = true,
	},
	[TYPED_X402_OFFER] = {
		.primary = "Offer",
		.types = "{" DOMAIN_NVC ",\"Offer\":["
			F("version", "uint256") "," F("resourceUrl", "string") "," F("scheme", "string") ","
			F("network", "string") "," F("asset", "string") "," F("payTo", "string") ","
			F("amount", "string") "," F("validUntil", "uint256") "]}",
		.name = "x402 offer", .version = "1", .chain_id = 1,
	},
	[TYPED_X402_RECEIPT] = {
		.primary = "Receipt",
		.types = "{" DOMAIN_NVC ",\"Receipt\":["
			F("version", "uint256") "," F("network", "string") "," F("resourceUrl", "string") ","
			F("payer", "string") "," F("issuedAt", "uint256") "," F("transaction", "string") "]}",
		.name = "x402 receipt", .version = "1", .chain_id = 1,
	},
	[TYPED_TRANSFER_WITH_AUTHORIZATION] = {
		.primary = "TransferWithAuthorization",
		.types = "{" DOMAIN_NVCV ",\"TransferWithAuthorization\":["
			F("from", "address") "," F("to", "address") "," F("value", "uint256") ","
			F("validAfter", "uint256") "," F("validBefore", "uint256") "," F("nonce", "bytes32") "]}",
		.open = true, .has_contract = true,
	},
};

static const struct typed_def *
def_of(enum typed_kind kind)
{
	if ((unsigned)kind >= TYPED__MAX)
		return NULL;
	return &defs[kind];
}

static int
set_err(char *err, size_t errlen, const char *what, const char *detail)
{
	if (err != NULL && errlen > 0) {
		int n = snprintf(err, errlen, "%s%s", what, detail);

		if (n < 0)
			err[0] = '\0';
		/* a truncated diagnostic is still useful */
	}
	return -1;
}

const char *
typed_primary(enum typed_kind kind)
{
	const struct typed_def *t = def_of(kind);

	return t ? t->primary : NULL;
}

int
typed_kind_from_primary(const char *name, enum typed_kind *out)
{
	for (int k = 0; k < TYPED__MAX && name != NULL; k++) {
		if (strcmp(defs[k].primary, name) == 0) {
			*out = (enum typed_kind)k;
			return 0;
		}
	}
	return -1;
}

const char *
typed_types_json(enum typed_kind kind)
{
	const struct typed_def *t = def_of(kind);

	return t ? t->types : NULL;
}

json_object *
typed_types_new(enum typed_kind kind)
{
	const struct typed_def *t = def_of(kind);
	json_object *o = NULL;

	if (t == NULL)
		return NULL;
	/*
	 * Not json_tokener_parse: out of memory it adds a member whose name it
	 * could not copy (a NULL key) and crashes. Our constant parses, so a
	 * failure here is out of memory (lib/json.h).
	 */
	if (json_parse_strict(t->types, strlen(t->types), NULL, &o, NULL) < 0) {
		json_alloc_failed();
		return NULL;
	}
	return o;
}

/* Pick a fixed or caller value: *out is the value, or -1 when they conflict or it is missing. */
static int
pick(const char *fixed, bool open, const char *given, const char **out)
{
	if (open) {
		*out = given != NULL ? given : fixed;
		return *out != NULL ? 0 : -1;
	}
	if (given != NULL && strcmp(given, fixed) != 0)
		return -1;
	*out = fixed;
	return 0;
}

/*
 * d's domain values under kind's def: name, version and chain id resolved
 * (fixed, the caller's, or the default); 0, or -1 with err set when d does
 * not fit the kind (the table in typed.h). d may be NULL (no values).
 */
static int
domain_values(const struct typed_def *t, const struct typed_domain *d, const char **name,
    const char **version, uint64_t *chain, char *err, size_t errlen)
{
	static const struct typed_domain none;

	if (t == NULL)
		return set_err(err, errlen, "unknown typed-data kind", "");
	if (d == NULL)
		d = &none;
	if (pick(t->name, t->open, d->name, name) < 0)
		return set_err(err, errlen, "domain.name: ", t->open ? "required" : "fixed for this kind");
	if (pick(t->version, t->open, d->version, version) < 0)
		return set_err(err, errlen, "domain.version: ", t->open ? "required" : "fixed for this kind");
	*chain = t->chain_id != 0 ? t->chain_id : d->chain_id;
	if (t->chain_id != 0 && d->chain_id != 0 && d->chain_id != t->chain_id)
		return set_err(err, errlen, "domain.chainId: ", "fixed for this kind");
	if (*chain == 0 || *chain > TYPED_MAX_CHAIN_ID)
		return set_err(err, errlen, "domain.chainId: ", "required, 1..2^53-1");
	if (t->has_contract != (d->verifying_contract != NULL))
		return set_err(err, errlen, "domain.verifyingContract: ",
		    t->has_contract ? "required" : "not part of this domain");
	if (d->verifying_contract != NULL && addr_is_zero(d->verifying_contract))
		return set_err(err, errlen, "domain.verifyingContract: ", "zero address");
	return 0;
}

json_object *
typed_domain_new(enum typed_kind kind, const struct typed_domain *d, char *err, size_t errlen)
{
	const char *name, *version;
	uint64_t chain;
	json_object *o;
	char hex[2 * ADDR_LEN + 3];

	if (domain_values(def_of(kind), d, &name, &version, &chain, err, errlen) < 0)
		return NULL;
	if (d != NULL && d->verifying_contract != NULL)
		hex_encode(d->verifying_contract->b, ADDR_LEN, hex);
	o = json_object_new_object();
	if (o == NULL ||
	    json_object_object_add(o, "name", json_object_new_string(name)) < 0 ||
	    json_object_object_add(o, "version", json_object_new_string(version)) < 0 ||
	    json_object_object_add(o, "chainId", json_object_new_int64((int64_t)chain)) < 0 ||
	    (d != NULL && d->verifying_contract != NULL &&
		json_object_object_add(o, "verifyingContract", json_object_new_string(hex)) < 0)) {
		json_object_put(o);
		set_err(err, errlen, "out of memory", "");
		return NULL;
	}
	return o;
}

json_object *
typed_data_new(enum typed_kind kind, const struct typed_domain *d, json_object *message, char *err,
    size_t errlen)
{
	json_object *part[4] = { NULL, NULL, NULL, NULL };
	static const char *const keys[4] = { "types", "primaryType", "domain", "message" };
	json_object *o = NULL;

	if (message == NULL) {
		set_err(err, errlen, "message: ", "missing");
		return NULL;
	}
	if ((part[2] = typed_domain_new(kind, d, err, errlen)) == NULL)
		return NULL;
	part[0] = typed_types_new(kind);
	part[1] = json_object_new_string(typed_primary(kind));
	part[3] = json_object_get(message);
	o = json_object_new_object();
	for (int i = 0; i < 4 && o != NULL; i++) {
		/* an add takes its value even when it fails (lib/json.h) */
		if (part[i] == NULL)
			break;
		if (json_object_object_add(o, keys[i], part[i]) < 0) {
			part[i] = NULL;
			break;
		}
		part[i] = NULL;
		if (i == 3)
			return o;
	}
	for (int i = 0; i < 4; i++)
		json_object_put(part[i]);
	json_object_put(o);
	set_err(err, errlen, "out of memory", "");
	return NULL;
}

int
typed_digest(enum typed_kind kind, const struct typed_domain *d, json_object *message, uint8_t out[32],
    char *err, size_t errlen)
{
	json_object *domain = NULL, *types = NULL;
	int rc = -1;

	if ((domain = typed_domain_new(kind, d, err, errlen)) == NULL)
		goto out;
	if ((types = typed_types_new(kind)) == NULL) {
		set_err(err, errlen, "out of memory", "");
		goto out;
	}
	if (eip712_digest_parts(types, typed_primary(kind), domain, message, out, err, errlen) == EIP712_OK)
		rc = 0;
out:
	json_object_put(domain);
	json_object_put(types);
	return rc;
}

int
typed_domain_separator(enum typed_kind kind, const struct typed_domain *d, uint8_t out[32], char *err,
    size_t errlen)
{
	json_object *domain = NULL, *types = NULL;
	int rc = -1;

	if ((domain = typed_domain_new(kind, d, err, errlen)) == NULL)
		goto out;
	if ((types = typed_types_new(kind)) == NULL) {
		set_err(err, errlen, "out of memory", "");
		goto out;
	}
	if (eip712_domain_separator(types, domain, out, err, errlen) == EIP712_OK)
		rc = 0;
out:
	json_object_put(domain);
	json_object_put(types);
	return rc;
}

int
typed_type_hash(enum typed_kind kind, uint8_t out[32])
{
	json_object *types = typed_types_new(kind);
	int rc = -1;

	if (types != NULL && eip712_type_hash(types, typed_primary(kind), out, NULL, 0) == EIP712_OK)
		rc = 0;
	json_object_put(types);
	return rc;
}

/* The signed encoding of an address or a uint256: one 32-byte word. */
static void
word_addr(struct keccak_ctx *k, const struct addr *a)
{
	uint8_t w[32] = { 0 };

	memcpy(w + 32 - ADDR_LEN, a->b, ADDR_LEN);
	keccak_update(k, w, sizeof(w));
}

static void
word_u256(struct keccak_ctx *k, const struct u256 *v)
{
	uint8_t w[32];

	u256_to_be(v, w);
	keccak_update(k, w, sizeof(w));
}

/* A string member: the keccak256 of its bytes. */
static void
word_string(struct keccak_ctx *k, const char *s)
{
	uint8_t h[32];

	keccak256(s, strlen(s), h);
	keccak_update(k, h, sizeof(h));
}

int
typed_transfer_digest(const struct typed_domain *d, const struct typed_transfer *m, uint8_t out[32])
{
	/* The encodeType strings of the kind's types (defs above). */
	static const char domain_type[] =
	    "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";
	static const char transfer_type[] = "TransferWithAuthorization(address from,address to,"
	    "uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)";
	struct keccak_ctx k;
	struct u256 chain;
	const char *name, *version;
	uint64_t chain_id;
	uint8_t h[2 + 32 + 32];

	if (domain_values(def_of(TYPED_TRANSFER_WITH_AUTHORIZATION), d, &name, &version, &chain_id, NULL,
	    0) < 0)
		return -1;
	u256_from_u64(&chain, chain_id);
	keccak_init(&k);
	word_string(&k, domain_type);
	word_string(&k, name);
	word_string(&k, version);
	word_u256(&k, &chain);
	word_addr(&k, d->verifying_contract);
	keccak_final(&k, h + 2);
	keccak_init(&k);
	word_string(&k, transfer_type);
	word_addr(&k, &m->from);
	word_addr(&k, &m->to);
	word_u256(&k, &m->value);
	word_u256(&k, &m->valid_after);
	word_u256(&k, &m->valid_before);
	keccak_update(&k, m->nonce, 32);
	keccak_final(&k, h + 34);
	h[0] = 0x19;
	h[1] = 0x01;
	keccak256(h, sizeof(h), out);
	return 0;
}
