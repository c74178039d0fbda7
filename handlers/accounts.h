/*
 * accounts.h: the linked accounts of wallets (docs/PROTOCOL.md, Tip reads),
 * read from what the indexer keeps of the tips contract and the ERC-8004
 * registry:
 *
 *   {handle, provider github|x|agent, linkedWallet, profileUrl,
 *    verification}
 *
 * A github: or x: handle is linked to the wallet of its latest
 * Linked/Relinked event (handle_links; verification <brand>_oauth_link:
 * the link voucher is signed only after the handle's OAuth proof), shown
 * only when its text is known (handle_names: a tip named it). An agent:<N>
 * is linked to the wallet the registry now resolves its payout to
 * (agents.payout_wallet: the agent wallet, else the owner; verification
 * erc8004_indexed_at_recognition, the resolution a recognition uses).
 *
 * Return conventions: enum db_rc; nothing is answered to the client here.
 */
#ifndef WAYMARK_ACCOUNTS_H
#define WAYMARK_ACCOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "config.h"
#include "db.h"

#define ACCOUNTS_FILL_MAX 512   /* wallets one accounts_fill call may look up */

/* A wallet and the array (borrowed) its GitHub/X accounts are appended to. */
struct account_slot {
	uint8_t wallet[20];
	json_object *list;
};

/*
 * Append to each slot's list the GitHub/X accounts linked to its wallet,
 * by handle; one query for all slots (n <= ACCOUNTS_FILL_MAX, else
 * DB_ERROR). Slots may repeat a wallet.
 */
enum db_rc accounts_fill(struct db *db, const struct config *cfg, const struct account_slot *slots,
    size_t n);

/*
 * A slot for the address text held by member key of obj (EIP-55 or
 * lowercase) and the array list: true when it is a nonzero address.
 */
bool account_slot_set(struct account_slot *slot, json_object *obj, const char *key, json_object *list);

/*
 * Fill the reviewer.accounts of every review record in the array arr
 * (the public review record, handlers/reviews.h).
 */
enum db_rc accounts_fill_reviews(struct db *db, const struct config *cfg, json_object *arr);

/*
 * Every account linked to wallet (GitHub/X handles and agents), ordered by
 * handle text, appended to list; the handle texts also to handles when it is
 * not NULL.
 */
enum db_rc accounts_of_wallet(struct db *db, const struct config *cfg, const uint8_t wallet[20],
    json_object *list, json_object *handles);

/*
 * The wallet a handle is linked to now (GitHub/X: its latest link; agent:
 * the registry's payout) as 40 lowercase hex digits into hex[41]; *found
 * false when none. hh is the handle's hash, agent_id its decimal id or NULL.
 */
enum db_rc accounts_linked_wallet(struct db *db, const struct config *cfg, const uint8_t hh[32],
    const char *agent_id, char hex[41], bool *found);

/*
 * identityResolution of the reads that show accounts: "complete" once the
 * indexer follows the tips contract (a checkpoint exists: every link up to
 * its block is known), else "not_indexed". *out is a static string.
 */
enum db_rc accounts_resolution(struct db *db, const struct config *cfg, const char **out);

/* One linked-account object; NULL when out of memory or handle is not a handle. */
json_object *account_new(const struct config *cfg, const char *handle, const char *wallet_hex40);

#endif
