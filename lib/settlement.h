/*
 * settlement.h: a Base USDC settlement verified on the chain
 * (docs/ARCHITECTURE.md, Profile activity): one ERC-20 Transfer log of the
 * configured USDC contract, from a given wallet, in one given transaction
 * that succeeded, at least `confirmations` blocks deep. Nothing else of the
 * chain is ever read: no other token, no other transaction, no log that
 * does not move USDC out of that wallet.
 *
 * Two layers, so the reading of untrusted node replies can be tested and
 * fuzzed without a node:
 *   - settlement_read: reads an eth_getTransactionReceipt result (any
 *     JSON, untrusted) and picks the matching Transfer log;
 *   - settlement_verify: asks the node (cfg->rpc_url) for the receipt, the
 *     head and the block, and runs settlement_read on the answer.
 *
 * Return conventions: both return enum settlement_rc (SETTLEMENT_OK is 0);
 * on anything but OK *out is unspecified. Nothing allocates for the
 * caller.
 */
#ifndef WAYMARK_SETTLEMENT_H
#define WAYMARK_SETTLEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "config.h"
#include "u256.h"

#define SETTLEMENT_AMOUNT_DIGITS 65     /* the widest amount stored (DECIMAL(65,0)) */
#define SETTLEMENT_LOG_INDEX_MAX 2147483647  /* a log index beyond this is never a candidate */

enum settlement_rc {
	SETTLEMENT_OK = 0,
	SETTLEMENT_UNKNOWN_TX,      /* the node knows no such (mined) transaction */
	SETTLEMENT_FAILED,          /* the transaction reverted (receipt status 0) */
	SETTLEMENT_NO_TRANSFER,     /* no USDC Transfer from the wallet matches (at logIndex, if given) */
	SETTLEMENT_AMBIGUOUS,       /* several match and no logIndex says which */
	SETTLEMENT_ZERO,            /* the matching Transfer moved nothing */
	SETTLEMENT_TOO_LARGE,       /* its value has more than SETTLEMENT_AMOUNT_DIGITS digits */
	SETTLEMENT_UNCONFIRMED,     /* fewer than `confirmations` blocks on top, or the block changed */
	SETTLEMENT_BAD_REPLY,       /* the node's answer is not a receipt of that transaction */
	SETTLEMENT_UNAVAILABLE,     /* no rpc_url, or the node could not be asked */
	SETTLEMENT_RC__MAX
};

/* Which Transfer log is wanted. */
struct settlement_want {
	uint8_t tx[32];             /* the transaction */
	struct addr token;          /* the USDC contract that must have emitted the log */
	struct addr from;           /* the wallet the USDC must leave */
	const struct addr *to;      /* NULL: any payee */
	const struct u256 *value;   /* NULL: any value */
	int64_t log_index;          /* -1: the one log that matches */
};

/* The verified Transfer. */
struct settlement {
	uint64_t log_index;         /* within the block, as the node numbers logs */
	struct addr to;             /* the payee */
	struct u256 value;          /* atomic units */
	char amount[SETTLEMENT_AMOUNT_DIGITS + 1];   /* value in decimal */
	uint64_t block_number;
	uint8_t block_hash[32];
	uint64_t block_time;        /* Unix seconds (settlement_verify only) */
};

/*
 * Read an eth_getTransactionReceipt result rcpt (NULL or JSON null: the
 * transaction is unknown) for w: the receipt must name w->tx, carry a
 * block number and hash and status 0x1; among its logs (removed ones
 * skipped) those emitted by w->token with topic0 Transfer(address,
 * address,uint256), topic1 = w->from and, when given, topic2 = *w->to and
 * data = *w->value are candidates; with w->log_index >= 0 the one at that
 * index must be a candidate, else exactly one candidate must exist (with
 * w->to and w->value given, the first of equal candidates is taken).
 */
enum settlement_rc settlement_read(json_object *rcpt, const struct settlement_want *w,
    struct settlement *out);

/*
 * Ask the node for w's transaction receipt, the head block number and the
 * receipt's block, and verify: settlement_read, then at least
 * cfg->confirmations blocks after it (head - block >= confirmations), and
 * the block's hash still the receipt's (out->block_time from that block).
 */
enum settlement_rc settlement_verify(const struct config *cfg, const struct settlement_want *w,
    struct settlement *out);

/* One sentence a client may read, for rc; never NULL, static storage. */
const char *settlement_strerror(enum settlement_rc rc);

#endif
