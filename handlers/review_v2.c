/*
 * review_v2.c: paid publication of a receipt_verified (V2) review.
 *
 * POST /api/v1/x402/reviews/receipt-verified, $0.01 through x402. The body
 * is {review, signature, evidence{offer, receipt}} (docs/PROTOCOL.md, Review
 * lanes): the EIP-712 X402ReceiptReview (domain "Boon X402 Review" v2, the
 * configured chain and companion) plus the official signed x402 offer and
 * receipt of the reviewed route (lib/receipt). Checked before any payment
 * is asked, in this order:
 *
 *   - the review object, the text rules and the 24-hour window (400);
 *   - the offer and receipt shapes (400); review.receiptDigest must be the
 *     receipt's EIP-712 digest (400);
 *   - the route has at least one indexed routed recognition (400);
 *   - its receipt authority is pinned (handlers/authority.h), else 409
 *     receipt_authority_not_observed;
 *   - exact route URL: offer and receipt resourceUrl equal each other and
 *     the route's published URL, whose method and URL recompute to the
 *     routeId; both networks are the configured one; the offer and receipt
 *     signers equal the pinned signer, the offer payTo the pinned payTo;
 *     issuedAt is at most 5 minutes past now, createdAt and the offer's
 *     validUntil (422 evidence_unverified);
 *   - the review is signed by the receipt's payer, who becomes the
 *     reviewer: an EOA signature locally, ERC-1271 or EIP-6492 through the
 *     RPC (lib/walletsig), failing closed with 503 (422 when invalid);
 *   - one use per receipt digest (409 receipt_already_used) and one review
 *     per payer and route (409 already_reviewed), by unique keys.
 *
 * The publication record then follows handlers/publication.h. The review
 * row keeps the public receipt record, the evidence as received, and the
 * pins with their sources as they were at publication. Never ranked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "authority.h"
#include "config.h"
#include "db.h"
#include "hex.h"
#include "json.h"
#include "publication.h"
#include "receipt.h"
#include "review.h"
#include "route.h"
#include "sql.h"
#include "table.h"
#include "banned.h"

#define V2_SKEW 300               /* seconds a receipt may be ahead of a clock */

struct v2 {
	struct review_v2 v;
	uint8_t digest[32];                /* the review's EIP-712 digest */
	struct receipt_offer offer;
	struct receipt receipt;
	struct authority au;
	char url[RECEIPT_URL_MAX + 1];     /* the route's published URL */
	char method[16];
	const char *receipt_json;          /* the public receipt record */
	const char *authority_json;        /* the pins and their sources */
	const char *evidence_json;         /* {offer, receipt} as received */
	size_t evidence_len;
};



