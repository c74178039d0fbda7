#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "b64json.h"
#include "json.h"
#include "sha256.h"
#include "siwx.h"
#include "siwx_gate.h"
#include "siwxstore.h"
#include "x402.h"
#include "banned.h"

#define SIWX_STATEMENT "Sign in with this wallet for this one operation; this moves no funds."
#define SIWX_URI_MAX X402_URL_MAX
#define SIWX_REQUEST_ID_MAX 128       /* a row's request binding, NUL included */
#define DOMAIN_MAX 256

/* What this request's proof must be bound to. */
struct target {
	char uri[SIWX_URI_MAX];
	char domain[DOMAIN_MAX];
	struct siwx_binding b;
	char request_id[SIWX_REQUEST_ID_MAX];   /* "" when the row binds none */
};

/*
 * The public origin's authority (host[:port], lowercase, without the
 * scheme's default port), as a browser's URL.host gives it: the SIWX
 * domain a client compares with the URL it called.
 */
static int
public_domain(const char *base, char *out, size_t cap)
{
	const char *p = strstr(base, "://"), *end;
	size_t n;
	bool https;

	if (p == NULL)
		return -1;
	https = (size_t)(p - base) == 5 && strncasecmp(base, "https", 5) == 0;
	p += 3;
	end = p + strcspn(p, "/?#");
	n = (size_t)(end - p);
	if (n == 0 || n >= cap)
		return -1;
	for (size_t i = 0; i < n; i++)
		out[i] = (char)((p[i] >= 'A' && p[i] <= 'Z') ? p[i] - 'A' + 'a' : p[i]);
	out[n] = '\0';
	if (https && n > 4 && strcmp(out + n - 4, ":443") == 0)
		out[n - 4] = '\0';
	else if (!https && n > 3 && strcmp(out + n - 3, ":80") == 0)
		out[n - 3] = '\0';
	return 0;
}

/*
 * The operation's URI, domain and binding into t: 0; -1 when the URI or
 * the domain does not fit (the request's fault); -2 when its digest
 * cannot be made (out of memory: ours).
 */
static int
target_init(struct target *t, const struct req *r)
{
	int n = snprintf(t->uri, sizeof(t->uri), "%s%s%s%s", r->cfg->public_base_url, r->path,
	    r->query[0] ? "?" : "", r->query);

	if (n < 0 || (size_t)n >= sizeof(t->uri) || public_domain(r->cfg->public_base_url, t->domain,
	    sizeof(t->domain)) < 0)
		return -1;
	t->b.endpoint_id = r->ep->id;
	t->b.domain = t->domain;
	return sha256(t->uri, (size_t)n, t->b.uri_digest) < 0 ? -2 : 0;
}

/*
 * The Request ID this request binds (docs/ARCHITECTURE.md, Sign-In-With-X,
 * request binding) into t->request_id: the row's own (siwx_request), else
 * the digest of its JSON body, else none. Runs with the validated fields
 * and the database. 0; -1 when the row's hook failed (the database); -2
 * when the body has no canonical form (the request's fault); -3 when
 * memory ran out.
 */
static int
target_bind(struct target *t, struct req *r)
{
	t->request_id[0] = '\0';
	if (r->ep->siwx_request)
		return r->ep->siwx_request(r, t->request_id, sizeof(t->request_id)) < 0 ? -1 : 0;
	if (r->ep->body == BODY_JSON && r->json)
		switch (siwx_body_request_id(r->json, t->request_id)) {
		case 0: return 0;
		case -1: return -2;
		default: return -3;
		}
	return 0;
}

/*
 * The PaymentRequired of an identity-only row: no accepts, and the
 * sign-in-with-x extension with a nonce stored for t. -1 when the nonce
 * could not be stored (the database failed) or memory ran out.
 */
