/*
 * review_v3.c: paid publication of a self_reported (V3) review.
 *
 * POST /api/v1/x402/reviews/self-reported, $0.05 through x402: the
 * EIP-712 X402SelfReportedReview (domain "Boon X402 Review" v3, the
 * configured chain and companion) must be signed by review.reviewer; the
 * route must be recognized (at least one indexed routed recognition);
 * published within 24 hours of createdAt; one review per wallet and route
 * (unique keys in sql/007). It proves signer control only and is never
 * ranked: self_reported reviews do not change discovery order.
 *
 * The signature (up to 4096 bytes of lowercase hex) is checked by
 * lib/walletsig through publication_signature: an EOA signature locally;
 * a contract wallet's through the configured RPC, ERC-1271 for a deployed
 * wallet and EIP-6492 for one not deployed yet (the record's
 * signature_kind is then 'erc1271'). When that needs the chain and the RPC
 * cannot answer, the answer is 503 signature_check_unavailable before any
 * payment is asked or verified.
 *
 * Every check runs in the prepay hook, before a 402 is asked; the paid
 * publication record then follows handlers/publication.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "db.h"
#include "hex.h"
#include "publication.h"
#include "review.h"
#include "table.h"
#include "banned.h"


/* Parse and check the bundle into p: 400s, then the chain facts. */
static enum err
v3_validate(struct req *r, struct resp *w, struct publication *p)
{
	const struct value *rv = req_val(r, "review");
	struct review_v3 *v = pool_alloc(&r->pool, sizeof(*v));
	uint8_t digest[32];
	char field[64], why[256], q[512];
	uint64_t n = 0;
	bool found = false;
	enum err e;

	if (v == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if (review_v3_parse(rv->object, v, field, sizeof(field), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, field, "Invalid review: %s.", why);
	if (review_window_check(v->created_at, time(NULL), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.createdAt", "Invalid review: %s.", why);
	if (review_v3_digest(v, r->cfg->chain_id, &r->cfg->companion_address, digest) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	if ((e = publication_signature(r, w, p, digest, &v->reviewer, ERR_INVALID_FIELD,
	    "The signature is not valid for review.reviewer: it does not recover to it, and it is "
	    "not accepted by review.reviewer as a contract wallet (ERC-1271, EIP-6492).")) != ERR_NONE)
		return e;
	hex_digits(v->route_id, 32, p->rid);
	hex_digits(v->reviewer.b, ADDR_LEN, p->who);
	hex_digits(digest, 32, p->dg);
	p->text = v->text;
	p->text_len = v->text_len;
	p->created_at = v->created_at;
	snprintf(q, sizeof(q), "SELECT COUNT(*) FROM (SELECT 1 FROM routed_boons WHERE chain_id = %"
	    PRIu64 " AND route_id = X'%s' LIMIT 1) x", r->cfg->chain_id, p->rid);
	if (db_query_u64(r->db, q, &n, &found) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	if (!found || n == 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.routeId",
		    "This route is not recognized: it has no indexed routed recognition (it may not be "
		    "confirmed yet).");
	return ERR_NONE;
}

static const struct publication_lane v3_lane = {
	.name = "self_reported",
	.validate = v3_validate,
};

enum err
h_review_v3_prepay(struct req *r, struct resp *w)
{
	return publication_prepay(r, w, &v3_lane);
}

enum err
h_review_v3_post(struct req *r, struct resp *w)
{
	return publication_post(r, w);
}
