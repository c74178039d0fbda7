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
 * Return conventions: siwxstore_issue is an action (0, or -1 when the
 * database failed); siwxstore_lookup and siwxstore_consume return enum
 * siwxstore_rc.
 */
#ifndef WAYMARK_SIWXSTORE_H
#define WAYMARK_SIWXSTORE_H

#include <stdint.h>

#include "db.h"

#define SIWXSTORE_TTL_S 300          /* a challenge is good for five minutes */
#define SIWXSTORE_KEEP_S 86400       /* rows are pruned a day after they expire */
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
 * then it also prunes rows expired more than SIWXSTORE_KEEP_S ago.
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

#endif