static int
add_challenge(struct req *r, struct resp *w, const struct target *t, const char *error)
{
	char nonce[SIWXSTORE_NONCE_LEN + 1];
	int64_t now = (int64_t)time(NULL);
	struct siwx_challenge c = { .domain = t->domain, .uri = t->uri, .nonce = nonce,
		.statement = SIWX_STATEMENT, .issued_at = now, .expires_at = now + SIWXSTORE_TTL_S,
		.chain_id = SIWX_CHAIN_ID };
	json_object *pr = NULL, *res = NULL, *ext = NULL, *exts = NULL;
	int rc = -1;

	/* The request's binding: the wallet signs it as the text's Request ID. */
	c.request_id = t->request_id[0] ? t->request_id : NULL;
	if (siwxstore_issue(r->db, &t->b, now, nonce) < 0)
		return -1;
	if ((pr = json_object_new_object()) == NULL || (res = json_object_new_object()) == NULL ||
	    (exts = json_object_new_object()) == NULL || (ext = siwx_challenge_json(&c)) == NULL)
		goto out;
	json_object_object_add(res, "url", json_object_new_string(t->uri));
	json_object_object_add(res, "description", json_object_new_string(r->ep->summary ? r->ep->summary : ""));
	json_object_object_add(res, "mimeType", json_object_new_string("application/json"));
	json_object_object_add(pr, "x402Version", json_object_new_int(X402_VERSION));
	json_object_object_add(pr, "error", json_object_new_string(error));
	json_object_object_add(pr, "resource", res);
	res = NULL;
	json_object_object_add(pr, "accepts", json_object_new_array());
	json_object_object_add(exts, "sign-in-with-x", ext);
	ext = NULL;
	json_object_object_add(pr, "extensions", exts);
	exts = NULL;
	rc = b64json_header(w, "PAYMENT-REQUIRED", pr, X402_HEADER_MAX);
out:
	json_object_put(pr);
	json_object_put(res);
	json_object_put(ext);
	json_object_put(exts);
	return rc;
}

