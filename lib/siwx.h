/*
 * siwx.h: Sign-In-With-X (SIWX) for EVM accounts: the challenge we put in
 * a 402's PAYMENT-REQUIRED, and the proof a client sends back in the
 * SIGN-IN-WITH-X header (standard base64 of a JSON object). The wallet
 * signs an EIP-4361 text that is never sent: we rebuild it from the proof's
 * fields, byte for byte as the reference client writes it, and verify the
 * signature over it (lib/walletsig: EOA locally, contract wallets through
 * the chain RPC, failing closed). docs/PROTOCOL.md, "Sign-In-With-X".
 *
 * Checking a proof takes three steps, in this order, so that nothing costs
 * a chain call before the cheap checks passed:
 *   1. siwx_parse: the header decodes to a proof of the right shape (every
 *      field typed, no unknown field, no line break or control character
 *      in any field the text is built from, version "1", type eip191, a
 *      CAIP-2 eip155 chain, an address, a nonce, RFC 3339 times, a hex
 *      signature);
 *   2. siwx_check: it answers our challenge: domain, exact operation URI,
 *      chain, nonce, and its times (issued not in the future nor too long
 *      ago, not expired, not before its notBefore);
 *   3. siwx_verify: the signature over the rebuilt text is the address's.
 *
 * Nothing here stores anything: the gate keeps the issued nonces, and only
 * the proof's digest (siwx_proof.digest, the EIP-191 hash of the text).
 *
 * Return conventions: siwx_parse, siwx_check and siwx_verify return enum
 * siwx_rc (SIWX_OK is 0) and write a one-sentence reason for a client to
 * msg; siwx_message is an action (0 or -1); siwx_challenge_json returns a
 * new json-c object the caller owns, or NULL when memory ran out.
 */
#ifndef WAYMARK_SIWX_H
#define WAYMARK_SIWX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "buf.h"
#include "config.h"
#include "walletsig.h"

#define SIWX_HEADER_MAX 16384       /* base64 characters of SIGN-IN-WITH-X */
#define SIWX_RESOURCES_MAX 16
#define SIWX_NONCE_MIN 8            /* EIP-4361: at least 8 alphanumerics */
#define SIWX_NONCE_MAX 64
#define SIWX_MAX_AGE_S 300          /* a proof issued longer ago is stale */
#define SIWX_SKEW_S 60              /* clocks may disagree by this much */
#define SIWX_REQUEST_ID_LEN 66      /* a body's Request ID: "0x" + 64 hex digits */

enum siwx_rc {
	SIWX_OK = 0,
	SIWX_MALFORMED,       /* not a proof of the right shape */
	SIWX_WRONG_DOMAIN,
	SIWX_WRONG_URI,
	SIWX_WRONG_CHAIN,
	SIWX_WRONG_NONCE,     /* not the nonce we issued for this operation */
	SIWX_STALE,           /* issued in the future or too long ago, expired, or not yet valid */
	SIWX_BAD_SIGNATURE,   /* the signature is not the address's */
	SIWX_UNAVAILABLE,     /* a contract wallet, and the chain RPC cannot say */
	SIWX_RC__MAX
};

/*
 * A parsed proof. The strings point into root (which owns them); optional
 * ones are NULL when absent. Release with siwx_proof_release.
 */
struct siwx_proof {
	json_object *root;
	const char *domain, *uri, *nonce, *issued_at;
	const char *statement, *expiration_time, *not_before, *request_id;
	json_object *resources;          /* array of strings, or NULL */
	struct addr address;
	uint64_t chain_id;               /* N of "eip155:N" */
	int64_t issued_at_s, expiration_s, not_before_s;
	uint8_t sig[WALLETSIG_MAX];
	size_t sig_len;
	uint8_t digest[32];              /* EIP-191 hash of the rebuilt text */
};

/* What the proof must answer: our challenge for this operation. */
struct siwx_expect {
	const char *domain;              /* the public origin's host[:port] */
	const char *uri;                 /* public base URL + path + query */
	const char *nonce;               /* the nonce we issued for it */
	uint64_t chain_id;
	int64_t now;                     /* Unix seconds */
};

/* A challenge to issue (siwx_challenge_json). */
struct siwx_challenge {
	const char *domain;
	const char *uri;
	const char *nonce;
	const char *statement;           /* NULL for none */
	const char *request_id;          /* NULL for none: the row's request binding */
	int64_t issued_at, expires_at;   /* Unix seconds */
	uint64_t chain_id;
};

/*
 * Decode and check the shape of the SIGN-IN-WITH-X header hdr, and rebuild
 * the signed text's digest into out->digest. On SIWX_OK the caller owns
 * *out (siwx_proof_release); on anything else nothing is left to release.
 */
enum siwx_rc siwx_parse(const char *hdr, struct siwx_proof *out, char *msg, size_t cap);

/* Free what siwx_parse kept (safe on a zeroed or released proof). */
void siwx_proof_release(struct siwx_proof *p);

/* Append the EIP-4361 text the wallet signed for p to out; 0 or -1 (full). */
int siwx_message(const struct siwx_proof *p, struct buf *out);

/* Does p answer the challenge described by want, at want->now? */
enum siwx_rc siwx_check(const struct siwx_proof *p, const struct siwx_expect *want, char *msg, size_t cap);

/*
 * Is p's signature its address's? *kind (may be NULL) gets the kind of
 * check that decided. SIWX_UNAVAILABLE when a contract wallet's check
 * needs the chain RPC and it cannot answer (the caller answers 503).
 */
enum siwx_rc siwx_verify(const struct config *cfg, const struct siwx_proof *p, enum walletsig_kind *kind,
    char *msg, size_t cap);

/*
 * The Request ID that binds a JSON request body to a sign-in proof
 * (docs/PROTOCOL.md, Sign-In-With-X): "0x" + the lowercase hex SHA-256 of
 * body's RFC 8785 canonical JSON (lib/json.h, json_canonical), into
 * out[SIWX_REQUEST_ID_LEN + 1]. 0; -1 when body has no canonical form (a
 * number that is not an integer within +-(2^53 - 1)); -2 when memory ran
 * out.
 */
int siwx_body_request_id(json_object *body, char out[SIWX_REQUEST_ID_LEN + 1]);

/* The "sign-in-with-x" extension object of a 402 challenge. */
json_object *siwx_challenge_json(const struct siwx_challenge *c);

/* A short stable code for rc ("siwx_wrong_uri", ...), for error bodies and logs. */
const char *siwx_rc_code(enum siwx_rc rc);

#endif
