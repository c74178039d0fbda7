/*
 * review_v3.c: paid publication of a self_reported (V3) review.
 *
 * POST /api/v1/x402/reviews/self-reported, $0.05 through x402: the
 * EIP-712 X402SelfReportedReview (domain "Boon X402 Review" v3, the
 * configured chain and companion) must be signed by review.reviewer; the
 * route must be recognized (at least one indexed routed recognition,
 * checked before the signature, which may cost an RPC call);
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
#include <string.h>
#include <time.h>

#include "config.h"
#include "db.h"
#include "hex.h"
#include "publication.h"
#include "review.h"
#include "table.h"
#include "banned.h"


struct v3 {
	struct review_v3 v;
	uint8_t digest[32];           /* the review's EIP-712 digest */
};

/* The review object and its digest (p->dg, p->rid): no time or chain facts. */
static enum err
v3_parse(struct req *r, struct resp *w, struct publication *p)
{
	const struct value *rv = req_val(r, "review");
	struct v3 *c = pool_alloc(&r->pool, sizeof(*c));
	char field[64], why[256];

	if (c == NULL)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	p->lane_ctx = c;
	if (review_v3_parse(rv->object, &c->v, field, sizeof(field), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, field, "Invalid review: %s.", why);
	if (review_v3_digest(&c->v, r->cfg->chain_id, &r->cfg->companion_address, c->digest) < 0)
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	hex_digits(c->digest, 32, p->dg);
	hex_digits(c->v.route_id, 32, p->rid);
	return ERR_NONE;
}

/*
 * The window and the indexed recognition (cheap, local), then the
 * signature, which for a contract wallet costs an RPC call: nobody gets
 * one for a review that could never be published.
 */
static enum err
v3_check(struct req *r, struct resp *w, struct publication *p)
{
	struct v3 *c = p->lane_ctx;
	char why[256];
	enum err e;

	if (review_window_check(c->v.created_at, time(NULL), why, sizeof(why)) < 0)
		return resp_fail(w, ERR_INVALID_FIELD, "review.createdAt", "Invalid review: %s.", why);
	if ((e = publication_recognized(r, w, p)) != ERR_NONE)
		return e;
	if ((e = publication_signature(r, w, p, c->digest, &c->v.reviewer, ERR_INVALID_FIELD,
	    "The signature is not valid for review.reviewer: it does not recover to it, and it is "
	    "not accepted by review.reviewer as a contract wallet (ERC-1271, EIP-6492).")) != ERR_NONE)
		return e;
	hex_digits(c->v.reviewer.b, ADDR_LEN, p->who);
	p->text = c->v.text;
	p->text_len = c->v.text_len;
	p->created_at = c->v.created_at;
	return ERR_NONE;
}

static const struct publication_lane v3_lane = {
	.name = "self_reported",
	.parse = v3_parse,
	.check = v3_check,
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
