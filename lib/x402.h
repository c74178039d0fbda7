/*
 * x402.h: the resource-server side of x402 v2 for the exact EVM scheme
 * (docs/PROTOCOL.md, x402 payments): the PaymentRequirements a paid row issues
 * for one request, the PaymentRequired challenge, and the
 * strict parse and binding check of a PAYMENT-SIGNATURE.
 *
 * A row's requirements are deterministic for a request: scheme "exact",
 * the configured network, asset (usdc_address) and payTo, the row's price
 * in atomic USDC, maxTimeoutSeconds X402_MAX_TIMEOUT_SECONDS, and extra
 * {name, version "2"} (name "USD Coin" on eip155:8453, "USDC" elsewhere,
 * the tokens' EIP-712 domain names). The resource URL is public_base_url +
 * the request path + "?" + query (when there is one), exactly as received.
 *
 * A payment binds to this request when its resource.url equals that URL,
 * its `accepted` deep-equals the requirements (key order ignored), and its
 * authorization pays exactly the amount to payTo within a sane window. A
 * 65-byte (or 64-byte EIP-2098) EOA signature must also recover to authorization.from under the
 * token's EIP-712 domain; longer ones (smart wallets) are left to the
 * facilitator.
 *
 * Return conventions: actions 0/-1; x402_payment_parse returns an enum
 * because the caller answers malformed and mismatched payments with
 * different errors. Messages written to msg are one English sentence safe
 * to show a client; they never quote the payload.
 */
#ifndef WAYMARK_X402_H
#define WAYMARK_X402_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "buf.h"
#include "config.h"
#include "decimal.h"

#define X402_VERSION 2
#define X402_MAX_TIMEOUT_SECONDS 60
#define X402_HEADER_MAX (32 * 1024)  /* base64 characters of a PAYMENT-SIGNATURE */
#define X402_URL_MAX 8192
#define X402_SIG_MAX 4096            /* signature bytes (smart wallets sign longer) */

/* What one paid row asks of one request. */
struct x402_requirements {
	char network[64];
	struct addr asset;
	struct addr pay_to;
	char amount[DECIMAL_ATOMIC_BUFSZ];   /* atomic USDC, "10000" */
	const char *token_name;              /* "USD Coin" or "USDC" (static) */
	char url[X402_URL_MAX];              /* the resource URL */
	char description[256];
};

/* A parsed, bound payment. payload is the whole decoded header, as received. */
struct x402_payment {
	json_object *payload;         /* owned; release with x402_payment_release */
	struct addr from;
	struct addr to;
	uint8_t nonce[32];
	char value[DECIMAL_ATOMIC_BUFSZ];
	uint64_t valid_after;
	uint64_t valid_before;
	uint8_t sig_digest[32];       /* SHA-256 of the signature bytes: which payment of (from, nonce) */
};

enum x402_parse {
	X402_PARSE_OK = 0,
	X402_PARSE_MALFORMED,   /* not base64, not JSON, not the v2 exact shape, bad signature */
	X402_PARSE_MISMATCH,    /* well-formed, but for another resource, price, payee or time */
	X402_PARSE_EXPIRED,     /* well-formed and bound here, but validBefore has passed */
	X402_PARSE_NOMEM,       /* out of memory: nothing is known about the payment */
	X402_PARSE__MAX
};

/*
 * Fill rq for a row priced price_usdc (decimal USDC) and a request with
 * path and query (query "" for none). 0, or -1 with a reason in err[cap]
 * (a price that is not a decimal amount, a URL longer than X402_URL_MAX).
 */
int x402_requirements_init(struct x402_requirements *rq, const struct config *cfg,
    const char *price_usdc, const char *path, const char *query, const char *description,
    char *err, size_t cap);

/* The PaymentRequirements object (accepts[i]) of rq; caller puts. NULL when out of memory. */
json_object *x402_requirements_json(const struct x402_requirements *rq);

/*
 * The PaymentRequired object {x402Version, error, resource, accepts[rq]}
 * with error (NULL: "Payment required"); caller puts.
 */
json_object *x402_payment_required_json(const struct x402_requirements *rq, const char *error);

/*
 * Decode, parse strictly and bind the PAYMENT-SIGNATURE header value hdr
 * to rq at Unix time now. On X402_PARSE_OK *out holds the payment (release
 * it); otherwise *out holds nothing to release and msg[cap] says why. On
 * X402_PARSE_EXPIRED (bound to rq, but validBefore has passed or is too
 * close) out's from, to, nonce, value and times are still filled, so the
 * caller can ask the chain what became of it. A validBefore more than
 * maxTimeoutSeconds (and the clock skew) ahead is X402_PARSE_MISMATCH.
 */
enum x402_parse x402_payment_parse(const char *hdr, const struct x402_requirements *rq,
    uint64_t now, struct x402_payment *out, char *msg, size_t cap);

/*
 * The same checks for a payload already decoded (the MPP rail builds one
 * from its credential, lib/mpp.h): o is taken, and kept in out->payload
 * on X402_PARSE_OK, put otherwise.
 */
enum x402_parse x402_payment_check(json_object *o, const struct x402_requirements *rq, uint64_t now,
    struct x402_payment *out, char *msg, size_t cap);

/* Release what x402_payment_parse stored; safe on a zeroed struct. */
void x402_payment_release(struct x402_payment *p);

enum x402_auth_state {
	X402_AUTH_USED,         /* p's transfer happened: from -> to, value, with this nonce */
	X402_AUTH_UNUSED,       /* the nonce is not (yet) used */
	X402_AUTH_VOID,         /* the nonce is used, but not by p's transfer (canceled, or
	                         * another authorization with the same nonce): p never pays */
	X402_AUTH_UNKNOWN,      /* no rpc_url, the node could not answer, or the use lies
	                         * further back than X402_AUTH_LOOKBACK blocks */
};

/*
 * How x402_authorization_state reads the node's replies (untrusted; any
 * member may be missing or of another type). x402_auth_logs reads the
 * eth_getLogs result of AuthorizationUsed/AuthorizationCanceled: 0 when
 * the first log is a cancelation, 1 with its transaction hash (0x + 64 lowercase
 * hex digits) in tx when it is a use, -1 when it says neither.
 * x402_receipt_transfer reads an eth_getTransactionReceipt result: 1 when
 * one of its logs is token's Transfer(p->from, p->to, p->value), 0 when
 * none is, -1 when the receipt has no logs array.
 */
int x402_auth_logs(json_object *logs, char tx[67]);
int x402_receipt_transfer(json_object *rcpt, const struct addr *token, const struct x402_payment *p);

#define X402_AUTH_LOOKBACK 100000   /* blocks searched for the nonce's use (about 55 h on Base) */

/*
 * What the chain (cfg->rpc_url) says of p's EIP-3009 authorization on
 * cfg->usdc_address: authorizationState(from, nonce) at the latest block;
 * when used, the AuthorizationUsed(from, nonce) or AuthorizationCanceled
 * (VOID) log of the last X402_AUTH_LOOKBACK blocks and, in the used
 * transaction, the token's Transfer(from, to, value) decide between USED
 * and VOID. On USED, tx (32 bytes; may be NULL) holds that transaction,
 * so a settlement known only from the chain still names its transfer.
 */
enum x402_auth_state x402_authorization_state(const struct config *cfg, const struct x402_payment *p,
    uint8_t tx[32]);

#endif
