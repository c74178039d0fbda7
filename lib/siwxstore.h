/*
 * siwxstore.h: the Sign-In-With-X challenges we issued (sql/009), in
 * MariaDB. A challenge is a random nonce bound to the public domain, the
 * exact operation URI (kept as its SHA-256) and the dispatch-table row,
 * valid SIWXSTORE_TTL_S seconds, usable once (docs/ARCHITECTURE.md,
 * Sign-In-With-X).
 *
 * Whether a proof may use a challenge is decided by one conditional
 * UPDATE (siwxstore_consume) whose affected-row count is the answer; the
 * read siwxstore_lookup only tells early, before any chain call, why a
 * proof cannot pass, and names the reason. Only the proof's digest and
 * verification metadata are written, never the proof.
 *
 * Rows are short-lived (siwxstore_prune): an unused challenge, which any
 * caller can make, is deleted SIWXSTORE_UNUSED_KEEP_S after its expiry; a
 * used one, the record of a verified sign-in, SIWXSTORE_KEEP_S after.
 * Deleting a row can only make a proof fail (its nonce is then unknown),
 * never pass.
 *
 * Return conventions: siwxstore_issue, siwxstore_fail and siwxstore_prune
 * are actions (0, or -1 when the database failed); siwxstore_lookup and
 * siwxstore_consume return enum siwxstore_rc.
 */
#ifndef WAYMARK_SIWXSTORE_H
#define WAYMARK_SIWXSTORE_H

#include <stdint.h>

#include "db.h"

#define SIWXSTORE_TTL_S 300          /* a challenge is good for five minutes */
#define SIWXSTORE_UNUSED_KEEP_S 120  /* unused rows are deleted this long after they expire */
#define SIWXSTORE_KEEP_S 86400       /* used rows are deleted a day after they expire */
#define SIWXSTORE_NONCE_LEN 32       /* 16 random bytes as lowercase hex */
#define SIWXSTORE_MAX_FAILURES 3     /* failed proofs that burn a challenge */

enum siwxstore_rc {
	SIWXSTORE_OK = 0,
	SIWXSTORE_UNKNOWN,       /* we never issued this nonce (or pruned it) */
	SIWXSTORE_OTHER_OP,      /* issued for another row, URI or domain */
	SIWXSTORE_EXPIRED,       /* issued here, but its five minutes are over */
	SIWXSTORE_USED,          /* issued here, and already used */
	SIWXSTORE_BURNED,        /* issued here, and burned by SIWXSTORE_MAX_FAILURES failed proofs */
	SIWXSTORE_UNAVAILABLE,   /* the database failed */
};

/* What a challenge is bound to. */
struct siwx_binding {
	const char *endpoint_id;     /* the dispatch-table row */
	const char *domain;          /* the public origin's host[:port] */
	uint8_t uri_digest[32];      /* SHA-256 of the exact operation URI */
};

/* What a consumed challenge records of the proof. */
struct siwx_use {
	uint8_t account[20];
	uint8_t proof_digest[32];    /* EIP-191 hash of the signed text */
	const char *signature_kind;  /* "eoa", "erc1271" or "erc6492" */
};

/*
 * Issue a new challenge bound to b at Unix time now: a fresh nonce into
 * nonce[SIWXSTORE_NONCE_LEN + 1], stored with expiry now + TTL. Now and
 * then (about one issue in 64) it also runs one batch of siwxstore_prune,
 * so the unused rows are deleted at least as fast as callers make them.
 */
int siwxstore_issue(struct db *db, const struct siwx_binding *b, int64_t now,
    char nonce[SIWXSTORE_NONCE_LEN + 1]);

/* May nonce still be used for b at now? A read; nothing changes. */
enum siwxstore_rc siwxstore_lookup(struct db *db, const char *nonce, const struct siwx_binding *b,
    int64_t now);

/*
 * Use nonce for b at now, recording u: SIWXSTORE_OK only when this very
 * call took it (one conditional UPDATE, its affected-row count decides);
 * otherwise the reason, as siwxstore_lookup tells it.
 */
enum siwxstore_rc siwxstore_consume(struct db *db, const char *nonce, const struct siwx_binding *b,
    int64_t now, const struct siwx_use *u);

/*
 * Count one failed proof (a signature that did not verify) against nonce
 * for b; the SIWXSTORE_MAX_FAILURES-th burns it. 0, or -1 when the
 * database failed.
 */
int siwxstore_fail(struct db *db, const char *nonce, const struct siwx_binding *b);

/*
 * Delete challenges that can no longer be used, at Unix time now: unused
 * ones expired more than SIWXSTORE_UNUSED_KEEP_S ago (a margin for clocks
 * and for a proof whose signature check is still running), and every one
 * expired more than SIWXSTORE_KEEP_S ago. Each statement deletes at most
 * one batch in a transaction of its own (never one large write set on a
 * cluster); max_batches bounds the batches of each kind (SIZE_MAX: until
 * none is left). *deleted (may be NULL) gets the number of rows deleted.
 */
int siwxstore_prune(struct db *db, int64_t now, size_t max_batches, uint64_t *deleted);

#endif