/* Refuse with e (a 402) and a fresh challenge; 503 when none can be issued. */
static enum err
refuse(struct req *r, struct resp *w, const struct target *t, enum err e, const char *msg)
{
	buf_reset(&w->headers);
	if (add_challenge(r, w, t, err_info(e)->code) < 0) {
		buf_reset(&w->headers);
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	if (msg && msg[0])
		return resp_fail(w, e, NULL, "%s", msg);
	return resp_fail(w, e, NULL, NULL);
}

static enum err
check_err(enum siwx_rc rc)
{
	switch (rc) {
	case SIWX_WRONG_DOMAIN:
		return ERR_SIWX_WRONG_DOMAIN;
	case SIWX_WRONG_URI:
		return ERR_SIWX_WRONG_URI;
	case SIWX_WRONG_CHAIN:
		return ERR_SIWX_WRONG_CHAIN;
	case SIWX_WRONG_NONCE:
		return ERR_SIWX_WRONG_NONCE;
	case SIWX_STALE:
		return ERR_SIWX_STALE;
	case SIWX_BAD_SIGNATURE:
		return ERR_SIWX_BAD_SIGNATURE;
	default:
		return ERR_SIWX_MALFORMED;
	}
}

/* A refusal for a store answer other than OK; ERR_NONE for OK. */
static enum err
store_refusal(struct req *r, struct resp *w, const struct target *t, enum siwxstore_rc rc)
{
	switch (rc) {
	case SIWXSTORE_OK:
		return ERR_NONE;
	case SIWXSTORE_UNAVAILABLE:
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	case SIWXSTORE_EXPIRED:
		return refuse(r, w, t, ERR_SIWX_EXPIRED, NULL);
	case SIWXSTORE_USED:
		return refuse(r, w, t, ERR_SIWX_REPLAYED, NULL);
	case SIWXSTORE_BURNED:
		return refuse(r, w, t, ERR_SIWX_REPLAYED, "The sign-in challenge was burned after repeated "
		    "proofs whose signature did not verify; sign the fresh challenge.");
	case SIWXSTORE_OTHER_OP:
		return refuse(r, w, t, ERR_SIWX_WRONG_NONCE, "The sign-in proof's nonce was issued for another "
		    "operation; sign the fresh challenge for this one.");
	default:
		return refuse(r, w, t, ERR_SIWX_WRONG_NONCE, NULL);
	}
}

/*
 * The 400 of a proof whose Request ID is not this request's: it signed
 * another body (or none), so nothing it did not sign is acted on.
 */
static enum err
mismatch(const struct req *r, struct resp *w, const struct target *t)
{
	enum err e = r->ep->siwx_mismatch != ERR_NONE ? r->ep->siwx_mismatch : ERR_REQUEST_MISMATCH;

	if (t->request_id[0] == '\0')
		return resp_fail(w, e, NULL, "This operation binds no Request ID; sign its challenge without one.");
	return resp_fail(w, e, NULL, "The sign-in proof's Request ID must be %s, the binding of this very "
	    "request; sign the challenge issued for this body.", t->request_id);
}

static const char *
kind_name(enum walletsig_kind k)
{
	switch (k) {
	case WALLETSIG_EOA:
		return "eoa";
	case WALLETSIG_ERC6492:
		return "erc6492";
	default:
		return "erc1271";
	}
}

enum err
siwx_gate_run(const struct gate *g, struct req *r, struct resp *w)
{
	struct target t;
	struct siwx_proof p = { 0 };
	struct siwx_expect want;
	struct siwx_use use;
	enum walletsig_kind kind = WALLETSIG_EOA;
	const char *hdr = req_header(r, "sign-in-with-x");
	char msg[256] = "", a[ADDR_TEXT_LEN + 1];
	enum siwx_rc rc;
	enum err e;

	switch (target_init(&t, r)) {
	case 0:
		break;
	case -1:
		return resp_fail(w, ERR_INVALID_REQUEST, NULL, "The operation URI is too long to sign in for.");
	default:
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	}
	if (db_connect(g->db) != DB_OK)
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	r->db = g->db;
	switch (target_bind(&t, r)) {
	case 0:
		break;
	case -2:
		return resp_fail(w, ERR_INVALID_REQUEST, NULL, "The body cannot be bound to a sign-in: it has a "
		    "number that is not an integer within +-(2^53 - 1), which has no canonical form here.");
	case -3:
		return resp_fail(w, ERR_INTERNAL, NULL, NULL);
	default:
		return resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	if (hdr == NULL)
		return refuse(r, w, &t, ERR_SIWX_REQUIRED, NULL);
	if ((rc = siwx_parse(hdr, &p, msg, sizeof(msg))) != SIWX_OK)
		return refuse(r, w, &t, ERR_SIWX_MALFORMED, msg);
	want = (struct siwx_expect){ .domain = t.domain, .uri = t.uri, .nonce = p.nonce,
		.chain_id = SIWX_CHAIN_ID, .now = (int64_t)time(NULL) };
	if ((rc = siwx_check(&p, &want, msg, sizeof(msg))) != SIWX_OK) {
		e = refuse(r, w, &t, check_err(rc), msg);
		goto out;
	}
	/* Cheap refusals before the signature, which may cost a chain call. */
	if ((e = store_refusal(r, w, &t, siwxstore_lookup(r->db, p.nonce, &t.b, want.now))) != ERR_NONE)
		goto out;
	/* The proof signs this very request, or nothing is done: a relay that swaps
	 * the body of a signed request is refused, and the challenge stays unused. */
	if (strcmp(p.request_id ? p.request_id : "", t.request_id) != 0) {
		e = mismatch(r, w, &t);
		goto out;
	}
	switch (siwx_verify(r->cfg, &p, &kind, msg, sizeof(msg))) {
	case SIWX_OK:
		break;
	case SIWX_UNAVAILABLE:
		/* Fail closed; the challenge stays unused for the same proof later. */
		fprintf(stderr, "waymark: %s %s: signature_check_unavailable (siwx)\n", r->method_text, r->ep->id);
		e = resp_fail(w, ERR_SIGNATURE_UNAVAILABLE, NULL, "%s", msg);
		goto out;
	default:
		/* Counted against the challenge: a few tries, then it is burned. */
		if (siwxstore_fail(r->db, p.nonce, &t.b) < 0)
			fprintf(stderr, "waymark: %s %s: a failed sign-in proof could not be counted\n",
			    r->method_text, r->ep->id);
		e = refuse(r, w, &t, ERR_SIWX_BAD_SIGNATURE, msg);
		goto out;
	}
	memcpy(use.account, p.address.b, sizeof(use.account));
	memcpy(use.proof_digest, p.digest, sizeof(use.proof_digest));
	use.signature_kind = kind_name(kind);
	if ((e = store_refusal(r, w, &t, siwxstore_consume(r->db, p.nonce, &t.b, want.now, &use))) != ERR_NONE)
		goto out;
	r->siwx.verified = true;
	memcpy(r->siwx.account, p.address.b, sizeof(r->siwx.account));
	snprintf(r->siwx.caip10, sizeof(r->siwx.caip10), "eip155:%d:%s", SIWX_CHAIN_ID,
	    addr_format(&p.address, a));
	r->siwx.signature_kind = use.signature_kind;
	memcpy(r->siwx.proof_digest, p.digest, sizeof(r->siwx.proof_digest));
	r->siwx.request_id = NULL;
	if (p.request_id && (r->siwx.request_id = pool_strndup(&r->pool, p.request_id,
	    strlen(p.request_id))) == NULL) {
		e = resp_fail(w, ERR_INTERNAL, NULL, NULL);
		goto out;
	}
	siwx_proof_release(&p);
	e = r->ep->handler(r, w);
	if (w->status == 402 && add_challenge(r, w, &t, err_info(e)->code) < 0) {
		buf_reset(&w->headers);
		buf_reset(&w->body);
		e = resp_fail(w, ERR_DATABASE_UNAVAILABLE, NULL, NULL);
	}
	return e;
out:
	siwx_proof_release(&p);
	return e;
}
