/*
 * profiles.h: what the two wallet-profile handler files share
 * (profiles.c: the profile; links.c: its wallet links). docs/ARCHITECTURE.md,
 * Wallet profiles.
 */
#ifndef WAYMARK_PROFILES_H
#define WAYMARK_PROFILES_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "db.h"

#define PROFILE_WALLETS_MAX 8
#define PROFILE_LINK_TTL_S 300        /* a pending link may be confirmed for five minutes */

struct profile {
	uint8_t id[16];
	uint8_t controller[20];
	char mode[16];                    /* "private" or "public_all" */
	int64_t created_at;
};

/* A version 4 UUID from the kernel's random source; 0 or -1. */
int uuid_new(uint8_t u[16]);

/* The lowercase 8-4-4-4-12 text of u into out[37]. */
void uuid_text(const uint8_t u[16], char out[37]);

/* "eip155:8453:0x<EIP-55>" of a 20-byte address, as a new JSON string. */
json_object *account_json(const uint8_t a[20]);

/* RFC 3339 UTC of Unix seconds t, as a new JSON string. */
json_object *time_json(int64_t t);

/*
 * The profile with ID id (when id is not NULL), or else the one whose
 * controller is controller, into *p; *found says whether there is one.
 * DB_OK, or the database's failure.
 */
enum db_rc profile_load(struct db *db, const uint8_t *id, const uint8_t *controller, struct profile *p,
    bool *found);

/*
 * The profile as its controller reads it: {profileId, controllerAccount,
 * discoveryMode, createdAt, walletLimit, wallets[{linkId, accountId, role,
 * linkedAt}]} with the active wallets by slot, a new object; NULL when the
 * database failed.
 */
json_object *profile_json(struct db *db, const struct profile *p);

#define PROFILE_LINK_KEEP_S (7 * 86400)   /* ended pending links are pruned after a week */

/*
 * The scheduled task (waymark profiles-prune, which also prunes the SIWX
 * challenges: lib/siwxstore.h): pending links past their expiry become
 * expired (*expired counts them); expired links whose expiry is
 * PROFILE_LINK_KEEP_S old are deleted (*pruned). DB_OK, or the database's
 * failure.
 */
enum db_rc links_prune(struct db *db, int64_t now, uint64_t *expired, uint64_t *pruned);

#endif
