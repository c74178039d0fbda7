/*
 * privtips.h: private tips (docs/PROTOCOL.md, Private tips), shared by
 * privtips.c (blobs, pending previews, unlock challenges, the unlock) and
 * disclosure.c: one indexed private tip, its note from its blob, its
 * amount from the chain.
 *
 * Return conventions: enum err (ERR_NONE, or what the caller answers with;
 * nothing is written to a response here).
 */
#ifndef WAYMARK_PRIVTIPS_H
#define WAYMARK_PRIVTIPS_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"
#include "decimal.h"
#include "err.h"
#include "http.h"
#include "privtip.h"

#define PRIVTIPS_VERSION "0.1"

struct ptip {
	uint64_t tip_id;
	bool agent;                     /* an agent tip (agent_id), else a handle tip */
	char handle[91];                /* displayHandle as emitted, agent:<N> for agents */
	char agent_id[79];
	uint8_t tipper[20];
	uint8_t handle_hash[32];
	uint8_t commitment[32];
	uint8_t tx[32];
	uint64_t log_index;
	char status[12];                /* escrowed, pushed, claimed, refunded */
};

/*
 * The indexed private tip with tip_id (by_tx NULL), or the first one the
 * transaction by_tx created. ERR_NONE, ERR_NOT_FOUND (none, or not
 * private), ERR_DATABASE_UNAVAILABLE.
 */
enum err privtips_load(struct req *r, uint64_t tip_id, const uint8_t *by_tx, struct ptip *out);

/*
 * The note of the tip's blob into note[PRIVTIP_NOTE_MAX + 1]; *found false
 * when no blob is stored for its commitment. ERR_NONE,
 * ERR_DATABASE_UNAVAILABLE, ERR_PRIVATE_TIPS_UNAVAILABLE (no key), or
 * ERR_INTERNAL (a blob that does not open under the key).
 */
enum err privtips_note(struct req *r, const struct ptip *t, char *note, bool *found);

/*
 * The tip's amount (atomic USDC, decimal) from its transaction's receipt:
 * the last USDC Transfer from the tipper before the tip's event.
 * ERR_NONE, ERR_CHAIN_UNAVAILABLE (the RPC cannot answer), ERR_INTERNAL
 * (no such transfer: a receipt that is not a tip of the tips contract).
 */
enum err privtips_amount(struct req *r, const struct ptip *t, char amount[DECIMAL_ATOMIC_BUFSZ]);

/*
 * Whether payer may read t by its own signature because it paid to unlock
 * it: a grant (private_tip_grants, written by the paid read of the row
 * endpoint_id before settlement) whose payment's ledger row is settled,
 * for that row and paid to t's tipper. A grant whose payment is reserved,
 * of unknown outcome, refused, released or void counts for nothing.
 * ERR_NONE (*yes says), ERR_DATABASE_UNAVAILABLE.
 */
enum err privtips_paid_grant(struct db *d, const struct config *cfg, const char *endpoint_id,
    const struct ptip *t, const uint8_t payer[20], bool *yes);

/* Delete blobs no indexed tip carries, uploaded more than 7 days ago, and nonces expired a day ago. */
enum db_rc privtips_prune(struct db *d, const struct config *cfg, int64_t now, uint64_t *blobs,
    uint64_t *nonces);

#endif
