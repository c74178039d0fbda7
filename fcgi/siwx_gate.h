/*
 * siwx_gate.h: the gatekeeper's step for AUTH_SIWX rows, identity-only
 * sign-in with a wallet (docs/ARCHITECTURE.md, Sign-In-With-X), in this
 * order:
 *
 *   database unreachable                503 database_unavailable
 *   a body with no canonical form       400 invalid_request (no challenge)
 *   no SIGN-IN-WITH-X                   402 siwx_required + a challenge
 *   not a proof of the right shape      402 siwx_malformed + a fresh challenge
 *   another domain, URI or chain        402 siwx_wrong_domain / _uri / _chain + a fresh one
 *   its own times out of range          402 siwx_stale + a fresh one
 *   nonce not ours for this operation   402 siwx_wrong_nonce + a fresh one
 *   challenge older than five minutes   402 siwx_expired + a fresh one
 *   challenge already used              402 siwx_replayed + a fresh one
 *   Request ID not this request's       400 request_mismatch (or the row's), nothing consumed
 *   signature not the wallet's          402 siwx_bad_signature + a fresh one
 *   contract wallet, chain RPC down     503 signature_check_unavailable, nothing consumed
 *   the challenge is consumed (one conditional UPDATE decides), then the
 *   row's handler runs with r->siwx (the verified account). A handler
 *   that refuses the account with a 402 (siwx_wrong_account) gets a fresh
 *   challenge attached too.
 *
 * A challenge is the x402 PAYMENT-REQUIRED header with an empty `accepts`
 * and the `sign-in-with-x` extension (lib/siwx.h); its nonce is stored
 * (lib/siwxstore.h) bound to the public domain, the exact operation URI
 * (public_base_url + path + query) and the row. Its Request ID binds the
 * request itself: the row's siwx_request hook, else the canonical digest
 * of a JSON body (lib/endpoint.h), else none; the proof must carry exactly
 * that. Proofs are never logged or stored; only their digest is.
 */
#ifndef WAYMARK_SIWX_GATE_H
#define WAYMARK_SIWX_GATE_H

#include "gate.h"

#define SIWX_CHAIN_ID VALID_ACCOUNT_CHAIN_ID   /* Base: the only chain a proof may name */

/* Run the SIWX checks and, when they pass, r's handler; writes w. */
enum err siwx_gate_run(const struct gate *g, struct req *r, struct resp *w);

#endif