/* The route's published method and URL (a route context or the catalog); found false when none. */
static enum db_rc
route_url(struct req *r, const char *rid, struct v2 *c, bool *found)
{
	char b[1024];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*found = false;
	/* A route context's URL is the normalized one; the catalog's is as listed. */
	sql_add(&q, "SELECT method, url FROM (SELECT 0 src, method, public_endpoint_url url "
	    "FROM route_contexts WHERE chain_id = ? AND route_id = ? UNION ALL SELECT 1, "
	    "method, resource_url FROM catalog_resources WHERE route_id = ?) x ORDER BY src, url "
	    "LIMIT 1", SQL_U64(r->cfg->chain_id), SQL_HEX(rid), SQL_HEX(rid));
	if ((rc = db_query(r->db, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL && row[0] && row[1] &&
	    strlen(row[0]) < sizeof(c->method) && strlen(row[1]) <= RECEIPT_URL_MAX) {
		snprintf(c->method, sizeof(c->method), "%s", row[0]);
		snprintf(c->url, sizeof(c->url), "%s", row[1]);
		*found = true;
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

/* 400 naming evidence.<which>[.<field>]. */
static enum err
evidence_fail(struct req *r, struct resp *w, const char *which, const char *field, const char *why)
{
	size_t n = strlen("evidence.") + strlen(which) + 1 + strlen(field) + 1;
	char *f = pool_alloc(&r->pool, n);

	if (f == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	snprintf(f, n, "evidence.%s%s%s", which, *field ? "." : "", field);
	return resp_fail(w, ERR_INVALID_FIELD, f, "Invalid %s: %s.", f, why);
}

/* Parse the evidence object: exactly {offer, receipt}. */
static enum err
parse_evidence(struct req *r, struct resp *w, struct v2 *c)
{
	static const char *const req_keys[] = { "offer", "receipt", NULL };
	const struct value *ev = req_val(r, "evidence");
	json_object *o = ev ? ev->object : NULL, *x = NULL;
	const char *bad = NULL;
	char field[64], why[256];

	switch (json_check_keys(o, NULL, req_keys, &bad)) {
	case JSON_KEYS_OK:
		break;
	case JSON_KEYS_NOT_OBJECT:
		return resp_fail(w, ERR_INVALID_FIELD, "evidence", "evidence must be {offer, receipt}.");
	case JSON_KEYS_UNKNOWN:
		return resp_fail(w, ERR_UNKNOWN_FIELD, "evidence", "evidence has an undeclared member "
		    "%.64s; it must be exactly {offer, receipt}.", bad);
	default:
		return resp_fail(w, ERR_MISSING_FIELD, "evidence", "evidence lacks %.64s; it must be "
		    "exactly {offer, receipt}.", bad ? bad : "a member");
	}
	json_object_object_get_ex(o, "offer", &x);
	if (receipt_offer_parse(x, &c->offer, field, sizeof(field), why, sizeof(why)) < 0)
		return evidence_fail(r, w, "offer", field, why);
	json_object_object_get_ex(o, "receipt", &x);
	if (receipt_parse(x, &c->receipt, field, sizeof(field), why, sizeof(why)) < 0)
		return evidence_fail(r, w, "receipt", field, why);
	c->evidence_json = json_dump(o, &c->evidence_len);
	return c->evidence_json ? ERR_NONE : resp_fail(w, ERR_INTERNAL, NULL, NULL);
}

/* The evidence bound to the route, its pins and the review (422 when not). */
static enum err
check_binding(struct req *r, struct resp *w, struct v2 *c, const uint8_t rid[32])
{
	uint8_t id[32];
	uint64_t now = (uint64_t)time(NULL), t = c->receipt.issued_at;

	if (strcmp(c->offer.resource_url, c->receipt.resource_url) != 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.resourceUrl",
		    "The receipt's resourceUrl differs from the offer's.");
	if (strcmp(c->receipt.resource_url, c->url) != 0 || route_id(c->method, strlen(c->method),
	    c->url, strlen(c->url), id, NULL) != ROUTE_OK || memcmp(id, rid, 32) != 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.resourceUrl",
		    "The receipt's resourceUrl must be exactly this route's URL, %s.", c->url);
	if (strcmp(c->offer.network, r->cfg->network) != 0 ||
	    strcmp(c->receipt.network, r->cfg->network) != 0)
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.network",
		    "The offer and receipt must be for network %s.", r->cfg->network);
	if (!addr_eq(&c->offer.signer, &c->au.signer))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.offer.signature",
		    "The offer was not signed by the route's pinned receipt signer.");
	if (!addr_eq(&c->receipt.signer, &c->au.signer))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.signature",
		    "The receipt was not signed by the route's pinned receipt signer.");
	if (!addr_eq(&c->offer.pay_to_addr, &c->au.pay_to))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.offer.payload.payTo",
		    "The offer's payTo is not the route's pinned payTo.");
	if (t > now + V2_SKEW || t > c->v.created_at + V2_SKEW ||
	    (c->offer.valid_until != 0 && t > c->offer.valid_until + V2_SKEW))
		return resp_fail(w, ERR_EVIDENCE_UNVERIFIED, "evidence.receipt.payload.issuedAt",
		    "The receipt's issuedAt must not be later than now, the review's createdAt or the "
		    "offer's validUntil (5 minutes of skew allowed).");
	return ERR_NONE;
}

/*
 * The public receipt record and the pins, as JSON text kept by the request;
 * 0, or -1 when the request could not keep them (nothing is set then).
 */
static int
records(struct req *r, struct v2 *c, const char *rid)
{
	json_object *o = json_object_new_object(), *a = authority_json(&c->au);
	char h[67], s[ADDR_TEXT_LEN + 1];

	if (pool_defer(&r->pool, json_release, o) < 0) {
		json_object_put(o);
		json_object_put(a);
		return -1;
	}
	if (pool_defer(&r->pool, json_release, a) < 0) {
		json_object_put(a);
		return -1;
	}
	snprintf(h, sizeof(h), "0x%s", rid);
	json_object_object_add(o, "routeId", json_object_new_string(h));
	json_object_object_add(o, "digest", json_object_new_string(hex_encode(c->receipt.digest, 32, h)));
	json_object_object_add(o, "resourceUrl", json_object_new_string(c->receipt.resource_url));
	json_object_object_add(o, "network", json_object_new_string(c->receipt.network));
	json_object_object_add(o, "payer", json_object_new_string(addr_format(&c->receipt.payer_addr, s)));
	json_object_object_add(o, "payTo", json_object_new_string(addr_format(&c->offer.pay_to_addr, s)));
	json_object_object_add(o, "asset", json_object_new_string(c->offer.asset));
	json_object_object_add(o, "amount", json_object_new_string(c->offer.amount));
	snprintf(h, sizeof(h), "%" PRIu64, c->receipt.issued_at);
	json_object_object_add(o, "issuedAt", json_object_new_string(h));
	json_object_object_add(o, "transaction", c->receipt.transaction[0] ?
	    json_object_new_string(c->receipt.transaction) : NULL);
	json_object_object_add(o, "serviceSigner", json_object_new_string(addr_format(&c->receipt.signer,
	    s)));
	c->receipt_json = json_dump(o, NULL);
	c->authority_json = json_dump(a, NULL);
	return 0;
}

/* The review object and its digest (p->dg, p->rid): no time or chain facts. */
static enum err
v2_parse(struct req *r, struct resp *w, struct publication *p)
{
	const struct value *rv = req_val(r, "review");
	struct v2 *c = pool_alloc(&r->pool, sizeof(*c));
	char field[64], why[256];

	if (c == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	memset(c, 0, sizeof(*c));
	p->lane_ctx = c;
	if (review_v2_parse(rv->object, &c->v, field, sizeof(field), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, field, "Invalid review: %s.", why);
	if (review_v2_digest(&c->v, r->cfg->chain_id, &r->cfg->companion_address, c->digest) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	hex_digits(c->digest, 32, p->dg);
	hex_digits(c->v.route_id, 32, p->rid);
	return ERR_NONE;
}

/* Every other rule, in the order of the header comment. */
static enum err
v2_check(struct req *r, struct resp *w, struct publication *p)
{
	struct v2 *c = p->lane_ctx;
	char why[256];
	bool found = false;
	enum err e;

	if (review_window_check(c->v.created_at, time(NULL), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.createdAt", "Invalid review: %s.", why);
	if ((e = parse_evidence(r, w, c)) != ERR_NONE)
		return e;
	if (memcmp(c->v.receipt_digest, c->receipt.digest, 32) != 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.receiptDigest", "review.receiptDigest "
		    "must be the EIP-712 digest of evidence.receipt.");
	if ((e = publication_recognized(r, w, p)) != ERR_NONE)
		return e;
	if (authority_load(r->db, r->cfg, p->rid, &c->au) != DB_OK ||
	    route_url(r, p->rid, c, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!authority_available(&c->au) || !found)
		return resp_fail(w, ERR_AUTHORITY_NOT_OBSERVED, "review.routeId", NULL);
	if ((e = check_binding(r, w, c, c->v.route_id)) != ERR_NONE)
		return e;
	if ((e = publication_signature(r, w, p, c->digest, &c->receipt.payer_addr,
	    ERR_EVIDENCE_UNVERIFIED, "The review must be signed by the receipt's payer (the "
	    "reviewer); this signature is not theirs.")) != ERR_NONE)
		return e;
	hex_digits(c->receipt.payer_addr.b, ADDR_LEN, p->who);
	hex_digits(c->receipt.digest, 32, p->receipt_dg);
	p->text = c->v.text;
	p->text_len = c->v.text_len;
	p->created_at = c->v.created_at;
	if (records(r, c, p->rid) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	p->receipt_json = c->receipt_json;
	p->authority_json = c->authority_json;
	p->evidence_json = c->evidence_json;
	return c->receipt_json && c->authority_json ? ERR_NONE : resp_fail(w, ERR_INTERNAL, NULL, NULL);
}

static const struct publication_lane v2_lane = {
	.name = "receipt_verified",
	.parse = v2_parse,
	.check = v2_check,
};

enum err
h_review_v2_prepay(struct req *r, struct resp *w)
{
	return publication_prepay(r, w, &v2_lane);
}

enum err
h_review_v2_post(struct req *r, struct resp *w)
{
	return publication_post(r, w);
}
