/*
 * mpp.h: the server side of MPP, the "Payment" HTTP authentication scheme
 * (docs/PROTOCOL.md, MPP payments), for the EVM charge of USDC by an
 * EIP-3009 authorization: the challenge a paid row offers beside x402's,
 * and the strict parse and binding check of an `Authorization: Payment`
 * credential, which ends as the same struct x402_payment the x402 rail
 * yields, so one payment state machine (lib/paystate.h) and one ledger
 * serve both rails.
 *
 * A challenge is stateless: its id is base64url(HMAC-SHA256(mpp_secret,
 * realm|method|intent|request|expires|digest|opaque)), where request is
 * the JCS-canonical charge {amount, currency, methodDetails {chainId,
 * credentialTypes ["authorization"], decimals 6}, recipient} of the row's
 * x402 requirements (same price, asset, network and payTo), opaque binds
 * the HTTP method and the resource URL and carries a random nonce (so no
 * two challenges, and no two authorizations' EIP-3009 nonces, are the
 * same), digest (POST rows with a body) the
 * body's SHA-256, and expires lies MPP_CHALLENGE_SECONDS ahead. Any worker
 * on any host checks an echoed challenge with the secret alone.
 *
 * Return conventions: mpp_challenge_init 0/-1; mpp_credential_parse returns
 * enum x402_parse so the caller answers both rails alike. Messages written
 * to msg are one English sentence safe to show a client; they never quote
 * the credential.
 */
#ifndef WAYMARK_MPP_H
#define WAYMARK_MPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "config.h"
#include "x402.h"

#define MPP_CHALLENGE_SECONDS 300       /* a challenge's life, and its authorization's */
#define MPP_HEADER_MAX (32 * 1024)      /* characters of an Authorization: Payment value */
#define MPP_REQUEST_MAX 512             /* base64url of the JCS charge request */
#define MPP_URL_MAX 2048                /* the longest resource URL a challenge binds */
#define MPP_OPAQUE_MAX (4 * (2 * MPP_URL_MAX + 96) / 3 + 4)

/* One challenge: the auth-params of a `WWW-Authenticate: Payment` line. */
struct mpp_challenge {
	char id[48];                    /* base64url of the 32-byte HMAC */
	char realm[256];                /* the public host (public_base_url's authority) */
	char request[MPP_REQUEST_MAX];  /* base64url of the JCS charge request */
	char expires[32];               /* RFC 3339 UTC */
	char digest[64];                /* "sha-256=:<base64>:" or "" */
	char opaque[MPP_OPAQUE_MAX];    /* base64url of JCS {"method", "nonce", "url"} */
	char method[16];                /* the HTTP method it was issued for */
	uint64_t expires_at;            /* Unix seconds */
};

/*
 * The challenge of a paid row for one request: rq (its x402 requirements,
 * whose price, asset, network, payTo and URL it carries), the HTTP method,
 * the body (NULL or empty: no digest) and the time now. 0, or -1 with a
 * reason in err[cap] (no mpp_secret, a public URL without a host, a URL
 * longer than MPP_URL_MAX, the spec's URL limit, which keeps a challenge
 * under the draft's 8 KB).
 */
int mpp_challenge_init(struct mpp_challenge *c, const struct config *cfg,
    const struct x402_requirements *rq, const char *method, const uint8_t *body, size_t body_len,
    uint64_t now, char *err, size_t cap);

/* Append the `WWW-Authenticate` value `Payment id="...", ...` of c to out; 0, or -1 when out is full. */
int mpp_challenge_header(const struct mpp_challenge *c, struct buf *out);

/*
 * True when the Authorization header value v names the Payment scheme
 * (case-insensitive), i.e. the request chose the MPP rail.
 */
bool mpp_is_credential(const char *v);

/*
 * Decode and check the credential v (an `Authorization: Payment ...`
 * value) against want, the challenge this request would be issued now,
 * at Unix time now, with the server's secret. In order: the encoding and
 * strict shape; the echoed challenge's HMAC (an altered challenge is
 * X402_PARSE_MALFORMED); its method, resource, price, payee, asset and
 * network against want (X402_PARSE_MISMATCH); its expiry
 * (X402_PARSE_EXPIRED: out is filled as far as x402_payment_parse fills
 * it for an expired payment, so the caller can find an earlier outcome);
 * the authorization's nonce, keccak256(id ‖ realm); then the checks of
 * x402_payment_check on the equivalent x402 payload (signature, payee,
 * amount, validity), which out->payload holds on X402_PARSE_OK for the
 * facilitator; and a validBefore no later than the challenge's expiry
 * (X402_PARSE_MISMATCH otherwise). challenge_id[48] gets the echoed challenge's id (for the
 * receipt) whenever its HMAC held.
 */
enum x402_parse mpp_credential_parse(const char *v, const struct mpp_challenge *want,
    const struct config *cfg, const struct x402_requirements *rq, uint64_t now,
    struct x402_payment *out, char challenge_id[48], char *msg, size_t cap);

/*
 * Append the `Payment-Receipt` value (base64url JSON {status "success",
 * method "evm", timestamp, reference tx, challengeId, chainId}) to out;
 * 0, or -1 when out is full or memory ran out.
 */
int mpp_receipt_header(const char *challenge_id, const char *tx, const struct config *cfg,
    uint64_t now, struct buf *out);

#endif
